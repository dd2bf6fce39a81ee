package svg

import (
	"bytes"
	"fmt"
	"math"
	"strconv"

	"raftlab/viz"
	"raftlab/viz/fonts"
	"raftlab/viz/paint"
	"raftlab/viz/palette"
)

func channel(v float32) int {
	return int(math.Max(0, math.Min(255, math.Round(float64(v)*255))))
}

// colour is c as SVG attributes: attr="#rrggbb", and its opacity
// when not opaque.
func colour(c palette.RGBA, attr string) string {
	s := fmt.Sprintf(`%s="#%02x%02x%02x"`, attr, channel(c.R), channel(c.G), channel(c.B))
	if c.A < 1 {
		s += fmt.Sprintf(` %s-opacity="%s"`, attr, num(math.Max(float64(c.A), 0)))
	}
	return s
}

// num writes a coordinate with at most two decimals, so that the same
// frame always gives the same text.
func num(v float64) string {
	s := strconv.FormatFloat(math.Round(v*100)/100, 'f', -1, 64)
	if s == "-0" {
		return "0"
	}
	return s
}

// canvas writes shapes into a document. Text is held back until the
// pass ends (flush), above the pass's shapes, as package draw does.
type canvas struct {
	out   *bytes.Buffer
	texts bytes.Buffer
	clips int
}

func (c *canvas) printf(format string, args ...any) { fmt.Fprintf(c.out, format, args...) }

// flush writes the text held back.
func (c *canvas) Flush() {
	c.out.Write(c.texts.Bytes())
	c.texts.Reset()
}

func (c *canvas) Rect(r viz.Rect, clr palette.RGBA) {
	if r.W <= 0 || r.H <= 0 || clr.A <= 0 {
		return
	}
	c.printf(`<rect x="%s" y="%s" width="%s" height="%s" %s/>`+"\n", num(r.X), num(r.Y), num(r.W), num(r.H), colour(clr, "fill"))
}

// radius is rad within what the rectangle allows.
func radius(r viz.Rect, rad float64) float64 { return math.Max(math.Min(rad, math.Min(r.W, r.H)/2), 0) }

func (c *canvas) RoundRect(r viz.Rect, rad float64, clr palette.RGBA) {
	if r.W <= 0 || r.H <= 0 || clr.A <= 0 {
		return
	}
	rad = radius(r, rad)
	c.printf(`<rect x="%s" y="%s" width="%s" height="%s" rx="%s" %s/>`+"\n", num(r.X), num(r.Y), num(r.W), num(r.H), num(rad), colour(clr, "fill"))
}

func (c *canvas) RoundRectLine(r viz.Rect, rad, width float64, clr palette.RGBA) {
	if r.W <= 0 || r.H <= 0 || clr.A <= 0 {
		return
	}
	rad = radius(r, rad)
	c.printf(`<rect x="%s" y="%s" width="%s" height="%s" rx="%s" fill="none" %s stroke-width="%s"/>`+"\n",
		num(r.X), num(r.Y), num(r.W), num(r.H), num(rad), colour(clr, "stroke"), num(width))
}

func (c *canvas) RectLine(r viz.Rect, width float64, clr palette.RGBA) {
	c.RoundRectLine(r, 0, width, clr)
}

func (c *canvas) Line(a, b viz.Point, width float64, clr palette.RGBA) {
	if a.Dist(b) == 0 || clr.A <= 0 {
		return
	}
	c.printf(`<line x1="%s" y1="%s" x2="%s" y2="%s" %s stroke-width="%s"/>`+"\n",
		num(a.X), num(a.Y), num(b.X), num(b.Y), colour(clr, "stroke"), num(width))
}

// dashed draws a line as dashes of length dash with gaps of gap, starting
// with a dash at a.
func (c *canvas) Dashed(a, b viz.Point, width, dash, gap float64, clr palette.RGBA) {
	if a.Dist(b) == 0 || clr.A <= 0 {
		return
	}
	c.printf(`<line x1="%s" y1="%s" x2="%s" y2="%s" %s stroke-width="%s" stroke-dasharray="%s %s"/>`+"\n",
		num(a.X), num(a.Y), num(b.X), num(b.Y), colour(clr, "stroke"), num(width), num(dash), num(gap))
}

