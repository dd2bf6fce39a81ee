package app

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"raftlab/scenarios"
	"raftlab/viz"
	"raftlab/viz/app/session"
	"raftlab/viz/fonts"
)

// TestOpenedAtItsSizeAsOpenedThenResized: an app opened on a canvas shows
// the same first frame and layout as one opened on an empty canvas and
// then given that size, as a host that learns its size late does: the
// full lab, in presenter mode, and every figure, embedded or in the lab,
// on a laptop, a book's column and a phone.
func TestOpenedAtItsSizeAsOpenedThenResized(t *testing.T) {
	var all []viz.Params
	for _, p := range []viz.Params{{}, {Nodes: 7}, {Nodes: 3, Present: true}, {Nodes: 5, Members: 3}} {
		q := viz.DefaultParams()
		q.Present, q.Members = p.Present, p.Members
		if p.Nodes > 0 {
			q.Nodes = p.Nodes
		}
		all = append(all, q)
	}
	for _, id := range scenarios.IDs() {
		for _, embed := range []bool{true, false} {
			q := viz.DefaultParams()
			q.Scenario, q.Embed = id, embed
			all = append(all, q)
		}
	}
	frameOf := func(a *App) string {
		f := *a.Frame()
		f.Version = 0 // how many changes it took to get there
		data, err := json.Marshal(struct {
			F any
			L *viz.Layout
		}{f, a.Layout()})
		require.NoError(t, err)
		return string(data)
	}
	for _, p := range all {
		for _, size := range [][2]float64{{1280, 800}, {720, 450}, {390, 844}} {
			open := func(w, h float64) *App {
				a, err := New(Options{Params: p, Width: w, Height: h, Measure: fonts.Measure,
					Scenarios: session.BuiltinScenarios(), BaseURL: "https://example.org/raftlab/index.html", Describe: true})
				require.NoError(t, err)
				return a
			}
			direct, late := open(size[0], size[1]), open(0, 0)
			late.Resize(size[0], size[1])
			require.Equal(t, frameOf(late), frameOf(direct), "%s (embed %v, present %v) at %v", p.Scenario, p.Embed, p.Present, size)
		}
	}
}
