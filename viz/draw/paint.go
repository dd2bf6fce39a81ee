package draw

import (
	"math"
	"time"

	"raftlab/viz"
	"raftlab/viz/app"
)

type textItem = app.TextItem

// paint draws the whole frame.
func (c *canvas) paintFrame(f *app.Frame, p *palette) {
	c.calls, c.verts = 0, 0
	t0 := time.Now()
	c.dst.Fill(p.bg.rgba())
	// Each pass is one batch of shapes with its text on top. Only the
	// cluster, with its circles and slanted lines, is anti-aliased; the
	// rest is mostly upright rectangles, which do not need it.
	c.aa = true
	c.paintZones(f, p)
	c.paintLinks(f, p)
	c.paintMessages(f, p)
	c.paintNodes(f, p)
	c.paintGhost(f, p)
	c.paintStroke(f, p)
	c.flush()
	t1 := time.Now()
	c.aa = false
	c.paintLogs(f, p)
	c.flush()
	t2 := time.Now()
	c.paintPanels(f, p)
	t3 := time.Now()
	c.clusterUs, c.panelsUs = t1.Sub(t0).Microseconds(), t3.Sub(t2).Microseconds()
	for _, w := range f.Tabs {
		c.paintWidget(w, p)
	}
	c.paintToolbar(f, p)
	c.paintTimeline(f, p)
	c.flush()
	c.paintReplay(f, p)
	c.flush()
	c.paintBanner(f, p)
	c.flush()
	c.paintPopover(f.Caption, p)
	c.flush()
	c.paintLegend(f, p)
	c.flush()
	c.paintPopover(f.Menu, p)
	c.flush()
	c.paintHelp(f, p)
	c.flush()
	c.paintTooltip(f, p)
	c.flush()
}

func (c *canvas) paintZones(f *app.Frame, p *palette) {
	for _, z := range f.Zones {
		fill := p.surface.mix(p.bg, 0.3)
		edge := p.border
		if z.Tone == app.ToneGood || z.Tone == app.ToneWarn {
			fill = p.surface.mix(p.tone(z.Tone), 0.07)
			edge = p.tone(z.Tone).mix(p.surface, 0.35)
		}
		if z.Hot {
			fill = p.surface.mix(p.tone(app.ToneAccent), 0.12)
			edge = p.tone(app.ToneAccent)
		}
		c.roundRect(z.Rect, 10, fill)
		if z.Empty && !z.Hot {
			c.roundRectLine(z.Rect, 10, 1.2, edge.alpha(0.6))
		} else {
			c.roundRectLine(z.Rect, 10, 1.5, edge)
		}
		c.text(z.Label, p.tone(z.Label.Tone))
	}
}

func (c *canvas) paintLinks(f *app.Frame, p *palette) {
	// The lines first, then what marks them (scissors, arrowheads,
	// crosses, labels) on top: dashed lines are drawn apart from the
	// other shapes, when the lines are done.
	for i := range f.Links {
		l := &f.Links[i]
		base, w := linkLook(l, p)
		switch l.State {
		case app.LinkUp:
			if l.Lossy || l.Slow {
				// Striped and thinner: the link works, badly.
				c.dashedLink(l.Seg.A, l.Seg.B, w*0.75, 6, 4, p.tone(app.ToneWarn).mix(base, 0.3))
			} else {
				c.line(l.Seg.A, l.Seg.B, w, base.alpha(0.75))
			}
		case app.LinkCut:
			if l.Faint {
				c.dashedLink(l.Seg.A, l.Seg.B, 1, 3, 7, p.linkCut.alpha(0.25))
				break
			}
			c.dashedLink(l.Seg.A, l.Seg.B, 1.5, 5, 5, cutColour(l, p))
		case app.LinkOneWay:
			for k := 0; k < 2; k++ {
				lane := l.Lanes[k]
				if l.Up[k] {
					c.line(lane.A, lane.B, w, p.tone(app.ToneWarn).mix(base, 0.2))
				} else {
					c.dashedLink(lane.A, lane.B, 1.5, 5, 5, p.linkCut.alpha(0.8))
				}
			}
		}
	}
	c.flushDashes()
	for i := range f.Links {
		l := &f.Links[i]
		switch {
		case l.State == app.LinkCut && !l.Faint:
			c.scissors(l.Seg.At(0.5), l.Seg.B.Sub(l.Seg.A), cutColour(l, p), p)
		case l.State == app.LinkOneWay:
			for k := 0; k < 2; k++ {
				lane := l.Lanes[k]
				if l.Up[k] {
					c.arrowHead(lane.At(0.62), lane.B.Sub(lane.A), 11, p.tone(app.ToneWarn))
				} else {
					c.cross(lane.At(0.5), 4, 1.8, p.linkCut)
				}
			}
		}
		if l.Label.Text != "" {
			c.halo(l.Label, p)
			c.text(l.Label, p.tone(l.Label.Tone))
		}
	}
}

