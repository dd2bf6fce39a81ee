package raftcore

import (
	"fmt"
	"strconv"
	"strings"
)

// Action is one thing done to the world: a fault, a network change or a
// client request. The UI, scenarios and schedules all change the world only
// through actions, and every applied action is logged, so a run is fully
// described by its Config and its action log.
type Action struct {
	// AtMs is the virtual time of the action in milliseconds.
	AtMs float64 `json:"at_ms"`
	Do   Verb    `json:"do"`
	Node int     `json:"node,omitempty"`
	From int     `json:"from,omitempty"`
	To   int     `json:"to,omitempty"`
	// OneWay limits cut, restore, latency and loss to the from->to direction.
	OneWay bool    `json:"oneway,omitempty"`
	Groups [][]int `json:"groups,omitempty"`
	// MsPerMessage is, for "slow", how long the machine takes to handle
	// each message, in virtual milliseconds; 1 is normal, where a message
	// costs no time.
	MsPerMessage float64 `json:"ms_per_message,omitempty"`
	// Rate is, for "drift", how fast the machine's clock runs against real
	// time (1 is exact, 0.5 ticks half as often).
	Rate  float64 `json:"rate,omitempty"`
	Key   string  `json:"key,omitempty"`
	Value string  `json:"value,omitempty"`
	// Mode is how a "read" is served; empty means linearizable.
	Mode ReadMode `json:"mode,omitempty"`
	// IfRev makes a "write" a compare-and-swap: it takes effect only if the
	// key's revision is still *IfRev when applied (0: the key must not
	// exist).
	IfRev *uint64 `json:"if_rev,omitempty"`
	// Change, ThinkMs and Cas describe a "control" action's controller:
	// what it changes in the object it reads ("replicas+1" adds one to a
	// number, "image=web:2" sets a field), how long it thinks between the
	// read and the write, and whether its write is a compare-and-swap on
	// the revision it read (retrying from a fresh read when it fails).
	Change    string    `json:"change,omitempty"`
	ThinkMs   float64   `json:"think_ms,omitempty"`
	Cas       bool      `json:"cas,omitempty"`
	ID        uint64    `json:"id,omitempty"`
	LatencyMs []float64 `json:"latency_ms,omitempty"`
	Loss      *float64  `json:"loss,omitempty"`
	Duplicate *float64  `json:"duplicate,omitempty"`
	// Ms is how far ahead "timer" sets a machine's election timer to run
	// out, in virtual milliseconds.
	Ms float64 `json:"ms,omitempty"`
	// Zone names the zone of "zone-cut", "zone-heal", "zone-crash" and
	// "zone-restart", and where "move" puts machine Node.
	Zone string `json:"zone,omitempty"`
	// Voters is, for "joint", the incoming voters of the joint
	// configuration to enter.
	Voters []int `json:"voters,omitempty"`
	// Setting is, for "set", the setting to change: "prevote",
	// "checkquorum" or the name of a deliberate bug (Bugs); Value is then
	// "on" or "off".
	Setting string `json:"setting,omitempty"`
	// EveryMs and Keys are, for "load", how often its client writes, in
	// virtual milliseconds, and how many keys it writes round (Key is
	// their prefix).
	EveryMs float64 `json:"every_ms,omitempty"`
	Keys    int     `json:"keys,omitempty"`
	// AfterEvents, when set, is the number of events that had been handled
	// when the action was taken; replay uses it to act between two events of
	// the same instant exactly as the original run did.
	AfterEvents uint64 `json:"after_events,omitempty"`
}

// Verb names what an action does. In JSON it is the plain word ("crash").
type Verb string

