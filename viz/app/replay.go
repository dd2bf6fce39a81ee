package app

// While the reader looks at the recorded past (after scrubbing or stepping
// back), the run plays what already happened, and an action there starts a
// new run from that moment. The stage says so until the reader is back at
// the live end, so that nobody mistakes a replay for the run going on.

// goLive leaves the recorded past for the live end of the run, and lets it
// go on from there.
func (a *App) goLive() {
	a.session.GoTo(a.session.HeadUs())
	a.clock.Forget()
	a.clock.SetPaused(false)
	a.afterWorldMoved()
}
