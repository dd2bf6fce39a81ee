package raftcore

import (
	"fmt"
	"maps"
)

// Status is whether a machine is running.
type Status uint8

const (
	StatusUp Status = iota
	// StatusPaused keeps all state but does nothing; its clock stops and
	// arriving messages wait (up to a bound) to be handled on resume.
	StatusPaused
	// StatusCrashed has lost its volatile state and drops what arrives.
	StatusCrashed
)

var statusNames = [...]string{"up", "paused", "crashed"}

func (s Status) String() string {
	if int(s) < len(statusNames) {
		return statusNames[s]
	}
	return fmt.Sprintf("status(%d)", s)
}

// machine is the world's side of a node: how it is running, not what it
// believes.
type machine struct {
	status Status
	// slow is how long the machine takes to handle each message, in virtual
	// milliseconds (the "slow" action's ms_per_message). At 1, the normal
	// value, a message costs no time; above 1 the machine handles messages
	// one at a time, slow milliseconds each, and falls behind.
	slow float64
	// drift is the rate of the machine's clock: 0.5 ticks half as often as
	// real time, 2 twice as often.
	drift float64
	// offsetUs is how far the machine's clock was from true time at
	// offsetAt, when its rate last changed (ClockOffsetUs).
	offsetUs, offsetAt int64
	// tickGen is the generation of the machine's pending tick: a tick
	// event of another generation was abandoned (the machine stopped, or
	// its clock was re-phased by "timer") and does nothing.
	tickGen uint64
	// workGen is the generation of the pending message-processing event,
	// abandoned only when the machine stops (pause, crash). It is not
	// tickGen: re-phasing the clock must leave the queue's event alone,
	// since a new one is scheduled only when the queue goes from empty to
	// one message, and a backlog whose event was abandoned would never be
	// handled (the machine would stay up and deaf for good).
	workGen uint64
	// nextTick is when the machine's next tick of generation tickGen is
	// due; TimerDue counts from it.
	nextTick  int64
	busyUntil int64
	// work holds messages that arrived while the machine was busy (slow)
	// or paused, in arrival order.
	work []Message
}

type eventKind uint8

const (
	evTick eventKind = iota
	evDeliver
	evProcess
	evTimeout
	// evControl wakes a controller (op is its id) to make its next request.
	evControl
	// evLoad makes the steady load's next write (gen is its generation).
	evLoad
	// evKube is a kubelet's, the node lifecycle controller's or the kube
	// judge's timer (kubelet.go); op says which.
	evKube
	// evWatch delivers a deployment controller's next watch event,
	// evInformer ends its informer's backoff and evReconcile runs its
	// reconcile loop (op is the controller's id; informer.go).
	evWatch
	evInformer
	evReconcile
	// evFree marks an empty slot of the event queue.
	evFree
)

type event struct {
	at   int64
	seq  uint64
	kind eventKind
	node NodeID
	gen  uint64
	op   int
	msg  Message
}

