//go:build desktop

package e2e

import (
	"fmt"
	"testing"
	"time"

	"raftlab/scenarios"
	"raftlab/viz"
	"raftlab/viz/app"
	"raftlab/viz/app/session"
	"raftlab/viz/fonts"
)

// TestFiguresShowEveryWordInTheRealFont plays every figure step by step at a
// book column's size and a phone's, and checks every frame it rests on with the
// font the app draws with: no word is cut (frame.Frame.Overflows). The widths
// are the font's own numbers (fonts.Measure), which viz/draw's
// TestMeasureWithoutEbitenMatches holds to Ebiten's shaper, so no display is
// needed.
func TestFiguresShowEveryWordInTheRealFont(t *testing.T) {
	for _, id := range scenarios.IDs() {
		for _, size := range [][2]float64{{720, 450}, {350, 560}} {
			t.Run(fmt.Sprintf("%s/%.0fx%.0f", id, size[0], size[1]), func(t *testing.T) {
				p := viz.DefaultParams()
				p.Scenario, p.Embed = id, true
				a, err := app.New(app.Options{Params: p, Width: size[0], Height: size[1], Measure: fonts.Measure, Scenarios: session.BuiltinScenarios()})
				if err != nil {
					t.Fatal(err)
				}
				var now time.Duration
				for k := 0; k < 12; k++ {
					if cut := a.Frame().Overflows(fonts.Measure); len(cut) > 0 {
						t.Errorf("at step %d: words cut: %v", a.State().Scenario.Step+1, cut)
					}
					if a.State().Scenario.Done {
						return
					}
					if err := a.Click("figure.play"); err != nil {
						t.Fatal(err)
					}
					for i := 0; i < 600 && !a.Paused(); i++ {
						advance(a, &now, 100*time.Millisecond)
					}
				}
				t.Error("the story did not end")
			})
		}
	}
}
