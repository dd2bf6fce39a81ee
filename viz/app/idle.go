package app

import "time"

// NextWake says whether the host may stop calling Update and drawing until
// the reader does something or the host changes the app: idle is true when
// nothing on screen would change by itself. wakeAt is the real time (as
// Update's now) of the next change that happens without anyone acting, a
// banner that runs out; 0 means none.
//
// The app is idle when hidden (unless it has effects for the host to carry
// out), and when its world stands still (paused, or behind the help) with
// no press or drag under way, no effect pending and no frame left to
// build. Message dots stand still with the world, so they never keep a
// paused app awake.
//
// When it reports idle, NextWake also makes the next Update start the
// clock afresh, as SetVisible does, so that the time spent resting never
// counts as time the world should have run.
func (a *App) NextWake(now time.Duration) (idle bool, wakeAt time.Duration) {
	switch {
	case len(a.effects) > 0, a.opening != nil:
		return false, 0
	case !a.clock.Visible():
		// Nothing is drawn, and a banner may run out unseen: the Update
		// that follows SetVisible(true) removes it.
		a.clock.Restart()
		return true, 0
	case !a.clock.Paused() && !a.view.Help():
		return false, 0
	case a.input.rec.Active() || a.input.press.active:
		// A press may turn into a long press with no further input, and a
		// drag draws its stroke every frame.
		return false, 0
	case a.built != a.version:
		return false, 0
	}
	if a.view.Banner().Until > 0 {
		if a.view.Banner().Until <= now {
			return false, 0
		}
		wakeAt = a.view.Banner().Until
	}
	a.clock.Restart()
	return true, wakeAt
}
