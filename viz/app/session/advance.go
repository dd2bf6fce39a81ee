package session

import (
	"fmt"
	"math"

	"raftlab/raftcore"
	"raftlab/scenarios"
)

// maxObserved bounds the events handled one by one in a frame; beyond it
// the world runs on unobserved (only at high speed on a busy cluster).
const maxObserved = 5000

// Advance moves the world to virtual time to, applying the script's
// actions on the way when the app plays the figure. Script actions are
// applied only at the head: behind it, the recorded run already holds
// them.
//
// With stop at 0 or more, a figure playing to that step stops there, at
// the event that reached it, even within a frame: it rests on the world
// its step's words were written for; stopped says so. A script that fails
// stops playing, and the error says why.
func (s *Session) Advance(to int64, stop int) (stopped bool, err error) {
	r := s.scen
	if r != nil && r.autoplay && !s.hist.AtHead() && s.hist.HeadUs() < to {
		// A frame across the head replays to it first, so that the
		// script's actions due past it are not passed by.
		if s.runObserved(s.hist.HeadUs(), stop, maxObserved) {
			return true, nil
		}
	}
	if r != nil && r.autoplay && s.hist.AtHead() {
		for ; r.next < len(r.script) && r.script[r.next].AtUs() <= to; r.next++ {
			x := r.script[r.next]
			if x.AtUs() < s.hist.NowUs() {
				continue
			}
			if s.runObserved(x.AtUs(), stop, maxObserved) {
				return true, nil
			}
			if err := s.hist.Act(x); err != nil {
				r.autoplay = false
				return false, fmt.Errorf("the figure's script failed: %w", err)
			}
			r.tr.Observe(s.World())
		}
	}
	return s.runObserved(to, stop, maxObserved), nil
}

// runObserved moves the world to time to. While a scenario's story is
// under way the tracker looks after every event and every recorded
// action, as the scenario's own autoplay does, so that no step is missed between two frames. With stop
// at 0 or more it stops as soon as that step is reached, and says so.
// Beyond limit events the world runs on unobserved (a frame's bound).
func (s *Session) runObserved(to int64, stop, limit int) (stopped bool) {
	r := s.scen
	if r == nil {
		s.hist.RunUntil(to)
		return false
	}
	reached := func() bool { return stop >= 0 && r.tr.Step() >= stop }
	for i := 0; i < limit && !r.tr.Done() && !reached(); i++ {
		if !s.hist.StepUntil(to) {
			break
		}
		r.tr.Observe(s.World())
	}
	if reached() {
		return true
	}
	s.hist.RunUntil(to)
	if !r.tr.Done() {
		// The run may hold an action at to itself.
		r.tr.Observe(s.World())
	}
	return reached()
}

// Retrack shows the run at virtual time to with the story followed anew
// from the start, event by event, as it was the first time; with step at
// 0 or more, at the event that reached that step, showing it.
func (s *Session) Retrack(to int64, step int) {
	r := s.scen
	if r == nil {
		// Free play has no story to follow: show the moment.
		s.hist.GoTo(to)
		return
	}
	s.hist.GoTo(0)
	r.tr = scenarios.NewTracker(r.s)
	r.tr.Observe(s.World())
	// As many events as it takes: this is the moment the reader asked for,
	// not a frame.
	s.runObserved(to, step, math.MaxInt)
	r.lastStep = r.tr.Step()
	r.shown = r.Latest()
	if step >= 0 {
		r.shown = min(step, r.tr.Step())
	}
}

// dueScript is the figure's next scripted action, when the app plays the
// figure at the head. Actions the world has already passed by (a seek
// past the head) are passed over, as Advance does.
func (s *Session) dueScript() (raftcore.Action, bool) {
	r := s.scen
	if r == nil || !r.autoplay || !s.hist.AtHead() {
		return raftcore.Action{}, false
	}
	for ; r.next < len(r.script); r.next++ {
		if x := r.script[r.next]; x.AtUs() >= s.hist.NowUs() {
			return x, true
		}
	}
	return raftcore.Action{}, false
}

// takeScripted runs the world to the figure's next scripted action and
// takes it, as Advance does, and reports whether it did; a script that
// fails stops playing.
func (s *Session) takeScripted() bool {
	x, ok := s.dueScript()
	if !ok {
		return false
	}
	r := s.scen
	r.next++
	s.hist.RunUntil(x.AtUs())
	if err := s.hist.Act(x); err != nil {
		r.autoplay = false
		return false
	}
	r.tr.Observe(s.World())
	return true
}
