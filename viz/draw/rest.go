package draw

import (
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"
)

// rest is how a game stops costing anything while nothing changes.
//
// When the app says it is idle, Ebiten is put in FPSModeVsyncOffMinimum,
// where it calls Update and Draw only on input (mouse, keys, touch, wheel,
// resize) or after ScheduleFrame. On the desktop that is enough: Ebiten
// then waits for window events. In the browser Ebiten still asks for every
// animation frame, and a page that does costs about as much as a paused
// app that draws nothing (the browser runs its rendering steps each
// frame), so there the game also parks Ebiten's loop: it blocks in Update,
// and no further frame is asked for, until Wake (see rest_js.go).
//
// The game wakes itself at the app's next wake-up time (a banner that runs
// out); whoever changes the app from outside Ebiten's input (a page
// script) calls Wake.
//
// FPSModeVsyncOffMinimum is deprecated in favour of
// SetScreenClearedEveryFrame(false), which the game uses too, but that only
// skips painting: Update and the frame loop still run 60 times a second.
type rest struct {
	on bool // Ebiten is in FPSModeVsyncOffMinimum
	// updated: an Update ran since the last Draw. Ebiten may draw a frame
	// without updating (its clock ran less than half a tick), and such a
	// frame has not seen the input that woke it.
	updated bool
	// park: the next Update may block until Wake (browser only).
	park bool
	wake chan struct{}
	// input is what the input devices showed at the last Update, and
	// lastInput when they last changed: the game stays awake a moment
	// after input, so that a gesture's later ticks (a release, a second
	// tap) and a page's checks of them see ordinary frames.
	input     inputState
	lastInput time.Duration
	scratchT  []ebiten.TouchID
	scratchK  []ebiten.Key
	scratchR  []rune
	timer     *time.Timer
	armed     time.Duration // when timer fires; 0 when none is set
}

// lingerAfterInput is how long the game stays awake after the last input.
const lingerAfterInput = time.Second

// inputState is what the input devices show in one tick.
type inputState struct {
	x, y    int
	buttons uint8
	keys    int
	touches int
	tx, ty  int
}

// sawInput reads the input devices and reports whether anything changed
// since the last Update. Ebiten runs Updates one at a time.
func (r *rest) sawInput() bool {
	var in inputState
	in.x, in.y = ebiten.CursorPosition()
	for i, b := range []ebiten.MouseButton{ebiten.MouseButtonLeft, ebiten.MouseButtonRight, ebiten.MouseButtonMiddle} {
		if ebiten.IsMouseButtonPressed(b) {
			in.buttons |= 1 << i
		}
	}
	r.scratchK = inpututil.AppendPressedKeys(r.scratchK[:0])
	in.keys = len(r.scratchK)
	r.scratchT = ebiten.AppendTouchIDs(r.scratchT[:0])
	in.touches = len(r.scratchT)
	if len(r.scratchT) > 0 {
		in.tx, in.ty = ebiten.TouchPosition(r.scratchT[0])
	}
	r.scratchR = ebiten.AppendInputChars(r.scratchR[:0])
	wx, wy := ebiten.Wheel()
	changed := in != r.input || len(r.scratchR) > 0 || wx != 0 || wy != 0
	r.input = in
	return changed
}

// Wake makes Ebiten run a frame soon even while the game rests. Call it
// after changing the app from outside Update; it does not need Mu.
func (g *Game) Wake() {
	select {
	case g.rest.wake <- struct{}{}:
	default: // a wake-up is already pending
	}
	ebiten.ScheduleFrame()
}

// Resting reports whether the game has let Ebiten stop calling it. Hold
// Mu, as for any use of the app.
func (g *Game) Resting() bool { return g.rest.on }

// parkIfIdle blocks the calling Update until Wake when the game rests and
// nothing new came from the input devices: Ebiten then asks for no more
// animation frames. Only the browser parks (see rest_js.go).
func (g *Game) parkIfIdle(moved bool) {
	g.Mu.Lock()
	park := parks && g.rest.park && g.rest.on && !moved && g.rest.wake != nil
	g.rest.park = false
	g.Mu.Unlock()
	if park {
		<-g.rest.wake
	}
}

// settle decides, at the end of each Draw, whether Ebiten keeps running
// frames. g.Mu is held. It reads the clock itself, after the frame, so
// that a wake-up timer that has fired is never taken for one to come.
func (g *Game) settle() {
	now := g.now()
	r := &g.rest
	a := g.App
	idle, wakeAt := a.NextWake(now)
	if (a.Visible() && (!g.first || a.Version() != g.drawn)) || g.shot.Name != "" || g.opts.ShotFile != "" {
		// A frame not drawn yet (the app may have built it for a page
		// script's snapshot), and screenshots, keep the game awake.
		idle = false
	}
	if r.lastInput > 0 && now-r.lastInput < lingerAfterInput {
		idle = false
	}
	updated := r.updated
	r.updated = false
	switch {
	case !idle:
		g.setRest(false)
		g.arm(0, now)
	case !updated:
		// This frame did not run Update: let one more frame come, which
		// will, before resting.
		if r.on {
			ebiten.ScheduleFrame()
		}
	default:
		if g.opts.OnSecond != nil && a.Visible() {
			// -stats reports once a second even while nothing moves.
			if t := g.lastSec + time.Second; wakeAt == 0 || t < wakeAt {
				wakeAt = t
			}
		}
		g.setRest(true)
		g.arm(wakeAt, now)
		if parks {
			// One more frame, whose Update parks the loop. A wake-up
			// left from before is spent: this frame has seen what it
			// was for (changes are made under Mu, and Wake follows).
			select {
			case <-r.wake:
			default:
			}
			r.park = true
			ebiten.ScheduleFrame()
		}
	}
}

func (g *Game) setRest(on bool) {
	if g.rest.on == on {
		return
	}
	g.rest.on = on
	if on {
		ebiten.SetFPSMode(ebiten.FPSModeVsyncOffMinimum)
	} else {
		ebiten.SetFPSMode(ebiten.FPSModeVsyncOn)
	}
}

// arm sets the wake-up timer to fire at real time at (0: no timer). A
// timer that has fired (at is not after now) is set again.
func (g *Game) arm(at, now time.Duration) {
	r := &g.rest
	if at == r.armed && (at == 0 || at > now) {
		return
	}
	if r.timer != nil {
		r.timer.Stop()
		r.timer = nil
	}
	r.armed = at
	if at > 0 {
		r.timer = time.AfterFunc(max(at-now, 0), g.Wake)
	}
}
