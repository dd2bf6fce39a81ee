package app

import (
	"testing"
	"time"

	"raftlab/viz"
)

// rested asks the app whether it may rest, after building the frame as a
// host draws it.
func rested(a *App, c *hostClock) (bool, time.Duration) {
	a.Frame()
	return a.NextWake(c.now)
}

// stillUntil runs Updates over d and fails if the frame's version changes
// before until (0: at all).
func stillUntil(t *testing.T, a *App, c *hostClock, d, until time.Duration, what string) {
	t.Helper()
	v := a.Version()
	for end := c.now + d; c.now < end; c.now += time.Second / 60 {
		a.Update(c.now)
		if a.Version() != v && (until == 0 || c.now < until) {
			t.Fatalf("%s: the app said it was idle, but its frame changed at %v", what, c.now)
		}
	}
}

func TestARunningAppIsNeverIdle(t *testing.T) {
	a := newApp(t, 3, 1280, 800)
	var c hostClock
	c.run(a, time.Second)
	if idle, _ := rested(a, &c); idle {
		t.Fatal("a running app said it was idle")
	}
}

func TestAPausedAppIsIdleAndStaysStill(t *testing.T) {
	a := newApp(t, 5, 1280, 800)
	var c hostClock
	untilLeader(t, a, &c)
	a.Command(viz.CmdClientWrite)
	c.run(a, 5*time.Millisecond)
	if err := a.Command(viz.CmdPlayPause); err != nil {
		t.Fatal(err)
	}
	a.view.CloseBanner()
	a.changed()
	if len(a.World().InFlight()) == 0 {
		t.Fatal("no message in flight: the test wants dots on the wire")
	}
	if idle, _ := a.NextWake(c.now); idle {
		t.Fatal("idle with a frame not yet built: the pause would never be drawn")
	}
	idle, wake := rested(a, &c)
	if !idle || wake != 0 {
		t.Fatalf("paused with nothing due: idle %v, wake at %v; want idle with no wake-up", idle, wake)
	}
	stillUntil(t, a, &c, 10*time.Second, 0, "paused with messages in flight")
}

func TestTheHelpStopsTheWorldSoTheAppRests(t *testing.T) {
	a := newApp(t, 3, 1280, 800)
	var c hostClock
	c.run(a, time.Second)
	a.view.CloseBanner()
	if err := a.Command(viz.CmdHelp); err != nil {
		t.Fatal(err)
	}
	if idle, _ := rested(a, &c); !idle {
		t.Fatal("the help is open (the world stands still) but the app is not idle")
	}
	stillUntil(t, a, &c, 3*time.Second, 0, "behind the help")
}

func TestABannerIsAWakeUpTime(t *testing.T) {
	a := newApp(t, 3, 1280, 800)
	var c hostClock
	c.run(a, time.Second)
	a.Command(viz.CmdPlayPause)
	a.note("a short note")
	until := a.clock.Now() + 4*time.Second
	idle, wake := rested(a, &c)
	if !idle || wake != until {
		t.Fatalf("paused with a note: idle %v, wake at %v; want idle, waking at %v when the note goes", idle, wake, until)
	}
	stillUntil(t, a, &c, 5*time.Second, until, "paused with a note")
	if a.State().Banner != "" {
		t.Fatal("the note outlived its wake-up time")
	}
	if idle, wake := rested(a, &c); !idle || wake != 0 {
		t.Fatalf("after the note went: idle %v, wake at %v; want idle for good", idle, wake)
	}
	// A host that slept past the banner's end must not sleep again
	// before an Update removes it.
	a.note("another")
	if idle, _ := rested(a, &c); !idle {
		t.Fatal("paused with a fresh note, not idle")
	}
	if idle, _ := a.NextWake(c.now + 5*time.Second); idle {
		t.Error("idle with a note already past its time")
	}
}