// World is the whole simulation: machines, network, clients, clock, trace
// and checker. It is not safe for concurrent use; nothing in it needs to be.
type World struct {
	cfg  Config
	ncfg *nodeConfig
	rng  *Rand
	now  int64
	seq  uint64
	// queue holds the pending events in reusable slots (an empty one has
	// kind evFree) and order is a min-heap of their keys by (time,
	// sequence): sifting moves small keys, never events carrying messages.
	queue    []event
	order    eventHeap
	free     []int32 // empty slots of queue
	nodes    []*Node // index 0 unused
	machines []machine
	links    [][]Link // [from][to]
	// processed counts handled events; recorded actions note it so replay
	// can act between two events at the same instant.
	processed uint64
	nextMsgID uint64
	dropped   []uint64 // ids of in-flight messages a reader dropped
	// ops is the client history: every operation, or with
	// Config.HistoryLimit the newest ones (forget), ops[0] having id
	// forgotten.Count+1.
	ops     []Op
	pending []int // ids of the operations still waiting
	// forgotten counts the operations dropped from the front of ops;
	// failedForgotten keeps the newest few of them that failed, for the
	// liveness judge (liveness.go, stalled).
	forgotten       ForgottenOps
	failedForgotten []Op
	forgottenKeys   map[string]struct{} // keys of forgotten writes
	// controllers are the controllers started by "control" actions.
	controllers []Controller
	// load is the steady client load a "load" action started (load.go).
	load load
	// lastSeq is, by machine, the sequence number of the last write its
	// client sent in its session (client.go).
	lastSeq []uint64
	// endpoint is the machine the cluster's client is connected to
	// (endpoint.go); None until its first write to the cluster.
	endpoint NodeID
	actions  []Action
	trace    trace
	checker  checker
	// splitUs and healUs are when the network last went from whole to
	// split and back (-1 until it first did), kept as actions change the
	// links so that no one has to replay the action log to learn them.
	splitUs int64
	healUs  int64
	// zoneOf is the zone (an index into cfg.Zones) each machine sits in
	// now, index 0 unused; nil without zones.
	zoneOf []int
	// live is what the liveness judge needs to remember (liveness.go).
	live liveWatch
	// deploy holds the deployment controllers, their informers and what
	// the members keep for watches (reconcile.go); nil until the first
	// controller starts, so that other worlds pay nothing for them.
	// idempotent is the reconcile setting in force (Config.Idempotent,
	// then "set idempotence").
	deploy     *deployWorld
	idempotent bool
	// kept, set only on a world made by Keep, holds its client
	// operations in place of ops until it is used (thaw).
	kept *keptOps

	// kube is the worker machines' Kubernetes (kubelet.go); nil in a
	// world without workers.
	kube *kubeWorld
}

// keptOps are a kept world's client operations in two parts: those
// answered before the first one still waiting, shared with the world it
// was kept from (an answered operation never changes again, and that
// world only appends past them), and its own copy of the rest.
type keptOps struct {
	answered, rest []Op
}

// NewWorld builds a world from a validated configuration.
func NewWorld(cfg Config) (*World, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	rng := NewRand(cfg.Seed)
	w := &World{cfg: cfg, rng: &rng, splitUs: -1, healUs: -1, idempotent: cfg.Idempotent}
	// Room for the usual number of pending events (a tick per machine and
	// a few messages each) saves growing the queue step by step.
	w.queue = make([]event, 0, 4*cfg.Nodes)
	w.order = make(eventHeap, 0, 4*cfg.Nodes)
	w.free = make([]int32, 0, 4*cfg.Nodes)
	w.cfg.Names = append([]string(nil), cfg.Names...)
	w.cfg.Controllers = append([]string(nil), cfg.Controllers...)
	w.cfg.Zones = cloneZones(cfg.Zones)
	w.cfg.CrossZoneLatencyMs = append([]float64(nil), cfg.CrossZoneLatencyMs...)
	w.ncfg = &nodeConfig{
		protocol:       cfg.Protocol,
		size:           cfg.Nodes,
		electionTicks:  cfg.ElectionTicks,
		heartbeatTicks: cfg.HeartbeatTicks,
		preVote:        cfg.PreVote,
		checkQuorum:    cfg.CheckQuorum,
		maxEntries:     cfg.MaxEntriesPerMsg,
		maxInflight:    cfg.MaxInflight,
		snapshotCount:  cfg.SnapshotCount,
		catchUpEntries: cfg.CatchUpEntries,
		bugs:           cfg.Bugs,
		voters:         allVoters(cfg.Nodes),
		boot:           newConfState(firstN(cfg.members()), 0, 0, false),
	}
	w.trace.limit = cfg.TraceLimit
	w.nodes = make([]*Node, cfg.Nodes+1)
	w.lastSeq = make([]uint64, cfg.Nodes+1)
	// Workers, if any, are machines numbered after the members: they have
	// links and a machine's state, but no Raft node.
	machines := cfg.Machines()
	w.machines = make([]machine, machines+1)
	w.links = make([][]Link, machines+1)
	def := Link{Up: true, LatencyMinUs: msToUs(cfg.LatencyMinMs), LatencyMaxUs: msToUs(cfg.LatencyMaxMs), Loss: cfg.Loss, Duplicate: cfg.Duplicate}
	for i := 1; i <= machines; i++ {
		w.links[i] = make([]Link, machines+1)
		for j := 1; j <= machines; j++ {
			w.links[i][j] = def
		}
	}
	w.initZones()
	w.checker.init(w)
	tickUs := int64(cfg.TickMs) * 1000
	for i := 1; i <= cfg.Nodes; i++ {
		w.machines[i] = machine{slow: 1, drift: 1}
		w.nodes[i] = newNode(NodeID(i), w.ncfg, w.rng)
		w.afterStep(NodeID(i), nodeState{})
		// Machines' clocks start at random phases, as real ones do.
		w.scheduleTick(NodeID(i), 1+w.rng.Int63n(tickUs))
	}
	if cfg.Workers > 0 {
		for i := cfg.Nodes + 1; i <= machines; i++ {
			w.machines[i] = machine{slow: 1, drift: 1}
		}
		w.initKube()
	}
	return w, nil
}

