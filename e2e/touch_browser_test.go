//go:build browser

package e2e

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"raftlab/viz"
	"raftlab/viz/app"
)

// The tests in this file use the app as a reader does on a phone or tablet: every
// gesture is a real touch event sent through the DevTools protocol, never a mouse event
// and never a call into the app. The bridge only reads the app's state and counts its
// ticks, so that each touch is sent after the app has seen the one before (Ebiten reads
// input once per tick).

// The phone the touch tests emulate: a phone-sized viewport in CSS pixels.
const phoneW, phoneH = 390, 844

// denseScale is a phone's device pixel ratio. The tap test runs at it, so that the
// app's conversion from device pixels to its own is on the path of every touch. The
// swipes and drags run at 1: software rendering of three times as many pixels slows
// the frames of a busy machine so much that a finger waiting for the app to see it
// touch down can rest long enough to make a long press.
const denseScale = 3

// newPhone starts a browser that looks like a phone to the page: a mobile viewport with
// touch emulation on, so touch events reach the canvas as they do on a tablet or phone,
// at the given device pixel ratio.
func newPhone(t *testing.T, scale float64) *browser {
	t.Helper()
	b := newBrowser(t, phoneW, phoneH)
	b.do(waitTimeout, chromedp.EmulateViewport(phoneW, phoneH,
		chromedp.EmulateScale(scale), chromedp.EmulateMobile, chromedp.EmulateTouch))
	ctx, cancel := context.WithTimeout(b.ctx, waitTimeout)
	defer cancel()
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: touchTickScript}); err != nil {
		t.Fatalf("installing the touch tick counter: %v", err)
	}
	return b
}

// touchTickScript runs in the page before its own scripts. It notes the app's tick
// count when each touch event arrives, so that a test can wait for the very tick that
// sees the event and send the next one at once: every tick more that a finger waits
// counts towards a long press.
const touchTickScript = `(function () {
	window.raftlabTouchTick = 0;
	["touchstart", "touchmove", "touchend"].forEach(function (name) {
		window.addEventListener(name, function () {
			window.raftlabTouchTick = window.raftlab && window.raftlab.ready ? JSON.parse(window.raftlab.frameStats()).updates : 0;
		}, {capture: true, passive: true});
	});
})();`

// waitTicks waits until the app has run Update n more times, so that input sent
// before the call has been seen.
func waitTicks(b *browser, n int) {
	b.t.Helper()
	waitTicksFrom(b, "ticks()", n)
}

// waitTicksFrom waits until the app has run Update n times more than the JavaScript
// expression base says, in one round trip that checks the tick counter every few
// milliseconds.
func waitTicksFrom(b *browser, base string, n int) {
	b.t.Helper()
	evalJS[chromedp.Void](b, fmt.Sprintf(`new Promise(function (done) {
		function ticks() { return JSON.parse(window.raftlab.frameStats()).updates; }
		var until = %s + %d;
		(function check() { if (ticks() >= until) done(); else setTimeout(check, 4); })();
	})`, base, n))
}

// finger is one finger on the screen, driven with CDP touch events.
type finger struct {
	b      *browser
	id     float64 // the touch identifier; not 0, which CDP treats as unset
	at     viz.Point
	downAt time.Time
}

func (f *finger) send(typ input.DispatchTouchEventType, points ...*input.TouchPoint) {
	f.b.t.Helper()
	ctx, cancel := context.WithTimeout(f.b.ctx, waitTimeout)
	defer cancel()
	if points == nil {
		points = []*input.TouchPoint{} // touchEnd carries an empty list, not null
	}
	if _, err := chromedp.Call(ctx, input.DispatchTouchEvent, input.DispatchTouchEventParams{Type: typ, TouchPoints: points}); err != nil {
		f.b.t.Fatalf("touch %s at (%.0f, %.0f): %v", typ, f.at.X, f.at.Y, err)
	}
}

func (f *finger) point() *input.TouchPoint {
	id := f.id
	return &input.TouchPoint{X: f.at.X, Y: f.at.Y, ID: &id}
}

// seen waits until the app has run n ticks since the last touch event arrived; the
// first of them is the one that sees it.
func (f *finger) seen(n int) {
	f.b.t.Helper()
	waitTicksFrom(f.b, "window.raftlabTouchTick", n)
}

// down puts the finger on the screen at p and waits until the app has seen it: one
// tick, and no more, since a finger that rests for half a second makes a long press.
func (f *finger) down(p viz.Point) {
	f.b.t.Helper()
	f.at = p
	f.send(input.DispatchTouchEventTypeTouchStart, f.point())
	f.downAt = time.Now()
	f.seen(1)
}

