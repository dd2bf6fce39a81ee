//go:build browser

package e2e

import (
	"fmt"
	"testing"
	"time"

	"raftlab/viz/app"
)

// The app rests while nothing changes (viz/draw/rest.go): these tests check that it
// stops running frames then, and that everything that should wake it does.

// stat is one of the counters of window.raftlab.frameStats().
func stat[T any](b *browser, name string) T {
	b.t.Helper()
	return evalJS[T](b, fmt.Sprintf(`JSON.parse(window.raftlab.frameStats()).%s`, name))
}

// waitResting waits until the app says it rests.
func waitResting(b *browser, what string) {
	b.t.Helper()
	if err := b.poll(`JSON.parse(window.raftlab.frameStats()).resting === true`, waitTimeout); err != nil {
		b.t.Fatalf("%s: the app did not rest within %v: %v (stats %s)", what, waitTimeout, err,
			evalJS[string](b, `window.raftlab.frameStats()`))
	}
}

// requireStill checks that the app runs no Update and paints nothing for d.
func requireStill(t *testing.T, b *browser, d time.Duration, what string) {
	t.Helper()
	u, p := stat[int64](b, "updates"), stat[int64](b, "draws")
	time.Sleep(d)
	if u2, p2 := stat[int64](b, "updates"), stat[int64](b, "draws"); u2 != u || p2 != p {
		t.Errorf("%s: %d updates and %d paints in %v while resting, want none", what, u2-u, p2-p, d)
	}
}

// waitPainted waits until the app has painted a frame after the draws count from.
func waitPainted(b *browser, from int64, what string) {
	b.t.Helper()
	if err := b.poll(fmt.Sprintf(`JSON.parse(window.raftlab.frameStats()).draws > %d`, from), waitTimeout); err != nil {
		b.t.Fatalf("%s: nothing painted within %v: %v", what, waitTimeout, err)
	}
}

func TestAppRestsWhilePausedAndWakesForInputAndPageCalls(t *testing.T) {
	b := newBrowser(t, 1280, 800)
	b.openApp("nodes=5&seed=1&speed=1")
	waitState(b, "a leader", func(s app.Snapshot) bool { return s.Leader > 0 })
	if stat[bool](b, "resting") {
		t.Fatal("the app rests while the run plays")
	}
	appCmd(b, "pause")
	s := waitState(b, "paused, with no banner left to expire", func(s app.Snapshot) bool { return s.Paused && s.Banner == "" })
	waitResting(b, "paused")
	requireStill(t, b, 2*time.Second, "paused")

	// Hover: the mouse over a machine wakes the app, which paints its hover text.
	m := machine(s, 3)
	before := stat[int64](b, "draws")
	b.mouseMove(m.X+1, m.Y+1)
	waitPainted(b, before, "hovering over a machine")
	b.screenshot("hover-while-paused")
	waitResting(b, "after hovering")

	// A page call: the crash shows without any input.
	before = stat[int64](b, "draws")
	jsCall(b, "act", map[string]any{"do": "crash", "node": 2})
	waitPainted(b, before, "a crash from the page")
	if st := machine(appState(b), 2).Status; st != "crashed" {
		t.Fatalf("machine 2 is %s after the page crashed it", st)
	}
	waitResting(b, "after the page's call")

	// A note that runs out on its own wakes the app when it goes.
	appCmd(b, "next-event")
	if appState(b).Banner == "" {
		t.Fatal("moving to the next event showed no note")
	}
	waitResting(b, "with a note showing")
	before = stat[int64](b, "draws")
	waitState(b, "the note to go by itself", func(s app.Snapshot) bool { return s.Banner == "" })
	waitPainted(b, before, "the note going")
	waitResting(b, "after the note")

	// Playing again runs frames at once.
	appCmd(b, "play")
	now := appState(b).NowMs
	waitState(b, "virtual time to run after play", func(s app.Snapshot) bool { return s.NowMs > now+200 })
	if stat[bool](b, "resting") {
		t.Error("the app rests while the run plays again")
	}
	noExceptions(t, b)
}

func TestAppHiddenDrawsNothingUntilShown(t *testing.T) {
	b := newBrowser(t, 1280, 800)
	b.openApp("nodes=3&seed=1&speed=1")
	waitState(b, "a leader", func(s app.Snapshot) bool { return s.Leader > 0 })
	jsCall(b, "setVisible", false)
	waitResting(b, "hidden while playing")
	now := appState(b).NowMs
	requireStill(t, b, 2*time.Second, "hidden")
	if s := appState(b); s.NowMs != now || s.Visible {
		t.Errorf("hidden: virtual time %v → %v, visible %v; want time standing still", now, s.NowMs, s.Visible)
	}
	before := stat[int64](b, "draws")
	jsCall(b, "setVisible", true)
	waitPainted(b, before, "shown again")
	waitState(b, "virtual time to run once shown", func(s app.Snapshot) bool { return s.NowMs > now+200 })
	noExceptions(t, b)
}
