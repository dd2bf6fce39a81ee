package app

import (
	"fmt"
	"strings"

	"raftlab/raftcore"
	"raftlab/scenarios"
	"raftlab/viz"
	"raftlab/viz/frame"
)

// Catalog is the list of scenarios the app offers.
type Catalog struct {
	list []*scenarios.Scenario
}

// NewCatalog offers the given scenarios.
func NewCatalog(list []*scenarios.Scenario) Catalog { return Catalog{list: list} }

// BuiltinScenarios is the catalog of the book's figures.
func BuiltinScenarios() Catalog { return NewCatalog(scenarios.All()) }

// Check says whether id names a scenario (for viz.ParseQuery).
func (c Catalog) Check(id string) error {
	for _, s := range c.list {
		if s.ID == id {
			return nil
		}
	}
	if len(c.list) == 0 {
		return fmt.Errorf("no scenarios are built in")
	}
	ids := make([]string, len(c.list))
	for i, s := range c.list {
		ids[i] = s.ID
	}
	return fmt.Errorf("no scenario is called %q; known: %s", id, strings.Join(ids, ", "))
}

func (c Catalog) get(id string) (*scenarioRun, error) {
	for _, s := range c.list {
		if s.ID == id {
			return newScenarioRun(s), nil
		}
	}
	return nil, c.Check(id)
}

// scenarioRun is a scenario being played: the figure (with its knob
// settings), the tracker following the reader's progress, and whether the
// app plays the figure's script itself.
type scenarioRun struct {
	id       string
	s        *scenarios.Scenario
	tr       *scenarios.Tracker
	title    string
	askKey   string
	script   []raftcore.Action
	autoplay bool
	// next is the script's next action to apply.
	next     int
	lastStep int
	// shown is the step whose words are on screen, or StepCount for the
	// closing line once the story is over. The full app shows the latest
	// step reached; a figure shows one at a time, so that it can rest on
	// each, even when several were reached at one moment, and on the last
	// step before its closing line.
	shown int
}

func newScenarioRun(s *scenarios.Scenario) *scenarioRun {
	return &scenarioRun{id: s.ID, s: s, tr: scenarios.NewTracker(s), title: s.Title, askKey: s.UI.Key, script: s.Autoplay()}
}

// config is the scenario's world with the app's trace bound.
func (r *scenarioRun) config(seed int64) raftcore.Config {
	cfg := r.s.Config(seed)
	cfg.TraceLimit = TraceLimit
	if len(cfg.Names) == 0 {
		cfg.Names = nodeNames(cfg.Nodes)
	}
	return cfg
}

// begin starts following a fresh world.
func (r *scenarioRun) begin(a *App) error {
	r.tr = scenarios.NewTracker(r.s)
	r.tr.Observe(a.World())
	r.lastStep = r.tr.Step()
	r.shown = r.latest()
	r.next = 0
	return nil
}

// step is the step shown (see shown); never one not reached.
func (r *scenarioRun) step() int { return min(r.shown, r.tr.Step()) }

// latest is the furthest the words can be: the latest step reached, or
// the closing line once the story is over.
func (r *scenarioRun) latest() int {
	if r.tr.Done() {
		return r.tr.StepCount()
	}
	return r.tr.Step()
}

// shownDone reports whether the closing line is shown: the story is over
// on screen.
func (r *scenarioRun) shownDone() bool { return r.tr.Done() && r.shown >= r.tr.StepCount() }

// observe feeds the tracker; a new step is news worth a redraw.
func (r *scenarioRun) observe(a *App) {
	if r.tr == nil {
		r.tr = scenarios.NewTracker(r.s)
	}
	r.tr.Observe(a.World())
	if st := r.tr.Step(); st != r.lastStep {
		r.lastStep = st
		a.changed()
	}
	if !a.figure() || (!a.clock.Paused() && a.clock.Pace().Goal < 0) {
		// Not paced step by step: the words follow the story.
		r.shown = r.latest()
	}
}

// highlighted reports whether the story is about machine id.
func (r *scenarioRun) highlighted(id raftcore.NodeID) bool {
	for _, h := range r.s.UI.Highlight {
		if h == id {
			return true
		}
	}
	return false
}

// panelKinds maps the scenario's panels onto the app's, most important
// first.
func (r *scenarioRun) panelKinds() []viz.PanelKind {
	var out []viz.PanelKind
	add := func(k viz.PanelKind) {
		for _, x := range out {
			if x == k {
				return
			}
		}
		out = append(out, k)
	}
	for _, p := range r.s.UI.Panels {
		if k, ok := panelKind(p); ok {
			add(k)
		}
	}
	return out
}