// move slides the finger to p and waits one tick.
func (f *finger) move(p viz.Point) {
	f.b.t.Helper()
	f.at = p
	f.send(input.DispatchTouchEventTypeTouchMove, f.point())
	f.seen(1)
}

// up lifts the finger where it is and waits until the app has seen it.
func (f *finger) up() {
	f.b.t.Helper()
	f.send(input.DispatchTouchEventTypeTouchEnd)
	f.seen(2)
}

// tap touches p, wanders by the given offsets from p one tick apart (a finger is
// never still), and lifts.
func (f *finger) tap(p viz.Point, jitter ...viz.Point) {
	f.b.t.Helper()
	f.down(p)
	for _, d := range jitter {
		f.move(p.Add(d))
	}
	f.up()
}

// swipe touches p, slides to q and lifts. Like a real swipe it leaves the tap slop
// at once, with a first step of 16 px, lest the app take a slow start for a long
// press; the rest of the way goes in steps one tick apart.
func (f *finger) swipe(p, q viz.Point, steps int) {
	f.b.t.Helper()
	f.down(p)
	d := q.Sub(p)
	first := math.Min(16/d.Len(), 1)
	f.move(p.Add(d.Mul(first)))
	if waited := time.Since(f.downAt); waited > 500*time.Millisecond {
		// Slow frames: fine unless the app ticked in between with the finger
		// still past the long-press time, which a failure here would show.
		f.b.t.Logf("the swipe's first move went out %v after touching down", waited)
	}
	for i := 1; i <= steps; i++ {
		if fr := first + (1-first)*float64(i)/float64(steps); fr > first {
			f.move(p.Add(d.Mul(fr)))
		}
	}
	waitTicks(f.b, 2)
	f.up()
}

// press touches p, wanders by the given offsets spread over hold of real time, and
// lifts: a long press, as a finger that rests on the screen makes it.
func (f *finger) press(p viz.Point, hold time.Duration, jitter ...viz.Point) {
	f.b.t.Helper()
	f.down(p)
	start := time.Now()
	for i, d := range jitter {
		time.Sleep(time.Until(start.Add(hold * time.Duration(i+1) / time.Duration(len(jitter)+1))))
		f.move(p.Add(d))
	}
	time.Sleep(time.Until(start.Add(hold)))
	waitTicks(f.b, 2)
	f.up()
}

// wobble is how a fingertip drifts during a tap: a few pixels, never back to the
// start, at most 7 px away from where it landed.
var wobble = []viz.Point{{X: 2, Y: -1}, {X: 4, Y: 2}, {X: 5, Y: 5}, {X: 3, Y: 6}}

// tapWidget taps the middle of a control, with the finger wobbling.
func tapWidget(t *testing.T, f *finger, s app.Snapshot, id string) {
	t.Helper()
	f.tap(mustWidget(t, s, id).Center(), wobble...)
}

// playPause is the toolbar's play/pause control.
var playPause = "cmd:" + viz.CmdPlayPause.String()

// pauseByTouch taps the play/pause control and waits until the run is paused.
func pauseByTouch(t *testing.T, f *finger) app.Snapshot {
	t.Helper()
	s := appState(f.b)
	if s.Paused {
		t.Fatal("the run is already paused before the tap")
	}
	tapWidget(t, f, s, playPause)
	return waitState(f.b, "the play/pause control to pause the run", func(s app.Snapshot) bool { return s.Paused })
}

// requireTouch fails unless the app took the input as touch, so that the test did
// not pass through some mouse emulation of the touches.
func requireTouch(t *testing.T, s app.Snapshot) {
	t.Helper()
	if !s.Screen.Touch {
		t.Fatal("the app does not know it is being touched: touch input did not arrive as touch")
	}
}

// emptySpot finds a point of the cluster that is clear of every machine, message dot
// and link by a finger's width, so that a tap there hits nothing.
func emptySpot(t *testing.T, s app.Snapshot) viz.Point {
	t.Helper()
	c := s.Screen.Cluster
	for y := c.Y + 12; y < c.Bottom()-12; y += 6 {
		for x := c.X + 12; x < c.Right()-12; x += 6 {
			p := viz.Pt(x, y)
			if !clearSpot(s, p) {
				continue
			}
			clear := true
			for i := 1; i <= len(s.Machines) && clear; i++ {
				for j := i + 1; j <= len(s.Machines); j++ {
					a, b := linkSegment(s, linkKey{i, j})
					if viz.DistPointSegment(p, a, b) < 30 {
						clear = false
						break
					}
				}
			}
			if clear {
				return p
			}
		}
	}
	t.Fatal("no spot of the cluster is clear of machines and links")
	return viz.Point{}
}

