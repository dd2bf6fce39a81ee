package draw

import (
	"image"
	"math"
	"slices"

	"raftlab/viz"
	"raftlab/viz/frame"
	"raftlab/viz/paint"
	colors "raftlab/viz/palette"
)

// A frame is first recorded, not drawn: the painter's calls become a list
// of operations, each with the device pixels it may touch. Comparing the
// list with the last frame's says which parts of the screen changed (see
// keptScreen); the operations are then drawn only there.

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
	opPanel // a panel copied from the panels' layer
	// The rest draw nothing themselves: they order and clip the others.
	opFlush
	opFlushDashes
	opSmooth
	opClip
	opUnclip
)

// opKey is everything an operation's pixels depend on but the scale and
// palette, which the whole screen shares: two operations with equal keys
// paint the same pixels.
type opKey struct {
	kind opKind
	aa   bool // anti-aliased (and, for opSmooth, the setting)
	clr  colors.RGBA
	r    viz.Rect
	a, b viz.Point
	f    [4]float64
	t    frame.TextItem
	pts  uint64          // a hash of a Fan's or an Outline's points
	clip image.Rectangle // the clip in force, in device pixels (empty: none)
	gen  int             // opPanel: the panel's version on the layer
}

// op is a recorded operation.
type op struct {
	key      opKey
	from, to int32           // its points in recorder.pts
	bounds   image.Rectangle // the device pixels it may touch
	pos      int32           // its place in the order the screen draws the frame (-1: never drawn)
	next     int32           // the last frame's next op with the same key, in drawing order (-1: none)
	matched  bool            // the last frame's op is in this frame too
}

// recorder is a paint.Surface that records a frame's operations.
//
// The screen does not draw operations in the order they are made: a
// canvas holds a pass's shapes back until its flush and draws its text
// after them, holds dashed links back until FlushDashes and draws them by
// pattern, and copies panels at once. The recorder follows the same rules
// to note the order the operations reach the screen (order), which is the
// order that decides what covers what.
type recorder struct {
	c     *canvas // scales, measures text, and ranks dash patterns
	ops   []op
	pts   []viz.Point
	order []int32
	// levels are the canvases in use, the outer first and then each
	// clip: what each holds back, and whether it anti-aliases.
	levels []recLevel
	// spilled: a pattern's dashed links filled a batch, which draws what
	// is held back early; a frame repainted in pieces would not, as each
	// piece holds fewer links, so such a frame is painted whole.
	spilled bool
}

type recLevel struct {
	aa            bool
	shapes, texts []int32
	dashes        []rankedOp
	dashesByRank  []int // how many links of each pattern are held back
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
	rec.spilled = false
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
	clear(l.dashesByRank)
}

// end draws, in the recorded order, what the outer canvas still holds
// back (as the frame's last flush would).
func (rec *recorder) end() { rec.flushLevel(&rec.levels[0]) }

func (rec *recorder) top() *recLevel { return &rec.levels[len(rec.levels)-1] }

// class says how the canvas draws an operation.
type opClass uint8

const (
	classShape opClass = iota // with the pass's shapes
	classText                 // after the pass's shapes
	classDash                 // at FlushDashes, by pattern
	classNow                  // at once
	classNone                 // orders or clips the others
)

