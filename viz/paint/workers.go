package paint

import (
	"raftlab/viz/frame"
)

// workerLinks draws the links between the members and the worker
// machines: thin and pale, as there are many; a cut one dashed.
func (d *Painter) workerLinks(wv *frame.WorkersView) {
	s, p := d.S, d.P
	for i := range wv.Links {
		l := &wv.Links[i]
		if l.Hot {
			// Crossed by the cut stroke under way.
			s.Line(l.Seg.A, l.Seg.B, 2, p.Tone(frame.ToneAccent))
			continue
		}
		switch l.State {
		case frame.LinkUp:
			s.Line(l.Seg.A, l.Seg.B, 1, p.Link.Alpha(0.3))
		case frame.LinkCut:
			s.DashedLink(l.Seg.A, l.Seg.B, 1, 3, 5, p.LinkCut.Alpha(0.45))
		case frame.LinkOneWay:
			for k := 0; k < 2; k++ {
				lane := l.Lanes[k]
				if l.Up[k] {
					s.Line(lane.A, lane.B, 1, p.Tone(frame.ToneWarn).Alpha(0.5))
				} else {
					s.DashedLink(lane.A, lane.B, 1, 3, 5, p.LinkCut.Alpha(0.45))
				}
			}
		}
	}
	s.FlushDashes()
}

// workers draws the worker machines' band: its label and the control
// plane's, and each worker's box, edged in its condition's colour (a
// crashed one greyed, a paused one in the paused colour), with its name
// and lines.
func (d *Painter) workers(wv *frame.WorkersView) {
	s, p := d.S, d.P
	if len(wv.Boxes) == 0 {
		return
	}
	d.texts(wv.Label, wv.Control)
	for i := range wv.Boxes {
		b := &wv.Boxes[i]
		edge := p.Tone(b.Tone)
		fill := p.Surface.Mix(edge, 0.1)
		switch {
		case b.Crashed:
			edge = p.Tone(frame.ToneDown)
			fill = p.Surface.Mix(edge, 0.15)
		case b.Paused:
			edge = p.Tone(frame.TonePaused)
			fill = p.Surface.Mix(edge, 0.12)
		}
		s.RoundRect(b.Rect, 4, fill)
		width := 1.5
		if b.Selected {
			width = 3
			edge = p.Tone(frame.ToneAccent)
		}
		s.RoundRectLine(b.Rect, 4, width, edge)
		d.texts(b.Name, b.Lines[0], b.Lines[1])
	}
}
