package app

import (
	"math"

	"raftlab/raftcore"
	"raftlab/viz"
)

// captionColumn is the width of an embedded figure's caption when it
// stands beside the figure (a wide canvas), or 0 when it goes below.
func (a *App) captionColumn() float64 {
	if a.w >= 640 && a.w >= 1.3*a.h {
		return math.Min(math.Max(a.w*0.3, 220), 320)
	}
	return 0
}

// captionHeight is the height of an embedded figure's caption strip: room
// for the longest thing the story says, so the figure above does not jump
// from step to step.
func (a *App) captionHeight() float64 {
	wr := a.captionContent()
	h := wr.y + 6
	if r := a.scen; r != nil {
		lines := len(a.wrap(r.s.Prompt, sizeBody, a.w-16))
		for _, st := range r.s.Steps {
			lines = max(lines, len(a.wrap(st.Text, sizeBody, a.w-16)))
		}
		shown := len(a.wrap(r.s.Prompt, sizeBody, a.w-16))
		if r.tr.Step() > 0 {
			shown = len(a.wrap(r.tr.StepText(), sizeBody, a.w-16))
		}
		if r.tr.Done() {
			shown = len(a.wrap(r.tr.Final(), sizeBody, a.w-16))
		}
		h += float64(max(lines-shown, 0)) * lineHeight(sizeBody)
	}
	return h
}

// captionContent lays an embedded figure's caption out at the origin, for
// the full width of the canvas.
func (a *App) captionContent() *writer {
	pad := 8.0
	width := a.w
	if cw := a.captionColumn(); cw > 0 {
		width = cw
	}
	wr := a.newWriter(pad, pad, width-2*pad)
	if r := a.scen; r != nil {
		text := r.s.Prompt
		if r.tr.Step() > 0 {
			text = r.tr.StepText()
		}
		if r.tr.Done() {
			text = r.tr.Final()
		}
		wr.y += lineHeight(sizeTitle)
		wr.text(text, sizeBody, ToneText, false)
		var ws []Widget
		for _, k := range r.s.Knobs {
			ws = append(ws, r.knobChips(k)...)
		}
		ws = append(ws, r.playButton(), restartButton)
		wr.row("", 0, ws...)
		if a.captionColumn() > 0 {
			a.captionPanels(wr, r)
		}
	} else {
		wr.y += lineHeight(sizeTitle)
		wr.text("Drag across links to cut them; drag a machine out to cut it off; click anything for more.", sizeBody-1, ToneText, false)
	}
	return wr
}

// buildCaption is an embedded figure's caption: in a page, panels would
// crowd the figure, so its words and controls sit in a strip under the
// timeline. Notes that would go to the banner replace the words for a
// moment.
func (a *App) buildCaption() *MenuView {
	wr := a.captionContent()
	top := a.lay.Canvas.Bottom()
	title := a.describeSetup()
	if a.scen != nil {
		title = a.scen.title
	}
	r := viz.XYWH(0, top, a.w, a.h-top)
	if cw := a.captionColumn(); cw > 0 {
		r = viz.XYWH(a.w-cw, 0, cw, a.h)
	}
	mv := &MenuView{Rect: r, Title: TextItem{Text: title, X: r.X + 8, Y: r.Y + 8, Size: sizeTitle, Tone: ToneText, Bold: true}}
	if a.banner.text != "" {
		// The note takes the title's line.
		mv.Title = TextItem{Text: a.banner.text, X: r.X + 8, Y: r.Y + 8, Size: sizeBody, Tone: ToneAccent, Bold: true}
	}
	for _, l := range wr.lines {
		l.X += r.X
		l.Y += r.Y
		mv.Lines = append(mv.Lines, l)
	}
	for _, row := range wr.rows {
		out := MenuRow{Label: row.Label}
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

// captionPanels adds to a figure's caption column, in short, the panels
// its scenario asks for: the question's answers, the contract, the roles,
// the latest client requests.
func (a *App) captionPanels(wr *writer, r *scenarioRun) {
	w := a.World()
	for _, k := range r.panelKinds() {
		wr.gap(6)
		switch k {
		case viz.PanelQuestion:
			key := a.questionKey()
			wr.text("Does "+key+" exist?", sizeSmall, ToneText, true)
			for _, ans := range w.Ask(key) {
				mark, tone := "✗", ToneWarn
				switch {
				case !ans.Answered:
					mark, tone = "–", ToneMuted
				case ans.Exists:
					mark, tone = "✓", ToneGood
				}
				wr.item(mark, tone, ans.Name+": "+ans.Word(), sizeSmall, ToneText)
			}
		case viz.PanelSafety:
			wr.text("The shared-history contract", sizeSmall, ToneText, true)
			for _, cl := range w.Contract() {
				mark, tone := clauseMark(cl)
				wr.item(mark, tone, cl.Title, sizeSmall, ToneText)
			}
		case viz.PanelNode:
			wr.text("Roles", sizeSmall, ToneText, true)
			members := a.roleMembers()
			for _, role := range []raftcore.Role{raftcore.RoleLeader, raftcore.RoleCandidate, raftcore.RolePreCandidate, raftcore.RoleFollower} {
				if m := members[role]; m != "" {
					tone, _, _ := roleLook(a.cfg.Protocol, role)
					wr.item("•", tone, capital(a.roleWord(role))+": "+m, sizeSmall, ToneText)
				}
			}
		case viz.PanelClient:
			ops := w.Ops()
			if len(ops) == 0 {
				continue
			}
			wr.text("Client requests", sizeSmall, ToneText, true)
			for i := len(ops) - 1; i >= 0 && i >= len(ops)-3; i-- {
				op := ops[i]
				mark, tone := opMark(op)
				wr.item(mark, tone, a.opLine(op), sizeSmall, ToneText)
			}
		}
	}
}