// advance moves the world to time to, applying the script's actions on
// the way when the app plays the figure. Script actions are applied only
// at the head: behind it, the recorded run already holds them.
//
// A figure playing to its next step stops there, at the event that
// reached it, even within a frame: it rests on the world its step's words
// were written for.
func (a *App) advance(to int64) {
	r := a.scen
	stop := a.stopAt()
	if r != nil && r.autoplay && a.hist.AtHead() {
		for ; r.next < len(r.script) && r.script[r.next].AtUs() <= to; r.next++ {
			x := r.script[r.next]
			if x.AtUs() < a.hist.NowUs() {
				continue
			}
			if a.runObserved(x.AtUs(), stop, maxObserved) {
				return
			}
			if err := a.hist.Act(x); err != nil {
				a.say("The figure's script failed: "+err.Error(), frame.ToneBad, 0)
				r.autoplay = false
				break
			}
			r.tr.Observe(a.World())
		}
	}
	a.runObserved(to, stop, maxObserved)
}

// stopAt is the step a playing figure stops at (-1: none).
func (a *App) stopAt() int {
	if !a.figure() || a.clock.Paused() {
		return -1
	}
	return a.clock.Pace().Goal
}

// maxObserved bounds the events handled one by one in a frame; beyond it
// the world runs on unobserved (only at high speed on a busy cluster).
const maxObserved = 5000

// runObserved moves the world to time to. While a scenario's story is
// under way the tracker looks after every event, as the scenario's own
// autoplay does, so that no step is missed between two frames. With stop
// at 0 or more it stops as soon as that step is reached, and says so.
// Beyond limit events the world runs on unobserved (a frame's bound).
func (a *App) runObserved(to int64, stop, limit int) (stopped bool) {
	r := a.scen
	if r == nil || r.tr == nil {
		a.hist.RunUntil(to)
		return false
	}
	reached := func() bool { return stop >= 0 && r.tr.Step() >= stop }
	for i := 0; i < limit && !r.tr.Done() && !reached(); i++ {
		next, ok := a.World().NextEventAt()
		if !ok || next > to || !a.hist.tl.StepForward() {
			break
		}
		r.tr.Observe(a.World())
	}
	if reached() {
		return true
	}
	a.hist.RunUntil(to)
	if !r.tr.Done() {
		// The run may hold an action at to itself.
		r.tr.Observe(a.World())
	}
	return reached()
}

// takeOver stops the app playing the figure: the reader acted.
func (a *App) takeOver() {
	if a.scen != nil && a.scen.autoplay {
		a.scen.autoplay = false
		a.note("You took over: the figure no longer plays itself.")
	}
}

// setKnob restarts the scenario with a knob set to a value.
func (a *App) setKnob(name, value string) error {
	if a.scen == nil {
		return fmt.Errorf("knob %s: no scenario is playing", name)
	}
	s, err := a.scen.s.With(name, value)
	if err != nil {
		return err
	}
	auto := a.scen.autoplay
	a.scen = newScenarioRun(s)
	a.scen.autoplay = auto
	return a.restartScenario()
}

// restartScenario starts the current scenario (and its settings) again.
func (a *App) restartScenario() error {
	r := a.scen
	cfg := r.config(a.params.Seed)
	h, err := newHistory(cfg)
	if err != nil {
		return err
	}
	a.cfg, a.hist = cfg, h
	a.resetView()
	if err := r.begin(a); err != nil {
		return err
	}
	if a.figure() {
		a.openFigure()
	}
	return nil
}

func (r *scenarioRun) panel(a *App, wr *writer) {
	s := r.s
	wr.text(s.Prompt, sizeBody, frame.ToneText, false)
	if a.World().HasZones() && !a.figure() {
		wr.text(a.forHand(zoneHint, zoneHintTouch), sizeSmall, frame.ToneMuted, false)
	}
	wr.gap(4)
	for _, k := range s.Knobs {
		wr.row(k.Label, a.measure(k.Label, sizeSmall)+10, r.knobChips(k)...)
	}
	if n := r.tr.StepCount(); n > 1 {
		wr.text(fmt.Sprintf("Step %d of %d", r.step()+1, n), sizeSmall, frame.ToneMuted, true)
	}
	if t := r.tr.TextOf(r.step()); t != "" {
		wr.text(t, sizeBody, frame.ToneAccent, true)
	}
	if r.tr.Done() {
		wr.gap(4)
		wr.text("What just happened", sizeBody, frame.ToneText, true)
		wr.text(r.tr.Final(), sizeBody, frame.ToneText, false)
		if c := s.UI.Compare; c != nil && s.Setting(c.Knob) != c.Value {
			k, _ := s.Knob(c.Knob)
			wr.gap(2)
			wr.buttons(0, knobButton(c.Knob, c.Value, "See it with "+strings.ToLower(k.Label)+" "+c.Value))
		}
	}
	wr.gap(4)
	wr.buttons(0, r.playButton(), restartButton, button("scenarios", "Other scenarios", "open scenarios"))
}

// knobChips are the choices of a knob, the one set now marked.
func (r *scenarioRun) knobChips(k scenarios.Knob) []frame.Widget {
	cur := r.s.Setting(k.Name)
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
func (r *scenarioRun) playButton() frame.Widget {
	if r.autoplay {
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
	if err := a.start(); err != nil {
		a.params.Scenario = old
		_ = a.start()
		return err
	}
	a.clock.SetPaused(false)
	if id == "" {
		a.note("Free play: " + a.describeSetup())
	}
	return nil
}