// The verbs, in the order docs/raftsim.md gives them.
const (
	DoPartition Verb = "partition" // split the machines into groups that cannot talk
	DoHeal      Verb = "heal"      // bring every link back
	DoCut       Verb = "cut"       // take one link down
	DoRestore   Verb = "restore"   // bring one link back
	DoLatency   Verb = "latency"   // set how long messages take
	DoLoss      Verb = "loss"      // set the chance a message is lost
	DoDuplicate Verb = "duplicate" // set the chance a message arrives twice
	DoDrop      Verb = "drop"      // lose one message in flight
	DoDeliver   Verb = "deliver"   // hand one message in flight to its machine now
	DoRepeat    Verb = "repeat"    // put a second copy of one message in flight
	DoPause     Verb = "pause"     // freeze a machine, keeping everything
	DoResume    Verb = "resume"    // unfreeze it
	DoCrash     Verb = "crash"     // stop a machine, losing what is not on disk
	DoRestart   Verb = "restart"   // start a crashed machine from its disk
	DoSlow      Verb = "slow"      // make a machine take longer per message
	DoDrift     Verb = "drift"     // make a machine's clock run fast or slow
	DoTimeout   Verb = "timeout"   // make a machine's election timer run out now
	DoTimer     Verb = "timer"     // set when a machine's election timer runs out
	DoHeartbeat Verb = "heartbeat" // make a leader's heartbeat timer run out now
	DoWrite     Verb = "write"     // a client writes a key
	DoDelete    Verb = "delete"    // a client deletes a key
	DoRead      Verb = "read"      // a client reads a key

	DoZoneCut     Verb = "zone-cut"     // cut every link between a zone and the rest
	DoZoneHeal    Verb = "zone-heal"    // bring those links back
	DoZoneCrash   Verb = "zone-crash"   // crash every machine in a zone
	DoZoneRestart Verb = "zone-restart" // restart every crashed machine in a zone
	DoMove        Verb = "move"         // move a machine to another zone
	DoControl     Verb = "control"      // a controller reads a key, thinks, and writes it back changed
	DoLoad        Verb = "load"         // a client writes every so often, round a few keys, until stopped
	DoLoadStop    Verb = "load-stop"    // stop that client

	DoAdd            Verb = "add"             // add a machine as a voter
	DoAddLearner     Verb = "add-learner"     // add a machine as a learner
	DoPromote        Verb = "promote"         // make a learner a voter
	DoRemove         Verb = "remove"          // take a machine out of the configuration
	DoJoint          Verb = "joint"           // change the voters through a joint configuration
	DoTransferLeader Verb = "transfer-leader" // hand leadership to a machine

	DoSet Verb = "set" // change a protocol setting from now on (setting.go)

	DoDeployController Verb = "deploy-controller" // start a deployment controller and its informer (reconcile.go)
	DoReconcile        Verb = "reconcile"         // put a Deployment on every deployment controller's queue
	DoWatchCut         Verb = "watch-cut"         // cut deployment controllers' watches
)

// Verbs lists every verb, in the order docs/raftsim.md gives them.
var Verbs = []Verb{
	DoPartition, DoHeal, DoCut, DoRestore, DoLatency, DoLoss, DoDuplicate, DoDrop,
	DoDeliver, DoRepeat, DoPause, DoResume, DoCrash, DoRestart, DoSlow, DoDrift, DoTimeout,
	DoTimer, DoHeartbeat, DoWrite, DoDelete, DoRead, DoControl, DoLoad, DoLoadStop,
	DoZoneCut, DoZoneHeal, DoZoneCrash, DoZoneRestart, DoMove,
	DoAdd, DoAddLearner, DoPromote, DoRemove, DoJoint, DoTransferLeader,
	DoSet,
	DoDeployController, DoReconcile, DoWatchCut,
}

// verbList is the verbs as a comma-separated list, for error messages.
func verbList() string {
	names := make([]string, len(Verbs))
	for i, v := range Verbs {
		names[i] = string(v)
	}
	return strings.Join(names, ", ")
}

// AtUs is the action's time in microseconds.
func (a Action) AtUs() int64 { return msToUs(a.AtMs) }

