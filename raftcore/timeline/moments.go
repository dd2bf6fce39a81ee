package timeline

import "math"

// Moments.
//
// A moment is one thing the run did: an event handled or an action
// applied. StepForward handles an event together with the actions taken
// right after it, which is what playing shows; a run made of actions at
// one instant (a counterexample the explorer found, where every message
// is delivered by hand at time 0) would then pass all of them in one
// step, and stepping back by events would jump to the empty start. The
// moment steps below go through such a run one action at a time.

// NextMomentAt is the virtual time of the run's next moment: the next
// recorded action when it is taken before the next event, or else the
// next event. False when the run has neither.
func (t *Timeline) NextMomentAt() (int64, bool) {
	if k := len(t.cur.Actions()); k < len(t.br.log) && due(t.cur, t.br.log[k], MaxTimeUs) {
		return max(t.br.log[k].AtUs(), t.cur.Now()), true
	}
	next, ok := t.cur.NextEventAt()
	if !ok || next > MaxTimeUs {
		return 0, false
	}
	return next, true
}

// StepMoment moves forward by one moment: the next recorded action, or
// the next event alone (the actions taken right after it are moments of
// their own). Past the head it makes new history, as StepForward does. It
// reports whether the world moved.
func (t *Timeline) StepMoment() bool {
	if _, ok := t.NextMomentAt(); !ok {
		return false
	}
	before := t.Pos()
	// The stop after the first moment keeps the replay from letting time
	// pass to the target: only one moment is taken.
	t.replay(Position{math.MaxUint64, MaxTimeUs, allActions}, func(moment) bool { return true })
	return t.Pos() != before
}

// StepBackMoment goes back to the latest moment before the current one:
// to before the last action applied, or before the last event handled,
// whichever came last. It reports false at the start.
func (t *Timeline) StepBackMoment() bool {
	here := t.Pos()
	if here == (Position{}) {
		return false
	}
	t.moveTo(t.momentBefore(here))
	return true
}

// momentBefore finds the latest moment before here by replaying a clone
// from the nearest checkpoint strictly before it (as PrevNotable does):
// the world keeps no record of where its last action fell between its
// events, so the way there is walked again.
// The checkpoint itself is a moment: the start, or the run right after an
// event.
func (t *Timeline) momentBefore(here Position) Position {
	cps := append(append([]checkpoint(nil), t.br.cps...), t.near...)
	from := t.br.cps[0] // the start, before any moment
	for _, c := range cps {
		if c.pos.within(here) && c.pos.Less(here) && from.pos.Less(c.pos) {
			from = c
		}
	}
	w := from.w.Clone()
	prev := from.pos
	if _, err := replayTo(w, t.br.log, here, func(moment) bool {
		if p := posOf(w); p.Less(here) {
			prev = p
		}
		return false
	}); err != nil {
		panic("timeline: replaying the recorded run failed: " + err.Error())
	}
	return prev
}