// linkLook is a link's colour and width: the accent, and wider, while the
// pointer is on it.
func linkLook(l *app.LinkView, p *palette) (colorF, float64) {
	if l.Hot {
		return p.tone(app.ToneAccent), 3
	}
	return p.link, 2
}

// cutColour is the colour of a cut link's dashes and scissors.
func cutColour(l *app.LinkView, p *palette) colorF {
	if l.Hot {
		return p.tone(app.ToneAccent)
	}
	return p.linkCut.alpha(0.8)
}

func (c *canvas) scissors(at, dir viz.Point, clr colorF, p *palette) {
	u := dir.Unit()
	n := u.Perp()
	c.disc(at, 9, p.bg)
	// Two blades crossing at the pivot, and two finger rings.
	a1, a2 := at.Add(n.Mul(7)).Add(u.Mul(3)), at.Sub(n.Mul(7)).Add(u.Mul(3))
	b1, b2 := at.Add(n.Mul(3)).Sub(u.Mul(5)), at.Sub(n.Mul(3)).Sub(u.Mul(5))
	c.line(b1, a2, 1.8, clr)
	c.line(b2, a1, 1.8, clr)
	c.ring(b1.Sub(u.Mul(2)), 2.4, 1.5, clr)
	c.ring(b2.Sub(u.Mul(2)), 2.4, 1.5, clr)
}

// halo puts a soft background behind text so it reads over lines.
func (c *canvas) halo(t app.TextItem, p *palette) {
	w := Measure(t.Text, t.Size) + 6
	h := t.Size + 4
	x, y := t.X-3, t.Y-2
	if t.Center {
		x, y = t.X-w/2, t.Y-h/2
	}
	c.roundRect(viz.XYWH(x, y, w, h), 4, p.bg.alpha(0.85))
}

func (c *canvas) paintMessages(f *app.Frame, p *palette) {
	for i := range f.Messages {
		c.paintMessage(&f.Messages[i], p)
	}
}

// paintMessage draws a message on the wire, or one falling away.
func (c *canvas) paintMessage(m *app.MsgView, p *palette) {
	clr := p.tone(m.Tone)
	if m.Fall > 0 {
		// Dropped: it falls away and fades.
		k := math.Min(m.Fall, 1)
		pos := viz.Pt(m.Pos.X+k*6, m.Pos.Y+k*k*36)
		c.cross(pos, m.R*0.9, 2, clr.alpha(1-k))
		return
	}
	if m.Selected {
		c.ring(m.Pos, m.R+4, 2, p.tone(app.ToneAccent))
	}
	if m.Hollow {
		c.sprite(spriteDisc, m.Pos, m.R, 0, p.bg)
		c.sprite(spriteRing, m.Pos, m.R-0.8, 2, clr)
		if m.Reject {
			c.cross(m.Pos, m.R*0.45, 1.5, clr)
		}
	} else {
		c.sprite(spriteDisc, m.Pos, m.R, 0, clr)
	}
	if m.Label.Text != "" {
		c.text(m.Label, p.tone(m.Label.Tone))
	}
}

