package draw

import (
	"hash/maphash"
	"image"
	"math"
	"slices"

	"raftlab/viz"
	"raftlab/viz/frame"
	"raftlab/viz/paint"
	colors "raftlab/viz/palette"
)

// A frame is always recorded before anything is drawn: the painter's
// calls become a list of operations, each with the device pixels it may
// touch, in the order they are to reach the screen. That list is the
// frame: the executor (execute.go) draws it, whole or in rectangles, and
// the kept screen compares it with the last frame's to find what changed
// (keptScreen). Nothing else draws a frame, so what is compared is what
// is drawn, in the order it is drawn.

// opKind is what an operation draws.
type opKind uint8

const (
	opRect opKind = iota + 1
	opRectLine
	opRoundRect
	opRoundRectLine
	opLine
	opDashed
	opDashedLink
	opDisc
	opRing
	opArcFrom
	opFan
	opOutline
	opDot
	opDotRing
	opText
)

// opKey is everything an operation's pixels depend on but the scale and
// palette, which the whole screen shares: two operations with equal keys
// paint the same pixels.
type opKey struct {
	kind    opKind
	aa      bool // anti-aliased
	clipped bool // drawn only within clip
	clr     colors.RGBA
	r       viz.Rect
	a, b    viz.Point
	f       [4]float64
	t       frame.TextItem
	pts     uint64          // a hash of a Fan's or an Outline's points
	clip    image.Rectangle // the clip in force, in device pixels
}

// keySeed seeds the hashes of operations' keys, one seed for the process
// so that two frames' hashes compare.
var keySeed = maphash.MakeSeed()

// op is a recorded operation.
type op struct {
	key opKey
	// hash is key's hash, worked out once: the kept screen looks up every
	// operation of a frame among the last frame's and files it for the
	// next, and hashing the whole key each time was most of the cost of
	// finding what changed.
	hash     uint64
	class    opClass         // how the executor batches it
	from, to int32           // its points in recorder.pts
	bounds   image.Rectangle // the device pixels it may touch, within its clip
	pos      int32           // its place in order (-1: never drawn)
	next     int32           // the last frame's next op with the same hash, in drawing order (-1: none)
	matched  bool            // the last frame's op is in this frame too
}

// recorder is the paint.Surface a frame is painted on: it records the
// frame's operations and decides the order they reach the screen (order).
//
// That order is not the order of the calls. A pass's text goes above its
// shapes: shapes and text are held back until Flush, then the shapes go
// first. Dashed links are held back until FlushDashes and go pattern by
// pattern, so that each pattern is one draw call. What is drawn within a
// clip is held back until Unclip. The executor draws in this order and no
// other, and batches neighbours of one class into one draw call.
type recorder struct {
	c     *canvas // scales, measures text, and ranks dash patterns
	ops   []op
	pts   []viz.Point
	order []int32
	// levels are the surfaces in use, the outer first and then each
	// clip: what each holds back, and whether it anti-aliases.
	levels []recLevel
}

type recLevel struct {
	aa            bool
	shapes, texts []int32
	dashes        []rankedOp
	clipped       bool
	clip          image.Rectangle
}

type rankedOp struct {
	rank int
	op   int32
}

// begin starts recording a frame for canvas c.
func (rec *recorder) begin(c *canvas) {
	rec.c = c
	rec.ops, rec.pts, rec.order = rec.ops[:0], rec.pts[:0], rec.order[:0]
	rec.levels = rec.levels[:0]
	rec.push(false, image.Rectangle{})
}

// push starts a level, reusing the buffers of the one that was there.
func (rec *recorder) push(clipped bool, clip image.Rectangle) {
	if len(rec.levels) == cap(rec.levels) {
		rec.levels = append(rec.levels, recLevel{})
	} else {
		rec.levels = rec.levels[:len(rec.levels)+1]
	}
	l := rec.top()
	l.aa, l.clipped, l.clip = false, clipped, clip
	l.shapes, l.texts, l.dashes = l.shapes[:0], l.texts[:0], l.dashes[:0]
}

// end places what the outer surface still holds back.
func (rec *recorder) end() { rec.placeAll(&rec.levels[0]) }

func (rec *recorder) top() *recLevel { return &rec.levels[len(rec.levels)-1] }

// opClass is how an operation reaches the screen: which batch it goes in,
// and so when it is placed (see recorder).
type opClass uint8

const (
	classShape opClass = iota // triangles from the sprite sheet, with the pass's shapes
	classText                 // glyphs from the text atlas, after the pass's shapes
	classDash                 // a strip textured with its dash pattern, at FlushDashes
)

