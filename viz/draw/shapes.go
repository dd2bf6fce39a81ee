package draw

import (
	"image"
	"math"

	"github.com/hajimehoshi/ebiten/v2"

	"raftlab/viz"
	"raftlab/viz/frame"
)

// canvas draws shapes and text in logical pixels on an image scaled by sc
// device pixels per logical pixel. A frame is painted onto it by recording
// it (rec, or kept's recorders) and executing the record (execute.go),
// which calls the drawing methods here.
//
// Shapes are not drawn one by one: each is turned into triangles with
// per-vertex colour and collected, and the whole batch goes to the GPU in
// one draw call, which is what keeps a frame cheap in the browser, where
// the Go side of every call is slow. In an anti-aliased pass the
// triangles include each shape's edge fading out (see feather). Text is
// queued too and drawn at flush, after the batched shapes.
type canvas struct {
	dst   *ebiten.Image
	sc    float64
	vs    []ebiten.Vertex
	is    []uint16
	texts []queuedText
	tc    *textCache
	calls int // draw calls this frame
	verts int // vertices sent this frame
	// clusterUs and panelsUs are how long the frame's cluster and its
	// side panels took to record.
	clusterUs, panelsUs int64
	// aa turns on anti-aliasing: shapes fade out at their edges (see
	// feather).
	aa bool
	// sheet is the source of the batch: its white corner for plain
	// shapes, its sprites for message dots. src, if set, is the source
	// instead (a plain white image; it is how sprites are drawn into the
	// sheet), with its white at srcUV.
	sheet *spriteSheet
	src   *ebiten.Image
	srcUV float32
	pts   []viz.Point // scratch for outlines
	// More scratch: normals, a closed outline, points in device pixels.
	nrm, ring2, dev []viz.Point
	// dashes are the dash patterns of dashed links, with the strips
	// queued for each (see dashedLink); dashKeys lists them in the order
	// they were made.
	dashes   map[dashKey]*dashBatch
	dashKeys []dashKey
	// kept, if set, is what the screen (dst) holds of the last frame,
	// so that a frame paints only what changed (see keptScreen). Without
	// it every frame is painted whole, recorded in rec.
	kept *keptScreen
	rec  recorder
	// subs are dst's regions as images (see sub).
	subs regionCache
	// clip, unless empty, is the region of the screen dst is: batches
	// drop the triangles outside it (see culler).
	clip image.Rectangle
	cull culler
}

type queuedText struct {
	t   frame.TextItem
	clr colorF
}

var whiteSub = func() *ebiten.Image {
	img := ebiten.NewImage(3, 3)
	img.Fill(hex(0xffffff).rgba())
	return img.SubImage(image.Rect(1, 1, 2, 2)).(*ebiten.Image)
}()

func (c *canvas) f(v float64) float32 { return float32(v * c.sc) }

// flush draws the batched shapes, then the queued text.
func (c *canvas) flush() {
	c.drawShapes()
	if c.tc == nil {
		return
	}
	c.tc.clip = c.clip
	for _, q := range c.texts {
		c.tc.add(c.dst, q.t.Text, q.t.X, q.t.Y, q.t.Size, q.clr, q.t.Center, q.t.Bold, c.sc)
	}
	c.texts = c.texts[:0]
	if n := c.tc.draw(c.dst); n > 0 {
		c.calls++
		c.verts += n
	}
}

// batchVertices caps a batch. Ebiten copies a batch's vertices into a
// buffer it keeps per image and grows to fit the largest batch so far: one
// batch that grew with the messages on the wire had it allocate anew frame
// after frame. Batches of at most this many reuse one buffer, and Ebiten
// still merges consecutive ones into one draw call.
const batchVertices = 8192

// regionBatchVertices caps a batch drawn in a region of the screen (see
// keptScreen), which is an image of its own to Ebiten with a buffer of its
// own: at most this many vertices, the buffer (48 bytes a vertex) stays
// under 32 KB, which Go allocates from its pools of small objects. Larger
// buffers, made anew for each new region, each a size of its own, are pages
// of the heap that a region of another size cannot reuse; playing a
// figure's story, they were most of what the program allocated and grew
// the WebAssembly memory by megabytes. Ebiten merges consecutive batches
// into one draw call all the same.
const regionBatchVertices = 640

