package paint

import (
	"math"

	"raftlab/viz"
	"raftlab/viz/frame"
	"raftlab/viz/palette"
)

// Painter paints frames onto a surface with a palette.
type Painter struct {
	S Surface
	P *palette.Palette
	// NoControls leaves out the frame's buttons, tabs and sliders, as a
	// poster does: a still picture cannot be pressed. Chips and toggles
	// are drawn either way, as they say which setting is shown.
	NoControls bool
}

// Frame paints the whole frame: the background, then Cluster, Logs, the
// panels and Chrome, each pass's text above its shapes.
func (d *Painter) Frame(f *frame.Frame) {
	d.S.Rect(viz.XYWH(0, 0, f.W, f.H), d.P.BG)
	d.Cluster(f)
	d.Logs(f)
	for i := range f.Panels {
		d.Panel(&f.Panels[i])
	}
	d.Chrome(f)
}

// Cluster paints the machines and the network, anti-aliased, and flushes.
func (d *Painter) Cluster(f *frame.Frame) {
	s, p := d.S, d.P
	s.Smooth(true)
	d.zones(f)
	d.workerLinks(&f.Workers)
	d.links(f)
	for i := range f.Messages {
		d.message(&f.Messages[i])
	}
	for i := range f.Nodes {
		if !f.Nodes[i].Hidden {
			d.node(&f.Nodes[i])
		}
	}
	d.workers(&f.Workers)
	d.ghost(f)
	for i := 1; i < len(f.Stroke); i++ {
		s.Line(f.Stroke[i-1], f.Stroke[i], 2.5, p.Tone(frame.ToneAccent).Alpha(0.8))
	}
	s.Flush()
	s.Smooth(false)
}

// Chrome paints the controls and everything over the stage: tabs,
// toolbar, timeline, replay tag, banner, caption, key, menu, help and
// tooltip.
func (d *Painter) Chrome(f *frame.Frame) {
	s := d.S
	d.widgets(f.Tabs...)
	d.toolbar(f)
	// The toolbar and the timeline are flushed apart, so that a surface
	// that notes where each batch drew sees two strips, not the screen.
	s.Flush()
	d.timeline(f)
	s.Flush()
	d.replay(f.Replay)
	s.Flush()
	d.banner(f)
	s.Flush()
	d.popover(f.Caption)
	s.Flush()
	d.legend(f)
	s.Flush()
	d.popover(f.Menu)
	s.Flush()
	d.help(f.Help, f.W, f.H)
	s.Flush()
	d.tooltip(f)
	s.Flush()
}

func (d *Painter) zones(f *frame.Frame) {
	s, p := d.S, d.P
	for _, z := range f.Zones {
		fill := p.Surface.Mix(p.BG, 0.3)
		edge := p.Border
		if z.Tone == frame.ToneGood || z.Tone == frame.ToneWarn {
			fill = p.Surface.Mix(p.Tone(z.Tone), 0.07)
			edge = p.Tone(z.Tone).Mix(p.Surface, 0.35)
		}
		if z.Hot {
			fill = p.Surface.Mix(p.Tone(frame.ToneAccent), 0.12)
			edge = p.Tone(frame.ToneAccent)
		}
		s.RoundRect(z.Rect, 10, fill)
		if z.Empty && !z.Hot {
			s.RoundRectLine(z.Rect, 10, 1.2, edge.Alpha(0.6))
		} else {
			s.RoundRectLine(z.Rect, 10, 1.5, edge)
		}
		s.Text(z.Label, p.Tone(z.Label.Tone))
	}
}

// linkLook is a link's colour and width: the accent, and wider, while the
// pointer is on it.
func (d *Painter) linkLook(l *frame.LinkView) (palette.RGBA, float64) {
	if l.Hot {
		return d.P.Tone(frame.ToneAccent), 3
	}
	return d.P.Link, 2
}

// cutColour is the colour of a cut link's dashes and scissors.
func (d *Painter) cutColour(l *frame.LinkView) palette.RGBA {
	if l.Hot {
		return d.P.Tone(frame.ToneAccent)
	}
	return d.P.LinkCut.Alpha(0.8)
}

