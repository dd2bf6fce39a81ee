package draw

import (
	"image"
	"math"
	"raftlab/viz/frame"
	"slices"

	"github.com/hajimehoshi/ebiten/v2"
)

// panelLayer keeps the side panels as they were last painted, on an image
// of their own, so that a frame repaints only the panels whose content
// changed and copies the others. While a run plays, the cluster changes
// every frame but most panels do not, and painting a panel's text and
// cards was close to half the cost of a busy frame in the browser.
type panelLayer struct {
	img  *ebiten.Image
	pal  *palette
	sc   float64
	kept []keptPanel
	cv   canvas // paints onto img; kept to reuse its buffers
	// subs are img's regions as images.
	subs regionCache
	// boxes and dirty are scratch for a frame: each panel's box on the
	// screen, and whether it was painted anew on the layer.
	boxes []image.Rectangle
	dirty []bool
	moved bool // a panel was repainted this frame (for tests)
	// gens counts the panels painted on the layer: each paint is a new
	// version of its panel.
	gens int
}

// keptPanel is a panel as painted on the layer, where, and which version
// of the layer's panels it is.
type keptPanel struct {
	pv  frame.PanelView
	box image.Rectangle
	gen int
}

// panelBox is the part of the screen a panel paints, in device pixels:
// its card, the card's shadow and a pixel to spare.
func panelBox(pv *frame.PanelView, sc float64) image.Rectangle {
	r := pv.Rect
	return image.Rect(int(math.Floor((r.X-1)*sc)), int(math.Floor((r.Y-1)*sc)),
		int(math.Ceil((r.Right()+2)*sc)), int(math.Ceil((r.Bottom()+3)*sc)))
}

// prepareLayer brings the layer up to date with the frame's panels: it
// paints anew onto it the panels whose content changed, and returns each
// panel's box on the screen, with layered true. The layer is not used when
// panels overlap (clearing one would wipe the other), nor by a canvas
// without one: then layered is false and the panels are to be painted
// straight onto the screen, as everything else is.
func (c *canvas) prepareLayer(f *frame.Frame, p *palette) (boxes []image.Rectangle, layered bool) {
	if c.layer == nil {
		return nil, false
	}
	l := c.layer
	boxes = append(l.boxes[:0], make([]image.Rectangle, len(f.Panels))...)
	l.boxes = boxes
	for i := range f.Panels {
		boxes[i] = panelBox(&f.Panels[i], c.sc).Intersect(c.dst.Bounds())
		for _, b := range boxes[:i] {
			if b.Overlaps(boxes[i]) {
				return nil, false
			}
		}
	}
	l.moved = false
	dirty := append(l.dirty[:0], make([]bool, len(f.Panels))...)
	l.dirty = dirty
	// The layer covers the panels only (an image may start anywhere), and
	// is made anew when they move out of it or take much less room.
	var all image.Rectangle
	for _, b := range boxes {
		all = all.Union(b)
	}
	if all.Empty() {
		return boxes, true
	}
	if l.img == nil || !all.In(l.img.Bounds()) || area(l.img.Bounds()) > 2*area(all) {
		if l.img != nil {
			l.img.Deallocate()
		}
		// Unmanaged keeps it off Ebiten's shared atlas, as the glyph
		// atlas is: an image both painted and copied from gains nothing
		// from sharing a texture.
		l.img = ebiten.NewImageWithOptions(all, &ebiten.NewImageOptions{Unmanaged: true})
		l.kept = l.kept[:0]
	}
	if l.pal != p || l.sc != c.sc {
		l.pal, l.sc, l.kept = p, c.sc, l.kept[:0]
		l.img.Clear()
	}
	l.cv.dst, l.cv.sc, l.cv.tc, l.cv.sheet = l.img, c.sc, c.tc, c.sheets()
	// First wipe where changed panels were, then paint them where they
	// are: a panel that grew may now cover where its neighbour was.
	for i := range f.Panels {
		dirty[i] = i >= len(l.kept) || l.kept[i].box != boxes[i] || !samePanel(&l.kept[i].pv, &f.Panels[i])
		if dirty[i] && i < len(l.kept) {
			l.sub(l.kept[i].box).Clear()
		}
	}
	if len(l.kept) > len(f.Panels) {
		for _, k := range l.kept[len(f.Panels):] {
			l.sub(k.box).Clear()
		}
		l.kept = l.kept[:len(f.Panels)]
	}
	for i := range f.Panels {
		if !dirty[i] {
			continue
		}
		pv := &f.Panels[i]
		l.sub(boxes[i]).Clear()
		l.cv.calls, l.cv.verts = 0, 0
		l.cv.paintPanel(pv, p)
		l.cv.flush()
		c.calls += l.cv.calls
		c.verts += l.cv.verts
		if i == len(l.kept) {
			l.kept = append(l.kept, keptPanel{})
		}
		l.gens++
		l.kept[i] = keptPanel{pv: clonePanel(pv), box: boxes[i], gen: l.gens}
		l.moved = true
	}
	return boxes, true
}

