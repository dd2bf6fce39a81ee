package draw

import (
	"image"
	"math"
	"slices"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"raftlab/viz/app"
)

// keptScreen lets a frame repaint only the parts of the screen that
// changed. The game leaves Ebiten's screen uncleared between frames
// (SetScreenClearedEveryFrame(false)), so the screen still holds the last
// frame when the next one is painted.
//
// Where WebGL is drawn in software, as in most browsers without a GPU,
// a frame costs about as much as the pixels it fills: the background
// over the whole screen, the panels copied from their layer, and then
// Ebiten's copy of the screen to the page. While a run plays, the cluster,
// the status line and the timeline change every frame, but the side
// panels and the logs seldom do. A frame then fills the background only
// where the changed parts were and paints only them, and leaves the
// panels and logs as they are on the screen.
//
// The parts are the cluster, the logs, each panel and the chrome (the
// toolbar, the timeline and whatever lies over the stage). For each the
// screen remembers where it drew last frame, as rectangles in device
// pixels. The invariant: outside those rectangles the screen shows only
// the background. A frame keeps a part (the logs, a panel) when it shows
// the same as before, in the same place; it fills the background over
// the rectangles of every other part, as they were last frame, and
// paints those parts. When a part it paints touches one it kept, or
// would have to erase some of it, the order of painting would be wrong
// there, and the frame is painted whole instead.
type keptScreen struct {
	valid bool // the screen holds the last frame, as described below
	dst   *ebiten.Image
	size  image.Point
	pal   *palette
	sc    float64
	// Where each part drew last frame.
	cluster, logs, chrome []image.Rectangle
	panels                []image.Rectangle // each panel's box, in order
	// shownLogs is what the logs showed.
	shownLogs app.LogsView
	// calm counts down the frames painted whole after a clash (a part
	// painted over one kept), before keeping parts is tried again: a
	// menu open over the panels would otherwise clash every frame and
	// have each frame painted twice.
	calm int
	// fill and fills are scratch: where this frame fills the background,
	// and the same without the rectangles inside others; kept and drawn
	// where it keeps parts and where it painted them.
	fill, fills, kept, drawn []image.Rectangle
	// whole and partly count frames painted each way, filled the pixels
	// filled with the background and copied those of panels copied from
	// their layer (for tests and benchmarks).
	whole, partly  int
	filled, copied int
}

// calmFrames is how many frames are painted whole after a clash.
const calmFrames = 30

// invalidate makes the next frame paint everything.
func (k *keptScreen) invalidate() { k.valid = false }

// usable says whether the screen still holds the last frame as painted,
// at the same size, scale and palette.
func (k *keptScreen) usable(dst *ebiten.Image, p *palette, sc float64) bool {
	return k.valid && k.dst == dst && k.size == dst.Bounds().Size() && k.pal == p && k.sc == sc
}

// paintFrame draws the frame: only what changed when the screen holds the
// last frame (see keptScreen), everything otherwise.
func (c *canvas) paintFrame(f *app.Frame, p *palette) {
	c.calls, c.verts = 0, 0
	k := c.kept
	if k == nil {
		c.paintWhole(f, p)
		return
	}
	if k.calm > 0 {
		k.calm--
	} else if k.usable(c.dst, p, c.sc) && c.paintChanged(f, p) {
		k.partly++
		return
	}
	c.paintWhole(f, p)
	k.whole++
}

// paintWhole fills the background and paints every part, noting where
// each drew.
func (c *canvas) paintWhole(f *app.Frame, p *palette) {
	k := c.kept
	c.dst.Fill(toF(p.BG).rgba())
	if k != nil {
		k.filled += area(c.dst.Bounds())
	}
	boxes, layered := c.prepareLayer(f, p)
	if !layered {
		boxes = nil
	}
	c.paintParts(f, p, true, boxes, nil)
	if k == nil {
		return
	}
	// Panels painted straight onto the screen are in no part's marks.
	k.valid = layered
	k.dst, k.size, k.pal, k.sc = c.dst, c.dst.Bounds().Size(), p, c.sc
	k.panels = append(k.panels[:0], boxes...)
	k.shownLogs = cloneLogs(&f.Logs, &k.shownLogs)
}

