package frame

import (
	"fmt"

	"raftlab/viz"
)

// Overflows lists the words of frame f that do not show whole where they
// are drawn: text running out of its box or off the canvas, a label wider
// than its control, a name wider than its machine's disc. measure is the
// width of a text at a size in the host's font. Empty means every word
// shows whole; a panel that says it continues below (More) may cut its
// last line, which scrolling shows.
func (f *Frame) Overflows(measure func(string, float64) float64) []string {
	c := &fitCheck{measure: measure}
	canvas := viz.XYWH(0, 0, f.W, f.H)
	for _, w := range f.Toolbar {
		c.widget("toolbar", w, canvas)
	}
	c.text("status", f.Status, canvas)
	if f.Logs.Key.ID != "" {
		c.widget("logs", f.Logs.Key, canvas)
	}
	if l := f.Legend; l != nil {
		c.legend(l, canvas)
	}
	for _, m := range []*MenuView{f.Caption, f.Menu} {
		if m != nil {
			c.menu(m)
		}
	}
	for _, p := range f.Panels {
		c.panel(p, canvas)
	}
	for _, n := range f.Nodes {
		c.node(n, canvas, f.Logs.Rect)
	}
	for _, z := range f.Zones {
		c.text("zone", z.Label, z.Rect)
	}
	for _, r := range f.Logs.Rows {
		c.text("log row", r.Name, r.Label)
	}
	if !f.Logs.Card.Empty() {
		c.text("logs", f.Logs.Title, f.Logs.Card)
		for _, t := range f.Logs.Notes {
			c.text("logs key", t, f.Logs.Card)
		}
	}
	return c.out
}

// fitCheck gathers the words that do not show whole.
type fitCheck struct {
	measure func(string, float64) float64
	out     []string
}

func (c *fitCheck) bad(format string, args ...any) {
	c.out = append(c.out, fmt.Sprintf(format, args...))
}

// box is where text t is drawn: its em box, room enough for capitals and
// descenders.
func (c *fitCheck) box(t TextItem) viz.Rect {
	w, h := c.measure(t.Text, t.Size), t.Size
	if t.Center {
		return viz.XYWH(t.X-w/2, t.Y-h/2, w, h)
	}
	return viz.XYWH(t.X, t.Y, w, h)
}

// text checks that t lies inside in.
func (c *fitCheck) text(where string, t TextItem, in viz.Rect) {
	if t.Text == "" {
		return
	}
	if b := c.box(t); !within(b, in) {
		c.bad("%s: %q (%.0f×%.0f at %.0f,%.0f) does not fit %v", where, t.Text, b.W, b.H, b.X, b.Y, in)
	}
}

// widget checks that w lies inside in and its label inside w.
func (c *fitCheck) widget(where string, w Widget, in viz.Rect) {
	if !within(w.Rect, in) {
		c.bad("%s: control %s at %v lies outside %v", where, w.ID, w.Rect, in)
	}
	switch w.Kind {
	case WidgetButton, WidgetChip, WidgetTab:
		size := w.Size
		if size == 0 {
			size = 12
		}
		if lw := c.measure(w.Label, size) + 6; lw > w.Rect.W {
			c.bad("%s: the label %q of %s is %.0f wide in a control %.0f wide", where, w.Label, w.ID, lw, w.Rect.W)
		}
	}
}

func (c *fitCheck) legend(l *LegendView, canvas viz.Rect) {
	if !within(l.Rect, canvas) {
		c.bad("key at %v lies outside the canvas", l.Rect)
	}
	c.text("key", l.Title, l.Rect)
	for _, r := range l.Rows {
		if !within(r.Sample, l.Rect) {
			c.bad("key: a sample at %v lies outside %v", r.Sample, l.Rect)
		}
		for _, t := range r.Lines {
			c.text("key", t, l.Rect)
		}
	}
}

func (c *fitCheck) menu(m *MenuView) {
	c.text("caption", m.Title, m.Rect)
	for _, l := range m.Lines {
		c.text("caption", l, m.Rect)
	}
	for _, r := range m.Rows {
		c.text("caption", r.Label, m.Rect)
		for _, w := range r.Widgets {
			c.widget("caption", w, m.Rect)
		}
	}
}

// panel checks a panel's words and controls inside its body, but those
// scrolled out of sight and the last line cut where the panel says it goes
// on.
func (c *fitCheck) panel(p PanelView, canvas viz.Rect) {
	where := "panel " + p.Kind.Title()
	if !within(p.Rect, canvas) {
		c.bad("%s at %v lies outside the canvas", where, p.Rect)
	}
	c.text(where, p.Title, p.Rect)
	if p.Folded {
		return
	}
	for _, l := range p.Lines {
		b := c.box(l)
		if b.Bottom() <= p.Clip.Y || b.Y >= p.Clip.Bottom() {
			continue // scrolled out of sight
		}
		if p.More && b.Bottom() > p.Clip.Bottom() && within(b, viz.XYWH(p.Clip.X, p.Clip.Y, p.Clip.W, 1e9)) {
			continue // cut where the panel says it goes on
		}
		c.text(where, l, p.Clip)
	}
	for _, w := range p.Widgets {
		if w.Rect.Bottom() > p.Clip.Y && w.Rect.Y < p.Clip.Bottom() && !(p.More && w.Rect.Bottom() > p.Clip.Bottom()) {
			c.widget(where, w, p.Clip)
		}
	}
	if d := p.Diagram; d != nil {
		// The diagram is drawn whole; its words must fit the panel's
		// width (its last line may be scrolled out of sight).
		wide := viz.XYWH(p.Clip.X, -1e9, p.Clip.W, 2e9)
		for _, t := range []TextItem{d.Last, d.Why} {
			c.text(where+" diagram", t, wide)
		}
		for _, b := range d.Boxes {
			c.text(where+" diagram", b.Label, b.Rect)
			c.text(where+" diagram", b.Label2, b.Rect)
			c.text(where+" diagram", b.Members, b.Rect)
		}
	}
}

// node checks a machine's name inside its disc and its words on the
// canvas, clear of the log rows.
func (c *fitCheck) node(n NodeView, canvas, logs viz.Rect) {
	if n.Hidden {
		return
	}
	if w := c.measure(n.Name.Text, n.Name.Size); w > 2*n.R-4 {
		c.bad("machine %s: its name is %.0f wide on a disc %.0f across", n.Name.Text, w, 2*n.R)
	}
	for _, l := range n.Lines {
		c.text("machine "+n.Name.Text, l, canvas)
		if l.Text != "" && c.box(l).Overlaps(logs) {
			c.bad("machine %s: %q runs under the log rows", n.Name.Text, l.Text)
		}
	}
}

// within reports whether r lies inside in, give or take half a pixel.
func within(r, in viz.Rect) bool {
	const e = 0.5
	return r.X >= in.X-e && r.Y >= in.Y-e && r.Right() <= in.Right()+e && r.Bottom() <= in.Bottom()+e
}
