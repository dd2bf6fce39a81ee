package app

import (
	"raftlab/raftcore"
	"raftlab/viz"
	"raftlab/viz/app/clock"
	"raftlab/viz/app/view"
	"raftlab/viz/frame"
	"raftlab/viz/words"
)

// settle brings what follows from the parts up to date after anything
// changed them: the layout (a figure's words may have grown, a partition
// may have healed), and the open menu, which closes when what it was
// about is gone (a message that arrived). Building a frame then only
// reads the parts.
func (a *App) settle() {
	a.touchLayout()
	if m := a.view.Menu(); m.Open() && a.builder.Menu(a.parts(), m) == nil {
		a.view.CloseMenu()
		a.changed()
	}
}

// touchLayout lays the stage out again when what it depends on changed:
// the canvas, the machines and their words, the toolbar, the panel in
// front, an embedded figure's words, and the zones the cluster is drawn
// in (the world's failure domains, or the sides of a clean partition).
func (a *App) touchLayout() {
	if a.session != nil && a.stage.Fit(a.builder.StageInput(a.parts())) {
		a.changed()
	}
}

// afterWorldMoved lets the scenario observe the world and updates what
// depends on the world's shape (partition zones).
func (a *App) afterWorldMoved() {
	if a.session.Observed() {
		a.changed() // a new step is news worth a redraw
	}
	if r := a.scen(); r != nil && (!a.figure() || (!a.clock.Paused() && a.clock.Pace().Goal < 0)) {
		// Not paced step by step: the words follow the story.
		r.Show(r.Latest())
	}
	if a.view.Banner().Text == words.NoLeaderYet && a.leader() >= 0 {
		a.view.CloseBanner()
	}
	a.touchLayout()
}

// advance moves the world to virtual time to, stopping a figure that
// plays to its next step there (session.Advance).
func (a *App) advance(to int64) {
	if _, err := a.session.Advance(to, a.stopAt()); err != nil {
		a.say(words.Capital(err.Error()), frame.ToneBad, 0)
	}
}

// act applies one of the reader's actions through the history (recorded,
// so replayable).
func (a *App) act(x raftcore.Action) error {
	a.takeOver()
	if _, _, err := a.session.Act(x); err != nil {
		return err
	}
	a.afterWorldMoved()
	a.keepMoving()
	a.changed()
	return nil
}

// actAll applies several actions as one reader gesture.
func (a *App) actAll(xs []raftcore.Action) error {
	for _, x := range xs {
		if err := a.act(x); err != nil {
			return err
		}
	}
	return nil
}

func (a *App) openMenu(m view.Menu) {
	a.view.OpenMenu(m)
	a.changed()
}

// selectNode selects machine i (-1: none).
func (a *App) selectNode(i int) {
	if i < -1 || i >= a.World().Size() {
		return
	}
	a.view.Select(i, !a.lay().Tabbed)
	a.changed()
}

func (a *App) setTab(k viz.PanelKind) {
	if a.view.SetTab(k) {
		a.touchLayout()
		a.changed()
	}
}

// takeOver stops the app playing the figure: the reader acted.
func (a *App) takeOver() {
	if a.scen() != nil && a.scen().Autoplay() {
		a.scen().SetAutoplay(false)
		a.note(words.TookOver)
	}
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

// goLive leaves the recorded past for the live end of the run, and lets it
// go on from there.
func (a *App) goLive() {
	a.session.GoTo(a.session.HeadUs())
	a.clock.Forget()
	a.clock.SetPaused(false)
	a.afterWorldMoved()
}

// retrack shows the run at virtual time to with the story followed anew
// from the start, event by event, as it was the first time; with step at
// 0 or more, at the event that reached that step, showing it.
func (a *App) retrack(to int64, step int) {
	a.session.Retrack(to, step)
	a.clock.Forget()
	a.afterWorldMoved()
}