// batchCap is the most vertices a batch takes before it is drawn.
func batchCap(clip image.Rectangle) int {
	if clip.Empty() {
		return batchVertices
	}
	return regionBatchVertices
}

// drawShapes draws the batched shapes.
func (c *canvas) drawShapes() {
	if !c.clip.Empty() {
		c.vs, c.is = c.cull.cull(c.vs, c.is, c.clip)
	}
	if len(c.is) > 0 {
		op := &ebiten.DrawTrianglesOptions{ColorScaleMode: ebiten.ColorScaleModePremultipliedAlpha}
		src := c.src
		if src == nil {
			// Sprites are drawn smaller or larger than they are in the
			// sheet; plain shapes sample white wherever they sample.
			src = c.sheets().image()
			op.Filter = ebiten.FilterLinear
			// Nothing is drawn smaller than half size, so mipmaps would
			// only cost Ebiten a pass over every triangle to rule them out.
			op.DisableMipmaps = true
		}
		c.dst.DrawTriangles(c.vs, c.is, src, op)
		c.calls++
		c.verts += len(c.vs)
	}
	c.vs, c.is = c.vs[:0], c.is[:0]
}

// room makes sure n more vertices fit in the batch. The text queued so
// far stays queued: it goes above all of the pass's shapes either way.
func (c *canvas) room(n int) {
	if len(c.vs)+n > batchCap(c.clip) {
		c.drawShapes()
	}
}

// vertex appends one vertex of a plain shape in device pixels and returns
// its index.
func (c *canvas) vertex(x, y float32, clr colorF) uint16 {
	uv := float32(whiteUV)
	if c.src != nil {
		uv = c.srcUV
	}
	return c.vertexUV(x, y, uv, uv, clr)
}

// vertexUV appends a vertex that samples the source at u, v.
func (c *canvas) vertexUV(x, y, u, v float32, clr colorF) uint16 {
	a := max(clr.a, 0)
	c.vs = append(c.vs, ebiten.Vertex{DstX: x, DstY: y, SrcX: u, SrcY: v,
		ColorR: clr.r * a, ColorG: clr.g * a, ColorB: clr.b * a, ColorA: a})
	return uint16(len(c.vs) - 1)
}

// fan fills the convex polygon through pts (logical pixels).
func (c *canvas) fan(pts []viz.Point, clr colorF) {
	if len(pts) < 3 || clr.a <= 0 {
		return
	}
	if c.aa {
		c.featherFan(pts, clr)
		return
	}
	c.room(len(pts))
	base := uint16(len(c.vs))
	for _, p := range pts {
		c.vertex(c.f(p.X), c.f(p.Y), clr)
	}
	for i := 2; i < len(pts); i++ {
		c.is = append(c.is, base, base+uint16(i-1), base+uint16(i))
	}
}

// quad fills a four-cornered convex shape.
func (c *canvas) quad(a, b, d, e viz.Point, clr colorF) {
	if clr.a <= 0 {
		return
	}
	if c.aa {
		c.featherFan([]viz.Point{a, b, d, e}, clr)
		return
	}
	c.room(4)
	i0 := c.vertex(c.f(a.X), c.f(a.Y), clr)
	i1 := c.vertex(c.f(b.X), c.f(b.Y), clr)
	i2 := c.vertex(c.f(d.X), c.f(d.Y), clr)
	i3 := c.vertex(c.f(e.X), c.f(e.Y), clr)
	c.is = append(c.is, i0, i1, i2, i0, i2, i3)
}

func (c *canvas) line(a, b viz.Point, width float64, clr colorF) {
	d := b.Sub(a)
	if d.Len() == 0 || clr.a <= 0 {
		return
	}
	if !c.aa {
		n := d.Unit().Perp().Mul(width / 2)
		c.quad(a.Add(n), b.Add(n), b.Sub(n), a.Sub(n), clr)
		return
	}
	c.featherLine(a, b, d.Unit(), width, clr)
}

