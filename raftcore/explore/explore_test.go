package explore

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"raftlab/raftcore"
)

// small are bounds whose whole space a test can search in a few seconds
// on a loaded machine.
var small = Bounds{Nodes: 3, Terms: 2, Writes: 1, Depth: 6, Faults: 1}

func TestExhaustsASmallSpaceWithoutAViolation(t *testing.T) {
	res, err := Explore(small, 0)
	require.NoError(t, err)
	require.Nil(t, res.Counterexample, "correct Raft broke a rule")
	assert.True(t, res.Exhausted)
	sum := 0
	for _, n := range res.Levels {
		sum += n
	}
	assert.Equal(t, res.States, sum, "every state is first reached at one depth")
	assert.Len(t, res.Levels, small.Depth+1)
	assert.Greater(t, res.Transitions, res.States, "some states are reached along several paths")
	// The numbers are pinned: native and GOOS=js builds must find the
	// same space, and a change to the choices or the state key shows here.
	assert.Equal(t, []int{1, 6, 31, 109, 336, 1084, 3917}, res.Levels)
	assert.Equal(t, 12822, res.Transitions)
	// The same search gives the same numbers: nothing depends on map
	// order or timing.
	again, err := Explore(small, 0)
	require.NoError(t, err)
	assert.Equal(t, res, again)
}

func TestDeeperBoundsReachMoreStates(t *testing.T) {
	shallow, err := Explore(Bounds{Nodes: 3, Terms: 2, Depth: 4}, 0)
	require.NoError(t, err)
	deeper, err := Explore(Bounds{Nodes: 3, Terms: 2, Depth: 5}, 0)
	require.NoError(t, err)
	assert.Equal(t, shallow.Levels, deeper.Levels[:5], "a level does not depend on the depth bound")
	assert.Greater(t, deeper.States, shallow.States)
	withFault, err := Explore(Bounds{Nodes: 3, Terms: 2, Depth: 5, Faults: 1}, 0)
	require.NoError(t, err)
	assert.Greater(t, withFault.States, deeper.States)
}

func TestMaxStatesStopsTheSearchUnexhausted(t *testing.T) {
	b := small
	b.MaxStates = 50
	res, err := Explore(b, 0)
	require.NoError(t, err)
	assert.False(t, res.Exhausted)
	assert.Equal(t, 50, res.States)
	assert.Nil(t, res.Counterexample)
}

func TestBoundsAreChecked(t *testing.T) {
	for _, c := range []struct {
		b    Bounds
		want string
	}{
		{Bounds{Nodes: 0, Terms: 2, Depth: 3}, "nodes: 0 is out of range"},
		{Bounds{Nodes: 10, Terms: 2, Depth: 3}, "nodes: 10 is out of range"},
		{Bounds{Nodes: 3, Terms: 0, Depth: 3}, "terms: 0 is out of range"},
		{Bounds{Nodes: 3, Terms: 2, Depth: 0}, "depth: 0 is out of range"},
		{Bounds{Nodes: 3, Terms: 2, Depth: 3, Writes: -1}, "writes: -1 is out of range"},
		{Bounds{Nodes: 3, Terms: 2, Depth: 3, Faults: -1}, "faults: -1 is out of range"},
		{Bounds{Nodes: 3, Terms: 2, Depth: 3, MaxStates: -1}, "max-states: -1 must not be negative"},
	} {
		_, err := Explore(c.b, 0)
		assert.ErrorContains(t, err, c.want)
	}
	w := raftcore.MustWorld(Config(3, 0))
	_, err := ExploreFrom(w, Bounds{Nodes: 5, Terms: 2, Depth: 3})
	assert.ErrorContains(t, err, "nodes: 5 given, but the start state has 3 machines")
}

func TestKeySetCountsEachKeyOnce(t *testing.T) {
	s := newKeySet()
	for i := uint64(0); i < 200_000; i++ {
		require.True(t, s.add(i*0x9e3779b97f4a7c15), "key %d is new", i)
	}
	for i := uint64(0); i < 200_000; i += 997 {
		require.False(t, s.add(i*0x9e3779b97f4a7c15), "key %d was added", i)
	}
	assert.Equal(t, 200_000-1, s.n, "key 0 is kept apart")
	assert.True(t, s.hasZero)
}
