package clock

import (
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"raftlab/viz"
)

// ticks feeds c a tick every step of real time from start, n times, and
// returns the virtual microseconds each tick gave.
func ticks(c *Clock, start, step time.Duration, n int) []int64 {
	out := make([]int64, n)
	for i := range out {
		out[i] = c.Tick(start+time.Duration(i)*step, false)
	}
	return out
}

func sum(xs []int64) (s int64) {
	for _, x := range xs {
		s += x
	}
	return s
}

func TestAFreshClockRunsVisibleAtItsSpeed(t *testing.T) {
	c := New(0.5)
	assert.True(t, c.Visible())
	assert.False(t, c.Paused())
	assert.Equal(t, 0.5, c.Speed())
	assert.Equal(t, Resting, c.Pace())
}

// The first tick only sets where real time starts: a clock that has never
// ticked owes nothing for the time before.
func TestTheFirstTickCountsNoTime(t *testing.T) {
	c := New(1)
	require.Zero(t, c.Tick(5*time.Second, false))
	require.Equal(t, 5*time.Second, c.Now())
	require.Equal(t, int64(16_000), c.Tick(5*time.Second+16*time.Millisecond, false))
}

// The world runs speed virtual seconds per real second.
func TestATickRunsTheRealTimeElapsedTimesTheSpeed(t *testing.T) {
	for _, speed := range []float64{0.1, 1, 2.5, 10} {
		c := New(speed)
		c.Tick(0, false)
		got := c.Tick(40*time.Millisecond, false)
		assert.Equal(t, int64(math.Round(40_000*speed)), got, "speed %v", speed)
	}
}

// Fractions of a microsecond are owed, not lost: at a slow speed many
// short ticks add up to what one long tick would give.
func TestSmallTicksAddUpToTheWholeTime(t *testing.T) {
	c := New(viz.MinSpeed)
	c.Tick(0, false)
	got := sum(ticks(c, 7*time.Microsecond, 7*time.Microsecond, 10_000))
	want := int64(10_000 * 7 * viz.MinSpeed)
	assert.InDelta(t, want, got, 1, "10,000 ticks of 7µs at speed %v", viz.MinSpeed)
}

// A hidden tab or a debugger stop must not make the world leap: one tick
// counts at most a quarter of a second of real time, and the rest is not
// owed later.
func TestOneTickCountsAtMostMaxGap(t *testing.T) {
	c := New(1)
	c.Tick(0, false)
	require.Equal(t, int64(250_000), c.Tick(time.Hour, false))
	require.Equal(t, int64(10_000), c.Tick(time.Hour+10*time.Millisecond, false))
}

func TestSpeedIsKeptToTheSlidersRange(t *testing.T) {
	c := New(1)
	c.SetSpeed(1000)
	assert.Equal(t, viz.MaxSpeed, c.Speed())
	c.SetSpeed(0)
	assert.Equal(t, viz.MinSpeed, c.Speed())
	c.SetSpeed(-3)
	assert.Equal(t, viz.MinSpeed, c.Speed())
	c.SetSpeed(2)
	assert.Equal(t, 2.0, c.Speed())
	c.SetSpeed(math.NaN())
	assert.Equal(t, 2.0, c.Speed(), "a NaN speed changes nothing")
}

// A new speed counts from the next tick on: the time already elapsed ran
// at the speed it ran at.
func TestANewSpeedTakesEffectAtTheNextTick(t *testing.T) {
	c := New(1)
	c.Tick(0, false)
	require.Equal(t, int64(10_000), c.Tick(10*time.Millisecond, false))
	c.SetSpeed(4)
	require.Equal(t, int64(40_000), c.Tick(20*time.Millisecond, false))
}

// Two clocks given the same real times and the same orders give the same
// virtual time, tick for tick.
func TestTheClockIsDeterministic(t *testing.T) {
	run := func() []int64 {
		c := New(0.3)
		var out []int64
		for i := 0; i < 500; i++ {
			// Real time goes on unevenly, as frames do.
			now := time.Duration(i)*time.Millisecond + time.Duration(i*i%7)*100*time.Microsecond
			if i%50 == 10 {
				c.SetSpeed(float64(i%7) + 0.13)
			}
			out = append(out, c.Tick(now, i%90 == 3))
		}
		return out
	}
	require.Equal(t, run(), run())
}
