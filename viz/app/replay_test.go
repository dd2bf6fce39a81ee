package app

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"raftlab/raftcore"
	"raftlab/viz"
	"raftlab/viz/app/command"
	"raftlab/viz/app/scene"
	"raftlab/viz/app/session"
	"raftlab/viz/frame"
	"raftlab/viz/words"
)

// TestTheStageSaysItReplaysThePast: stepped back, the stage says it shows
// the recorded past, in a corner that hides no machine at column width, until
// the reader goes back to the live run.
func TestTheStageSaysItReplaysThePast(t *testing.T) {
	for _, size := range [][2]float64{{1280, 800}, {720, 450}, {350, 560}} {
		a := newApp(t, 5, size[0], size[1])
		var c hostClock
		untilLeader(t, a, &c)
		c.run(a, 2*time.Second)
		require.Nil(t, a.Frame().Replay, "%v: live, yet the stage says it replays", size)

		require.NoError(t, a.Do(command.Seek{AtUs: 500_000}))
		f := a.Frame()
		require.NotNil(t, f.Replay, "%v: stepped back, and the stage does not say so", size)
		r := f.Replay
		if size[0] == 1280 {
			assert.Equal(t, words.Replaying, r.Text.Text)
		} else {
			assert.Contains(t, []string{words.Replaying, words.ReplayingShort}, r.Text.Text, "%v", size)
		}
		assert.True(t, r.Stage.ContainsRect(r.Rect), "%v: the tag %v leaves the stage", size, r.Rect)
		var live *frame.Widget
		for i, b := range f.Timeline.Buttons {
			if b.ID == scene.IDLive {
				live = &f.Timeline.Buttons[i]
			}
		}
		require.NotNil(t, live, "%v: no way back to live on the timeline", size)
		assert.True(t, f.Timeline.Rect.ContainsRect(live.Rect), "%v: the button %v is off the timeline %v", size, live.Rect, f.Timeline.Rect)
		assert.Less(t, live.Rect.X, f.Timeline.Rect.Right())
		assert.Greater(t, f.Timeline.Track.W, 60.0, "%v: the buttons leave the track no room", size)
		{
			for _, n := range a.lay().Nodes {
				disc := viz.XYWH(n.Center.X-a.lay().NodeRadius, n.Center.Y-a.lay().NodeRadius, 2*a.lay().NodeRadius, 2*a.lay().NodeRadius)
				assert.False(t, r.Rect.Overlaps(disc), "%v: the tag %v hides machine %d", size, r.Rect, n.Index+1)
			}
		}
		// Still replaying while it plays the recorded run.
		c.run(a, 100*time.Millisecond)
		assert.NotNil(t, a.Frame().Replay, "%v", size)

		require.NoError(t, a.Click(scene.IDLive))
		assert.True(t, a.session.AtHead(), "%v: Back to live left the run in the past", size)
		assert.False(t, a.Paused(), "%v: back at the live end the run should go on", size)
		assert.Nil(t, a.Frame().Replay, "%v", size)
	}
}

// TestActingInThePastSaysItForked: an action taken while replaying says,
// after its own note, that it started a new run and kept the old one.
func TestActingInThePastSaysItForked(t *testing.T) {
	a := newApp(t, 3, 1280, 800)
	var c hostClock
	untilLeader(t, a, &c)
	c.run(a, 2*time.Second)
	require.NoError(t, a.Do(command.SetPaused{Paused: true}))
	require.NoError(t, a.Do(command.Seek{AtUs: 1_000_000}))
	require.NoError(t, a.Click("cmd:client-write"))
	banner := a.State().Banner
	assert.Contains(t, banner, "started a new run from there", "the banner says %q", banner)
	assert.Contains(t, banner, "1.000 s")
	hasGhost := false
	for _, b := range a.Frame().Timeline.Buttons {
		hasGhost = hasGhost || b.ID == "timeline.ghost"
	}
	assert.True(t, hasGhost, "no way back to the run left behind")

	// At the live end an action says nothing of forking.
	require.NoError(t, a.Do(command.GoLive{}))
	require.NoError(t, a.Do(command.CloseBanner{}))
	require.NoError(t, a.Click("cmd:client-write"))
	assert.NotContains(t, a.State().Banner, "new run")
}

// TestAWaitingWriteSaysHowManyHoldIt: a write waiting for a majority says
// how many machines hold it so far.
func TestAWaitingWriteSaysHowManyHoldIt(t *testing.T) {
	a := newApp(t, 3, 1280, 800)
	var c hostClock
	l := untilLeader(t, a, &c)
	var others [][]int
	for i := 0; i < 3; i++ {
		if i != l {
			others = append(others, []int{i + 1})
		}
	}
	require.NoError(t, a.Do(command.Act{Action: raftcore.Action{Do: raftcore.DoPartition, Groups: append([][]int{{l + 1}}, others...)}}))
	require.NoError(t, a.Do(command.Act{Action: raftcore.Action{Do: raftcore.DoWrite, Node: l + 1, Key: "k", Value: "v"}}))
	c.run(a, 300*time.Millisecond)
	require.NoError(t, a.Do(command.ShowPanel{Panel: viz.PanelClient}))
	found := false
	for _, p := range a.State().Screen.Panels {
		for _, line := range p.Text {
			found = found || strings.Contains(line, "held by 1 of 3")
		}
	}
	assert.True(t, found, "no line says the write is held by 1 of 3: %+v", a.State().Screen.Panels)
}

// TestTheReplayTagHidesNoMachine: stepped back in every figure at 720x450
// and 350x560, and in a lab of five members and ten workers on a phone,
// the "Replaying the past" tag (or its shorter form, where the long one
// would) covers no member's disc, name or lines and no worker's box.
func TestTheReplayTagHidesNoMachine(t *testing.T) {
	check := func(where string, a *App) {
		t.Helper()
		a.clock.SetPaused(true)
		require.NoError(t, a.Do(command.Seek{AtUs: 3_000_000}))
		require.NoError(t, a.Do(command.Seek{AtUs: 1_000_000}))
		f := a.Frame()
		require.NotNil(t, f.Replay, where)
		r := f.Replay.Rect
		assert.True(t, r.ContainsRect(textBox(a, f.Replay.Text)), "%s: the words leave the tag", where)
		R := a.lay().NodeRadius
		for i, n := range a.lay().Nodes {
			hid := r.Overlaps(viz.XYWH(n.Center.X-R, n.Center.Y-R, 2*R, 2*R))
			for _, tx := range []frame.TextItem{f.Nodes[i].Name, f.Nodes[i].Lines[0], f.Nodes[i].Lines[1]} {
				hid = hid || tx.Text != "" && r.Overlaps(textBox(a, tx))
			}
			assert.False(t, hid, "%s: the tag %v hides machine %d", where, r, i+1)
		}
		for _, wk := range a.lay().Workers {
			assert.False(t, r.Overlaps(wk.Rect), "%s: the tag %v hides worker %d", where, r, wk.Index+1)
		}
	}
	for _, sc := range session.BuiltinScenarios().List() {
		for _, sz := range [][2]float64{{720, 450}, {350, 560}} {
			check(fmt.Sprintf("%s %vx%v", sc.ID, sz[0], sz[1]), figureApp(t, sc.ID, sz[0], sz[1]))
		}
	}
	js := []byte(`{"nodes":5,"workers":10,"seed":2,"kube":{"pods":6},"until_ms":40000,"actions":[]}`)
	check("5+10 at 350x560", workersApp(t, js, 350, 560, false))
}
