//go:build desktop

package draw

import (
	"image"
	"image/color"
	"testing"
)

// TestInvalidatePaintsTheWholeScreen: after the host says the screen lost
// what it showed, the next frame paints all of it, though the app has not
// changed and a game at rest paints nothing otherwise.
func TestInvalidatePaintsTheWholeScreen(t *testing.T) {
	m := &restModel{f: storedScene(t, "shapes").Frame}
	g := New(m, Options{})
	screen := screenImage(800, 600)
	defer screen.Deallocate()
	tick(t, g, screen)
	painted := make([]byte, 4*800*600)
	screen.ReadPixels(painted)

	tick(t, g, screen)
	if m.stats.Draws != 1 {
		t.Fatalf("an unchanged app was painted %d times, want once", m.stats.Draws)
	}
	// The pixels lost, as with a lost WebGL context.
	screen.Fill(color.RGBA{R: 255, B: 255, A: 255})
	g.Invalidate()
	g.Draw(screen)
	if m.stats.Draws != 2 {
		t.Fatalf("after Invalidate the unchanged app was painted %d times, want twice", m.stats.Draws)
	}
	got := make([]byte, len(painted))
	screen.ReadPixels(got)
	if i := firstDifference(painted, got); i >= 0 {
		t.Fatalf("after Invalidate the screen differs at byte %d from the frame as first painted", i)
	}
	if g.cv.kept.whole != 2 {
		t.Errorf("the kept screen was painted whole %d times, want twice", g.cv.kept.whole)
	}
	tick(t, g, screen)
	if m.stats.Draws != 2 {
		t.Errorf("Invalidate made %d frames paint, want one", m.stats.Draws-1)
	}
}

// TestRegionsAreKeptWhileUsed: a region of the screen used paint after paint
// is the same image each time (Ebiten's buffers for it are made once), and a
// region two paints have not used is forgotten with its buffers.
func TestRegionsAreKeptWhileUsed(t *testing.T) {
	screen := screenImage(64, 64)
	defer screen.Deallocate()
	var rc regionCache
	still, moving := image.Rect(0, 0, 16, 16), image.Rect(16, 16, 32, 32)
	first := rc.sub(screen, still)
	rc.sub(screen, moving)
	rc.done()
	for i := 0; i < 3; i++ {
		if rc.sub(screen, still) != first {
			t.Fatalf("paint %d: a region used every paint was made again", i+2)
		}
		rc.done()
	}
	if _, ok := rc.m[moving]; ok {
		t.Errorf("a region unused for three paints is still kept")
	}
	if len(rc.m) != 1 {
		t.Errorf("%d regions kept, want the one in use", len(rc.m))
	}
	rc.sub(screen, moving)
	rc.done()
	rc.sub(screen, still)
	rc.done()
	if _, ok := rc.m[moving]; !ok {
		t.Errorf("a region used by the paint before the last was forgotten")
	}
}
