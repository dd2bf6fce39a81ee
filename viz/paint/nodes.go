package paint

import (
	"raftlab/viz"
	"raftlab/viz/frame"
	"raftlab/viz/palette"
)

func (d *Painter) shape(n *frame.NodeView, at viz.Point, r float64, fill, edge palette.RGBA, width float64) {
	s := d.S
	switch n.Shape {
	case frame.ShapeSquare:
		h := r * 0.9
		box := viz.XYWH(at.X-h, at.Y-h, 2*h, 2*h)
		s.RoundRect(box, r*0.25, fill)
		s.RoundRectLine(box, r*0.25, width, edge)
	case frame.ShapeDiamond:
		k := r * 1.12
		pts := []viz.Point{viz.Pt(at.X, at.Y-k), viz.Pt(at.X+k, at.Y), viz.Pt(at.X, at.Y+k), viz.Pt(at.X-k, at.Y)}
		s.Fan(pts, fill)
		if n.Dashed {
			for i := range pts {
				s.Dashed(pts[i], pts[(i+1)%4], width, 5, 4, edge)
			}
		} else {
			s.Outline(pts, width, edge)
		}
	default:
		s.Disc(at, r, fill)
		s.Ring(at, r, width, edge)
	}
}

// node draws a machine with its rings, votes, words and badges.
func (d *Painter) node(n *frame.NodeView) {
	s, p := d.S, d.P
	fill := p.Tone(n.Tone)
	edge := fill.Mix(p.OnDisc, 0.45)
	if n.Pulse > 0 && n.Pulse < 1 {
		s.Ring(n.Center, n.R*(1.05+0.55*n.Pulse), 2.5*(1-n.Pulse)+0.5, p.Tone(frame.ToneLeader).Alpha(0.7*(1-n.Pulse)))
	}
	if n.Timer >= 0 {
		s.Ring(n.Center, n.R+5, 3, p.Border.Alpha(0.8))
		s.ArcFrom(n.Center, n.R+5, 0, n.Timer, 3, p.Tone(n.TimerTone))
	}
	if n.Selected {
		s.Ring(n.Center, n.R+10, 2.5, p.Tone(frame.ToneAccent))
	}
	if n.Highlight && !n.Selected {
		for k := 0; k < 24; k += 2 {
			s.ArcFrom(n.Center, n.R+10, float64(k)/24, 1.0/24, 2, p.Tone(frame.ToneAccent).Alpha(0.8))
		}
	}
	d.shape(n, n.Center, n.R, fill, edge, 2.5)
	for _, v := range n.Votes {
		if v.Granted {
			s.Disc(v.Pos, 4, p.Tone(frame.ToneGood))
			s.Ring(v.Pos, 4, 1, p.OnDisc.Alpha(0.6))
		} else {
			d.cross(v.Pos, 3, 1.6, p.Tone(frame.ToneBad))
		}
	}
	nameClr := p.OnDisc
	switch {
	case n.Crashed:
		nameClr = palette.Hex(0xe6e9ef)
		d.cross(n.Center, n.R*0.62, 3, p.Tone(frame.ToneBad).Alpha(0.9))
	case n.Paused:
		bw, bh := n.R*0.16, n.R*0.5
		y := n.Center.Y + n.R*0.22
		s.Rect(viz.XYWH(n.Center.X-bw*1.8, y, bw, bh), p.OnDisc.Alpha(0.55))
		s.Rect(viz.XYWH(n.Center.X+bw*0.8, y, bw, bh), p.OnDisc.Alpha(0.55))
	}
	name := n.Name
	if n.Paused {
		name.Y -= n.R * 0.18
	}
	s.Text(name, nameClr)
	for _, l := range n.Lines {
		d.halo(l)
		s.Text(l, p.Tone(l.Tone))
	}
	for _, b := range n.Badges {
		w := d.S.Measure(b.Text, b.Size) + 10
		box := viz.XYWH(b.X-w/2, b.Y-b.Size/2-3, w, b.Size+6)
		s.RoundRect(box, 5, p.Tone(b.Tone).Alpha(0.16).Mix(p.BG, 0.2))
		s.RoundRectLine(box, 5, 1, p.Tone(b.Tone))
		s.Text(b, p.Tone(b.Tone))
	}
}

func (d *Painter) ghost(f *frame.Frame) {
	s, p := d.S, d.P
	g := f.Ghost
	if g == nil || g.Node >= len(f.Nodes) {
		return
	}
	n := f.Nodes[g.Node]
	if g.WouldIsolate {
		s.Ring(g.Pos, g.R+9, 2, p.LinkCut)
		t := frame.TextItem{Text: "drop to cut it off", X: g.Pos.X, Y: g.Pos.Y + g.R + 16, Size: 12, Center: true, Bold: true}
		d.halo(t)
		s.Text(t, p.LinkCut)
	}
	d.shape(&n, g.Pos, g.R, p.Tone(n.Tone).Alpha(0.8), p.OnDisc.Alpha(0.5), 2)
	n.Name.X, n.Name.Y = g.Pos.X, g.Pos.Y
	s.Text(n.Name, p.OnDisc)
}

