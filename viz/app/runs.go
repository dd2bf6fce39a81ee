package app

import (
	"fmt"
	"raftlab/raftcore"
	"raftlab/raftcore/timeline"
	"raftlab/viz"
	"raftlab/viz/app/session"
	"raftlab/viz/frame"
	"raftlab/viz/words"
)

// start builds the world for the current parameters (and scenario):
// a new session. set, if not nil, changes a free-play run's settings (its
// election timeout, its snapshots); otherwise the last run's are kept when
// the protocol is the same.
func (a *App) start(set func(*raftcore.Config)) error {
	cfg := a.baseConfig(set)
	var scen *session.Scenario
	if a.params.Scenario != "" {
		r, err := a.opts.Scenarios.Get(a.params.Scenario)
		if err != nil {
			return err
		}
		scen = r
		r.SetAutoplay(a.params.Autoplay)
		cfg = r.Config(a.params.Seed)
	}
	s, err := session.New(cfg, scen, readCheckBudget)
	if err != nil {
		return err
	}
	a.replaceSession(s)
	if scen != nil {
		// Behind tabs, the scenario's own words come first.
		a.view.SetTab(viz.PanelScenario)
		a.touchLayout()
		if a.figure() {
			a.openFigure()
		}
	}
	return nil
}

// replaceSession makes s the run shown: the view forgets what it had
// chosen of the old world, and the layout follows the new one.
func (a *App) replaceSession(s *session.Session) {
	a.session = s
	a.clock.Forget()
	a.view.ForgetWorld()
	a.stage.ForgetWorld()
	a.touchLayout()
	a.changed()
}

// baseConfig is a free-play world for the parameters.
func (a *App) baseConfig(set func(*raftcore.Config)) raftcore.Config {
	cfg := raftcore.DefaultConfig()
	cfg.Nodes = a.params.Nodes
	cfg.Seed = a.params.Seed
	cfg.Protocol = raftcore.Protocol(a.params.Protocol)
	cfg.PreVote = a.params.PreVote
	cfg.CheckQuorum = a.params.CheckQuorum
	if a.params.Spares() > 0 && cfg.Protocol == raftcore.ProtocolRaft {
		cfg.Members = a.params.Members
	}
	cfg.Names = session.MachineNames(cfg.Nodes)
	cfg.TraceLimit = session.TraceLimit
	if a.session != nil && a.cfg().Protocol == cfg.Protocol {
		cfg.ElectionTicks = a.cfg().ElectionTicks
		cfg.SnapshotCount, cfg.CatchUpEntries = a.cfg().SnapshotCount, a.cfg().CatchUpEntries
	}
	if set != nil {
		set(&cfg)
	}
	return cfg
}

// restart starts a new world with the current settings (a scenario starts
// again with its knobs as they are); set, if not nil, changes a free
// play's settings.
func (a *App) restart(set func(*raftcore.Config)) error {
	if a.scen() != nil {
		if err := a.restartScenario(a.scen().Again()); err != nil {
			return err
		}
		a.note(words.StartedAgain(a.scen().Spec().Title))
		return nil
	}
	if err := a.start(set); err != nil {
		return err
	}
	a.note(words.NewRun(a.cfg()))
	return nil
}

// restartScenario plays scenario r (with its settings) afresh.
func (a *App) restartScenario(r *session.Scenario) error {
	s, err := session.New(r.Config(a.params.Seed), r, readCheckBudget)
	if err != nil {
		return err
	}
	a.replaceSession(s)
	if a.figure() {
		a.openFigure()
	}
	return nil
}

// startScenario starts scenario id ("" for free play).
func (a *App) startScenario(id string) error {
	old := a.params.Scenario
	oldPace := a.pace()
	a.params.Scenario = id
	if err := a.start(nil); err != nil {
		a.params.Scenario = old
		_ = a.start(nil)
		return err
	}
	a.clock.SetPaused(false)
	// A figure told in seconds plays at its own pace; leaving it for one
	// told in milliseconds goes back to the lab's, unless the reader moved
	// the slider meanwhile.
	switch p := a.pace(); {
	case p > 0:
		a.clock.SetSpeed(p)
	case oldPace > 0 && a.clock.Speed() == oldPace:
		a.clock.SetSpeed(DefaultSpeed)
	}
	if id == "" {
		a.note(words.FreePlay(a.cfg()))
	}
	return nil
}

// setKnob restarts the scenario with a knob set to a value.
func (a *App) setKnob(name, value string) error {
	if a.scen() == nil {
		return fmt.Errorf("knob %s: no scenario is playing", name)
	}
	s, err := a.scen().With(name, value)
	if err != nil {
		return err
	}
	s.SetAutoplay(a.scen().Autoplay())
	return a.restartScenario(s)
}

// freePlay starts a free-play run with the settings changed by set.
func (a *App) freePlay(set func(p *viz.Params)) error {
	set(&a.params)
	a.params.Scenario = ""
	return a.restart(nil)
}

