// Package poster makes the still pictures that stand for a figure while
// its live version loads, where WebGL is missing, and in print: for every
// figure, its opening and its key moment, drawn by package svg from the
// very Frame the app builds at that moment.
//
// The app is stepped there headlessly, the way a reader would get there:
// opened as an embedded figure, then played a step at a time on a clock
// that moves in fixed frames. Everything is deterministic (the simulation
// is seeded and the clock is fake), so a poster's bytes change only when
// what the code draws changes; TestPostersAreCurrent holds the committed
// files in web/posters to that, and `make posters` writes them again.
package poster

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"raftlab/scenarios"
	"raftlab/viz"
	"raftlab/viz/app"
	"raftlab/viz/app/command"
	"raftlab/viz/app/session"
	"raftlab/viz/fonts"
	"raftlab/viz/frame"
	"raftlab/viz/svg"
	"raftlab/viz/words"
)

// Moment is which still of a figure a poster shows.
type Moment string

// The moments.
const (
	// Opening is where the figure opens, still, before the reader plays
	// it: the moment its paragraph starts from.
	Opening Moment = "open"
	// Key is the moment the figure makes its point: resting on the last
	// step of its story, reached by playing it step by step.
	Key Moment = "key"
)

// Moments are the moments every figure has a poster of.
var Moments = []Moment{Opening, Key}

// Themes are the app's colour themes (viz.Themes, the default first):
// every moment has a poster in each, so that a figure set to the dark
// theme stands in with a dark picture rather than none.
func Themes() []string { return viz.Themes() }

// Width and Height are the size posters are laid out at: a figure in a
// column of a book page (16:10, embed.js's default). The SVG scales to
// whatever box the page gives it.
const (
	Width  = 720
	Height = 450
)

// frameStep is the fake clock's step while a figure plays: a 60 Hz frame,
// as in the browser.
const frameStep = time.Second / 60

// playLimit is how much (fake) real time a figure may take to play to its
// key moment before it counts as stuck.
const playLimit = 10 * time.Minute

// IDs are the figures that have posters: every scenario in the registry.
func IDs() []string { return scenarios.IDs() }

// FileName is the name of a figure's poster file in web/posters, in the
// default theme.
func FileName(id string, m Moment) string { return ThemedFileName(id, m, Themes()[0]) }

// ThemedFileName is the name of a figure's poster file in web/posters in
// theme: ID-open.svg in the default theme, ID-open-dark.svg in the dark
// one (embed.js builds the same names).
func ThemedFileName(id string, m Moment, theme string) string {
	if theme == Themes()[0] {
		return id + "-" + string(m) + ".svg"
	}
	return id + "-" + string(m) + "-" + theme + ".svg"
}

// Frame returns the frame the app builds for figure id at moment m, in
// the default theme.
func Frame(id string, m Moment) (*frame.Frame, error) { return ThemedFrame(id, m, Themes()[0]) }

// ThemedFrame returns the frame the app builds for figure id at moment m
// when the figure is set to theme (data-theme on its div).
func ThemedFrame(id string, m Moment, theme string) (*frame.Frame, error) {
	a, err := open(id, theme)
	if err != nil {
		return nil, err
	}
	switch m {
	case Opening:
	case Key:
		if err := playToLastStep(a); err != nil {
			return nil, fmt.Errorf("poster %s: %w", id, err)
		}
	default:
		return nil, fmt.Errorf("poster %s: no moment called %q (known: %s, %s)", id, m, Opening, Key)
	}
	return a.Frame(), nil
}

// SVG is figure id's poster at moment m in the default theme.
func SVG(id string, m Moment) ([]byte, error) { return ThemedSVG(id, m, Themes()[0]) }

// ThemedSVG is figure id's poster at moment m in theme: the same frame as
// the default one but for its colours, painted with the theme's palette.
func ThemedSVG(id string, m Moment, theme string) ([]byte, error) {
	f, err := ThemedFrame(id, m, theme)
	if err != nil {
		return nil, err
	}
	s, err := scenarios.Get(id)
	if err != nil {
		return nil, err
	}
	return svg.Paint(f, svg.Options{Title: words.PosterTitle(s.Title, m == Key)}), nil
}

// open makes the app as embed.js opens figure id in theme, at the
// poster's size, measuring text as the browser app does.
func open(id, theme string) (*app.App, error) {
	if _, err := scenarios.Get(id); err != nil {
		return nil, err
	}
	if !slices.Contains(Themes(), theme) {
		return nil, fmt.Errorf("poster %s: no theme called %q (known: %s)", id, theme, strings.Join(Themes(), ", "))
	}
	p := viz.DefaultParams()
	p.Scenario, p.Embed, p.Theme = id, true, theme
	return app.New(app.Options{Params: p, Width: Width, Height: Height, Measure: fonts.Measure,
		Scenarios: session.BuiltinScenarios(), BaseURL: "index.html"})
}

// playToLastStep plays the figure a step at a time until it rests on its
// story's last step.
func playToLastStep(a *app.App) error {
	now := time.Duration(0)
	for {
		st := a.State().Scenario
		if st == nil {
			return fmt.Errorf("the app shows no scenario")
		}
		if a.Paused() && st.Step >= st.Steps-1 {
			return nil
		}
		if a.Paused() {
			if err := a.Do(command.PlayStep{}); err != nil {
				return err
			}
		}
		now += frameStep
		if now > playLimit {
			return fmt.Errorf("still short of step %d of %d after %v of play", st.Step+1, st.Steps, playLimit)
		}
		a.Update(now)
	}
}