// MustWorld is NewWorld for configurations known to be valid (tests,
// built-in scenarios).
func MustWorld(cfg Config) *World {
	w, err := NewWorld(cfg)
	if err != nil {
		panic(err)
	}
	return w
}

// Config returns the configuration the world was built with.
func (w *World) Config() Config { return w.cfg }

// Now is the virtual time in microseconds.
func (w *World) Now() int64 { return w.now }

// Processed is the number of events handled so far.
func (w *World) Processed() uint64 { return w.processed }

// Size is the number of machines.
func (w *World) Size() int { return w.cfg.Nodes }

// Node returns machine id (1..Size). The returned node must be treated as
// read-only; change the world through Apply.
func (w *World) Node(id NodeID) *Node { return w.nodes[id] }

// Status returns whether machine id is up, paused or crashed.
func (w *World) Status(id NodeID) Status { return w.machines[id].status }

// Slow and Drift return a machine's milliseconds per message (1 is normal)
// and clock rate.
func (w *World) Slow(id NodeID) float64  { return w.machines[id].slow }
func (w *World) Drift(id NodeID) float64 { return w.machines[id].drift }

// Backlog is the number of messages waiting at a paused or slow machine.
func (w *World) Backlog(id NodeID) int { return len(w.machines[id].work) }

// TraceHash is the hash of every trace event so far.
func (w *World) TraceHash() uint64 { return w.trace.hash }

// TraceCount is the number of trace events so far.
func (w *World) TraceCount() uint64 { return w.trace.count }

// Trace returns the events kept in memory: all of them unless
// Config.TraceLimit or StreamTrace bounds them.
func (w *World) Trace() []TraceEvent { return capped(w.trace.events) }

// Actions returns the action log.
func (w *World) Actions() []Action { return capped(w.actions) }

// capped returns s with its capacity cut to its length, so a caller that
// appends to a slice the world hands out gets a copy instead of writing into
// the world's own storage.
func capped[T any](s []T) []T { return s[:len(s):len(s)] }

// NextEventAt returns the time of the next event, if any.
func (w *World) NextEventAt() (int64, bool) {
	if len(w.order) == 0 {
		return 0, false
	}
	return w.order[0].at, true
}

func (w *World) schedule(e event) {
	w.seq++
	e.seq = w.seq
	w.enqueue(e)
}

// enqueue stores an event, already numbered, in a free slot of the queue.
func (w *World) enqueue(e event) {
	var slot int32
	if n := len(w.free); n > 0 {
		slot = w.free[n-1]
		w.free = w.free[:n-1]
		w.queue[slot] = e
	} else {
		slot = int32(len(w.queue))
		w.queue = append(w.queue, e)
	}
	w.order.push(eventKey{at: e.at, seq: e.seq, slot: slot})
}

// dequeue removes and returns the next event.
func (w *World) dequeue() event {
	k := w.order.pop()
	e := w.queue[k.slot]
	w.queue[k.slot] = event{kind: evFree}
	w.free = append(w.free, k.slot)
	return e
}

// Step handles the next event and reports whether there was one.
func (w *World) Step() bool {
	w.thaw()
	if len(w.order) == 0 {
		return false
	}
	e := w.dequeue()
	w.now = e.at
	w.processed++
	w.handle(e)
	return true
}