func (a Action) String() string {
	// Every applied action's text goes into the trace, so it is written
	// with strconv rather than fmt; the words are fmt's ("%g", "%d", "%v").
	b := make([]byte, 0, 48)
	b = strconv.AppendFloat(b, a.AtMs, 'g', -1, 64)
	b = append(b, "ms "...)
	b = append(b, a.Do...)
	return string(a.appendArgs(b))
}

// appendArgs appends to b what the action is done to and with, as String
// writes it after the verb.
func (a Action) appendArgs(b []byte) []byte {
	g := func(f float64) { b = strconv.AppendFloat(b, f, 'g', -1, 64) }
	d := func(n int) { b = strconv.AppendInt(b, int64(n), 10) }
	switch a.Do {
	case DoPartition:
		b = appendGroups(append(b, ' '), a.Groups)
	case DoCut, DoRestore:
		b = append(b, ' ')
		d(a.From)
		if a.OneWay {
			b = append(b, "->"...)
		} else {
			b = append(b, "<->"...)
		}
		d(a.To)
	case DoPause, DoResume, DoCrash, DoRestart, DoTimeout, DoHeartbeat:
		b = append(b, ' ')
		d(a.Node)
	case DoSlow:
		b = append(b, ' ')
		d(a.Node)
		b = append(b, ' ')
		g(a.MsPerMessage)
		b = append(b, "ms/msg"...)
	case DoDrift:
		b = append(b, ' ')
		d(a.Node)
		b = append(b, " x"...)
		g(a.Rate)
	case DoTimer:
		b = append(b, ' ')
		d(a.Node)
		b = append(b, " in "...)
		g(a.Ms)
		b = append(b, "ms"...)
	case DoWrite, DoControl, DoDelete, DoRead:
		b = a.appendClientArgs(b)
	case DoLoad, DoLoadStop:
		b = a.appendLoadArgs(b)
	case DoDrop, DoDeliver, DoRepeat:
		b = append(b, " message "...)
		b = strconv.AppendUint(b, a.ID, 10)
	case DoZoneCut, DoZoneHeal, DoZoneCrash, DoZoneRestart:
		b = append(append(b, ' '), a.Zone...)
	case DoMove:
		b = append(b, ' ')
		d(a.Node)
		b = append(append(b, " to "...), a.Zone...)
	case DoAdd, DoAddLearner, DoPromote, DoRemove, DoJoint, DoTransferLeader:
		b = a.appendMemberArgs(b)
	case DoSet:
		b = append(append(append(append(b, ' '), a.Setting...), ' '), a.Value...)
	case DoDeployController, DoReconcile, DoWatchCut:
		b = a.appendDeployArgs(b)
	}
	return b
}

// appendMemberArgs appends a membership verb's arguments: the machine (or,
// for "joint", the new voters) and the machine asked, when one is named.
func (a Action) appendMemberArgs(b []byte) []byte {
	b = append(b, ' ')
	if a.Do == DoJoint {
		b = append(b, '(')
		for i, id := range a.Voters {
			if i > 0 {
				b = append(b, ' ')
			}
			b = strconv.AppendInt(b, int64(id), 10)
		}
		b = append(b, ')')
	} else {
		b = strconv.AppendInt(b, int64(a.Node), 10)
	}
	if a.From != 0 {
		b = append(b, " via "...)
		b = strconv.AppendInt(b, int64(a.From), 10)
	}
	return b
}

// appendGroups appends a partition's groups as fmt's %v writes them:
// [[1 2] [3]].
func appendGroups(b []byte, groups [][]int) []byte {
	b = append(b, '[')
	for i, grp := range groups {
		if i > 0 {
			b = append(b, ' ')
		}
		b = append(b, '[')
		for j, id := range grp {
			if j > 0 {
				b = append(b, ' ')
			}
			b = strconv.AppendInt(b, int64(id), 10)
		}
		b = append(b, ']')
	}
	return append(b, ']')
}

