package view

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"raftlab/raftcore"
	"raftlab/viz"
	"raftlab/viz/frame"
)

func TestAFreshViewHasChosenNothing(t *testing.T) {
	v := New(frame.ThemeDark)
	assert.Equal(t, frame.ThemeDark, v.Theme())
	assert.Equal(t, -1, v.Selected())
	assert.False(t, v.Menu().Open())
	assert.Equal(t, viz.PanelKind(-1), v.Opened())
	assert.Equal(t, raftcore.ReadLinearizable, v.ReadMode())
	assert.False(t, v.Help())
	assert.False(t, v.Legend())
	for k := viz.PanelKind(0); k < viz.NumPanels; k++ {
		assert.Zero(t, v.Scroll(k))
	}
}

// chooseEverything makes every choice a reader can make in a view.
func chooseEverything(v *View) {
	v.SetTheme(frame.ThemeLight)
	v.SetTab(viz.PanelSafety)
	v.Select(2, false)
	v.OpenMenu(Menu{Kind: MenuNode, Node: 2})
	for k := viz.PanelKind(0); k < viz.NumPanels; k++ {
		v.ScrollTo(k, 40, 100)
	}
	v.ScrollLogs(7, 10)
	v.Unfold(viz.PanelClient)
	v.SetShowRules(true)
	v.SetLegend(true)
}

// A new world has other machines, messages and logs: the view forgets
// every choice about the old one, and keeps the theme, the tab and the
// reader's other settings.
func TestForgetWorldKeepsOnlyWhatOutlivesTheWorld(t *testing.T) {
	v := New(frame.ThemeDark)
	chooseEverything(v)
	v.ForgetWorld()

	assert.Equal(t, -1, v.Selected(), "a machine of the old world stays selected")
	assert.False(t, v.Menu().Open(), "a menu about the old world stays open")
	assert.Zero(t, v.LogBack())
	assert.Equal(t, viz.PanelKind(-1), v.Opened())
	for k := viz.PanelKind(0); k < viz.NumPanels; k++ {
		assert.Zero(t, v.Scroll(k), "panel %d keeps the old world's scroll", k)
	}

	assert.Equal(t, frame.ThemeLight, v.Theme())
	assert.Equal(t, viz.PanelSafety, v.Tab())
	assert.True(t, v.ShowRules())
	assert.True(t, v.Legend())
}

// Selecting a machine starts its panel at the top when asked (the panel
// is always in view, not behind a tab); the other panels keep their place.
func TestSelectStartsTheMachinePanelAtItsTop(t *testing.T) {
	v := New(frame.ThemeLight)
	v.ScrollTo(viz.PanelNode, 50, 100)
	v.ScrollTo(viz.PanelClient, 30, 100)

	v.Select(1, false)
	require.Equal(t, 1, v.Selected())
	require.Equal(t, 50.0, v.Scroll(viz.PanelNode), "asked to keep the scroll")

	v.Select(-1, true)
	require.Equal(t, -1, v.Selected())
	require.Equal(t, 50.0, v.Scroll(viz.PanelNode), "selecting nothing moves no panel")

	v.Select(3, true)
	require.Equal(t, 3, v.Selected())
	require.Zero(t, v.Scroll(viz.PanelNode))
	require.Equal(t, 30.0, v.Scroll(viz.PanelClient))
}

func TestScrollIsKeptWithinItsPanel(t *testing.T) {
	v := New(frame.ThemeLight)
	v.ScrollTo(viz.PanelSafety, 250, 120)
	assert.Equal(t, 120.0, v.Scroll(viz.PanelSafety), "past the end")
	v.ScrollTo(viz.PanelSafety, -20, 120)
	assert.Zero(t, v.Scroll(viz.PanelSafety), "before the top")
	v.ScrollTo(viz.PanelSafety, 50, -5)
	assert.Zero(t, v.Scroll(viz.PanelSafety), "a panel with nothing to scroll")
	v.ScrollTo(viz.PanelSafety, 64, 120)
	assert.Equal(t, 64.0, v.Scroll(viz.PanelSafety))
	assert.Zero(t, v.Scroll(viz.PanelClient), "one panel's scroll moves no other")

	v.ScrollLogs(30, 12)
	assert.Equal(t, uint64(12), v.LogBack(), "logs scroll back no further than their first entry")
	v.ScrollLogs(5, 12)
	assert.Equal(t, uint64(5), v.LogBack())
}

func TestSetTabReportsAChange(t *testing.T) {
	v := New(frame.ThemeLight)
	require.True(t, v.SetTab(viz.PanelClient))
	require.False(t, v.SetTab(viz.PanelClient))
	require.Equal(t, viz.PanelClient, v.Tab())
}
