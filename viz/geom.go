package viz

import "math"

// Point is a position in logical pixels. X grows to the right, Y downward.
type Point struct{ X, Y float64 }

// Pt is shorthand for Point{x, y}.
func Pt(x, y float64) Point { return Point{x, y} }

// Add returns p+q.
func (p Point) Add(q Point) Point { return Point{p.X + q.X, p.Y + q.Y} }

// Sub returns p-q.
func (p Point) Sub(q Point) Point { return Point{p.X - q.X, p.Y - q.Y} }

// Mul returns p scaled by k.
func (p Point) Mul(k float64) Point { return Point{p.X * k, p.Y * k} }

// Dot returns the dot product of p and q.
func (p Point) Dot(q Point) float64 { return p.X*q.X + p.Y*q.Y }

// Cross returns the z component of the cross product of p and q.
func (p Point) Cross(q Point) float64 { return p.X*q.Y - p.Y*q.X }

// Len returns the length of p as a vector.
func (p Point) Len() float64 { return math.Hypot(p.X, p.Y) }

// Dist returns the distance between p and q.
func (p Point) Dist(q Point) float64 { return math.Hypot(p.X-q.X, p.Y-q.Y) }

// Unit returns p scaled to length 1, or the zero point when p is zero.
func (p Point) Unit() Point {
	l := p.Len()
	if l == 0 {
		return Point{}
	}
	return Point{p.X / l, p.Y / l}
}

// Perp returns p turned a quarter turn clockwise on screen (Y down): for a
// direction of travel it points to the traveller's right.
func (p Point) Perp() Point { return Point{-p.Y, p.X} }

// Segment is the straight line piece from A to B.
type Segment struct{ A, B Point }

// Len returns the length of s.
func (s Segment) Len() float64 { return s.A.Dist(s.B) }

// At returns the point a fraction t of the way from A to B.
func (s Segment) At(t float64) Point { return s.A.Add(s.B.Sub(s.A).Mul(t)) }

// Dist returns the distance from p to the nearest point of s.
func (s Segment) Dist(p Point) float64 { return DistPointSegment(p, s.A, s.B) }

// Rect is an axis-aligned rectangle: X, Y is its top-left corner.
type Rect struct{ X, Y, W, H float64 }

// XYWH is shorthand for Rect{x, y, w, h}.
func XYWH(x, y, w, h float64) Rect { return Rect{x, y, w, h} }

// Right returns the X coordinate of r's right edge.
func (r Rect) Right() float64 { return r.X + r.W }

// Bottom returns the Y coordinate of r's bottom edge.
func (r Rect) Bottom() float64 { return r.Y + r.H }

// Center returns the centre of r.
func (r Rect) Center() Point { return Point{r.X + r.W/2, r.Y + r.H/2} }

// Empty reports whether r has no area.
func (r Rect) Empty() bool { return !(r.W > 0 && r.H > 0) }

// Contains reports whether p lies in r, edges included.
func (r Rect) Contains(p Point) bool {
	return p.X >= r.X && p.X <= r.Right() && p.Y >= r.Y && p.Y <= r.Bottom()
}

// ContainsRect reports whether q lies wholly inside r, edges included.
func (r Rect) ContainsRect(q Rect) bool {
	return q.X >= r.X && q.Y >= r.Y && q.Right() <= r.Right() && q.Bottom() <= r.Bottom()
}

// ContainsCircle reports whether the whole disc c lies inside r.
func (r Rect) ContainsCircle(c Circle) bool {
	return c.C.X-c.R >= r.X && c.C.X+c.R <= r.Right() &&
		c.C.Y-c.R >= r.Y && c.C.Y+c.R <= r.Bottom()
}

// Overlaps reports whether r and q share some area; touching edges and
// empty rectangles do not count.
func (r Rect) Overlaps(q Rect) bool {
	if r.Empty() || q.Empty() {
		return false
	}
	return r.X < q.Right() && q.X < r.Right() && r.Y < q.Bottom() && q.Y < r.Bottom()
}

// Inset returns r shrunk by d on every side (grown when d < 0). It never
// returns a negative size: a rectangle too small to shrink collapses to its
// centre.
func (r Rect) Inset(d float64) Rect {
	w, h := r.W-2*d, r.H-2*d
	x, y := r.X+d, r.Y+d
	if w < 0 {
		x, w = r.X+r.W/2, 0
	}
	if h < 0 {
		y, h = r.Y+r.H/2, 0
	}
	return Rect{x, y, w, h}
}

// Frac returns where p.X lies across r, from 0 at the left edge to 1 at the
// right edge, clamped to [0, 1].
func (r Rect) Frac(p Point) float64 {
	if r.W <= 0 {
		return 0
	}
	return clamp((p.X-r.X)/r.W, 0, 1)
}

// cutTop splits off a strip of height h (clamped to r) from the top of r,
// leaving a gap below it, and returns the strip and what remains.
func (r Rect) cutTop(h, gap float64) (top, rest Rect) {
	h = clamp(h, 0, r.H)
	g := clamp(gap, 0, r.H-h)
	return Rect{r.X, r.Y, r.W, h}, Rect{r.X, r.Y + h + g, r.W, r.H - h - g}
}