// appendClientArgs appends a client verb's arguments: the machine asked
// and the key, then what each verb adds.
func (a Action) appendClientArgs(b []byte) []byte {
	b = append(b, ' ')
	if a.Node == 0 {
		b = append(b, "cluster"...)
	} else {
		b = strconv.AppendInt(b, int64(a.Node), 10)
	}
	b = append(append(b, ' '), a.Key...)
	switch a.Do {
	case DoWrite:
		b = append(append(b, '='), a.Value...)
		if a.IfRev != nil {
			b = append(b, " if rev "...)
			b = strconv.AppendUint(b, *a.IfRev, 10)
		}
	case DoControl:
		b = append(append(b, ' '), a.Change...)
		b = append(b, " think "...)
		b = strconv.AppendFloat(b, a.ThinkMs, 'g', -1, 64)
		b = append(b, "ms"...)
		if a.Cas {
			b = append(b, " cas"...)
		}
	case DoRead:
		b = append(append(b, " ("...), a.Mode...)
		b = append(b, ')')
	}
	return b
}

// Validate checks an action against a world of n machines without applying
// it. Errors name the field at fault.
func (a Action) Validate(n int) error {
	if a.AtMs < 0 {
		return fmt.Errorf("at_ms: %g is negative", a.AtMs)
	}
	if err := a.validateVersioned(); err != nil {
		return err
	}
	if err := a.validateLoad(n); err != nil {
		return err
	}
	switch a.Do {
	case DoPartition, DoHeal, DoCut, DoRestore, DoLatency, DoLoss, DoDuplicate, DoDrop, DoDeliver, DoRepeat:
		return a.validateNetwork(n)
	case DoPause, DoResume, DoCrash, DoRestart, DoTimeout, DoHeartbeat, DoSlow, DoDrift, DoTimer:
		return a.validateMachine(n)
	case DoWrite, DoDelete, DoRead, DoControl:
		if a.Key == "" {
			return fmt.Errorf("key: %s needs a key, e.g. \"deployments/web\"", a.Do)
		}
		if a.Do == DoRead {
			if _, err := ParseReadMode(string(a.Mode)); err != nil {
				return fmt.Errorf("mode: %v", err)
			}
		}
		if a.Node == 0 && (a.Do == DoWrite || a.Do == DoDelete) {
			return nil // to the cluster: its client picks the machine (endpoint.go)
		}
		return validNode("node", a.Node, n)
	case DoLoad, DoLoadStop:
		return nil // validateLoad
	case DoZoneCut, DoZoneHeal, DoZoneCrash, DoZoneRestart:
		if a.Zone == "" {
			return fmt.Errorf("zone: %s needs a zone's name, e.g. \"east\"", a.Do)
		}
		return nil
	case DoMove:
		if a.Zone == "" {
			return fmt.Errorf("zone: move needs the name of the zone to move the machine to")
		}
		return validNode("node", a.Node, n)
	case DoAdd, DoAddLearner, DoPromote, DoRemove, DoJoint, DoTransferLeader:
		return a.validateMember(n)
	case DoSet:
		return a.validateSetting()
	case DoDeployController, DoReconcile, DoWatchCut:
		return a.validateDeploy(n)
	case "":
		return fmt.Errorf("do: missing; use one of %s", verbList())
	}
	return fmt.Errorf("do: unknown action %q; use one of %s", a.Do, verbList())
}

// validNode checks that v, the value of field, names one of n machines.
func validNode(field string, v, n int) error {
	if v < 1 || v > n {
		return fmt.Errorf("%s: %d is out of range: use 1 to %d", field, v, n)
	}
	return nil
}

