package raftcore

import (
	"fmt"
	"strconv"
)

// RandomOptions shape a random fault run.
type RandomOptions struct {
	Nodes    int      // 0 picks 2 to 9
	Protocol Protocol // "" means raft
	UntilMs  float64  // 0 picks 20 to 40 seconds
	// MeanGapMs is the average time between actions (0 means 400).
	MeanGapMs float64
	// Bugs breaks Raft on purpose (checker tests only).
	Bugs Bug
	// StopOnViolation ends the run at the first violation.
	StopOnViolation bool
	// Reconfigure starts some machines as spares and, before the calm,
	// changes the configuration now and then (reconfigure). Off, a run
	// is what it always was.
	Reconfigure bool
	// Snapshots makes machines snapshot and compact every few entries
	// (2 to 10, keeping 0 to 3 for followers a little behind), chosen
	// from the seed without drawing from the run's random source, so a
	// seed's faults and requests are what they are without it.
	Snapshots bool
}

// RandomRun plays a reproducible run of faults and client requests chosen
// from seed, with every verb a schedule has: partitions (a bridge among
// them, where one machine hears both sides), one-way and two-way cuts,
// latency, loss and duplication on one link or all, drops, early
// deliveries and repeats of messages in flight, pauses, crashes, restarts,
// slowness, clock drift, forced timeouts, timers and heartbeats, zone
// faults and moves (when the world has zones), writes, deletes,
// compare-and-swaps expecting older, current and newer revisions,
// controllers, and reads of every mode at leaders and followers. The
// configuration varies too: PreVote, CheckQuorum and client sessions each
// on or off, loss, the entries per append, and zones.
//
// Like a Jepsen nemesis it looks at the world when it picks a fault: it
// crashes, pauses or isolates the current leader more often than chance
// would, since that is where the interesting bugs are. Every choice goes
// through World.Apply, so w.Schedule() reproduces the run exactly. The last
// quarter heals everything (links, loss, duplication, latency, machines,
// speed and clocks) so the cluster can converge, and only clients act.
func RandomRun(seed int64, o RandomOptions) *World {
	g := newRandomRun(seed, o)
	calm := msToUs(g.until * 0.75)
	end := msToUs(g.until)
	for {
		g.w.RunFor(1000 * int64(1+g.r.Intn(int(2*g.gap))))
		if g.w.now >= end || (o.StopOnViolation && g.w.ViolationCount("") > 0) {
			break
		}
		var acts []Action
		if g.w.now >= calm {
			acts = append(g.heal(), g.write())
		} else {
			acts = g.pick()
		}
		for _, a := range acts {
			if err := g.w.Apply(a); err != nil {
				panic(fmt.Sprintf("random run made an invalid action %v: %v", a, err))
			}
		}
	}
	return g.w
}

// randomRun is one random run as it is being chosen.
type randomRun struct {
	r      Rand
	w      *World
	n      int
	until  float64
	gap    float64
	writes int
	healed bool
	// latency is every link's latency when the run began, which the heal
	// puts back.
	latency [][2]int64
}

func newRandomRun(seed int64, o RandomOptions) *randomRun {
	g := &randomRun{r: NewRand(seed), until: o.UntilMs, gap: o.MeanGapMs}
	cfg := g.config(seed, o)
	if g.until == 0 {
		g.until = float64(20000 + g.r.Intn(20001))
	}
	if g.gap == 0 {
		g.gap = 400
	}
	g.w = MustWorld(cfg)
	g.n = cfg.Nodes
	g.latency = make([][2]int64, (g.n+1)*(g.n+1))
	for i := 1; i <= g.n; i++ {
		for j := 1; j <= g.n; j++ {
			l := g.w.links[i][j]
			g.latency[i*(g.n+1)+j] = [2]int64{l.LatencyMinUs, l.LatencyMaxUs}
		}
	}
	return g
}

