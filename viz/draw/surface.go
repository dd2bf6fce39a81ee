package draw

import (
	"raftlab/viz"
	"raftlab/viz/frame"
	"raftlab/viz/paint"
	colors "raftlab/viz/palette"
)

// The canvas is a paint.Surface: package paint decides how a frame looks
// (and draws the SVG posters with the same decisions); the canvas turns
// its shapes into batched triangles.

type textItem = frame.TextItem

// painter paints with the canvas and palette p. Each pass of a frame is
// one batch of shapes with its text on top. Only the cluster, with its
// circles and slanted lines, is anti-aliased; the rest is mostly upright
// rectangles, which do not need it.
func (c *canvas) painter(p *palette) paint.Painter { return paint.Painter{S: c, P: p.Palette} }

// paintPanel draws one panel.
func (c *canvas) paintPanel(pv *frame.PanelView, p *palette) {
	pt := c.painter(p)
	pt.Panel(pv)
}

func toF(c colors.RGBA) colorF { return colorF{c.R, c.G, c.B, c.A} }

func (c *canvas) Rect(r viz.Rect, clr colors.RGBA)                   { c.rect(r, toF(clr)) }
func (c *canvas) RectLine(r viz.Rect, w float64, clr colors.RGBA)    { c.rectLine(r, w, toF(clr)) }
func (c *canvas) RoundRect(r viz.Rect, rad float64, clr colors.RGBA) { c.roundRect(r, rad, toF(clr)) }
func (c *canvas) RoundRectLine(r viz.Rect, rad, w float64, clr colors.RGBA) {
	c.roundRectLine(r, rad, w, toF(clr))
}
func (c *canvas) Line(a, b viz.Point, w float64, clr colors.RGBA) { c.line(a, b, w, toF(clr)) }
func (c *canvas) Dashed(a, b viz.Point, w, dash, gap float64, clr colors.RGBA) {
	c.dashed(a, b, w, dash, gap, toF(clr))
}
func (c *canvas) DashedLink(a, b viz.Point, w, dash, gap float64, clr colors.RGBA) {
	c.dashedLink(a, b, w, dash, gap, toF(clr))
}
func (c *canvas) FlushDashes()                                    { c.flushDashes() }
func (c *canvas) Disc(p viz.Point, r float64, clr colors.RGBA)    { c.disc(p, r, toF(clr)) }
func (c *canvas) Ring(p viz.Point, r, w float64, clr colors.RGBA) { c.ring(p, r, w, toF(clr)) }
func (c *canvas) ArcFrom(p viz.Point, r, from, frac, w float64, clr colors.RGBA) {
	c.arcFrom(p, r, from, frac, w, toF(clr))
}
func (c *canvas) Fan(pts []viz.Point, clr colors.RGBA)                { c.fan(pts, toF(clr)) }
func (c *canvas) Outline(pts []viz.Point, w float64, clr colors.RGBA) { c.outline(pts, w, toF(clr)) }

// Dot and DotRing draw a message from the sprite sheet.
func (c *canvas) Dot(p viz.Point, r float64, clr colors.RGBA) {
	c.sprite(spriteDisc, p, r, 0, toF(clr))
}
func (c *canvas) DotRing(p viz.Point, r, w float64, clr colors.RGBA) {
	c.sprite(spriteRing, p, r, w, toF(clr))
}
func (c *canvas) Text(t frame.TextItem, clr colors.RGBA) { c.text(t, toF(clr)) }
func (c *canvas) Flush()                                 { c.flush() }
func (c *canvas) Smooth(on bool)                         { c.aa = on }
func (c *canvas) Measure(s string, size float64) float64 { return Measure(s, size) }

// Clip returns a canvas that draws only inside r; Unclip flushes it and
// counts its calls.
func (c *canvas) Clip(r viz.Rect) paint.Surface { return c.clip(r) }
func (c *canvas) Unclip(s paint.Surface) {
	in := s.(*canvas)
	in.flush()
	c.calls += in.calls
	c.verts += in.verts
}
