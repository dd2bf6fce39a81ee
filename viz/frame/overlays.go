package frame

import "raftlab/viz"

// LegendView is the key to the marks on the stage: samples drawn by the
// same painters as the stage, each with a line saying what it means under
// the protocol and the words on screen.
type LegendView struct {
	Rect  viz.Rect
	Title TextItem
	// Close covers the whole card: a press anywhere on it closes it.
	// CloseIcon is where its cross is drawn.
	Close     Widget
	CloseIcon viz.Rect
	Rows      []LegendRow
}

// LegendRow is one sample and its words. A sample is a piece of a log
// row (Log), machines (Nodes) or messages (Msgs), drawn inside Sample.
type LegendRow struct {
	Sample viz.Rect
	Log    *LogRow
	Nodes  []NodeView
	Msgs   []MsgView
	Lines  []TextItem
}

// DiagramView is Raft's role diagram: a box per role holding the machines
// in it now, and an arrow per transition, the latest one lit.
type DiagramView struct {
	Boxes  []DiagramBox
	Arrows []DiagramArrow
	// Last says in words what the latest transition was, and Why what
	// caused it, on a line of its own where one line would not fit.
	Last, Why TextItem
}

// DiagramBox is one role.
type DiagramBox struct {
	Rect  viz.Rect
	Label TextItem
	// Label2 is the second line of a name too wide for its box (empty
	// when it fits on one).
	Label2  TextItem
	Members TextItem
	Tone    Tone
	Shape   Shape
	Dashed  bool
	Hot     bool // the latest transition ended here
}

// DiagramArrow is one transition: a path of straight pieces ending in an
// arrowhead, with its label.
type DiagramArrow struct {
	Path  []viz.Point
	Label TextItem
	Hot   bool
}

// ReplayView is the stage's mark while it shows the recorded past: the
// stage outlined, and a tag in the corner that hides least of it. The
// button back to the live end is on the timeline (idLive).
type ReplayView struct {
	Stage viz.Rect
	Rect  viz.Rect // the tag
	Text  TextItem
}

// Moved returns the diagram shifted by dx, dy.
func (d *DiagramView) Moved(dx, dy float64) *DiagramView {
	out := &DiagramView{Last: d.Last, Why: d.Why}
	out.Last.X += dx
	out.Last.Y += dy
	out.Why.X += dx
	out.Why.Y += dy
	for _, b := range d.Boxes {
		b.Rect.X += dx
		b.Rect.Y += dy
		b.Label.X += dx
		b.Label.Y += dy
		b.Label2.X += dx
		b.Label2.Y += dy
		b.Members.X += dx
		b.Members.Y += dy
		out.Boxes = append(out.Boxes, b)
	}
	for _, ar := range d.Arrows {
		path := make([]viz.Point, len(ar.Path))
		for i, p := range ar.Path {
			path[i] = viz.Pt(p.X+dx, p.Y+dy)
		}
		ar.Path = path
		ar.Label.X += dx
		ar.Label.Y += dy
		out.Arrows = append(out.Arrows, ar)
	}
	return out
}
