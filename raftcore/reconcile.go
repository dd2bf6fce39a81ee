package raftcore

import (
	"fmt"
	"maps"
	"sort"
	"strconv"
	"strings"
)

// A reconcile loop, as Kubernetes' deployment controller runs one. The
// controller is started by a "deploy-controller" action on a machine and
// talks to the API server of one etcd member. Its informer (informer.go)
// keeps a cache of deployments/ and replicasets/; each change it sees to a
// Deployment, or to a ReplicaSet (for the Deployment that owns it), and
// every object of a list, puts the Deployment's name on a work queue. The
// loop takes one name at a time and makes sure, from the cache alone, that
// a ReplicaSet exists for the Deployment's current template:
//
//   - idempotent (the default, Config.Idempotent and the "idempotence"
//     setting): the ReplicaSet is named by a hash of the template, as
//     Kubernetes names it by the pod-template hash, and created only if
//     absent (a compare-and-swap on revision 0). A second try, from a
//     repeated action or a cache that has not yet seen the first, finds
//     it there and changes nothing.
//   - not idempotent: the ReplicaSet gets a fresh generated name each
//     time (generateName), so a second try while the cache does not show
//     the first creates a second ReplicaSet.
//
// A create that fails or whose answer is not heard (the link went down
// while it was on its way) puts the name back on the queue after a wait:
// it may have been applied all the same, which only the idempotent name
// makes harmless.
//
// Objects are the lab's values, fields "name=value": a Deployment
// "deployments/web" holds "replicas=3 image=web:1"; its template is every
// field but replicas. A ReplicaSet "replicasets/web-<hash>" holds
// "owner=web template=<hash> replicas=3".

// The prefixes a deployment controller lists and watches.
const (
	DeploymentPrefix = "deployments/"
	ReplicaSetPrefix = "replicasets/"
)

// RuleCreatedTwice and RuleCacheDiverged name the reconcile checks. They
// are not Raft's rules: every rule can hold while a controller creates an
// object twice or its cache misses a change.
const (
	// RuleCreatedTwice: two ReplicaSets in the committed store are owned
	// by one Deployment for the same template.
	RuleCreatedTwice Rule = "created-twice"
	// RuleCacheDiverged: an informer whose watch had delivered everything
	// its API server sent held a cache other than the server's objects.
	RuleCacheDiverged Rule = "cache-diverged"
)

// ReconcileFact is one finding of the reconcile checks.
type ReconcileFact struct {
	Rule Rule  `json:"rule"`
	AtUs int64 `json:"at_us"`
	// Controller is the deployment controller concerned (0: judged on the
	// store, whoever made the objects).
	Controller int `json:"controller,omitempty"`
	// Key is, for created-twice, the Deployment; for cache-diverged the
	// first key the cache has wrong.
	Key string `json:"key"`
	// Template, First and Second: the template and the two ReplicaSets
	// made for it, the one there before and the one just created.
	Template string `json:"template,omitempty"`
	First    string `json:"first,omitempty"`
	Second   string `json:"second,omitempty"`
	// Index is the log index that created Second, or the server's applied
	// index when the cache was compared; Rev the cache's revision.
	Index uint64 `json:"index,omitempty"`
	Rev   uint64 `json:"rev,omitempty"`
}

// ReconcileCounts are the whole run's counts of informers and reconciles.
type ReconcileCounts struct {
	Lists       int `json:"lists"`
	Relists     int `json:"relists"`
	FailedLists int `json:"failed_lists"`
	WatchCuts   int `json:"watch_cuts"`
	WatchEvents int `json:"watch_events"`
	Reconciles  int `json:"reconciles"`
	Creates     int `json:"creates"`
	// AlreadyExisted counts creates that found the object there
	// (idempotent creates made harmless); FailedCreates those refused,
	// timed out or unheard.
	AlreadyExisted int `json:"already_existed"`
	FailedCreates  int `json:"failed_creates"`
	Duplicates     int `json:"duplicates"`
	Diverged       int `json:"diverged"`
}

// MaxDeploymentControllers bounds the deployment controllers of a world,
// so that a schedule or a link cannot make one without end.
const MaxDeploymentControllers = 8

// maxReconcileFacts bounds the facts kept; counts are always exact.
const maxReconcileFacts = 200