func (d *Painter) links(f *frame.Frame) {
	s, p := d.S, d.P
	for i := range f.Links {
		l := &f.Links[i]
		base, w := d.linkLook(l)
		switch l.State {
		case frame.LinkUp:
			if l.Lossy || l.Slow {
				s.DashedLink(l.Seg.A, l.Seg.B, w*0.75, 6, 4, p.Tone(frame.ToneWarn).Mix(base, 0.3))
			} else {
				s.Line(l.Seg.A, l.Seg.B, w, base.Alpha(0.75))
			}
		case frame.LinkCut:
			if l.Faint {
				s.DashedLink(l.Seg.A, l.Seg.B, 1, 3, 7, p.LinkCut.Alpha(0.25))
				break
			}
			s.DashedLink(l.Seg.A, l.Seg.B, 1.5, 5, 5, d.cutColour(l))
		case frame.LinkOneWay:
			for k := 0; k < 2; k++ {
				lane := l.Lanes[k]
				if l.Up[k] {
					s.Line(lane.A, lane.B, w, p.Tone(frame.ToneWarn).Mix(base, 0.2))
				} else {
					s.DashedLink(lane.A, lane.B, 1.5, 5, 5, p.LinkCut.Alpha(0.8))
				}
			}
		}
	}
	s.FlushDashes()
	for i := range f.Links {
		l := &f.Links[i]
		switch {
		case l.State == frame.LinkCut && !l.Faint:
			d.scissors(l.Seg.At(0.5), l.Seg.B.Sub(l.Seg.A), d.cutColour(l))
		case l.State == frame.LinkOneWay:
			for k := 0; k < 2; k++ {
				lane := l.Lanes[k]
				if l.Up[k] {
					d.arrowHead(lane.At(0.62), lane.B.Sub(lane.A), 11, p.Tone(frame.ToneWarn))
				} else {
					d.cross(lane.At(0.5), 4, 1.8, p.LinkCut)
				}
			}
		}
		if l.Label.Text != "" {
			d.halo(l.Label)
			s.Text(l.Label, p.Tone(l.Label.Tone))
		}
	}
}

func (d *Painter) scissors(at, dir viz.Point, clr palette.RGBA) {
	s := d.S
	u := dir.Unit()
	n := u.Perp()
	s.Disc(at, 9, d.P.BG)
	a1, a2 := at.Add(n.Mul(7)).Add(u.Mul(3)), at.Sub(n.Mul(7)).Add(u.Mul(3))
	b1, b2 := at.Add(n.Mul(3)).Sub(u.Mul(5)), at.Sub(n.Mul(3)).Sub(u.Mul(5))
	s.Line(b1, a2, 1.8, clr)
	s.Line(b2, a1, 1.8, clr)
	s.Ring(b1.Sub(u.Mul(2)), 2.4, 1.5, clr)
	s.Ring(b2.Sub(u.Mul(2)), 2.4, 1.5, clr)
}

// halo puts a soft background behind text so it reads over lines.
func (d *Painter) halo(t frame.TextItem) {
	w := d.S.Measure(t.Text, t.Size) + 6
	h := t.Size + 4
	x, y := t.X-3, t.Y-2
	if t.Center {
		x, y = t.X-w/2, t.Y-h/2
	}
	d.S.RoundRect(viz.XYWH(x, y, w, h), 4, d.P.BG.Alpha(0.85))
}

// message draws a message on the wire, or one falling away.
func (d *Painter) message(m *frame.MsgView) {
	s, p := d.S, d.P
	clr := p.Tone(m.Tone)
	if m.Fall > 0 {
		k := math.Min(m.Fall, 1)
		pos := viz.Pt(m.Pos.X+k*6, m.Pos.Y+k*k*36)
		d.cross(pos, m.R*0.9, 2, clr.Alpha(1-k))
		if m.Label.Text != "" {
			// Why it fell (a request ignored on arrival), fading with it.
			s.Text(m.Label, p.Tone(m.Label.Tone).Alpha(1-k))
		}
		return
	}
	if m.Selected {
		s.Ring(m.Pos, m.R+4, 2, p.Tone(frame.ToneAccent))
	}
	if m.Hollow {
		s.Dot(m.Pos, m.R, p.BG)
		s.DotRing(m.Pos, m.R-0.8, 2, clr)
		if m.Reject {
			d.cross(m.Pos, m.R*0.45, 1.5, clr)
		}
	} else {
		s.Dot(m.Pos, m.R, clr)
	}
	if m.Label.Text != "" {
		s.Text(m.Label, p.Tone(m.Label.Tone))
	}
}