// Logs paints the log strips, and flushes.
func (d *Painter) Logs(f *frame.Frame) {
	s, p := d.S, d.P
	L := &f.Logs
	if !L.Card.Empty() {
		d.card(L.Card)
		d.texts(L.Title)
		d.texts(L.Notes...)
	}
	d.texts(L.Header...)
	s.Text(L.Before, p.Tone(L.Before.Tone))
	s.Text(L.After, p.Tone(L.After.Tone))
	for i := range L.Rows {
		r := &L.Rows[i]
		bg := p.Surface
		if r.Selected {
			bg = p.Tone(frame.ToneAccent).Alpha(0.12).Mix(p.Surface, 0.3)
		}
		s.Rect(r.Strip, bg)
		tag := r.Label
		s.RoundRect(tag, 4, p.Tone(r.Tone).Alpha(0.9))
		name := r.Name
		name.X, name.Y, name.Center = tag.X+tag.W/2, tag.Y+tag.H/2, true
		s.Text(name, p.OnDisc)
		d.logRow(r)
	}
	// The leader's marks after every row: a bar in the gap under one row
	// is not then covered by the next row's strip where rows sit close.
	for i := range L.Rows {
		d.progress(&L.Rows[i])
	}
	s.Flush()
}

// logRow draws a log row's cells and its markers.
func (d *Painter) logRow(r *frame.LogRow) {
	s, p := d.S, d.P
	if !r.Snap.Rect.Empty() {
		d.snapBlock(&r.Snap)
	}
	for _, cell := range r.Cells {
		col := p.Term(cell.Color)
		if cell.Committed {
			s.Rect(cell.Rect, col)
		} else {
			s.Rect(cell.Rect, p.Surface)
			s.RectLine(cell.Rect.Inset(0.75), 1.5, col.Mix(p.OnDisc, 0.25))
		}
		if cell.Conflict {
			s.Line(viz.Pt(cell.Rect.X, cell.Rect.Bottom()-1), viz.Pt(cell.Rect.Right(), cell.Rect.Bottom()-1), 2, p.LinkCut)
		}
		if cell.Text != "" {
			size := min(cell.Rect.H*0.68, 12)
			s.Text(frame.TextItem{Text: cell.Text, X: cell.Rect.X + cell.Rect.W/2, Y: cell.Rect.Y + cell.Rect.H/2, Size: size, Center: true}, p.TermText)
		}
	}
	if r.Faded {
		s.Rect(r.Strip, p.BG.Alpha(0.45))
	}
	top, bot := r.Strip.Y-1, r.Strip.Bottom()+1
	if r.CommitX >= 0 {
		s.Line(viz.Pt(r.CommitX, top), viz.Pt(r.CommitX, bot), 2.5, p.Tone(frame.ToneGood))
	}
	if r.AppliedX >= 0 {
		s.Fan([]viz.Point{viz.Pt(r.AppliedX-4, bot+3), viz.Pt(r.AppliedX+4, bot+3), viz.Pt(r.AppliedX, bot-2)}, p.Tone(frame.ToneGood))
	}
}

// snapBlock paints a row's compacted prefix as a stack: a filled block
// in the snapshot's colour with the edges of two more behind it, so that
// it reads as many entries folded into one, unlike any cell.
func (d *Painter) snapBlock(b *frame.LogSnap) {
	s, p := d.S, d.P
	col := p.Tone(frame.ToneSnap)
	r := b.Rect
	for k := float32(2); k >= 1; k-- {
		o := float64(k)
		back := viz.XYWH(r.X+2*o, r.Y-1.5*o, r.W-2*o, r.H)
		s.RoundRect(back, 3, col.Mix(p.Surface, 0.35*k))
	}
	s.RoundRect(viz.XYWH(r.X, r.Y, r.W, r.H), 3, col)
	// The surface's colour reads on the snapshot's in both themes.
	s.Text(b.Text, p.Surface)
}

// progress paints the leader's view of a follower on its log row, to be
// read at a glance: a bar under the entries the leader knows the follower
// holds (up to its match index), and an arrowhead
// pointing into the cell where the leader's next append starts (its next
// index), outlined so that it shows on any entry.
func (d *Painter) progress(r *frame.LogRow) {
	s, p := d.S, d.P
	leader := p.Tone(frame.ToneLeader)
	top, bot := r.Strip.Y, r.Strip.Bottom()
	if r.MatchX >= 0 {
		y := bot + 1.8
		s.Line(viz.Pt(r.Strip.X+1, y), viz.Pt(r.MatchX-1, y), 3, leader)
	}
	if r.NextX >= 0 {
		h := min(r.Strip.H*0.36, 8)
		mid := top + r.Strip.H/2
		tip := []viz.Point{viz.Pt(r.NextX+1, mid-h), viz.Pt(r.NextX+1, mid+h), viz.Pt(r.NextX+1+1.2*h, mid)}
		s.Fan(tip, leader)
		s.Outline(tip, 1.2, p.Surface)
	}
}