// add records an operation that may touch the device pixels in bounds
// (logical bounds b, padded, when the operation has no device bounds of
// its own).
func (rec *recorder) add(k opKey, bounds image.Rectangle, class opClass) {
	l := rec.top()
	k.aa = k.aa || (class != classNone && l.aa)
	if l.clipped {
		k.clip = l.clip
		bounds = bounds.Intersect(l.clip)
	}
	i := int32(len(rec.ops))
	rec.ops = append(rec.ops, op{key: k, from: int32(len(rec.pts)), to: int32(len(rec.pts)), bounds: bounds, pos: -1, next: -1})
	switch class {
	case classShape:
		l.shapes = append(l.shapes, i)
	case classText:
		l.texts = append(l.texts, i)
	case classDash:
		rank := rec.c.dashRank(dashKey{k.f[1], k.f[2], rec.c.sc})
		for len(l.dashesByRank) <= rank {
			l.dashesByRank = append(l.dashesByRank, 0)
		}
		// A pattern's batch that is full draws everything held back
		// first (see dashedLink).
		if 8*(l.dashesByRank[rank]+1) > batchVertices {
			rec.flushDashes(l)
			rec.spilled = true
		}
		l.dashesByRank[rank]++
		l.dashes = append(l.dashes, rankedOp{rank, i})
	case classNow:
		rec.emit(i)
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

// flushLevel is a canvas's flush: its shapes, then its text.
func (rec *recorder) flushLevel(l *recLevel) {
	rec.emitAll(l.shapes)
	rec.emitAll(l.texts)
	l.shapes, l.texts = l.shapes[:0], l.texts[:0]
}

// flushDashes is a canvas's flushDashes: its shapes, then its dashed
// links, pattern by pattern in the order the patterns were first used.
func (rec *recorder) flushDashes(l *recLevel) {
	rec.emitAll(l.shapes)
	l.shapes = l.shapes[:0]
	slices.SortStableFunc(l.dashes, func(a, b rankedOp) int { return a.rank - b.rank })
	for _, d := range l.dashes {
		rec.emit(d.op)
	}
	l.dashes = l.dashes[:0]
	clear(l.dashesByRank)
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
	// Without anti-aliasing a canvas draws it at once, as Dashed.
	class := classShape
	if rec.top().aa && b != a && clr.A > 0 {
		class = classDash
	}
	rec.add(opKey{kind: opDashedLink, clr: clr, a: a, b: b, f: [4]float64{w, dash, gap}}, rec.segBox(a, b, w), class)
}

func (rec *recorder) FlushDashes() {
	rec.add(opKey{kind: opFlushDashes}, image.Rectangle{}, classNone)
	rec.flushDashes(rec.top())
}

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
		return // the canvas draws nothing
	}
	rec.add(opKey{kind: opText, clr: clr, t: t}, rec.c.tc.bounds(t, rec.c.sc), classText)
}

func (rec *recorder) Flush() {
	rec.add(opKey{kind: opFlush}, image.Rectangle{}, classNone)
	rec.flushLevel(rec.top())
}

func (rec *recorder) Smooth(on bool) {
	rec.add(opKey{kind: opSmooth, aa: on}, image.Rectangle{}, classNone)
	rec.top().aa = on
}

func (rec *recorder) Measure(s string, size float64) float64 { return Measure(s, size) }

// Clip records the start of a clipped canvas and returns the recorder
// itself: everything drawn until Unclip is recorded as clipped. The
// painter draws only on the clip until it calls Unclip (a call on the
// outer surface in between would be recorded as clipped, where a canvas
// would draw it unclipped).
func (rec *recorder) Clip(r viz.Rect) paint.Surface {
	b := rec.c.clipBounds(r, rec.c.dst.Bounds())
	if l := rec.top(); l.clipped {
		b = b.Intersect(l.clip)
	}
	// Recorded within the clip, so that its key holds the clip.
	rec.push(true, b)
	rec.add(opKey{kind: opClip}, image.Rectangle{}, classNone)
	return rec
}

// Unclip is the clipped canvas's flush: what it holds back is drawn now.
// (A clip's dashed links would wait for its own FlushDashes, which the
// painter never calls on one.)
func (rec *recorder) Unclip(paint.Surface) {
	rec.flushLevel(rec.top())
	rec.levels = rec.levels[:len(rec.levels)-1]
	rec.add(opKey{kind: opUnclip}, image.Rectangle{}, classNone)
}

// panel records panel i copied from the layer into box, as version gen.
func (rec *recorder) panel(i int, box image.Rectangle, gen int) {
	rec.add(opKey{kind: opPanel, f: [4]float64{float64(i)}, clip: box, gen: gen}, box, classNow)
}

// draw draws operation o on canvas c, with points pts.
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
