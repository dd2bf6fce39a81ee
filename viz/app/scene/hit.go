package scene

import (
	"math"
	"raftlab/viz"
	"raftlab/viz/app/view"
	"raftlab/viz/frame"
)

// KeySlop is how far around the key's button a press still hits it.
const KeySlop = 5.0

// WidgetAt is the control of frame f under p, topmost first: what a press
// there presses. Every press on a control is hit-tested here, against the
// frame as drawn.
func WidgetAt(f *frame.Frame, p viz.Point) (frame.Widget, bool) {
	if f.Help != nil {
		return frame.Widget{}, false
	}
	if f.Menu != nil {
		for w := range f.Menu.Widgets() {
			if w.Enabled && w.Rect.Contains(p) {
				return w, true
			}
		}
		if f.Menu.Rect.Contains(p) {
			return frame.Widget{}, false
		}
	}
	if f.Legend != nil && f.Legend.Close.Rect.Contains(p) {
		return f.Legend.Close, true
	}
	// The key's button is drawn small, to sit over the log rows without
	// hiding them; it answers a few pixels around it, for a fingertip.
	if f.Logs.Key.ID != "" && f.Logs.Key.Rect.Inset(-KeySlop).Contains(p) {
		return f.Logs.Key, true
	}
	if f.Banner != nil && f.Banner.Close.Rect.Contains(p) {
		return f.Banner.Close, true
	}
	if f.Caption != nil {
		for w := range f.Caption.Widgets() {
			if w.Enabled && w.Rect.Contains(p) {
				return w, true
			}
		}
	}
	for _, pv := range f.Panels {
		if !pv.Clip.Contains(p) && !pv.Folded {
			continue
		}
		for _, w := range pv.Widgets {
			if w.Enabled && w.Rect.Contains(p) {
				return w, true
			}
		}
	}
	for _, w := range f.Tabs {
		if w.Rect.Contains(p) {
			return w, true
		}
	}
	for _, w := range f.Toolbar {
		if w.Enabled && w.Rect.Contains(p) {
			return w, true
		}
	}
	for _, b := range f.Timeline.Buttons {
		if b.Rect.Contains(p) {
			return b, true
		}
	}
	return frame.Widget{}, false
}

// PanelAt is the panel of frame f that holds p.
func PanelAt(f *frame.Frame, p viz.Point) (viz.PanelKind, bool) {
	for _, pv := range f.Panels {
		if pv.Rect.Contains(p) {
			return pv.Kind, true
		}
	}
	return 0, false
}

// Dots appends the message dots of frame f on the wire (not those falling
// away, nor watch events, which are not Raft's messages and have no menu)
// to out, for hit tests.
func Dots(f *frame.Frame, out []viz.MessageDot) []viz.MessageDot {
	for _, m := range f.Messages {
		if m.Fall == 0 && m.ID != 0 {
			out = append(out, viz.MessageDot{ID: int64(m.ID), Pos: m.Pos})
		}
	}
	return out
}

// HoverAt is what the pointer at p is over in frame f, laid out by lay:
// a control, the open menu, a timeline mark, a log entry, a machine, a
// link or a message (dots are f's, from Dots).
func HoverAt(f *frame.Frame, lay *viz.Layout, p viz.Point, dots []viz.MessageDot) view.HoverTarget {
	if w, ok := WidgetAt(f, p); ok {
		return view.HoverTarget{Kind: "widget", Widget: w.ID}
	}
	if f.Menu != nil {
		// With a menu open, the reader is busy with it: hover text for
		// what lies around it would only cover it.
		if f.Menu.Rect.Contains(p) {
			return view.HoverTarget{Kind: "menu"}
		}
		return view.HoverTarget{}
	}
	if lay.Timeline.Contains(p) {
		if k, ok := markAt(f, p); ok {
			return view.HoverTarget{Kind: "mark", A: k}
		}
		return view.HoverTarget{}
	}
	if row := LogRowAt(lay, p); row >= 0 {
		if idx, ok := logIndexAt(f, row, p); ok {
			return view.HoverTarget{Kind: "entry", A: row, ID: idx}
		}
		if row < len(f.Logs.Rows) && f.Logs.Rows[row].Snap.Rect.Contains(p) {
			return view.HoverTarget{Kind: "snap", A: row}
		}
		return view.HoverTarget{}
	}
	h := lay.HitTest(p, dots, viz.HitOptions{})
	switch h.Kind {
	case viz.HitNode:
		if h.Node >= len(lay.Nodes) {
			return view.HoverTarget{Kind: "worker", A: h.Node}
		}
		return view.HoverTarget{Kind: "node", A: h.Node}
	case viz.HitLink:
		return view.HoverTarget{Kind: "link", A: h.Link.I, B: h.Link.J}
	case viz.HitMessage:
		return view.HoverTarget{Kind: "msg", ID: uint64(h.Msg)}
	}
	return view.HoverTarget{}
}

// markAt is the timeline mark of f nearest p within a few pixels.
func markAt(f *frame.Frame, p viz.Point) (int, bool) {
	best, bestD := -1, 5.0
	for k, m := range f.Timeline.Marks {
		if d := math.Abs(m.X - p.X); d <= bestD {
			best, bestD = k, d
		}
	}
	return best, best >= 0
}

// logIndexAt is the log index of the cell of row under p.
func logIndexAt(f *frame.Frame, row int, p viz.Point) (uint64, bool) {
	if row >= len(f.Logs.Rows) {
		return 0, false
	}
	for _, c := range f.Logs.Rows[row].Cells {
		if c.Rect.Contains(p) {
			return c.Index, true
		}
	}
	return 0, false
}