// RunUntil handles every event due at or before t, then sets the clock to t.
func (w *World) RunUntil(t int64) {
	for len(w.order) > 0 && w.order[0].at <= t {
		w.Step()
	}
	if t > w.now {
		w.now = t
	}
}

// RunFor advances the clock by d microseconds.
func (w *World) RunFor(d int64) { w.RunUntil(w.now + d) }

func (w *World) tickUs(id NodeID) int64 {
	d := w.machines[id].drift
	us := float64(w.cfg.TickMs) * 1000 / d
	if us < 1 {
		us = 1
	}
	return int64(us + 0.5)
}

// scheduleTick queues machine id's next tick, of its current generation, at
// time at.
func (w *World) scheduleTick(id NodeID, at int64) {
	m := &w.machines[id]
	m.nextTick = at
	w.schedule(event{at: at, kind: evTick, node: id, gen: m.tickGen})
}

// setTimer makes machine id's election timer run out exactly us
// microseconds from now (the "timer" action). A timer only runs out on a
// tick, and machines tick at their own phases, so the machine's clock is
// re-phased: the pending tick is abandoned (a new generation) and the next
// one is placed so that the k-th tick from now lands at now+us, at the
// machine's own tick length (drift included). Two machines given the same
// us therefore time out at the same instant. Only a running machine that
// has an election timer is changed, as with "timeout"; see
// Node.setElectionTimer.
func (w *World) setTimer(id NodeID, us int64) {
	m := &w.machines[id]
	if m.status != StatusUp {
		return
	}
	tick := w.tickUs(id)
	k := (us + tick - 1) / tick
	if !w.nodes[id].setElectionTimer(int(k)) {
		return
	}
	m.tickGen++
	w.scheduleTick(id, w.now+us-(k-1)*tick)
}

// TimerDue returns the virtual time at which machine id's election timer
// runs out if nothing restarts it first (a message from a leader, a vote
// granted, a new term). ok is false when no such timer runs: the machine is
// paused or crashed, leads (its election timer is the CheckQuorum check,
// not a timeout that starts an election), or runs naive-copy. The answer
// assumes the machine's clock rate stays as it is.
func (w *World) TimerDue(id NodeID) (us int64, ok bool) {
	if id < 1 || int(id) > w.cfg.Nodes {
		return 0, false
	}
	m := &w.machines[id]
	n := w.nodes[id]
	if m.status != StatusUp || !n.runsElectionTimer() {
		return 0, false
	}
	left := max(n.randomizedTimeout-n.electionElapsed, 1)
	return m.nextTick + int64(left-1)*w.tickUs(id), true
}

// LeaseEnd returns the virtual time at which machine id stops trusting the
// leader it last heard, if nothing is heard from it again. Until then, with
// CheckQuorum on, it ignores requests for votes of a higher term, as etcd's
// followers do; from then on it answers them. It is now when the machine
// already would answer: it trusts no leader, its lease ran out, CheckQuorum
// is off, the protocol is not raft, or it is not running.
func (w *World) LeaseEnd(id NodeID) int64 {
	if id < 1 || int(id) > w.cfg.Nodes {
		return w.now
	}
	m := &w.machines[id]
	n := w.nodes[id]
	e := n.cfg.electionTicks
	if m.status != StatusUp || n.cfg.protocol != ProtocolRaft || !n.cfg.checkQuorum || n.lead == None || n.electionElapsed >= e {
		return w.now
	}
	return m.nextTick + int64(e-n.electionElapsed-1)*w.tickUs(id)
}

func (w *World) handle(e event) {
	switch e.kind {
	case evTick:
		m := &w.machines[e.node]
		if e.gen != m.tickGen || m.status != StatusUp {
			return
		}
		before := w.capture(e.node)
		w.nodes[e.node].tick()
		w.afterStep(e.node, before)
		w.scheduleTick(e.node, w.now+w.tickUs(e.node))
	case evDeliver:
		w.deliver(e.msg)
	case evProcess:
		w.processWork(e.node, e.gen)
	case evTimeout:
		w.timeoutOp(e.op)
	case evControl:
		w.controllerWake(e.op)
	case evLoad:
		w.loadWrite(e.gen)
	case evKube:
		w.kubeEvent(e)
	case evWatch:
		w.deliverWatch(e.op, e.gen)
	case evInformer:
		w.informerWake(e.op, e.gen)
	case evReconcile:
		w.reconcileWake(e.op, e.gen)
	}
}

