package clock

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPlayRunsTimeToAPaceAndRestForgetsIt(t *testing.T) {
	c := New(1)
	c.Rest()
	require.True(t, c.Paused())
	c.Play(Pace{Goal: 3, UntilUs: 9_000})
	require.False(t, c.Paused())
	require.Equal(t, Pace{Goal: 3, UntilUs: 9_000}, c.Pace())
	c.Rest()
	require.True(t, c.Paused())
	require.Equal(t, Resting, c.Pace())
}

// A playing figure rests once the story reaches its goal step, and not a
// step before.
func TestAFigureRestsAtItsGoalStep(t *testing.T) {
	c := New(1)
	c.Play(Pace{Goal: 2})
	require.False(t, c.RestIfDue(1, 1_000_000_000))
	require.False(t, c.Paused())
	require.True(t, c.RestIfDue(2, 0))
	require.True(t, c.Paused())
	require.Equal(t, Resting, c.Pace())
	require.False(t, c.RestIfDue(5, 0), "a resting clock rests no more")
}

// Steps reached together: a figure playing to step 2 that finds the story
// at step 4 rests too.
func TestAFigureRestsWhenTheStoryPassedItsGoal(t *testing.T) {
	c := New(1)
	c.Play(Pace{Goal: 2})
	require.True(t, c.RestIfDue(4, 0))
}

// A figure that runs for a while after the reader acted rests at that
// time, when no step came first.
func TestAFigureRestsAtItsTime(t *testing.T) {
	c := New(1)
	c.Play(Pace{Goal: -1, UntilUs: 6_000})
	require.False(t, c.RestIfDue(7, 5_999), "no goal step: steps do not stop it")
	require.True(t, c.RestIfDue(7, 6_000))
}

// RunUntil makes the figure run at least to a time: it never shortens the
// run already asked for.
func TestRunUntilOnlyLengthensTheRun(t *testing.T) {
	c := New(1)
	c.Play(Pace{Goal: 4})
	c.RunUntil(5_000)
	assert.Equal(t, Pace{Goal: 4, UntilUs: 5_000}, c.Pace())
	c.RunUntil(3_000)
	assert.Equal(t, int64(5_000), c.Pace().UntilUs)
	c.RunUntil(8_000)
	assert.Equal(t, int64(8_000), c.Pace().UntilUs)
}

// A clock that plays to no step and no time never rests by itself.
func TestARestingPaceNeverRests(t *testing.T) {
	c := New(1)
	c.Play(Resting)
	for step := 0; step < 10; step++ {
		require.False(t, c.RestIfDue(step, int64(step)*1_000_000_000))
	}
	require.False(t, c.Paused())
}

// The reader pausing a playing figure is not the figure resting: the pace
// is kept, and the figure rests at its goal once it plays on.
func TestAPausedFigureKeepsItsPace(t *testing.T) {
	c := New(1)
	c.Play(Pace{Goal: 2})
	c.SetPaused(true)
	require.False(t, c.RestIfDue(2, 0), "a paused figure does not rest")
	require.Equal(t, Pace{Goal: 2}, c.Pace())
	c.SetPaused(false)
	require.True(t, c.RestIfDue(2, 0))
}
