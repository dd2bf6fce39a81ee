package raftcore

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// A run that streams its trace and keeps only a few events is the same run
// as one that keeps them all: the sink gets every event, in order, the
// hash and count are those of the whole trace, and so is the summary,
// election counters included.
func TestRunTracedStreamsEveryEventAndKeepsFew(t *testing.T) {
	for seed := int64(1); seed <= 8; seed++ {
		s := RandomRun(seed, RandomOptions{UntilMs: 15000}).Schedule()
		whole, err := s.Run()
		require.NoError(t, err)

		var streamed []TraceEvent
		const keep = 16
		bounded, err := s.RunTraced(keep, func(e TraceEvent) { streamed = append(streamed, e) })
		require.NoError(t, err)

		require.Equal(t, whole.Trace(), streamed, "seed %d: the sink saw every event", seed)
		require.LessOrEqual(t, len(bounded.Trace()), keep, "seed %d", seed)
		require.Equal(t, whole.TraceHash(), bounded.TraceHash(), "seed %d", seed)
		require.Equal(t, whole.TraceCount(), bounded.TraceCount(), "seed %d", seed)
		require.Equal(t, whole.Summarize(), bounded.Summarize(), "seed %d", seed)
	}
}

// The summary's election counters are counted as events are recorded, so
// they are the whole run's even when the world kept almost none of them:
// the same as counting over the whole trace.
func TestSummaryElectionsCoverTheWholeRun(t *testing.T) {
	for seed := int64(1); seed <= 20; seed++ {
		whole := RandomRun(seed, RandomOptions{UntilMs: 20000})
		require.Equal(t, whole.TraceCount(), uint64(len(whole.Trace())), "seed %d: the run keeps its whole trace", seed)
		want := whole.ElectionStats(0)

		cfg := whole.Config()
		cfg.TraceLimit = 2
		trimmed := MustWorld(cfg)
		require.NoError(t, trimmed.Play(whole.Actions()))
		trimmed.RunUntil(whole.Now())
		require.Equal(t, whole.TraceHash(), trimmed.TraceHash(), "seed %d", seed)

		got := trimmed.Summarize().Elections
		require.NotNil(t, got, "seed %d", seed)
		require.Equal(t, want, *got, "seed %d", seed)
	}
}

// A failover's duration is counted from the leader's crash to the next
// leader, in the summary as in ElectionStats, and a clone's counters go
// their own way.
func TestSummaryElectionsCountAFailoverAndCloneApart(t *testing.T) {
	w := newTestWorld(t, func(c *Config) { c.TraceLimit = 4 })
	w.RunUntil(300_000)
	mustApply(t, w, Action{Do: DoTimeout, Node: 1})
	w.RunUntil(3_000_000)
	require.Equal(t, RoleLeader, w.Node(1).Role())
	c := w.Clone()
	mustApply(t, w, Action{Do: DoCrash, Node: 1})
	w.RunUntil(10_000_000)
	c.RunUntil(10_000_000)

	s := *w.Summarize().Elections
	require.Len(t, s.FailoversUs, 1)
	require.GreaterOrEqual(t, s.FailoversUs[0], int64(900_000))
	require.Less(t, s.FailoversUs[0], int64(2_500_000))
	require.Equal(t, s.Leaders-1, s.LeaderChanges)
	require.Empty(t, c.Summarize().Elections.FailoversUs, "the clone's leader never crashed")
}

// Streaming starts from a world's first event: a world that has already
// dropped some cannot stream, and a clone of a streaming world does not
// stream into its sink.
func TestStreamTraceNeedsEveryEventAndClonesDoNotStream(t *testing.T) {
	w := newTestWorld(t, func(c *Config) { c.TraceLimit = 2 })
	w.RunUntil(1_000_000)
	err := w.StreamTrace(0, func(TraceEvent) {})
	require.ErrorContains(t, err, "already dropped")

	w = newTestWorld(t, nil)
	seen := 0
	require.NoError(t, w.StreamTrace(8, func(TraceEvent) { seen++ }))
	require.Equal(t, int(w.TraceCount()), seen, "the events recorded before streaming")
	w.RunUntil(1_000_000)
	require.Equal(t, int(w.TraceCount()), seen)
	c := w.Clone()
	c.RunUntil(2_000_000)
	require.Greater(t, c.TraceCount(), w.TraceCount())
	require.Equal(t, int(w.TraceCount()), seen, "the clone's events went elsewhere")
}
