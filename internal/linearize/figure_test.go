package linearize_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"raftlab/internal/linearize"
	"raftlab/raftcore"
	"raftlab/scenarios"
)

// TestCapReadsVerdicts plays the cap-reads figure over many seeds: porcupine
// passes every read except the local read on the minority side, which it
// calls stale for missing the write the majority committed during the split.
func TestCapReadsVerdicts(t *testing.T) {
	s, err := scenarios.Get("cap-reads")
	require.NoError(t, err)
	for seed := int64(1); seed <= 30; seed++ {
		w, res, err := s.Run(seed)
		require.NoError(t, err)
		require.NoError(t, res.Expect, "seed %d", seed)
		r := linearize.Check(w.Ops())
		stale := r.Stale()
		require.Len(t, stale, 1, "seed %d: %+v", seed, r.Reads)
		read, _ := w.Op(stale[0].Op)
		missed, _ := w.Op(stale[0].Missed)
		assert.Equal(t, raftcore.ReadLocal, read.Mode, "seed %d", seed)
		assert.True(t, read.Split, "seed %d: the stale read was made during the split", seed)
		assert.Equal(t, "replicas=4", missed.Value, "seed %d", seed)
		for _, v := range r.Reads {
			if op, _ := w.Op(v.Op); op.Mode == raftcore.ReadLinearizable && op.Result == raftcore.OpOK {
				assert.Equal(t, linearize.Linearizable, v.Verdict, "seed %d: read %d", seed, v.Op)
			}
		}
	}
}