// validateNetwork checks the verbs that change links and messages in
// flight.
func (a Action) validateNetwork(n int) error {
	pair := func() error {
		if err := validNode("from", a.From, n); err != nil {
			return err
		}
		if err := validNode("to", a.To, n); err != nil {
			return err
		}
		if a.From == a.To {
			return fmt.Errorf("to: a link joins two different machines, but from and to are both %d", a.From)
		}
		return nil
	}
	// Latency, loss and duplication name one link, or none for every link.
	optionalPair := func() error {
		if a.From == 0 && a.To == 0 {
			return nil
		}
		return pair()
	}
	probability := func(p *float64) bool { return p != nil && *p >= 0 && *p <= 1 }
	switch a.Do {
	case DoPartition:
		return a.validateGroups(n)
	case DoCut, DoRestore:
		return pair()
	case DoLatency:
		if len(a.LatencyMs) != 2 || a.LatencyMs[0] < 0 || a.LatencyMs[1] < a.LatencyMs[0] || a.LatencyMs[1] > 60000 {
			return fmt.Errorf("latency_ms: want [min, max] with 0 <= min <= max <= 60000, got %v", a.LatencyMs)
		}
		return optionalPair()
	case DoLoss:
		if !probability(a.Loss) {
			return fmt.Errorf("loss: want a probability between 0 and 1")
		}
		return optionalPair()
	case DoDuplicate:
		if !probability(a.Duplicate) {
			return fmt.Errorf("duplicate: want a probability between 0 and 1")
		}
		return optionalPair()
	case DoDrop, DoDeliver, DoRepeat:
		if a.ID == 0 {
			return fmt.Errorf("id: %s needs the id of a message in flight", a.Do)
		}
	}
	return nil
}

// validateGroups checks a partition's groups: at least one, of machines
// that exist, none in two groups.
func (a Action) validateGroups(n int) error {
	if len(a.Groups) == 0 {
		return fmt.Errorf("groups: partition needs at least one group, e.g. [[1,2],[3]]")
	}
	seen := make([]bool, n+1)
	for gi, g := range a.Groups {
		for _, id := range g {
			if err := validNode(fmt.Sprintf("groups[%d]", gi), id, n); err != nil {
				return err
			}
			if seen[id] {
				return fmt.Errorf("groups[%d]: machine %d is in more than one group", gi, id)
			}
			seen[id] = true
		}
	}
	return nil
}

// validateMachine checks the verbs done to one machine.
func (a Action) validateMachine(n int) error {
	switch a.Do {
	case DoSlow:
		if a.MsPerMessage < 1 || a.MsPerMessage > 10000 {
			return fmt.Errorf("ms_per_message: slow takes from 1 (normal) to 10000 milliseconds per message, got %g", a.MsPerMessage)
		}
	case DoDrift:
		if a.Rate < 0.05 || a.Rate > 20 {
			return fmt.Errorf("rate: drift takes a clock rate from 0.05 to 20 (1 is exact), got %g", a.Rate)
		}
	case DoTimer:
		// The bound that depends on the world's timing is in ValidateFor;
		// this one only keeps the arithmetic far from overflow.
		if !(a.Ms > 0) || msToUs(a.Ms) < 1 {
			return fmt.Errorf("ms: timer needs a time ahead of at least 0.001 ms, got %g", a.Ms)
		}
		if a.Ms > MaxUntilMs {
			return fmt.Errorf("ms: %g is more than a virtual day ahead", a.Ms)
		}
	}
	return validNode("node", a.Node, n)
}

// MaxTimerMs is the furthest ahead a "timer" action may set an election
// timer in a world built from cfg: twice the election timeout, the longest
// randomized timeout etcd draws (in virtual time at the configured tick).
func MaxTimerMs(cfg Config) float64 {
	return float64(2 * cfg.ElectionTicks * cfg.TickMs)
}

