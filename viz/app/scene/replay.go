package scene

import (
	"math"

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
	// The first place that hides nothing, in the long words, then the
	// short ones, then those more tightly boxed: a corner, then the middle
	// of the top or bottom edge, then for the tightest anywhere on the
	// stage. Where every place
	// hides something, the one that hides least.
	obstacles := b.replayObstacles()
	var r viz.Rect
	text, best := "", math.Inf(1)
	consider := func(try viz.Rect, t string) bool {
		if !stage.ContainsRect(try) {
			return false
		}
		cost := 0.0
		for _, o := range obstacles {
			cost += overlapArea(try, o)
		}
		if cost < best-1 {
			r, text, best = try, t, cost
		}
		return best < 1
	}
	// Each form: its words and its padding across and down.
	forms := []struct {
		text       string
		padX, padY float64
	}{{words.Replaying, 16, 6}, {words.ReplayingShort, 16, 6}, {words.ReplayingShort, 8, 2}}
	h := 0.0
	done := false
	for k, fm := range forms {
		w, fh := b.Measure(fm.text, size)+fm.padX, LineHeight(size)+fm.padY
		left, mid, right := stage.X+6, stage.Center().X-w/2, stage.Right()-w-6
		top, bottom := stage.Y+6, stage.Bottom()-fh-6
		tries := []viz.Rect{viz.XYWH(left, top, w, fh), viz.XYWH(right, top, w, fh),
			viz.XYWH(left, bottom, w, fh), viz.XYWH(right, bottom, w, fh),
			viz.XYWH(mid, top, w, fh), viz.XYWH(mid, bottom, w, fh)}
		for _, try := range tries {
			if consider(try, fm.text) {
				done, h = true, fh
				break
			}
		}
		if !done && k == len(forms)-1 {
			// Anywhere on the stage, row by row (the middle of a ring
			// of machines is often free).
			const step = 4
			for y := stage.Y + 2; y+fh <= stage.Bottom()-2 && !done; y += step {
				for x := stage.X + 2; x+w <= stage.Right()-2 && !done; x += step {
					done = consider(viz.XYWH(x, y, w, fh), fm.text)
				}
			}
		}
		if done {
			break
		}
	}
	h = r.H
	if text == "" { // a stage too small for any: the long words' corner
		text, h = words.Replaying, LineHeight(size)+6
		r = viz.XYWH(stage.X+6, stage.Y+6, b.Measure(text, size)+16, h)
	}
	f.Replay = &frame.ReplayView{
		Stage: stage,
		Rect:  r,
		Text:  frame.TextItem{Text: text, X: r.Center().X, Y: r.Y + h/2, Size: size, Tone: frame.ToneAccent, Bold: true, Center: true},
	}
}

// replayObstacles are what the replay's tag must not hide: each member's
// disc and words (its name, its lines under it, its badges), each
// worker's box and each zone's label.
func (b *Builder) replayObstacles() []viz.Rect {
	l := b.lay()
	R := l.NodeRadius
	out := b.scratch.obstacles[:0]
	text := func(t frame.TextItem) {
		if t.Text != "" {
			w := b.Measure(t.Text, t.Size)
			x := t.X
			if t.Center {
				x -= w / 2
			}
			out = append(out, viz.XYWH(x, t.Y-t.Size/2, w, t.Size))
		}
	}
	for i, n := range l.Nodes {
		out = append(out, viz.XYWH(n.Center.X-R, n.Center.Y-R, 2*R, 2*R))
		if i < len(b.frame.Nodes) {
			nv := &b.frame.Nodes[i]
			text(nv.Name)
			text(nv.Lines[0])
			text(nv.Lines[1])
			for _, bd := range nv.Badges {
				text(bd)
			}
		}
	}
	for _, wk := range l.Workers {
		out = append(out, wk.Rect)
	}
	for _, z := range l.Zones {
		out = append(out, z.Label)
	}
	b.scratch.obstacles = out
	return out
}
