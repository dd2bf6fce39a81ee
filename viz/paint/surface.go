// Package paint turns an frame.Frame into shapes and text on a Surface: the
// one description of how raftlab looks (which colour, width, mark and
// order each part of a frame is drawn in), shared by every painter.
// Package draw's surface is Ebiten's GPU canvas; package svg's writes an
// SVG document. Neither decides anything about the picture: that stays
// here, so a poster and the live figure cannot drift apart.
package paint

import (
	"raftlab/viz"
	"raftlab/viz/frame"
	"raftlab/viz/palette"
)

// Surface is what a painter draws on, in logical pixels. Text is held
// back until Flush and drawn above the shapes before it.
type Surface interface {
	Rect(r viz.Rect, c palette.RGBA)
	RectLine(r viz.Rect, width float64, c palette.RGBA)
	RoundRect(r viz.Rect, rad float64, c palette.RGBA)
	RoundRectLine(r viz.Rect, rad, width float64, c palette.RGBA)
	Line(a, b viz.Point, width float64, c palette.RGBA)
	// Dashed draws a line as dashes of length dash with gaps of gap,
	// starting with a dash at a.
	Dashed(a, b viz.Point, width, dash, gap float64, c palette.RGBA)
	// DashedLink is Dashed for a link, which a surface may hold back
	// until FlushDashes.
	DashedLink(a, b viz.Point, width, dash, gap float64, c palette.RGBA)
	FlushDashes()
	Disc(p viz.Point, r float64, c palette.RGBA)
	Ring(p viz.Point, r, width float64, c palette.RGBA)
	// ArcFrom strokes the part of a circle from a fraction from of a turn
	// past straight up, clockwise, for a fraction frac of the turn.
	ArcFrom(p viz.Point, r, from, frac, width float64, c palette.RGBA)
	// Fan fills the convex polygon through pts; Outline strokes it.
	Fan(pts []viz.Point, c palette.RGBA)
	Outline(pts []viz.Point, width float64, c palette.RGBA)
	// Dot and DotRing are a message's disc and ring (small and many: a
	// surface may draw them from prepared images).
	Dot(p viz.Point, r float64, c palette.RGBA)
	DotRing(p viz.Point, r, width float64, c palette.RGBA)
	Text(t frame.TextItem, c palette.RGBA)
	// Flush draws the held-back text.
	Flush()
	// Smooth turns anti-aliasing on for the curves of the cluster (a
	// surface that always smooths may ignore it).
	Smooth(on bool)
	// Clip returns a surface that draws only inside r; Unclip flushes it
	// and goes back to this one.
	Clip(r viz.Rect) Surface
	Unclip(in Surface)
	// Measure is the width of s at size, as the app laid it out.
	Measure(s string, size float64) float64
}

// arrowHead draws a filled arrowhead with its tip at tip, pointing along
// dir.
func (d *Painter) arrowHead(tip, dir viz.Point, size float64, c palette.RGBA) {
	u := dir.Unit()
	side := u.Perp().Mul(size * 0.55)
	back := tip.Sub(u.Mul(size))
	d.S.Fan([]viz.Point{tip, back.Add(side), back.Sub(side)}, c)
}

// cross draws an ×.
func (d *Painter) cross(p viz.Point, r, width float64, c palette.RGBA) {
	d.S.Line(viz.Pt(p.X-r, p.Y-r), viz.Pt(p.X+r, p.Y+r), width, c)
	d.S.Line(viz.Pt(p.X-r, p.Y+r), viz.Pt(p.X+r, p.Y-r), width, c)
}

// texts writes each label in its own tone.
func (d *Painter) texts(ts ...frame.TextItem) {
	for _, t := range ts {
		d.S.Text(t, d.P.Tone(t.Tone))
	}
}

// widgets draws each control.
func (d *Painter) widgets(ws ...frame.Widget) {
	for _, w := range ws {
		d.widget(w)
	}
}
