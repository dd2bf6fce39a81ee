package app

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"raftlab/raftcore"
	"raftlab/viz/app/command"
)

// A write a leader appended while cut off from the others waits for its
// timeout once the new leader's entries replace it: the client panel says
// it was replaced, not that it is held by none of the machines.
func TestAReplacedWriteSaysSo(t *testing.T) {
	a := newApp(t, 3, 1280, 800)
	c := &hostClock{}
	l := untilLeader(t, a, c)
	var others []int
	for i := 0; i < 3; i++ {
		if i != l {
			others = append(others, i+1)
		}
	}
	act := func(x raftcore.Action) { require.NoError(t, a.Do(command.Act{Action: x})) }
	act(raftcore.Action{Do: raftcore.DoPartition, Groups: [][]int{{l + 1}, others}})
	act(raftcore.Action{Do: raftcore.DoWrite, Node: l + 1, Key: "x", Value: "lost"})
	op := a.World().Ops()[0]
	require.Equal(t, raftcore.OpPending, op.Result)
	// The majority elects a leader of its own and commits a write there.
	for i := 0; i < 100 && (a.leader() == l || a.leader() < 0); i++ {
		c.run(a, 100*time.Millisecond)
	}
	require.NotEqual(t, l, a.leader(), "the majority elected no leader")
	act(raftcore.Action{Do: raftcore.DoWrite, Node: a.leader() + 1, Key: "x", Value: "kept"})
	act(raftcore.Action{Do: raftcore.DoHeal})
	// Until the old leader, back among the others, has its entry
	// replaced.
	for i := 0; i < 40 && strings.Contains(panelText(t, a, "Client requests"), "held by 1 of 3"); i++ {
		c.run(a, 100*time.Millisecond)
	}
	op = a.World().Ops()[0]
	require.Equal(t, raftcore.OpPending, op.Result, "the replaced write timed out already")
	require.NotZero(t, op.Appended)
	text := panelText(t, a, "Client requests")
	require.Contains(t, text, "was replaced by a later leader's", "the panel says %q", text)
	require.NotContains(t, text, "held by 0")
}
