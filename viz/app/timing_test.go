package app

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"raftlab/raftcore"
	"raftlab/viz/app/command"
	"raftlab/viz/app/scene"
	"raftlab/viz/app/session"
	"raftlab/viz/frame"
	"raftlab/viz/words"
)

// playFigureThrough plays a figure step by step to the end of its story.
func playFigureThrough(t *testing.T, a *App) {
	t.Helper()
	var c hostClock
	c.run(a, time.Second)
	for k := 0; !a.scen().Tracker().Done() && k < 20; k++ {
		playToRest(t, a, &c, 120*time.Second)
	}
	require.True(t, a.scen().Tracker().Done(), "the story did not end")
}

// panelText is the text of the panel titled title, one string.
func panelText(t *testing.T, a *App, title string) string {
	t.Helper()
	for _, p := range a.State().Screen.Panels {
		if p.Title == title {
			return strings.Join(p.Text, " ")
		}
	}
	t.Fatalf("no panel titled %q", title)
	return ""
}

// The Elections panel counts what a world that keeps its whole trace
// counts, although the app keeps only the newest events: the tracker
// reads each event as it comes.
func TestElectionsPanelCountsTheWholeRun(t *testing.T) {
	a := figureApp(t, "timeout-tuning", 720, 900)
	require.NoError(t, a.Do(command.SetKnob{Knob: "election", Value: "5000 ms"}))
	require.NoError(t, a.Do(command.SetKnob{Knob: "heartbeat", Value: "50 ms"}))
	playFigureThrough(t, a)
	w := a.World()
	require.Greater(t, w.TraceCount(), uint64(session.TraceLimit), "the run is too short to test a trimmed trace")

	cfg := w.Config()
	cfg.TraceLimit = 0
	full := raftcore.MustWorld(cfg)
	require.NoError(t, full.Play(w.Actions()))
	full.RunUntil(w.Now())
	require.Equal(t, w.TraceHash(), full.TraceHash())
	want := full.ElectionStats(0)
	require.Equal(t, want, a.scen().Tracker().Elections(0, w.Now()))
	require.NotEmpty(t, want.FailoversUs)

	text := panelText(t, a, "Elections")
	assert.Contains(t, text, words.Itoa(want.Elections)+", after "+words.Itoa(want.PreVotes)+" pre-votes")
	assert.Contains(t, text, words.Ms(want.FailoversUs[0]))
	assert.Contains(t, text, words.Ms(want.LeaderlessUs)+" of ")
}

// The Clocks panel and the stage show a drifting clock's offset as an
// operator meets it, with the alert past 100 ms, and the leader's lease.
func TestClocksPanelShowsOffsetAlertAndLease(t *testing.T) {
	a := figureApp(t, "clock-drift", 720, 900)
	var c hostClock
	c.run(a, time.Second)
	text := panelText(t, a, "Clocks")
	assert.NotContains(t, text, "alert,", "no clock drifts yet")
	assert.Contains(t, text, "etcd-1 exact; leads, lease to")

	playFigureThrough(t, a)
	w := a.World()
	off := w.ClockOffsetUs(1)
	require.Less(t, off, int64(-scene.AlertOffsetUs))
	text = panelText(t, a, "Clocks")
	assert.Contains(t, text, words.Ms(-off)+" behind, alert (runs at 0.25x)")

	var old, next *frame.NodeView
	for i := range a.Frame().Nodes {
		n := &a.Frame().Nodes[i]
		switch {
		case n.Index == 0:
			old = n
		case a.World().Node(nodeID(n.Index)).Role() == raftcore.RoleLeader:
			next = n
		}
	}
	require.NotNil(t, old)
	require.NotNil(t, next, "no new leader on the majority's side")
	badges := ""
	for _, b := range old.Badges {
		badges += b.Text + " "
	}
	assert.Contains(t, badges, "clock 0.25x "+words.Ms(off), "the offset over the drifting machine")
	end, ok := w.LeaderLeaseEnd(1)
	require.True(t, ok, "the cut-off leader still believes it leads at the end of the story")
	assert.Equal(t, "lease to "+words.Clock(end), old.Lines[1].Text)
	assert.True(t, strings.HasPrefix(next.Lines[1].Text, "lease to "), "under the new leader: %q", next.Lines[1].Text)
}