// paintParts paints the cluster, the logs (when logs is set), the panels
// not kept, and the chrome, in that order, noting where each drew when
// the screen is kept. boxes are the panels' boxes on the layer (nil: the
// panels are painted straight onto the screen); keep says which panels
// stay as they are on the screen (nil: none).
func (c *canvas) paintParts(f *app.Frame, p *palette, logs bool, boxes []image.Rectangle, keep []bool) {
	k := c.kept
	c.marking = k != nil
	c.marks = c.marks[:0]
	pt := c.painter(p)
	t0 := time.Now()
	pt.Cluster(f)
	t1 := time.Now()
	if k != nil {
		k.cluster = append(k.cluster[:0], c.marks...)
	}
	c.marks = c.marks[:0]
	if logs {
		pt.Logs(f)
		if k != nil {
			k.logs = append(k.logs[:0], c.marks...)
		}
	}
	c.marks = c.marks[:0]
	t2 := time.Now()
	if boxes == nil {
		c.paintPanelsDirect(f, p)
	} else {
		c.composePanels(boxes, keep)
	}
	t3 := time.Now()
	pt.Chrome(f)
	if k != nil {
		k.chrome = append(k.chrome[:0], c.marks...)
	}
	c.marking = false
	c.clusterUs, c.panelsUs = t1.Sub(t0).Microseconds(), t3.Sub(t2).Microseconds()
}

// paintChanged paints the parts that changed since the last frame, which
// the screen still holds, and reports whether it could: false when a part
// to paint clashes with one kept, and the frame must be painted whole.
func (c *canvas) paintChanged(f *app.Frame, p *palette) bool {
	k := c.kept
	boxes, layered := c.prepareLayer(f, p)
	if !layered {
		return false
	}
	l := c.layer
	keepLogs := sameLogs(&k.shownLogs, &f.Logs)
	keep := slices.Grow(l.keep[:0], len(boxes))[:len(boxes)]
	l.keep = keep
	for i, b := range boxes {
		keep[i] = !l.dirty[i] && i < len(k.panels) && k.panels[i] == b
	}
	// A part kept where the background is to be filled is painted too,
	// which fills its own rectangles: until no kept part is in the way.
	fill := k.fill
	for {
		fill = append(fill[:0], k.cluster...)
		fill = append(fill, k.chrome...)
		if !keepLogs {
			fill = append(fill, k.logs...)
		}
		for i, b := range boxes {
			if keep[i] {
				continue
			}
			fill = append(fill, b)
			if i < len(k.panels) {
				fill = append(fill, k.panels[i])
			}
		}
		if len(k.panels) > len(boxes) {
			fill = append(fill, k.panels[len(boxes):]...)
		}
		demoted := false
		if keepLogs && overlapsAny(k.logs, fill) {
			keepLogs, demoted = false, true
		}
		for i, b := range boxes {
			if keep[i] && overlapsAny(fill, []image.Rectangle{b}) {
				keep[i], demoted = false, true
			}
		}
		if !demoted {
			break
		}
	}
	k.fill = fill
	kept := k.kept[:0]
	if keepLogs {
		kept = append(kept, k.logs...)
	}
	for i, b := range boxes {
		if keep[i] {
			kept = append(kept, b)
		}
	}
	k.kept = kept
	bg := toF(p.BG).rgba()
	k.fills = withoutInner(k.fills[:0], fill)
	for _, r := range k.fills {
		c.sub(r).Fill(bg)
		k.filled += area(r)
	}
	c.paintParts(f, p, !keepLogs, boxes, keep)
	drawn := append(append(k.drawn[:0], k.cluster...), k.chrome...)
	if !keepLogs {
		drawn = append(drawn, k.logs...)
	}
	k.drawn = drawn
	if overlapsAny(drawn, kept) {
		// Painted over a part kept (a part grew into it): the screen is
		// wrong there.
		k.calm = calmFrames
		return false
	}
	k.panels = append(k.panels[:0], boxes...)
	if !keepLogs {
		k.shownLogs = cloneLogs(&f.Logs, &k.shownLogs)
	}
	return true
}