// DeploymentController is one deployment controller: its informer and its
// work queue.
type DeploymentController struct {
	ID int `json:"id"`
	// Node is the machine the controller runs on; Server the etcd member
	// whose API server it lists, watches and writes through.
	Node     NodeID   `json:"node"`
	Server   NodeID   `json:"server"`
	Informer Informer `json:"informer"`
	// Queue holds the Deployments waiting to be reconciled, by name;
	// Busy is the one whose create is on its way.
	Queue []string `json:"queue,omitempty"`
	Busy  string   `json:"busy,omitempty"`
	// Reconciles, Creates, AlreadyExisted and FailedCreates count this
	// controller's work (ReconcileCounts has the meanings).
	Reconciles     int `json:"reconciles"`
	Creates        int `json:"creates"`
	AlreadyExisted int `json:"already_existed"`
	FailedCreates  int `json:"failed_creates"`

	busyOp int      // the create on its way
	again  bool     // Busy was queued again while its create was on its way
	retry  []string // names to queue again at the next retry wake
	// breaks counts the times the link to the server went down, and
	// cutOff is whether it is down now: a request out while it went down
	// (breaks changed since it was sent) has lost its connection, and
	// its answer is not heard even if the link is back up.
	breaks     uint64
	cutOff     bool
	busyBreaks uint64
}

// heard reports whether the answer to a request sent when the link had
// gone down sent times reaches controller c now.
func (w *World) heard(c *DeploymentController, sent uint64) bool {
	return c.breaks == sent && w.reachable(c)
}

func (c DeploymentController) clone() DeploymentController {
	c.Informer = c.Informer.clone()
	c.Queue = append([]string(nil), c.Queue...)
	c.retry = append([]string(nil), c.retry...)
	return c
}

// replicaSetRec is a ReplicaSet as the committed store holds it.
type replicaSetRec struct{ owner, template string }

// deployWorld is everything of a world with informers; nil in the others.
type deployWorld struct {
	controllers []DeploymentController
	history     []memberHistory // by machine, index 0 unused
	// truth is the ReplicaSets of the committed store, as the first
	// machine to apply each index applied it; truthAt is that index.
	truth   map[string]replicaSetRec
	truthAt uint64
	facts   []ReconcileFact
	counts  ReconcileCounts
}

func (k *deployWorld) clone() *deployWorld {
	if k == nil {
		return nil
	}
	c := *k
	c.controllers = make([]DeploymentController, len(k.controllers))
	for i, d := range k.controllers {
		c.controllers[i] = d.clone()
	}
	c.history = make([]memberHistory, len(k.history))
	for i, h := range k.history {
		// Events are only appended and dropped from the front: a copy
		// sharing the array, capped, never writes where the other reads.
		h.events = capped(h.events)
		c.history[i] = h
	}
	c.truth = maps.Clone(k.truth)
	c.facts = append([]ReconcileFact(nil), k.facts...)
	return &c
}

// startDeploy makes the world's informer state when the first controller
// starts: each member keeps the changes it applies from now on, and the
// checks start from the store as the most advanced member holds it.
func (w *World) startDeploy() {
	k := &deployWorld{history: make([]memberHistory, w.cfg.Nodes+1), truth: map[string]replicaSetRec{}}
	var ahead *Node
	for i := 1; i <= w.cfg.Nodes; i++ {
		n := w.nodes[i]
		k.history[i] = memberHistory{compacted: n.applied}
		if ahead == nil || n.applied > ahead.applied {
			ahead = n
		}
	}
	k.truthAt = ahead.applied
	for _, key := range ahead.kv.Keys() {
		if strings.HasPrefix(key, ReplicaSetPrefix) {
			v, _ := ahead.kv.Get(key)
			k.truth[key] = replicaSetRec{owner: field(v.Value, "owner"), template: field(v.Value, "template")}
		}
	}
	w.deploy = k
}

// DeploymentControllers returns every deployment controller, in start
// order.
func (w *World) DeploymentControllers() []DeploymentController {
	if w.deploy == nil {
		return nil
	}
	out := make([]DeploymentController, len(w.deploy.controllers))
	for i, c := range w.deploy.controllers {
		out[i] = c.clone()
	}
	return out
}

// ReconcileFacts returns the reconcile checks' findings (the first 200).
func (w *World) ReconcileFacts() []ReconcileFact {
	if w.deploy == nil {
		return nil
	}
	return capped(w.deploy.facts)
}

