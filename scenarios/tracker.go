package scenarios

import (
	"sort"

	"raftlab/raftcore"
)

// Tracker follows a scenario's steps on a world the reader drives. Call
// Observe whenever the world may have changed (every frame is fine); steps
// only move forward, each once its condition holds.
type Tracker struct {
	s       *Scenario
	h       *history
	reached []reach
	// holdFrom is when the next step's condition became true, for steps
	// with HoldMs; -1 while it is false.
	holdFrom int64
	// last is the world seen by the latest Observe; the closing line is
	// computed from it on demand (and kept until the world moves on).
	last      *raftcore.World
	final     string
	finalAt   uint64
	finalTime int64
	// onReach, if set, is called as each step is reached (tests hold the
	// step's claims against the world there).
	onReach func(i int, v *View)
	// v is the View that view hands out.
	v View
}

type reach struct {
	atUs int64
	text string
}

// NewTracker starts following s at its first step.
func NewTracker(s *Scenario) *Tracker {
	return &Tracker{s: s, h: newHistory(), holdFrom: -1}
}

// Observe looks at the world and moves through every step whose condition
// now holds. Several steps may come true at one moment; each keeps its own
// words and time (TextOf, ReachedAtMs), so that a display showing one step
// at a time (a figure resting at each) can show every one of them.
func (t *Tracker) Observe(w *raftcore.World) {
	t.h.update(w)
	v := t.view(w)
	if len(t.reached) == 0 {
		t.reach(v, 0)
	}
	for len(t.reached) < len(t.s.Steps) {
		i := len(t.reached)
		st := t.s.Steps[i]
		if st.When != nil && !st.When(v) {
			t.holdFrom = -1
			break
		}
		if st.HoldMs > 0 {
			if t.holdFrom < 0 || t.holdFrom > w.Now() {
				t.holdFrom = w.Now()
			}
			if float64(w.Now()-t.holdFrom) < st.HoldMs*1000 {
				break
			}
		}
		t.reach(v, i)
	}
	t.last = w
}

func (t *Tracker) reach(v *View, i int) {
	st := t.s.Steps[i]
	text := st.Text
	if st.Live != nil {
		text = st.Live(v)
	}
	t.reached = append(t.reached, reach{atUs: v.W.Now(), text: text})
	t.holdFrom = -1
	if t.onReach != nil {
		t.onReach(i, v)
	}
}

// view is w as the steps' conditions and claims see it. The tracker
// keeps one View and points it at w: Observe runs after every event of a
// playing figure, and a View made anew each time was most of what opening
// a figure allocated. A View given to a condition, a claim or onReach is
// theirs only until they return.
func (t *Tracker) view(w *raftcore.World) *View {
	t.v = View{W: w, h: t.h}
	return &t.v
}

// Step is the index of the latest step reached (0 before anything happened).
func (t *Tracker) Step() int {
	if len(t.reached) == 0 {
		return 0
	}
	return len(t.reached) - 1
}

// StepText is what the reader is told at the current step.
func (t *Tracker) StepText() string {
	if len(t.reached) == 0 {
		return t.s.Steps[0].Text
	}
	return t.reached[len(t.reached)-1].text
}

// TextOf is what the reader is told at step i, as it was worded when the
// step was reached (the first step's text before anything happened); ""
// for a step not reached.
func (t *Tracker) TextOf(i int) string {
	switch {
	case i == 0 && len(t.reached) == 0:
		return t.s.Steps[0].Text
	case i < 0 || i >= len(t.reached):
		return ""
	}
	return t.reached[i].text
}

// Untrue holds step i's claims against w, the world the tracker has
// followed, as a display showing step i now would: nil when every claim is
// true (or the step makes none). A figure resting on a step asks it, so
// that a test in a real browser sees the words true on screen.
func (t *Tracker) Untrue(i int, w *raftcore.World) error {
	if i < 0 || i >= len(t.s.Steps) || t.s.Steps[i].Claims == nil {
		return nil
	}
	return t.s.Steps[i].Claims(t.view(w))
}

// Elections are the election counters (raftcore.ElectionStats) of the
// stretch [fromUs, toUs] of the run the tracker has followed.
func (t *Tracker) Elections(fromUs, toUs int64) raftcore.ElectionStats {
	if t.h.elections == nil {
		return raftcore.ElectionStats{}
	}
	return t.h.elections.Stats(fromUs, toUs)
}

// StepCount is the number of steps in the story.
func (t *Tracker) StepCount() int { return len(t.s.Steps) }

