package raftcore

import (
	"cmp"
	"math/bits"
	"slices"
)

// Link is one direction of the connection between two machines. Links are
// directed so that one-way partitions can be built: A may hear B while B
// does not hear A.
type Link struct {
	Up           bool
	LatencyMinUs int64
	LatencyMaxUs int64
	Loss         float64
	Duplicate    float64
}

// Link returns the link from one machine to another.
func (w *World) Link(from, to NodeID) Link { return w.links[from][to] }

// InFlight returns the messages on the wire, oldest first. The app draws
// them at their position between SendUs and DeliverUs.
func (w *World) InFlight() []Message { return w.AppendInFlight(nil) }

// AppendInFlight appends the messages on the wire to dst, oldest first,
// and returns the longer slice: InFlight into a buffer the caller reuses,
// for a host that draws hundreds of them every frame.
func (w *World) AppendInFlight(dst []Message) []Message {
	// Sort where each message sits by id rather than the messages
	// themselves: a Message is large, and the app asks every frame.
	type idAt struct {
		id uint64
		at int
	}
	order := make([]idAt, 0, len(w.queue))
	for i := range w.queue {
		if w.queue[i].kind == evDeliver && !w.isDropped(w.queue[i].msg.ID) {
			order = append(order, idAt{w.queue[i].msg.ID, i})
		}
	}
	slices.SortFunc(order, func(a, b idAt) int { return cmp.Compare(a.id, b.id) })
	for _, o := range order {
		dst = append(dst, w.queue[o.at].msg)
	}
	return dst
}

// InFlightCount is len(InFlight()) without building the slice.
func (w *World) InFlightCount() int {
	c := 0
	for i := range w.queue {
		// A message dropped by hand still has its event queued; it is
		// off the wire all the same, as InFlight says.
		if w.queue[i].kind == evDeliver && !w.isDropped(w.queue[i].msg.ID) {
			c++
		}
	}
	return c
}

// sortMessages orders messages by id. Ids are unique, so the order is
// fully determined; a sort in O(n log n) matters with hundreds on the wire.
func sortMessages(ms []Message) {
	slices.SortFunc(ms, func(a, b Message) int { return cmp.Compare(a.ID, b.ID) })
}

func (w *World) isDropped(id uint64) bool {
	for _, d := range w.dropped {
		if d == id {
			return true
		}
	}
	return false
}

// send puts a message on the wire. Whether the link is cut, and whether the
// message will be lost or duplicated, is decided now from the world's random
// source, so the decision is part of the reproducible run.
func (w *World) send(m Message) {
	w.nextMsgID++
	m.ID = w.nextMsgID
	m.SendUs = w.now
	l := w.links[m.From][m.To]
	w.record(TraceEvent{Kind: TraceSend, Node: m.From, Peer: m.To, Term: m.Term, Index: m.Index, Msg: m.ID, MsgType: m.Type, Text: m.Type.String()})
	if !l.Up {
		w.recordDrop(m, DropLinkCut)
		return
	}
	m.DeliverUs = w.now + w.latency(l) + w.transferUs(&m)
	m.Lost = w.rng.Chance(l.Loss)
	dup := w.rng.Chance(l.Duplicate)
	w.schedule(event{at: m.DeliverUs, kind: evDeliver, node: m.To, msg: m})
	if dup {
		w.sendCopy(m)
	}
}

// sendCopy puts a second copy of message m on the wire, under an id of its
// own and with a latency of its own: a duplicate drawn by the link, or the
// "repeat" action. The copy is never lost on its own account; whether the
// link is up is decided, as for any message, when it arrives.
func (w *World) sendCopy(m Message) {
	w.nextMsgID++
	d := m
	d.ID = w.nextMsgID
	d.SendUs = w.now
	d.DeliverUs = w.now + w.latency(w.links[m.From][m.To]) + w.transferUs(&d)
	d.Lost = false
	w.record(TraceEvent{Kind: TraceSend, Node: d.From, Peer: d.To, Term: d.Term, Msg: d.ID, MsgType: d.Type, Text: d.Type.String() + " (duplicate)"})
	w.schedule(event{at: d.DeliverUs, kind: evDeliver, node: d.To, msg: d})
}

// deliverNow hands message id, which must be in flight, to its machine now,
// ahead of its time (the "deliver" action): the machine handles it as if it
// had just arrived, and its place in the event queue is given up. This is
// how an explorer picks which message arrives next, whatever the latencies
// say.
func (w *World) deliverNow(id uint64) {
	slot, ok := w.inFlightSlot(id)
	if !ok {
		return
	}
	m := w.queue[slot].msg
	w.order.remove(slot)
	w.queue[slot] = event{kind: evFree}
	w.free = append(w.free, slot)
	w.deliver(m)
}

