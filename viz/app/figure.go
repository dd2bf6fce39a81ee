package app

import (
	"fmt"
	"math"

	"raftlab/viz/app/clock"
	"raftlab/viz/frame"
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

// FigureSpeed is a figure's speed when the page chose none: real time,
// so that a step takes a few seconds and can be followed by eye.
const FigureSpeed = 1.0

// actRunUs is how long (virtual time) a figure runs after the reader acts
// on it, when the story's next step does not come first.
const actRunUs = 6_000_000

// figure reports whether the app shows an embedded figure.
func (a *App) figure() bool { return a.params.Embed && a.scen() != nil }

// openFigure shows a figure still, at the moment its paragraph starts
// from: the script is played up to the scenario's UI.OpenMs.
func (a *App) openFigure() {
	r := a.scen()
	r.SetAutoplay(true)
	a.clock.Rest()
	if at := int64(r.Spec().UI.OpenMs * 1000); at > a.session.NowUs() {
		a.advance(at)
		a.afterWorldMoved()
	}
	r.Show(r.Latest())
}

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

// keepMoving runs a figure on for a while after the reader acted on it.
func (a *App) keepMoving() {
	if !a.figure() {
		return
	}
	if a.clock.Paused() {
		// The reader moves the story on from where the world stands.
		r := a.scen()
		r.Show(r.Latest())
		p := clock.Resting
		if !r.Tracker().Done() {
			p.Goal = r.Tracker().Step() + 1
		}
		a.clock.Play(p)
	}
	a.clock.RunUntil(a.session.NowUs() + actRunUs)
}

// restIfDue pauses a playing figure once its pace says so.
func (a *App) restIfDue() {
	if !a.figure() {
		return
	}
	p, r := a.clock.Pace(), a.scen()
	if a.clock.RestIfDue(r.Tracker().Step(), a.session.NowUs()) {
		if p.Goal >= 0 && r.Tracker().Step() >= p.Goal {
			// Rest on the goal, even when later steps came with it.
			r.Show(p.Goal)
		}
		a.changed()
	}
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
		a.note("This is where the figure starts.")
		return nil
	}
	a.retrack(open, -1)
	return nil
}

// retrack shows the run at virtual time to with the story followed anew
// from the start, event by event, as it was the first time; with step at
// 0 or more, at the event that reached that step, showing it.
func (a *App) retrack(to int64, step int) {
	a.session.Retrack(to, step)
	a.clock.Forget()
	a.afterWorldMoved()
}

// labLink is the address of the full lab (the page without embed) at this
// moment of this run.
func (a *App) labLink() string {
	p := a.params
	p.Embed = false
	return a.linkFor(p)
}

// openInLab asks the host to open the full lab at this moment in a new
// tab.
func (a *App) openInLab() error {
	a.effects = append(a.effects, frame.Effect{Kind: frame.EffectVisit, Text: a.labLink()})
	a.note("The full lab opens in a new tab, at this moment of this run.")
	return nil
}
