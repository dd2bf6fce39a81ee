package app

import (
	"raftlab/raftcore"
	"raftlab/viz"
	"raftlab/viz/app/clock"
	"raftlab/viz/app/scene"
	"raftlab/viz/app/stage"
	"raftlab/viz/app/view"
	"raftlab/viz/frame"
	"raftlab/viz/words"
	"strings"
	"time"
)

// New builds an app from its options. Parameters are assumed checked by
// viz.ParseQuery or viz.ParseArgs; bad values are reported, not fatal.
func New(o Options) (*App, error) {
	a := &App{opts: o, params: o.Params, builder: scene.New(o.Measure)}
	a.builder.Still = o.Still
	if err := a.params.Check(); err != nil {
		return nil, err
	}
	a.input.rec = viz.NewRecognizer(viz.GestureConfig{})
	speed := a.params.Speed
	if !o.SpeedGiven {
		speed = DefaultSpeed
		if a.params.Embed && a.params.Scenario != "" {
			speed = FigureSpeed
		}
	}
	a.clock = clock.New(speed)
	// The stage has the canvas's size from the start (Resize below then
	// finds nothing changed): the layouts worked out while the run starts
	// are for the canvas shown, not searched for an empty canvas, where
	// no size of machine fits, and thrown away.
	a.host = viz.Pt(o.Width, o.Height)
	a.zoom = presentZoom(a.params.Present, o.Width, o.Height)
	a.stage = stage.New(o.Width/a.zoom, o.Height/a.zoom)
	a.view = view.New(frame.Theme(a.params.Theme))
	if err := a.start(nil); err != nil {
		return nil, err
	}
	if p := a.pace(); p > 0 && !o.SpeedGiven {
		// A figure told in seconds plays at its own pace.
		a.clock.SetSpeed(p)
	}
	if a.params.T > 0 {
		a.advance(int64(a.params.T * 1e6))
		a.afterWorldMoved()
	}
	if a.params.Link != "" {
		if err := a.openLink(a.params.Link); err != nil {
			o.Problems = append(o.Problems, words.LinkFailed(err.Error()))
		}
	}
	switch {
	case len(o.Problems) > 0:
		a.say(strings.Join(o.Problems, "\n"), frame.ToneBad, 0)
	case o.MissingFigure != "":
		a.view.SetMissingFigure(o.MissingFigure)
		a.openMenu(view.Menu{Kind: view.MenuScenarios})
	case a.scen() == nil && a.params.Link == "" && a.World().Now() == 0 && a.cfg().Protocol == raftcore.ProtocolRaft:
		// The first election takes a while at a watchable speed; say why.
		a.say(words.NoLeaderYet, frame.ToneText, 20*time.Second)
	}
	a.Resize(o.Width, o.Height)
	if a.params.Present {
		// Started presenting: the panel in front as the key would set it,
		// keeping any note about the parameters.
		a.params.Present = false
		banner := a.view.Banner()
		a.setPresent(true)
		if banner.Text != "" && banner.Text != words.NoLeaderYet {
			a.view.Say(banner.Text, banner.Tone, banner.Until)
		}
	}
	a.settle()
	return a, nil
}

// Update advances the app to real time now: it runs the world when
// playing, fires long presses and expires the banner. Hosts call it once a
// tick (60 times a second).
func (a *App) Update(now time.Duration) {
	a.stats.Updates++
	if a.opening != nil {
		a.openMore()
		a.changed()
	}
	step := a.clock.Tick(now, a.view.Help())
	if g := a.input.rec.Tick(now); g.Kind != viz.GestureNone {
		a.gesture(g)
	}
	if a.view.Banner().Until > 0 && now >= a.view.Banner().Until {
		a.view.CloseBanner()
		a.changed()
	}
	if step > 0 {
		a.advance(a.session.NowUs() + step)
		a.afterWorldMoved()
		a.restIfDue()
		a.changed()
	}
	a.settle()
}
