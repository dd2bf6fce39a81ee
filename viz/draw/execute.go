package draw

import (
	"image"

	"github.com/hajimehoshi/ebiten/v2"

	"raftlab/viz"
)

// execute draws the recorded frame's operations that reach into r, and
// nothing outside r, over a fill of bg: the one place where a recorded
// frame reaches the screen, whether it is painted whole (r is the screen)
// or a rectangle at a time (see keptScreen). The operations are drawn in
// the order the recorder placed them, so a frame painted in rectangles is
// drawn in the same order as painted whole.
//
// Neighbours in that order that go in the same batch (shapes, text, one
// dash pattern) and are clipped alike are drawn with one draw call, which
// is what keeps a frame cheap in the browser, where the Go side of every
// call is slow. Drawing two batches' triangles in one call paints what two
// calls would: a draw call blends its triangles in order.
func (c *canvas) execute(rec *recorder, r image.Rectangle, bg colorF) {
	screen := c.dst
	c.setRegion(screen, r)
	// The background goes in the batch of the first shapes, not in a draw
	// call of its own: a few fewer calls a frame. It reaches a pixel beyond
	// r on every side; the region cuts it to r exactly.
	c.aa = false
	x0, y0 := float64(r.Min.X-1)/c.sc, float64(r.Min.Y-1)/c.sc
	x1, y1 := float64(r.Max.X+1)/c.sc, float64(r.Max.Y+1)/c.sc
	c.quad(viz.Pt(x0, y0), viz.Pt(x1, y0), viz.Pt(x1, y1), viz.Pt(x0, y1), bg)
	run := batchRun{class: classShape, region: r}
	for _, i := range rec.order {
		o := &rec.ops[i]
		if !o.bounds.Overlaps(r) {
			continue
		}
		next := batchRun{class: o.class, region: r}
		if o.key.clipped {
			next.region = o.key.clip.Intersect(r)
		}
		if o.class == classDash {
			next.dash, next.gap = o.key.f[1], o.key.f[2]
		}
		if next != run {
			c.endBatch(run.class)
			run = next
			c.setRegion(screen, run.region)
		}
		c.aa = o.key.aa
		o.draw(c, rec.pts)
	}
	c.endBatch(run.class)
	c.dst, c.clip = screen, image.Rectangle{}
}

// setRegion has the canvas draw in the screen's region r, and cull what
// it batches there to r when r is not the whole screen.
func (c *canvas) setRegion(screen *ebiten.Image, r image.Rectangle) {
	c.dst, c.clip = c.region(screen, r), image.Rectangle{}
	if c.dst != screen {
		c.clip = r
	}
}

// batchRun is what neighbouring operations share to be drawn in one batch:
// their class, the region they may draw in, and for dashed links the
// pattern (a pattern's links are one draw call).
type batchRun struct {
	class     opClass
	region    image.Rectangle
	dash, gap float64
}

// endBatch draws what the canvas has batched of class class.
func (c *canvas) endBatch(class opClass) {
	switch class {
	case classText:
		c.flush()
	case classDash:
		c.flushDashes()
	default:
		c.drawShapes()
	}
}

// region returns the screen's region r as an image (the screen itself
// when r is all of it).
func (c *canvas) region(screen *ebiten.Image, r image.Rectangle) *ebiten.Image {
	if r == screen.Bounds() {
		return screen
	}
	return c.subs.sub(screen, r)
}

// draw adds operation o to the batch of canvas c, with points pts.
func (o *op) draw(c *canvas, pts []viz.Point) {
	k := &o.key
	clr := toF(k.clr)
	switch k.kind {
	case opRect:
		c.rect(k.r, clr)
	case opRectLine:
		c.rectLine(k.r, k.f[0], clr)
	case opRoundRect:
		c.roundRect(k.r, k.f[0], clr)
	case opRoundRectLine:
		c.roundRectLine(k.r, k.f[0], k.f[1], clr)
	case opLine:
		c.line(k.a, k.b, k.f[0], clr)
	case opDashed:
		c.dashed(k.a, k.b, k.f[0], k.f[1], k.f[2], clr)
	case opDashedLink:
		c.dashedLink(k.a, k.b, k.f[0], k.f[1], k.f[2], clr)
	case opDisc:
		c.disc(k.a, k.f[0], clr)
	case opRing:
		c.ring(k.a, k.f[0], k.f[1], clr)
	case opArcFrom:
		c.arcFrom(k.a, k.f[0], k.f[1], k.f[2], k.f[3], clr)
	case opFan:
		c.fan(pts[o.from:o.to], clr)
	case opOutline:
		c.outline(pts[o.from:o.to], k.f[0], clr)
	case opDot:
		c.sprite(spriteDisc, k.a, k.f[0], 0, clr)
	case opDotRing:
		c.sprite(spriteRing, k.a, k.f[0], k.f[1], clr)
	case opText:
		c.text(k.t, clr)
	}
}

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