// ReachedAtMs is the virtual time step i was reached, if it was.
func (t *Tracker) ReachedAtMs(i int) (float64, bool) {
	if i < 0 || i >= len(t.reached) {
		return 0, false
	}
	return float64(t.reached[i].atUs) / 1000, true
}

// Done reports whether the last step was reached.
func (t *Tracker) Done() bool { return len(t.reached) == len(t.s.Steps) }

// Final is the closing "what just happened" line, computed from the world
// of the latest Observe once the story is done; empty before that.
func (t *Tracker) Final() string {
	if !t.Done() || t.last == nil {
		return ""
	}
	if t.final == "" || t.finalAt != t.last.Processed() || t.finalTime != t.last.Now() {
		t.final = t.s.final(t.view(t.last))
		t.finalAt, t.finalTime = t.last.Processed(), t.last.Now()
	}
	return t.final
}

// View is what a step's condition reads: the world now, and what has been
// seen of its past.
type View struct {
	W *raftcore.World
	h *history
}

// history is what a tracker remembers of a world's past that the world's
// state alone does not show: role changes, lost messages and replaced
// entries.
type history struct {
	seq   uint64 // the last trace event read
	roles []roleChange
	drops []drop
	// truncs counts, per machine, how often entries were replaced;
	// truncAt remembers when, so that a rewind can take them back.
	truncs  []int
	truncAt []truncation
	// stale lists entries a machine appended in a term lower than one a
	// leader had already reached: acts on outdated beliefs.
	stale     []staleAppend
	topLeader uint64 // highest term any machine became leader in
	// confs are the trace's notes on changes of configuration: applied,
	// refused, or not proposed.
	confs []confEvent
	// elections counts elections, leaders and time without one
	// (ElectionStats), from the first event read.
	elections *raftcore.ElectionCounter
	// snaps are the snapshots sent, each with when it arrived (0 until
	// it does); apps the latest appends sent, and lastApp, per machine,
	// the latest append that reached it: how long each took on the wire.
	snaps   []wireTrip
	apps    []wireTrip
	lastApp []wireTrip
}

// wireTrip is one message's way from sender to receiver.
type wireTrip struct {
	from, to         raftcore.NodeID
	msg              uint64
	sentUs, arriveUs int64
	seq, arriveSeq   uint64
}

// keptApps is how many appends in flight the history follows.
const keptApps = 64

type roleChange struct {
	node     raftcore.NodeID
	from, to raftcore.Role
	term     uint64
	why      raftcore.Cause
	atUs     int64
	seq      uint64 // the trace event's, to forget it on a rewind
}

type drop struct {
	from, to raftcore.NodeID
	kind     raftcore.MsgType
	atUs     int64
	why      raftcore.Cause
	seq      uint64
}

type confEvent struct {
	node raftcore.NodeID
	text string
	atUs int64
	seq  uint64
}

type truncation struct {
	node raftcore.NodeID
	seq  uint64
}

type staleAppend struct {
	node  raftcore.NodeID
	term  uint64
	index uint64
	atUs  int64
	seq   uint64
}

func newHistory() *history { return &history{} }

// scan builds the history of a world from its whole trace (for checks on a
// finished run, whose trace is kept in full). Not inlined: the claims call
// it, and each inlined copy was a copy of the history's set-up.
//
//go:noinline
func scan(w *raftcore.World) *history {
	h := newHistory()
	h.update(w)
	return h
}

// update reads the trace events added since the last look.
func (h *history) update(w *raftcore.World) {
	if n := w.Size() + 1; len(h.truncs) < n {
		h.truncs = append(h.truncs, make([]int, n-len(h.truncs))...)
		h.lastApp = append(h.lastApp, make([]wireTrip, n-len(h.lastApp))...)
	}
	if h.elections == nil {
		h.elections = raftcore.NewElectionCounter(w.Size())
	}
	if w.TraceCount() < h.seq {
		// The world went back in time (the reader rewound it): carry on
		// from here.
		h.rewind(w.TraceCount())
		h.elections.RewindTo(w)
		return
	}
	evs := w.Trace()
	i := sort.Search(len(evs), func(i int) bool { return evs[i].Seq > h.seq })
	for _, e := range evs[i:] {
		h.event(e)
	}
	h.seq = w.TraceCount()
}

