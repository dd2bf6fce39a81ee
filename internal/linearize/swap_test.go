package linearize

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"raftlab/raftcore"
)

// casRun plays raftcore/testdata/cas-conflict.json, with the deliberate
// bugs given: a write, a swap expecting a revision the key never had, a
// read, a swap expecting the current revision, a read; and on a second
// key two swaps that both expect it absent.
func casRun(t *testing.T, bugs raftcore.Bug) *raftcore.World {
	t.Helper()
	data, err := os.ReadFile("../../raftcore/testdata/cas-conflict.json")
	require.NoError(t, err)
	s, err := raftcore.ParseSchedule(data)
	require.NoError(t, err)
	cfg := s.Config()
	cfg.Bugs = bugs
	w, err := raftcore.NewWorld(cfg)
	require.NoError(t, err)
	require.NoError(t, w.Play(s.Actions))
	w.RunUntil(int64(s.UntilMs * 1000))
	return w
}

// TestCorrectSwapsAreLinearizable: in the correct run the two failed swaps
// and the two that succeeded are all linearizable, and so is every read.
func TestCorrectSwapsAreLinearizable(t *testing.T) {
	w := casRun(t, 0)
	r := Check(w.Ops())
	assert.True(t, r.Linearizable())
	results := map[raftcore.OpResult]int{}
	for _, op := range w.Ops() {
		if op.Cas {
			results[op.Result]++
			assert.Equal(t, Linearizable, verdictOf(t, r, op.ID).Verdict, "swap %d", op.ID)
		}
	}
	assert.Equal(t, map[raftcore.OpResult]int{raftcore.OpOK: 2, raftcore.OpConflict: 2}, results)
}

// TestWronglySucceedingSwapIsCaught: with swaps applied without comparing
// the revision, the swap that expected revision 9 when the key was at 2
// succeeds, and porcupine, judging the history alone, names it.
func TestWronglySucceedingSwapIsCaught(t *testing.T) {
	w := casRun(t, raftcore.BugBlindSwap)
	swap, ok := w.Op(2)
	require.True(t, ok)
	require.Equal(t, raftcore.OpOK, swap.Result, "the blind swap succeeds")
	r := Check(w.Ops())
	assert.False(t, r.Linearizable())
	assert.Equal(t, ReadVerdict{Op: 2, Verdict: Stale, Missed: 1}, verdictOf(t, r, 2))
}
