package app

import (
	"math"

	"raftlab/raftcore"
	"raftlab/viz"
	"raftlab/viz/app/view"
	"raftlab/viz/frame"
	"raftlab/viz/words"
)

func (a *App) hoverKey() view.HoverTarget {
	p, ok := a.view.Hover()
	if !ok || a.rec.Active() || a.press.active || a.view.Help() {
		return view.HoverTarget{}
	}
	if w, ok := a.widgetAt(p); ok {
		return view.HoverTarget{Kind: "widget", Widget: w.ID}
	}
	if a.frame.Menu != nil {
		// With a menu open, the reader is busy with it: hover text for
		// what lies around it would only cover it.
		if a.frame.Menu.Rect.Contains(p) {
			return view.HoverTarget{Kind: "menu"}
		}
		return view.HoverTarget{}
	}
	if a.lay().Timeline.Contains(p) {
		if k, ok := a.markAt(p); ok {
			return view.HoverTarget{Kind: "mark", A: k}
		}
		return view.HoverTarget{}
	}
	if row := a.logRowAt(p); row >= 0 {
		if idx, ok := a.logIndexAt(row, p); ok {
			return view.HoverTarget{Kind: "entry", A: row, ID: idx}
		}
		return view.HoverTarget{}
	}
	h := a.lay().HitTest(p, a.cache.dots, viz.HitOptions{})
	switch h.Kind {
	case viz.HitNode:
		return view.HoverTarget{Kind: "node", A: h.Node}
	case viz.HitLink:
		return view.HoverTarget{Kind: "link", A: h.Link.I, B: h.Link.J}
	case viz.HitMessage:
		return view.HoverTarget{Kind: "msg", ID: uint64(h.Msg)}
	}
	return view.HoverTarget{}
}

// markAt is the timeline mark nearest p within a few pixels.
func (a *App) markAt(p viz.Point) (int, bool) {
	best, bestD := -1, 5.0
	for k, m := range a.frame.Timeline.Marks {
		if d := math.Abs(m.X - p.X); d <= bestD {
			best, bestD = k, d
		}
	}
	return best, best >= 0
}

// logIndexAt is the log index of the cell of row under p.
func (a *App) logIndexAt(row int, p viz.Point) (uint64, bool) {
	if row >= len(a.frame.Logs.Rows) {
		return 0, false
	}
	for _, c := range a.frame.Logs.Rows[row].Cells {
		if c.Rect.Contains(p) {
			return c.Index, true
		}
	}
	return 0, false
}

func (a *App) buildTooltip() *frame.TooltipView {
	t := a.hoverKey()
	if t.Kind == "" || t == a.view.Quiet() {
		return nil
	}
	hp, _ := a.view.Hover()
	w := a.World()
	var lines []string
	switch t.Kind {
	case "widget":
		for _, wd := range a.frame.Toolbar {
			if wd.ID == t.Widget && wd.Kind == frame.WidgetIcon {
				lines = append(lines, wd.Label)
			}
		}
	case "mark":
		m := a.frame.Timeline.Marks[t.A]
		lines = append(lines, m.Text)
	case "entry":
		nd := w.Node(nodeID(t.A))
		if t.ID < 1 || t.ID > nd.LastIndex() {
			return nil
		}
		e := nd.Entry(t.ID)
		s := "Index " + words.Utoa(e.Index)
		if a.cfg().Protocol == raftcore.ProtocolRaft && !a.plain() {
			s += ", term " + words.Utoa(e.Term)
		}
		state := "not committed yet"
		if e.Index <= nd.Commit() {
			state = "committed"
		}
		if a.cfg().Protocol != raftcore.ProtocolRaft {
			state = "taken as final: nothing here waits for agreement"
		}
		lines = append(lines, s+": "+e.Data.String(), state)
	case "node":
		id := nodeID(t.A)
		nd := w.Node(id)
		lines = append(lines, a.cfg().Name(id)+": "+a.voice().RoleWord(nd.Role())+", "+w.Status(id).String(),
			"log "+words.Utoa(nd.LastIndex())+", committed "+words.Utoa(nd.Commit())+", applied "+words.Utoa(nd.Applied()),
			"Click for actions; drag out to cut it off.")
	case "link":
		ni, nj := a.cfg().Name(nodeID(t.A)), a.cfg().Name(nodeID(t.B))
		ij, ji := w.Link(nodeID(t.A), nodeID(t.B)), w.Link(nodeID(t.B), nodeID(t.A))
		state := "up both ways"
		switch {
		case !ij.Up && !ji.Up:
			state = "cut both ways"
		case !ij.Up:
			state = "only " + nj + "→" + ni + " works"
		case !ji.Up:
			state = "only " + ni + "→" + nj + " works"
		}
		lines = append(lines, "Link "+ni+" – "+nj+": "+state, "Click to change it; drag across it to cut or restore.")
	case "msg":
		for _, m := range w.InFlight() {
			if m.ID == t.ID {
				lines = append(lines, a.voice().MsgSentence(&m), "Click to inspect or drop it.")
			}
		}
	}
	if len(lines) == 0 {
		return nil
	}
	maxW := math.Min(320, a.stage.W()-16)
	pad := 6.0
	var items []frame.TextItem
	width := 0.0
	y := pad
	for _, l := range lines {
		for _, s := range a.wrap(l, sizeSmall, maxW-2*pad) {
			items = append(items, frame.TextItem{Text: s, X: pad, Y: y, Size: sizeSmall, Tone: frame.ToneText})
			width = math.Max(width, a.measure(s, sizeSmall))
			y += lineHeight(sizeSmall)
		}
	}
	bw, bh := width+2*pad, y+pad-2
	x := hp.X + 14
	if x+bw > a.stage.W()-4 {
		x = hp.X - 14 - bw
	}
	ty := hp.Y + 18
	if ty+bh > a.stage.H()-4 {
		ty = hp.Y - 10 - bh
	}
	x, ty = math.Max(x, 4), math.Max(ty, 4)
	for k := range items {
		items[k].X += x
		items[k].Y += ty
	}
	return &frame.TooltipView{Rect: viz.XYWH(x, ty, bw, bh), Lines: items}
}
