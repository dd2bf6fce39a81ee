package session

import (
	"math"
	"raftlab/raftcore"
	"raftlab/raftcore/timeline"
)

// TraceLimit bounds the trace kept in memory, so that a long run does not
// grow without end; the trace hash still covers every event.
const TraceLimit = 4096

// HistoryLimit bounds the client operations kept in memory likewise: the
// newest 4096 answered ones and every one still waiting. The safety rules
// stay exact over the ones forgotten; the client panel judges reads
// (linearize) only on keys none of whose writes was forgotten.
const HistoryLimit = 4096

// history is the session's view of the run's timeline: the world shown,
// the head, the notable marks, and moves in time. It adds to
// timeline.Timeline what the reader's keys mean: a step forward or back
// goes to the next or previous visible change, not to the next clock tick,
// which changes nothing on screen.
type history struct {
	tl *timeline.Timeline
}

func newHistory(cfg raftcore.Config) (*history, error) {
	tl, err := timeline.NewWithOptions(cfg, timeline.Options{TraceLimit: TraceLimit, HistoryLimit: HistoryLimit})
	if err != nil {
		return nil, err
	}
	return &history{tl: tl}, nil
}

// World is the world shown now.
func (h *history) World() *raftcore.World { return h.tl.World() }

// NowUs is the virtual time shown.
func (h *history) NowUs() int64 { return h.tl.World().Now() }

// HeadUs is the furthest time reached on this branch.
func (h *history) HeadUs() int64 { return h.tl.Head().AtUs }

// AtHead reports whether acting now extends the run rather than forking it.
func (h *history) AtHead() bool { return h.tl.AtHead() }

// Act applies a now (forking when in the past).
func (h *history) Act(a raftcore.Action) error { return h.tl.Act(a) }

// RunUntil moves the world shown forward to time t.
func (h *history) RunUntil(t int64) { h.tl.Advance(t - h.NowUs()) }

// GoTo shows the run at virtual time t.
func (h *history) GoTo(t int64) { h.tl.SeekTime(t) }

// StepUntil moves to the next moment of the run no later than virtual
// time t: a recorded action, when it is taken before the next event, or
// else the next event. It reports false when none is due by then. Unlike
// the timeline's StepForward, which applies a recorded action together
// with the event after it, it shows the world right after the action, as
// it was when the action was taken.
func (h *history) StepUntil(t int64) bool {
	pos := h.tl.Pos()
	next, ok := h.World().NextEventAt()
	if log := h.tl.Actions(); pos.Actions < len(log) {
		if at := log[pos.Actions].AtUs(); at <= t && (!ok || at <= next) {
			// The timeline applies it here only if it came before the event.
			h.tl.SeekTo(timeline.Position{Events: pos.Events, AtUs: at, Actions: pos.Actions + 1})
			if h.tl.Pos() != pos {
				return true
			}
		}
	}
	return ok && next <= t && h.tl.StepForward()
}

// maxHops bounds how many events a visible step may pass over.
const maxHops = 100_000

// Step handles events until one changes something visible (records a
// trace event). It reports whether anything changed.
func (h *history) Step() bool {
	changed, _ := h.StepBy(math.MaxInt64)
	return changed
}

// StepBack goes back to just before the latest visible change the world
// shown includes. It reports whether it moved.
func (h *history) StepBack() bool {
	start := h.World().TraceCount()
	moved := false
	// Each step back is one moment, an event or an action; ticks that
	// changed nothing are passed.
	for i := 0; i < 1000 && h.World().TraceCount() >= start; i++ {
		if !h.tl.StepBackMoment() {
			break
		}
		moved = true
	}
	return moved
}

// Marks returns the notable moments of this branch.
func (h *history) Marks() []timeline.Mark { return h.tl.Marks() }

// PrevMark moves to the previous notable moment.
func (h *history) PrevMark() (timeline.Mark, bool) { return h.tl.PrevNotable() }

// NextMark moves to the next notable moment no later than virtual time
// until, running on if need be.
func (h *history) NextMark(until int64) (timeline.Mark, bool) { return h.tl.NextNotableBy(until) }

// StepBy handles moments (events and recorded actions, one at a time)
// until one changes something visible, handling none due after virtual
// time until. It reports whether anything changed, and stopped when it
// stopped for until.
func (h *history) StepBy(until int64) (changed, stopped bool) {
	start := h.World().TraceCount()
	for i := 0; i < maxHops && h.World().TraceCount() == start; i++ {
		next, ok := h.tl.NextMomentAt()
		if !ok {
			break
		}
		if next > until {
			return h.World().TraceCount() != start, true
		}
		if !h.tl.StepMoment() {
			break
		}
	}
	return h.World().TraceCount() != start, false
}
