package app

import (
	"raftlab/viz"
	"raftlab/viz/frame"
)

// While the reader looks at the recorded past (after scrubbing or stepping
// back), the run plays what already happened, and an action there starts a
// new run from that moment. The stage says so until the reader is back at
// the live end, so that nobody mistakes a replay for the run going on.

const idLive = "timeline.live"

// buildReplay sets f.Replay when the stage shows the recorded past.
func (a *App) buildReplay() {
	f := &a.frame
	f.Replay = nil
	if a.session.AtHead() {
		return
	}
	stage := a.lay().Cluster
	size := sizeSmall
	text := "Replaying the past"
	w, h := a.measure(text, size)+16, lineHeight(size)+6
	left, right := stage.X+6, stage.Right()-w-6
	top, bottom := stage.Y+6, stage.Bottom()-h-6
	r := a.quietest(viz.XYWH(left, top, w, h), viz.XYWH(right, top, w, h),
		viz.XYWH(left, bottom, w, h), viz.XYWH(right, bottom, w, h))
	f.Replay = &frame.ReplayView{
		Stage: stage,
		Rect:  r,
		Text:  frame.TextItem{Text: text, X: r.X + w/2, Y: r.Y + h/2, Size: size, Tone: frame.ToneAccent, Bold: true, Center: true},
	}
}

// goLive leaves the recorded past for the live end of the run, and lets it
// go on from there.
func (a *App) goLive() {
	a.session.GoTo(a.session.HeadUs())
	a.clock.Forget()
	a.clock.SetPaused(false)
	a.afterWorldMoved()
}
