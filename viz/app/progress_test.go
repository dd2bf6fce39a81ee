package app

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"raftlab/raftcore"
	"raftlab/viz/app/command"
)

// In the lab each follower's row marks the leader's match and next index
// for it, at the cells they name: a follower cut off from the leader shows
// a shorter bar than the others, its arrowhead where the leader sends next.
func TestLogRowsMarkEachFollowersMatchAndNext(t *testing.T) {
	a := newApp(t, 3, 1280, 800)
	c := &hostClock{}
	l := untilLeader(t, a, c)
	cut := (l+1)%3 + 1 // a follower's id
	require.NoError(t, a.Do(command.Act{Action: raftcore.Action{Do: raftcore.DoCut, From: l + 1, To: cut}}))
	for i := 0; i < 3; i++ {
		require.NoError(t, a.Do(command.Act{Action: raftcore.Action{Do: raftcore.DoWrite, Node: l + 1, Key: "k", Value: "v"}}))
		c.run(a, 300*time.Millisecond)
	}
	require.Equal(t, l, a.leader())
	rows := a.Frame().Logs.Rows
	ld := a.World().Node(raftcore.NodeID(l + 1))
	for i, r := range rows {
		if i == l {
			assert.Negative(t, r.MatchX, "the leader's own row has no match mark")
			assert.Negative(t, r.NextX, "the leader's own row has no next mark")
			continue
		}
		pr, ok := ld.Progress(raftcore.NodeID(i + 1))
		require.True(t, ok)
		cellRight := func(idx uint64) float64 {
			for _, cell := range r.Cells {
				if cell.Index == idx {
					return cell.Rect.Right() + 1
				}
			}
			return r.Strip.X
		}
		if pr.Match == 0 {
			assert.Negative(t, r.MatchX, "row %d: a bar for no entry", i+1)
		} else {
			assert.InDelta(t, cellRight(pr.Match), r.MatchX, 0.01, "row %d: match %d", i+1, pr.Match)
		}
		assert.Greater(t, r.NextX, r.MatchX-0.01, "row %d: next %d before match %d", i+1, pr.Next, pr.Match)
	}
	other := 3 - l - (cut - 1) // the follower still in touch
	assert.Less(t, rows[cut-1].MatchX, rows[other].MatchX, "the cut-off follower's bar is shorter")
	// The key says what they are.
	require.NoError(t, a.tryLine("legend on"))
	var keyText []string
	for _, r := range a.Frame().Legend.Rows {
		for _, l := range r.Lines {
			keyText = append(keyText, l.Text)
		}
	}
	assert.Contains(t, strings.Join(keyText, " "), "match index")
}

// A figure shows the marks only where its paragraph is about replication.
func TestFiguresMarkProgressOnlyAboutReplication(t *testing.T) {
	for id, want := range map[string]bool{"commit-latency": true, "roles": false} {
		a := figureApp(t, id, 720, 450)
		playFigureThrough(t, a)
		marked := false
		for _, r := range a.Frame().Logs.Rows {
			marked = marked || r.MatchX >= 0 || r.NextX >= 0
		}
		assert.Equal(t, want, marked, "%s: marks on the log rows", id)
	}
}
