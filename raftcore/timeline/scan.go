package timeline

import "raftlab/raftcore"

// streamTraceKeep is the trace a world keeps when its events are streamed
// to whoever needs them (World.StreamTrace): nothing reads it.
const streamTraceKeep = 16

// newEvents returns the trace events w recorded after sequence number lo,
// and the world to judge them with. It is w itself, unless w's bounded
// trace has already dropped some of them (a single moment recorded more
// than half of it); then the run is replayed from the start, up to the
// same moment, in a world that streams its events and collects those.
func newEvents(w *raftcore.World, lo uint64) ([]raftcore.TraceEvent, *raftcore.World) {
	hi := w.TraceCount()
	evs := w.Trace()
	fresh := hi - lo
	if fresh <= uint64(len(evs)) {
		return evs[uint64(len(evs))-fresh:], w
	}
	cfg := w.Config()
	cfg.TraceLimit = 0 // a new world keeps its first events for the stream
	full := raftcore.MustWorld(cfg)
	var got []raftcore.TraceEvent
	if err := full.StreamTrace(streamTraceKeep, func(e raftcore.TraceEvent) {
		if e.Seq > lo && e.Seq <= hi {
			got = append(got, e)
		}
	}); err != nil {
		panic("timeline: " + err.Error())
	}
	// The world's own action log is the run it had; its position is where
	// to stop. A recorded log replays exactly, so this cannot fail.
	if _, err := replayTo(full, w.Actions(), posOf(w), func(moment) bool { return full.TraceCount() >= hi }); err != nil {
		panic("timeline: replaying a recorded run failed: " + err.Error())
	}
	return got, full
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
