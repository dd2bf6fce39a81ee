package viz

import (
	"math"
	"testing"
)

func TestDistPointSegment(t *testing.T) {
	tests := []struct {
		name    string
		p, a, b Point
		want    float64
	}{
		{"above middle", Pt(5, 3), Pt(0, 0), Pt(10, 0), 3},
		{"on segment", Pt(4, 0), Pt(0, 0), Pt(10, 0), 0},
		{"beyond B", Pt(13, 4), Pt(0, 0), Pt(10, 0), 5},
		{"before A", Pt(-3, -4), Pt(0, 0), Pt(10, 0), 5},
		{"diagonal", Pt(0, 2), Pt(0, 0), Pt(2, 2), math.Sqrt2},
		{"degenerate segment", Pt(3, 4), Pt(0, 0), Pt(0, 0), 5},
		{"on line past end", Pt(12, 0), Pt(0, 0), Pt(10, 0), 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := DistPointSegment(tc.p, tc.a, tc.b)
			if math.Abs(got-tc.want) > 1e-12 {
				t.Errorf("DistPointSegment(%v, %v, %v) = %v, want %v", tc.p, tc.a, tc.b, got, tc.want)
			}
			if rev := DistPointSegment(tc.p, tc.b, tc.a); math.Abs(rev-got) > 1e-12 {
				t.Errorf("reversed segment gives %v, want %v", rev, got)
			}
			if s := Seg(tc.a, tc.b).Dist(tc.p); s != got {
				t.Errorf("Segment.Dist = %v, want %v", s, got)
			}
		})
	}
}

func TestSegments(t *testing.T) {
	tests := []struct {
		name       string
		a, b, c, d Point
		cross      bool
		intersect  bool
		tFirst     float64 // parameter along ab when intersecting
	}{
		{"X crossing", Pt(0, 0), Pt(10, 10), Pt(0, 10), Pt(10, 0), true, true, 0.5},
		{"crossing off centre", Pt(0, 0), Pt(10, 0), Pt(2, -1), Pt(2, 1), true, true, 0.2},
		{"disjoint parallel", Pt(0, 0), Pt(10, 0), Pt(0, 1), Pt(10, 1), false, false, 0},
		{"lines cross outside segments", Pt(0, 0), Pt(1, 1), Pt(3, 0), Pt(2, 1), false, false, 0},
		{"T touch: end on interior", Pt(0, 0), Pt(10, 0), Pt(5, 0), Pt(5, 5), false, true, 0.5},
		{"ends touch", Pt(0, 0), Pt(10, 0), Pt(10, 0), Pt(10, 5), false, true, 1},
		{"collinear overlap", Pt(0, 0), Pt(10, 0), Pt(4, 0), Pt(20, 0), false, true, 0.4},
		{"collinear overlap reversed", Pt(0, 0), Pt(10, 0), Pt(20, 0), Pt(4, 0), false, true, 0.4},
		{"collinear containing", Pt(2, 0), Pt(4, 0), Pt(0, 0), Pt(10, 0), false, true, 0},
		{"collinear disjoint", Pt(0, 0), Pt(1, 1), Pt(2, 2), Pt(3, 3), false, false, 0},
		{"collinear touching ends", Pt(0, 0), Pt(1, 1), Pt(1, 1), Pt(3, 3), false, true, 1},
		{"point on segment", Pt(0, 0), Pt(10, 0), Pt(3, 0), Pt(3, 0), false, true, 0.3},
		{"point off segment", Pt(0, 0), Pt(10, 0), Pt(3, 1), Pt(3, 1), false, false, 0},
		{"point on collinear extension", Pt(0, 0), Pt(10, 0), Pt(11, 0), Pt(11, 0), false, false, 0},
		{"two equal points", Pt(2, 2), Pt(2, 2), Pt(2, 2), Pt(2, 2), false, true, 0},
		{"two different points", Pt(2, 2), Pt(2, 2), Pt(2, 3), Pt(2, 3), false, false, 0},
		{"degenerate first on second", Pt(5, 0), Pt(5, 0), Pt(0, 0), Pt(10, 0), false, true, 0},
		{"large coordinates crossing", Pt(-1e9, -1e9), Pt(1e9, 1e9), Pt(-1e9, 1e9), Pt(1e9, -1e9), true, true, 0.5},
		{"tiny coordinates crossing", Pt(0, 0), Pt(1e-9, 1e-9), Pt(0, 1e-9), Pt(1e-9, 0), true, true, 0.5},
		{"nearly parallel just crossing", Pt(0, 0), Pt(1000, 1), Pt(0, 0.5), Pt(1000, 0.5), true, true, 0.5},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := SegmentsCross(tc.a, tc.b, tc.c, tc.d); got != tc.cross {
				t.Errorf("SegmentsCross = %v, want %v", got, tc.cross)
			}
			if got := SegmentsIntersect(tc.a, tc.b, tc.c, tc.d); got != tc.intersect {
				t.Errorf("SegmentsIntersect = %v, want %v", got, tc.intersect)
			}
			// Every symmetry of the two segments gives the same answers.
			for _, s := range symmetries(tc.a, tc.b, tc.c, tc.d) {
				if got := SegmentsCross(s[0], s[1], s[2], s[3]); got != tc.cross {
					t.Errorf("SegmentsCross%v = %v, want %v", s, got, tc.cross)
				}
				if got := SegmentsIntersect(s[0], s[1], s[2], s[3]); got != tc.intersect {
					t.Errorf("SegmentsIntersect%v = %v, want %v", s, got, tc.intersect)
				}
			}
			tt, ok := SegmentIntersection(tc.a, tc.b, tc.c, tc.d)
			if ok != tc.intersect {
				t.Fatalf("SegmentIntersection ok = %v, want %v", ok, tc.intersect)
			}
			if ok && math.Abs(tt-tc.tFirst) > 1e-9 {
				t.Errorf("SegmentIntersection t = %v, want %v", tt, tc.tFirst)
			}
		})
	}
}