// ValidateFor is Validate for a world built from cfg; it also checks the
// bounds that depend on the world's timing.
func (a Action) ValidateFor(cfg Config) error {
	n := cfg.Nodes
	if cfg.Workers > 0 && workerVerb(a.Do) {
		n = cfg.Machines() // these verbs may name a worker too
	}
	if err := a.Validate(n); err != nil {
		return err
	}
	if isMemberVerb(a.Do) && cfg.Protocol != ProtocolRaft {
		return fmt.Errorf("do: %s changes a raft cluster; %s has no configuration to change", a.Do, cfg.Protocol)
	}
	if a.Do == DoSet && cfg.Protocol != ProtocolRaft {
		return fmt.Errorf("setting: %s is a setting of raft; %s has none", a.Setting, cfg.Protocol)
	}
	if a.Do == DoTimer && a.Ms > MaxTimerMs(cfg) {
		return fmt.Errorf("ms: %g is beyond the longest election timeout, %g ms (2 × election_ticks × tick_ms)", a.Ms, MaxTimerMs(cfg))
	}
	return a.validateZoneAction(cfg)
}

// Apply performs the action now (its AtMs is ignored and replaced by the
// current time in the log). An invalid action changes nothing.
func (w *World) Apply(a Action) error {
	w.thaw()
	if err := a.ValidateFor(w.cfg); err != nil {
		return err
	}
	var named Message // the message a drop, deliver or repeat is about
	if a.Do == DoDrop || a.Do == DoDeliver || a.Do == DoRepeat {
		var ok bool
		if named, ok = w.inFlight(a.ID); !ok {
			return fmt.Errorf("id: message %d is not in flight", a.ID)
		}
	}
	if a.Do == DoDeployController && w.deploy != nil && len(w.deploy.controllers) >= MaxDeploymentControllers {
		return fmt.Errorf("do: a world runs at most %d deployment controllers", MaxDeploymentControllers)
	}
	a.AtMs = float64(w.now) / 1000
	a.AfterEvents = w.processed
	w.actions = append(w.actions, a)
	w.record(TraceEvent{Kind: TraceFault, Node: NodeID(a.Node), verb: verbCode(a.Do), Text: a.String()})
	w.live.noteAction(a.Do, w.now)
	wasSplit := w.split()
	switch a.Do {
	case DoPartition, DoHeal, DoCut, DoRestore, DoLatency, DoLoss, DoDuplicate:
		w.applyLinks(a)
	case DoDrop:
		w.dropped = append(w.dropped, a.ID)
		w.recordDrop(named, DropByHand)
	case DoDeliver:
		w.deliverNow(a.ID)
	case DoRepeat:
		w.sendCopy(named)
	case DoPause, DoResume, DoCrash, DoRestart, DoSlow, DoDrift, DoTimeout, DoTimer, DoHeartbeat:
		w.applyMachine(a)
	case DoWrite, DoDelete:
		op := Op{Kind: a.Do, Node: NodeID(a.Node), Key: a.Key, Value: a.Value}
		if a.Node == 0 {
			op.Node, op.Cluster = w.clusterEndpoint(), true
		}
		if a.IfRev != nil {
			op.Cas, op.IfRev = true, *a.IfRev
		}
		w.invoke(op)
	case DoControl:
		w.startController(a)
	case DoLoad:
		w.startLoad(a)
	case DoLoadStop:
		w.stopLoad()
	case DoRead:
		mode, _ := ParseReadMode(string(a.Mode))
		w.invoke(Op{Kind: DoRead, Node: NodeID(a.Node), Key: a.Key, Mode: mode})
	case DoZoneCut, DoZoneHeal, DoZoneCrash, DoZoneRestart, DoMove:
		w.applyZone(a)
	case DoAdd, DoAddLearner, DoPromote, DoRemove, DoJoint, DoTransferLeader:
		w.applyMember(a)
	case DoSet:
		w.applySetting(a)
	case DoDeployController, DoReconcile, DoWatchCut:
		w.applyDeploy(a)
	}
	if w.deploy != nil {
		w.cutWatchesByLinks()
	}
	switch split := w.split(); {
	case split && !wasSplit:
		w.splitUs = w.now
	case !split && wasSplit:
		w.healUs = w.now
	}
	if w.kube != nil {
		w.kubeJudgeAll()
	}
	return nil
}