// ReconcileCounts returns the run's informer and reconcile counts.
func (w *World) ReconcileCounts() ReconcileCounts {
	if w.deploy == nil {
		return ReconcileCounts{}
	}
	return w.deploy.counts
}

// fact records a finding of the reconcile checks.
func (k *deployWorld) fact(w *World, f ReconcileFact) {
	f.AtUs = w.now
	switch f.Rule {
	case RuleCreatedTwice:
		k.counts.Duplicates++
	case RuleCacheDiverged:
		k.counts.Diverged++
	}
	if len(k.facts) < maxReconcileFacts {
		k.facts = append(k.facts, f)
	}
	text := string(f.Rule) + ": " + f.Key
	if f.Rule == RuleCreatedTwice {
		text += " has " + f.First + " and " + f.Second
	}
	w.record(TraceEvent{Kind: TraceInformer, Index: f.Index, Text: text})
}

// judgeApplied keeps the committed store's ReplicaSets and finds a second
// one for a Deployment's template the first time its entry is applied
// anywhere.
func (k *deployWorld) judgeApplied(w *World, e Entry, did applied) {
	if e.Index <= k.truthAt {
		return
	}
	k.truthAt = e.Index
	key := e.Data.Key
	if !did.changed() || !strings.HasPrefix(key, ReplicaSetPrefix) {
		return
	}
	if e.Data.Kind == OpDelete {
		delete(k.truth, key)
		return
	}
	if e.Data.Kind != OpPut {
		return
	}
	rec := replicaSetRec{owner: field(e.Data.Value, "owner"), template: field(e.Data.Value, "template")}
	delete(k.truth, key)
	first := ""
	if rec.owner != "" {
		for other, r := range k.truth {
			if r == rec && (first == "" || other < first) {
				first = other
			}
		}
	}
	k.truth[key] = rec
	if first != "" {
		k.fact(w, ReconcileFact{Rule: RuleCreatedTwice, Key: DeploymentPrefix + rec.owner, Template: rec.template,
			First: first, Second: key, Index: e.Index})
	}
}

// applyDeploy applies "deploy-controller", "reconcile" and "watch-cut".
func (w *World) applyDeploy(a Action) {
	switch a.Do {
	case DoDeployController:
		if w.deploy == nil {
			w.startDeploy()
		}
		server := NodeID(a.To)
		if server == 0 {
			server = NodeID(a.Node)
		}
		c := DeploymentController{ID: len(w.deploy.controllers) + 1, Node: NodeID(a.Node), Server: server,
			Informer: Informer{Prefixes: []string{DeploymentPrefix, ReplicaSetPrefix}, Cache: map[string]KVValue{}}}
		w.deploy.controllers = append(w.deploy.controllers, c)
		if w.machines[c.Node].status == StatusCrashed {
			w.deploy.controllers[c.ID-1].Informer.State = InformerDown
			return
		}
		w.listInformer(&w.deploy.controllers[c.ID-1])
	case DoReconcile:
		if w.deploy == nil {
			return
		}
		name := strings.TrimPrefix(a.Key, DeploymentPrefix)
		for i := range w.deploy.controllers {
			if c := &w.deploy.controllers[i]; c.Informer.State != InformerDown {
				w.queueReconcile(c, name)
			}
		}
	case DoWatchCut:
		if w.deploy == nil {
			return
		}
		for i := range w.deploy.controllers {
			if c := &w.deploy.controllers[i]; a.Node == 0 || c.Node == NodeID(a.Node) {
				w.cutWatch(c, CutByHand)
			}
		}
	}
}

// informed puts the Deployment a changed key concerns on controller c's
// queue: the Deployment itself, or a ReplicaSet's owner.
func (w *World) informed(c *DeploymentController, key string) {
	switch {
	case strings.HasPrefix(key, DeploymentPrefix):
		w.queueReconcile(c, strings.TrimPrefix(key, DeploymentPrefix))
	case strings.HasPrefix(key, ReplicaSetPrefix):
		if v, ok := c.Informer.Cache[key]; ok {
			if owner := field(v.Value, "owner"); owner != "" {
				w.queueReconcile(c, owner)
			}
		}
	}
}

