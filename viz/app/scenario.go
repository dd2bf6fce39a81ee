package app

import (
	"fmt"
	"strings"

	"raftlab/scenarios"
	"raftlab/viz"
	"raftlab/viz/app/session"
	"raftlab/viz/frame"
)

// panelKinds maps the scenario's panels onto the app's, most important
// first.
func panelKinds(r *session.Scenario) []viz.PanelKind {
	var out []viz.PanelKind
	add := func(k viz.PanelKind) {
		for _, x := range out {
			if x == k {
				return
			}
		}
		out = append(out, k)
	}
	for _, p := range r.Spec().UI.Panels {
		if k, ok := panelKind(p); ok {
			add(k)
		}
	}
	return out
}

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

// scenarioPanelOf writes the panel of scenario r: what to try, its knobs,
// the step, what just happened and its buttons.
func (a *App) scenarioPanelOf(r *session.Scenario, wr *writer) {
	s := r.Spec()
	wr.text(s.Prompt, sizeBody, frame.ToneText, false)
	if a.World().HasZones() && !a.figure() {
		wr.text(a.voice().ForHand(zoneHint, zoneHintTouch), sizeSmall, frame.ToneMuted, false)
	}
	wr.gap(4)
	for _, k := range s.Knobs {
		wr.row(k.Label, a.measure(k.Label, sizeSmall)+10, knobChips(r, k)...)
	}
	if n := r.Tracker().StepCount(); n > 1 {
		wr.text(fmt.Sprintf("Step %d of %d", r.Step()+1, n), sizeSmall, frame.ToneMuted, true)
	}
	if t := r.Tracker().TextOf(r.Step()); t != "" {
		wr.text(t, sizeBody, frame.ToneAccent, true)
	}
	if r.Tracker().Done() {
		wr.gap(4)
		wr.text("What just happened", sizeBody, frame.ToneText, true)
		wr.text(r.Tracker().Final(), sizeBody, frame.ToneText, false)
		if c := s.UI.Compare; c != nil && s.Setting(c.Knob) != c.Value {
			k, _ := s.Knob(c.Knob)
			wr.gap(2)
			wr.buttons(0, knobButton(c.Knob, c.Value, "See it with "+strings.ToLower(k.Label)+" "+c.Value))
		}
	}
	wr.gap(4)
	wr.buttons(0, playButton(r), restartButton, button("scenarios", "Other scenarios", "open scenarios"))
}

// knobChips are the choices of a knob, the one set now marked.
func knobChips(r *session.Scenario, k scenarios.Knob) []frame.Widget {
	cur := r.Spec().Setting(k.Name)
	ws := make([]frame.Widget, len(k.Values))
	for i, v := range k.Values {
		ws[i] = knobButton(k.Name, v, v)
		ws[i].Kind, ws[i].On = frame.WidgetChip, v == cur
	}
	return ws
}

// knobButton sets a knob to a value.
func knobButton(knob, value, label string) frame.Widget {
	return button("knob:"+knob+"="+value, label, "knob "+knob+" "+value)
}

// playButton has the app play the figure's script, or stop playing it.
func playButton(r *session.Scenario) frame.Widget {
	if r.Autoplay() {
		return button("scenario.autoplay", "Stop playing", "autoplay off")
	}
	return button("scenario.autoplay", "Play it for me", "autoplay on")
}

// restartButton starts the figure again.
var restartButton = button("scenario.restart", "Start again", "reset")

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
		a.note("Free play: " + a.describeSetup())
	}
	return nil
}