// nodeState is what the world compares before and after a node acts to
// trace and check what changed.
type nodeState struct {
	term   uint64
	vote   NodeID
	commit uint64
	role   Role
	last   uint64
	valid  bool
}

func (w *World) capture(id NodeID) nodeState {
	n := w.nodes[id]
	return nodeState{term: n.term, vote: n.vote, commit: n.commit, role: n.role, last: n.log.lastIndex(), valid: true}
}

// afterStep traces and checks what a node did, applies what it committed,
// answers clients, and sends its messages. Applying a change of
// configuration can make the machine act again (a leader commits under
// its new configuration, steps down, or leaves a joint configuration), so
// what that did is traced and applied in turn.
func (w *World) afterStep(id NodeID, before nodeState) {
	n := w.nodes[id]
	for {
		w.traceStep(id, before)
		before = w.capture(id)
		if !w.applyCommitted(id) {
			break
		}
	}
	if len(n.readStates) > 0 {
		for _, rs := range n.readStates {
			w.onReadIndex(id, rs)
		}
		n.readStates = n.readStates[:0]
	}
	w.answerReads(id)
	if len(n.msgs) > 0 {
		// Sending never steps a node, so the buffer can be reused.
		for i := range n.msgs {
			w.send(n.msgs[i])
		}
		clear(n.msgs)
		n.msgs = n.msgs[:0]
	}
}

// traceStep traces and checks how machine id's role, term, vote, log and
// commit index changed since before.
func (w *World) traceStep(id NodeID, before nodeState) {
	n := w.nodes[id]
	for _, rc := range n.roleChanges {
		w.record(TraceEvent{Kind: TraceRole, Node: id, Term: rc.Term, FromRole: rc.From, ToRole: rc.To, Cause: rc.Cause,
			Text: rc.From.String() + "->" + rc.To.String() + ": " + rc.Cause.String()})
		if rc.To == RoleLeader {
			w.checker.onLeader(id, rc.Term)
			w.live.elected = w.now
		}
	}
	n.roleChanges = n.roleChanges[:0]
	if before.valid {
		if n.term != before.term {
			w.record(TraceEvent{Kind: TraceTerm, Node: id, Term: n.term})
		}
		// A vote in a new term is a new vote even for the same machine.
		if n.vote != None && (n.vote != before.vote || n.term != before.term) {
			w.record(TraceEvent{Kind: TraceVote, Node: id, Peer: n.vote, Term: n.term})
		}
		w.checker.onNodeChange(id, before)
	}
	for _, snap := range n.restored {
		w.record(TraceEvent{Kind: TraceRestore, Node: id, Term: snap.Term, Index: snap.Index})
		w.checker.onRestore(id, snap)
		if w.deploy != nil {
			w.watchRestored(id, snap.Index)
		}
	}
	n.restored = n.restored[:0]
	if n.log.dirtyFrom != 0 {
		if n.log.truncated {
			w.record(TraceEvent{Kind: TraceTruncate, Node: id, Term: n.term, Index: n.log.dirtyFrom})
		}
		if n.log.lastIndex() >= n.log.dirtyFrom {
			w.record(TraceEvent{Kind: TraceAppend, Node: id, Term: n.term, Index: n.log.lastIndex()})
			w.noteAppended(n, n.log.dirtyFrom)
		}
		w.checker.onLogChange(id, n.log.dirtyFrom, n.log.truncated)
		n.log.dirtyFrom, n.log.truncated = 0, false
	}
	if before.valid && n.commit != before.commit {
		w.record(TraceEvent{Kind: TraceCommit, Node: id, Term: n.term, Index: n.commit})
		w.live.commitRose(w.now, n.commit, w.markHorizon())
		w.checker.onCommit(id)
	}
}

