package app

import (
	"strings"

	"raftlab/raftcore"
)

// history is the run so far: the world the reader sees, the actions of the
// furthest run reached (the head), clones of the world taken now and then
// as checkpoints, and the notable moments (marks). The reader may look at
// any moment from 0 to the head; acting in the past forks the run there.
//
// Every state is rebuilt by replaying recorded actions on a checkpoint, so
// going back and forward again shows exactly the same run.
type history struct {
	cfg    raftcore.Config
	cur    *raftcore.World
	acts   []raftcore.Action // the head's actions; cur has applied a prefix
	headUs int64
	ckpts  []checkpoint
	marks  []Mark
	// markedSeq is the last trace sequence number scanned for marks, and
	// faults the number of actions those events included.
	markedSeq uint64
	faults    int
}

type checkpoint struct {
	w    *raftcore.World
	acts int // actions applied when it was taken
}

// Checkpoint spacing and bounds: the older half is thinned when there are
// too many, so a long run keeps a few far apart and many recent ones.
const (
	ckptEveryUs = 1_000_000
	maxCkpts    = 48
	maxMarks    = 2000
)

// MarkKind says what a notable moment was.
type MarkKind uint8

// Mark kinds.
const (
	MarkLeader    MarkKind = iota // a machine became leader (or authority)
	MarkElection                  // a machine stood for election
	MarkFault                     // the reader (or a scenario) changed the world
	MarkViolation                 // the checker found a broken rule
	MarkWrite                     // a client operation finished
)

var markNames = [...]string{"leader", "election", "fault", "violation", "client"}

func (k MarkKind) String() string {
	if int(k) < len(markNames) {
		return markNames[k]
	}
	return "mark"
}

// Mark is a notable moment of the run, shown on the timeline and reached
// with the previous/next event keys.
type Mark struct {
	AtUs int64
	Kind MarkKind
	Text string
}

func newHistory(cfg raftcore.Config) (*history, error) {
	w, err := raftcore.NewWorld(cfg)
	if err != nil {
		return nil, err
	}
	h := &history{cfg: cfg, cur: w}
	h.ckpts = []checkpoint{{w: w.Clone()}}
	return h, nil
}

// World is the world shown now.
func (h *history) World() *raftcore.World { return h.cur }

// NowUs is the virtual time shown.
func (h *history) NowUs() int64 { return h.cur.Now() }

// HeadUs is the furthest time reached.
func (h *history) HeadUs() int64 { return max(h.headUs, h.cur.Now()) }

// AtHead reports whether the world shown is the furthest one reached, so
// that running it makes new history rather than replaying old.
func (h *history) AtHead() bool {
	return h.cur.Now() >= h.headUs && len(h.cur.Actions()) >= len(h.acts)
}

// Act applies a to the world shown. In the past it forks: the recorded
// future after now is dropped.
func (h *history) Act(a raftcore.Action) error {
	if err := a.Validate(h.cur.Size()); err != nil {
		return err
	}
	h.fork()
	if err := h.cur.Apply(a); err != nil {
		return err
	}
	h.acts = append(h.acts, h.cur.Actions()[len(h.cur.Actions())-1])
	h.scan()
	return nil
}

// fork makes the world shown the head, dropping what was recorded after it.
func (h *history) fork() {
	now := h.cur.Now()
	n := len(h.cur.Actions())
	if h.AtHead() {
		return
	}
	h.acts = h.acts[:n]
	h.headUs = now
	k := len(h.ckpts)
	for k > 1 && (h.ckpts[k-1].w.Now() > now || h.ckpts[k-1].acts > n) {
		k--
	}
	h.ckpts = h.ckpts[:k]
	m := len(h.marks)
	for m > 0 && h.marks[m-1].AtUs > now {
		m--
	}
	h.marks = h.marks[:m]
	h.markedSeq = h.cur.TraceCount()
	h.faults = n
}

// RunUntil moves the world shown forward to t, replaying the recorded
// actions it passes.
func (h *history) RunUntil(t int64) {
	if t <= h.cur.Now() {
		return
	}
	h.forward(h.cur, t)
	h.grow()
}

