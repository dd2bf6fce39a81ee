//go:build desktop

package draw

import (
	"image"
	"math"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"

	"raftlab/viz"
)

// TestDashedLinksCoverTheirDashes: a dashed link drawn as one textured
// strip covers what its dashes would, dash by dash, at several scales
// and slants, in eight vertices.
func TestDashedLinksCoverTheirDashes(t *testing.T) {
	for _, sc := range []float64{1, 2, 2.625} {
		w, h := int(240*sc), int(240*sc)
		img := ebiten.NewImage(w, h)
		img.Fill(hex(0xffffff).rgba())
		c := &canvas{dst: img, sc: sc}
		c.aa = true
		ink := hex(0x000000)
		// Horizontal, from x = 20 to 220 at y = 30: 20 dashes of 6 and
		// gaps of 4, 2 wide.
		c.dashedLink(viz.Pt(20, 30), viz.Pt(220, 30), 2, 6, 4, ink)
		if n := len(c.dashes[dashKey{6, 4, sc}].vs); n != 8 {
			t.Errorf("scale %v: the dashed link took %d vertices, want 8", sc, n)
		}
		// The same length on a slant, lower down.
		d := viz.Pt(3, 4).Mul(200.0 / 5 / 5)
		from := viz.Pt(20, 60)
		c.dashedLink(from, from.Add(d.Mul(5)), 2, 6, 4, ink)
		c.flushDashes()
		out := image.NewRGBA(image.Rect(0, 0, w, h))
		img.ReadPixels(out.Pix)
		px := func(x, y float64) image.Rectangle {
			return image.Rect(int(x*sc), int(y*sc), int(x*sc)+1, int(y*sc)+1)
		}
		// Dash k spans x = 20+10k to 26+10k: its middle is inked, the
		// middle of the gap after it is not.
		for k := 0; k < 20; k++ {
			x := 20 + 10*float64(k)
			if cov := coverage(out, px(x+3, 30)); cov < 0.9 {
				t.Errorf("scale %v: dash %d is not inked at its middle (coverage %.2f)", sc, k, cov)
			}
			if cov := coverage(out, px(x+8, 30)); cov > 0.1 {
				t.Errorf("scale %v: the gap after dash %d is inked (coverage %.2f)", sc, k, cov)
			}
		}
		// In all: 120 of the 200 pixels along, 2 wide.
		want := 120 * 2 * sc * sc
		if got := coverage(out, image.Rect(0, int(20*sc), w, int(40*sc))); math.Abs(got-want) > 0.05*want {
			t.Errorf("scale %v: the horizontal link covers %.0f device pixels, want about %.0f", sc, got, want)
		}
		if got := coverage(out, image.Rect(0, int(45*sc), w, h)); math.Abs(got-want) > 0.06*want {
			t.Errorf("scale %v: the slanted link covers %.0f device pixels, want about %.0f", sc, got, want)
		}
		img.Deallocate()
	}
}
