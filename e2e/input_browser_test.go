//go:build browser

package e2e

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"raftlab/viz"
	"raftlab/viz/app"
)

// The tests in this file check that no click or tap is lost when frames are slow: the
// renderer's CPU is throttled until the app runs fewer than four frames a second, as
// on a loaded machine, and each click is a press and a release sent back to back, with
// no wait for the app between them. Most such clicks fall between two frames, where an
// app that samples the pointer once a frame never sees them.

// slowFPS is the frame rate the throttled tests must stay under.
const slowFPS = 4

// downloadScript runs before the page's scripts. It records the files the app offers
// for download (cmd/wasm clicks an <a download>) in window.raftlabDownloads, instead
// of downloading them.
const downloadScript = `(function () {
	window.raftlabDownloads = [];
	var click = HTMLAnchorElement.prototype.click;
	HTMLAnchorElement.prototype.click = function () {
		if (this.download) { window.raftlabDownloads.push(this.download); return; }
		return click.call(this);
	};
})();`

// pointerTickScript runs before the page's scripts. It notes, for each press and
// release, how many Updates the app had run when the event arrived.
const pointerTickScript = `(function () {
	window.raftlabPointerTicks = {};
	["pointerdown", "pointerup"].forEach(function (name) {
		window.addEventListener(name, function () {
			window.raftlabPointerTicks[name] = window.raftlab && window.raftlab.ready ? JSON.parse(window.raftlab.frameStats()).updates : -1;
		}, {capture: true, passive: true});
	});
})();`

// frames is how many frames the app has run: Draw calls, painted or not.
func frames(b *browser) int64 {
	b.t.Helper()
	return evalJS[int64](b, `(function () { var s = JSON.parse(window.raftlab.frameStats()); return s.draws + s.skipped_draws; })()`)
}

// throttle slows the renderer's CPU by rate (1: no slowdown).
func throttle(b *browser, rate float64) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, waitTimeout)
	defer cancel()
	if _, err := chromedp.Call(ctx, emulation.SetCPUThrottlingRate, emulation.SetCPUThrottlingRateParams{Rate: rate}); err != nil {
		b.t.Fatalf("throttling the CPU by %v: %v", rate, err)
	}
}

// slowDown throttles the renderer until the running app draws fewer than slowFPS
// frames a second, and returns the rate and the frame rate measured.
func slowDown(t *testing.T, b *browser) (float64, float64) {
	t.Helper()
	for _, rate := range []float64{30, 60, 120} {
		throttle(b, rate)
		time.Sleep(time.Second) // let a frame begun before the change end
		f0, t0 := frames(b), time.Now()
		time.Sleep(4 * time.Second)
		fps := float64(frames(b)-f0) / time.Since(t0).Seconds()
		t.Logf("CPU throttled %vx: %.1f frames/s", rate, fps)
		if fps < slowFPS {
			return rate, fps
		}
	}
	t.Fatalf("the app still runs %v or more frames a second with the CPU throttled 120x", slowFPS)
	return 0, 0
}

// quickClick presses and releases the left button at p with nothing in between: the
// release goes out right behind the press, without waiting for the browser to report
// the press handled (which it does only after the renderer's next frame). It reports
// whether both fell between the same two frames (the app ran no Update meanwhile).
func quickClick(b *browser, p viz.Point) bool {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, waitTimeout)
	defer cancel()
	send := func(ev input.DispatchMouseEventParams) error {
		_, err := chromedp.Call(ctx, input.DispatchMouseEvent, ev)
		return err
	}
	if err := send(input.DispatchMouseEventParams{Type: chromedp.MouseMoved, X: p.X, Y: p.Y}); err != nil {
		b.t.Fatalf("mouse move to (%.0f, %.0f): %v", p.X, p.Y, err)
	}
	pressed := make(chan error, 1)
	go func() {
		pressed <- send(input.DispatchMouseEventParams{Type: chromedp.MousePressed, X: p.X, Y: p.Y, Button: input.MouseButtonLeft, Buttons: 1, ClickCount: 1})
	}()
	// The commands go out on one connection, in order; the pause only lets the press's
	// leave first.
	time.Sleep(2 * time.Millisecond)
	released := send(input.DispatchMouseEventParams{Type: chromedp.MouseReleased, X: p.X, Y: p.Y, Button: input.MouseButtonLeft, ClickCount: 1})
	for _, err := range []error{<-pressed, released} {
		if err != nil {
			b.t.Fatalf("click at (%.0f, %.0f): %v", p.X, p.Y, err)
		}
	}
	return evalJS[bool](b, `window.raftlabPointerTicks.pointerdown === window.raftlabPointerTicks.pointerup`)
}

