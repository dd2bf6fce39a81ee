package session

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// playToEnd advances s to the end of its figure's script, a frame at a
// time as the app does, and returns the trace hash there. The frames end
// at odd times, between the script's actions.
func playToEnd(t *testing.T, s *Session) uint64 {
	t.Helper()
	end := s.Scenario().ScriptEndUs()
	for s.NowUs() < end {
		_, err := s.Advance(min(s.NowUs()+33_333, end), -1)
		require.NoError(t, err)
		s.Observed()
	}
	return s.World().TraceHash()
}

// wirePaths are the ids of messages whose paths s remembers.
func wirePaths(s *Session) []uint64 {
	var ids []uint64
	for id := range s.paths.seen {
		ids = append(ids, id)
	}
	return ids
}

// A session of a new world keeps nothing of the old one: the tracker
// starts the story again, the script plays again from its start, what the
// screen reader was told is forgotten, and no message path is known.
func TestANewRunKeepsNothingOfTheOldWorld(t *testing.T) {
	old := playing(t, "majority")
	r := old.Scenario()
	first := playToEnd(t, old)
	require.True(t, r.Tracker().Done(), "the figure's story was told")
	require.NotEmpty(t, wirePaths(old))
	old.Told().Leader, old.Told().Step, old.Told().Broken = 2, 4, 1

	// The same play of the figure, started again in a new world.
	s, err := New(r.Config(1), r, budget)
	require.NoError(t, err)
	assert.Zero(t, s.NowUs())
	assert.False(t, r.Tracker().Done(), "the story starts again")
	assert.Equal(t, r.Tracker().Step(), r.Shown())
	assert.Equal(t, Told{Leader: -1, Step: -1}, *s.Told())
	assert.Empty(t, wirePaths(s))
	_, forked := s.TakeFork()
	assert.False(t, forked)
	assert.Equal(t, first, playToEnd(t, s), "the script plays again from its start")
	assert.True(t, r.Tracker().Done())
}

// Again is a fresh play of the same figure, with its knobs and whether
// the app plays its script.
func TestAgainIsAFreshPlayWithTheSameSettings(t *testing.T) {
	s := playing(t, "majority", "split", "2/2/1")
	r := s.Scenario()
	playToEnd(t, s)

	again := r.Again()
	require.NotSame(t, r, again)
	assert.Equal(t, map[string]string{"split": "2/2/1"}, again.Knobs())
	assert.True(t, again.Autoplay())
	assert.NotSame(t, r.Tracker(), again.Tracker())
	assert.False(t, again.Tracker().Done())
}