// isolationDrop is where to drop a machine, inside the cluster, to cut it off: beyond
// the ring by viz.GestureConfig's default distance (1.5 radii, at least 24 px) and a
// margin, and the nearest such point to the machine. On a phone the cluster is narrow,
// so the point must be found inside it rather than anywhere on the canvas.
func isolationDrop(t *testing.T, s app.Snapshot, m app.MachineState) viz.Point {
	t.Helper()
	ring := viz.Pt(s.Screen.Ring[0], s.Screen.Ring[1])
	need := s.Screen.Ring[2] + math.Max(1.5*m.R, 24) + 8
	c := s.Screen.Cluster
	var best viz.Point
	bestD := math.Inf(1)
	for y := c.Y + 6; y < c.Bottom()-6; y += 4 {
		for x := c.X + 6; x < c.Right()-6; x += 4 {
			p := viz.Pt(x, y)
			if p.Dist(ring) < need {
				continue
			}
			if d := p.Dist(center(m)); d < bestD {
				best, bestD = p, d
			}
		}
	}
	if math.IsInf(bestD, 1) {
		t.Fatalf("no point of the %+v cluster is %.0f px from the ring's centre: a machine cannot be dragged out", c, need)
	}
	return best
}

// TestTouchTapMachinePausesIt taps the play/pause control to stop the run, taps a
// machine to open its menu and taps the menu's Pause, all with a finger on a phone.
func TestTouchTapMachinePausesIt(t *testing.T) {
	b := newPhone(t, denseScale)
	b.openApp("nodes=5&seed=1&speed=1")
	f := &finger{b: b, id: 1}
	s := pauseByTouch(t, f)
	requireTouch(t, s)
	before := len(s.Actions)

	const id = 3
	m := machine(s, id)
	f.tap(center(m), wobble...)
	s = waitState(b, "the machine's menu", func(s app.Snapshot) bool { return s.Menu == fmt.Sprintf("node:%d", id) })
	if s.Selected != id {
		t.Errorf("selected machine %d, want %d", s.Selected, id)
	}
	if len(s.Actions) != before {
		t.Errorf("tapping the machine did %+v; a tap only opens the menu", s.Actions[before:])
	}
	requireNotBlank(t, b.screenshot("node-menu"))

	tapWidget(t, f, s, "node.pause")
	s = waitState(b, "the machine to pause", func(s app.Snapshot) bool { return machine(s, id).Status == "paused" })
	requireOnlyPaused(t, s, id)
	requireNotBlank(t, b.screenshot("machine-paused"))
	noExceptions(t, b)
}

// TestTouchSwipeAcrossTwoLinksCutsThem swipes a finger across two links that leave one
// machine side by side and checks that exactly those two are cut both ways; a second
// swipe along the same path restores them.
func TestTouchSwipeAcrossTwoLinksCutsThem(t *testing.T) {
	b := newPhone(t, 1)
	b.openApp("nodes=5&seed=1")
	f := &finger{b: b, id: 2}
	// Paused, the message dots stand still, so the finger lands on empty space.
	s := pauseByTouch(t, f)
	if n := len(downLinks(t, s)); n != 0 {
		t.Fatalf("%d links are cut before the swipe", n)
	}
	p, q, want := cutStroke(t, s, 1)
	t.Logf("swipe (%.0f,%.0f) → (%.0f,%.0f) should cut %v", p.X, p.Y, q.X, q.Y, want)

	f.swipe(p, q, 12)
	s = waitState(b, "the swipe to cut links", func(s app.Snapshot) bool { return len(downLinks(t, s)) > 0 })
	requireTouch(t, s)
	requireTwoCuts(t, s, want)
	requireNotBlank(t, b.screenshot("two-links-cut"))

	f.swipe(p, q, 12)
	s = waitState(b, "the second swipe to restore the links", func(s app.Snapshot) bool { return len(downLinks(t, s)) == 0 })
	if !strings.HasPrefix(s.Banner, "Restored ") {
		t.Errorf("banner %q after the second swipe, want it to say what was restored", s.Banner)
	}
	noExceptions(t, b)
}

