package app

import (
	"fmt"

	"raftlab/viz/app/session"
	"raftlab/viz/words"
)

// takeOver stops the app playing the figure: the reader acted.
func (a *App) takeOver() {
	if a.scen() != nil && a.scen().Autoplay() {
		a.scen().SetAutoplay(false)
		a.note("You took over: the figure no longer plays itself.")
	}
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
	a.params.Scenario = id
	if err := a.start(0); err != nil {
		a.params.Scenario = old
		_ = a.start(0)
		return err
	}
	a.clock.SetPaused(false)
	if id == "" {
		a.note("Free play: " + words.Setup(a.cfg()))
	}
	return nil
}