// applyLinks applies a verb that changes links: which are up, and their
// latency, loss and duplication.
func (w *World) applyLinks(a Action) {
	switch a.Do {
	case DoPartition:
		w.partition(a.Groups)
	case DoHeal:
		w.eachLink(0, 0, false, func(l *Link) { l.Up = true })
	case DoCut:
		w.eachLink(a.From, a.To, a.OneWay, func(l *Link) { l.Up = false })
	case DoRestore:
		w.eachLink(a.From, a.To, a.OneWay, func(l *Link) { l.Up = true })
	case DoLatency:
		lo, hi := msToUs(a.LatencyMs[0]), msToUs(a.LatencyMs[1])
		w.eachLink(a.From, a.To, a.OneWay, func(l *Link) { l.LatencyMinUs, l.LatencyMaxUs = lo, hi })
	case DoLoss:
		w.eachLink(a.From, a.To, a.OneWay, func(l *Link) { l.Loss = *a.Loss })
	case DoDuplicate:
		w.eachLink(a.From, a.To, a.OneWay, func(l *Link) { l.Duplicate = *a.Duplicate })
	}
}

// partition leaves up exactly the links within each group. Machines named
// in no group are each on their own.
func (w *World) partition(groups [][]int) {
	machines := w.cfg.Machines() // workers too, when there are any
	group := make([]int, machines+1)
	for gi, g := range groups {
		for _, id := range g {
			group[id] = gi + 1
		}
	}
	next := len(groups) + 1
	for i := 1; i <= machines; i++ {
		if group[i] == 0 {
			group[i] = next
			next++
		}
	}
	for i := 1; i <= machines; i++ {
		for j := 1; j <= machines; j++ {
			w.links[i][j].Up = group[i] == group[j]
		}
	}
}

// applyMachine applies a verb done to one machine: its state, speed,
// clock or timers.
func (w *World) applyMachine(a Action) {
	id := NodeID(a.Node)
	if w.kube != nil && w.cfg.IsWorker(id) {
		w.applyWorker(a)
		return
	}
	switch a.Do {
	case DoPause:
		w.pause(id)
	case DoResume:
		w.resume(id)
	case DoCrash:
		w.crash(id)
	case DoRestart:
		w.restart(id)
	case DoSlow:
		w.machines[a.Node].slow = a.MsPerMessage
	case DoDrift:
		w.setDrift(id, a.Rate)
	case DoTimeout:
		w.runTimer(id, (*Node).forceTimeout)
	case DoTimer:
		// Like "timeout", it changes only a running machine with an
		// election timer; the action is logged either way, so a replay
		// takes the same path.
		w.setTimer(id, msToUs(a.Ms))
	case DoHeartbeat:
		w.runTimer(id, (*Node).forceHeartbeat)
	}
}

// runTimer makes one of machine id's timers run out now (fire is what the
// machine does then), if the machine is running: a paused or crashed
// machine has no timers.
func (w *World) runTimer(id NodeID, fire func(*Node)) {
	if w.machines[id].status != StatusUp {
		return
	}
	before := w.capture(id)
	fire(w.nodes[id])
	w.afterStep(id, before)
}

// eachLink calls f on the links from->to (and to->from unless oneWay); with
// from and to both 0, on every link.
func (w *World) eachLink(from, to int, oneWay bool, f func(*Link)) {
	if from == 0 && to == 0 {
		machines := w.cfg.Machines() // workers too, when there are any
		for i := 1; i <= machines; i++ {
			for j := 1; j <= machines; j++ {
				f(&w.links[i][j])
			}
		}
		return
	}
	f(&w.links[from][to])
	if !oneWay {
		f(&w.links[to][from])
	}
}

// inFlight finds message id on its way, not yet dropped.
func (w *World) inFlight(id uint64) (Message, bool) {
	slot, ok := w.inFlightSlot(id)
	if !ok {
		return Message{}, false
	}
	return w.queue[slot].msg, true
}