// featherLine draws the line from a to b (logical pixels, along unit u) in
// device pixels: its core, and a rim that fades out over a device pixel
// all round it.
func (c *canvas) featherLine(a, b, u viz.Point, width float64, clr colorF) {
	half := width * c.sc / 2
	if half < feather {
		clr.a *= float32(half / feather)
		half = feather
	}
	a, b = a.Mul(c.sc), b.Mul(c.sc)
	faded := clr
	faded.a = 0
	c.room(8)
	base := uint16(len(c.vs))
	// The core stops short of the ends by the fade, or meets itself in the
	// middle of a line shorter than the fade.
	in := math.Min(feather, a.Dist(b)/2)
	for _, k := range [2]struct {
		along, across float64
		clr           colorF
	}{{-in, half - feather, clr}, {feather, half + feather, faded}} {
		n, t := u.Perp().Mul(k.across), u.Mul(k.along)
		for _, q := range [4]viz.Point{a.Sub(t).Add(n), b.Add(t).Add(n), b.Add(t).Sub(n), a.Sub(t).Sub(n)} {
			c.vertex(float32(q.X), float32(q.Y), k.clr)
		}
	}
	c.is = append(c.is, base, base+1, base+2, base, base+2, base+3)
	for i := uint16(0); i < 4; i++ {
		j := (i + 1) % 4
		c.is = append(c.is, base+i, base+4+i, base+4+j, base+i, base+4+j, base+j)
	}
}

// dashed draws a line as dashes of length dash with gaps of gap.
func (c *canvas) dashed(a, b viz.Point, width, dash, gap float64, clr colorF) {
	d := b.Sub(a)
	n := d.Len()
	if n == 0 {
		return
	}
	u := d.Mul(1 / n)
	for t := 0.0; t < n; t += dash + gap {
		e := math.Min(t+dash, n)
		if c.aa && clr.a > 0 {
			c.featherLine(a.Add(u.Mul(t)), a.Add(u.Mul(e)), u, width, clr)
		} else {
			c.line(a.Add(u.Mul(t)), a.Add(u.Mul(e)), width, clr)
		}
	}
}

// segments is how many straight pieces make a smooth circle of radius r.
func (c *canvas) segments(r float64, turn float64) int {
	n := int(math.Ceil(math.Sqrt(r*c.sc)*4*turn)) + 4
	return min(max(n, 8), 96)
}

func (c *canvas) disc(p viz.Point, r float64, clr colorF) {
	if r <= 0 || clr.a <= 0 {
		return
	}
	n := c.segments(r, 1)
	if c.aa {
		// The fan and its fading rim, with the normals the radii.
		c.room(2*n + 1)
		cx, cy, rd := c.sc*p.X, c.sc*p.Y, c.sc*r
		rin, rout := max(rd-feather, 0), rd+feather
		center := c.vertex(float32(cx), float32(cy), clr)
		faded := clr
		faded.a = 0
		first := uint16(len(c.vs))
		// Round the circle by turning a unit vector a step at a time,
		// which is cheaper than a sine and a cosine per point.
		cs, sn := 1.0, 0.0
		dc, ds := math.Cos(2*math.Pi/float64(n)), math.Sin(2*math.Pi/float64(n))
		for i := 0; i < n; i++ {
			c.vertex(float32(cx+rin*cs), float32(cy+rin*sn), clr)
			c.vertex(float32(cx+rout*cs), float32(cy+rout*sn), faded)
			cs, sn = cs*dc-sn*ds, sn*dc+cs*ds
		}
		for i := 0; i < n; i++ {
			a, b := first+uint16(2*i), first+uint16(2*((i+1)%n))
			c.is = append(c.is, center, a, b, a, a+1, b+1, a, b+1, b)
		}
		return
	}
	c.room(n + 1)
	center := c.vertex(c.f(p.X), c.f(p.Y), clr)
	first := uint16(len(c.vs))
	for i := 0; i < n; i++ {
		a := 2 * math.Pi * float64(i) / float64(n)
		c.vertex(c.f(p.X+r*math.Cos(a)), c.f(p.Y+r*math.Sin(a)), clr)
	}
	for i := 0; i < n; i++ {
		c.is = append(c.is, center, first+uint16(i), first+uint16((i+1)%n))
	}
}

