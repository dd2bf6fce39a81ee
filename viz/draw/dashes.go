package draw

import (
	"image"
	"math"
	"slices"

	"github.com/hajimehoshi/ebiten/v2"

	"raftlab/viz"
)

// Dashed links are drawn as one strip each, textured with their dash
// pattern repeated along them, instead of a shape per dash. A cluster of
// nine machines whose links are all slow (drawn striped) had some nine
// thousand vertices of dashes, more than everything else in the cluster
// together, and every vertex costs the browser time on the way to the GPU.

// dashKey is a dash pattern at a scale: dash and gap in logical pixels.
type dashKey struct{ dash, gap, sc float64 }

// dashBatch collects the strips of one pattern until the links are done.
type dashBatch struct {
	img    *ebiten.Image
	period float64 // device pixels per repetition of the pattern
	vs     []ebiten.Vertex
	is     []uint16
}

// dashPattern returns the image of one period of the pattern, a device
// pixel to a texel: opaque white along the dash, clear along the gap, with
// the pixels where one turns into the other partly covered.
func (c *canvas) dashPattern(k dashKey) *dashBatch {
	if d, ok := c.dashes[k]; ok {
		return d
	}
	if c.dashes == nil {
		c.dashes = map[dashKey]*dashBatch{}
	}
	period := (k.dash + k.gap) * k.sc
	w := int(math.Ceil(period))
	pix := make([]byte, 4*w)
	on := k.dash * k.sc
	scale := period / float64(w) // device pixels per texel
	for i := 0; i < w; i++ {
		// How much of texel i lies within the dash [0, on).
		x0, x1 := float64(i)*scale, float64(i+1)*scale
		cov := math.Max(0, math.Min(x1, on)-x0) / scale
		a := byte(math.Round(255 * math.Min(cov, 1)))
		pix[4*i], pix[4*i+1], pix[4*i+2], pix[4*i+3] = a, a, a, a
	}
	// Unmanaged keeps it off Ebiten's shared atlas, where it would be
	// sampled at an offset that may change as Ebiten moves images between
	// atlases: the same link could then come out a level apart in a
	// repainted tile and around it.
	img := ebiten.NewImageWithOptions(image.Rect(0, 0, w, 1), &ebiten.NewImageOptions{Unmanaged: true})
	img.WritePixels(pix)
	d := &dashBatch{img: img, period: period}
	c.dashes[k] = d
	// In the order they were first used: a frame draws them the same
	// way every time, whatever the map's order.
	c.dashKeys = append(c.dashKeys, k)
	return d
}

// dashRank is where pattern k comes in the order flushDashes draws the
// patterns (the order they were first used).
func (c *canvas) dashRank(k dashKey) int {
	c.dashPattern(k)
	return slices.Index(c.dashKeys, k)
}

// dashedLink queues a dashed line from a to b (logical pixels) to be drawn
// by flushDashes, anti-aliased across it as featherLine is.
func (c *canvas) dashedLink(a, b viz.Point, width, dash, gap float64, clr colorF) {
	d := b.Sub(a)
	n := d.Len()
	if n == 0 || clr.a <= 0 {
		return
	}
	if !c.aa {
		c.dashed(a, b, width, dash, gap, clr)
		return
	}
	batch := c.dashPattern(dashKey{dash, gap, c.sc})
	if len(batch.vs)+8 > batchCap(c.clip) {
		c.flushDashes()
	}
	u := d.Mul(1 / n)
	half := width * c.sc / 2
	if half < feather {
		clr.a *= float32(half / feather)
		half = feather
	}
	a, b = a.Mul(c.sc), b.Mul(c.sc)
	// Texels along: the pattern starts at a and repeats every period.
	tw := float64(batch.img.Bounds().Dx())
	u1 := float32(n * c.sc / batch.period * tw)
	base := uint16(len(batch.vs))
	for _, rail := range [4]struct{ off, alpha float64 }{{-half - feather, 0}, {-half + feather, 1}, {half - feather, 1}, {half + feather, 0}} {
		v := clr
		v.a *= float32(rail.alpha)
		al := max(v.a, 0)
		off := u.Perp().Mul(rail.off)
		for _, e := range [2]struct {
			p viz.Point
			u float32
		}{{a.Add(off), 0}, {b.Add(off), u1}} {
			batch.vs = append(batch.vs, ebiten.Vertex{DstX: float32(e.p.X), DstY: float32(e.p.Y), SrcX: e.u, SrcY: 0.5,
				ColorR: v.r * al, ColorG: v.g * al, ColorB: v.b * al, ColorA: al})
		}
	}
	for j := uint16(0); j < 3; j++ {
		p, q := base+2*j, base+2*j+2
		batch.is = append(batch.is, p, p+1, q+1, p, q+1, q)
	}
}

// flushDashes draws the queued dashed links, after the shapes batched so
// far.
func (c *canvas) flushDashes() {
	c.drawShapes()
	for _, k := range c.dashKeys {
		d := c.dashes[k]
		if !c.clip.Empty() {
			d.vs, d.is = c.cull.cull(d.vs, d.is, c.clip)
		}
		if len(d.is) == 0 {
			d.vs = d.vs[:0]
			continue
		}
		op := &ebiten.DrawTrianglesOptions{ColorScaleMode: ebiten.ColorScaleModePremultipliedAlpha,
			Address: ebiten.AddressRepeat, Filter: ebiten.FilterLinear, DisableMipmaps: true}
		c.dst.DrawTriangles(d.vs, d.is, d.img, op)
		c.calls++
		c.verts += len(d.vs)
		d.vs, d.is = d.vs[:0], d.is[:0]
	}
}