// applyCommitted applies what machine id committed and answers its
// clients. It reports whether the machine may have acted on its own in
// doing so: it applied a change of configuration, or, as a leader, it
// proposed to leave a joint configuration.
func (w *World) applyCommitted(id NodeID) bool {
	n := w.nodes[id]
	acted, any := false, false
	for {
		e, ok := n.nextApply()
		if !ok {
			break
		}
		any = true
		did := n.markApplied(e)
		ev := TraceEvent{Kind: TraceApply, Node: id, Term: e.Term, Index: e.Index, Op: e.Data.OpID}
		if did.Repeat {
			ev.Text = repeatSkipped
		}
		w.record(ev)
		w.checker.onApply(id, e, did)
		if w.deploy != nil {
			w.watchApplied(id, e, did)
		}
		w.onApplied(id, e, did)
		if e.Data.Kind == OpConf {
			acted = true
		}
	}
	if any && n.conf.autoLeave {
		last := n.log.lastIndex()
		n.maybeLeaveJoint()
		acted = acted || n.log.lastIndex() != last
	}
	w.traceConf(id)
	if any && n.takeSnapshot() {
		w.record(TraceEvent{Kind: TraceSnapshot, Node: id, Term: n.snap.Term, Index: n.snap.Index})
		w.checker.onSnapshot(id)
		if w.deploy != nil {
			w.watchCompacted(id)
		}
	}
	return acted
}

// traceConf traces what machine id did with changes of configuration.
func (w *World) traceConf(id NodeID) {
	n := w.nodes[id]
	for _, c := range n.confNotes {
		w.record(TraceEvent{Kind: TraceConf, Node: id, Term: n.term, Index: c.index, Text: c.text})
	}
	n.confNotes = n.confNotes[:0]
}

func (w *World) record(e TraceEvent) {
	e.AtUs = w.now
	w.trace.add(e)
}

// Clone returns an independent deep copy of the world: stepping the copy
// never changes the original. The timeline keeps such copies as checkpoints.
func (w *World) Clone() *World {
	c := *w
	rng := *w.rng
	c.rng = &rng
	ncfg := *w.ncfg
	c.ncfg = &ncfg
	// The copy keeps only the events still queued, in the heap's order:
	// the slots that handled events left free stay behind. Which slot an
	// event sits in never decides anything (the heap orders by time and
	// sequence), so the copy behaves the same. A little room past the
	// length lets it take its next events and actions without growing at
	// once: an explorer clones a world for every choice it tries and then
	// applies one action to the copy.
	c.queue = make([]event, len(w.order), len(w.order)+4)
	c.order = make(eventHeap, len(w.order), len(w.order)+4)
	for i, k := range w.order {
		c.queue[i] = w.queue[k.slot]
		k.slot = int32(i)
		c.order[i] = k
	}
	c.free = nil
	c.nodes = make([]*Node, len(w.nodes))
	for i := 1; i < len(w.nodes); i++ {
		c.nodes[i] = w.nodes[i].clone(c.ncfg, c.rng)
	}
	c.machines = make([]machine, len(w.machines))
	for i, m := range w.machines {
		// The copy shares the backlog's array: both only read it and append
		// past their own length, and the copy's capacity is its length, so
		// neither writes where the other reads. A slow machine's backlog
		// grows with the run, and copying it into every checkpoint made a
		// long run's replay quadratic.
		m.work = capped(m.work)
		c.machines[i] = m
	}
	c.links = make([][]Link, len(w.links))
	for i := range w.links {
		c.links[i] = append([]Link(nil), w.links[i]...)
	}
	c.dropped = append([]uint64(nil), w.dropped...)
	if w.zoneOf != nil {
		c.zoneOf = append([]int(nil), w.zoneOf...)
	}
	c.ops, c.kept = w.opsCopy(), nil
	c.controllers = cloneControllers(w.controllers)
	c.pending = append([]int(nil), w.pending...)
	c.failedForgotten = append([]Op(nil), w.failedForgotten...)
	c.forgottenKeys = maps.Clone(w.forgottenKeys)
	c.lastSeq = append([]uint64(nil), w.lastSeq...)
	// The action log is only ever appended to, so the copy shares it,
	// capped as the backlogs are: the timeline's checkpoints of a long run
	// would otherwise each hold a copy of every action taken.
	c.actions = capped(w.actions)
	c.trace = w.trace.clone()
	c.checker = w.checker.clone(&c)
	c.live = w.live.clone()
	if w.kube != nil {
		c.kube = w.kube.clone()
	}
	if w.deploy != nil {
		c.deploy = w.deploy.clone()
	}
	return &c
}