// band strokes part of a circle: from angle a0 for sweep radians (screen
// angles, clockwise), as a strip of quads.
func (c *canvas) band(p viz.Point, r, width, a0, sweep float64, clr colorF) {
	if sweep <= 0 || clr.a <= 0 {
		return
	}
	n := c.segments(r, sweep/(2*math.Pi))
	pts, nrm := c.pts[:0], c.nrm[:0]
	// An arc's ends fade out too, over a device pixel past each end.
	capped := c.aa && sweep < 2*math.Pi-1e-9 && r > 0
	cap := 0.0
	if capped {
		cap = 2 * feather / (r * c.sc)
		pts = append(pts, viz.Pt(p.X+r*math.Cos(a0-cap), p.Y+r*math.Sin(a0-cap)))
		nrm = append(nrm, viz.Pt(math.Cos(a0-cap), math.Sin(a0-cap)))
	}
	cs, sn := math.Cos(a0), math.Sin(a0)
	dc, ds := math.Cos(sweep/float64(n)), math.Sin(sweep/float64(n))
	for i := 0; i <= n; i++ {
		pts = append(pts, viz.Pt(p.X+r*cs, p.Y+r*sn))
		nrm = append(nrm, viz.Pt(cs, sn))
		cs, sn = cs*dc-sn*ds, sn*dc+cs*ds
	}
	if capped {
		a1 := a0 + sweep + cap
		pts = append(pts, viz.Pt(p.X+r*math.Cos(a1), p.Y+r*math.Sin(a1)))
		nrm = append(nrm, viz.Pt(math.Cos(a1), math.Sin(a1)))
	}
	c.pts, c.nrm = pts, nrm
	c.strip(pts, nrm, width, clr, capped)
}

func (c *canvas) ring(p viz.Point, r, width float64, clr colorF) {
	c.band(p, r, width, 0, 2*math.Pi, clr)
}

// arcFrom strokes the part of a circle that starts a fraction from of a
// turn past straight up and runs clockwise for a fraction frac of the turn.
func (c *canvas) arcFrom(p viz.Point, r, from, frac, width float64, clr colorF) {
	c.band(p, r, width, -math.Pi/2+2*math.Pi*from, 2*math.Pi*math.Min(frac, 1), clr)
}

func (c *canvas) rect(r viz.Rect, clr colorF) {
	c.quad(viz.Pt(r.X, r.Y), viz.Pt(r.Right(), r.Y), viz.Pt(r.Right(), r.Bottom()), viz.Pt(r.X, r.Bottom()), clr)
}

func (c *canvas) rectLine(r viz.Rect, width float64, clr colorF) {
	h := width / 2
	c.rect(viz.XYWH(r.X-h, r.Y-h, r.W+width, width), clr)
	c.rect(viz.XYWH(r.X-h, r.Bottom()-h, r.W+width, width), clr)
	c.rect(viz.XYWH(r.X-h, r.Y+h, width, r.H-width), clr)
	c.rect(viz.XYWH(r.Right()-h, r.Y+h, width, r.H-width), clr)
}

// roundPoints is the outline of a rounded rectangle, clockwise.
func (c *canvas) roundPoints(r viz.Rect, rad float64) []viz.Point {
	rad = math.Max(math.Min(rad, math.Min(r.W, r.H)/2), 0)
	k := c.segments(rad, 0.25)
	pts := c.pts[:0]
	corners := [4]struct{ cx, cy, a float64 }{
		{r.Right() - rad, r.Y + rad, -math.Pi / 2},
		{r.Right() - rad, r.Bottom() - rad, 0},
		{r.X + rad, r.Bottom() - rad, math.Pi / 2},
		{r.X + rad, r.Y + rad, math.Pi},
	}
	for _, q := range corners {
		for i := 0; i <= k; i++ {
			a := q.a + math.Pi/2*float64(i)/float64(k)
			pts = append(pts, viz.Pt(q.cx+rad*math.Cos(a), q.cy+rad*math.Sin(a)))
		}
	}
	c.pts = pts
	return pts
}

