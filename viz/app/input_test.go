package app

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"raftlab/scenarios"
	"raftlab/viz"
	"raftlab/viz/app/command"
	"raftlab/viz/app/scene"
	"raftlab/viz/app/session"
	"raftlab/viz/frame"
	"raftlab/viz/words"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// touchAt puts a finger down at p, moves it by each offset from p one tick
// apart, and lifts it where it last was.
func touchAt(a *App, c *hostClock, p viz.Point, offsets ...viz.Point) {
	a.Pointer(viz.PointerEvent{Action: viz.PointerDown, ID: 1, Pos: p, Time: c.now, Touch: true})
	last := p
	for _, d := range offsets {
		c.now += time.Second / 60
		last = p.Add(d)
		a.Pointer(viz.PointerEvent{Action: viz.PointerMove, ID: 1, Pos: last, Time: c.now, Touch: true})
	}
	c.now += time.Second / 60
	a.Pointer(viz.PointerEvent{Action: viz.PointerUp, ID: 1, Pos: last, Time: c.now, Touch: true})
}

// onWidget reports whether a control lies under p.
func onWidget(a *App, p viz.Point) bool {
	_, ok := a.widgetAt(p)
	return ok
}

// fingerWobble is a fingertip's drift during a tap: up to 7 px away, more
// than a mouse may move and still click, less than the touch slop.
var fingerWobble = []viz.Point{{X: 2, Y: -1}, {X: 4, Y: -3}, {X: 3, Y: -6}, {X: 1, Y: -7}}

// phoneApp is a paused five-machine app on a phone-sized canvas, laid out.
func phoneApp(t *testing.T) *App {
	t.Helper()
	a := newApp(t, 5, 390, 844)
	a.clock.SetPaused(true)
	a.Frame()
	return a
}

func TestFingerWobbleOnALogRowSelectsIt(t *testing.T) {
	a := phoneApp(t)
	var c hostClock
	row := a.lay().Nodes[2].LogStrip.Center()
	if !a.lay().Logs.Contains(row) || scene.LogRowAt(a.lay(), row) != 2 || onWidget(a, row) {
		t.Fatalf("the middle of machine 3's log strip %v is not a bare log row", row)
	}
	touchAt(a, &c, row, fingerWobble...)
	if a.view.Selected() != 2 {
		t.Errorf("a wobbling tap on machine 3's log row selected %d, want 2", a.view.Selected())
	}

	// A finger that travels along logs longer than their rows pans them
	// and selects nothing.
	b := phoneApp(t)
	var run hostClock
	b.clock.SetPaused(false)
	untilLeader(t, b, &run)
	for i := 0; i < 40; i++ {
		require.NoError(t, b.Do(command.RunCommand{Cmd: viz.CmdClientWrite}))
	}
	run.run(b, 2*time.Second)
	b.clock.SetPaused(true)
	b.Frame()
	touchAt(b, &c, row, viz.Pt(20, 0), viz.Pt(40, 0), viz.Pt(60, 0))
	if b.view.Selected() != -1 {
		t.Errorf("a pan along the logs selected %d", b.view.Selected())
	}
	if b.view.LogBack() == 0 {
		t.Error("a 60 px pan along the logs did not move them")
	}
}

func TestFingerWobbleDoesNotScrollAPanel(t *testing.T) {
	a := phoneApp(t)
	var c hostClock
	var at viz.Point
	var kind viz.PanelKind
	found := false
	for _, pn := range a.Frame().Panels {
		for y := pn.Rect.Y + 10; y < pn.Rect.Bottom()-10 && !found; y += 4 {
			p := viz.Pt(pn.Rect.Center().X, y)
			if !onWidget(a, p) && !a.lay().Logs.Contains(p) {
				at, kind, found = p, pn.Kind, true
			}
		}
	}
	if !found {
		t.Fatal("no bare spot in any panel of a phone-sized app")
	}
	touchAt(a, &c, at, fingerWobble...)
	if a.view.Scroll(kind) != 0 {
		t.Errorf("a finger's 7 px wobble scrolled the %v panel by %.0f", kind, a.view.Scroll(kind))
	}
	touchAt(a, &c, at, viz.Pt(0, -20), viz.Pt(0, -40))
	if a.view.Scroll(kind) != 40 {
		t.Errorf("a 40 px swipe up scrolled the %v panel by %.0f, want 40", kind, a.view.Scroll(kind))
	}
}