// sub returns the screen's region r as an image.
func (c *canvas) sub(r image.Rectangle) *ebiten.Image { return c.subs.sub(c.dst, r) }

// mark notes that the canvas drew inside r, when it keeps track.
func (c *canvas) mark(r image.Rectangle) {
	if c.marking && !r.Empty() {
		c.marks = append(c.marks, r)
	}
}

// vertexBounds is the rectangle of whole device pixels that triangles
// with these vertices may touch, with a pixel to spare.
func vertexBounds(vs []ebiten.Vertex) image.Rectangle {
	if len(vs) == 0 {
		return image.Rectangle{}
	}
	x0, y0, x1, y1 := vs[0].DstX, vs[0].DstY, vs[0].DstX, vs[0].DstY
	for _, v := range vs[1:] {
		x0, x1 = min(x0, v.DstX), max(x1, v.DstX)
		y0, y1 = min(y0, v.DstY), max(y1, v.DstY)
	}
	return image.Rect(int(math.Floor(float64(x0)))-1, int(math.Floor(float64(y0)))-1,
		int(math.Ceil(float64(x1)))+1, int(math.Ceil(float64(y1)))+1)
}

// withoutInner appends to out the rectangles of rs but the empty ones and
// those inside another: a part's batches mostly lie within its first (the
// cluster's links span the stage its labels and messages are in), and
// filling each would fill most pixels several times over.
func withoutInner(out, rs []image.Rectangle) []image.Rectangle {
	for i, r := range rs {
		inner := r.Empty()
		for j, o := range rs {
			if inner {
				break
			}
			// Of two equal rectangles the first stays.
			inner = j != i && r.In(o) && (r != o || j < i)
		}
		if !inner {
			out = append(out, r)
		}
	}
	return out
}

// overlapsAny says whether a rectangle of as overlaps one of bs.
func overlapsAny(as, bs []image.Rectangle) bool {
	for _, a := range as {
		for _, b := range bs {
			if a.Overlaps(b) {
				return true
			}
		}
	}
	return false
}

// sameLogs says whether two logs views paint the same pixels.
func sameLogs(a, b *app.LogsView) bool {
	if a.Rect != b.Rect || a.Before != b.Before || a.After != b.After || a.Key != b.Key ||
		!slices.Equal(a.Header, b.Header) || len(a.Rows) != len(b.Rows) {
		return false
	}
	for i := range a.Rows {
		x, y := &a.Rows[i], &b.Rows[i]
		if x.Node != y.Node || x.Name != y.Name || x.Label != y.Label || x.Strip != y.Strip || x.Tone != y.Tone ||
			x.CommitX != y.CommitX || x.AppliedX != y.AppliedX || x.MatchX != y.MatchX || x.NextX != y.NextX ||
			x.Faded != y.Faded || x.Selected != y.Selected || !slices.Equal(x.Cells, y.Cells) {
			return false
		}
	}
	return true
}

// cloneLogs copies a logs view into into's buffers, so that the app may
// reuse the frame's slices.
func cloneLogs(lv *app.LogsView, into *app.LogsView) app.LogsView {
	out := *lv
	out.Header = append(into.Header[:0], lv.Header...)
	rows := into.Rows[:0]
	for i, r := range lv.Rows {
		var cells []app.LogCell
		if i < len(into.Rows) {
			cells = into.Rows[i].Cells[:0]
		}
		r.Cells = append(cells, r.Cells...)
		rows = append(rows, r)
	}
	out.Rows = rows
	return out
}
