package app

import (
	"fmt"
	"math"
	"raftlab/viz/app/clock"
	"raftlab/viz/frame"
	"raftlab/viz/words"
)

// A figure is a scenario embedded in a page (embed=1&scenario=ID), beside
// the paragraph it illustrates. It shows the machines, the one panel the
// paragraph is about (the scenario's UI.Focus), the story's words and the
// figure's own controls: play the next step, step back, start again, its
// knobs, and open the same moment in the full lab. The full app keeps
// everything else.
//
// A figure opens still, at the moment its paragraph starts from
// (UI.OpenMs). Playing runs the figure's script at a pace a reader can
// follow until the story's next step is reached, and there the figure
// rests: paused, so that NextWake lets the host stop drawing until the
// reader asks for more. Acting on a figure runs its world for a while
// (actRunUs), or up to the next step, and it rests again.
//
// The figure rests on every step, one at a time: it stops at the event
// that reached its next step, and when that event reached several steps
// at once (or several come true at one moment) it shows the first, and
// playing shows the next without running the clock.

// playStep plays a figure on to its story's next step, where it rests;
// past the last step, to the end of its script or for a while.
func (a *App) playStep() error {
	r := a.scen()
	if r == nil {
		return fmt.Errorf("play: no figure is shown")
	}
	if r.Shown() < r.Latest() {
		// The next step was reached with this one, or the story is over
		// and its closing line is next: show it, still.
		r.Show(r.Shown() + 1)
		a.clock.Rest()
		a.changed()
		return nil
	}
	now := a.session.NowUs()
	p := clock.Pace{Goal: -1, UntilUs: now + actRunUs}
	if !r.Tracker().Done() {
		p.Goal = r.Tracker().Step() + 1
		if cur := a.clock.Pace(); !a.clock.Paused() && cur.Goal >= p.Goal {
			// Asked again while it plays to the next step (a page's
			// "next; next"): play on to the step after that.
			p.Goal = min(cur.Goal+1, r.Tracker().StepCount()-1)
		}
	}
	if end := r.ScriptEndUs(); r.Autoplay() && end > now {
		p.UntilUs = end
	}
	if !a.session.AtHead() {
		// Replaying the recorded run: its steps come where they came.
		p.UntilUs = max(p.UntilUs, a.session.HeadUs())
	}
	a.clock.Play(p)
	return nil
}

// prevStep takes a figure back to where the step it shows began or, when
// it is there already, to the step before; it rests there. A step reached
// at the same moment as the one before is shown again without moving the
// clock. Otherwise the story is followed again from the start up to the
// event that reached the step, so that it stands exactly where it stood
// then.
func (a *App) prevStep() error {
	r := a.scen()
	if r == nil {
		return fmt.Errorf("step back: no figure is shown")
	}
	a.clock.Rest()
	now := a.session.NowUs()
	// A figure rests at the event that reached its step; one stopped by
	// the reader has run a frame or so past it.
	near := int64(300_000 * math.Max(a.clock.Speed(), 1))
	open := int64(r.Spec().UI.OpenMs * 1000)
	at := func(k int) int64 {
		ms, _ := r.Tracker().ReachedAtMs(k)
		return int64(ms * 1000)
	}
	k := r.Step()
	if r.ShownDone() && at(k) >= now-near {
		// At the closing line: its last step's words again.
		r.Show(k)
		a.changed()
		return nil
	}
	if k >= 1 && at(k) > open && at(k) >= now-near {
		// Already where step k began: go to the step before.
		k--
		if at(k) == at(k+1) {
			r.Show(k)
			a.changed()
			return nil
		}
	}
	if k >= 1 && at(k) > open {
		a.retrack(at(k), k)
		return nil
	}
	if now <= open+near {
		a.note(words.FigureStart)
		return nil
	}
	a.retrack(open, -1)
	return nil
}

// openInLab asks the host to open the full lab at this moment in a new
// tab.
func (a *App) openInLab() error {
	a.effects = append(a.effects, frame.Effect{Kind: frame.EffectVisit, Text: a.labLink()})
	a.note(words.LabOpens)
	return nil
}