// recordDrop traces message m dropped for the given cause.
func (w *World) recordDrop(m Message, why Cause) {
	w.record(TraceEvent{Kind: TraceDrop, Node: m.From, Peer: m.To, Msg: m.ID, MsgType: m.Type, Cause: why, Text: why.String()})
}

func (w *World) latency(l Link) int64 {
	return l.LatencyMinUs + w.rng.Int63n(l.LatencyMaxUs-l.LatencyMinUs+1)
}

// transferUs is how long m takes to pass through a link of the world's
// bandwidth, on top of the latency: nothing when bandwidth is unlimited.
func (w *World) transferUs(m *Message) int64 {
	if w.cfg.BandwidthKBps <= 0 {
		return 0
	}
	// KB per second is bytes per millisecond, so bytes over it are
	// milliseconds. (No fused multiply-add: see msToUs.)
	return msToUs(float64(m.Bytes()) / w.cfg.BandwidthKBps)
}

func (w *World) deliver(m Message) {
	for i, d := range w.dropped {
		if d == m.ID {
			w.dropped = append(w.dropped[:i], w.dropped[i+1:]...)
			w.reportSnapshot(m, true)
			return
		}
	}
	switch {
	case m.Type != MsgClient && !w.links[m.From][m.To].Up:
		w.recordDrop(m, DropLinkCut)
		w.reportSnapshot(m, true)
		return
	case m.Lost:
		w.recordDrop(m, DropLost)
		w.reportSnapshot(m, true)
		return
	}
	mc := &w.machines[m.To]
	switch mc.status {
	case StatusCrashed:
		w.recordDrop(m, DropMachineDown)
		w.failClient(m, RefusedMachineDown)
		w.reportSnapshot(m, true)
		return
	case StatusPaused:
		if len(mc.work) >= w.cfg.InboxLimit {
			w.recordDrop(m, DropInboxFull)
			w.failClient(m, RefusedInboxFull)
			w.reportSnapshot(m, true)
			return
		}
		mc.work = append(mc.work, m)
		w.reportSnapshot(m, false)
		return
	}
	if mc.slow > 1 || len(mc.work) > 0 || mc.busyUntil > w.now {
		w.enqueueWork(m.To, m)
	} else {
		w.handleMessage(m)
	}
	w.reportSnapshot(m, false)
}

// reportSnapshot tells the sender of m, if m is a snapshot, whether it
// reached its machine, as etcd's transport reports a snapshot's send to
// the leader (ReportSnapshot, stepped as MsgSnapStatus). The report is
// local to the sender: it crosses no link, and waits like any message at
// a paused or slow sender; a crashed one never hears it.
func (w *World) reportSnapshot(m Message, failed bool) {
	if m.Type != MsgSnap {
		return
	}
	r := Message{Type: MsgSnapStatus, From: m.To, To: m.From, Reject: failed, SendUs: w.now, DeliverUs: w.now}
	mc := &w.machines[r.To]
	switch {
	case mc.status == StatusCrashed:
		return
	case mc.status == StatusPaused:
		// The report is the leader's own transport speaking to it, as
		// etcd's ReportSnapshot is, not a message on the network: a full
		// inbox must not drop it, or the follower's progress would stay
		// in the snapshot state for good.
		mc.work = append(mc.work, r)
	case mc.slow > 1 || len(mc.work) > 0 || mc.busyUntil > w.now:
		w.enqueueWork(r.To, r)
	default:
		w.handleMessage(r)
	}
}

// enqueueWork queues a message at a slow or busy machine. Queued messages
// are handled one after another, each taking slow milliseconds when slow is
// above 1 and no time otherwise.
func (w *World) enqueueWork(id NodeID, m Message) {
	mc := &w.machines[id]
	mc.work = append(mc.work, m)
	if len(mc.work) == 1 {
		w.scheduleWork(id)
	}
}

func (w *World) scheduleWork(id NodeID) {
	mc := &w.machines[id]
	start := mc.busyUntil
	if start < w.now {
		start = w.now
	}
	cost := int64(0)
	if mc.slow > 1 {
		cost = int64(float64(mc.slow*1000) + 0.5) // no fused multiply-add: see msToUs
	}
	mc.busyUntil = start + cost
	w.schedule(event{at: mc.busyUntil, kind: evProcess, node: id, gen: mc.workGen})
}

