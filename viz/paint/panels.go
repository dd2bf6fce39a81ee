package paint

import (
	"raftlab/viz"
	"raftlab/viz/frame"
	"raftlab/viz/palette"
)

func (d *Painter) card(r viz.Rect) {
	s, p := d.S, d.P
	s.RoundRect(viz.XYWH(r.X+1, r.Y+2, r.W, r.H), 8, p.Shadow)
	s.RoundRect(r, 8, p.Surface)
	s.RoundRectLine(r, 8, 1, p.Border)
}

// Panel paints one side panel, its body clipped to it.
func (d *Painter) Panel(pv *frame.PanelView) {
	s, p := d.S, d.P
	d.card(pv.Rect)
	s.Text(pv.Title, p.Tone(pv.Title.Tone))
	if pv.Folded {
		t := frame.TextItem{Text: "show ↓", X: pv.Rect.Right() - d.S.Measure("show ↓", 11) - 10, Y: pv.Title.Y + 2, Size: 11}
		s.Text(t, p.Tone(frame.ToneAccent))
		return
	}
	s.Flush()
	in := *d
	in.S = s.Clip(pv.Clip)
	for _, l := range pv.Lines {
		if l.Y+l.Size*1.4 < pv.Clip.Y || l.Y > pv.Clip.Bottom() {
			continue
		}
		in.S.Text(l, p.Tone(l.Tone))
	}
	for _, w := range pv.Widgets {
		if w.Rect.Bottom() < pv.Clip.Y || w.Rect.Y > pv.Clip.Bottom() {
			continue
		}
		in.widget(w)
	}
	if pv.Diagram != nil {
		in.diagram(pv.Diagram)
	}
	for _, g := range pv.Gauges {
		in.gauge(g)
	}
	s.Unclip(in.S)
	if pv.More {
		b := pv.Clip.Bottom()
		for k := 0; k < 10; k++ {
			s.Rect(viz.XYWH(pv.Clip.X, b-20+float64(k)*2, pv.Clip.W, 2), p.Surface.Alpha(float64(k)/10))
		}
		t := frame.TextItem{Text: "more below ↓", X: pv.Clip.Right() - d.S.Measure("more below ↓", 11) - 2, Y: b - 14, Size: 11}
		// A solid patch under the words, so that they never sit on a
		// line of the panel half faded out.
		s.Rect(viz.XYWH(t.X-8, b-16, pv.Clip.Right()-t.X+8, 16), p.Surface.Alpha(1))
		s.Text(t, p.Tone(frame.ToneAccent))
	}
}

// gauge draws a bar run full as far as its span has passed.
func (d *Painter) gauge(g frame.Gauge) {
	s, p := d.S, d.P
	r := g.Rect
	if r.W <= 0 || r.H <= 0 {
		return
	}
	c := p.Tone(g.Tone)
	s.RoundRect(r, r.H/2, c.Alpha(0.16).Mix(p.Surface, 0.2))
	if w := r.W * min(max(g.Fill, 0), 1); w > 0 {
		s.RoundRect(viz.XYWH(r.X, r.Y, max(w, r.H), r.H), r.H/2, c)
	}
	s.RoundRectLine(r, r.H/2, 1, c.Alpha(0.6))
}

// widget draws a control. A document without controls keeps only the
// chips and toggles, which show a setting.
func (d *Painter) widget(w frame.Widget) {
	s, p := d.S, d.P
	r := w.Rect
	setting := w.Kind == frame.WidgetChip || w.Kind == frame.WidgetToggle
	if (d.NoControls && !setting) || r.W <= 0 || r.H <= 0 {
		return
	}
	accent := p.Tone(frame.ToneAccent)
	white := palette.Hex(0xffffff)
	size := w.Size
	if size == 0 {
		size = 12
	}
	label := frame.TextItem{Text: w.Label, X: r.X + r.W/2, Y: r.Y + r.H/2, Size: size, Center: true}
	switch w.Kind {
	case frame.WidgetIcon:
		bg := p.Surface
		if w.On {
			bg = accent.Alpha(0.16).Mix(p.Surface, 0.2)
		}
		s.RoundRect(r, 7, bg)
		s.RoundRectLine(r, 7, 1, p.Border)
		d.icon(w.Icon, r, p.Tone(frame.ToneText))
		return
	case frame.WidgetTab:
		bg, fg := p.Surface, p.Tone(frame.ToneMuted)
		if w.On {
			bg, fg = accent, white
		}
		s.RoundRect(r, 7, bg)
		if !w.On {
			s.RoundRectLine(r, 7, 1, p.Border)
		}
		label.Bold = w.On
		s.Text(label, fg)
		return
	case frame.WidgetChip, frame.WidgetToggle:
		bg, fg, edge := p.Surface, p.Tone(frame.ToneText), p.Border
		if w.On {
			bg, fg, edge = accent, white, accent
		}
		s.RoundRect(r, r.H/2, bg)
		s.RoundRectLine(r, r.H/2, 1, edge)
		if w.Kind == frame.WidgetToggle {
			if w.On {
				label.Text = "✓ " + label.Text
			} else {
				label.Text = "– " + label.Text
			}
		}
		s.Text(label, fg)
		return
	}
	bg := accent.Alpha(0.1).Mix(p.Surface, 0.35)
	if w.On {
		bg = accent.Alpha(0.25)
	}
	s.RoundRect(r, 6, bg)
	s.RoundRectLine(r, 6, 1, accent.Alpha(0.7))
	s.Text(label, p.Tone(frame.ToneText))
}

