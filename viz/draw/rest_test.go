//go:build desktop

package draw

import (
	"testing"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"raftlab/viz"
	"raftlab/viz/frame"
)

// tick runs one Update and one Draw of g, as Ebiten does.
func tick(t *testing.T, g *Game, screen *ebiten.Image) {
	t.Helper()
	if err := g.Update(); err != nil {
		t.Fatal(err)
	}
	g.Draw(screen)
}

// restModel is a Model that plays or rests as the test says: playing, it
// changes every tick and never lets the game rest; paused, it changes only
// when told to, and wakes the game when its note runs out.
type restModel struct {
	f       *frame.Frame
	playing bool
	version uint64
	noteEnd time.Duration // when the note on screen goes (0: none)
	stats   frame.Stats
}

func (m *restModel) Update(now time.Duration) {
	m.stats.Updates++
	if m.playing {
		m.version++
	}
	if m.noteEnd > 0 && now >= m.noteEnd {
		m.noteEnd = 0
		m.version++
	}
}

func (m *restModel) Frame() *frame.Frame { return m.f }
func (m *restModel) Version() uint64     { return m.version }
func (m *restModel) Visible() bool       { return true }
func (m *restModel) NextWake(time.Duration) (bool, time.Duration) {
	return !m.playing, m.noteEnd
}
func (m *restModel) Resize(w, h float64)               {}
func (m *restModel) Pointer(viz.PointerEvent)          {}
func (m *restModel) Hover(viz.Point)                   {}
func (m *restModel) Wheel(viz.Point, float64, float64) {}
func (m *restModel) Key(string) bool                   { return false }
func (m *restModel) TakeEffects() []frame.Effect       { return nil }
func (m *restModel) Stats() frame.Stats                { return m.stats }
func (m *restModel) CountDraw(drew bool) {
	if drew {
		m.stats.Draws++
	} else {
		m.stats.Skipped++
	}
}

// note shows a note until a while after now, as pausing does.
func (m *restModel) note(now time.Duration) {
	m.noteEnd = now + 3*time.Second
	m.version++
}

func TestTheGameRestsOnlyWhileTheAppIsIdle(t *testing.T) {
	m := &restModel{f: storedScene(t, "shapes").Frame, playing: true}
	g := New(m, Options{})
	screen := screenImage(800, 600)
	defer screen.Deallocate()
	defer ebiten.SetFPSMode(ebiten.FPSModeVsyncOn)
	tick(t, g, screen)
	tick(t, g, screen)
	if g.Resting() {
		t.Fatal("the game rests while the run plays")
	}
	// Paused: the pause's note runs out later, a wake-up time.
	m.playing = false
	m.note(g.now())
	g.rest.lastInput = 0 // the test's own cursor is not the reader's
	tick(t, g, screen)
	if !g.Resting() {
		t.Fatal("the game does not rest while the app is paused")
	}
	if ebiten.FPSMode() != ebiten.FPSModeVsyncOffMinimum {
		t.Errorf("FPS mode %v while resting, want FPSModeVsyncOffMinimum", ebiten.FPSMode())
	}
	if _, wake := m.NextWake(g.now()); wake == 0 || g.rest.armed != wake {
		t.Errorf("the wake-up timer is set for %v, want the app's %v", g.rest.armed, wake)
	}
	drawn := m.Stats().Draws

	// A change from outside Update (a page script): the next frame paints it.
	m.note(g.now())
	g.Draw(screen)
	if m.Stats().Draws != drawn+1 {
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
	m.playing = true
	tick(t, g, screen)
	if g.Resting() || ebiten.FPSMode() != ebiten.FPSModeVsyncOn {
		t.Errorf("playing: resting %v, FPS mode %v; want awake with vsync", g.Resting(), ebiten.FPSMode())
	}
	if g.rest.armed != 0 {
		t.Error("a wake-up timer is left set while awake")
	}
}
