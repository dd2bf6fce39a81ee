//go:build desktop

package draw

import (
	"testing"

	"github.com/hajimehoshi/ebiten/v2"

	"raftlab/viz"
)

// tick runs one Update and one Draw of g, as Ebiten does.
func tick(t *testing.T, g *Game, screen *ebiten.Image) {
	t.Helper()
	if err := g.Update(); err != nil {
		t.Fatal(err)
	}
	g.Draw(screen)
}

func TestTheGameRestsOnlyWhileTheAppIsIdle(t *testing.T) {
	a := newApp(t, scene{w: 640, h: 480, nodes: 3})
	g := New(a, Options{})
	screen := ebiten.NewImage(640, 480)
	defer screen.Deallocate()
	defer ebiten.SetFPSMode(ebiten.FPSModeVsyncOn)
	tick(t, g, screen)
	tick(t, g, screen)
	if g.Resting() {
		t.Fatal("the game rests while the run plays")
	}
	if err := a.Command(viz.CmdPlayPause); err != nil {
		t.Fatal(err)
	}
	// The pause's note runs out later: a wake-up time.
	g.rest.lastInput = 0 // the test's own cursor is not the reader's
	tick(t, g, screen)
	if !g.Resting() {
		t.Fatal("the game does not rest while the app is paused")
	}
	if ebiten.FPSMode() != ebiten.FPSModeVsyncOffMinimum {
		t.Errorf("FPS mode %v while resting, want FPSModeVsyncOffMinimum", ebiten.FPSMode())
	}
	idle, wake := a.NextWake(g.now())
	if !idle {
		t.Fatal("the app is not idle though the game rests")
	}
	if wake > 0 && g.rest.armed != wake {
		t.Errorf("the wake-up timer is set for %v, want the app's %v", g.rest.armed, wake)
	}
	drawn := a.Stats().Draws

	// A change from outside Update (a page script): the next frame paints it.
	a.Notify("from the page")
	g.Draw(screen)
	if a.Stats().Draws != drawn+1 {
		t.Fatal("a change from outside Update was not painted by the next frame")
	}
	tick(t, g, screen)
	if !g.Resting() || g.rest.armed == 0 {
		t.Fatalf("paused with a note: resting %v, wake-up at %v; want resting until the note goes", g.Resting(), g.rest.armed)
	}

	// Input keeps the game awake for a moment.
	g.rest.input.x++
	tick(t, g, screen)
	if g.Resting() {
		t.Error("the game rests right after input")
	}
	g.rest.lastInput -= lingerAfterInput
	tick(t, g, screen)
	if !g.Resting() {
		t.Error("the game does not rest once the input is a while ago")
	}

	// Playing again wakes it for good.
	if err := a.Command(viz.CmdPlayPause); err != nil {
		t.Fatal(err)
	}
	tick(t, g, screen)
	if g.Resting() || ebiten.FPSMode() != ebiten.FPSModeVsyncOn {
		t.Errorf("playing: resting %v, FPS mode %v; want awake with vsync", g.Resting(), ebiten.FPSMode())
	}
	if g.rest.armed != 0 {
		t.Error("a wake-up timer is left set while awake")
	}
}