// config chooses the world's configuration.
func (g *randomRun) config(seed int64, o RandomOptions) Config {
	r := &g.r
	cfg := DefaultConfig()
	cfg.Seed = seed
	cfg.Nodes = o.Nodes
	if cfg.Nodes == 0 {
		cfg.Nodes = 2 + r.Intn(MaxNodes-1)
	}
	if o.Protocol != "" {
		cfg.Protocol = o.Protocol
	}
	cfg.PreVote, cfg.CheckQuorum = r.Chance(0.7), r.Chance(0.7)
	if r.Chance(0.3) {
		cfg.Loss = float64(r.Intn(20)) / 100
	}
	// Small appends make replication advance one entry at a time, which
	// exposes ordering bugs (such as the paper's Figure 8) more often.
	cfg.MaxEntriesPerMsg = []int{1, 4, 64}[r.Intn(3)]
	// Without sessions a duplicated proposal is applied twice, which is
	// what sessions are for (exactly-once): those runs duplicate nothing.
	cfg.Sessions = r.Chance(0.75)
	if cfg.Nodes >= 2 && r.Chance(0.25) {
		zones := 2 + r.Intn(min(cfg.Nodes-1, MaxZones-1))
		for z := 0; z < zones; z++ {
			cfg.Zones = append(cfg.Zones, Zone{Name: "zone-" + string(rune('a'+z))})
		}
		for id := 1; id <= cfg.Nodes; id++ {
			z := (id - 1) % zones // every zone gets a machine
			if id > zones {
				z = r.Intn(zones)
			}
			cfg.Zones[z].Nodes = append(cfg.Zones[z].Nodes, id)
		}
		cfg.CrossZoneLatencyMs = []float64{cfg.LatencyMinMs * 2, cfg.LatencyMaxMs * 2}
	}
	cfg.Bugs = o.Bugs
	if o.Snapshots {
		cfg.SnapshotCount, cfg.CatchUpEntries = 2+int(uint64(seed)%9), int(uint64(seed)/9%4)
	}
	if o.Reconfigure && cfg.Protocol == ProtocolRaft {
		cfg.Members = 1 + r.Intn(cfg.Nodes)
	}
	return cfg
}

func (g *randomRun) node() int       { return 1 + g.r.Intn(g.n) }
func (g *randomRun) other(a int) int { return 1 + (a+g.r.Intn(g.n-1))%g.n }

// leader is the machine leading now, or any machine if none does.
func (g *randomRun) leader() int {
	for i := 1; i <= g.n; i++ {
		if g.w.Status(NodeID(i)) == StatusUp && g.w.Node(NodeID(i)).Role() == RoleLeader {
			return i
		}
	}
	return g.node()
}

// target is a machine to do something to: the leader half the time.
func (g *randomRun) target() int {
	if g.r.Chance(0.5) {
		return g.leader()
	}
	return g.node()
}

// pick chooses the next thing to happen before the calm.
func (g *randomRun) pick() []Action {
	k := g.r.Intn(100)
	if g.n == 1 && k < 30 {
		k = 30 // no links to cut in a cluster of one
	}
	if g.w.cfg.Members != 0 && g.r.Chance(0.15) {
		return []Action{g.reconfigure()}
	}
	switch {
	case k < 30:
		return g.networkFault(k)
	case k < 60:
		return g.machineFault(k - 30)
	case k < 82:
		return []Action{g.write()}
	}
	return []Action{g.read()}
}

// networkFault picks one of the faults of the links, k in [0, 30).
func (g *randomRun) networkFault(k int) []Action {
	r := &g.r
	a, sessions := g.node(), g.w.cfg.Sessions
	switch {
	case k < 5:
		return []Action{{Do: DoPartition, Groups: g.split(g.n)}}
	case k < 8:
		// Cut the leader off from everyone else.
		l := g.leader()
		return []Action{{Do: DoPartition, Groups: [][]int{{l}, g.allBut(l)}}}
	case k < 10 && g.n >= 3:
		return g.bridge()
	case k < 13:
		return []Action{{Do: DoHeal}}
	case k < 17:
		return []Action{{Do: DoCut, From: a, To: g.other(a), OneWay: r.Chance(0.5)}}
	case k < 20:
		return []Action{{Do: DoRestore, From: a, To: g.other(a), OneWay: r.Chance(0.5)}}
	case k < 22:
		lo := float64(r.Intn(100))
		act := Action{Do: DoLatency, LatencyMs: []float64{lo, lo + float64(r.Intn(150))}}
		if r.Chance(0.7) {
			act.From, act.To, act.OneWay = a, g.other(a), r.Chance(0.5)
		}
		return []Action{act}
	case k < 25:
		p := float64(r.Intn(4)) / 10
		act := Action{Do: DoLoss, Loss: &p}
		if r.Chance(0.5) {
			act.From, act.To, act.OneWay = a, g.other(a), true
		}
		return []Action{act}
	case k < 27 && sessions:
		p := float64(r.Intn(11)) / 10
		act := Action{Do: DoDuplicate, Duplicate: &p}
		if p > 0.4 || r.Chance(0.5) {
			act.From, act.To, act.OneWay = a, g.other(a), r.Chance(0.5)
		}
		return []Action{act}
	}
	return g.messageAction()
}