// queueReconcile puts a Deployment on controller c's queue, once: a name already
// waiting is not added twice, and one being reconciled is taken again
// when its reconcile ends, as client-go's work queue does.
func (w *World) queueReconcile(c *DeploymentController, name string) {
	if name == "" {
		return
	}
	if name == c.Busy {
		c.again = true
		return
	}
	for _, q := range c.Queue {
		if q == name {
			return
		}
	}
	c.Queue = append(c.Queue, name)
	if c.Busy == "" && len(c.Queue) == 1 {
		w.schedule(event{at: w.now, kind: evReconcile, op: c.ID})
	}
}

// reconcileWake runs controller id's next reconcile (gen 0) or queues the
// names whose retry wait is over (gen 1).
func (w *World) reconcileWake(id int, gen uint64) {
	c := &w.deploy.controllers[id-1]
	if c.Informer.State == InformerDown {
		return
	}
	if gen == 1 {
		names := c.retry
		c.retry = nil
		for _, name := range names {
			w.queueReconcile(c, name)
		}
		return
	}
	if c.Busy != "" || len(c.Queue) == 0 || !c.Informer.Synced {
		return
	}
	if w.machines[c.Node].status == StatusPaused {
		w.schedule(event{at: w.now + int64(w.cfg.TickMs)*1000, kind: evReconcile, op: id})
		return
	}
	name := c.Queue[0]
	c.Queue = c.Queue[1:]
	w.reconcile(c, name)
}

// reconcile makes sure, from the cache, that Deployment name has a
// ReplicaSet for its template, and creates one if not.
func (w *World) reconcile(c *DeploymentController, name string) {
	c.Reconciles++
	w.deploy.counts.Reconciles++
	d, ok := c.Informer.Cache[DeploymentPrefix+name]
	if !ok {
		w.recordInformer(c, "reconcile "+name+": no such deployment")
		w.reconcileNext(c)
		return
	}
	template := templateHash(d.Value)
	for _, key := range c.Informer.cacheKeys() {
		v := c.Informer.Cache[key]
		if strings.HasPrefix(key, ReplicaSetPrefix) && field(v.Value, "owner") == name && field(v.Value, "template") == template {
			w.recordInformer(c, "reconcile "+name+": "+key+" exists")
			w.reconcileNext(c)
			return
		}
	}
	suffix := template
	if !w.idempotent {
		suffix = generatedSuffix(w.rng)
	}
	key := ReplicaSetPrefix + name + "-" + suffix
	value := "owner=" + name + " template=" + template
	if r := field(d.Value, "replicas"); r != "" {
		value += " replicas=" + r
	}
	w.recordInformer(c, "reconcile "+name+": create "+key)
	c.Busy = name
	if !w.reachable(c) {
		w.createHeard(c, Op{Result: OpRefused, Reason: CutLink.String()})
		return
	}
	c.busyOp, c.busyBreaks = w.nextOpID(), c.breaks
	w.invoke(Op{Kind: DoWrite, Node: c.Server, Key: key, Value: value, Cas: true, IfRev: 0, Informer: c.ID})
}

// createHeard ends controller c's create with op's outcome.
func (w *World) createHeard(c *DeploymentController, op Op) {
	if op.ID != c.busyOp || c.Busy == "" {
		return
	}
	name := c.Busy
	c.Busy, c.busyOp = "", 0
	heard := w.heard(c, c.busyBreaks)
	switch {
	case op.Result == OpOK && heard:
		c.Creates++
		w.deploy.counts.Creates++
		w.recordInformer(c, "created "+op.Key)
	case op.Result == OpConflict && heard:
		// Create-if-absent found the object: someone, perhaps this
		// controller's earlier try, made it already.
		c.AlreadyExisted++
		w.deploy.counts.AlreadyExisted++
		w.recordInformer(c, op.Key+" already exists")
	default:
		c.FailedCreates++
		w.deploy.counts.FailedCreates++
		why := string(op.Result)
		if op.Result == OpOK || op.Result == OpConflict {
			why = "answer not heard: " + CutLink.String()
		}
		w.recordInformer(c, "create failed: "+why)
		if len(c.retry) == 0 {
			w.schedule(event{at: w.now + int64(w.cfg.ElectionTicks*w.cfg.TickMs)*1000, kind: evReconcile, op: c.ID, gen: 1})
		}
		c.retry = append(c.retry, name)
	}
	if c.again {
		c.again = false
		w.queueReconcile(c, name)
	}
	w.reconcileNext(c)
}

// reconcileNext moves controller c on to the next name on its queue.
func (w *World) reconcileNext(c *DeploymentController) {
	if len(c.Queue) > 0 {
		w.schedule(event{at: w.now, kind: evReconcile, op: c.ID})
	}
}