// symmetries returns the eight orderings of two segments that describe the
// same pair: either segment first, each in either direction.
func symmetries(a, b, c, d Point) [][4]Point {
	return [][4]Point{
		{a, b, c, d}, {b, a, c, d}, {a, b, d, c}, {b, a, d, c},
		{c, d, a, b}, {d, c, a, b}, {c, d, b, a}, {d, c, b, a},
	}
}

// TestSegmentsGrid checks every pair of segments with ends on a small
// integer grid against a direct definition: two segments intersect when
// they cross properly (exact integer cross products) or an end of one lies
// on the other.
func TestSegmentsGrid(t *testing.T) {
	var pts []Point
	for x := -2; x <= 2; x++ {
		for y := -2; y <= 1; y++ {
			pts = append(pts, Pt(float64(x), float64(y)))
		}
	}
	icross := func(o, p, q Point) int64 {
		return int64(p.X-o.X)*int64(q.Y-o.Y) - int64(p.Y-o.Y)*int64(q.X-o.X)
	}
	sign := func(v int64) int64 {
		switch {
		case v > 0:
			return 1
		case v < 0:
			return -1
		}
		return 0
	}
	checked := 0
	for _, a := range pts {
		for _, b := range pts {
			for _, c := range pts {
				for _, d := range pts {
					proper := sign(icross(a, b, c))*sign(icross(a, b, d)) < 0 &&
						sign(icross(c, d, a))*sign(icross(c, d, b)) < 0
					touch := DistPointSegment(a, c, d) < 1e-9 || DistPointSegment(b, c, d) < 1e-9 ||
						DistPointSegment(c, a, b) < 1e-9 || DistPointSegment(d, a, b) < 1e-9
					if got := SegmentsCross(a, b, c, d); got != proper {
						t.Fatalf("SegmentsCross(%v,%v,%v,%v) = %v, want %v", a, b, c, d, got, proper)
					}
					if got := SegmentsIntersect(a, b, c, d); got != (proper || touch) {
						t.Fatalf("SegmentsIntersect(%v,%v,%v,%v) = %v, want %v", a, b, c, d, got, proper || touch)
					}
					checked++
				}
			}
		}
	}
	if checked != len(pts)*len(pts)*len(pts)*len(pts) {
		t.Fatalf("checked %d pairs", checked)
	}
}

