package session

import (
	"testing"

	"github.com/stretchr/testify/require"

	"raftlab/scenarios"
)

// reachedAt is when each step of s's story was reached, in virtual
// milliseconds.
func reachedAt(s *Session) []float64 {
	tr := s.Scenario().Tracker()
	var at []float64
	for k := 0; k < tr.StepCount(); k++ {
		if ms, ok := tr.ReachedAtMs(k); ok {
			at = append(at, ms)
		}
	}
	return at
}

// Retrack follows the story anew from the start, and shows the latest
// step reached; with a step asked for, it stops at the event that reached
// it, and shows it.
func TestRetrackShowsTheStepAskedFor(t *testing.T) {
	s := playing(t, "majority")
	end := s.Scenario().ScriptEndUs()
	playToEnd(t, s)
	old := s.Scenario().Tracker()

	s.Retrack(end, -1)
	r := s.Scenario()
	require.NotSame(t, old, r.Tracker(), "the story is followed anew")
	require.Equal(t, end, s.NowUs())
	require.True(t, r.Tracker().Done())
	require.Equal(t, r.Latest(), r.Shown())
	require.True(t, r.ShownDone())
	at := reachedAt(s)

	for k := 1; k < len(at); k++ {
		s.Retrack(int64(at[k]*1000), k)
		require.Equal(t, k, r.Shown(), "step %d shown", k)
		require.Equal(t, k, r.Step())
		require.Equal(t, at[:k+1], reachedAt(s)[:k+1], "step %d", k)
		require.Equal(t, at[k], float64(s.NowUs())/1000, "stopped where step %d was reached", k)
		require.NoError(t, r.Tracker().Untrue(k, s.World()), "step %d", k)
	}

	// Back to the start, the first step is shown.
	s.Retrack(0, -1)
	require.Zero(t, s.NowUs())
	require.Zero(t, r.Shown())
}

// actionSteps are the steps of s's story reached at the time of one of
// its script's actions, by when.
func actionSteps(s *Session) map[int]float64 {
	acts := scriptTimes(s.Scenario())
	out := map[int]float64{}
	for k, ms := range reachedAt(s) {
		if k > 0 && acts[ms] {
			out[k] = ms
		}
	}
	return out
}

// Followed again over the recorded run, by Retrack or by playing behind
// the head, the story reaches a step an action brought about at that
// action, as it did the first time: replay shows the world right after
// each recorded action, not only after events.
func TestReplayReachesStepsAtTheActionsAsTheFirstTime(t *testing.T) {
	checked := 0
	for _, id := range scenarios.IDs() {
		s := playing(t, id)
		end := s.Scenario().ScriptEndUs()
		playToEnd(t, s)
		first := actionSteps(s)
		checked += len(first)

		s.Retrack(end, -1)
		again := reachedAt(s)
		for k, ms := range first {
			require.Equal(t, ms, again[k], "%s retracked, step %d", id, k)
		}

		s.Retrack(0, -1)
		playToEnd(t, s)
		again = reachedAt(s)
		for k, ms := range first {
			require.Equal(t, ms, again[k], "%s played behind the head, step %d", id, k)
		}
	}
	require.Positive(t, checked)
}

// In free play there is no story: Retrack shows the moment asked for.
func TestRetrackInFreePlayShowsTheMoment(t *testing.T) {
	s := free(t, 3)
	_, err := s.Advance(3_000_000, -1)
	require.NoError(t, err)
	s.Retrack(1_000_000, -1)
	require.Equal(t, int64(1_000_000), s.NowUs())
}
