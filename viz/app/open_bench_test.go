package app

import (
	"strings"
	"testing"

	"raftlab/viz"
	"raftlab/viz/app/session"
	"raftlab/viz/fonts"
)

// openPage does what the page (cmd/wasm) does up to its first frame: it
// reads the query, makes the app for a 1280x800 window, the figure's
// words measured with the font's widths (fonts.Measure, the widths
// draw.Measure gives), and, as the game's first tick (draw.Game), sizes
// it, updates it, takes its effects (the figure told in words) and builds
// the first frame.
func openPage(b *testing.B, query string, measure func(string, float64) float64) *App {
	cat := session.BuiltinScenarios()
	params, problems := viz.ParseQuery(query, cat.Check)
	msgs, missing := SortProblems(problems)
	if len(msgs) > 0 || missing != "" {
		b.Fatalf("%s: %v %q", query, msgs, missing)
	}
	a, err := New(Options{
		Params: params, SpeedGiven: SpeedChosen(strings.Split(strings.TrimPrefix(query, "?"), "&")), MissingFigure: missing,
		Width: 1280, Height: 800, Measure: measure, Scenarios: cat,
		BaseURL: "https://example.org/raftlab/index.html", Describe: true,
	})
	if err != nil {
		b.Fatal(err)
	}
	a.Resize(1280, 800)
	a.Update(0)
	a.TakeEffects()
	if f := a.Frame(); len(f.Nodes) == 0 {
		b.Fatalf("%s: the first frame shows no machine", query)
	}
	return a
}

// BenchmarkOpen is the app's start-up up to its first frame, as the page
// opens it: the full lab, and figures embedded as the book's pages embed
// them (?scenario=id&embed=1). Package fonts remembers the widths it has
// measured from one opening to the next, so this is the app's own work,
// not the font's shaping; the cold cases forget them first, as a page
// that has just opened has none, and shape every word again.
// measures/op counts the app's calls to Measure in one opening.
func BenchmarkOpen(b *testing.B) {
	for _, c := range []struct {
		name, query string
		cold        bool
	}{
		{"app", "", false},
		{"figure=majority", "?scenario=majority&embed=1", false},
		{"figure=reconcile", "?scenario=reconcile&embed=1", false},
		{"figure=node-lease", "?scenario=node-lease&embed=1", false},
		{"cold/app", "", true},
		{"cold/figure=majority", "?scenario=majority&embed=1", true},
	} {
		b.Run(c.name, func(b *testing.B) {
			calls := 0
			measure := func(s string, size float64) float64 {
				calls++
				return fonts.Measure(s, size)
			}
			b.ReportAllocs()
			for range b.N {
				if c.cold {
					fonts.ForgetWidths()
				}
				openPage(b, c.query, measure)
			}
			b.ReportMetric(float64(calls)/float64(b.N), "measures/op")
		})
	}
}
