package timeline

import "raftlab/raftcore"

// recoverTraceLimit is the trace a world rebuilt to recover dropped events
// keeps: one moment (an event or an action) never records nearly half of
// it, not even a machine resuming with a full inbox.
const recoverTraceLimit = 1 << 16

// newEvents returns the trace events w recorded after sequence number lo,
// and the world to judge them with. It is w itself, unless w's bounded
// trace has already dropped some of them (a single moment recorded more
// than half of it); then the run is replayed from the start, in a world
// that keeps enough, up to the same moment.
func newEvents(w *raftcore.World, lo uint64) ([]raftcore.TraceEvent, *raftcore.World) {
	hi := w.TraceCount()
	evs := w.Trace()
	fresh := hi - lo
	if fresh <= uint64(len(evs)) {
		return evs[uint64(len(evs))-fresh:], w
	}
	cfg := w.Config()
	cfg.TraceLimit = recoverTraceLimit
	full := raftcore.MustWorld(cfg)
	// The world's own action log is the run it had; its position is where
	// to stop. A recorded log replays exactly, so this cannot fail.
	if _, err := replayTo(full, w.Actions(), posOf(w), func(moment) bool { return full.TraceCount() >= hi }); err != nil {
		panic("timeline: replaying a recorded run failed: " + err.Error())
	}
	evs = full.Trace()
	n := min(full.TraceCount()-lo, uint64(len(evs)))
	return evs[uint64(len(evs))-n:], full
}

// notable returns the marks of the events w recorded after lo, in order.
// Every fault event belongs to the action just applied: an action is a
// moment of its own and the only thing that records a fault.
func notable(w *raftcore.World, lo uint64) []Mark {
	evs, jw := newEvents(w, lo)
	var out []Mark
	for _, e := range evs {
		var act *raftcore.Action
		if e.Kind == raftcore.TraceFault {
			if acts := jw.Actions(); len(acts) > 0 {
				act = &acts[len(acts)-1]
			}
		}
		if m, ok := classify(jw, e, act); ok {
			out = append(out, m)
		}
	}
	return out
}

// mostNotable is the most important of marks (the first of that kind).
func mostNotable(marks []Mark) Mark {
	best := marks[0]
	for _, m := range marks[1:] {
		if m.Kind > best.Kind {
			best = m
		}
	}
	return best
}
