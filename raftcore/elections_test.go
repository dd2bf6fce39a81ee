package raftcore

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// runWatchingLeaders runs w to untilUs event by event and adds up, from the
// world's own state between events, how long no running machine led: an
// account independent of the trace the counters read.
func runWatchingLeaders(w *World, untilUs int64, leaderless *int64) {
	for {
		next, ok := w.NextEventAt()
		if !ok || next > untilUs {
			break
		}
		if !anyLeader(w) {
			*leaderless += next - w.Now()
		}
		w.Step()
	}
	if !anyLeader(w) {
		*leaderless += untilUs - w.Now()
	}
	w.RunUntil(untilUs)
}

func anyLeader(w *World) bool {
	for id := NodeID(1); int(id) <= w.Size(); id++ {
		if w.Status(id) == StatusUp && w.Node(id).Role() == RoleLeader {
			return true
		}
	}
	return false
}

func TestElectionStatsCountAnElectionAndAFailover(t *testing.T) {
	for seed := int64(1); seed <= 10; seed++ {
		w := newTestWorld(t, func(c *Config) { c.Seed = seed })
		var leaderless int64
		runWatchingLeaders(w, 300_000, &leaderless)
		mustApply(t, w, Action{Do: DoTimeout, Node: 1})
		runWatchingLeaders(w, 3_000_000, &leaderless)
		require.Equal(t, RoleLeader, w.Node(1).Role(), "seed %d", seed)
		mustApply(t, w, Action{Do: DoCrash, Node: 1})
		runWatchingLeaders(w, 10_000_000, &leaderless)

		s := w.ElectionStats(0)
		require.Equal(t, leaderless, s.LeaderlessUs, "seed %d: time without a leader", seed)
		require.Len(t, s.FailoversUs, 1, "seed %d", seed)
		// The followers' timers started at the last heartbeat, at most a
		// tick before the crash, and run at least the election timeout.
		require.GreaterOrEqual(t, s.FailoversUs[0], int64(900_000), "seed %d", seed)
		require.Less(t, s.FailoversUs[0], int64(2_500_000), "seed %d", seed)
		require.GreaterOrEqual(t, s.Leaders, 2, "seed %d", seed)
		require.Equal(t, s.Leaders-1, s.LeaderChanges, "seed %d", seed)
		require.GreaterOrEqual(t, s.Elections, s.Leaders, "seed %d: every leader won an election", seed)
		require.GreaterOrEqual(t, s.PreVotes, s.Elections, "seed %d: with PreVote every election began with one", seed)

		// A stretch after the failover saw no election and no gap.
		calm := w.ElectionStats(9_000_000)
		require.Zero(t, calm.Elections+calm.PreVotes+calm.Leaders, "seed %d", seed)
		require.Zero(t, calm.LeaderlessUs, "seed %d", seed)
	}
}

// A crash of a machine that does not lead is no failover, and a paused
// leader leaves the cluster without a running leader.
func TestElectionStatsIgnoreFollowerCrashesAndCountPausedLeaders(t *testing.T) {
	w := newTestWorld(t, nil)
	var leaderless int64
	runWatchingLeaders(w, 300_000, &leaderless)
	mustApply(t, w, Action{Do: DoTimeout, Node: 1})
	runWatchingLeaders(w, 2_000_000, &leaderless)
	mustApply(t, w, Action{Do: DoCrash, Node: 2})
	mustApply(t, w, Action{Do: DoPause, Node: 1})
	runWatchingLeaders(w, 2_500_000, &leaderless)
	mustApply(t, w, Action{Do: DoResume, Node: 1})
	mustApply(t, w, Action{Do: DoPause, Node: 2}) // crashed: pausing it does nothing
	runWatchingLeaders(w, 4_000_000, &leaderless)
	s := w.ElectionStats(0)
	require.Empty(t, s.FailoversUs)
	require.Equal(t, leaderless, s.LeaderlessUs)
	require.GreaterOrEqual(t, s.LeaderlessUs, int64(500_000), "the pause left the cluster leaderless")
}

// The counter fed one event at a time, as a host that trims its trace
// feeds it, agrees with one reading the whole trace.
func TestElectionCounterFedAsEventsCome(t *testing.T) {
	w := RandomRun(7, RandomOptions{Nodes: 5, UntilMs: 30000})
	c := NewElectionCounter(w.Size())
	for _, e := range w.Trace() {
		c.Observe(e)
	}
	require.Equal(t, w.ElectionStats(0), c.Stats(0, w.Now()))
	require.Equal(t, w.ElectionStats(10_000_000), c.Stats(10_000_000, w.Now()))
}

// A counter taken back to an earlier moment and fed another future counts
// what a counter that only ever saw that run counts.
func TestElectionCounterRewindsToAnEarlierWorld(t *testing.T) {
	for seed := int64(1); seed <= 5; seed++ {
		w := RandomRun(seed, RandomOptions{Nodes: 5, UntilMs: 12000})
		for _, back := range []int64{3_000_000, 6_000_000, 9_000_000} {
			// The same run to a point, then a different future.
			early := MustWorld(w.Config())
			var kept []Action
			for _, a := range w.Actions() {
				if a.AtUs() <= back {
					kept = append(kept, a)
				}
			}
			require.NoError(t, early.Play(kept))
			early.RunUntil(back)

			c := NewElectionCounter(w.Size())
			for _, e := range w.Trace() {
				c.Observe(e)
			}
			c.RewindTo(early)
			require.Equal(t, early.ElectionStats(0), c.Stats(0, early.Now()), "seed %d back to %d: at the moment rewound to", seed, back)

			seen := early.TraceCount()
			mustApply(t, early, Action{Do: DoCrash, Node: 1})
			loss := 0.4
			mustApply(t, early, Action{Do: DoLoss, Loss: &loss})
			early.RunFor(8_000_000)
			for _, e := range early.Trace() {
				if e.Seq > seen {
					c.Observe(e)
				}
			}
			require.Equal(t, early.ElectionStats(0), c.Stats(0, early.Now()), "seed %d back to %d: along the new future", seed, back)
		}
	}
}