// split divides machines 1 to n, shuffled, into two non-empty groups.
func (g *randomRun) split(n int) [][]int {
	perm := make([]int, n)
	for i := range perm {
		perm[i] = i + 1
	}
	for i := n - 1; i > 0; i-- {
		j := g.r.Intn(i + 1)
		perm[i], perm[j] = perm[j], perm[i]
	}
	cut := 1 + g.r.Intn(n-1)
	return [][]int{perm[:cut], perm[cut:]}
}

func (g *randomRun) allBut(id int) []int {
	var rest []int
	for i := 1; i <= g.n; i++ {
		if i != id {
			rest = append(rest, i)
		}
	}
	return rest
}

// bridge splits the machines into two sides that cannot hear each other
// but both hear one machine, the bridge (the leader half the time): the
// partition puts the bridge with one side, then its links to the other
// side come back.
func (g *randomRun) bridge() []Action {
	b := g.target()
	sides := g.split(g.n - 1)
	for _, side := range sides {
		for i, id := range side {
			if id >= b {
				side[i] = id + 1
			}
		}
	}
	withBridge := append(append([]int(nil), sides[0]...), b)
	acts := []Action{{Do: DoPartition, Groups: [][]int{withBridge, sides[1]}}}
	for _, id := range sides[1] {
		acts = append(acts, Action{Do: DoRestore, From: b, To: id})
	}
	return acts
}

// messageAction drops, delivers at once or repeats a message in flight, or
// if none is, heals. Without sessions no proposal is repeated.
func (g *randomRun) messageAction() []Action {
	flying := g.w.InFlight()
	if len(flying) == 0 {
		return []Action{{Do: DoHeal}}
	}
	m := flying[g.r.Intn(len(flying))]
	verb := []Verb{DoDrop, DoDeliver, DoRepeat}[g.r.Intn(3)]
	if verb == DoRepeat && m.Type == MsgProp && !g.w.cfg.Sessions {
		verb = DoDeliver
	}
	return []Action{{Do: verb, ID: m.ID}}
}

// machineFault picks one of the faults of the machines, k in [0, 30).
func (g *randomRun) machineFault(k int) []Action {
	r := &g.r
	id := g.target()
	switch {
	case k < 8:
		return []Action{{Do: g.stopOrStart(id, DoCrash), Node: id}}
	case k < 13:
		return []Action{{Do: g.stopOrStart(id, DoPause), Node: id}}
	case k < 15:
		return []Action{{Do: DoDrift, Node: g.node(), Rate: []float64{0.5, 0.8, 1, 1.25, 2}[r.Intn(5)]}}
	case k < 17:
		return []Action{{Do: DoSlow, Node: g.node(), MsPerMessage: []float64{1, 1, 5, 50}[r.Intn(4)]}}
	case k < 20:
		return []Action{{Do: DoTimeout, Node: g.node()}}
	case k < 23:
		return []Action{{Do: DoTimer, Node: g.node(), Ms: float64(1 + r.Intn(int(MaxTimerMs(g.w.cfg))))}}
	case k < 24:
		return []Action{{Do: DoHeartbeat, Node: g.leader()}}
	case k < 26 && g.w.HasZones():
		return []Action{g.zoneAction()}
	}
	change := []string{"replicas+1", "image=web:" + strconv.Itoa(1+r.Intn(3))}[r.Intn(2)]
	return []Action{{Do: DoControl, Node: g.node(), Key: g.key(), Change: change, ThinkMs: float64(r.Intn(500)), Cas: r.Chance(0.5)}}
}

// stopOrStart is stop (crash or pause) for a running machine, and for a
// stopped one what starts it again.
func (g *randomRun) stopOrStart(id int, stop Verb) Verb {
	switch g.w.Status(NodeID(id)) {
	case StatusCrashed:
		return DoRestart
	case StatusPaused:
		return DoResume
	}
	return stop
}

