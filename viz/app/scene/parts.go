// Package scene makes the app's frames: from the parts that own the
// app's state (the session's world, the reader's view, the stage's
// layout, the clock), it describes everything one frame shows as plain
// data (a frame.Frame): where every machine, link, message, log cell,
// panel line and control goes, in which tone, and with which words, which
// it picks from package viz/words and never writes itself.
//
// Building a frame changes none of the parts: build twice and the frames
// are equal. The builder keeps only what makes building cheaper from one
// frame to the next (text widths, wrapped paragraphs, reused buffers).
package scene

import (
	"raftlab/raftcore"
	"raftlab/scenarios"
	"raftlab/viz"
	"raftlab/viz/app/clock"
	"raftlab/viz/app/session"
	"raftlab/viz/app/stage"
	"raftlab/viz/app/view"
	"raftlab/viz/frame"
	"raftlab/viz/words"
)

// Parts are what a frame is built from. The builder only reads them.
type Parts struct {
	Session *session.Session
	View    *view.View
	Stage   *stage.Stage
	Clock   *clock.Clock
	Params  viz.Params
	// Catalog is the scenarios the app offers.
	Catalog session.Catalog
	// Rec is the pointer's gesture under way (a stroke, a drag), and
	// Pressing says a control is being pressed.
	Rec      *viz.Recognizer
	Pressing bool
	// Zoom is how much larger than its logical size the host paints the
	// frame (presenter mode).
	Zoom float64
}

// World is the world shown.
func (p *Parts) World() *raftcore.World { return p.Session.World() }

// cfg is the world's configuration.
func (p *Parts) cfg() *raftcore.Config { return p.Session.Config() }

// scen is the scenario played, or nil.
func (p *Parts) scen() *session.Scenario { return p.Session.Scenario() }

// lay is the stage's layout.
func (p *Parts) lay() *viz.Layout { return p.Stage.Layout() }

// Figure reports whether the app shows an embedded figure: a scenario in a
// page, with its own words and controls.
func (p *Parts) Figure() bool { return p.Params.Embed && p.scen() != nil }

// Plain reports whether the screen keeps Raft's mechanism from the
// reader: the figure embedded stands in the chapter that never shows it
// (see scenarios.Words), even when Raft runs underneath.
func (p *Parts) Plain() bool { return p.Voice().Plain() }

// Voice is how the screen speaks of the world shown, to the reader's
// hand: an embedded figure at the rung of the book's ladder of words it
// stands on; the full lab, a figure opened in it included, in Raft's own
// words, which is where the reader meets them.
func (p *Parts) Voice() words.Voice {
	v := words.Voice{Cfg: p.cfg(), Touch: p.Stage.Touch()}
	if p.Figure() {
		v.Level, v.HideRule = Level(p.scen().Spec().UI.Words), p.scen().Spec().UI.HideRule
	}
	return v
}

// SecondsClock reports whether the run's clock reads in seconds to a
// tenth: its scenario's story runs in seconds (scenarios.UI.Pace), in the
// full lab as in a page.
func (p *Parts) SecondsClock() bool {
	return p.scen() != nil && p.scen().Spec().UI.SecondsClock()
}

// Level is the rung of words the screen speaks for a figure's.
func Level(w scenarios.Words) words.Level {
	switch w {
	case scenarios.WordsContract:
		return words.LevelContract
	case scenarios.WordsInCharge:
		return words.LevelInCharge
	case scenarios.WordsCopies:
		return words.LevelCopies
	}
	return words.LevelRaft
}

// leader is the index of the machine that leads, or -1.
func (p *Parts) leader() int { return p.Session.Leader() }

// Builder makes frames. It keeps what makes the next frame cheaper: text
// widths, wrapped paragraphs, and buffers reused from frame to frame.
type Builder struct {
	Parts
	text    *textCache
	scratch scratch
	frame   frame.Frame
	// noteSlot is the toolbar's free stretch in the frame being built,
	// where short notes go.
	noteSlot viz.Rect
	// Still asks for frames for a still picture (a poster, or the page in
	// print), which nobody can press or scroll: a knob says its setting
	// in words rather than offering chips, and a panel shows the whole
	// paragraphs it has room for, not "more below" over a cut line.
	Still bool
}

// New is a builder whose text is measured by measure (nil: estimated,
// which is enough for tests).
func New(measure func(string, float64) float64) *Builder {
	if measure == nil {
		measure = estimateWidth
	}
	return &Builder{text: newTextCache(measure)}
}

// Measure is the width of s at size, in the host's font.
func (b *Builder) Measure(s string, size float64) float64 { return b.text.measure(s, size) }

// nodeID converts a layout index to a machine id.
func nodeID(i int) raftcore.NodeID { return raftcore.NodeID(i + 1) }