func (c *canvas) nodeShape(n *app.NodeView, at viz.Point, r float64, fill, edge colorF, width float64) {
	switch n.Shape {
	case app.ShapeSquare:
		s := r * 0.9
		box := viz.XYWH(at.X-s, at.Y-s, 2*s, 2*s)
		c.roundRect(box, r*0.25, fill)
		c.roundRectLine(box, r*0.25, width, edge)
	case app.ShapeDiamond:
		k := r * 1.12
		pts := []viz.Point{viz.Pt(at.X, at.Y-k), viz.Pt(at.X+k, at.Y), viz.Pt(at.X, at.Y+k), viz.Pt(at.X-k, at.Y)}
		c.fan(pts, fill)
		if n.Dashed {
			for i := range pts {
				c.dashed(pts[i], pts[(i+1)%4], width, 5, 4, edge)
			}
		} else {
			c.outline(pts, width, edge)
		}
	default:
		c.disc(at, r, fill)
		c.ring(at, r, width, edge)
	}
}

func (c *canvas) paintNodes(f *app.Frame, p *palette) {
	for i := range f.Nodes {
		if !f.Nodes[i].Hidden {
			c.paintNode(&f.Nodes[i], p)
		}
	}
}

// paintNode draws a machine with its rings, votes, words and badges.
func (c *canvas) paintNode(n *app.NodeView, p *palette) {
	fill := p.tone(n.Tone)
	edge := fill.mix(p.onDisc, 0.45)
	if n.Pulse > 0 && n.Pulse < 1 {
		c.ring(n.Center, n.R*(1.05+0.55*n.Pulse), 2.5*(1-n.Pulse)+0.5, p.tone(app.ToneLeader).alpha(0.7*(1-n.Pulse)))
	}
	if n.Timer >= 0 {
		c.ring(n.Center, n.R+5, 3, p.border.alpha(0.8))
		c.arc(n.Center, n.R+5, n.Timer, 3, p.tone(n.TimerTone))
	}
	if n.Selected {
		c.ring(n.Center, n.R+10, 2.5, p.tone(app.ToneAccent))
	}
	if n.Highlight && !n.Selected {
		// The machines a story is about wear a dotted ring.
		for k := 0; k < 24; k += 2 {
			c.arcFrom(n.Center, n.R+10, float64(k)/24, 1.0/24, 2, p.tone(app.ToneAccent).alpha(0.8))
		}
	}
	c.nodeShape(n, n.Center, n.R, fill, edge, 2.5)
	for _, v := range n.Votes {
		if v.Granted {
			c.disc(v.Pos, 4, p.tone(app.ToneGood))
			c.ring(v.Pos, 4, 1, p.onDisc.alpha(0.6))
		} else {
			c.cross(v.Pos, 3, 1.6, p.tone(app.ToneBad))
		}
	}
	nameClr := p.onDisc
	switch {
	case n.Crashed:
		nameClr = hex(0xe6e9ef)
		c.cross(n.Center, n.R*0.62, 3, p.tone(app.ToneBad).alpha(0.9))
	case n.Paused:
		// Two bars: frozen.
		bw, bh := n.R*0.16, n.R*0.5
		y := n.Center.Y + n.R*0.22
		c.rect(viz.XYWH(n.Center.X-bw*1.8, y, bw, bh), p.onDisc.alpha(0.55))
		c.rect(viz.XYWH(n.Center.X+bw*0.8, y, bw, bh), p.onDisc.alpha(0.55))
	}
	name := n.Name
	if n.Paused {
		name.Y -= n.R * 0.18
	}
	c.text(name, nameClr)
	for _, l := range n.Lines {
		c.halo(l, p)
		c.text(l, p.tone(l.Tone))
	}
	for _, b := range n.Badges {
		w := Measure(b.Text, b.Size) + 10
		box := viz.XYWH(b.X-w/2, b.Y-b.Size/2-3, w, b.Size+6)
		c.roundRect(box, 5, p.tone(b.Tone).alpha(0.16).mix(p.bg, 0.2))
		c.roundRectLine(box, 5, 1, p.tone(b.Tone))
		c.text(b, p.tone(b.Tone))
	}
}