// add records an operation of class class that may touch the device
// pixels in bounds.
func (rec *recorder) add(k opKey, bounds image.Rectangle, class opClass) {
	l := rec.top()
	k.aa = l.aa
	if l.clipped {
		k.clipped, k.clip = true, l.clip
		bounds = bounds.Intersect(l.clip)
	}
	i := int32(len(rec.ops))
	rec.ops = append(rec.ops, op{key: k, hash: maphash.Comparable(keySeed, k), class: class,
		from: int32(len(rec.pts)), to: int32(len(rec.pts)), bounds: bounds, pos: -1, next: -1})
	switch class {
	case classShape:
		l.shapes = append(l.shapes, i)
	case classText:
		l.texts = append(l.texts, i)
	case classDash:
		rank := rec.c.dashRank(dashKey{k.f[1], k.f[2], rec.c.sc})
		l.dashes = append(l.dashes, rankedOp{rank, i})
	}
}

func (rec *recorder) emit(i int32) {
	rec.ops[i].pos = int32(len(rec.order))
	rec.order = append(rec.order, i)
}

func (rec *recorder) emitAll(is []int32) {
	for _, i := range is {
		rec.emit(i)
	}
}

// flushLevel places what a surface holds back at Flush: its shapes, then
// its text.
func (rec *recorder) flushLevel(l *recLevel) {
	rec.emitAll(l.shapes)
	rec.emitAll(l.texts)
	l.shapes, l.texts = l.shapes[:0], l.texts[:0]
}

// flushDashes places what a surface holds back at FlushDashes: its
// shapes, then its dashed links, pattern by pattern in the order the
// patterns were first used (each pattern one draw call), in the order
// they were made within a pattern. Its text stays held back.
func (rec *recorder) flushDashes(l *recLevel) {
	rec.emitAll(l.shapes)
	l.shapes = l.shapes[:0]
	slices.SortStableFunc(l.dashes, func(a, b rankedOp) int { return a.rank - b.rank })
	for _, d := range l.dashes {
		rec.emit(d.op)
	}
	l.dashes = l.dashes[:0]
}

// placeAll places everything a surface holds back: as FlushDashes and then
// Flush would, so that nothing recorded is left out.
func (rec *recorder) placeAll(l *recLevel) {
	rec.flushDashes(l)
	rec.flushLevel(l)
}

// box is the device pixels that a shape within the logical rectangle
// x0..x1, y0..y1 may touch, pad logical pixels around it and two device
// pixels more for its anti-aliased edge and rounding.
func (rec *recorder) box(x0, y0, x1, y1, pad float64) image.Rectangle {
	sc, pad := rec.c.sc, math.Abs(pad) // the canvas strokes a negative width as a positive one
	return image.Rect(int(math.Floor((x0-pad)*sc))-2, int(math.Floor((y0-pad)*sc))-2,
		int(math.Ceil((x1+pad)*sc))+2, int(math.Ceil((y1+pad)*sc))+2)
}

func (rec *recorder) rectBox(r viz.Rect, pad float64) image.Rectangle {
	return rec.box(r.X, r.Y, r.Right(), r.Bottom(), pad)
}

func (rec *recorder) segBox(a, b viz.Point, pad float64) image.Rectangle {
	return rec.box(min(a.X, b.X), min(a.Y, b.Y), max(a.X, b.X), max(a.Y, b.Y), pad)
}

func (rec *recorder) circleBox(p viz.Point, r, pad float64) image.Rectangle {
	r = math.Abs(r)
	return rec.box(p.X-r, p.Y-r, p.X+r, p.Y+r, pad)
}

// withPoints records an operation on the points pts.
func (rec *recorder) withPoints(k opKey, pts []viz.Point, pad float64) {
	if len(pts) == 0 {
		return
	}
	h := uint64(14695981039346656037)
	x0, y0, x1, y1 := pts[0].X, pts[0].Y, pts[0].X, pts[0].Y
	for _, p := range pts {
		h = (h ^ math.Float64bits(p.X)) * 1099511628211
		h = (h ^ math.Float64bits(p.Y)) * 1099511628211
		x0, x1, y0, y1 = min(x0, p.X), max(x1, p.X), min(y0, p.Y), max(y1, p.Y)
	}
	k.pts = h ^ uint64(len(pts))
	rec.add(k, rec.box(x0, y0, x1, y1, pad), classShape)
	o := &rec.ops[len(rec.ops)-1]
	rec.pts = append(rec.pts, pts...)
	o.to = int32(len(rec.pts))
}

func (rec *recorder) Rect(r viz.Rect, clr colors.RGBA) {
	rec.add(opKey{kind: opRect, clr: clr, r: r}, rec.rectBox(r, 0), classShape)
}

func (rec *recorder) RectLine(r viz.Rect, w float64, clr colors.RGBA) {
	rec.add(opKey{kind: opRectLine, clr: clr, r: r, f: [4]float64{w}}, rec.rectBox(r, w), classShape)
}