// cutBottom is cutTop from the bottom edge.
func (r Rect) cutBottom(h, gap float64) (bottom, rest Rect) {
	h = clamp(h, 0, r.H)
	g := clamp(gap, 0, r.H-h)
	return Rect{r.X, r.Bottom() - h, r.W, h}, Rect{r.X, r.Y, r.W, r.H - h - g}
}

// cutLeft is cutTop from the left edge.
func (r Rect) cutLeft(w, gap float64) (left, rest Rect) {
	w = clamp(w, 0, r.W)
	g := clamp(gap, 0, r.W-w)
	return Rect{r.X, r.Y, w, r.H}, Rect{r.X + w + g, r.Y, r.W - w - g, r.H}
}

// cutRight is cutTop from the right edge.
func (r Rect) cutRight(w, gap float64) (right, rest Rect) {
	w = clamp(w, 0, r.W)
	g := clamp(gap, 0, r.W-w)
	return Rect{r.Right() - w, r.Y, w, r.H}, Rect{r.X, r.Y, r.W - w - g, r.H}
}

// Circle is the disc of radius R around C.
type Circle struct {
	C Point
	R float64
}

// Contains reports whether p lies in the disc, edge included.
func (c Circle) Contains(p Point) bool { return c.C.Dist(p) <= c.R }

// DistPointSegment returns the distance from p to the nearest point of the
// segment ab. A segment whose ends coincide is treated as a point.
func DistPointSegment(p, a, b Point) float64 {
	ab := b.Sub(a)
	l2 := ab.Dot(ab)
	if l2 == 0 {
		return p.Dist(a)
	}
	t := clamp(p.Sub(a).Dot(ab)/l2, 0, 1)
	return p.Dist(a.Add(ab.Mul(t)))
}

// orient returns the orientation of c relative to the directed line ab:
// +1 for one side, -1 for the other and 0 when c is on the line or too close
// to it for float64 arithmetic to tell. The error bound is the classic
// first-stage filter of an adaptive orientation predicate, so the answer's
// sign is never wrong; it is only 0 when uncertain. orient(b, a, c) is
// exactly -orient(a, b, c).
func orient(a, b, c Point) int {
	l := (a.X - c.X) * (b.Y - c.Y)
	r := (a.Y - c.Y) * (b.X - c.X)
	det := l - r
	bound := 3.3306690738754716e-16 * (math.Abs(l) + math.Abs(r))
	switch {
	case det > bound:
		return 1
	case det < -bound:
		return -1
	}
	return 0
}

// onBox reports whether p lies in the bounding box of segment ab. For a p
// collinear with ab that means p lies on the segment.
func onBox(a, b, p Point) bool {
	return p.X >= math.Min(a.X, b.X) && p.X <= math.Max(a.X, b.X) &&
		p.Y >= math.Min(a.Y, b.Y) && p.Y <= math.Max(a.Y, b.Y)
}

// SegmentsIntersect reports whether segments ab and cd share any point:
// a proper crossing, an end touching the other segment, or a collinear
// overlap. Segments whose ends coincide are points and intersect only what
// passes through them.
func SegmentsIntersect(a, b, c, d Point) bool {
	o1, o2 := orient(a, b, c), orient(a, b, d)
	o3, o4 := orient(c, d, a), orient(c, d, b)
	if o1*o2 < 0 && o3*o4 < 0 {
		return true
	}
	return (o1 == 0 && onBox(a, b, c)) || (o2 == 0 && onBox(a, b, d)) ||
		(o3 == 0 && onBox(c, d, a)) || (o4 == 0 && onBox(c, d, b))
}

// SegmentIntersection reports whether segments ab and cd intersect and, if
// so, the parameter t in [0, 1] of the first shared point along ab (the
// point a+(b-a)t). For a collinear overlap that is the overlap's end
// nearest a.
func SegmentIntersection(a, b, c, d Point) (t float64, ok bool) {
	if !SegmentsIntersect(a, b, c, d) {
		return 0, false
	}
	ab, cd := b.Sub(a), d.Sub(c)
	den := ab.Cross(cd)
	if orient(a, b, c) != 0 || orient(a, b, d) != 0 {
		// Not collinear: the lines meet in one point.
		if den == 0 {
			return 0, true
		}
		return clamp(c.Sub(a).Cross(cd)/den, 0, 1), true
	}
	l2 := ab.Dot(ab)
	if l2 == 0 {
		return 0, true
	}
	tc, td := c.Sub(a).Dot(ab)/l2, d.Sub(a).Dot(ab)/l2
	return clamp(math.Min(tc, td), 0, 1), true
}

func clamp(v, lo, hi float64) float64 {
	if hi < lo {
		hi = lo
	}
	switch {
	case v < lo:
		return lo
	case v > hi:
		return hi
	case v != v: // NaN
		return lo
	}
	return v
}
