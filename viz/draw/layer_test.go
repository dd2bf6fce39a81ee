//go:build desktop

package draw

import (
	"image"
	"raftlab/viz/frame"
	"testing"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
)

// paintBoth paints f onto two images, once keeping the panels on lc's
// layer and once painting everything straight onto the screen, and says
// how many pixels differ by more than rounding.
func paintBoth(t *testing.T, lc *canvas, f *frame.Frame, pal *palette) (differ int, at image.Point) {
	t.Helper()
	w, h := int(f.W), int(f.H)
	direct := ebiten.NewImage(w, h)
	defer direct.Deallocate()
	dc := &canvas{dst: direct, sc: 1, tc: lc.tc}
	dc.paintFrame(f, pal)
	lc.paintFrame(f, pal)
	a, b := make([]byte, 4*w*h), make([]byte, 4*w*h)
	direct.ReadPixels(a)
	lc.dst.ReadPixels(b)
	for i := range a {
		d := int(a[i]) - int(b[i])
		if d > 2 || d < -2 {
			if differ == 0 {
				at = image.Pt(i/4%w, i/4/w)
			}
			differ++
		}
	}
	return differ, at
}

// TestPanelLayerPaintsWhatDirectPaintingDoes: the panels copied from the
// layer look as they do painted straight onto the screen, frame after
// frame, and a panel is painted anew exactly when what it shows changed.
func TestPanelLayerPaintsWhatDirectPaintingDoes(t *testing.T) {
	a := newApp(t, scene{w: 1280, h: 800, nodes: 5})
	var now time.Duration
	untilLeader(t, a, &now)
	img := ebiten.NewImage(1280, 800)
	defer img.Deallocate()
	lc := &canvas{dst: img, sc: 1, tc: &textCache{}, layer: &panelLayer{}}
	pal := lightPalette()

	f := a.Frame()
	if len(f.Panels) < 2 {
		t.Fatalf("the app shows %d panels; the test needs several", len(f.Panels))
	}
	if n, at := paintBoth(t, lc, f, pal); n > 0 {
		t.Fatalf("first frame: %d pixels differ from painting directly, the first at %v", n, at)
	}
	if !lc.layer.moved {
		t.Fatal("the first frame did not paint the panels onto the layer")
	}
	// The run goes on, but with no writes and no selection the panels stay
	// as they are; the cluster moves under them.
	run(a, &now, time.Second/60)
	f = a.Frame()
	if n, at := paintBoth(t, lc, f, pal); n > 0 {
		t.Fatalf("second frame: %d pixels differ, the first at %v", n, at)
	}
	if lc.layer.moved {
		t.Error("a panel was painted anew though no panel changed")
	}
	// A write changes the client panel: it is painted anew, and still
	// matches.
	a.Key("c")
	run(a, &now, 500*time.Millisecond)
	f = a.Frame()
	if n, at := paintBoth(t, lc, f, pal); n > 0 {
		t.Fatalf("after a write: %d pixels differ, the first at %v", n, at)
	}
	if !lc.layer.moved {
		t.Error("the client panel changed but nothing was painted anew")
	}
	// The dark theme paints every panel anew in its colours.
	dark := darkPalette()
	if n, at := paintBoth(t, lc, f, dark); n > 0 {
		t.Fatalf("dark theme: %d pixels differ, the first at %v", n, at)
	}
	if !lc.layer.moved {
		t.Error("the theme changed but the panels were copied from the layer")
	}
	// A narrower canvas moves the panels: the layer follows.
	a.Resize(900, 700)
	run(a, &now, time.Second/60)
	f = a.Frame()
	small := ebiten.NewImage(900, 700)
	defer small.Deallocate()
	lc.dst = small
	if n, at := paintBoth(t, lc, f, dark); n > 0 {
		t.Fatalf("after a resize: %d pixels differ, the first at %v", n, at)
	}
}
