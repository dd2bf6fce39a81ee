package app

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"raftlab/viz"
	"raftlab/viz/app/session"
)

// Presenter mode lays the frame out 560 logical pixels tall, has the host
// paint it larger, shows one panel, and reads the host's pointer in the
// host's pixels; off again, the frame is the host's size.
func TestPresenterModeZoomsAndReadsThePointer(t *testing.T) {
	a := newApp(t, 5, 1920, 1080)
	require.NoError(t, a.tryLine("present on"))
	f := a.Frame()
	z := 1080 / 560.0
	assert.InDelta(t, z, f.Zoom, 1e-9)
	assert.InDelta(t, 1920/z, f.W, 1e-9)
	assert.InDelta(t, 560, f.H, 1e-9)
	assert.Len(t, f.Panels, 1, "one panel at a time")
	assert.NotEmpty(t, f.Tabs, "the others behind tabs")
	assert.False(t, a.stage.Layout().Timeline.Empty(), "the timeline stays")

	// A click where the host shows machine C selects it.
	c := a.stage.Layout().Nodes[2].Center
	var clock hostClock
	press(a, &clock, c.Mul(z), c.Mul(z), 0)
	assert.Equal(t, 2, a.view.Selected(), "the click at %v (logical %v) selected %d", c.Mul(z), c, a.view.Selected())

	require.NoError(t, a.tryLine("present off"))
	f = a.Frame()
	assert.Equal(t, 1.0, f.Zoom)
	assert.Equal(t, viz.Pt(1920, 1080), viz.Pt(f.W, f.H))
}

// The first panel in presenter mode is the one the figure is about.
func TestPresenterModeShowsTheFiguresPanel(t *testing.T) {
	p := viz.DefaultParams()
	p.Scenario, p.Present = "commit-latency", true
	a, err := New(Options{Params: p, Width: 1280, Height: 720, SpeedGiven: true, Scenarios: session.BuiltinScenarios()})
	require.NoError(t, err)
	require.Len(t, a.Frame().Panels, 1)
	assert.Equal(t, viz.PanelClient, a.Frame().Panels[0].Kind)
}
