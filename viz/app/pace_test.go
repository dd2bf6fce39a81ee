package app

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"raftlab/scenarios"
	"raftlab/viz"
	"raftlab/viz/app/command"
	"raftlab/viz/app/session"
)

// pacedCatalog is the book's figures with timeout-tuning told in seconds
// at pace: a figure of Raft's milliseconds made to play as a lease
// figure does, so that the pace is tested apart from any one figure.
func pacedCatalog(t testing.TB, pace float64) session.Catalog {
	t.Helper()
	list := scenarios.All()
	for _, s := range list {
		if s.ID == "timeout-tuning" {
			s.UI.Pace = pace
			return session.NewCatalog(list)
		}
	}
	t.Fatal("no timeout-tuning figure")
	return session.Catalog{}
}

func pacedApp(t testing.TB, p viz.Params, speedGiven bool) *App {
	t.Helper()
	a, err := New(Options{Params: p, Width: 720, Height: 450, SpeedGiven: speedGiven, Scenarios: pacedCatalog(t, 10)})
	require.NoError(t, err)
	return a
}

// TestAPacedFigurePlaysAtItsPaceAndReadsInSeconds: a figure that says its
// pace plays at it, embedded or in the lab, unless the reader chose a
// speed; its clock reads in seconds to a tenth; the others keep theirs.
func TestAPacedFigurePlaysAtItsPaceAndReadsInSeconds(t *testing.T) {
	p := viz.DefaultParams()
	p.Scenario, p.Embed = "timeout-tuning", true
	a := pacedApp(t, p, false)
	assert.Equal(t, 10.0, a.Speed(), "the embedded figure's pace")
	a.advance(73_412_000)
	a.afterWorldMoved()
	f := a.Frame()
	assert.True(t, strings.HasPrefix(f.Status.Text, "t = 73.4 s · Step "), "the clock of a figure told in seconds: %q", f.Status.Text)
	for _, c := range a.Controls() {
		if c.ID == "timeline" {
			assert.True(t, strings.HasPrefix(c.Label, "Time 73.4 s of"), "the timeline told to a screen reader: %q", c.Label)
		}
	}

	p.Speed = 0.5
	assert.Equal(t, 0.5, pacedApp(t, p, true).Speed(), "the reader's speed beats the figure's pace")

	lab := viz.DefaultParams()
	lab.Scenario = "timeout-tuning"
	b, err := New(Options{Params: lab, Width: 1280, Height: 800, Scenarios: pacedCatalog(t, 10)})
	require.NoError(t, err)
	assert.Equal(t, 10.0, b.Speed(), "the figure opened in the lab")
	b.advance(2_000_000)
	b.afterWorldMoved()
	assert.True(t, strings.HasPrefix(b.Frame().Status.Text, "t = 2.0 s ·"), "the lab's status line: %q", b.Frame().Status.Text)
	assert.Equal(t, "2.0 s", b.Frame().Timeline.Left.Text, "the lab's timeline")

	// Leaving it for a figure of milliseconds goes back to the lab's
	// speed and clock; opening it again, to its pace.
	require.NoError(t, b.startScenario("roles"))
	assert.Equal(t, DefaultSpeed, b.Speed())
	assert.True(t, strings.HasSuffix(b.Frame().Timeline.Left.Text, ".000 s"), "the lab's timeline: %q", b.Frame().Timeline.Left.Text)
	require.NoError(t, b.startScenario("timeout-tuning"))
	assert.Equal(t, 10.0, b.Speed())
	require.NoError(t, b.Do(command.SetSpeed{Speed: 2}))
	require.NoError(t, b.startScenario("roles"))
	assert.Equal(t, 2.0, b.Speed(), "a speed the reader chose stays")
}

// TestEveryPaceIsASpeedTheSliderOffers: a figure's pace lies in the
// slider's range, and a figure without one plays as before.
func TestEveryPaceIsASpeedTheSliderOffers(t *testing.T) {
	for _, s := range scenarios.All() {
		if p := s.UI.Pace; p != 0 {
			assert.True(t, p >= viz.MinSpeed && p <= viz.MaxSpeed, "%s: pace %g is outside %g..%g", s.ID, p, viz.MinSpeed, viz.MaxSpeed)
			assert.Equal(t, p, viz.SnapSpeed(p), "%s: pace %g is not one of the slider's speeds", s.ID, p)
		}
	}
	a := figureApp(t, "timeout-tuning", 720, 450)
	assert.Equal(t, FigureSpeed, a.Speed())
	assert.True(t, strings.HasPrefix(a.Frame().Status.Text, "Step 1 of"), "a figure of milliseconds shows no clock: %q", a.Frame().Status.Text)
}
