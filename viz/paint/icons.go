package paint

import (
	"math"

	"raftlab/viz"
	"raftlab/viz/frame"
	"raftlab/viz/palette"
)

// icon draws a toolbar icon centred in r.
func (d *Painter) icon(name string, r viz.Rect, clr palette.RGBA) {
	sf := d.S
	m := r.Center()
	s := math.Min(r.W, r.H) * 0.22
	tri := func(cx float64, dir float64) {
		sf.Fan([]viz.Point{viz.Pt(cx-s*0.8*dir, m.Y-s), viz.Pt(cx+s*0.8*dir, m.Y), viz.Pt(cx-s*0.8*dir, m.Y+s)}, clr)
	}
	bar := func(x float64) {
		sf.Rect(viz.XYWH(x-s*0.18, m.Y-s, s*0.36, 2*s), clr)
	}
	switch name {
	case "play":
		tri(m.X+s*0.15, 1)
	case "pause":
		bar(m.X - s*0.45)
		bar(m.X + s*0.45)
	case "step":
		tri(m.X-s*0.3, 1)
		bar(m.X + s*0.75)
	case "back":
		tri(m.X+s*0.3, -1)
		bar(m.X - s*0.75)
	case "prev":
		tri(m.X-s*0.1, -1)
		tri(m.X+s*0.9, -1)
		bar(m.X - s*1.1)
	case "next":
		tri(m.X+s*0.1, 1)
		tri(m.X-s*0.9, 1)
		bar(m.X + s*1.1)
	case "write":
		sf.RoundRectLine(viz.XYWH(m.X-s*0.85, m.Y-s*1.1, s*1.7, s*2.2), 2, 1.6, clr)
		sf.Line(viz.Pt(m.X-s*0.45, m.Y), viz.Pt(m.X+s*0.45, m.Y), 1.8, clr)
		sf.Line(viz.Pt(m.X, m.Y-s*0.45), viz.Pt(m.X, m.Y+s*0.45), 1.8, clr)
	case "heal":
		sf.RoundRectLine(viz.XYWH(m.X-s*1.3, m.Y-s*0.5, s*1.5, s), s*0.5, 1.8, clr)
		sf.RoundRectLine(viz.XYWH(m.X-s*0.2, m.Y-s*0.5, s*1.5, s), s*0.5, 1.8, clr)
	case "resume":
		sf.ArcFrom(m, s*0.95, -0.15, 0.72, 1.8, clr)
		a := 2*math.Pi*0.57 - math.Pi/2
		tip := viz.Pt(m.X+s*0.95*math.Cos(a), m.Y+s*0.95*math.Sin(a))
		d.arrowHead(tip.Add(viz.Pt(math.Cos(a+math.Pi/2), math.Sin(a+math.Pi/2)).Mul(-s*0.2)), viz.Pt(math.Cos(a-math.Pi/2), math.Sin(a-math.Pi/2)), s*0.8, clr)
	case "help":
		sf.Text(frame.TextItem{Text: "?", X: m.X, Y: m.Y, Size: s * 3.2, Center: true, Bold: true}, clr)
	case "menu":
		for _, dy := range []float64{-0.7, 0, 0.7} {
			sf.Line(viz.Pt(m.X-s, m.Y+dy*s), viz.Pt(m.X+s, m.Y+dy*s), 2, clr)
		}
	case "close":
		d.cross(m, s*0.8, 1.8, clr)
	default:
		sf.Text(frame.TextItem{Text: name, X: m.X, Y: m.Y, Size: 10, Center: true}, clr)
	}
}