// clicker clicks controls quickly and counts the clicks that fell between two frames.
type clicker struct {
	t       *testing.T
	b       *browser
	clicks  int
	between int
}

func (c *clicker) at(what string, p viz.Point) {
	c.t.Helper()
	c.clicks++
	if quickClick(c.b, p) {
		c.between++
	} else {
		c.t.Logf("the click on %s spanned a frame", what)
	}
}

// control clicks the middle of the control with the given id.
func (c *clicker) control(id string) {
	c.t.Helper()
	c.at(id, mustWidget(c.t, appState(c.b), id).Center())
}

// settled waits until a change has had time to happen twice: a few more frames.
func settled(b *browser) {
	b.t.Helper()
	f := frames(b)
	deadline := time.Now().Add(3 * time.Second)
	for frames(b) < f+3 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
}

// once waits until ok holds, then until a few frames more have run, and checks that
// it still holds: a click taken twice would have undone or repeated what it did.
func once(t *testing.T, b *browser, what string, ok func(app.Snapshot) bool) app.Snapshot {
	t.Helper()
	waitState(b, what, ok)
	settled(b)
	s := appState(b)
	if !ok(s) {
		t.Errorf("%s: it held, then stopped holding a few frames later: the click acted twice", what)
	}
	return s
}

// downloads is the names of the files the app has offered, in order.
func downloads(b *browser) []string {
	b.t.Helper()
	return evalJS[[]string](b, `window.raftlabDownloads`)
}

// TestSlowFramesLoseNoClick throttles the renderer to under four frames a second and
// clicks, each with one quick press and release, the toolbar's play/pause and Write,
// a machine and its menu's Pause, the setup menu's Export run and Save picture, and a
// scenario's Play it for me. Each must act exactly once.
func TestSlowFramesLoseNoClick(t *testing.T) {
	b := newBrowser(t, 1280, 800)
	ctx, cancel := context.WithTimeout(b.ctx, waitTimeout)
	defer cancel()
	for _, js := range []string{downloadScript, pointerTickScript} {
		if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: js}); err != nil {
			t.Fatalf("installing a recorder in the page: %v", err)
		}
	}
	url := b.openApp("nodes=5&seed=1&speed=1")
	rate, fps := slowDown(t, b)
	c := &clicker{t: t, b: b}

	// The toolbar's play/pause pauses the run, once.
	c.control(playPause)
	s := once(t, b, "play/pause to pause the run", func(s app.Snapshot) bool { return s.Paused })

	// Write sends one client write.
	ops := len(s.Ops)
	c.control("cmd:" + viz.CmdClientWrite.String())
	s = once(t, b, "Write to send one write", func(s app.Snapshot) bool { return len(s.Ops) == ops+1 })

	// A machine's menu opens on a click, and its Pause pauses that machine.
	const id = 3
	c.at("machine 3", center(machine(s, id)))
	s = once(t, b, "machine 3's menu to open", func(s app.Snapshot) bool { return s.Menu == fmt.Sprintf("node:%d", id) })
	actions := len(s.Actions)
	c.control("node.pause")
	s = once(t, b, "the menu's Pause to pause machine 3, with one action", func(s app.Snapshot) bool {
		return machine(s, id).Status == "paused" && len(s.Actions) == actions+1
	})

	// The setup menu's Export run and Save picture each offer one file.
	openSetup := func() {
		t.Helper()
		if appState(b).Menu == "setup" {
			return
		}
		c.control("menu")
		once(t, b, "the setup menu to open", func(s app.Snapshot) bool { return s.Menu == "setup" })
	}
	openSetup()
	c.control("share.schedule")
	once(t, b, "Export run to offer one file", func(app.Snapshot) bool { return len(downloads(b)) == 1 })
	openSetup()
	c.control("share.png")
	once(t, b, "Save picture to offer one more file", func(app.Snapshot) bool { return len(downloads(b)) == 2 })
	if got := downloads(b); got[0] != "raftlab-run.json" || got[1] != "raftlab.png" {
		t.Errorf("files offered: %v, want the run and then the picture", got)
	}

	// Play again: the run goes on.
	if appState(b).Menu != "" {
		c.at("empty space", emptySpot(t, appState(b)))
		once(t, b, "a click on empty space to close the menu", func(s app.Snapshot) bool { return s.Menu == "" })
	}
	c.control(playPause)
	once(t, b, "play/pause to play the run again", func(s app.Snapshot) bool { return !s.Paused })
	requireNotBlank(t, b.screenshot("after-quick-clicks"))

	// A scenario's Play it for me plays it, once (a second click would stop it).
	// The page loads at full speed (a 120x throttled renderer takes most of a
	// minute to compile the app, and loading is not what is tested); the click
	// comes at the same slow frame rate as the others.
	throttle(b, 1)
	b.navigate(strings.Replace(url, "nodes=5&seed=1&speed=1", "scenario=majority", 1))
	b.waitReady()
	throttle(b, rate)
	time.Sleep(time.Second) // let a frame begun before the change end
	settled(b)
	c.control("scenario.autoplay")
	once(t, b, "Play it for me to play the scenario", func(s app.Snapshot) bool { return s.Scenario != nil && s.Scenario.Autoplay })

	t.Logf("CPU throttled %vx (%.1f frames/s): %d of %d quick clicks fell between two frames", rate, fps, c.between, c.clicks)
	if c.between == 0 {
		t.Error("no click fell between two frames: the test did not try what it is for")
	}
	noExceptions(t, b)
}