func FuzzSegments(f *testing.F) {
	f.Add(0.0, 0.0, 10.0, 10.0, 0.0, 10.0, 10.0, 0.0)
	f.Add(0.0, 0.0, 10.0, 0.0, 4.0, 0.0, 20.0, 0.0)
	f.Add(1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 2.0, 2.0)
	f.Add(0.1, 0.2, 0.30000000000000004, 0.6, 0.2, 0.4, 1e6, -3.0)
	f.Fuzz(func(t *testing.T, ax, ay, bx, by, cx, cy, dx, dy float64) {
		for _, v := range []float64{ax, ay, bx, by, cx, cy, dx, dy} {
			if math.IsNaN(v) || math.Abs(v) > 1e6 {
				return
			}
		}
		a, b, c, d := Pt(ax, ay), Pt(bx, by), Pt(cx, cy), Pt(dx, dy)
		cross := SegmentsCross(a, b, c, d)
		inter := SegmentsIntersect(a, b, c, d)
		for _, s := range symmetries(a, b, c, d) {
			if SegmentsCross(s[0], s[1], s[2], s[3]) != cross || SegmentsIntersect(s[0], s[1], s[2], s[3]) != inter {
				t.Fatalf("answers depend on the order of %v", s)
			}
		}
		if cross && !inter {
			t.Fatalf("crossing segments do not intersect")
		}
		tt, ok := SegmentIntersection(a, b, c, d)
		if ok != inter {
			t.Fatalf("SegmentIntersection ok = %v, SegmentsIntersect = %v", ok, inter)
		}
		if ok {
			if tt < 0 || tt > 1 {
				t.Fatalf("t = %v outside [0, 1]", tt)
			}
			scale := 1 + math.Max(math.Max(a.Len(), b.Len()), math.Max(c.Len(), d.Len()))
			if dist := DistPointSegment(Seg(a, b).At(tt), c, d); dist > 1e-6*scale {
				t.Fatalf("point at t=%v is %v away from the other segment", tt, dist)
			}
		}
		dp := DistPointSegment(c, a, b)
		if dp < 0 || dp > c.Dist(a)+1e-9 || dp > c.Dist(b)+1e-9 {
			t.Fatalf("DistPointSegment = %v, not within [0, distance to either end]", dp)
		}
	})
}

func TestRect(t *testing.T) {
	r := XYWH(10, 20, 100, 50)
	if r.Right() != 110 || r.Bottom() != 70 || r.Center() != Pt(60, 45) {
		t.Fatalf("edges/centre wrong: %v %v %v", r.Right(), r.Bottom(), r.Center())
	}
	contains := []struct {
		p    Point
		want bool
	}{
		{Pt(10, 20), true}, {Pt(110, 70), true}, {Pt(60, 45), true},
		{Pt(9.99, 45), false}, {Pt(60, 70.01), false}, {Pt(111, 21), false},
	}
	for _, c := range contains {
		if got := r.Contains(c.p); got != c.want {
			t.Errorf("Contains(%v) = %v, want %v", c.p, got, c.want)
		}
	}
	overlaps := []struct {
		q    Rect
		want bool
	}{
		{XYWH(0, 0, 11, 21), true},
		{XYWH(110, 20, 10, 10), false}, // touching edge
		{XYWH(0, 0, 10, 100), false},   // touching left edge
		{XYWH(50, 30, 1, 1), true},     // inside
		{XYWH(50, 30, 0, 10), false},   // empty
		{XYWH(-100, -100, 500, 500), true},
	}
	for _, c := range overlaps {
		if got := r.Overlaps(c.q); got != c.want {
			t.Errorf("Overlaps(%v) = %v, want %v", c.q, got, c.want)
		}
		if got := c.q.Overlaps(r); got != c.want {
			t.Errorf("Overlaps is not symmetric for %v", c.q)
		}
	}
	if !r.ContainsRect(XYWH(10, 20, 100, 50)) || r.ContainsRect(XYWH(10, 20, 100.5, 50)) {
		t.Errorf("ContainsRect wrong at the edges")
	}
	if !r.ContainsCircle(Circle{Pt(35, 45), 25}) || r.ContainsCircle(Circle{Pt(34, 45), 25}) {
		t.Errorf("ContainsCircle wrong at the edges")
	}
	if got := r.Inset(5); got != XYWH(15, 25, 90, 40) {
		t.Errorf("Inset(5) = %v", got)
	}
	if got := r.Inset(30); got.H != 0 || got.W != 40 || !r.ContainsRect(got) {
		t.Errorf("Inset(30) = %v, want zero height inside r", got)
	}
	if f := r.Frac(Pt(35, 0)); f != 0.25 {
		t.Errorf("Frac = %v, want 0.25", f)
	}
	if f := r.Frac(Pt(-5, 0)); f != 0 {
		t.Errorf("Frac left of rect = %v, want 0", f)
	}
	if f := r.Frac(Pt(500, 0)); f != 1 {
		t.Errorf("Frac right of rect = %v, want 1", f)
	}
}

