package scenarios

import (
	"strings"
	"testing"

	"raftlab/raftcore"
)

// TestQuorumLossMarksNoNodeNotReady: on three seeds, while etcd has no
// quorum no renewal commits, the controller's reads fail and it marks no
// node NotReady; every kubelet renews again after the heal. A controller
// that judges on the Leases it read last (raftcore.BugKubeConcludeBlind)
// marks every node NotReady: the figure's Expect says so, and its story
// does not go on to say that the controller concluded nothing.
func TestQuorumLossMarksNoNodeNotReady(t *testing.T) {
	for seed := int64(1); seed <= 3; seed++ {
		_, w, r := mustRun(t, "quorum-and-leases", seed)
		c := w.KubeCounts()
		if c.NotReady != 0 || c.Evictions != 0 || c.LooksFailed == 0 || c.RenewFailures == 0 {
			t.Fatalf("seed %d: counts %+v", seed, c)
		}
		if !strings.Contains(r.Final, "marked no node NotReady") {
			t.Fatalf("seed %d: closing line %q", seed, r.Final)
		}

		s, err := Get("quorum-and-leases")
		if err != nil {
			t.Fatal(err)
		}
		s.Base.Bugs |= raftcore.BugKubeConcludeBlind
		bw, br, err := s.Run(seed)
		if err != nil {
			t.Fatal(err)
		}
		if br.Expect == nil || !strings.Contains(br.Expect.Error(), "concluded without a quorum") {
			t.Fatalf("seed %d: a blind controller's marks pass the figure's Expect: %v", seed, br.Expect)
		}
		if bw.KubeCounts().NotReady < 3 {
			t.Fatalf("seed %d: the blind controller marked only %d nodes", seed, bw.KubeCounts().NotReady)
		}
		if br.Complete(s) {
			t.Fatalf("seed %d: the story told of a controller that concludes nothing, with one that marked every node", seed)
		}
	}
}
