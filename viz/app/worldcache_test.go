package app

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"raftlab/raftcore"
	"raftlab/viz/words"
)

// lossy sets every link of a's world to lose a share of its messages, so
// that messages fall away all the time.
func lossy(t *testing.T, a *App, share string) {
	t.Helper()
	require.NoError(t, a.Act([]byte(`{"do":"loss","loss":`+share+`}`)))
}

// checkPaths builds a frame and checks that every message drawn travels
// between the machines the world says: one on the wire between its sender
// and receiver, one falling away on the link its drop event names. It
// returns how many falling messages it checked.
func checkPaths(t *testing.T, a *App) int {
	t.Helper()
	w := a.World()
	f := a.Frame()
	wire := map[uint64]raftcore.Message{}
	for _, m := range w.InFlight() {
		wire[m.ID] = m
	}
	drops := map[uint64]raftcore.TraceEvent{}
	for _, e := range w.Trace() {
		if e.Kind == raftcore.TraceDrop {
			drops[e.Msg] = e
		}
	}
	fell := 0
	for _, v := range f.Messages {
		var from, to raftcore.NodeID
		if v.Fall == 0 {
			m, ok := wire[v.ID]
			require.Truef(t, ok, "message %d is drawn on the wire at %s but is not on it", v.ID, words.Clock(w.Now()))
			from, to = m.From, m.To
		} else {
			e, ok := drops[v.ID]
			require.Truef(t, ok, "message %d is drawn falling at %s but the trace has no drop of it", v.ID, words.Clock(w.Now()))
			if e.Node == raftcore.None {
				continue // dropped by hand: the event names no link
			}
			from, to = e.Node, e.Peer
			fell++
		}
		require.Equalf(t, [2]int{int(from) - 1, int(to) - 1}, [2]int{v.From, v.To},
			"message %d (fall %.2f) is drawn on the wrong link at %s", v.ID, v.Fall, words.Clock(w.Now()))
		lk, ok := a.Layout().Link(v.From, v.To)
		require.True(t, ok)
		lane := lk.Lane(v.From, v.To)
		require.InDeltaf(t, lane.A.Dist(lane.B), lane.A.Dist(v.Pos)+v.Pos.Dist(lane.B), 1e-6,
			"message %d is drawn at %v, off its lane %v", v.ID, v.Pos, lane)
	}
	return fell
}

// runChecked runs a for d of real time, checking every frame's messages.
func runChecked(t *testing.T, a *App, c *hostClock, d time.Duration) (fell int) {
	t.Helper()
	for end := c.now + d; c.now < end; c.now += time.Second / 60 {
		a.Update(c.now)
		fell += checkPaths(t, a)
	}
	return fell
}

func TestMessagesFallOnTheirOwnLinkAfterAReset(t *testing.T) {
	a := newApp(t, 3, 1280, 800)
	c := &hostClock{}
	lossy(t, a, "0.3")
	// The old world's messages, lost ones among them, have been drawn.
	require.Positive(t, runChecked(t, a, c, 8*time.Second))
	_, err := a.Cmd("nodes", "9")
	require.NoError(t, err)
	require.Equal(t, 9, a.World().Size())
	lossy(t, a, "0.3")
	require.Positive(t, runChecked(t, a, c, 8*time.Second), "no message of the new world fell")
}

func TestMessagesFallOnTheirOwnLinkAfterAFork(t *testing.T) {
	a := newApp(t, 3, 1280, 800)
	c := &hostClock{}
	lossy(t, a, "0.3")
	require.Positive(t, runChecked(t, a, c, 10*time.Second))
	// Back to 3 s and on again: the same branch, the same messages.
	seek := func(ms string) {
		_, err := a.Cmd("seek", ms)
		require.NoError(t, err)
		require.False(t, a.session.AtHead())
	}
	seek("3000")
	require.Positive(t, runChecked(t, a, c, 3*time.Second))
	// Back to 3 s, and a change there: the run forks, and the messages
	// sent from then on are others under the same ids.
	seek("3000")
	require.NoError(t, a.Act([]byte(`{"do":"latency","latency_ms":[60,140]}`)))
	require.Positive(t, runChecked(t, a, c, 8*time.Second), "no message of the new branch fell")
	// And back on the branch left, where the ids name its own messages.
	require.NoError(t, a.Click("timeline.ghost"))
	_, err := a.Cmd("play")
	require.NoError(t, err)
	require.Positive(t, runChecked(t, a, c, 5*time.Second), "no message of the old branch fell")
}
