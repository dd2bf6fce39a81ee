package scenarios

import (
	"strings"
	"testing"

	"raftlab/raftcore"
)

// TestNodeLeaseCrashAndCutLookAlike plays node-lease at the lesson's
// intervals on three seeds: the crashed worker and the cut-off one are
// each marked NotReady no sooner than the grace period after their last
// renewal and within grace, one interval and one look of their failure,
// and the two marks come as long after the last renewal give or take two
// looks of the controller (it sees a renewal at its next look, and
// judges at a look).
func TestNodeLeaseCrashAndCutLookAlike(t *testing.T) {
	s, _ := Get("node-lease")
	tm := leaseTimings[s.Setting("timing")]
	at := leaseTimesFor(tm)
	graceUs, renewUs, monitorUs := int64(tm.grace)*1000, int64(tm.renew)*1000, int64(tm.monitor)*1000
	for seed := int64(1); seed <= 3; seed++ {
		w, res, err := s.Run(seed)
		if err != nil || res.Expect != nil {
			t.Fatalf("seed %d: %v %v", seed, err, res.Expect)
		}
		var sinceRenewal []int64
		for _, f := range []struct {
			id   raftcore.NodeID
			atUs int64
		}{{crashedWorker, ms2us(at.crash)}, {cutWorker, ms2us(at.cut)}} {
			m, ok := markedAt(w, f.id, raftcore.KubeMarkNotReady, f.atUs)
			if !ok {
				t.Fatalf("seed %d: %s never NotReady", seed, workerName(f.id))
			}
			r := m - lastRenewal(w, f.id, m)
			if r < graceUs || m-f.atUs > graceUs+renewUs+monitorUs+raftcore.JudgeSlackUs {
				t.Errorf("seed %d: %s NotReady %.1f s after its last renewal, %.1f s after it failed", seed, workerName(f.id), float64(r)/1e6, float64(m-f.atUs)/1e6)
			}
			sinceRenewal = append(sinceRenewal, r)
		}
		if d := sinceRenewal[0] - sinceRenewal[1]; d > 2*monitorUs+raftcore.JudgeSlackUs || -d > 2*monitorUs+raftcore.JudgeSlackUs {
			t.Errorf("seed %d: the crash took %.1f s from the last renewal, the cut %.1f s: more than two looks apart", seed, float64(sinceRenewal[0])/1e6, float64(sinceRenewal[1])/1e6)
		}
	}
}

// TestNodeLeaseTuning: on the noisy network a 6 s grace period marks a
// live node NotReady on every seed, and on a calm one no grace period
// does.
func TestNodeLeaseTuning(t *testing.T) {
	s, _ := Get("node-lease")
	for _, v := range []struct {
		timing, network string
		spurious        bool
	}{{"2 s / 6 s", "noisy", true}, {"2 s / 6 s", "calm", false}, {"10 s / 50 s", "calm", false}, {"20 s / 100 s", "calm", false}} {
		sv, _ := s.With("timing", v.timing)
		sv, _ = sv.With("network", v.network)
		for seed := int64(1); seed <= 3; seed++ {
			w, _, err := sv.Run(seed)
			if err != nil {
				t.Fatal(err)
			}
			if n := w.KubeCounts().SpuriousNotReady; (n > 0) != v.spurious {
				t.Errorf("%s on a %s network, seed %d: %d spurious NotReady", v.timing, v.network, seed, n)
			}
		}
	}
}

// TestNodeLeaseExpectCatchesAFigureWithoutItsCrash: the same figure with
// the crash taken out of its script does not make its point, and says so.
func TestNodeLeaseExpectCatchesAFigureWithoutItsCrash(t *testing.T) {
	s, _ := Get("node-lease")
	var kept []raftcore.Action
	for _, a := range s.Script {
		if a.Do != raftcore.DoCrash {
			kept = append(kept, a)
		}
	}
	s.Script = kept
	_, res, err := s.Run(1)
	if err != nil {
		t.Fatal(err)
	}
	if res.Expect == nil || !strings.Contains(res.Expect.Error(), "worker-1 was never marked NotReady") {
		t.Fatalf("a run without the crash made its point: %v", res.Expect)
	}
}
