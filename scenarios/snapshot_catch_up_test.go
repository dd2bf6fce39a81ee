package scenarios

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"raftlab/raftcore"
)

// TestSnapshotCatchUpSendsASnapshotNotEntries: in both variants etcd-1
// compacts past etcd-3, sends it a snapshot (which takes longer on the
// slow links than an append of entries), and etcd-3 ends with etcd-1's
// state. With snapshots off, the same run catches etcd-3 up with entries
// alone: the snapshot is what the figure's settings make happen.
func TestSnapshotCatchUpSendsASnapshotNotEntries(t *testing.T) {
	for _, behind := range []string{"being down", "a slow disk"} {
		s, err := Get("snapshot-catch-up")
		require.NoError(t, err)
		s, err = s.With("behind", behind)
		require.NoError(t, err)
		for seed := int64(1); seed <= 3; seed++ {
			w, r, err := s.Run(seed)
			require.NoError(t, err)
			require.True(t, r.Complete(s), "%s seed %d: %v", behind, seed, r.Texts)
			h := scan(w)
			require.NotEmpty(t, h.snaps, "%s seed %d", behind, seed)
			snap := h.snaps[0]
			assert.Equal(t, raftcore.NodeID(1), snap.from)
			assert.Equal(t, raftcore.NodeID(3), snap.to)
			require.Positive(t, snap.arriveUs)
			app := h.lastApp[3]
			require.Positive(t, app.arriveUs)
			assert.Greater(t, snap.arriveUs-snap.sentUs, app.arriveUs-app.sentUs, "%s seed %d: the snapshot is not slower than an append", behind, seed)
			assert.True(t, sameState(w, 1, 3), "%s seed %d: etcd-3 does not hold etcd-1's state", behind, seed)
			assert.Greater(t, w.Node(3).FirstIndex(), uint64(1))

			off := *s
			off.Base.SnapshotCount = 0
			w, _, err = off.Run(seed)
			require.NoError(t, err)
			assert.Empty(t, scan(w).snaps, "%s seed %d: with snapshots off a snapshot was sent", behind, seed)
			assert.True(t, sameState(w, 1, 3), "%s seed %d: with snapshots off etcd-3 did not catch up from entries", behind, seed)
		}
	}
}