// TestTouchDragLeaderAwayIsolatesIt drags the leader with a finger to the edge of the
// cluster and checks that it is cut off, and that once the run goes on (a tap on play)
// the majority left behind elects a new leader in a later term.
func TestTouchDragLeaderAwayIsolatesIt(t *testing.T) {
	b := newPhone(t, 1)
	b.openApp("nodes=5&seed=2&speed=10")
	f := &finger{b: b, id: 3}
	waitState(b, "a first leader", func(s app.Snapshot) bool { return s.Leader > 0 })
	s := pauseByTouch(t, f)
	if s.Leader == 0 {
		t.Fatal("no leader once paused")
	}
	old := machine(s, s.Leader)
	to := isolationDrop(t, s, old)
	t.Logf("dragging leader %s (term %d) from (%.0f,%.0f) to (%.0f,%.0f)", old.Name, old.Term, old.X, old.Y, to.X, to.Y)

	f.swipe(center(old), to, 15)
	s = waitState(b, "the leader to be cut off", func(s app.Snapshot) bool { return len(downLinks(t, s)) == len(s.Machines)-1 })
	requireTouch(t, s)
	for _, k := range downLinks(t, s) {
		if k[0] != old.ID && k[1] != old.ID {
			t.Errorf("link %v is cut, but only the dragged machine's links should be", k)
		}
	}
	requireNotBlank(t, b.screenshot("leader-cut-off"))

	tapWidget(t, f, s, playPause)
	s = waitState(b, "a new leader among the other machines", func(s app.Snapshot) bool {
		return s.Leader > 0 && s.Leader != old.ID
	})
	nl := machine(s, s.Leader)
	if nl.Term <= old.Term {
		t.Errorf("new leader %s in term %d, want a term after %d", nl.Name, nl.Term, old.Term)
	}
	for _, side := range s.Sides {
		if slices.Contains(side, nl.ID) && (slices.Contains(side, old.ID) || 2*len(side) <= len(s.Machines)) {
			t.Errorf("new leader %s is on side %v, want the majority side without %s", nl.Name, side, old.Name)
		}
	}
	requireNotBlank(t, b.screenshot("new-leader"))
	noExceptions(t, b)
}

// TestTouchWobbleAndLongPressAreTaps checks that a finger that drifts a few pixels, or
// rests for a while, still taps: on the play/pause control, a panel tab, a machine and
// empty space. None of these may start a drag, cut a link or move a machine.
func TestTouchWobbleAndLongPressAreTaps(t *testing.T) {
	b := newPhone(t, 1)
	b.openApp("nodes=5&seed=1&speed=1")
	f := &finger{b: b, id: 4}
	s := pauseByTouch(t, f) // a wobbling tap on play/pause
	requireTouch(t, s)
	before := len(s.Actions)
	places := map[int]viz.Point{}
	for _, m := range s.Machines {
		places[m.ID] = center(m)
	}
	// unmoved checks that no gesture so far acted on the world or moved a machine.
	unmoved := func(what string, s app.Snapshot) {
		t.Helper()
		if len(s.Actions) != before {
			t.Errorf("%s did %+v, want nothing done to the cluster", what, s.Actions[before:])
		}
		if down := downLinks(t, s); len(down) > 0 {
			t.Errorf("%s cut links %v", what, down)
		}
		for _, m := range s.Machines {
			if center(m) != places[m.ID] {
				t.Errorf("%s moved machine %s from %v to %v", what, m.Name, places[m.ID], center(m))
			}
		}
	}

	// A wobbling tap on a machine opens its menu.
	f.tap(center(machine(s, 2)), wobble...)
	s = waitState(b, "machine 2's menu after a wobbling tap", func(s app.Snapshot) bool { return s.Menu == "node:2" })
	unmoved("a wobbling tap on a machine", s)

	// A wobbling tap on empty space closes the menu and clears the selection.
	f.tap(emptySpot(t, s), wobble...)
	s = waitState(b, "a tap on empty space to clear the selection", func(s app.Snapshot) bool { return s.Menu == "" && s.Selected == 0 })
	unmoved("a wobbling tap on empty space", s)

	// A wobbling tap on a panel tab shows that panel.
	tab := "Safety"
	if s.Panel == tab {
		tab = "Client"
	}
	tapWidget(t, f, s, "tab:"+tab)
	s = waitState(b, "the "+tab+" tab", func(s app.Snapshot) bool { return s.Panel == tab })
	unmoved("a wobbling tap on a tab", s)

	// A long, wobbling press on a machine opens its menu too.
	f.press(center(machine(s, 4)), 900*time.Millisecond, wobble...)
	s = waitState(b, "machine 4's menu after a long press", func(s app.Snapshot) bool { return s.Menu == "node:4" })
	if s.Selected != 4 {
		t.Errorf("selected machine %d after a long press on machine 4", s.Selected)
	}
	unmoved("a long press on a machine", s)
	requireNotBlank(t, b.screenshot("long-press-menu"))

	// A long, wobbling press on play/pause plays, once.
	r, _ := widgetRect(s, playPause)
	f.press(r.Center(), 900*time.Millisecond, wobble...)
	s = waitState(b, "a long press on play/pause to play", func(s app.Snapshot) bool { return !s.Paused })
	waitTicks(b, 10)
	if s = appState(b); s.Paused {
		t.Error("the run paused again after the long press: it counted twice")
	}
	unmoved("a long press on play/pause", s)
	requireNotBlank(t, b.screenshot("playing-again"))
	noExceptions(t, b)
}