// forward replays recorded actions on w up to time t, then runs to t.
func (h *history) forward(w *raftcore.World, t int64) {
	for k := len(w.Actions()); k < len(h.acts); k++ {
		if h.acts[k].AtUs() > t {
			break
		}
		// Play steps to exactly the event count the action was taken at.
		_ = w.Play(h.acts[k : k+1])
	}
	w.RunUntil(t)
}

// forwardEvents replays w until it has handled n events.
func (h *history) forwardEvents(w *raftcore.World, n uint64) {
	for w.Processed() < n {
		if k := len(w.Actions()); k < len(h.acts) && h.acts[k].AfterEvents <= w.Processed() {
			_ = w.Play(h.acts[k : k+1])
			continue
		}
		if !w.Step() {
			return
		}
	}
}

// Step handles events until one of them changes something visible (a
// trace event), at most a virtual minute ahead. It reports whether anything
// changed.
func (h *history) Step() bool {
	w := h.cur
	start := w.TraceCount()
	limit := w.Now() + 60_000_000
	for w.TraceCount() == start {
		if k := len(w.Actions()); k < len(h.acts) && h.acts[k].AfterEvents <= w.Processed() {
			_ = w.Play(h.acts[k : k+1])
			continue
		}
		next, ok := w.NextEventAt()
		if !ok || next > limit {
			break
		}
		w.Step()
	}
	h.grow()
	return w.TraceCount() != start
}

// StepBack goes back to the state just before the latest visible change
// the world shown includes. It reports whether it moved.
func (h *history) StepBack() bool {
	target := h.cur.Processed()
	acts := len(h.cur.Actions())
	now := h.cur.TraceCount()
	for i := len(h.ckpts) - 1; i >= 0; i-- {
		c := h.ckpts[i]
		if c.w.Processed() > target || c.acts > acts {
			continue
		}
		// Replay from the checkpoint, remembering the last event count
		// whose state had fewer trace events than the state shown. The
		// state at a count excludes actions taken after that event.
		w := c.w.Clone()
		best, found := uint64(0), false
		for {
			if w.TraceCount() < now {
				best, found = w.Processed(), true
			}
			if w.Processed() >= target {
				break
			}
			h.forwardEvents(w, w.Processed()+1)
		}
		if !found {
			continue
		}
		w = c.w.Clone()
		h.forwardEvents(w, best)
		h.cur = w
		return true
	}
	return false
}

// GoTo shows the run at virtual time t (clamped to 0..head).
func (h *history) GoTo(t int64) {
	t = min(max(t, 0), h.HeadUs())
	if t >= h.cur.Now() {
		h.RunUntil(t)
		return
	}
	c := h.checkpointAt(t)
	w := c.w.Clone()
	h.forward(w, t)
	h.cur = w
}

// checkpointAt is the latest checkpoint at or before time t.
func (h *history) checkpointAt(t int64) checkpoint {
	best := h.ckpts[0]
	for _, c := range h.ckpts {
		if c.w.Now() <= t && c.acts <= len(h.acts) {
			best = c
		}
	}
	return best
}

// checkpointBefore is the latest checkpoint that has handled at most n
// events and applied at most acts actions.
func (h *history) checkpointBefore(n uint64, acts int) checkpoint {
	best := h.ckpts[0]
	for _, c := range h.ckpts {
		if c.w.Processed() <= n && c.acts <= acts {
			best = c
		}
	}
	return best
}

// grow records what the world shown adds beyond the head: new head time,
// checkpoints and marks.
func (h *history) grow() {
	w := h.cur
	if w.Now() > h.headUs {
		h.headUs = w.Now()
	}
	if len(w.Actions()) > len(h.acts) {
		h.acts = append(h.acts[:0:0], w.Actions()...)
	}
	last := h.ckpts[len(h.ckpts)-1]
	if w.Now()-last.w.Now() >= ckptEveryUs && len(w.Actions()) == len(h.acts) {
		h.ckpts = append(h.ckpts, checkpoint{w: w.Clone(), acts: len(w.Actions())})
		if len(h.ckpts) > maxCkpts {
			h.ckpts = thin(h.ckpts)
		}
	}
	h.scan()
}