// startable reports whether a finger pressed at p starts a swipe: inside the cluster and
// clear of every machine by more than a finger's slack. Message dots may lie under it.
func startable(s app.Snapshot, p viz.Point) bool { return clearOfMachines(s, p, 14) }

// swipeCuts swipes a finger from p to q and checks that exactly the links the stroke
// crosses, at least must, are cut; then it heals them with a tap on the toolbar's heal.
func swipeCuts(t *testing.T, f *finger, what string, p, q viz.Point, must ...linkKey) {
	t.Helper()
	s := appState(f.b)
	want := crossedLinks(s, p, q)
	for _, k := range must {
		if !slices.Contains(want, k) {
			t.Fatalf("%s: the stroke (%.0f,%.0f) → (%.0f,%.0f) does not cross %v; the test is wrong", what, p.X, p.Y, q.X, q.Y, k)
		}
	}
	t.Logf("%s: swipe (%.0f,%.0f) → (%.0f,%.0f) should cut %v", what, p.X, p.Y, q.X, q.Y, want)
	f.swipe(p, q, 10)
	s = waitState(f.b, what+" to cut links", func(s app.Snapshot) bool { return len(downLinks(t, s)) > 0 })
	if got := downLinks(t, s); !slices.Equal(got, want) {
		t.Errorf("%s cut %v, want %v", what, got, want)
	}
	requireNotBlank(t, f.b.screenshot(strings.ReplaceAll(what, " ", "-")))
	tapWidget(t, f, s, "cmd:"+viz.CmdHeal.String())
	waitState(f.b, "heal to restore the links", func(s app.Snapshot) bool { return len(downLinks(t, s)) == 0 })
}

