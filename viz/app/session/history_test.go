package session

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// A step forward goes to the next visible change, not the next tick: the
// trace grows by it. A step back goes to just before the latest one, and
// stepping forward again shows the same world.
func TestStepsGoFromOneVisibleChangeToTheNext(t *testing.T) {
	s := free(t, 3)
	require.False(t, s.StepBack(), "nothing before the start")
	for k := 0; k < 30; k++ {
		before := s.World().TraceCount()
		require.True(t, s.Step())
		require.Greater(t, s.World().TraceCount(), before)
	}
	after, hash := s.World().TraceCount(), s.World().TraceHash()
	require.True(t, s.StepBack())
	require.Less(t, s.World().TraceCount(), after)
	require.False(t, s.AtHead())
	require.True(t, s.Step())
	require.Equal(t, hash, s.World().TraceHash())
}

// The notable moments of the run can be visited back and forth.
func TestMarksAreVisitedInOrder(t *testing.T) {
	s := free(t, 3)
	untilLeader(t, s)
	runWatching(t, s, 3_000_000)
	marks := s.Marks()
	require.NotEmpty(t, marks)

	s.GoTo(0)
	m, ok := s.NextMark()
	require.True(t, ok)
	require.Equal(t, marks[0].At, m.At)
	require.Equal(t, m.At.AtUs, s.NowUs())
	second, ok := s.NextMark()
	require.True(t, ok)
	require.Less(t, m.At.Events, second.At.Events)
	back, ok := s.PrevMark()
	require.True(t, ok)
	require.Equal(t, m.At, back.At)
	require.Equal(t, m.At.AtUs, s.NowUs())
}