func TestPressSlop(t *testing.T) {
	a := phoneApp(t)
	if m, f := a.pressSlop(false), a.pressSlop(true); m != 6 || f != a.input.rec.Slop(true) || f <= m {
		t.Errorf("press slop: mouse %v, finger %v; want 6 and the recognizer's touch slop, which is larger", m, f)
	}
}

// frameWords is every word the frame shows in its banner, panels, caption and
// help, lines joined by spaces.
func frameWords(f *frame.Frame) string {
	var out []string
	add := func(ts ...frame.TextItem) {
		for _, t := range ts {
			out = append(out, t.Text)
		}
	}
	if f.Banner != nil {
		add(f.Banner.Lines...)
	}
	for _, p := range f.Panels {
		add(p.Lines...)
	}
	if f.Caption != nil {
		add(f.Caption.Title)
		add(f.Caption.Lines...)
	}
	if f.Help != nil {
		add(f.Help.Lines...)
	}
	return strings.Join(out, " ")
}

// TestTouchReadersAreToldWhatToTap checks that a reader on a touch screen is
// never told to press a key or to click, in the app or an embedded figure,
// and that the mouse reader's hints still name their keys.
func TestTouchReadersAreToldWhatToTap(t *testing.T) {
	keyHint := regexp.MustCompile(`(?i)\bpress (any key|[a-z?]\b)|\bclick`)
	for _, embed := range []bool{false, true} {
		p := viz.DefaultParams()
		p.Nodes, p.Embed = 5, embed
		a, err := New(Options{Params: p, Width: 1280, Height: 800, SpeedGiven: true})
		if err != nil {
			t.Fatal(err)
		}
		if a.view.Banner().Text != words.NoLeaderYet {
			t.Fatalf("the app opens with the banner %q, want the one about the first election", a.view.Banner().Text)
		}
		mouse := frameWords(a.Frame())
		a.SetTouch(true)
		touch := frameWords(a.Frame())
		a.try(command.ShowHelp{On: true})
		touch += " " + frameWords(a.Frame())
		if m := keyHint.FindAllString(touch, -1); m != nil {
			t.Errorf("embed %v: a touch reader is told %q:\n%s", embed, m, touch)
		}
		if !strings.Contains(touch, "Time out now") {
			t.Errorf("embed %v: the first-election banner does not tell a touch reader how to start one:\n%s", embed, touch)
		}
		if !strings.Contains(mouse, "Press t") {
			t.Errorf("embed %v: the first-election banner does not name its key for a mouse reader:\n%s", embed, mouse)
		}
		if s := a.State(); s.Banner != words.NoLeaderYetTouch {
			t.Errorf("embed %v: the snapshot's banner is %q, want what a touch reader sees", embed, s.Banner)
		}
	}
}

// TestAFigureGrabsOnlyWhatTheReaderDrags: a touch on a machine or a link is
// the figure's, one on its words or its controls the page's, in every figure
// at a page's column and on a phone.
func TestAFigureGrabsOnlyWhatTheReaderDrags(t *testing.T) {
	for _, id := range scenarios.IDs() {
		for _, size := range [][2]float64{{720, 450}, {350, 560}} {
			p := viz.DefaultParams()
			p.Scenario, p.Embed = id, true
			a, err := New(Options{Params: p, Width: size[0], Height: size[1], Scenarios: session.BuiltinScenarios()})
			require.NoError(t, err)
			where := fmt.Sprintf("%s at %vx%v", id, size[0], size[1])
			f := a.Frame()
			for _, n := range f.Nodes {
				assert.True(t, a.Grabs(n.Center), "%s: a touch on machine %s is the page's", where, n.Name.Text)
			}
			for w := range f.Widgets() {
				assert.False(t, a.Grabs(w.Rect.Center()), "%s: a swipe from control %s is not the page's", where, w.ID)
			}
			for _, l := range f.Caption.Lines {
				assert.False(t, a.Grabs(viz.Pt(l.X+2, l.Y+l.Size/2)), "%s: a swipe from the words %q is not the page's", where, l.Text)
			}
			assert.False(t, a.TakesWheel(f.Nodes[0].Center, false), "%s: the wheel over a figure not focused is the figure's", where)
		}
	}
}
