//go:build desktop

package draw

import (
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
