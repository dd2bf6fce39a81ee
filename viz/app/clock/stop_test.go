package clock

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const ms = time.Millisecond

// While paused no virtual time runs, and the time spent paused is not
// owed when the clock runs again.
func TestPausedTimeNeverRuns(t *testing.T) {
	c := New(1)
	c.Tick(0, false)
	c.SetPaused(true)
	require.True(t, c.Paused())
	require.Zero(t, c.Tick(10*ms, false))
	require.Zero(t, c.Tick(20*ms, false))
	c.SetPaused(false)
	require.Zero(t, c.Tick(120*ms, false), "the pause's 100 ms are owed after it")
	require.Equal(t, int64(16_000), c.Tick(136*ms, false))
}

// Out of view, no time runs; the time hidden never counts as elapsed.
func TestHiddenTimeNeverRuns(t *testing.T) {
	c := New(1)
	c.Tick(0, false)
	require.True(t, c.SetVisible(false))
	require.False(t, c.SetVisible(false), "hiding a hidden clock changes nothing")
	require.False(t, c.Visible())
	require.Zero(t, c.Tick(10*ms, false))
	require.True(t, c.SetVisible(true))
	require.False(t, c.SetVisible(true))
	require.Zero(t, c.Tick(200*ms, false), "the hidden time counts once shown")
	require.Equal(t, int64(5_000), c.Tick(205*ms, false))
}

// While the help covers the screen (held) no time runs, and none is owed
// for it afterwards.
func TestHeldTicksRunNothingAndOweNothing(t *testing.T) {
	c := New(1)
	c.Tick(0, false)
	require.Zero(t, c.Tick(50*ms, true))
	require.Zero(t, c.Tick(100*ms, true))
	require.Equal(t, int64(10_000), c.Tick(110*ms, false))
}

// A host that stopped ticking while the app rested starts afresh.
func TestRestartCountsNoTimeSinceTheLastTick(t *testing.T) {
	c := New(1)
	c.Tick(0, false)
	c.Restart()
	require.Zero(t, c.Tick(200*ms, false))
	require.Equal(t, int64(1_000), c.Tick(201*ms, false))
}

// Forget drops the fraction of a microsecond owed, so that a world moved
// by other means does not run on by it.
func TestForgetDropsWhatIsOwed(t *testing.T) {
	owed := func(forget bool) int64 {
		c := New(0.5)
		c.Tick(0, false)
		require.Zero(t, c.Tick(time.Microsecond, false), "half a microsecond is owed")
		if forget {
			c.Forget()
		}
		return c.Tick(2*time.Microsecond, false)
	}
	assert.Equal(t, int64(1), owed(false))
	assert.Zero(t, owed(true))
}
