package app

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"raftlab/raftcore"
	"raftlab/scenarios"
	"raftlab/viz"
	"raftlab/viz/app/command"
)

// historyFigures are the figures whose paragraph is about the machines'
// histories, with every knob setting.
func historyFigures(t *testing.T) []*scenarios.Scenario {
	var out []*scenarios.Scenario
	for _, s := range everyFigure(t) {
		if s.UI.Focus == scenarios.PanelLogs {
			out = append(out, s)
		}
	}
	require.NotEmpty(t, out, "no figure is about the machines' histories")
	return out
}

// restAtEveryStep opens figure s at w×h with its settings and calls
// check at the start and at every step it rests on, to its end.
func restAtEveryStep(t *testing.T, s *scenarios.Scenario, w, h float64, check func(a *App, what string)) {
	t.Helper()
	a := figureApp(t, s.ID, w, h)
	for _, st := range s.Settings {
		require.NoError(t, a.Do(command.SetKnob{Knob: st.Knob, Value: st.Value}))
	}
	var c hostClock
	c.run(a, time.Second)
	check(a, "at the start")
	for k := 0; !a.scen().ShownDone() && k < 20; k++ {
		playToRest(t, a, &c, 60*time.Second)
		check(a, fmt.Sprintf("resting at step %d", a.scen().Tracker().Step()+1))
	}
	require.True(t, a.scen().ShownDone(), "the story did not end")
}

// TestAFigureAboutHistoriesDrawsThemLarge: where a figure's paragraph is
// about the histories, they take its panel's place, in a card of their
// own beside or under the figure's words, their rows tall enough to read
// (as tall as the stage's rows at most are, or taller), every word whole.
func TestAFigureAboutHistoriesDrawsThemLarge(t *testing.T) {
	for _, s := range historyFigures(t) {
		for _, size := range figureSizes {
			t.Run(fmt.Sprintf("%s/%.0fx%.0f", figureLabel(s), size[0], size[1]), func(t *testing.T) {
				restAtEveryStep(t, s, size[0], size[1], func(a *App, what string) {
					f := a.Frame()
					L := f.Logs
					canvas := viz.XYWH(0, 0, f.W, f.H)
					require.False(t, L.Card.Empty(), "%s: the histories have no card", what)
					assert.True(t, inside(canvas, L.Card), "%s: the card at %v leaves the canvas", what, L.Card)
					assert.NotEmpty(t, L.Title.Text, "%s: the card has no heading", what)
					for _, r := range []viz.Rect{f.Caption.Rect, a.Layout().Cluster} {
						assert.False(t, L.Card.Inset(0.5).Overlaps(r), "%s: the card at %v covers %v", what, L.Card, r)
					}
					for _, row := range L.Rows {
						assert.True(t, inside(L.Card, row.Strip) && inside(L.Card, row.Label), "%s: a row at %v leaves the card", what, row.Strip)
						assert.GreaterOrEqual(t, row.Strip.H, 22.0, "%s: rows %.0f px tall", what, row.Strip.H)
					}
				})
			})
		}
	}
}

// TestNotebookSquaresMeanTheSameInBothProtocols: in the three notebooks,
// under naive-copy and under raft, a square says which order it holds,
// by its number, and takes the colour of the notebook the order was given
// to; a square that holds no order says nothing.
func TestNotebookSquaresMeanTheSameInBothProtocols(t *testing.T) {
	for _, s := range historyFigures(t) {
		if s.ID != "notebooks" {
			continue
		}
		restAtEveryStep(t, s, 720, 450, func(a *App, what string) {
			w := a.World()
			for _, row := range a.Frame().Logs.Rows {
				nd := w.Node(raftcore.NodeID(row.Node + 1))
				for _, c := range row.Cells {
					e := nd.Entry(c.Index)
					op, ok := w.Op(e.Data.OpID)
					if !ok {
						assert.Empty(t, c.Text, "%s %s: a square with no order says %q", figureLabel(s), what, c.Text)
						continue
					}
					assert.Equal(t, strings.TrimPrefix(op.Key, "orders/"), c.Text, "%s %s: the square of %s", figureLabel(s), what, op.Key)
					assert.Equal(t, int(op.Node), c.Color, "%s %s: the colour of %s", figureLabel(s), what, op.Key)
				}
			}
		})
	}
}

// TestTwoWorldsShowsNothingBrokenBeforeTheSplit: the partition figure
// comes four sections before the book states the shared-history
// contract. It shows the histories, not the contract, and nothing on it
// says anything is broken while all three machines still share one
// history, before the network splits.
func TestTwoWorldsShowsNothingBrokenBeforeTheSplit(t *testing.T) {
	s, err := scenarios.Get("two-worlds")
	require.NoError(t, err)
	for _, size := range figureSizes {
		before := 0
		restAtEveryStep(t, s, size[0], size[1], func(a *App, what string) {
			for _, p := range a.Frame().Panels {
				assert.NotEqual(t, viz.PanelSafety, p.Kind, "%s: the figure shows the contract's panel", what)
			}
			if _, split := a.World().LastSplit(); split {
				return
			}
			before++
			for text, where := range frameTexts(a.Frame()) {
				assert.False(t, strings.Contains(text, "✗") || strings.Contains(strings.ToLower(text), "broken"),
					"%vx%v %s: before the split, the %s says %q", size[0], size[1], what, where, text)
			}
		})
		assert.Positive(t, before, "the figure never rests before the split")
	}
}