func (c *canvas) paintGhost(f *app.Frame, p *palette) {
	g := f.Ghost
	if g == nil || g.Node >= len(f.Nodes) {
		return
	}
	n := f.Nodes[g.Node]
	if g.WouldIsolate {
		c.ring(g.Pos, g.R+9, 2, p.linkCut)
		t := app.TextItem{Text: "drop to cut it off", X: g.Pos.X, Y: g.Pos.Y + g.R + 16, Size: 12, Center: true, Bold: true}
		c.halo(t, p)
		c.text(t, p.linkCut)
	}
	c.nodeShape(&n, g.Pos, g.R, p.tone(n.Tone).alpha(0.8), p.onDisc.alpha(0.5), 2)
	n.Name.X, n.Name.Y = g.Pos.X, g.Pos.Y
	c.text(n.Name, p.onDisc)
}

func (c *canvas) paintStroke(f *app.Frame, p *palette) {
	for i := 1; i < len(f.Stroke); i++ {
		c.line(f.Stroke[i-1], f.Stroke[i], 2.5, p.tone(app.ToneAccent).alpha(0.8))
	}
}

func (c *canvas) paintLogs(f *app.Frame, p *palette) {
	L := &f.Logs
	for _, h := range L.Header {
		c.text(h, p.tone(h.Tone))
	}
	if L.Before.Text != "" {
		c.text(L.Before, p.tone(L.Before.Tone))
	}
	if L.After.Text != "" {
		c.text(L.After, p.tone(L.After.Tone))
	}
	for i := range L.Rows {
		r := &L.Rows[i]
		bg := p.surface
		if r.Selected {
			bg = p.tone(app.ToneAccent).alpha(0.12).mix(p.surface, 0.3)
		}
		c.rect(r.Strip, bg)
		// The name in a tag of the machine's role colour.
		tag := r.Label
		c.roundRect(tag, 4, p.tone(r.Tone).alpha(0.9))
		name := r.Name
		name.X, name.Y, name.Center = tag.X+tag.W/2, tag.Y+tag.H/2, true
		c.text(name, p.onDisc)
		c.paintLogRow(r, p)
	}
}

// paintLogRow draws a log row's cells and its markers.
func (c *canvas) paintLogRow(r *app.LogRow, p *palette) {
	for _, cell := range r.Cells {
		col := p.term(cell.Color)
		if cell.Committed {
			c.rect(cell.Rect, col)
		} else {
			c.rect(cell.Rect, p.surface)
			c.rectLine(cell.Rect.Inset(0.75), 1.5, col.mix(p.onDisc, 0.25))
		}
		if cell.Conflict {
			c.line(viz.Pt(cell.Rect.X, cell.Rect.Bottom()-1), viz.Pt(cell.Rect.Right(), cell.Rect.Bottom()-1), 2, p.linkCut)
		}
		if cell.Text != "" {
			size := math.Min(cell.Rect.H*0.68, 12)
			c.text(app.TextItem{Text: cell.Text, X: cell.Rect.X + cell.Rect.W/2, Y: cell.Rect.Y + cell.Rect.H/2, Size: size, Center: true}, p.termText)
		}
	}
	if r.Faded {
		c.rect(r.Strip, p.bg.alpha(0.45))
	}
	top, bot := r.Strip.Y-1, r.Strip.Bottom()+1
	if r.CommitX >= 0 {
		c.line(viz.Pt(r.CommitX, top), viz.Pt(r.CommitX, bot), 2.5, p.tone(app.ToneGood))
	}
	if r.AppliedX >= 0 {
		c.fan([]viz.Point{viz.Pt(r.AppliedX-4, bot+3), viz.Pt(r.AppliedX+4, bot+3), viz.Pt(r.AppliedX, bot-2)}, p.tone(app.ToneGood))
	}
	if r.MatchX >= 0 {
		c.fan([]viz.Point{viz.Pt(r.MatchX-4, top-3), viz.Pt(r.MatchX+4, top-3), viz.Pt(r.MatchX, top+2)}, p.tone(app.ToneLeader))
	}
	if r.NextX >= 0 {
		c.line(viz.Pt(r.NextX, top), viz.Pt(r.NextX, bot), 1.2, p.tone(app.ToneLeader).alpha(0.8))
	}
}

