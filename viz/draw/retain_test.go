//go:build desktop

package draw

import (
	"image"
	"testing"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"raftlab/viz/app"
)

// keptFrames paints frames of a onto one screen that keeps what it shows
// between frames, and checks each against the same frame painted whole on
// a cleared image.
type keptFrames struct {
	t      *testing.T
	a      *app.App
	now    time.Duration
	screen *ebiten.Image
	cv     *canvas
}

func newKeptFrames(t *testing.T, a *app.App, w, h int) *keptFrames {
	k := &keptFrames{t: t, a: a, screen: ebiten.NewImage(w, h)}
	t.Cleanup(k.screen.Deallocate)
	k.cv = &canvas{dst: k.screen, sc: 1, tc: &textCache{}, layer: &panelLayer{}, kept: &keptScreen{}}
	return k
}

// frame advances the app by d and paints one frame both ways.
func (k *keptFrames) frame(what string, d time.Duration, pal *palette) {
	k.t.Helper()
	run(k.a, &k.now, d)
	f := k.a.Frame()
	b := k.screen.Bounds()
	direct := ebiten.NewImage(b.Dx(), b.Dy())
	defer direct.Deallocate()
	dc := &canvas{dst: direct, sc: 1, tc: k.cv.tc}
	dc.paintFrame(f, pal)
	k.cv.paintFrame(f, pal)
	want, got := make([]byte, 4*b.Dx()*b.Dy()), make([]byte, 4*b.Dx()*b.Dy())
	direct.ReadPixels(want)
	k.screen.ReadPixels(got)
	differ, at := 0, image.Point{}
	for i := range want {
		if d := int(want[i]) - int(got[i]); d > 2 || d < -2 {
			if differ == 0 {
				at = image.Pt(i/4%b.Dx(), i/4/b.Dx())
			}
			differ++
		}
	}
	if differ > 0 {
		k.t.Fatalf("%s: %d pixel values differ from the frame painted whole, the first at %v", what, differ, at)
	}
}

// TestKeptScreenPaintsWhatPaintingWholeDoes: a frame that paints only
// what changed onto the last frame looks as the same frame painted whole,
// through a run, a write, an overlay over everything, a theme change and
// a resize; and while the run plays with nothing else changing, frames
// keep the panels and logs instead of painting them whole.
func TestKeptScreenPaintsWhatPaintingWholeDoes(t *testing.T) {
	a := newApp(t, scene{w: 1280, h: 800, nodes: 5})
	k := newKeptFrames(t, a, 1280, 800)
	untilLeader(t, a, &k.now)
	light := lightPalette()
	k.frame("first frame", 0, light)
	ks := k.cv.kept
	if ks.whole != 1 || !ks.valid {
		t.Fatalf("the first frame was not painted whole (whole %d, partly %d, valid %v)", ks.whole, ks.partly, ks.valid)
	}
	filled, copied := ks.filled, ks.copied
	for range 60 {
		k.frame("the run playing", time.Second/60, light)
	}
	t.Logf("a playing run, per frame: %d pixels filled with the background, %d copied from the panels' layer (painted whole: %d and %d)",
		(ks.filled-filled)/60, (ks.copied-copied)/60, filled, copied)
	if ks.partly < 55 {
		t.Errorf("only %d of 60 frames of a playing run kept parts of the screen (%d painted whole)", ks.partly, ks.whole-1)
	}
	if !overlapsAny(ks.panels, []image.Rectangle{image.Rect(1000, 100, 1001, 101)}) {
		t.Errorf("the panels' boxes %v do not cover the right-hand column", ks.panels)
	}
	// A write changes the logs and the client panel.
	a.Key("c")
	for range 40 {
		k.frame("after a write", time.Second/60, light)
	}
	// The help covers everything, panels included: frames clash with the
	// panels kept and are painted whole, and again once it closes.
	whole := ks.whole
	a.Key("?")
	for range 5 {
		k.frame("help open", time.Second/60, light)
	}
	if ks.whole == whole {
		t.Error("with the help over the panels no frame was painted whole")
	}
	a.Key("Escape")
	for range calmFrames + 10 {
		k.frame("help closed", time.Second/60, light)
	}
	dark := darkPalette()
	k.frame("dark theme", time.Second/60, dark)
	k.frame("dark theme, next frame", time.Second/60, dark)
	a.Resize(900, 700)
	small := ebiten.NewImage(900, 700)
	defer small.Deallocate()
	k.screen, k.cv.dst = small, small
	k.frame("after a resize", time.Second/60, dark)
	k.frame("after a resize, next frame", time.Second/60, dark)
}

// TestWithoutInnerKeepsTheSamePixels: the rectangles left cover what all
// of them did, each once where one held another.
func TestWithoutInnerKeepsTheSamePixels(t *testing.T) {
	rs := []image.Rectangle{
		image.Rect(180, 84, 712, 595), image.Rect(249, 144, 643, 520), image.Rect(184, 115, 708, 592),
		image.Rect(8, 2, 1264, 50), image.Rect(407, 13, 1060, 39), image.Rect(8, 2, 1264, 50),
		image.Rect(600, 40, 700, 60), image.Rect(3, 3, 3, 9),
	}
	got := withoutInner(nil, rs)
	want := []image.Rectangle{image.Rect(180, 84, 712, 595), image.Rect(8, 2, 1264, 50), image.Rect(600, 40, 700, 60)}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("got %v, want %v", got, want)
		}
	}
}
