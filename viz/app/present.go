package app

import (
	"raftlab/viz"
	"raftlab/viz/app/scene"
	"raftlab/viz/words"
)

// Presenter mode, for a projector: the app lays its frame out on a canvas
// smaller than the host's, presentHeight logical pixels tall, which the
// host paints larger (frame.Frame.Zoom), so that every word and mark grows
// alike; the panels go one at a time behind tabs, the one the demo is
// about in front; the toolbar and the timeline stay. Pointers and sizes
// come from the host in its own pixels and are turned into logical ones
// here, at the app's edge.

// presentHeight is the logical height of the canvas in presenter mode,
// and presentWidth the least logical width it keeps.
const (
	presentHeight = 560.0
	presentWidth  = 880.0
	maxZoom       = 3.0
)

// presentZoom is how many of the host's pixels a logical pixel takes on a
// host canvas w×h: 1 unless presenting.
func presentZoom(present bool, w, h float64) float64 {
	if !present || w <= 0 || h <= 0 {
		return 1
	}
	return min(max(min(h/presentHeight, w/presentWidth), 1), maxZoom)
}

// logical turns a point in the host's pixels into the frame's.
func (a *App) logical(p viz.Point) viz.Point {
	if a.zoom <= 0 || a.zoom == 1 {
		return p
	}
	return viz.Pt(p.X/a.zoom, p.Y/a.zoom)
}

// Zoom is how many of the host's pixels a logical pixel of the frame
// takes (1 but in presenter mode).
func (a *App) Zoom() float64 { return a.zoom }

// Presenting reports whether presenter mode is on.
func (a *App) Presenting() bool { return a.params.Present }

// setPresent turns presenter mode on or off. Turned on, the panel in
// front is the one the figure is about, or, in free play, the machine's
// (its role in the diagram of roles), unless the safety panel has a
// broken rule to show.
func (a *App) setPresent(on bool) {
	if a.params.Present == on {
		return
	}
	a.params.Present = on
	if on {
		k := viz.PanelNode
		if r := a.scen(); r != nil {
			if p, ok := scene.PanelFor(r.Spec().UI.Focus); ok {
				k = p
			} else {
				k = viz.PanelScenario
			}
		}
		if a.World().ViolationCount("") > 0 {
			k = viz.PanelSafety
		}
		a.view.SetTab(k)
		a.note(words.PresentOn)
	} else {
		a.note(words.PresentOff)
	}
	a.Resize(a.host.X, a.host.Y)
	a.settle()
	a.changed()
}