// inFlightSlot finds where message id, on its way and not dropped, waits in
// the event queue.
func (w *World) inFlightSlot(id uint64) (int32, bool) {
	if w.isDropped(id) {
		return 0, false
	}
	for i := range w.queue {
		if w.queue[i].kind == evDeliver && w.queue[i].msg.ID == id {
			return int32(i), true
		}
	}
	return 0, false
}

func (w *World) pause(id NodeID) {
	m := &w.machines[id]
	if m.status != StatusUp {
		return
	}
	m.status = StatusPaused
	m.tickGen++
	m.workGen++
}

func (w *World) resume(id NodeID) {
	m := &w.machines[id]
	if m.status != StatusPaused {
		return
	}
	m.status = StatusUp
	m.tickGen++
	m.busyUntil = w.now
	w.scheduleTick(id, w.now+w.tickUs(id))
	if len(m.work) == 0 {
		return
	}
	// Everything that waited is handled now, in order, one message an
	// event (and each taking its time if the machine is slow): the machine
	// acts on news that may be long out of date, and whoever watches the
	// run event by event sees what it did on each piece of it, such as a
	// write it takes as leader just before it learns it no longer leads.
	w.scheduleWork(id)
}

func (w *World) crash(id NodeID) {
	m := &w.machines[id]
	if m.status == StatusCrashed {
		return
	}
	if w.kube != nil {
		defer w.kubeCrashed(id)
	}
	m.status = StatusCrashed
	m.tickGen++
	m.workGen++
	for _, msg := range m.work {
		w.recordDrop(msg, DropMachineDown)
	}
	m.work = nil
	if w.deploy != nil {
		w.cutWatchesAt(id, CutServerDown)
		w.controllerMachineDown(id)
	}
	w.failPendingAt(id)
}

func (w *World) restart(id NodeID) {
	m := &w.machines[id]
	if m.status != StatusCrashed {
		return
	}
	m.status = StatusUp
	m.tickGen++
	m.busyUntil = w.now
	w.nodes[id].restart()
	w.checker.onRestart(id)
	if w.deploy != nil {
		w.watchServerRestarting(id)
	}
	w.afterStep(id, w.capture(id))
	w.scheduleTick(id, w.now+w.tickUs(id))
	if w.deploy != nil {
		w.controllerMachineUp(id)
	}
}

// isMemberVerb reports whether v changes the configuration or moves
// leadership.
func isMemberVerb(v Verb) bool {
	switch v {
	case DoAdd, DoAddLearner, DoPromote, DoRemove, DoJoint, DoTransferLeader:
		return true
	}
	return false
}

// validateMember checks a membership verb: the machine it is about (for
// "joint", the new voters: at least one, each once) and, when named, the
// machine asked.
func (a Action) validateMember(n int) error {
	if a.From != 0 {
		if err := validNode("from", a.From, n); err != nil {
			return fmt.Errorf("%v (from names the machine asked; leave it out to ask the leader)", err)
		}
	}
	if a.Do != DoJoint {
		if len(a.Voters) > 0 {
			return fmt.Errorf("voters: only joint takes voters; %s takes one machine in node", a.Do)
		}
		return validNode("node", a.Node, n)
	}
	if a.Node != 0 {
		return fmt.Errorf("node: joint takes the new voters in voters, e.g. [1,2,4], not a node")
	}
	if len(a.Voters) == 0 {
		return fmt.Errorf("voters: joint needs the new voters, e.g. [1,2,4]")
	}
	seen := make([]bool, n+1)
	for i, id := range a.Voters {
		if err := validNode(fmt.Sprintf("voters[%d]", i), id, n); err != nil {
			return err
		}
		if seen[id] {
			return fmt.Errorf("voters[%d]: machine %d is named twice", i, id)
		}
		seen[id] = true
	}
	return nil
}
