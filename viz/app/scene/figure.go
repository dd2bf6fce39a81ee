package scene

import (
	"math"

	"raftlab/scenarios"
	"raftlab/viz"
	"raftlab/viz/app/session"
	"raftlab/viz/app/stage"
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

// Widget ids of a figure's controls.
const (
	IDFigurePlay    = "figure.play"
	IDFigureBack    = "figure.back"
	IDFigureRestart = "figure.restart"
	IDFigureLab     = "figure.lab"
)

// PanelFor is the app's panel for a scenario's panel; false for the
// logs, which are on the stage.
func PanelFor(p scenarios.Panel) (viz.PanelKind, bool) {
	switch p {
	case scenarios.PanelQuestion:
		return viz.PanelQuestion, true
	case scenarios.PanelContract, scenarios.PanelChecker, scenarios.PanelInformers:
		return viz.PanelSafety, true
	case scenarios.PanelClient:
		return viz.PanelClient, true
	case scenarios.PanelRoles, scenarios.PanelElections, scenarios.PanelClocks, scenarios.PanelLeases:
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
func (b *Builder) figureGeom() stage.FigureGeom {
	r := b.scen()
	key := figureGeomKey{w: b.Stage.W(), h: b.Stage.H(), run: r, text: b.figureText(), compare: figureCompare(r) != nil}
	return b.Stage.Figure(key, b.layFigure)
}

// layFigure is figureGeom worked out afresh.
func (b *Builder) layFigure() stage.FigureGeom {
	_, hasPanel := PanelFor(b.scen().Spec().UI.Focus)
	own := b.ownLogs()
	cw := b.captionColumn()
	if cw > 0 {
		words := math.Min(b.figureWordsHeight(cw), b.Stage.H())
		g := stage.FigureGeom{Stage: viz.XYWH(0, 0, b.Stage.W()-cw, b.Stage.H()), Words: viz.XYWH(b.Stage.W()-cw, 0, cw, b.Stage.H())}
		if hasPanel || own {
			g.Words.H = words
			g.Panel = viz.XYWH(b.Stage.W()-cw, words+figureGap, cw, math.Max(b.Stage.H()-words-figureGap, 0))
		}
		if own {
			// The card is as tall as the rows and their key.
			g.Panel.H = math.Min(g.Panel.H, b.ownLogsHeight(cw))
		}
		return g
	}
	words := b.figureWordsHeight(b.Stage.W())
	stageMin := math.Min(b.Stage.H(), math.Max(b.Stage.H()*0.52, 270))
	panelH := 0.0
	switch {
	case own:
		// The rows leave the stage for a card of their own, which takes
		// the room they need.
		panelH = b.ownLogsHeight(b.Stage.W())
	case hasPanel:
		panelMin := panelHeader + 3*LineHeight(SizeBody) + panelPad
		panelH = math.Max(b.Stage.H()-stageMin-words-figureGap, panelMin)
	}
	stageH := math.Max(b.Stage.H()-words-panelH-figureGap, math.Min(b.Stage.H(), 200))
	g := stage.FigureGeom{Stage: viz.XYWH(0, 0, b.Stage.W(), stageH), Words: viz.XYWH(0, stageH, b.Stage.W(), words)}
	if hasPanel || own {
		g.Panel = viz.XYWH(0, g.Words.Bottom()+figureGap, b.Stage.W(), math.Max(b.Stage.H()-g.Words.Bottom()-figureGap, 0))
	}
	return g
}

// figureWordsHeight is the height of a figure's words at width w: room
// for the longest thing its story says, so that the figure does not jump
// from step to step.
func (b *Builder) figureWordsHeight(w float64) float64 {
	r := b.scen()
	wr := b.figureWords(w)
	inner := w - 2*panelPad
	lines := len(b.wrap(r.Spec().Prompt, SizeBody, inner))
	for _, st := range r.Spec().Steps {
		lines = max(lines, len(b.wrap(st.Text, SizeBody, inner)))
	}
	shown := len(b.wrap(b.figureText(), SizeBody, inner))
	return wr.y + panelPad/2 + float64(max(lines-shown, 0))*LineHeight(SizeBody)
}

// figureText is what a figure says now: a note on what the reader just
// did, else where its story stands.
func (b *Builder) figureText() string {
	r := b.scen()
	switch {
	case b.View.Banner().Text != "":
		return b.View.Banner().Text
	case r.ShownDone():
		return r.Tracker().Final()
	case r.Step() > 0:
		return r.Tracker().TextOf(r.Step())
	}
	return r.Spec().Prompt
}

// figureWords lays a figure's words out at the origin, w wide: its title,
// what its story says now, and its knobs.
func (b *Builder) figureWords(w float64) *writer {
	r := b.scen()
	wr := b.newWriter(panelPad, panelPad, w-2*panelPad)
	wr.text(r.Spec().Title, SizeTitle, frame.ToneText, true)
	wr.gap(2)
	tone := frame.ToneText
	if b.View.Banner().Text != "" {
		tone = frame.ToneAccent
	}
	wr.text(b.figureText(), SizeBody, tone, false)
	if c := figureCompare(r); c != nil && !b.Still {
		k, _ := r.Spec().Knob(c.Knob)
		wr.gap(4)
		wr.row("", 0, knobButton(c.Knob, c.Value, words.SeeItWith(k.Label, k.Say(c.Value))))
	}
	for _, k := range r.Spec().Knobs {
		if k.Lab {
			continue
		}
		wr.gap(2)
		if b.Still {
			// On paper a knob cannot be pressed: it says how it is set.
			wr.text(words.KnobSetTo(k.Label, k.Say(r.Spec().Setting(k.Name))), SizeSmall, frame.ToneMuted, false)
			continue
		}
		wr.row(k.Label, b.Measure(k.Label, SizeSmall)+10, knobChips(r, k)...)
	}
	return wr
}

// figureCompare is the other setting a figure offers to show once its
// story is over, if any: the scenario's comparison, unless its knob is
// the full lab's alone.
func figureCompare(r *session.Scenario) *scenarios.Setting {
	c := r.Spec().UI.Compare
	if c == nil || !r.ShownDone() || r.Spec().Setting(c.Knob) == c.Value {
		return nil
	}
	if k, _ := r.Spec().Knob(c.Knob); k.Lab {
		return nil
	}
	return c
}

// buildFigure fills the frame's figure parts: the controls in the bars
// above and below the machines, the words, and the panel.
func (b *Builder) buildFigure() {
	f := &b.frame
	g := b.figureGeom()
	wr := b.figureWords(g.Words.W)
	f.Caption = b.menuAt(g.Words, wr)
	b.buildFigureBars()
	k, ok := PanelFor(b.scen().Spec().UI.Focus)
	if !ok || g.Panel.H <= 0 {
		return
	}
	content := b.newWriter(0, 0, g.Panel.W-2*panelPad)
	b.panelContent(k, content)
	if b.hasShortForm(k) && content.height() > g.Panel.H-panelHeader-panelPad/2 {
		// Too long for the room a figure has: the panel's short form.
		content = b.newWriter(0, 0, g.Panel.W-2*panelPad)
		content.compact = true
		b.panelContent(k, content)
	}
	f.Panels = append(f.Panels, b.placePanel(k, g.Panel, content))
}

// hasShortForm reports whether panel k has a short form for a figure with
// little room: the contract's, and the node Leases'.
func (b *Builder) hasShortForm(k viz.PanelKind) bool {
	p, _ := b.timingPanel()
	return k == viz.PanelSafety || k == viz.PanelNode && p == scenarios.PanelLeases
}

// menuAt is content laid out at the origin put in box r, as a popover.
func (b *Builder) menuAt(r viz.Rect, wr *writer) *frame.MenuView {
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
func (b *Builder) buildFigureBars() {
	f := &b.frame
	r := b.scen()
	f.Toolbar = f.Toolbar[:0]
	f.Speed = frame.SliderView{}
	f.Timeline = frame.TimelineView{}
	top, bottom := b.Stage.Bars()[0], b.Stage.Bars()[1]
	play := button(IDFigurePlay, words.PlayNextStep, "next")
	switch {
	case !b.Clock.Paused():
		play = button(IDFigurePlay, words.Pause, "pause")
	case r.ShownDone():
		play.Label = words.PlayOn
	case r.Step() == 0:
		play.Label = words.Play
	}
	back := button(IDFigureBack, words.StepBack, "back")
	again := button(IDFigureRestart, words.StartAgain, "reset")
	f.Toolbar = b.barRow(f.Toolbar, top, false, [][]string{{play.Label, words.StepBack, words.StartAgain}, {shortPlay(play.Label), words.Back, words.Restart}}, play, back, again)
	lab := button(IDFigureLab, words.OpenLab, "lab")
	f.Toolbar = b.barRow(f.Toolbar, bottom, true, [][]string{{words.OpenLab}, {words.FullLab}}, lab)
	status := words.FigureStatus(r.Step()+1, r.Tracker().StepCount(), !b.Clock.Paused(), r.ShownDone())
	f.Status = frame.TextItem{}
	if len(f.Toolbar) == 0 {
		return
	}
	x := bottom.X + panelPad
	room := f.Toolbar[len(f.Toolbar)-1].Rect.X - x - 8
	forms := []string{status}
	if b.SecondsClock() {
		// A figure told in seconds shows its clock, the first thing to
		// keep where the bar is short.
		forms = words.FigureClock(b.World().Now(), status)
	}
	for _, s := range forms {
		if b.Measure(s, SizeBody) <= room {
			f.Status = frame.TextItem{Text: s, X: x, Y: bottom.Y + (bottom.H-SizeBody)/2 - 1, Size: SizeBody, Tone: frame.ToneMuted}
			return
		}
	}
}

// shortPlay is a shorter label for the play button.
func shortPlay(label string) string {
	if label == words.PlayNextStep {
		return words.NextStep
	}
	return label
}

// barRow places controls in a row across bar, from the left or (right)
// from the right, with the first set of labels that fits.
func (b *Builder) barRow(out []frame.Widget, bar viz.Rect, right bool, labels [][]string, ws ...frame.Widget) []frame.Widget {
	h := math.Min(b.controlHeight(), bar.H-4)
	const gap = 6.0
	for n, set := range labels {
		total := gap * float64(len(ws)-1)
		for _, l := range set {
			total += b.widgetWidth(l, SizeBody)
		}
		if total > bar.W-2*panelPad && n < len(labels)-1 {
			continue
		}
		x := bar.X + panelPad
		if right {
			x = bar.Right() - panelPad - total
		}
		for i, w := range ws {
			w.Label, w.Size = set[i], SizeBody
			bw := b.widgetWidth(w.Label, SizeBody)
			w.Rect = viz.XYWH(x, bar.Y+(bar.H-h)/2, bw, h)
			out = append(out, w)
			x += bw + gap
		}
		break
	}
	return out
}
