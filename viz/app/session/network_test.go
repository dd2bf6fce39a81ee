package session

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"raftlab/raftcore"
)

func TestAWholeNetworkHasNoSides(t *testing.T) {
	s := free(t, 5)
	assert.Nil(t, s.Sides())
	for i := 0; i < 5; i++ {
		assert.False(t, s.Isolated(i))
	}
}

// A clean split has sides, each in the order of its first machine.
func TestACleanSplitHasSides(t *testing.T) {
	s := free(t, 5)
	act(t, s, raftcore.Action{Do: raftcore.DoPartition, Groups: [][]int{{2, 5}, {1, 3}, {4}}})
	require.Equal(t, [][]int{{0, 2}, {1, 4}, {3}}, s.Sides())
	require.True(t, s.Isolated(3))
	require.False(t, s.Isolated(0))

	act(t, s, raftcore.Action{Do: raftcore.DoHeal})
	require.Nil(t, s.Sides())
	require.False(t, s.Isolated(3))
}

// A network that is not cleanly split has no sides: a link cut one way,
// or one link cut between machines that still hear each other otherwise.
func TestAnUncleanSplitHasNoSides(t *testing.T) {
	s := free(t, 3)
	act(t, s, raftcore.Action{Do: raftcore.DoCut, From: 1, To: 2, OneWay: true})
	assert.Nil(t, s.Sides(), "one way")
	act(t, s, raftcore.Action{Do: raftcore.DoCut, From: 2, To: 1, OneWay: true})
	assert.Nil(t, s.Sides(), "A and B both hear C")

	// Cut off one way only, a machine still hears or is heard.
	act(t, s, raftcore.Action{Do: raftcore.DoHeal})
	act(t, s, raftcore.Action{Do: raftcore.DoCut, From: 3, To: 1, OneWay: true})
	act(t, s, raftcore.Action{Do: raftcore.DoCut, From: 3, To: 2, OneWay: true})
	assert.False(t, s.Isolated(2), "C is still heard")
	assert.Nil(t, s.Sides())
}

func TestALoneMachineIsNeverIsolated(t *testing.T) {
	require.False(t, free(t, 1).Isolated(0))
}