func TestRectCuts(t *testing.T) {
	r := XYWH(0, 0, 100, 60)
	tests := []struct {
		name              string
		cut               func(size, gap float64) (Rect, Rect)
		size, gap         float64
		wantCut, wantRest Rect
	}{
		{"top", r.cutTop, 20, 4, XYWH(0, 0, 100, 20), XYWH(0, 24, 100, 36)},
		{"bottom", r.cutBottom, 20, 4, XYWH(0, 40, 100, 20), XYWH(0, 0, 100, 36)},
		{"left", r.cutLeft, 30, 5, XYWH(0, 0, 30, 60), XYWH(35, 0, 65, 60)},
		{"right", r.cutRight, 30, 5, XYWH(70, 0, 30, 60), XYWH(0, 0, 65, 60)},
		// Asking for more than there is takes everything and leaves nothing.
		{"oversized top", r.cutTop, 500, 10, r, XYWH(0, 60, 100, 0)},
		{"oversized right", r.cutRight, 500, 10, r, XYWH(0, 0, 0, 60)},
	}
	for _, tc := range tests {
		cut, rest := tc.cut(tc.size, tc.gap)
		if cut != tc.wantCut || rest != tc.wantRest {
			t.Errorf("%s: got %v, %v; want %v, %v", tc.name, cut, rest, tc.wantCut, tc.wantRest)
		}
		if !r.ContainsRect(cut) || !r.ContainsRect(rest) || cut.Overlaps(rest) {
			t.Errorf("%s: pieces %v, %v leave r or overlap", tc.name, cut, rest)
		}
	}
}

func TestCircleAndPoint(t *testing.T) {
	c := Circle{Pt(0, 0), 5}
	if !c.Contains(Pt(3, 4)) || c.Contains(Pt(3, 4.01)) || !c.Contains(Pt(0, 0)) {
		t.Errorf("Circle.Contains wrong at the edge")
	}
	if u := Pt(3, 4).Unit(); math.Abs(u.X-0.6) > 1e-15 || math.Abs(u.Y-0.8) > 1e-15 {
		t.Errorf("Unit = %v", u)
	}
	if u := (Point{}).Unit(); u != (Point{}) {
		t.Errorf("Unit of zero = %v", u)
	}
	// Moving right on screen, the traveller's right is downward (Y grows down).
	if p := Pt(1, 0).Perp(); p != Pt(0, 1) {
		t.Errorf("Perp = %v, want (0,1)", p)
	}
	if got := Seg(Pt(0, 0), Pt(10, 20)).At(0.25); got != Pt(2.5, 5) {
		t.Errorf("At = %v", got)
	}
	if got := Seg(Pt(1, 1), Pt(4, 5)).Len(); got != 5 {
		t.Errorf("Len = %v", got)
	}
	if got := XYWH(10, 0, 0, 5).Frac(Pt(50, 0)); got != 0 {
		t.Errorf("Frac of an empty rect = %v", got)
	}
}

func TestClamp(t *testing.T) {
	tests := []struct{ v, lo, hi, want float64 }{
		{5, 0, 10, 5}, {-1, 0, 10, 0}, {11, 0, 10, 10}, {math.NaN(), 2, 10, 2},
		{5, 10, 0, 10}, // empty range collapses to lo
	}
	for _, tc := range tests {
		if got := clamp(tc.v, tc.lo, tc.hi); got != tc.want {
			t.Errorf("clamp(%v, %v, %v) = %v, want %v", tc.v, tc.lo, tc.hi, got, tc.want)
		}
	}
}
