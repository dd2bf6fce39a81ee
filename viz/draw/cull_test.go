//go:build desktop

package draw

import (
	"image"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"
)

// TestCullKeepsTheTrianglesThatReachIntoTheRegion: a batch culled to a
// region keeps, in order, every triangle that reaches within a pixel of it
// (inside, across its edge, or less than a pixel outside), drops those
// further out and the vertices only they used, and the kept triangles have
// the same corners as before.
func TestCullKeepsTheTrianglesThatReachIntoTheRegion(t *testing.T) {
	r := image.Rect(10, 10, 20, 20)
	v := func(x, y float32) ebiten.Vertex { return ebiten.Vertex{DstX: x, DstY: y, SrcX: x, ColorA: 1} }
	vs := []ebiten.Vertex{
		v(12, 12), v(15, 12), v(12, 15), // 0-2: inside
		v(0, 0), v(5, 0), // 3-4: with 0, a triangle across the top-left corner
		v(30, 30), v(35, 30), v(30, 35), // 5-7: below and to the right
		v(9.2, 12), v(9.5, 14), v(9.3, 16), // 8-10: less than a pixel to the left
		v(0, 12), v(3, 12), v(0, 18), // 11-13: far to the left
		v(12, 21.5), v(14, 25), v(16, 21.5), // 14-16: more than a pixel below
	}
	is := []uint16{0, 1, 2, 5, 6, 7, 0, 3, 4, 11, 12, 13, 8, 9, 10, 14, 15, 16, 2, 1, 0}
	want := [][3]ebiten.Vertex{
		{vs[0], vs[1], vs[2]},
		{vs[0], vs[3], vs[4]},
		{vs[8], vs[9], vs[10]},
		{vs[2], vs[1], vs[0]},
	}
	var cl culler
	gotVs, gotIs := cl.cull(append([]ebiten.Vertex(nil), vs...), append([]uint16(nil), is...), r)
	if len(gotIs) != 3*len(want) {
		t.Fatalf("kept %d triangles, want %d: indices %v", len(gotIs)/3, len(want), gotIs)
	}
	for i, w := range want {
		for j := range 3 {
			k := gotIs[3*i+j]
			if int(k) >= len(gotVs) {
				t.Fatalf("triangle %d: index %d, past the %d vertices kept", i, k, len(gotVs))
			}
			if gotVs[k] != w[j] {
				t.Errorf("triangle %d, corner %d: %+v, want %+v", i, j, gotVs[k], w[j])
			}
		}
	}
	if len(gotVs) != 8 {
		t.Errorf("kept %d vertices, want the 8 the kept triangles use", len(gotVs))
	}

	// A batch all inside is left as it is.
	inside := []uint16{0, 1, 2}
	gotVs, gotIs = cl.cull(vs, inside, r)
	if len(gotVs) != len(vs) || len(gotIs) != 3 || &gotVs[0] != &vs[0] {
		t.Errorf("a batch with nothing to cull changed: %d vertices, %v", len(gotVs), gotIs)
	}
}