func (c *canvas) card(r viz.Rect, p *palette) {
	c.roundRect(viz.XYWH(r.X+1, r.Y+2, r.W, r.H), 8, p.shadow)
	c.roundRect(r, 8, p.surface)
	c.roundRectLine(r, 8, 1, p.border)
}

func (c *canvas) paintPanel(pv *app.PanelView, p *palette) {
	c.card(pv.Rect, p)
	c.text(pv.Title, p.tone(pv.Title.Tone))
	if pv.Folded {
		t := app.TextItem{Text: "show ↓", X: pv.Rect.Right() - Measure("show ↓", 11) - 10, Y: pv.Title.Y + 2, Size: 11}
		c.text(t, p.tone(app.ToneAccent))
		return
	}
	c.flush()
	in := c.clip(pv.Clip)
	for _, l := range pv.Lines {
		if l.Y+l.Size*1.4 < pv.Clip.Y || l.Y > pv.Clip.Bottom() {
			continue
		}
		in.text(l, p.tone(l.Tone))
	}
	for _, w := range pv.Widgets {
		if w.Rect.Bottom() < pv.Clip.Y || w.Rect.Y > pv.Clip.Bottom() {
			continue
		}
		in.paintWidget(w, p)
	}
	if pv.Diagram != nil {
		in.paintDiagram(pv.Diagram, p)
	}
	in.flush()
	c.calls += in.calls
	c.verts += in.verts
	if pv.More {
		b := pv.Clip.Bottom()
		for k := 0; k < 10; k++ {
			c.rect(viz.XYWH(pv.Clip.X, b-20+float64(k)*2, pv.Clip.W, 2), p.surface.alpha(float64(k)/10))
		}
		t := app.TextItem{Text: "more below ↓", X: pv.Clip.Right() - Measure("more below ↓", 11) - 2, Y: b - 14, Size: 11}
		// A solid patch under the words, so that they never sit on a
		// line of the panel half faded out.
		c.rect(viz.XYWH(t.X-8, b-16, pv.Clip.Right()-t.X+8, 16), p.surface.alpha(1))
		c.text(t, p.tone(app.ToneAccent))
	}
}

func (c *canvas) paintWidget(w app.Widget, p *palette) {
	r := w.Rect
	if r.W <= 0 || r.H <= 0 {
		return
	}
	accent := p.tone(app.ToneAccent)
	size := w.Size
	if size == 0 {
		size = 12
	}
	switch w.Kind {
	case app.WidgetIcon:
		bg := p.surface
		if w.On {
			bg = accent.alpha(0.16).mix(p.surface, 0.2)
		}
		c.roundRect(r, 7, bg)
		c.roundRectLine(r, 7, 1, p.border)
		c.icon(w.Icon, r, p.tone(app.ToneText), p)
		return
	case app.WidgetTab:
		bg, fg := p.surface, p.tone(app.ToneMuted)
		if w.On {
			bg, fg = accent, hex(0xffffff)
		}
		c.roundRect(r, 7, bg)
		if !w.On {
			c.roundRectLine(r, 7, 1, p.border)
		}
		c.text(app.TextItem{Text: w.Label, X: r.X + r.W/2, Y: r.Y + r.H/2, Size: size, Center: true, Bold: w.On}, fg)
		return
	case app.WidgetChip, app.WidgetToggle:
		bg, fg, edge := p.surface, p.tone(app.ToneText), p.border
		if w.On {
			bg, fg, edge = accent, hex(0xffffff), accent
		}
		c.roundRect(r, r.H/2, bg)
		c.roundRectLine(r, r.H/2, 1, edge)
		label := w.Label
		if w.Kind == app.WidgetToggle {
			if w.On {
				label = "✓ " + label
			} else {
				label = "– " + label
			}
		}
		c.text(app.TextItem{Text: label, X: r.X + r.W/2, Y: r.Y + r.H/2, Size: size, Center: true}, fg)
		return
	}
	bg := accent.alpha(0.1).mix(p.surface, 0.35)
	if w.On {
		bg = accent.alpha(0.25)
	}
	c.roundRect(r, 6, bg)
	c.roundRectLine(r, 6, 1, accent.alpha(0.7))
	c.text(app.TextItem{Text: w.Label, X: r.X + r.W/2, Y: r.Y + r.H/2, Size: size, Center: true}, p.tone(app.ToneText))
}

