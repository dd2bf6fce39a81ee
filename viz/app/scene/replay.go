package scene

import (
	"raftlab/viz"
	"raftlab/viz/frame"
	"raftlab/viz/words"
)

// While the reader looks at the recorded past (after scrubbing or stepping
// back), the run plays what already happened, and an action there starts a
// new run from that moment. The stage says so until the reader is back at
// the live end, so that nobody mistakes a replay for the run going on.

const IDLive = "timeline.live"

// buildReplay sets f.Replay when the stage shows the recorded past.
func (b *Builder) buildReplay() {
	f := &b.frame
	f.Replay = nil
	if b.Session.AtHead() {
		return
	}
	stage := b.lay().Cluster
	size := SizeSmall
	text := words.Replaying
	w, h := b.Measure(text, size)+16, LineHeight(size)+6
	left, right := stage.X+6, stage.Right()-w-6
	top, bottom := stage.Y+6, stage.Bottom()-h-6
	r := b.quietest(viz.XYWH(left, top, w, h), viz.XYWH(right, top, w, h),
		viz.XYWH(left, bottom, w, h), viz.XYWH(right, bottom, w, h))
	f.Replay = &frame.ReplayView{
		Stage: stage,
		Rect:  r,
		Text:  frame.TextItem{Text: text, X: r.X + w/2, Y: r.Y + h/2, Size: size, Tone: frame.ToneAccent, Bold: true, Center: true},
	}
}