// informerHeard routes the end of a controller's request.
func (w *World) informerHeard(op Op) {
	c := &w.deploy.controllers[op.Informer-1]
	if op.List {
		w.listHeard(c, op)
		return
	}
	w.createHeard(c, op)
}

// controllerMachineDown stops the controllers on a crashed machine: their
// memory, cache and queue are gone.
func (w *World) controllerMachineDown(id NodeID) {
	for i := range w.deploy.controllers {
		c := &w.deploy.controllers[i]
		if c.Node != id {
			continue
		}
		w.cutWatch(c, CutMachineDown)
		inf := &c.Informer
		inf.State, inf.Synced, inf.listOp, inf.listed = InformerDown, false, 0, nil
		inf.timerGen++
		clear(inf.Cache)
		c.Queue, c.Busy, c.busyOp, c.again, c.retry = nil, "", 0, false, nil
	}
}

// controllerMachineUp starts the controllers of a restarted machine
// again, from a list.
func (w *World) controllerMachineUp(id NodeID) {
	for i := range w.deploy.controllers {
		if c := &w.deploy.controllers[i]; c.Node == id && c.Informer.State == InformerDown {
			c.Informer.BackoffUs = informerBackoffMinUs
			w.listInformer(c)
		}
	}
}

// templateHash names a Deployment's template (every field of its value
// but replicas), as Kubernetes' pod-template hash does: the same template
// always gets the same name.
func templateHash(value string) string {
	fields := strings.Fields(value)
	kept := fields[:0:0]
	for _, f := range fields {
		if k, _, _ := strings.Cut(f, "="); k != "replicas" {
			kept = append(kept, f)
		}
	}
	sort.Strings(kept)
	h := fnvString(0xcbf29ce484222325, strings.Join(kept, " "))
	return safeEncode(uint32(h^h>>32), 8)
}

// safeAlphabet is the letters Kubernetes uses in generated names: no
// vowels, so no words, and no look-alike characters.
const safeAlphabet = "bcdfghjklmnpqrstvwxz2456789"

func safeEncode(v uint32, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = safeAlphabet[v%uint32(len(safeAlphabet))]
		v /= uint32(len(safeAlphabet))
	}
	return string(b)
}

// generatedSuffix is a fresh random name suffix (generateName's five
// letters).
func generatedSuffix(r *Rand) string {
	b := make([]byte, 5)
	for i := range b {
		b[i] = safeAlphabet[r.Intn(len(safeAlphabet))]
	}
	return string(b)
}

// field returns the value of field name in a value "a=1 b=2" ("" if none).
func field(value, name string) string {
	for _, f := range strings.Fields(value) {
		if k, v, ok := strings.Cut(f, "="); ok && k == name {
			return v
		}
	}
	return ""
}

// validateDeploy checks "deploy-controller", "reconcile" and "watch-cut".
func (a Action) validateDeploy(n int) error {
	switch a.Do {
	case DoDeployController:
		if a.To != 0 {
			if err := validNode("to", a.To, n); err != nil {
				return err
			}
		}
		return validNode("node", a.Node, n)
	case DoReconcile:
		name := strings.TrimPrefix(a.Key, DeploymentPrefix)
		if !strings.HasPrefix(a.Key, DeploymentPrefix) || name == "" || strings.ContainsAny(name, " /") {
			return fmt.Errorf("key: reconcile takes a Deployment's key, e.g. \"deployments/web\", got %q", a.Key)
		}
	case DoWatchCut:
		if a.Node != 0 {
			return validNode("node", a.Node, n)
		}
	}
	return nil
}

// appendDeployArgs appends what "deploy-controller", "reconcile" and
// "watch-cut" act on.
func (a Action) appendDeployArgs(b []byte) []byte {
	switch a.Do {
	case DoDeployController:
		b = strconv.AppendInt(append(b, " on "...), int64(a.Node), 10)
		if a.To != 0 && a.To != a.Node {
			b = strconv.AppendInt(append(b, " via "...), int64(a.To), 10)
		}
	case DoReconcile:
		b = append(append(b, ' '), a.Key...)
	case DoWatchCut:
		if a.Node != 0 {
			b = strconv.AppendInt(append(b, " on "...), int64(a.Node), 10)
		}
	}
	return b
}
