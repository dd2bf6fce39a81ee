package stage

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"raftlab/viz"
	"raftlab/viz/words"
)

// cluster is the input of a full app's stage of n machines on a w×h
// canvas.
func cluster(n int, w, h float64) Input {
	names := make([]string, n)
	for i := range names {
		names[i] = string(rune('A' + i))
	}
	return Input{W: w, H: h, Names: names, Caption: "Candidate", Short: "Candidat.", Buttons: viz.DefaultToolbar(), Panels: true}
}

// options are the layout options the stage gives viz.ComputeLayout for
// in, before any zones.
func options(in Input) viz.LayoutOptions {
	return viz.LayoutOptions{Width: in.W, Height: in.H, Nodes: len(in.Names), Panels: in.Panels, Active: in.Tab, Buttons: in.Buttons,
		Names: in.Names, Caption: in.Caption, Short: in.Short, Drop: words.DropHere, Count: "9 of 9"}
}

func TestResizeAndTouchReportAChange(t *testing.T) {
	s := New(800, 600)
	assert.Equal(t, 800.0, s.W())
	assert.Equal(t, 600.0, s.H())
	assert.False(t, s.Resize(800, 600))
	assert.True(t, s.Resize(390, 600))
	assert.Equal(t, 390.0, s.W())

	assert.False(t, s.Touch(), "a fresh stage is pointed at with a mouse")
	assert.False(t, s.SetTouch(false))
	assert.True(t, s.SetTouch(true))
	assert.True(t, s.Touch())
	assert.False(t, s.SetTouch(true))
	assert.True(t, s.SetTouch(false))
}

func TestANarrowCanvasIsAPhones(t *testing.T) {
	assert.True(t, New(599, 900).Phone())
	assert.False(t, New(600, 300).Phone())
}

// The layout is the one viz.ComputeLayout makes for the input.
func TestFitLaysTheStageOutForItsInput(t *testing.T) {
	s := New(1280, 800)
	require.True(t, s.Fit(cluster(5, 1280, 800)))
	lay := s.Layout()
	require.Equal(t, viz.ComputeLayout(options(cluster(5, 1280, 800))), *lay)
	assert.Nil(t, s.Zones(), "a cluster not split is a ring")
	assert.Equal(t, ZonesNone, s.Mode())
	assert.False(t, s.Sheet(), "a wide canvas opens menus beside what they are about")
}

// The layout is worked out again only when what it depends on changes.
func TestFitRelaysOnlyWhenItsInputChanges(t *testing.T) {
	s := New(1280, 800)
	base := cluster(5, 1280, 800)
	require.True(t, s.Fit(base))
	require.False(t, s.Fit(base), "the same input again")
	require.False(t, s.Fit(cluster(5, 1280, 800)), "an equal input in other slices")

	changes := map[string]func(in *Input){
		"width":    func(in *Input) { in.W = 1000 },
		"height":   func(in *Input) { in.H = 700 },
		"machines": func(in *Input) { *in = cluster(7, 1280, 800) },
		"a name":   func(in *Input) { in.Names = []string{"A", "B", "C", "D", "etcd-5"} },
		"caption":  func(in *Input) { in.Caption = "Pre-candidate" },
		"panels":   func(in *Input) { in.Panels = false },
		"tab":      func(in *Input) { in.Tab = viz.PanelClient },
		"buttons":  func(in *Input) { in.Buttons = in.Buttons[:3] },
		"sides":    func(in *Input) { in.Sides = [][]int{{0, 1, 2}, {3, 4}} },
		"zones":    func(in *Input) { in.WorldZones, in.ZoneCount = []int{0, 0, 1, 1, 2}, 3 },
	}
	for what, change := range changes {
		in := cluster(5, 1280, 800)
		change(&in)
		assert.True(t, s.Fit(in), "%s changed", what)
		assert.False(t, s.Fit(in), "%s again", what)
		assert.True(t, s.Fit(base), "back from %s", what)
	}
}

// A new world is laid out afresh, even when it looks the same.
func TestForgetWorldLaysOutAfresh(t *testing.T) {
	s := New(1280, 800)
	in := cluster(3, 1280, 800)
	require.True(t, s.Fit(in))
	s.ForgetWorld()
	require.True(t, s.Fit(in))
}

// On a narrow canvas panels sit behind tabs below the cluster, and menus
// open as a sheet over them rather than over the cluster.
func TestAPhoneOpensMenusAsASheet(t *testing.T) {
	s := New(390, 800)
	s.Fit(cluster(5, 390, 800))
	require.True(t, s.Layout().Tabbed)
	require.True(t, s.Sheet())

	// A wide but short canvas has its panels behind tabs too, in a column
	// beside the cluster: menus there open beside what they are about.
	s = New(1000, 500)
	s.Fit(cluster(5, 1000, 500))
	require.True(t, s.Layout().Tabbed)
	require.False(t, s.Sheet())
}

// An embedded figure's controls take the toolbar's and the timeline's
// strips; it has no speed slider and no timeline of its own.
func TestAFigureHasBarsAndNoTimeline(t *testing.T) {
	s := New(720, 450)
	in := cluster(3, 720, 450)
	in.Panels, in.Buttons, in.Figure = false, []viz.Command{}, true
	require.True(t, s.Fit(in))
	full := viz.ComputeLayout(options(in))
	require.Equal(t, [2]viz.Rect{full.Toolbar, full.Timeline}, s.Bars())
	require.False(t, s.Bars()[0].Empty())
	require.True(t, s.Layout().Speed.Empty())
	require.True(t, s.Layout().Timeline.Empty())
}

// A figure's geometry is kept for its key and worked out again only for
// another key, or a new world.
func TestFigureGeometryIsKeptForItsKey(t *testing.T) {
	s := New(720, 450)
	calls := 0
	lay := func(w float64) func() FigureGeom {
		return func() FigureGeom {
			calls++
			return FigureGeom{Stage: viz.XYWH(0, 0, w, 300)}
		}
	}
	type key struct{ w float64 }
	g := s.Figure(key{720}, lay(720))
	require.Equal(t, 720.0, g.Stage.W)
	require.Equal(t, g, s.Figure(key{720}, lay(999)))
	require.Equal(t, 1, calls)
	require.Equal(t, 500.0, s.Figure(key{500}, lay(500)).Stage.W)
	require.Equal(t, 2, calls)
	s.ForgetWorld()
	s.Figure(key{500}, lay(500))
	require.Equal(t, 3, calls, "a new world lays its figure out afresh")
}
