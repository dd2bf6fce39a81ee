package scenarios

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"raftlab/raftcore"
)

// TestReconcileOutcomeByIdempotence plays the reconcile figure on three
// seeds with each setting of its knob: idempotent, the repeated reconcile
// finds its ReplicaSet already made and the store ends with one; without
// idempotence it ends with two and the check counts one created twice.
// Either way the informer re-listed and its cache ends as the store is.
func TestReconcileOutcomeByIdempotence(t *testing.T) {
	for _, idem := range []string{idempotentOn, idempotentOff} {
		s := reconcileWith(t, idem)
		for seed := int64(1); seed <= 3; seed++ {
			w, r, err := s.Run(seed)
			require.NoError(t, err)
			require.Len(t, r.StepsReached, len(s.Steps), "idempotence %s, seed %d: the story did not end", idem, seed)
			require.NoError(t, r.Expect, "idempotence %s, seed %d", idem, seed)
			c, _ := rcCtl(w)
			assert.Equal(t, 1, c.Informer.Relists, "idempotence %s, seed %d", idem, seed)
			rs := len(storeReplicaSets(w))
			want := map[string]int{idempotentOn: 1, idempotentOff: 2}[idem]
			assert.Equal(t, want, rs, "idempotence %s, seed %d: ReplicaSets in the store", idem, seed)
			assert.Equal(t, want-1, w.ReconcileCounts().Duplicates, "idempotence %s, seed %d", idem, seed)
		}
	}
}

// TestReconcileNeedsItsCut: without the watch cut the ReplicaSet's event
// reaches the cache before the repeat, which then finds it there and does
// nothing, idempotent or not; the figure's check says its point was not
// made, and the step that says the watch was cut is never reached.
func TestReconcileNeedsItsCut(t *testing.T) {
	for _, idem := range []string{idempotentOn, idempotentOff} {
		s := reconcileWith(t, idem)
		var kept []raftcore.Action
		for _, a := range s.Script {
			if a.Do != raftcore.DoWatchCut {
				kept = append(kept, a)
			}
		}
		require.Len(t, kept, len(s.Script)-1)
		s.Script = kept
		w, r, err := s.Run(1)
		require.NoError(t, err)
		assert.Less(t, len(r.StepsReached), len(s.Steps), "idempotence %s: the story ended without the cut", idem)
		assert.Error(t, r.Expect, "idempotence %s: the figure's check passed without the cut", idem)
		assert.Zero(t, w.ReconcileCounts().Duplicates, "idempotence %s", idem)
	}
}

// reconcileWith is the reconcile figure with its idempotence knob set.
func reconcileWith(t *testing.T, idem string) *Scenario {
	t.Helper()
	s, err := Get("reconcile")
	require.NoError(t, err)
	s, err = s.With("idempotence", idem)
	require.NoError(t, err)
	return s
}