func TestAPressOrDragKeepsTheAppAwake(t *testing.T) {
	a := newApp(t, 3, 1280, 800)
	var c hostClock
	a.clock.SetPaused(true)
	a.view.CloseBanner()
	l := a.Layout()
	center := l.Nodes[0].Center
	a.Pointer(viz.PointerEvent{Action: viz.PointerDown, Pos: center, Time: c.now})
	if idle, _ := rested(a, &c); idle {
		t.Fatal("idle while a machine is pressed: a long press or a drag may follow")
	}
	c.now += time.Second / 60
	out := center.Add(center.Sub(l.Ring.C).Unit().Mul(l.NodeRadius * 2))
	a.Pointer(viz.PointerEvent{Action: viz.PointerMove, Pos: out, Time: c.now})
	if idle, _ := rested(a, &c); idle {
		t.Fatal("idle in the middle of a drag")
	}
	c.now += time.Second / 60
	a.Pointer(viz.PointerEvent{Action: viz.PointerUp, Pos: center, Time: c.now})
	a.Update(c.now)
	if idle, _ := rested(a, &c); !idle {
		t.Fatal("the drag ended where it began but the paused app is not idle")
	}
	// A press on a toolbar control is the app's own, not the recognizer's.
	r, ok := widgetRect(a, "cmd:"+viz.CmdStep.String())
	if !ok {
		t.Fatalf("no step button among %v", widgetIDs(a))
	}
	a.Pointer(viz.PointerEvent{Action: viz.PointerDown, Pos: r.Center(), Time: c.now})
	if idle, _ := rested(a, &c); idle {
		t.Fatal("idle while a button is held")
	}
}

func TestPendingEffectsKeepTheAppAwakeEvenHidden(t *testing.T) {
	a := newApp(t, 3, 1280, 800)
	var c hostClock
	a.clock.SetPaused(true)
	a.SetVisible(false)
	if idle, wake := rested(a, &c); !idle || wake != 0 {
		t.Fatalf("hidden: idle %v, wake at %v; want idle with no wake-up", idle, wake)
	}
	if err := a.Click("share.link"); err != nil {
		t.Fatal(err)
	}
	if idle, _ := rested(a, &c); idle {
		t.Fatal("idle with a link for the host to copy")
	}
	if len(a.TakeEffects()) != 1 {
		t.Fatal("share.link asked nothing of the host")
	}
	if idle, _ := rested(a, &c); !idle {
		t.Fatal("hidden with nothing pending, not idle")
	}
}

func TestAHiddenAppIsIdleEvenWhenPlaying(t *testing.T) {
	a := newApp(t, 3, 1280, 800)
	var c hostClock
	c.run(a, time.Second)
	a.note("a short note")
	a.SetVisible(false)
	if idle, wake := a.NextWake(c.now); !idle || wake != 0 {
		t.Fatalf("hidden while playing: idle %v, wake at %v; want idle with no wake-up", idle, wake)
	}
	stillUntil(t, a, &c, 3*time.Second, c.now+4*time.Second, "hidden")
}

func TestTimeSpentRestingDoesNotRunTheWorld(t *testing.T) {
	a := newApp(t, 3, 1280, 800)
	var c hostClock
	c.run(a, time.Second)
	a.clock.SetPaused(true)
	a.Update(c.now)
	if idle, _ := rested(a, &c); !idle {
		t.Fatal("paused, not idle")
	}
	before := a.World().Now()
	// The host sleeps for a minute; then something unpauses the app
	// without going through the play button (a menu, a page script).
	c.now += time.Minute
	a.clock.SetPaused(false)
	a.Update(c.now)
	if got := a.World().Now(); got != before {
		t.Fatalf("the first Update after resting ran the world %d µs", got-before)
	}
	c.run(a, time.Second)
	if a.World().Now()-before < 900_000 {
		t.Errorf("after resting the world ran %d µs in a second at 1x", a.World().Now()-before)
	}
}