func (w *World) processWork(id NodeID, gen uint64) {
	mc := &w.machines[id]
	if gen != mc.workGen || mc.status != StatusUp || len(mc.work) == 0 {
		return
	}
	m := mc.work[0]
	mc.work = mc.work[1:]
	w.handleMessage(m)
	if len(mc.work) > 0 {
		w.scheduleWork(id)
	}
}

func (w *World) handleMessage(m Message) {
	if m.Type >= MsgKube {
		w.handleKube(m)
		return
	}
	ev := TraceEvent{Kind: TraceDeliver, Node: m.To, Peer: m.From, Term: m.Term, Msg: m.ID, MsgType: m.Type, Text: m.Type.String()}
	if w.nodes[m.To].ignoresInLease(m) {
		// The machine will ignore it without an answer, as etcd does; the
		// trace is the only place that says why.
		ev.Cause, ev.Text = CauseLeaderAlive, ev.Text+" (ignored: a leader is alive)"
	}
	w.record(ev)
	if m.Type == MsgClient {
		w.handleClient(m)
		return
	}
	before := w.capture(m.To)
	w.nodes[m.To].step(m)
	w.afterStep(m.To, before)
}

// Sides splits the machines into the groups that can talk both ways,
// directly or through one another, in order of their lowest member: the
// sides of a partition, or one side when the network is whole. Whether a
// machine is running does not matter.
func (w *World) Sides() [][]NodeID { return w.groups(anyMachine) }

// RunningSides is Sides among the running machines: the groups that can
// talk now. A paused or crashed machine is on no side.
func (w *World) RunningSides() [][]NodeID { return w.groups(w.running) }

func (w *World) running(id NodeID) bool { return w.machines[id].status == StatusUp }

// groups splits the machines for which member holds into sides.
func (w *World) groups(member func(NodeID) bool) [][]NodeID {
	var out [][]NodeID
	placed := make([]bool, w.cfg.Nodes+1)
	for id := NodeID(1); int(id) <= w.cfg.Nodes; id++ {
		if placed[id] || !member(id) {
			continue
		}
		side := w.sideOf(id, member)
		for _, m := range side {
			placed[m] = true
		}
		out = append(out, side)
	}
	return out
}

// sideOf is machine id's side among the machines for which member holds,
// in id order; nil when member(id) does not hold.
func (w *World) sideOf(id NodeID, member func(NodeID) bool) []NodeID {
	if !member(id) {
		return nil
	}
	in := w.sideBits(id, member)
	side := make([]NodeID, 0, bits.OnesCount16(in))
	for m := NodeID(1); int(m) <= w.cfg.Nodes; m++ {
		if in&(1<<m) != 0 {
			side = append(side, m)
		}
	}
	return side
}

// sideBits is machine id's side among the machines for which member
// holds, a bit per machine (bit m for machine m); member(id) must hold. A
// bit per machine (there are at most MaxNodes) keeps the search free of
// allocations: requests record their side, and they are many. (The
// constant below stops the build if MaxNodes outgrows the bits.)
func (w *World) sideBits(id NodeID, member func(NodeID) bool) uint16 {
	const _ = uint16(1 << MaxNodes)
	var in, todo uint16 = 1 << id, 1 << id
	for todo != 0 {
		a := NodeID(bits.TrailingZeros16(todo))
		todo &^= 1 << a
		for b := NodeID(1); int(b) <= w.cfg.Nodes; b++ {
			if in&(1<<b) == 0 && member(b) && w.links[a][b].Up && w.links[b][a].Up {
				in |= 1 << b
				todo |= 1 << b
			}
		}
	}
	return in
}

// SideCount is how many sides the network is split into, len(Sides()),
// without making them: a figure's story asks after every event.
func (w *World) SideCount() int {
	var placed uint16
	n := 0
	for id := NodeID(1); int(id) <= w.cfg.Nodes; id++ {
		if placed&(1<<id) == 0 {
			placed |= w.sideBits(id, anyMachine)
			n++
		}
	}
	return n
}

func anyMachine(NodeID) bool { return true }

// split reports whether some link is down.
func (w *World) split() bool {
	for i := 1; i <= w.cfg.Nodes; i++ {
		for j := 1; j <= w.cfg.Nodes; j++ {
			if i != j && !w.links[i][j].Up {
				return true
			}
		}
	}
	return false
}

// LastSplit is when the network last went from whole to split (some link
// down); 0 and false if it never did.
func (w *World) LastSplit() (us int64, ok bool) { return max(w.splitUs, 0), w.splitUs >= 0 }

// LastHeal is when the network last went from split to whole; 0 and false
// if it never did. While a new split lasts it is before LastSplit.
func (w *World) LastHeal() (us int64, ok bool) { return max(w.healUs, 0), w.healUs >= 0 }
