package scenarios

import (
	"testing"

	"github.com/stretchr/testify/require"

	"raftlab/raftcore"
)

// variant is scenario id with the given knob settings.
func variant(t *testing.T, id string, settings ...string) *Scenario {
	t.Helper()
	s, err := Get(id)
	require.NoError(t, err)
	for i := 0; i+1 < len(settings); i += 2 {
		s, err = s.With(settings[i], settings[i+1])
		require.NoError(t, err)
	}
	return s
}

// tuningRun plays timeout-tuning and returns the noisy stretch's counters
// and the failover time of the crash.
func tuningRun(t *testing.T, s *Scenario, seed int64) (raftcore.ElectionStats, int64) {
	t.Helper()
	w, r, err := s.Run(seed)
	require.NoError(t, err)
	require.NoError(t, r.Expect, "seed %d", seed)
	h := scan(w)
	f := h.elections.Stats(0, w.Now()).FailoversUs
	require.Len(t, f, 1, "seed %d", seed)
	at := tuningTimesFor(w.Config().TickMs * w.Config().ElectionTicks)
	return h.elections.Stats(int64(at.noise*1000), int64(at.calm*1000)), f[0]
}

// Too short: on the same noisy network and the same seeds, a 300 ms
// timeout holds elections that nobody needed, and etcd's 1000 ms holds
// fewer; the calm network holds none at either.
func TestShortTimeoutsElectOnANoisyNetwork(t *testing.T) {
	short := variant(t, "timeout-tuning", "election", "300 ms")
	def := variant(t, "timeout-tuning", "election", "1000 ms")
	calmShort := variant(t, "timeout-tuning", "election", "300 ms", "network", "calm")
	var shortN, defN, shortLeaderless, defLeaderless int64
	for seed := int64(1); seed <= 10; seed++ {
		s, _ := tuningRun(t, short, seed)
		d, _ := tuningRun(t, def, seed)
		c, _ := tuningRun(t, calmShort, seed)
		shortN += int64(s.Elections)
		defN += int64(d.Elections)
		shortLeaderless += s.LeaderlessUs
		defLeaderless += d.LeaderlessUs
		require.Zero(t, c.Elections+c.PreVotes, "seed %d: a calm network needs no election", seed)
	}
	require.Greater(t, shortN, defN, "elections in the noise: %d with 300 ms, %d with 1000 ms", shortN, defN)
	require.Greater(t, shortN, int64(20))
	require.Greater(t, shortLeaderless, defLeaderless)
}

// Too long: a crashed leader is replaced no sooner than the election
// timeout, so a 5000 ms timeout leaves the cluster without a leader longer
// than etcd's 1000 ms, and that longer than 300 ms, on every seed.
func TestLongTimeoutsFailOverSlowly(t *testing.T) {
	short := variant(t, "timeout-tuning", "election", "300 ms")
	def := variant(t, "timeout-tuning", "election", "1000 ms")
	long := variant(t, "timeout-tuning", "election", "5000 ms")
	for seed := int64(1); seed <= 10; seed++ {
		_, fs := tuningRun(t, short, seed)
		_, fd := tuningRun(t, def, seed)
		_, fl := tuningRun(t, long, seed)
		require.GreaterOrEqual(t, fd, int64(900_000), "seed %d", seed)
		require.GreaterOrEqual(t, fl, int64(4_900_000), "seed %d", seed)
		require.Less(t, fs, fd, "seed %d", seed)
		require.Less(t, fd, fl, "seed %d", seed)
	}
}

// The checker flags the lease read answered on a clock past the bound,
// and no other: not the lease read before the cut, not a lease read on a
// clock within the bound, never a ReadIndex read.
func TestStaleLeaseReadOnlyPastTheDriftBound(t *testing.T) {
	for _, c := range []struct {
		drift, reads string
		stale        bool
	}{
		{"exact", "lease", false}, {"10% slow", "lease", false}, {"75% slow", "lease", true},
		{"exact", "ReadIndex", false}, {"10% slow", "ReadIndex", false}, {"75% slow", "ReadIndex", false},
	} {
		s := variant(t, "clock-drift", "drift", c.drift, "reads", c.reads)
		for seed := int64(1); seed <= 30; seed++ {
			w, r, err := s.Run(seed)
			require.NoError(t, err)
			require.NoError(t, r.Expect)
			for _, op := range w.Ops() {
				if op.Kind != raftcore.DoRead {
					continue
				}
				flagged := staleFlagged(w, op)
				// What a read should return is the last write that completed
				// before it began.
				fresh := "replicas=3"
				if op.InvokeUs >= driftReadMs*1000 {
					fresh = "replicas=5"
				}
				answeredStale := op.Result == raftcore.OpOK && op.ReadValue != fresh
				require.Equal(t, answeredStale, flagged, "%s seed %d op %d: %s %q", label(s), seed, op.ID, op.Result, op.ReadValue)
				if op.InvokeUs < driftCutMs*1000 {
					require.Equal(t, raftcore.OpOK, op.Result, "%s seed %d: the read before the cut", label(s), seed)
				}
			}
			require.Equal(t, c.stale, w.ViolationCount(raftcore.RuleStaleRead) > 0, "%s seed %d", label(s), seed)
		}
	}
}
