package scene

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"raftlab/raftcore"
	"raftlab/scenarios"
	"raftlab/viz"
)

// The stage of a full app is the whole canvas, with the toolbar's buttons,
// the side panels and the panel in front.
func TestTheStageInputOfTheFullApp(t *testing.T) {
	l := freeLab(t, 5, 1280, 800)
	l.View.SetTab(viz.PanelSafety)
	in := l.b.StageInput(l.Parts)
	assert.Equal(t, []string{"A", "B", "C", "D", "E"}, in.Names)
	assert.Equal(t, viz.DefaultToolbar(), in.Buttons)
	assert.True(t, in.Panels)
	assert.False(t, in.Figure)
	assert.Equal(t, viz.PanelSafety, in.Tab)
	assert.Equal(t, [2]float64{1280, 800}, [2]float64{in.W, in.H})
	assert.NotEmpty(t, in.Caption)
	assert.Nil(t, in.Sides)
	assert.Nil(t, in.WorldZones)

	l.act(t, raftcore.Action{Do: raftcore.DoPartition, Groups: [][]int{{1, 2}, {3, 4, 5}}})
	in = l.b.StageInput(l.Parts)
	assert.Equal(t, [][]int{{0, 1}, {2, 3, 4}}, in.Sides)
	assert.Equal(t, in.Sides, l.Stage.Sides(), "the stage draws the partition's sides")
}

// A narrow canvas keeps the buttons a finger needs.
func TestANarrowToolbarKeepsTheEssentials(t *testing.T) {
	l := freeLab(t, 3, 390, 800)
	in := l.b.StageInput(l.Parts)
	assert.Less(t, len(in.Buttons), len(viz.DefaultToolbar()))
	for _, c := range []viz.Command{viz.CmdPlayPause, viz.CmdStep, viz.CmdStepBack, viz.CmdHelp} {
		assert.True(t, slices.Contains(in.Buttons, c), "command %d", c)
	}
}

// An embedded figure has its own controls, no side panels, and a stage
// that leaves room for its words.
func TestTheStageInputOfAFigure(t *testing.T) {
	for _, size := range [][2]float64{{720, 450}, {350, 560}} {
		l := figureLab(t, "majority", size[0], size[1])
		in := l.b.StageInput(l.Parts)
		assert.True(t, in.Figure)
		assert.Empty(t, in.Buttons)
		assert.False(t, in.Panels)
		assert.True(t, in.W < size[0] || in.H < size[1], "%v: the words take no room", size)
		assert.Positive(t, in.W*in.H)
	}
}

// In a world with failure domains the stage draws the world's zones, not
// the network's sides.
func TestTheStageInputOfAWorldWithZones(t *testing.T) {
	l := figureLab(t, "failure-domains", 1280, 800)
	l.Params.Embed = false
	w := l.World()
	require.True(t, w.HasZones())
	l.act(t, raftcore.Action{Do: raftcore.DoPartition, Groups: [][]int{{1}, {2, 3}}})
	in := l.b.StageInput(l.Parts)
	require.Len(t, in.WorldZones, w.Size())
	for i, z := range in.WorldZones {
		assert.Equal(t, w.ZoneOf(raftcore.NodeID(i+1)), z)
	}
	assert.Equal(t, len(w.Config().Zones), in.ZoneCount)
	assert.Nil(t, in.Sides)
}

func TestPanelForMapsTheFiguresPanels(t *testing.T) {
	_, ok := PanelFor(scenarios.PanelLogs)
	assert.False(t, ok, "the logs are on the stage")
	for p, want := range map[scenarios.Panel]viz.PanelKind{"question": viz.PanelQuestion, "contract": viz.PanelSafety, "checker": viz.PanelSafety,
		"client": viz.PanelClient, "roles": viz.PanelNode, "elections": viz.PanelNode, "clocks": viz.PanelNode} {
		k, ok := PanelFor(p)
		assert.True(t, ok, p)
		assert.Equal(t, want, k, p)
	}
}