func (c *canvas) roundRect(r viz.Rect, rad float64, clr colorF) {
	if r.W <= 0 || r.H <= 0 || clr.a <= 0 {
		return
	}
	pts := c.roundPoints(r, rad)
	if !c.aa {
		c.fan(pts, clr)
		return
	}
	// The normal at each point of a corner is along its radius.
	rad = math.Max(math.Min(rad, math.Min(r.W, r.H)/2), 0)
	k := c.segments(rad, 0.25)
	n := len(pts)
	c.room(2 * n)
	base := uint16(len(c.vs))
	faded := clr
	faded.a = 0
	for i, p := range pts {
		a := math.Pi/2*float64(i/(k+1)-1) + math.Pi/2*float64(i%(k+1))/float64(k)
		cs, sn := math.Cos(a), math.Sin(a)
		x, y := p.X*c.sc, p.Y*c.sc
		c.vertex(float32(x-cs*feather), float32(y-sn*feather), clr)
		c.vertex(float32(x+cs*feather), float32(y+sn*feather), faded)
	}
	for i := 0; i < n; i++ {
		a, b := base+uint16(2*i), base+uint16(2*((i+1)%n))
		if i >= 2 {
			c.is = append(c.is, base, base+uint16(2*(i-1)), a)
		}
		c.is = append(c.is, a, a+1, b+1, a, b+1, b)
	}
}

func (c *canvas) roundRectLine(r viz.Rect, rad, width float64, clr colorF) {
	if r.W <= 0 || r.H <= 0 {
		return
	}
	c.outline(c.roundPoints(r, rad), width, clr)
}

// outline strokes a closed convex outline as a strip centred on it.
func (c *canvas) outline(pts []viz.Point, width float64, clr colorF) {
	n := len(pts)
	if n < 2 || clr.a <= 0 {
		return
	}
	ring, nrm := c.ring2[:0], c.nrm[:0]
	for i := 0; i <= n; i++ {
		p := pts[i%n]
		prev, next := pts[(i+n-1)%n], pts[(i+1)%n]
		// The normal at a corner is the average of its two sides'.
		ring = append(ring, p)
		nrm = append(nrm, next.Sub(p).Unit().Perp().Add(p.Sub(prev).Unit().Perp()).Unit())
	}
	c.ring2, c.nrm = ring, nrm
	c.strip(ring, nrm, width, clr, false)
}

// strip strokes the path through pts, width wide and centred on it, with
// nrm the unit normal at each point. In an anti-aliased pass each side
// fades out over a device pixel (see feather), and if capped the first and
// last points are where the ends have faded out.
func (c *canvas) strip(pts, nrm []viz.Point, width float64, clr colorF, capped bool) {
	if c.aa {
		// Offsets from the path, in device pixels, and the alpha at each.
		half := width * c.sc / 2
		if half < feather {
			// Thinner than the fade: as wide as it, and as faint as
			// the line is thin.
			clr.a *= float32(half / feather)
			half = feather
		}
		off := [4]float64{-half - feather, -half + feather, half - feather, half + feather}
		c.rails(pts, nrm, off[:], []float64{0, 1, 1, 0}, clr, capped)
		return
	}
	c.rails(pts, nrm, []float64{-width / 2 * c.sc, width / 2 * c.sc}, []float64{1, 1}, clr, false)
}