// adopt makes s, a run opened from a link or a file, the run shown,
// paused at its position.
func (a *App) adopt(s *session.Session) {
	cfg := s.Config()
	a.params.Nodes, a.params.Protocol, a.params.Seed = cfg.Nodes, string(cfg.Protocol), cfg.Seed
	a.params.PreVote, a.params.CheckQuorum = cfg.PreVote, cfg.CheckQuorum
	a.params.Members = cfg.Members
	a.params.Scenario = ""
	if r := s.Scenario(); r != nil {
		a.params.Scenario = r.ID()
	}
	a.replaceSession(s)
	a.clock.SetPaused(true)
	if names := cfg.Bugs.Names(); len(names) > 0 {
		// A counterexample from `raftsim explore` runs a broken variant:
		// without a word the reader would take the broken rule for Raft's.
		a.say(words.Broken(names), frame.ToneBad, 0)
	}
	if a.World().ViolationCount("") > 0 {
		// A run opened on a broken rule shows the rule: the safety panel
		// in front where panels take turns, its broken rules first.
		a.view.SetTab(viz.PanelSafety)
	}
}

// openLink opens the run a share link holds, at its moment, paused.
// A link's run is replayed before it is shown. A short one opens at once;
// a long one (an hour of nine machines) opens a piece each tick, the note
// saying how far it has got, and the reader may stop it by doing anything.
func (a *App) openLink(payload string) error {
	o, err := session.StartLink(payload, a.opts.Scenarios, readCheckBudget)
	if err != nil {
		return err
	}
	if o.Step(openAtOnceMoments) {
		return a.opened(o)
	}
	a.opening = o
	a.clock.SetPaused(true)
	a.say(words.Opening(o.Progress()), frame.ToneText, 0)
	return nil
}

// openAtOnceMoments is how much of a link's run is replayed before the
// app first draws: a few tens of milliseconds, natively.
const openAtOnceMoments = 4 * timeline.OpenStepMoments

// openMore replays another piece of the link being opened, and adopts its
// run once it is all there.
func (a *App) openMore() {
	o := a.opening
	if !o.Step(timeline.OpenStepMoments) {
		a.say(words.Opening(o.Progress()), frame.ToneText, 0)
		return
	}
	a.opening = nil
	a.view.CloseBanner()
	if err := a.opened(o); err != nil {
		a.say(words.LinkFailed(err.Error()), frame.ToneBad, 0)
	}
}

// stopOpening stops opening a link: the reader did something else.
func (a *App) stopOpening() {
	if a.opening != nil {
		a.opening = nil
		a.note(words.OpeningStopped)
	}
}

// opened adopts the run an opening replayed.
func (a *App) opened(o *session.Opening) error {
	s, err := o.Session()
	if err != nil {
		return err
	}
	a.adopt(s)
	return nil
}

func (a *App) openRun(data []byte) error {
	s, err := session.OpenRun(data, readCheckBudget)
	if err != nil {
		return err
	}
	a.adopt(s)
	if a.cfg().Bugs != 0 {
		return nil // adopt's warning stays
	}
	a.note(words.Opened(a.World().Now(), len(s.Timeline().Actions())))
	return nil
}

// setAutoplay has the app play the scenario's script from the start, or
// stop playing it.
func (a *App) setAutoplay(on bool) error {
	if a.scen() == nil {
		return fmt.Errorf("autoplay: no scenario is playing")
	}
	if !on {
		a.scen().SetAutoplay(false)
		return nil
	}
	r := a.scen().Again()
	r.SetAutoplay(true)
	if err := a.restartScenario(r); err != nil {
		return err
	}
	a.clock.SetPaused(false)
	return nil
}

// returnToOtherRun brings back the run left by acting in the past.
func (a *App) returnToOtherRun() error {
	if !a.session.ReturnToOtherRun() {
		return fmt.Errorf("there is no other run to go back to")
	}
	a.clock.SetPaused(true)
	a.afterWorldMoved()
	a.note(words.BackOnRun)
	return nil
}

// changeSetting turns a setting of raft on or off from the moment shown,
// as a recorded action: the world is kept, and in the past the run forks
// there, so one state can be played out under both settings. Starting
// again afterwards starts with the setting as it now is.
func (a *App) changeSetting(setting string, on bool) error {
	value := "off"
	if on {
		value = "on"
	}
	if err := a.act(raftcore.Action{Do: raftcore.DoSet, Setting: setting, Value: value}); err != nil {
		return err
	}
	// The settings of this run as they now are (a fork keeps those of its
	// moment), for starting again.
	now := a.World().Settings()
	a.params.PreVote, a.params.CheckQuorum = now.PreVote, now.CheckQuorum
	a.note(words.SettingChanged(setting, on, a.World().Now()))
	return nil
}
