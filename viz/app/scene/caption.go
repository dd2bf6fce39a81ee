package scene

import (
	"math"

	"raftlab/raftcore"
	"raftlab/viz"
	"raftlab/viz/frame"
	"raftlab/viz/words"
)

// captionColumn is the width of an embedded app's words when they stand
// beside the machines (a wide canvas), or 0 when they go below.
func (b *Builder) captionColumn() float64 {
	if b.Stage.W() >= 640 && b.Stage.W() >= 1.3*b.Stage.H() {
		return math.Min(math.Max(b.Stage.W()*0.36, 240), 360)
	}
	return 0
}

// captionHeight is the height of an embedded free-play caption strip.
func (b *Builder) captionHeight() float64 {
	return b.captionContent().y + 6
}

// captionContent lays an embedded free-play caption out at the origin,
// for the width it has. (An embedded scenario is a figure: see figure.go.)
func (b *Builder) captionContent() *writer {
	pad := 8.0
	width := b.Stage.W()
	cw := b.captionColumn()
	if cw > 0 {
		width = cw
	}
	wr := b.newWriter(pad, pad, width-2*pad)
	if cw > 0 {
		// The column has the height to spare: its title and the banner's
		// words are wrapped rather than cut on the title's one line.
		wr.text(words.Setup(b.setupNow()), SizeTitle, frame.ToneText, true)
		b.writeBroken(wr, SizeBody-1)
		if b.View.Banner().Text != "" {
			wr.text(b.Voice().Banner(b.View.Banner().Text), SizeBody-1, bannerTone(b.View.Banner().Tone), true)
		}
	} else {
		wr.y += LineHeight(SizeTitle)
		b.writeBroken(wr, SizeBody-1)
	}
	wr.text(b.Voice().CaptionHint(), SizeBody-1, frame.ToneText, false)
	return wr
}

// buildCaption is an embedded free-play caption: in a page, panels would
// crowd the machines, so a few words sit in a strip under the timeline.
// Notes that would go to the banner take the title's place for a moment.
func (b *Builder) buildCaption() *frame.MenuView {
	if cw := b.captionColumn(); cw > 0 {
		// Its title is among its lines.
		return b.menuAt(viz.XYWH(b.Stage.W()-cw, 0, cw, b.Stage.H()), b.captionContent())
	}
	r := viz.XYWH(0, b.lay().Canvas.Bottom(), b.Stage.W(), b.Stage.H()-b.lay().Canvas.Bottom())
	mv := b.menuAt(r, b.captionContent())
	mv.Title = frame.TextItem{Text: words.Setup(b.setupNow()), X: r.X + 8, Y: r.Y + 8, Size: SizeTitle, Tone: frame.ToneText, Bold: true}
	if b.View.Banner().Text != "" {
		// The strip's height is set by its words without a banner, so
		// that a note does not move the machines: a note takes the title.
		mv.Title = frame.TextItem{Text: b.Voice().Banner(b.View.Banner().Text), X: r.X + 8, Y: r.Y + 8, Size: SizeBody, Tone: bannerTone(b.View.Banner().Tone), Bold: true}
	}
	return mv
}

// bannerTone is the colour of the banner's words in a caption: a warning
// keeps its own, a note stands out in the accent.
func bannerTone(t frame.Tone) frame.Tone {
	if t == frame.ToneBad {
		return frame.ToneBad
	}
	return frame.ToneAccent
}

// writeBroken writes, where the setup is described, that the run breaks
// Raft on purpose and how, if it does: the banner that says so first gives
// way to the next note.
func (b *Builder) writeBroken(wr *writer, size float64) {
	if names := b.World().Settings().Bugs.Names(); len(names) > 0 {
		wr.text(words.BrokenShort(names), size, frame.ToneBad, true)
	}
}

// setupNow is the run's configuration with the settings in force now: a
// "set" action may have changed PreVote, CheckQuorum or a bug since the
// run began, and the setup is told as it is.
func (b *Builder) setupNow() *raftcore.Config {
	c := *b.cfg()
	now := b.World().Settings()
	c.PreVote, c.CheckQuorum, c.Bugs = now.PreVote, now.CheckQuorum, now.Bugs
	return &c
}