// zoneAction cuts, heals, crashes or restarts a zone, or moves a machine.
func (g *randomRun) zoneAction() Action {
	zone := g.w.cfg.Zones[g.r.Intn(len(g.w.cfg.Zones))].Name
	verb := []Verb{DoZoneCut, DoZoneHeal, DoZoneCrash, DoZoneRestart, DoMove}[g.r.Intn(5)]
	a := Action{Do: verb, Zone: zone}
	if verb == DoMove {
		a.Node = g.node()
	}
	return a
}

func (g *randomRun) key() string { return "deployments/app" + strconv.Itoa(g.r.Intn(4)) }

// write is a client's write, delete or compare-and-swap, sent to the
// leader half the time. A swap expects the key's revision as some machine
// has it (often current, sometimes old), or a revision older or newer than
// that, or the key to be absent.
func (g *randomRun) write() Action {
	r := &g.r
	g.writes++
	a := Action{Do: DoWrite, Node: g.target(), Key: g.key(), Value: "v" + strconv.Itoa(g.writes)}
	if g.healed {
		a.Key = "deployments/final"
	}
	switch {
	case r.Chance(0.1):
		a.Do, a.Value = DoDelete, ""
	case r.Chance(0.25):
		v, _ := g.w.Node(NodeID(g.node())).KV().Get(a.Key)
		rev := v.ModIndex
		switch r.Intn(4) {
		case 0:
			rev += 1 + uint64(r.Intn(3))
		case 1:
			rev -= min(rev, 1+uint64(r.Intn(3)))
		case 2:
			rev = 0
		}
		a.IfRev = &rev
	}
	return a
}

// read is a client's read of any mode, at a follower a third of the time.
func (g *randomRun) read() Action {
	id := g.node()
	if g.r.Chance(0.3) {
		for _, f := range g.allBut(g.leader()) {
			if g.w.Node(NodeID(f)).Role() == RoleFollower {
				id = f
				break
			}
		}
	}
	return Action{Do: DoRead, Node: id, Key: g.key(), Mode: []ReadMode{ReadLinearizable, ReadLease, ReadLocal}[g.r.Intn(3)]}
}

// heal, once, undoes every fault: links, loss, duplication and latency,
// crashed and paused machines, slowness and clocks.
func (g *randomRun) heal() []Action {
	if g.healed {
		return nil
	}
	g.healed = true
	p := 0.0
	acts := []Action{{Do: DoHeal}, {Do: DoDuplicate, Duplicate: &p}, {Do: DoLoss, Loss: &p}}
	for i := 1; i <= g.n; i++ {
		for j := 1; j <= g.n; j++ {
			l, want := g.w.links[i][j], g.latency[i*(g.n+1)+j]
			if i != j && (l.LatencyMinUs != want[0] || l.LatencyMaxUs != want[1]) {
				acts = append(acts, Action{Do: DoLatency, From: i, To: j, OneWay: true,
					LatencyMs: []float64{float64(want[0]) / 1000, float64(want[1]) / 1000}})
			}
		}
	}
	for id := 1; id <= g.n; id++ {
		switch g.w.Status(NodeID(id)) {
		case StatusCrashed:
			acts = append(acts, Action{Do: DoRestart, Node: id})
		case StatusPaused:
			acts = append(acts, Action{Do: DoResume, Node: id})
		}
		acts = append(acts, Action{Do: DoSlow, Node: id, MsPerMessage: 1}, Action{Do: DoDrift, Node: id, Rate: 1})
	}
	return acts
}

// reconfigure picks a change of configuration or a leadership transfer,
// asked of the leader or, a third of the time, of any machine. Nothing
// keeps it sensible: the machines refuse what etcd refuses.
func (g *randomRun) reconfigure() Action {
	r := &g.r
	a := Action{Node: g.node()}
	if r.Chance(0.33) {
		a.From = g.node()
	}
	switch k := r.Intn(12); {
	case k < 3:
		a.Do = DoAdd
	case k < 5:
		a.Do = DoAddLearner
	case k < 7:
		a.Do = DoPromote
	case k < 9:
		a.Do = DoRemove
	case k < 10:
		a.Do, a.Node = DoJoint, 0
		for id := 1; id <= g.n; id++ {
			if r.Chance(0.6) {
				a.Voters = append(a.Voters, id)
			}
		}
		if len(a.Voters) == 0 {
			a.Voters = []int{g.node()}
		}
	default:
		a.Do = DoTransferLeader
	}
	return a
}