// rails lays len(off) rails along the path through pts (logical pixels),
// each offset along the normal by off (device pixels) with alpha alpha
// times clr's, and joins neighbouring rails with quads. With fadeEnds the
// first and last points are clear on every rail.
func (c *canvas) rails(pts, nrm []viz.Point, off, alpha []float64, clr colorF, fadeEnds bool) {
	n, k := len(pts), len(off)
	if n < 2 {
		return
	}
	c.room(k * n)
	if k*n > batchVertices {
		return // longer than any shape the app draws
	}
	base := uint16(len(c.vs))
	for i, p := range pts {
		x, y := p.X*c.sc, p.Y*c.sc
		for j, o := range off {
			v := clr
			v.a *= float32(alpha[j])
			if fadeEnds && (i == 0 || i == n-1) {
				v.a = 0
			}
			c.vertex(float32(x+nrm[i].X*o), float32(y+nrm[i].Y*o), v)
		}
	}
	for i := 0; i+1 < n; i++ {
		for j := 0; j+1 < k; j++ {
			a := base + uint16(i*k+j)
			b := a + uint16(k)
			c.is = append(c.is, a, a+1, b+1, a, b+1, b)
		}
	}
}

// feather is half the width, in device pixels, over which an edge fades
// from the shape's colour to nothing in an anti-aliased pass: the fade is
// centred on the edge, so the shape covers as much as a sharp one would.
// Drawing the fade as geometry costs a few vertices per shape; Ebiten's own
// anti-aliasing draws the whole pass into an offscreen image at twice the
// size, which on a software renderer was a third of every frame.
const feather = 0.5

// featherFan fills the convex polygon through pts (logical pixels) with
// its edges faded out over a device pixel.
func (c *canvas) featherFan(pts []viz.Point, clr colorF) {
	// In device pixels, without points that repeat (a rounded rectangle
	// with no rounding repeats its corners).
	dev := c.dev[:0]
	for _, p := range pts {
		q := viz.Pt(p.X*c.sc, p.Y*c.sc)
		if len(dev) == 0 || q.Dist(dev[len(dev)-1]) > 1e-3 {
			dev = append(dev, q)
		}
	}
	for len(dev) > 1 && dev[0].Dist(dev[len(dev)-1]) <= 1e-3 {
		dev = dev[:len(dev)-1]
	}
	c.dev = dev
	n := len(dev)
	if n < 3 {
		return
	}
	// Which way round the points go decides which side is out.
	area := 0.0
	for i := range dev {
		area += dev[i].Cross(dev[(i+1)%n])
	}
	out := 1.0
	if area > 0 {
		out = -1
	}
	if area == 0 {
		return
	}
	c.room(2 * n)
	base := uint16(len(c.vs))
	faded := clr
	faded.a = 0
	for i, p := range dev {
		prev, next := dev[(i+n-1)%n], dev[(i+1)%n]
		n1 := p.Sub(prev).Unit().Perp().Mul(out)
		n2 := next.Sub(p).Unit().Perp().Mul(out)
		m := n1.Add(n2).Unit()
		// Along the corner's bisector, far enough to be feather away
		// from both sides (within reason at sharp corners).
		d := feather / math.Max(m.Dot(n1), 0.35)
		in, o := p.Sub(m.Mul(d)), p.Add(m.Mul(d))
		c.vertex(float32(in.X), float32(in.Y), clr)
		c.vertex(float32(o.X), float32(o.Y), faded)
	}
	for i := 0; i < n; i++ {
		a, b := base+uint16(2*i), base+uint16(2*((i+1)%n))
		if i >= 2 {
			c.is = append(c.is, base, base+uint16(2*(i-1)), a)
		}
		c.is = append(c.is, a, a+1, b+1, a, b+1, b)
	}
}

// text queues a text item; it is drawn at the next flush, above the
// pass's shapes.
func (c *canvas) text(t frame.TextItem, clr colorF) {
	if t.Text == "" || clr.a <= 0 {
		return
	}
	c.texts = append(c.texts, queuedText{t, clr})
}

// clipBounds is the device pixels of the logical rectangle r that lie
// within the device rectangle in.
func (c *canvas) clipBounds(r viz.Rect, in image.Rectangle) image.Rectangle {
	b := image.Rect(int(math.Floor(r.X*c.sc)), int(math.Floor(r.Y*c.sc)), int(math.Ceil(r.Right()*c.sc)), int(math.Ceil(r.Bottom()*c.sc)))
	return b.Intersect(in)
}
