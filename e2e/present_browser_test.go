//go:build browser

package e2e

import (
	"fmt"
	"math"
	"testing"

	"raftlab/viz/app"
)

// TestPresenterMode opens the app with present=1 on a projector's screens (1280x720
// and 1920x1080): the frame is laid out 560 logical pixels tall and painted larger,
// one panel shows behind tabs, the timeline stays, and a click on a machine (in the
// page's pixels) selects it. The key p leaves presenter mode and comes back to it.
func TestPresenterMode(t *testing.T) {
	for _, size := range [][2]int{{1280, 720}, {1920, 1080}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			b := newBrowser(t, size[0], size[1])
			b.openApp("present=1&nodes=5&seed=3&speed=10")
			s := waitState(b, "a leader", func(s app.Snapshot) bool { return s.Leader > 0 })
			want := math.Min(float64(size[1])/560, float64(size[0])/880)
			if !s.Present || math.Abs(s.Zoom-want) > 0.01 {
				t.Fatalf("present %v at zoom %.3f, want presenter mode at %.3f", s.Present, s.Zoom, want)
			}
			if h := s.Screen.Height; math.Abs(h-560) > 1 {
				t.Errorf("the frame is %.0f logical pixels tall, want 560", h)
			}
			if n := len(s.Screen.Panels); n != 1 {
				t.Errorf("%d panels on screen, want one", n)
			}
			if s.Screen.Timeline.Empty() {
				t.Error("no timeline in presenter mode")
			}
			b.screenshot("presenting")
			// A click in the page's pixels on machine 3 selects it.
			m := machine(s, 3)
			b.click(m.X*s.Zoom, m.Y*s.Zoom)
			s = waitState(b, "machine 3 selected", func(s app.Snapshot) bool { return s.Selected == 3 })
			b.screenshot("machine 3 selected")

			b.pressKey("p")
			s = waitState(b, "presenter mode off", func(s app.Snapshot) bool { return !s.Present })
			if s.Zoom != 1 || math.Abs(s.Screen.Height-float64(size[1])) > 1 {
				t.Errorf("out of presenter mode the zoom is %.3f and the frame %.0f tall", s.Zoom, s.Screen.Height)
			}
			b.pressKey("p")
			waitState(b, "presenter mode on again", func(s app.Snapshot) bool { return s.Present && s.Zoom > 1 })
		})
	}
}