func (rec *recorder) RoundRect(r viz.Rect, rad float64, clr colors.RGBA) {
	rec.add(opKey{kind: opRoundRect, clr: clr, r: r, f: [4]float64{rad}}, rec.rectBox(r, 0), classShape)
}

func (rec *recorder) RoundRectLine(r viz.Rect, rad, w float64, clr colors.RGBA) {
	rec.add(opKey{kind: opRoundRectLine, clr: clr, r: r, f: [4]float64{rad, w}}, rec.rectBox(r, w), classShape)
}

func (rec *recorder) Line(a, b viz.Point, w float64, clr colors.RGBA) {
	rec.add(opKey{kind: opLine, clr: clr, a: a, b: b, f: [4]float64{w}}, rec.segBox(a, b, w), classShape)
}

func (rec *recorder) Dashed(a, b viz.Point, w, dash, gap float64, clr colors.RGBA) {
	rec.add(opKey{kind: opDashed, clr: clr, a: a, b: b, f: [4]float64{w, dash, gap}}, rec.segBox(a, b, w), classShape)
}

func (rec *recorder) DashedLink(a, b viz.Point, w, dash, gap float64, clr colors.RGBA) {
	// Without anti-aliasing it is drawn as Dashed is, with the shapes
	// (and a link that draws nothing is not held back).
	class := classShape
	if rec.top().aa && b != a && clr.A > 0 {
		class = classDash
	}
	rec.add(opKey{kind: opDashedLink, clr: clr, a: a, b: b, f: [4]float64{w, dash, gap}}, rec.segBox(a, b, w), class)
}

func (rec *recorder) FlushDashes() { rec.flushDashes(rec.top()) }

func (rec *recorder) Disc(p viz.Point, r float64, clr colors.RGBA) {
	rec.add(opKey{kind: opDisc, clr: clr, a: p, f: [4]float64{r}}, rec.circleBox(p, r, 0), classShape)
}

func (rec *recorder) Ring(p viz.Point, r, w float64, clr colors.RGBA) {
	rec.add(opKey{kind: opRing, clr: clr, a: p, f: [4]float64{r, w}}, rec.circleBox(p, r, w), classShape)
}

func (rec *recorder) ArcFrom(p viz.Point, r, from, frac, w float64, clr colors.RGBA) {
	rec.add(opKey{kind: opArcFrom, clr: clr, a: p, f: [4]float64{r, from, frac, w}}, rec.circleBox(p, r, w), classShape)
}

func (rec *recorder) Fan(pts []viz.Point, clr colors.RGBA) {
	rec.withPoints(opKey{kind: opFan, clr: clr}, pts, 0)
}

func (rec *recorder) Outline(pts []viz.Point, w float64, clr colors.RGBA) {
	rec.withPoints(opKey{kind: opOutline, clr: clr, f: [4]float64{w}}, pts, w)
}

// Dot and DotRing are drawn from the sprite sheet, each sprite with a
// margin of a device pixel or two.
func (rec *recorder) Dot(p viz.Point, r float64, clr colors.RGBA) {
	rec.add(opKey{kind: opDot, clr: clr, a: p, f: [4]float64{r}}, rec.circleBox(p, r, 2), classShape)
}

func (rec *recorder) DotRing(p viz.Point, r, w float64, clr colors.RGBA) {
	rec.add(opKey{kind: opDotRing, clr: clr, a: p, f: [4]float64{r, w}}, rec.circleBox(p, r, w+2), classShape)
}

func (rec *recorder) Text(t frame.TextItem, clr colors.RGBA) {
	if t.Text == "" || clr.A <= 0 {
		return // it would draw nothing
	}
	rec.add(opKey{kind: opText, clr: clr, t: t}, rec.c.tc.bounds(t, rec.c.sc), classText)
}

func (rec *recorder) Flush() { rec.flushLevel(rec.top()) }

func (rec *recorder) Smooth(on bool) { rec.top().aa = on }

func (rec *recorder) Measure(s string, size float64) float64 { return Measure(s, size) }

// Clip starts a clipped surface and returns the recorder itself:
// everything drawn until Unclip is recorded as clipped, and does not
// anti-alias until it says so. The painter draws only on the clip until
// it calls Unclip (a call on the outer surface in between would be
// recorded as clipped).
func (rec *recorder) Clip(r viz.Rect) paint.Surface {
	b := rec.c.clipBounds(r, rec.c.dst.Bounds())
	if l := rec.top(); l.clipped {
		b = b.Intersect(l.clip)
	}
	rec.push(true, b)
	return rec
}

// Unclip places what the clipped surface holds back.
func (rec *recorder) Unclip(paint.Surface) {
	rec.placeAll(rec.top())
	rec.levels = rec.levels[:len(rec.levels)-1]
}