func (c *canvas) paintToolbar(f *app.Frame, p *palette) {
	for _, w := range f.Toolbar {
		c.paintWidget(w, p)
	}
	if f.Status.Text != "" {
		c.text(f.Status, p.tone(f.Status.Tone))
	}
	s := f.Speed
	if s.Track.W > 0 {
		if s.Label.Text != "" {
			c.text(s.Label, p.tone(s.Label.Tone))
		}
		c.roundRect(s.Track, 3, p.border)
		fill := s.Track
		fill.W *= s.Frac
		c.roundRect(fill, 3, p.tone(app.ToneAccent).alpha(0.7))
		// Ticks at the nice speeds, a longer one at real time.
		for _, v := range viz.NiceSpeeds() {
			x := s.Track.X + viz.SliderPos(v)*s.Track.W
			h := 3.0
			if v == 1 {
				h = 6
			}
			c.line(viz.Pt(x, s.Track.Bottom()+1), viz.Pt(x, s.Track.Bottom()+1+h), 1, p.tone(app.ToneMuted))
		}
		k := viz.Pt(s.Track.X+s.Frac*s.Track.W, s.Track.Y+s.Track.H/2)
		c.disc(k, 8, p.surface)
		c.ring(k, 8, 2, p.tone(app.ToneAccent))
	}
}

func (c *canvas) paintTimeline(f *app.Frame, p *palette) {
	t := f.Timeline
	if t.Rect.W <= 0 {
		return
	}
	c.rect(t.Rect, p.surface)
	c.line(viz.Pt(t.Rect.X, t.Rect.Y), viz.Pt(t.Rect.Right(), t.Rect.Y), 1, p.border)
	c.text(t.Left, p.tone(t.Left.Tone))
	c.text(t.Right, p.tone(t.Right.Tone))
	tr := t.Track
	c.roundRect(tr, 4, p.border.alpha(0.6))
	head := tr
	head.W *= t.Head
	c.roundRect(head, 4, p.tone(app.ToneAccent).alpha(0.2))
	done := tr
	done.W *= t.Now
	c.roundRect(done, 4, p.tone(app.ToneAccent).alpha(0.45))
	for _, m := range t.Marks {
		h := 7.0
		if m.Major {
			h = 10
		}
		c.line(viz.Pt(m.X, tr.Y+tr.H/2-h), viz.Pt(m.X, tr.Y+tr.H/2+h), 2, p.tone(m.Tone))
	}
	x := tr.X + t.Now*tr.W
	c.line(viz.Pt(x, tr.Y-8), viz.Pt(x, tr.Bottom()+8), 2.5, p.tone(app.ToneText))
	for _, b := range t.Buttons {
		c.paintWidget(b, p)
	}
}

// paintReplay outlines the stage while it shows the recorded past, with
// the tag that says so.
func (c *canvas) paintReplay(f *app.Frame, p *palette) {
	r := f.Replay
	if r == nil {
		return
	}
	edge := p.tone(app.ToneAccent)
	c.roundRectLine(r.Stage, 8, 2, edge.alpha(0.45))
	c.roundRect(r.Rect, r.Rect.H/2, edge)
	c.text(r.Text, p.bg)
}

func (c *canvas) paintBanner(f *app.Frame, p *palette) {
	b := f.Banner
	if b == nil {
		return
	}
	edge := p.tone(app.ToneAccent)
	if b.Tone == app.ToneBad {
		edge = p.tone(app.ToneBad)
	}
	if b.InToolbar {
		c.roundRect(b.Rect, 7, p.surface.mix(edge, 0.08))
		c.roundRectLine(b.Rect, 7, 1, edge.alpha(0.5))
	} else {
		c.card(b.Rect, p)
	}
	c.rect(viz.XYWH(b.Rect.X, b.Rect.Y+6, 4, b.Rect.H-12), edge)
	for _, l := range b.Lines {
		c.text(l, p.tone(l.Tone))
	}
	c.icon("close", b.Close.Rect, p.tone(app.ToneMuted), p)
}