func (d *Painter) toolbar(f *frame.Frame) {
	s, p := d.S, d.P
	d.widgets(f.Toolbar...)
	s.Text(f.Status, p.Tone(f.Status.Tone))
	sl := f.Speed
	if sl.Track.W <= 0 || d.NoControls {
		return
	}
	s.Text(sl.Label, p.Tone(sl.Label.Tone))
	s.RoundRect(sl.Track, 3, p.Border)
	fill := sl.Track
	fill.W *= sl.Frac
	s.RoundRect(fill, 3, p.Tone(frame.ToneAccent).Alpha(0.7))
	for _, v := range viz.NiceSpeeds() {
		x := sl.Track.X + viz.SliderPos(v)*sl.Track.W
		h := 3.0
		if v == 1 {
			h = 6
		}
		s.Line(viz.Pt(x, sl.Track.Bottom()+1), viz.Pt(x, sl.Track.Bottom()+1+h), 1, p.Tone(frame.ToneMuted))
	}
	k := viz.Pt(sl.Track.X+sl.Frac*sl.Track.W, sl.Track.Y+sl.Track.H/2)
	s.Disc(k, 8, p.Surface)
	s.Ring(k, 8, 2, p.Tone(frame.ToneAccent))
}

func (d *Painter) timeline(f *frame.Frame) {
	s, p := d.S, d.P
	t := f.Timeline
	if t.Rect.W <= 0 {
		return
	}
	s.Rect(t.Rect, p.Surface)
	s.Line(viz.Pt(t.Rect.X, t.Rect.Y), viz.Pt(t.Rect.Right(), t.Rect.Y), 1, p.Border)
	s.Text(t.Left, p.Tone(t.Left.Tone))
	s.Text(t.Right, p.Tone(t.Right.Tone))
	tr := t.Track
	s.RoundRect(tr, 4, p.Border.Alpha(0.6))
	head := tr
	head.W *= t.Head
	s.RoundRect(head, 4, p.Tone(frame.ToneAccent).Alpha(0.2))
	done := tr
	done.W *= t.Now
	s.RoundRect(done, 4, p.Tone(frame.ToneAccent).Alpha(0.45))
	for _, m := range t.Marks {
		h := 7.0
		if m.Major {
			h = 10
		}
		s.Line(viz.Pt(m.X, tr.Y+tr.H/2-h), viz.Pt(m.X, tr.Y+tr.H/2+h), 2, p.Tone(m.Tone))
	}
	x := tr.X + t.Now*tr.W
	s.Line(viz.Pt(x, tr.Y-8), viz.Pt(x, tr.Bottom()+8), 2.5, p.Tone(frame.ToneText))
	d.widgets(t.Buttons...)
}

// replay outlines the stage while it shows the recorded past.
func (d *Painter) replay(r *frame.ReplayView) {
	if r == nil {
		return
	}
	s, p := d.S, d.P
	edge := p.Tone(frame.ToneAccent)
	s.RoundRectLine(r.Stage, 8, 2, edge.Alpha(0.45))
	s.RoundRect(r.Rect, r.Rect.H/2, edge)
	s.Text(r.Text, p.BG)
}

