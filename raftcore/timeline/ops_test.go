package timeline

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"raftlab/raftcore"
)

// TestRebuiltRequestsSawTheSameNetwork: what a request recorded of the
// network when it was made (its side, whether the network was split) comes
// back the same when the timeline rebuilds the world by replaying its
// actions, at the head and at any moment in the past.
func TestRebuiltRequestsSawTheSameNetwork(t *testing.T) {
	tl := mustNew(t, raftcore.DefaultConfig(), Options{})
	write := func(n int) {
		mustAct(t, tl, raftcore.Action{Do: raftcore.DoWrite, Node: n, Key: "k", Value: "v"})
	}
	tl.Advance(1_500_000)
	write(1)
	mustAct(t, tl, raftcore.Action{Do: raftcore.DoPartition, Groups: [][]int{{1, 2}, {3, 4, 5}}})
	write(1)
	write(4)
	tl.Advance(1_000_000)
	mustAct(t, tl, raftcore.Action{Do: raftcore.DoPause, Node: 5})
	mustAct(t, tl, raftcore.Action{Do: raftcore.DoCrash, Node: 2})
	write(5)
	write(2)
	write(3)
	tl.Advance(1_000_000)
	mustAct(t, tl, raftcore.Action{Do: raftcore.DoHeal})
	write(4)
	tl.Advance(6_000_000)

	live := tl.World().Ops()
	require.Len(t, live, 7)
	split, _ := tl.World().LastSplit()
	heal, _ := tl.World().LastHeal()
	// The run is what the other tests of raftcore say it is.
	assert.Equal(t, []raftcore.NodeID{1, 2}, live[1].Side)
	assert.Empty(t, live[3].Side, "asked while paused")
	assert.Empty(t, live[4].Side, "asked while crashed")
	assert.Equal(t, []raftcore.NodeID{3, 4}, live[5].Side)
	assert.False(t, live[6].Split, "asked after the heal")

	// The run is far shorter than the checkpoint spacing, so the worlds
	// below are rebuilt by replaying the log from the start.
	head := tl.Head()
	tl.SeekTime(0)
	require.Empty(t, tl.World().Ops())
	// Halfway: the requests made by then, as they were made.
	tl.SeekTime(3_000_000)
	past := tl.World().Ops()
	require.Len(t, past, 6)
	for i, op := range past {
		assert.Equal(t, live[i].Side, op.Side, "request %d's side after a rewind", op.ID)
		assert.Equal(t, live[i].Split, op.Split, "request %d's split after a rewind", op.ID)
	}
	_, healed := tl.World().LastHeal()
	assert.False(t, healed, "not healed yet halfway")
	tl.SeekTo(head)
	assert.Equal(t, live, tl.World().Ops(), "the requests after replaying to the head")
	s, _ := tl.World().LastSplit()
	h, _ := tl.World().LastHeal()
	assert.Equal(t, split, s)
	assert.Equal(t, heal, h)
}