// rewind forgets what happened after the seq'th trace event: the future
// the reader left behind by rewinding did not happen in the run shown, and
// a step's words must not count its leaders, drops or replaced entries.
func (h *history) rewind(seq uint64) {
	h.seq = seq
	h.roles = keepUpTo(h.roles, seq, func(r roleChange) uint64 { return r.seq })
	h.drops = keepUpTo(h.drops, seq, func(d drop) uint64 { return d.seq })
	h.stale = keepUpTo(h.stale, seq, func(s staleAppend) uint64 { return s.seq })
	h.confs = keepUpTo(h.confs, seq, func(c confEvent) uint64 { return c.seq })
	h.snaps = keepUpTo(h.snaps, seq, func(t wireTrip) uint64 { return t.seq })
	for k := range h.snaps {
		if h.snaps[k].arriveSeq > seq {
			// It arrived in the future left behind.
			h.snaps[k].arriveUs, h.snaps[k].arriveSeq = 0, 0
		}
	}
	h.apps = h.apps[:0]
	for k := range h.lastApp {
		if h.lastApp[k].seq > seq {
			h.lastApp[k] = wireTrip{}
		}
	}
	for n := len(h.truncAt); n > 0 && h.truncAt[n-1].seq > seq; n-- {
		h.truncs[h.truncAt[n-1].node]--
		h.truncAt = h.truncAt[:n-1]
	}
	h.topLeader = 0
	for _, rc := range h.roles {
		if rc.to == raftcore.RoleLeader {
			h.topLeader = max(h.topLeader, rc.term)
		}
	}
}

// keepUpTo drops the records, kept in trace order, of events after seq.
func keepUpTo[T any](records []T, seq uint64, seqOf func(T) uint64) []T {
	n := len(records)
	for n > 0 && seqOf(records[n-1]) > seq {
		n--
	}
	return records[:n]
}

func (h *history) event(e raftcore.TraceEvent) {
	if h.elections != nil { // set on the first look at a world
		h.elections.Observe(e)
	}
	switch e.Kind {
	case raftcore.TraceDrop:
		h.drops = append(h.drops, drop{from: e.Node, to: e.Peer, kind: e.MsgType, atUs: e.AtUs, why: e.Cause, seq: e.Seq})
	case raftcore.TraceRole:
		h.roles = append(h.roles, roleChange{node: e.Node, from: e.FromRole, to: e.ToRole, term: e.Term, why: e.Cause, atUs: e.AtUs, seq: e.Seq})
		if e.ToRole == raftcore.RoleLeader && e.Term > h.topLeader {
			h.topLeader = e.Term
		}
	case raftcore.TraceSend:
		h.sent(e)
	case raftcore.TraceDeliver:
		h.arrived(e)
	case raftcore.TraceConf:
		h.confs = append(h.confs, confEvent{node: e.Node, text: e.Text, atUs: e.AtUs, seq: e.Seq})
	case raftcore.TraceTruncate:
		if int(e.Node) < len(h.truncs) {
			h.truncs[e.Node]++
			h.truncAt = append(h.truncAt, truncation{node: e.Node, seq: e.Seq})
		}
	case raftcore.TraceAppend:
		if e.Term < h.topLeader {
			h.stale = append(h.stale, staleAppend{node: e.Node, term: e.Term, index: e.Index, atUs: e.AtUs, seq: e.Seq})
		}
	}
}

// sent notes a snapshot or an append going out.
func (h *history) sent(e raftcore.TraceEvent) {
	t := wireTrip{from: e.Node, to: e.Peer, msg: e.Msg, sentUs: e.AtUs, seq: e.Seq}
	switch e.MsgType {
	case raftcore.MsgSnap:
		h.snaps = append(h.snaps, t)
	case raftcore.MsgApp:
		if len(h.apps) == keptApps {
			h.apps = append(h.apps[:0], h.apps[1:]...)
		}
		h.apps = append(h.apps, t)
	}
}

// arrived notes when a snapshot or an append followed reached its
// receiver.
func (h *history) arrived(e raftcore.TraceEvent) {
	switch e.MsgType {
	case raftcore.MsgSnap:
		for k := len(h.snaps) - 1; k >= 0; k-- {
			if h.snaps[k].msg == e.Msg && h.snaps[k].arriveUs == 0 {
				h.snaps[k].arriveUs, h.snaps[k].arriveSeq = e.AtUs, e.Seq
				return
			}
		}
	case raftcore.MsgApp:
		for k := len(h.apps) - 1; k >= 0; k-- {
			if h.apps[k].msg == e.Msg {
				t := h.apps[k]
				t.arriveUs, t.seq = e.AtUs, e.Seq
				if int(t.to) < len(h.lastApp) {
					h.lastApp[t.to] = t
				}
				return
			}
		}
	}
}
