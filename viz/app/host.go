package app

import (
	"time"

	"raftlab/viz"
	"raftlab/viz/app/command"
	"raftlab/viz/frame"
)

// SpeedChosen reports whether parameters (URL query pieces "k=v" or
// command-line arguments) set a speed the app takes, so the app knows
// whether to use its own default (viz.SpeedGiven). Keys are read as
// viz.ParseQuery reads them: without case, dashes or underscores.
func SpeedChosen(parts []string) bool { return viz.SpeedGiven(parts) }

// Notify shows a short message from the host (a saved file, a copied
// link) in the banner.
func (a *App) Notify(text string) {
	a.say(text, frame.ToneText, 6*time.Second)
	a.settle()
}

// Act applies an action given as JSON (the page's act()): the command
// table's act.
func (a *App) Act(data []byte) error {
	in, err := command.ParseArgs(a.commandContext(), "act", string(data))
	if err != nil {
		return err
	}
	return a.Do(in)
}

// Resize lays the screen out for a canvas of w×h of the host's pixels
// (CSS pixels in a page): as many logical pixels, or, in presenter mode,
// fewer, which the host paints larger (see present.go).
func (a *App) Resize(w, h float64) {
	a.host = viz.Pt(w, h)
	zoom := presentZoom(a.params.Present, w, h)
	zoomed := zoom != a.zoom
	a.zoom = zoom
	if a.stage.Resize(w/zoom, h/zoom) || zoomed {
		a.settle()
		a.changed()
	}
}

// SetTouch tells the app the reader uses a touch screen: targets widen.
func (a *App) SetTouch(t bool) {
	if a.stage.SetTouch(t) {
		a.settle()
		a.changed()
	}
}

// ImportSchedule opens a schedule file: its world, replayed up to its end.
func (a *App) ImportSchedule(data []byte) error { return a.Do(command.OpenRun{JSON: string(data)}) }