// TestTouchSwipesCutTopAndCrossingLinks swipes with a finger on a phone across the link
// from the machine at the top of the ring to its neighbour, down from the toolbar's
// edge across the top machine's links, from a message dot across its link, and through
// a point where two links cross: each swipe cuts every link it crosses and no other.
func TestTouchSwipesCutTopAndCrossingLinks(t *testing.T) {
	b := newPhone(t, 1)
	b.openApp("nodes=5&seed=1")
	f := &finger{b: b, id: 5}
	// A phone's pointer is coarse: the first election's hint names what to tap, not a
	// key, before the first touch.
	if !evalJS[bool](b, `matchMedia("(pointer: coarse)").matches`) {
		t.Error("the emulated phone's pointer is not coarse")
	} else if s := appState(b); s.Leader > 0 {
		t.Logf("a machine leads already; the first election's hint is gone")
	} else if !strings.Contains(s.Banner, "Tap a machine") {
		t.Errorf("a phone opens with the banner %q, want the touch hint", s.Banner)
	}
	waitState(b, "a leader sending heartbeats", func(s app.Snapshot) bool { return s.Leader > 0 && len(s.InFlight) >= 3 })
	s := pauseByTouch(t, f)
	requireTouch(t, s)

	// Across the link from the top machine to the next, near the top.
	top := s.Machines[0]
	for _, m := range s.Machines {
		if m.Y < top.Y {
			top = m
		}
	}
	next := top.ID%len(s.Machines) + 1
	k := keyOf(top.ID, next)
	a, z := linkSegment(s, k)
	d := z.Sub(a).Mul(1 / z.Sub(a).Len())
	across := viz.Pt(-d.Y, d.X)
	found := false
	for _, fr := range []float64{0.25, 0.35, 0.5, 0.65} {
		mid := a.Add(z.Sub(a).Mul(fr))
		for _, side := range []float64{-1, 1} {
			p, q := mid.Add(across.Mul(24*side)), mid.Sub(across.Mul(24*side))
			if !found && startable(s, p) {
				swipeCuts(t, f, fmt.Sprintf("the top link %d-%d", k[0], k[1]), p, q, k)
				found = true
			}
		}
	}
	if !found {
		t.Errorf("no place to start a swipe across the top link %v", k)
	}

	// Down from just above the cluster (the toolbar's edge), across the links that
	// leave the top machine.
	s = appState(b)
	found = false
	for _, dx := range []float64{1, -1} {
		p := viz.Pt(top.X+dx*(top.R+14), s.Screen.Cluster.Y-6)
		q := viz.Pt(p.X, top.Y+2*top.R+20)
		onControl := false
		for _, w := range s.Screen.Widgets {
			onControl = onControl || w.Rect.Contains(p)
		}
		if !found && !onControl && len(crossedLinks(s, p, q)) > 0 {
			swipeCuts(t, f, "down from above the ring", p, q)
			found = true
		}
	}
	if !found {
		t.Errorf("no place above the ring to start a swipe down across the top machine's links")
	}

	// From a message dot across the link it travels on.
	s = appState(b)
	found = false
	for _, m := range s.InFlight {
		p := viz.Pt(m.X, m.Y)
		lk := keyOf(m.From, m.To)
		a, z := linkSegment(s, lk)
		d := z.Sub(a).Mul(1 / z.Sub(a).Len())
		for _, side := range []float64{-1, 1} {
			q := p.Add(viz.Pt(-d.Y, d.X).Mul(30 * side))
			if !found && startable(s, p) && slices.Contains(crossedLinks(s, p, q), lk) {
				swipeCuts(t, f, fmt.Sprintf("from message %d across link %d-%d", m.ID, lk[0], lk[1]), p, q, lk)
				found = true
			}
		}
	}
	if !found {
		t.Logf("no message dot in flight clear of the machines: %+v", s.InFlight)
	}

	// Through the point where two links cross.
	s = appState(b)
	found = false
	n := len(s.Machines)
	for i := 1; i <= n && !found; i++ {
		for j := i + 1; j <= n && !found; j++ {
			for u := 1; u <= n && !found; u++ {
				for v := u + 1; v <= n && !found; v++ {
					if u == i || u == j || v == i || v == j {
						continue
					}
					a1, a2 := linkSegment(s, linkKey{i, j})
					b1, b2 := linkSegment(s, linkKey{u, v})
					tt, ok := viz.SegmentIntersection(a1, a2, b1, b2)
					if !ok {
						continue
					}
					x := a1.Add(a2.Sub(a1).Mul(tt))
					da, db := a2.Sub(a1), b2.Sub(b1)
					da, db = da.Mul(1/da.Len()), db.Mul(1/db.Len())
					if da.Dot(db) < 0 {
						db = db.Mul(-1)
					}
					dir := viz.Pt(-(da.Y + db.Y), da.X+db.X)
					dir = dir.Mul(1 / dir.Len())
					for _, r := range []float64{24, -24, 30, -30, 18, -18} {
						p, q := x.Sub(dir.Mul(r)), x.Add(dir.Mul(r))
						if !found && startable(s, p) {
							swipeCuts(t, f, fmt.Sprintf("through the crossing of %d-%d and %d-%d", i, j, u, v), p, q, linkKey{i, j}, linkKey{u, v})
							found = true
						}
					}
				}
			}
		}
	}
	if !found {
		t.Error("no place to start a swipe through a crossing of two links")
	}
	noExceptions(t, b)
}