// Keep returns a copy of the world to put away, as the timeline keeps its
// checkpoints: it behaves as Clone's does, but shares with w the client
// operations answered before the first one still waiting, which a long
// run has by the ten thousand and which never change once answered, so
// that a hundred copies of an hour's run do not each hold them all. The
// copy gathers them into one array of its own when first stepped, acted
// on or asked for them; cloning it copies them as Clone does.
func (w *World) Keep() *World {
	w.thaw()
	first := w.firstWaiting()
	ops := w.ops
	w.ops = nil // not copied by Clone: the copy's are set below
	c := w.Clone()
	w.ops = ops
	c.kept = &keptOps{answered: ops[:first:first], rest: append([]Op(nil), ops[first:]...)}
	return c
}

// KeptOps is how many client operations a copy made by Keep would hold
// of its own: those from the first one still waiting on.
func (w *World) KeptOps() int {
	return len(w.ops) - w.firstWaiting()
}

// firstWaiting is the index in ops of the first operation still waiting,
// len(ops) if none is.
func (w *World) firstWaiting() int {
	first := len(w.ops)
	for _, id := range w.pending {
		first = min(first, id-1-w.forgotten.Count)
	}
	return first
}

// thaw gathers a kept world's operations into ops, ready to be read and
// changed.
func (w *World) thaw() {
	if w.kept != nil {
		w.thawKept()
	}
}

// thawKept is thaw's rare half, apart so that only the check is inlined
// where the operations are read (the copying, inlined into each of the
// figures' many readers, was 64 KB of the download's code).
//
//go:noinline
func (w *World) thawKept() {
	w.ops = w.opsCopy()
	w.kept = nil
}

// opsCopy is a copy of the world's client operations, in one array.
func (w *World) opsCopy() []Op {
	if w.kept == nil {
		return append([]Op(nil), w.ops...)
	}
	k := w.kept
	return append(append(make([]Op, 0, len(k.answered)+len(k.rest)), k.answered...), k.rest...)
}

// eventKey orders one queued event; slot is where the event is stored.
type eventKey struct {
	at   int64
	seq  uint64
	slot int32
}

// eventHeap is a binary min-heap ordered by (time, sequence): events at the
// same instant are handled in the order they were scheduled.
type eventHeap []eventKey

func (h eventHeap) less(i, j int) bool {
	if h[i].at != h[j].at {
		return h[i].at < h[j].at
	}
	return h[i].seq < h[j].seq
}

func (h *eventHeap) push(k eventKey) {
	*h = append(*h, k)
	h.up(len(*h) - 1)
}

func (h eventHeap) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !h.less(i, p) {
			break
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
}

// remove takes the key of the event stored in slot out of the heap, if it
// is there (an event handled ahead of its time).
func (h *eventHeap) remove(slot int32) {
	q := *h
	for i := range q {
		if q[i].slot != slot {
			continue
		}
		last := len(q) - 1
		q[i] = q[last]
		q = q[:last]
		if i < last {
			q.down(i)
			q.up(i)
		}
		*h = q
		return
	}
}

func (h *eventHeap) pop() eventKey {
	q := *h
	top := q[0]
	last := len(q) - 1
	q[0] = q[last]
	q = q[:last]
	q.down(0)
	*h = q
	return top
}

func (h eventHeap) down(i int) {
	n := len(h)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		s := l
		if r := l + 1; r < n && h.less(r, l) {
			s = r
		}
		if !h.less(s, i) {
			return
		}
		h[i], h[s] = h[s], h[i]
		i = s
	}
}
