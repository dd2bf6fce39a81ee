package app

import (
	"math"

	"raftlab/viz"
	"raftlab/viz/frame"
)

// captionColumn is the width of an embedded app's words when they stand
// beside the machines (a wide canvas), or 0 when they go below.
func (a *App) captionColumn() float64 {
	if a.stage.W() >= 640 && a.stage.W() >= 1.3*a.stage.H() {
		return math.Min(math.Max(a.stage.W()*0.36, 240), 360)
	}
	return 0
}

// captionHeight is the height of an embedded free-play caption strip.
func (a *App) captionHeight() float64 {
	return a.captionContent().y + 6
}

// captionContent lays an embedded free-play caption out at the origin,
// for the width it has. (An embedded scenario is a figure: see figure.go.)
func (a *App) captionContent() *writer {
	pad := 8.0
	width := a.stage.W()
	cw := a.captionColumn()
	if cw > 0 {
		width = cw
	}
	wr := a.newWriter(pad, pad, width-2*pad)
	if cw > 0 {
		// The column has the height to spare: its title and the banner's
		// words are wrapped rather than cut on the title's one line.
		wr.text(a.describeSetup(), sizeTitle, frame.ToneText, true)
		a.writeBroken(wr, sizeBody-1)
		if a.view.Banner().Text != "" {
			wr.text(a.bannerText(), sizeBody-1, bannerTone(a.view.Banner().Tone), true)
		}
	} else {
		wr.y += lineHeight(sizeTitle)
		a.writeBroken(wr, sizeBody-1)
	}
	wr.text(a.voice().ForHand("Drag across links to cut them; drag a machine out to cut it off; click anything for more.",
		"Swipe across links to cut them; drag a machine out to cut it off; tap anything for more."), sizeBody-1, frame.ToneText, false)
	return wr
}

// buildCaption is an embedded free-play caption: in a page, panels would
// crowd the machines, so a few words sit in a strip under the timeline.
// Notes that would go to the banner take the title's place for a moment.
func (a *App) buildCaption() *frame.MenuView {
	if cw := a.captionColumn(); cw > 0 {
		// Its title is among its lines.
		return a.menuAt(viz.XYWH(a.stage.W()-cw, 0, cw, a.stage.H()), a.captionContent())
	}
	r := viz.XYWH(0, a.lay().Canvas.Bottom(), a.stage.W(), a.stage.H()-a.lay().Canvas.Bottom())
	mv := a.menuAt(r, a.captionContent())
	mv.Title = frame.TextItem{Text: a.describeSetup(), X: r.X + 8, Y: r.Y + 8, Size: sizeTitle, Tone: frame.ToneText, Bold: true}
	if a.view.Banner().Text != "" {
		// The strip's height is set by its words without a banner, so
		// that a note does not move the machines: a note takes the title.
		mv.Title = frame.TextItem{Text: a.bannerText(), X: r.X + 8, Y: r.Y + 8, Size: sizeBody, Tone: bannerTone(a.view.Banner().Tone), Bold: true}
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
