package raftcore

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestClockOffsetAddsUpDrift(t *testing.T) {
	w := newTestWorld(t, func(c *Config) { c.Nodes = 3 })
	w.RunUntil(1_000_000)
	require.Zero(t, w.ClockOffsetUs(1))
	mustApply(t, w, Action{Do: DoDrift, Node: 1, Rate: 0.5})
	w.RunUntil(3_000_000)
	require.Equal(t, int64(-1_000_000), w.ClockOffsetUs(1), "two seconds at half speed lose one")
	mustApply(t, w, Action{Do: DoDrift, Node: 1, Rate: 2})
	w.RunUntil(3_500_000)
	require.Equal(t, int64(-500_000), w.ClockOffsetUs(1), "half a second at double speed gains half")
	require.Zero(t, w.ClockOffsetUs(2))
	require.Zero(t, w.ClockOffsetUs(9), "no such machine")
	c := w.Clone()
	c.RunUntil(4_000_000)
	require.Equal(t, int64(0), c.ClockOffsetUs(1))
	require.Equal(t, int64(-500_000), w.ClockOffsetUs(1), "the clone runs on its own")
}

// A leader cut off from everyone steps down exactly when LeaderLeaseEnd
// said it would, and a clock that runs slow stretches that in true time.
func TestLeaderLeaseEndIsWhenACutOffLeaderStepsDown(t *testing.T) {
	for _, rate := range []float64{1, 0.5, 2} {
		for seed := int64(1); seed <= 5; seed++ {
			w := newTestWorld(t, func(c *Config) { c.Seed = seed; c.Nodes = 3 })
			w.RunUntil(300_000)
			mustApply(t, w, Action{Do: DoTimeout, Node: 1})
			w.RunUntil(2_000_000)
			require.Equal(t, RoleLeader, w.Node(1).Role())
			_, ok := w.LeaderLeaseEnd(2)
			require.False(t, ok, "a follower holds no lease")
			mustApply(t, w, Action{Do: DoDrift, Node: 1, Rate: rate})
			mustApply(t, w, Action{Do: DoPartition, Groups: [][]int{{1}, {2, 3}}})
			end, ok := w.LeaderLeaseEnd(1)
			require.True(t, ok)
			span := end - w.Now()
			tick := int64(float64(100_000) / rate)
			require.LessOrEqual(t, span, 2*10*tick, "rate %g seed %d", rate, seed)
			require.Greater(t, span, int64(0))
			w.RunUntil(end - 1)
			require.Equal(t, RoleLeader, w.Node(1).Role(), "rate %g seed %d: stepped down before its lease ended", rate, seed)
			w.RunUntil(end)
			require.NotEqual(t, RoleLeader, w.Node(1).Role(), "rate %g seed %d: still leads after its lease ended", rate, seed)
			_, ok = w.LeaderLeaseEnd(1)
			require.False(t, ok)
		}
	}
}
