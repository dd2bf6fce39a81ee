package draw

import (
	"image"

	"github.com/hajimehoshi/ebiten/v2"
)

// culler drops from a batch the triangles that lie wholly outside the
// region the batch is drawn in, before the batch goes to Ebiten.
//
// A frame painted in rectangles (see keptScreen) draws, in each, every
// operation that reaches into it, whole: the rounded box of a log or a
// panel, which takes hundreds of vertices for its corners' feathered
// arcs, is sent again for every small rectangle that touches one of its
// edges, and the region clips away all but a few of its triangles. Those
// vertices cost Ebiten a copy into a buffer it keeps per image (and so per
// region) and one into its frame's queue, which grows to fit the largest
// frame and keeps that size, and the GPU an upload; the culled batch draws
// the same pixels, since a triangle outside the region has none in it.
type culler struct {
	// remap is scratch: a vertex's index in the culled batch, or -1.
	remap []int32
}

// cull returns the batch vs, is without the triangles whose bounding box
// lies more than a pixel outside r (device pixels, the coordinates of the
// vertices), the vertices that only they use dropped and the rest
// renumbered, in order. It reuses vs and is.
func (cl *culler) cull(vs []ebiten.Vertex, is []uint16, r image.Rectangle) ([]ebiten.Vertex, []uint16) {
	x0, y0 := float32(r.Min.X-1), float32(r.Min.Y-1)
	x1, y1 := float32(r.Max.X+1), float32(r.Max.Y+1)
	n := 0
	for t := 0; t+2 < len(is); t += 3 {
		a, b, c := &vs[is[t]], &vs[is[t+1]], &vs[is[t+2]]
		if (a.DstX < x0 && b.DstX < x0 && c.DstX < x0) || (a.DstX > x1 && b.DstX > x1 && c.DstX > x1) ||
			(a.DstY < y0 && b.DstY < y0 && c.DstY < y0) || (a.DstY > y1 && b.DstY > y1 && c.DstY > y1) {
			continue
		}
		is[n], is[n+1], is[n+2] = is[t], is[t+1], is[t+2]
		n += 3
	}
	if n == len(is) {
		return vs, is
	}
	is = is[:n]
	if cap(cl.remap) < len(vs) {
		cl.remap = make([]int32, len(vs))
	}
	remap := cl.remap[:len(vs)]
	for i := range remap {
		remap[i] = -1
	}
	for _, i := range is {
		remap[i] = 0
	}
	// Kept vertices move down, never up: in place.
	m := int32(0)
	for i := range vs {
		if remap[i] < 0 {
			continue
		}
		vs[m] = vs[i]
		remap[i] = m
		m++
	}
	for k, i := range is {
		is[k] = uint16(remap[i])
	}
	return vs[:m], is
}
