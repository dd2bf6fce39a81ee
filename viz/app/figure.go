package app

import (
	"fmt"
	"math"
	"strings"

	"raftlab/scenarios"
	"raftlab/viz"
	"raftlab/viz/app/clock"
	"raftlab/viz/app/session"
	"raftlab/viz/app/stage"
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

// Widget ids of a figure's controls.
const (
	idFigurePlay    = "figure.play"
	idFigureBack    = "figure.back"
	idFigureRestart = "figure.restart"
	idFigureLab     = "figure.lab"
)

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

// panelKind is the app's panel for a scenario's panel; false for the
// logs, which are on the stage.
func panelKind(p scenarios.Panel) (viz.PanelKind, bool) {
	switch p {
	case scenarios.PanelQuestion:
		return viz.PanelQuestion, true
	case scenarios.PanelContract, scenarios.PanelChecker:
		return viz.PanelSafety, true
	case scenarios.PanelClient:
		return viz.PanelClient, true
	case scenarios.PanelRoles, scenarios.PanelElections, scenarios.PanelClocks:
		return viz.PanelNode, true
	}
	return 0, false
}

// figureGap separates a figure's words from its panel.
const figureGap = 4.0

// figureGeomKey is what a figure's geometry depends on: the canvas, the
// figure (its story and knobs) and the words shown now (a note may be
// longer than any step), and whether the comparison button is up.
type figureGeomKey struct {
	w, h    float64
	run     *session.Scenario
	text    string
	compare bool
}

// figureGeom lays a figure out: on a wide canvas its words and panel in a
// column on the right, else under the machines. Sizing the words wraps
// every step's text, so the result is kept until what it depends on
// changes rather than worked out on every frame of a playing figure.
func (a *App) figureGeom() stage.FigureGeom {
	r := a.scen()
	c := r.Spec().UI.Compare
	key := figureGeomKey{w: a.stage.W(), h: a.stage.H(), run: r, text: a.figureText(),
		compare: c != nil && r.ShownDone() && r.Spec().Setting(c.Knob) != c.Value}
	return a.stage.Figure(key, a.layFigure)
}

// layFigure is figureGeom worked out afresh.
func (a *App) layFigure() stage.FigureGeom {
	_, hasPanel := panelKind(a.scen().Spec().UI.Focus)
	cw := a.captionColumn()
	if cw > 0 {
		words := math.Min(a.figureWordsHeight(cw), a.stage.H())
		g := stage.FigureGeom{Stage: viz.XYWH(0, 0, a.stage.W()-cw, a.stage.H()), Words: viz.XYWH(a.stage.W()-cw, 0, cw, a.stage.H())}
		if hasPanel {
			g.Words.H = words
			g.Panel = viz.XYWH(a.stage.W()-cw, words+figureGap, cw, math.Max(a.stage.H()-words-figureGap, 0))
		}
		return g
	}
	words := a.figureWordsHeight(a.stage.W())
	stageMin := math.Min(a.stage.H(), math.Max(a.stage.H()*0.52, 270))
	panelH := 0.0
	if hasPanel {
		panelMin := panelHeader + 3*lineHeight(sizeBody) + panelPad
		panelH = math.Max(a.stage.H()-stageMin-words-figureGap, panelMin)
	}
	stageH := math.Max(a.stage.H()-words-panelH-figureGap, math.Min(a.stage.H(), 200))
	g := stage.FigureGeom{Stage: viz.XYWH(0, 0, a.stage.W(), stageH), Words: viz.XYWH(0, stageH, a.stage.W(), words)}
	if hasPanel {
		g.Panel = viz.XYWH(0, g.Words.Bottom()+figureGap, a.stage.W(), math.Max(a.stage.H()-g.Words.Bottom()-figureGap, 0))
	}
	return g
}

// figureWordsHeight is the height of a figure's words at width w: room
// for the longest thing its story says, so that the figure does not jump
// from step to step.
func (a *App) figureWordsHeight(w float64) float64 {
	r := a.scen()
	wr := a.figureWords(w)
	inner := w - 2*panelPad
	lines := len(a.wrap(r.Spec().Prompt, sizeBody, inner))
	for _, st := range r.Spec().Steps {
		lines = max(lines, len(a.wrap(st.Text, sizeBody, inner)))
	}
	shown := len(a.wrap(a.figureText(), sizeBody, inner))
	return wr.y + panelPad/2 + float64(max(lines-shown, 0))*lineHeight(sizeBody)
}

// figureText is what a figure says now: a note on what the reader just
// did, else where its story stands.
func (a *App) figureText() string {
	r := a.scen()
	switch {
	case a.view.Banner().Text != "":
		return a.view.Banner().Text
	case r.ShownDone():
		return r.Tracker().Final()
	case r.Step() > 0:
		return r.Tracker().TextOf(r.Step())
	}
	return r.Spec().Prompt
}

// figureWords lays a figure's words out at the origin, w wide: its title,
// what its story says now, and its knobs.
func (a *App) figureWords(w float64) *writer {
	r := a.scen()
	wr := a.newWriter(panelPad, panelPad, w-2*panelPad)
	wr.text(r.Spec().Title, sizeTitle, frame.ToneText, true)
	wr.gap(2)
	tone := frame.ToneText
	if a.view.Banner().Text != "" {
		tone = frame.ToneAccent
	}
	wr.text(a.figureText(), sizeBody, tone, false)
	if c := r.Spec().UI.Compare; c != nil && r.ShownDone() && r.Spec().Setting(c.Knob) != c.Value {
		k, _ := r.Spec().Knob(c.Knob)
		wr.gap(4)
		wr.row("", 0, knobButton(c.Knob, c.Value, "See it with "+strings.ToLower(k.Label)+" "+c.Value))
	}
	for _, k := range r.Spec().Knobs {
		wr.gap(2)
		wr.row(k.Label, a.measure(k.Label, sizeSmall)+10, knobChips(r, k)...)
	}
	return wr
}

// buildFigure fills the frame's figure parts: the controls in the bars
// above and below the machines, the words, and the panel.
func (a *App) buildFigure() {
	f := &a.frame
	g := a.figureGeom()
	wr := a.figureWords(g.Words.W)
	f.Caption = a.menuAt(g.Words, wr)
	a.buildFigureBars()
	k, ok := panelKind(a.scen().Spec().UI.Focus)
	if !ok || g.Panel.H <= 0 {
		return
	}
	content := a.newWriter(0, 0, g.Panel.W-2*panelPad)
	a.panelContent(k, content)
	if k == viz.PanelSafety && content.height() > g.Panel.H-panelHeader-panelPad/2 {
		// Too long for the room a figure has: the contract's short form
		// (the only panel that has one).
		content = a.newWriter(0, 0, g.Panel.W-2*panelPad)
		content.compact = true
		a.panelContent(k, content)
	}
	f.Panels = append(f.Panels, a.placePanel(k, g.Panel, content))
	a.panelRects = append(a.panelRects, panelRect{k, g.Panel})
}

// menuAt is content laid out at the origin put in box r, as a popover.
func (a *App) menuAt(r viz.Rect, wr *writer) *frame.MenuView {
	mv := &frame.MenuView{Rect: r}
	for _, l := range wr.lines {
		l.X += r.X
		l.Y += r.Y
		mv.Lines = append(mv.Lines, l)
	}
	for _, row := range wr.rows {
		out := frame.MenuRow{Label: row.Label}
		out.Label.X += r.X
		out.Label.Y += r.Y
		for _, w := range row.Widgets {
			w.Rect.X += r.X
			w.Rect.Y += r.Y
			out.Widgets = append(out.Widgets, w)
		}
		mv.Rows = append(mv.Rows, out)
	}
	return mv
}

// buildFigureBars puts a figure's controls where the full app has its
// toolbar (play, step back, start again) and its timeline (where the
// story stands, and the way to the full lab).
func (a *App) buildFigureBars() {
	f := &a.frame
	r := a.scen()
	f.Toolbar = f.Toolbar[:0]
	f.Speed = frame.SliderView{}
	f.Timeline = frame.TimelineView{}
	top, bottom := a.stage.Bars()[0], a.stage.Bars()[1]
	play := button(idFigurePlay, "Play next step", "next")
	switch {
	case !a.clock.Paused():
		play = button(idFigurePlay, "Pause", "pause")
	case r.ShownDone():
		play.Label = "Play on"
	case r.Step() == 0:
		play.Label = "Play"
	}
	back := button(idFigureBack, "Step back", "back")
	again := button(idFigureRestart, "Start again", "reset")
	f.Toolbar = a.barRow(f.Toolbar, top, false, [][]string{{play.Label, "Step back", "Start again"}, {shortPlay(play.Label), "Back", "Restart"}}, play, back, again)
	lab := button(idFigureLab, "Open in the full lab", "lab")
	f.Toolbar = a.barRow(f.Toolbar, bottom, true, [][]string{{"Open in the full lab"}, {"Full lab"}}, lab)
	status := fmt.Sprintf("Step %d of %d", r.Step()+1, r.Tracker().StepCount())
	switch {
	case !a.clock.Paused():
		status += " · playing"
	case r.ShownDone():
		status += " · the end"
	}
	f.Status = frame.TextItem{}
	if len(f.Toolbar) > 0 {
		x := bottom.X + panelPad
		if room := f.Toolbar[len(f.Toolbar)-1].Rect.X - x - 8; a.measure(status, sizeBody) <= room {
			f.Status = frame.TextItem{Text: status, X: x, Y: bottom.Y + (bottom.H-sizeBody)/2 - 1, Size: sizeBody, Tone: frame.ToneMuted}
		}
	}
}

// shortPlay is a shorter label for the play button.
func shortPlay(label string) string {
	if label == "Play next step" {
		return "Next step"
	}
	return label
}

// barRow places controls in a row across bar, from the left or (right)
// from the right, with the first set of labels that fits.
func (a *App) barRow(out []frame.Widget, bar viz.Rect, right bool, labels [][]string, ws ...frame.Widget) []frame.Widget {
	h := math.Min(a.controlHeight(), bar.H-4)
	const gap = 6.0
	for n, set := range labels {
		total := gap * float64(len(ws)-1)
		for _, l := range set {
			total += a.widgetWidth(l, sizeBody)
		}
		if total > bar.W-2*panelPad && n < len(labels)-1 {
			continue
		}
		x := bar.X + panelPad
		if right {
			x = bar.Right() - panelPad - total
		}
		for i, w := range ws {
			w.Label, w.Size = set[i], sizeBody
			bw := a.widgetWidth(w.Label, sizeBody)
			w.Rect = viz.XYWH(x, bar.Y+(bar.H-h)/2, bw, h)
			out = append(out, w)
			x += bw + gap
		}
		break
	}
	return out
}
