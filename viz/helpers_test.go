package viz

// Seg is shorthand for Segment{a, b}.
func Seg(a, b Point) Segment { return Segment{a, b} }

// SegmentsCross reports whether segments ab and cd cross properly: they
// meet at exactly one point that is interior to both. Touching at an end,
// collinear overlap and degenerate (point) segments are not crossings. The
// gestures need only SegmentsIntersect; the tests hold the two apart.
func SegmentsCross(a, b, c, d Point) bool {
	o1, o2 := orient(a, b, c), orient(a, b, d)
	o3, o4 := orient(c, d, a), orient(c, d, b)
	return o1*o2 < 0 && o3*o4 < 0
}

// NewLayout lays out n nodes on a w×h canvas, with or without the side
// panels: ComputeLayout with the other options at their defaults.
func NewLayout(w, h float64, n int, panels bool) Layout {
	return ComputeLayout(LayoutOptions{Width: w, Height: h, Nodes: n, Panels: panels})
}