// composePanels copies the panels from the layer onto the screen.
func (c *canvas) composePanels(boxes []image.Rectangle) {
	for _, b := range boxes {
		if !b.Empty() {
			c.copyPanel(b)
		}
	}
}

// copyPanel copies the layer's region r, part of a panel's box, onto the
// screen.
func (c *canvas) copyPanel(r image.Rectangle) {
	op := &ebiten.DrawImageOptions{}
	op.GeoM.Translate(float64(r.Min.X), float64(r.Min.Y))
	c.dst.DrawImage(c.layer.sub(r), op)
	c.calls++
	c.verts += 4
}

// sub returns the layer's region r as an image.
func (l *panelLayer) sub(r image.Rectangle) *ebiten.Image { return l.subs.sub(l.img, r) }

// regionCache hands out an image's regions as images, each made once:
// Ebiten keeps a buffer per image, which a region made anew every frame
// would allocate every frame.
type regionCache struct {
	of *ebiten.Image
	m  map[image.Rectangle]*ebiten.Image
}

// sub returns img's region r; regions of an image used before are
// forgotten.
func (rc *regionCache) sub(img *ebiten.Image, r image.Rectangle) *ebiten.Image {
	if rc.m == nil || rc.of != img {
		rc.of, rc.m = img, map[image.Rectangle]*ebiten.Image{}
	}
	s, ok := rc.m[r]
	if !ok {
		if len(rc.m) > 64 {
			clear(rc.m)
		}
		s = img.SubImage(r).(*ebiten.Image)
		rc.m[r] = s
	}
	return s
}

func (c *canvas) paintPanelsDirect(f *frame.Frame, p *palette) {
	for i := range f.Panels {
		c.paintPanel(&f.Panels[i], p)
	}
}

// samePanel says whether two panels paint the same pixels.
func samePanel(a, b *frame.PanelView) bool {
	if a.Kind != b.Kind || a.Rect != b.Rect || a.Title != b.Title || a.Clip != b.Clip ||
		a.More != b.More || a.Folded != b.Folded ||
		!slices.Equal(a.Lines, b.Lines) || !slices.Equal(a.Widgets, b.Widgets) {
		return false
	}
	if (a.Diagram == nil) != (b.Diagram == nil) {
		return false
	}
	if a.Diagram == nil {
		return true
	}
	da, db := a.Diagram, b.Diagram
	if da.Last != db.Last || da.Why != db.Why || !slices.Equal(da.Boxes, db.Boxes) || len(da.Arrows) != len(db.Arrows) {
		return false
	}
	for i := range da.Arrows {
		x, y := da.Arrows[i], db.Arrows[i]
		if x.Label != y.Label || x.Hot != y.Hot || !slices.Equal(x.Path, y.Path) {
			return false
		}
	}
	return true
}

// clonePanel copies a panel so that the app may reuse the frame's slices.
func clonePanel(pv *frame.PanelView) frame.PanelView {
	out := *pv
	out.Lines = slices.Clone(pv.Lines)
	out.Widgets = slices.Clone(pv.Widgets)
	if pv.Diagram != nil {
		d := *pv.Diagram
		d.Boxes = slices.Clone(d.Boxes)
		d.Arrows = slices.Clone(d.Arrows)
		for i := range d.Arrows {
			d.Arrows[i].Path = slices.Clone(d.Arrows[i].Path)
		}
		out.Diagram = &d
	}
	return out
}

func area(r image.Rectangle) int { return r.Dx() * r.Dy() }