func (c *canvas) paintPopover(m *app.MenuView, p *palette) {
	if m == nil {
		return
	}
	c.card(m.Rect, p)
	c.roundRectLine(m.Rect, 8, 1.5, p.tone(app.ToneAccent).alpha(0.6))
	c.text(m.Title, p.tone(m.Title.Tone))
	for _, l := range m.Lines {
		c.text(l, p.tone(l.Tone))
	}
	for _, r := range m.Rows {
		c.text(r.Label, p.tone(r.Label.Tone))
		for _, w := range r.Widgets {
			c.paintWidget(w, p)
		}
	}
}

func (c *canvas) paintHelp(f *app.Frame, p *palette) {
	h := f.Help
	if h == nil {
		return
	}
	c.rect(viz.XYWH(0, 0, f.W, f.H), p.bg.alpha(0.6))
	c.card(h.Rect, p)
	c.text(h.Title, p.tone(h.Title.Tone))
	for _, l := range h.Lines {
		c.text(l, p.tone(l.Tone))
	}
}

// paintLegend draws the key to the marks: its button over the log rows
// and, when open, its card, whose samples are drawn by the stage's own
// painters.
func (c *canvas) paintLegend(f *app.Frame, p *palette) {
	if f.Logs.Key.ID != "" {
		c.paintWidget(f.Logs.Key, p)
	}
	l := f.Legend
	if l == nil {
		return
	}
	c.card(l.Rect, p)
	c.text(l.Title, p.tone(l.Title.Tone))
	c.icon("close", l.CloseIcon, p.tone(app.ToneMuted), p)
	for i := range l.Rows {
		r := &l.Rows[i]
		for _, t := range r.Lines {
			c.text(t, p.tone(t.Tone))
		}
		if r.Log != nil {
			c.paintLogRow(r.Log, p)
		}
	}
	c.flush()
	c.aa = true
	for i := range l.Rows {
		r := &l.Rows[i]
		for j := range r.Nodes {
			c.paintNode(&r.Nodes[j], p)
		}
		for j := range r.Msgs {
			c.paintMessage(&r.Msgs[j], p)
		}
	}
	c.flush()
	c.aa = false
}

func (c *canvas) paintTooltip(f *app.Frame, p *palette) {
	t := f.Tooltip
	if t == nil {
		return
	}
	c.roundRect(t.Rect, 5, p.tone(app.ToneText).alpha(0.92))
	for _, l := range t.Lines {
		c.text(l, p.bg)
	}
}

// paintDiagram draws the role diagram.
func (c *canvas) paintDiagram(d *app.DiagramView, p *palette) {
	for _, ar := range d.Arrows {
		clr := p.tone(app.ToneMuted).alpha(0.8)
		w := 1.3
		if ar.Hot {
			clr, w = p.tone(app.ToneAccent), 2.5
		}
		for i := 1; i < len(ar.Path); i++ {
			c.line(ar.Path[i-1], ar.Path[i], w, clr)
		}
		if n := len(ar.Path); n >= 2 {
			c.arrowHead(ar.Path[n-1], ar.Path[n-1].Sub(ar.Path[n-2]), 7, clr)
		}
		c.text(ar.Label, p.tone(ar.Label.Tone))
	}
	for _, b := range d.Boxes {
		fill := p.surface.mix(p.tone(b.Tone), 0.35)
		edge := p.tone(b.Tone).mix(p.onDisc, 0.3)
		w := 1.5
		if b.Hot {
			edge, w = p.tone(app.ToneAccent), 3
		}
		c.roundRect(b.Rect, 6, fill)
		c.roundRectLine(b.Rect, 6, w, edge)
		c.text(b.Label, p.tone(b.Label.Tone))
		c.text(b.Members, p.tone(b.Members.Tone))
	}
	c.text(d.Last, p.tone(d.Last.Tone))
	if d.Why.Text != "" {
		c.text(d.Why, p.tone(d.Why.Tone))
	}
}