// thin drops every other checkpoint of the older half, keeping the first.
func thin(cs []checkpoint) []checkpoint {
	half := len(cs) / 2
	out := cs[:1]
	for i := 2; i < half; i += 2 {
		out = append(out, cs[i])
	}
	return append(out, cs[half:]...)
}

// scan turns new trace events into marks.
func (h *history) scan() {
	w := h.cur
	if w.TraceCount() <= h.markedSeq {
		return
	}
	for _, e := range w.Trace() {
		if e.Seq <= h.markedSeq {
			continue
		}
		var a *raftcore.Action
		if e.Kind == raftcore.TraceFault {
			if h.faults < len(w.Actions()) {
				a = &w.Actions()[h.faults]
			}
			h.faults++
		}
		if m, ok := markFor(w, e, a); ok {
			h.marks = append(h.marks, m)
		}
	}
	h.markedSeq = w.TraceCount()
	if len(h.marks) > maxMarks {
		h.marks = append(h.marks[:0:0], h.marks[len(h.marks)-maxMarks/2:]...)
	}
}

func markFor(w *raftcore.World, e raftcore.TraceEvent, a *raftcore.Action) (Mark, bool) {
	cfg := w.Config()
	name := cfg.Name(e.Node)
	switch e.Kind {
	case raftcore.TraceRole:
		switch {
		case roleChangedTo(e.Text, "leader"):
			what := "became leader"
			if cfg.Protocol == raftcore.ProtocolFailover {
				what = "became an authority"
			}
			return Mark{e.AtUs, MarkLeader, name + " " + what + termSuffix(cfg, e.Term)}, true
		case roleChangedTo(e.Text, "candidate"):
			return Mark{e.AtUs, MarkElection, name + " stood for election" + termSuffix(cfg, e.Term)}, true
		}
	case raftcore.TraceFault:
		if a == nil {
			return Mark{e.AtUs, MarkFault, e.Text}, true
		}
		return Mark{e.AtUs, MarkFault, describeAction(cfg, *a)}, true
	case raftcore.TraceViolation:
		return Mark{e.AtUs, MarkViolation, "Broken: " + e.Text}, true
	case raftcore.TraceOpComplete:
		if op, ok := w.Op(e.Op); ok {
			return Mark{e.AtUs, MarkWrite, opLine(cfg, op)}, true
		}
	}
	return Mark{}, false
}

// roleChangedTo reports whether a role-change text "from->to: why" names
// role as the new role.
func roleChangedTo(text, role string) bool {
	_, after, ok := strings.Cut(text, "->")
	if !ok {
		return false
	}
	to, _, _ := strings.Cut(after, ":")
	return to == role
}

func termSuffix(cfg raftcore.Config, term uint64) string {
	if cfg.Protocol != raftcore.ProtocolRaft || term == 0 {
		return ""
	}
	return " (term " + utoa(term) + ")"
}

// Marks returns the notable moments so far.
func (h *history) Marks() []Mark { return h.marks }

// PrevMark is the latest mark before now (by more than a millisecond, so
// that pressing the key again keeps going back).
func (h *history) PrevMark() (Mark, bool) {
	now := h.cur.Now()
	for i := len(h.marks) - 1; i >= 0; i-- {
		if h.marks[i].AtUs < now-1000 {
			return h.marks[i], true
		}
	}
	return Mark{}, false
}

// NextMark moves to the next notable moment after now: a recorded one, or
// by running on (at most limitUs of virtual time) until one happens. It
// reports the mark reached.
func (h *history) NextMark(limitUs int64) (Mark, bool) {
	now := h.cur.Now()
	for _, m := range h.marks {
		if m.AtUs > now {
			h.GoTo(m.AtUs)
			return m, true
		}
	}
	have := len(h.marks)
	end := now + limitUs
	for h.cur.Now() < end {
		next, ok := h.cur.NextEventAt()
		if !ok || next > end {
			h.RunUntil(end)
			break
		}
		h.RunUntil(next)
		if len(h.marks) > have {
			return h.marks[have], true
		}
	}
	return Mark{}, false
}
