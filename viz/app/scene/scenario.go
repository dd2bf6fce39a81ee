package scene

import (
	"raftlab/scenarios"
	"raftlab/viz"
	"raftlab/viz/app/session"
	"raftlab/viz/frame"
	"raftlab/viz/words"
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
		if k, ok := PanelFor(p); ok {
			add(k)
		}
	}
	return out
}

// scenarioPanelOf writes the panel of scenario r: what to try, its knobs,
// the step, what just happened and its buttons.
func (b *Builder) scenarioPanelOf(r *session.Scenario, wr *writer) {
	s := r.Spec()
	wr.text(s.Prompt, SizeBody, frame.ToneText, false)
	if b.World().HasZones() && !b.Figure() {
		wr.text(b.Voice().ZoneHint(), SizeSmall, frame.ToneMuted, false)
	}
	wr.gap(4)
	for _, k := range s.Knobs {
		wr.row(k.Label, b.Measure(k.Label, SizeSmall)+10, knobChips(r, k)...)
	}
	if n := r.Tracker().StepCount(); n > 1 {
		wr.text(words.StepOf(r.Step()+1, n), SizeSmall, frame.ToneMuted, true)
	}
	if t := r.Tracker().TextOf(r.Step()); t != "" {
		wr.text(t, SizeBody, frame.ToneAccent, true)
	}
	if r.Tracker().Done() {
		wr.gap(4)
		wr.text(words.WhatHappened, SizeBody, frame.ToneText, true)
		wr.text(r.Tracker().Final(), SizeBody, frame.ToneText, false)
		if c := s.UI.Compare; c != nil && s.Setting(c.Knob) != c.Value {
			k, _ := s.Knob(c.Knob)
			wr.gap(2)
			wr.buttons(0, knobButton(c.Knob, c.Value, words.SeeItWith(k.Label, k.Say(c.Value))))
		}
	}
	wr.gap(4)
	wr.buttons(0, playButton(r), restartButton, button("scenarios", words.OtherScenarios, "open scenarios"))
}

// knobChips are the choices of a knob, the one set now marked.
func knobChips(r *session.Scenario, k scenarios.Knob) []frame.Widget {
	cur := r.Spec().Setting(k.Name)
	ws := make([]frame.Widget, len(k.Values))
	for i, v := range k.Values {
		ws[i] = knobButton(k.Name, v, k.Say(v))
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
		return button("scenario.autoplay", words.Autoplay(true), "autoplay off")
	}
	return button("scenario.autoplay", words.Autoplay(false), "autoplay on")
}

// restartButton starts the figure again.
var restartButton = button("scenario.restart", words.StartAgain, "reset")
