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
	"encoding/json"
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

// Size is a size posters are laid out at, named in their files' names.
// The SVG scales to whatever box the page gives it; embed.js picks the
// size by the width of the figure's box.
type Size struct {
	Name string
	W, H float64
}

// The sizes: a figure in a column of a book page (16:10, embed.js's
// default), and on a phone, where a figure is narrow and tall and the
// app lays it out stacked (its words and panel under the machines).
var (
	Column = Size{Name: "", W: 720, H: 450}
	Phone  = Size{Name: "phone", W: 350, H: 560}
	Sizes  = []Size{Column, Phone}
)

// frameStep is the fake clock's step while a figure plays: a 60 Hz frame,
// as in the browser.
const frameStep = time.Second / 60

// playLimit is how much (fake) real time a figure may take to play to its
// key moment before it counts as stuck.
const playLimit = 10 * time.Minute

// IDs are the figures that have posters: every scenario in the registry.
func IDs() []string { return scenarios.IDs() }

// Poster is one still picture of a figure: at a moment of its story, in a
// theme, at a size.
type Poster struct {
	ID     string
	Moment Moment
	Theme  string
	Size   Size
}

// All is every poster of every figure.
func All() []Poster {
	var out []Poster
	for _, id := range IDs() {
		for _, m := range Moments {
			for _, theme := range Themes() {
				for _, size := range Sizes {
					out = append(out, Poster{ID: id, Moment: m, Theme: theme, Size: size})
				}
			}
		}
	}
	return out
}

// FileName is the poster's file in web/posters: ID-open.svg for the
// opening at a column's size in the default theme, then "-phone" for a
// phone's size and "-dark" for the dark theme, as in
// ID-key-phone-dark.svg (embed.js builds the same names).
func (p Poster) FileName() string {
	name := p.ID + "-" + string(p.Moment)
	if p.Size.Name != "" {
		name += "-" + p.Size.Name
	}
	if p.Theme != Themes()[0] {
		name += "-" + p.Theme
	}
	return name + ".svg"
}

// Frame is the frame the app builds for the poster's figure at its moment,
// size and theme (data-theme on its div).
func (p Poster) Frame() (*frame.Frame, error) {
	a, err := open(p.ID, p.Theme, p.Size)
	if err != nil {
		return nil, err
	}
	switch p.Moment {
	case Opening:
	case Key:
		if err := playToLastStep(a); err != nil {
			return nil, fmt.Errorf("poster %s: %w", p.ID, err)
		}
	default:
		return nil, fmt.Errorf("poster %s: no moment called %q (known: %s, %s)", p.ID, p.Moment, Opening, Key)
	}
	return a.Frame(), nil
}

// SVG is the poster: its frame painted with its theme's palette.
func (p Poster) SVG() ([]byte, error) {
	f, err := p.Frame()
	if err != nil {
		return nil, err
	}
	s, err := scenarios.Get(p.ID)
	if err != nil {
		return nil, err
	}
	return svg.Paint(f, svg.Options{Title: words.PosterTitle(s.Title, p.Moment == Key)}), nil
}

// open makes the app as embed.js opens figure id in theme, at a poster's
// size, measuring text as the browser app does.
func open(id, theme string, size Size) (*app.App, error) {
	if _, err := scenarios.Get(id); err != nil {
		return nil, err
	}
	if !slices.Contains(Themes(), theme) {
		return nil, fmt.Errorf("poster %s: no theme called %q (known: %s)", id, theme, strings.Join(Themes(), ", "))
	}
	p := viz.DefaultParams()
	p.Scenario, p.Embed, p.Theme = id, true, theme
	return app.New(app.Options{Params: p, Width: size.W, Height: size.H, Measure: fonts.Measure,
		Scenarios: session.BuiltinScenarios(), BaseURL: "index.html", Still: true})
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

// ManifestName is the file beside the posters that names each figure, for
// embed.js to title a figure's frame and its pictures before it is live.
const ManifestName = "figures.json"

// Manifest is the figures' names, by id, as JSON: {"majority": {"title":
// "..."}, ...}.
func Manifest() ([]byte, error) {
	type figure struct {
		Title string `json:"title"`
	}
	m := map[string]figure{}
	for _, id := range IDs() {
		s, err := scenarios.Get(id)
		if err != nil {
			return nil, err
		}
		m[id] = figure{Title: s.Title}
	}
	b, err := json.MarshalIndent(m, "", "  ")
	return append(b, '\n'), err
}
