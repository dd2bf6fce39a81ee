//go:build desktop

package e2e

import "testing"

// TestDesktopSmoke builds ./cmd/desktop, starts it on the X display and checks that it
// opens a window and draws something.
func TestDesktopSmoke(t *testing.T) {
	app := startDesktop(t)
	_, _, w, h := app.windowGeometry()
	if w < 100 || h < 100 {
		t.Errorf("the window is %d×%d, too small to show a cluster", w, h)
	}
	shot := app.waitDrawn("first-frame")
	requireNotBlank(t, shot)
	app.running()
}