func (d *Painter) banner(f *frame.Frame) {
	s, p := d.S, d.P
	b := f.Banner
	if b == nil {
		return
	}
	edge := p.Tone(frame.ToneAccent)
	if b.Tone == frame.ToneBad {
		edge = p.Tone(frame.ToneBad)
	}
	if b.InToolbar {
		s.RoundRect(b.Rect, 7, p.Surface.Mix(edge, 0.08))
		s.RoundRectLine(b.Rect, 7, 1, edge.Alpha(0.5))
	} else {
		d.card(b.Rect)
	}
	s.Rect(viz.XYWH(b.Rect.X, b.Rect.Y+6, 4, b.Rect.H-12), edge)
	d.texts(b.Lines...)
	if !d.NoControls {
		d.icon("close", b.Close.Rect, p.Tone(frame.ToneMuted))
	}
}

func (d *Painter) popover(m *frame.MenuView) {
	s, p := d.S, d.P
	if m == nil {
		return
	}
	d.card(m.Rect)
	s.RoundRectLine(m.Rect, 8, 1.5, p.Tone(frame.ToneAccent).Alpha(0.6))
	d.texts(m.Title)
	d.texts(m.Lines...)
	for _, r := range m.Rows {
		d.texts(r.Label)
		d.widgets(r.Widgets...)
	}
}

// help draws the help card over the whole w × h frame, dimmed.
func (d *Painter) help(h *frame.HelpView, w, ht float64) {
	if h == nil {
		return
	}
	d.S.Rect(viz.XYWH(0, 0, w, ht), d.P.BG.Alpha(0.6))
	d.card(h.Rect)
	d.texts(h.Title)
	d.texts(h.Lines...)
}

// legend draws the key to the marks: its button and, when open, its
// card, whose samples are drawn by the stage's own painters.
func (d *Painter) legend(f *frame.Frame) {
	s, p := d.S, d.P
	if f.Logs.Key.ID != "" {
		d.widget(f.Logs.Key)
	}
	l := f.Legend
	if l == nil {
		return
	}
	d.card(l.Rect)
	s.Text(l.Title, p.Tone(l.Title.Tone))
	if !d.NoControls {
		d.icon("close", l.CloseIcon, p.Tone(frame.ToneMuted))
	}
	for i := range l.Rows {
		r := &l.Rows[i]
		d.texts(r.Lines...)
		if r.Log != nil {
			d.logRow(r.Log)
			d.progress(r.Log)
		}
	}
	s.Flush()
	s.Smooth(true)
	for i := range l.Rows {
		r := &l.Rows[i]
		for j := range r.Nodes {
			d.node(&r.Nodes[j])
		}
		for j := range r.Msgs {
			d.message(&r.Msgs[j])
		}
	}
	s.Flush()
	s.Smooth(false)
}

func (d *Painter) tooltip(f *frame.Frame) {
	s, p := d.S, d.P
	t := f.Tooltip
	if t == nil {
		return
	}
	s.RoundRect(t.Rect, 5, p.Tone(frame.ToneText).Alpha(0.92))
	for _, l := range t.Lines {
		s.Text(l, p.BG)
	}
}

// diagram draws the role diagram.
func (d *Painter) diagram(dv *frame.DiagramView) {
	s, p := d.S, d.P
	for _, ar := range dv.Arrows {
		clr := p.Tone(frame.ToneMuted).Alpha(0.8)
		w := 1.3
		if ar.Hot {
			clr, w = p.Tone(frame.ToneAccent), 2.5
		}
		for i := 1; i < len(ar.Path); i++ {
			s.Line(ar.Path[i-1], ar.Path[i], w, clr)
		}
		if n := len(ar.Path); n >= 2 {
			d.arrowHead(ar.Path[n-1], ar.Path[n-1].Sub(ar.Path[n-2]), 7, clr)
		}
		s.Text(ar.Label, p.Tone(ar.Label.Tone))
	}
	for _, b := range dv.Boxes {
		fill := p.Surface.Mix(p.Tone(b.Tone), 0.35)
		edge := p.Tone(b.Tone).Mix(p.OnDisc, 0.3)
		w := 1.5
		if b.Hot {
			edge, w = p.Tone(frame.ToneAccent), 3
		}
		s.RoundRect(b.Rect, 6, fill)
		s.RoundRectLine(b.Rect, 6, w, edge)
		s.Text(b.Label, p.Tone(b.Label.Tone))
		if b.Label2.Text != "" {
			s.Text(b.Label2, p.Tone(b.Label2.Tone))
		}
		s.Text(b.Members, p.Tone(b.Members.Tone))
	}
	s.Text(dv.Last, p.Tone(dv.Last.Tone))
	if dv.Why.Text != "" {
		s.Text(dv.Why, p.Tone(dv.Why.Tone))
	}
}