func (c *canvas) Disc(p viz.Point, r float64, clr palette.RGBA) {
	if r <= 0 || clr.A <= 0 {
		return
	}
	c.printf(`<circle cx="%s" cy="%s" r="%s" %s/>`+"\n", num(p.X), num(p.Y), num(r), colour(clr, "fill"))
}

func (c *canvas) Ring(p viz.Point, r, width float64, clr palette.RGBA) {
	if r <= 0 || clr.A <= 0 {
		return
	}
	c.printf(`<circle cx="%s" cy="%s" r="%s" fill="none" %s stroke-width="%s"/>`+"\n", num(p.X), num(p.Y), num(r), colour(clr, "stroke"), num(width))
}

// arcFrom strokes the part of a circle starting a fraction from of a turn
// past straight up, clockwise, for a fraction frac of the turn.
func (c *canvas) ArcFrom(p viz.Point, r, from, frac, width float64, clr palette.RGBA) {
	frac = math.Min(frac, 1)
	if frac <= 0 || r <= 0 || clr.A <= 0 {
		return
	}
	if frac >= 1 {
		c.Ring(p, r, width, clr)
		return
	}
	a0 := -math.Pi/2 + 2*math.Pi*from
	a1 := a0 + 2*math.Pi*frac
	large := 0
	if frac > 0.5 {
		large = 1
	}
	c.printf(`<path d="M%s %sA%s %s 0 %d 1 %s %s" fill="none" %s stroke-width="%s"/>`+"\n",
		num(p.X+r*math.Cos(a0)), num(p.Y+r*math.Sin(a0)), num(r), num(r), large,
		num(p.X+r*math.Cos(a1)), num(p.Y+r*math.Sin(a1)), colour(clr, "stroke"), num(width))
}

func points(pts []viz.Point) string {
	var b bytes.Buffer
	for i, p := range pts {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(num(p.X) + "," + num(p.Y))
	}
	return b.String()
}

// fan fills the polygon through pts.
func (c *canvas) Fan(pts []viz.Point, clr palette.RGBA) {
	if len(pts) < 3 || clr.A <= 0 {
		return
	}
	c.printf(`<polygon points="%s" %s/>`+"\n", points(pts), colour(clr, "fill"))
}

// outline strokes the closed outline through pts.
func (c *canvas) Outline(pts []viz.Point, width float64, clr palette.RGBA) {
	if len(pts) < 2 || clr.A <= 0 {
		return
	}
	c.printf(`<polygon points="%s" fill="none" %s stroke-width="%s"/>`+"\n", points(pts), colour(clr, "stroke"), num(width))
}

// Clip opens a group drawn only inside r; Unclip writes the text held
// back inside it and closes it. The SVG canvas draws in place, so the
// clipped surface is the canvas itself.
func (c *canvas) Clip(r viz.Rect) paint.Surface {
	c.clips++
	c.printf(`<clipPath id="clip%d"><rect x="%s" y="%s" width="%s" height="%s"/></clipPath><g clip-path="url(#clip%d)">`+"\n",
		c.clips, num(r.X), num(r.Y), num(r.W), num(r.H), c.clips)
	return c
}

func (c *canvas) Unclip(paint.Surface) {
	c.Flush()
	c.out.WriteString("</g>\n")
}

// DashedLink is Dashed: a document needs no batching.
func (c *canvas) DashedLink(a, b viz.Point, width, dash, gap float64, clr palette.RGBA) {
	c.Dashed(a, b, width, dash, gap, clr)
}

func (c *canvas) FlushDashes() {}

// Dot and DotRing are Disc and Ring.
func (c *canvas) Dot(p viz.Point, r float64, clr palette.RGBA) { c.Disc(p, r, clr) }

func (c *canvas) DotRing(p viz.Point, r, width float64, clr palette.RGBA) { c.Ring(p, r, width, clr) }

// Smooth does nothing: every shape in a document is smooth.
func (c *canvas) Smooth(bool) {}

// Measure measures as the app does in the browser.
func (c *canvas) Measure(s string, size float64) float64 { return fonts.Measure(s, size) }
