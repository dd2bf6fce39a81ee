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

// TestNodeLeaseSeedsFoundByReview plays the runs a review found wrong:
// at 2 s / 6 s on seeds 69 and 79 the controller read a renewal before
// the kubelet heard it had taken, so a mark measured from the answer
// seemed to come inside the grace period; at 20 s / 100 s on seed 14 a
// spurious mark came after the last step had said there was none. Each
// must make its point, and a last step that says no node was marked must
// end a run without a spurious mark.
func TestNodeLeaseSeedsFoundByReview(t *testing.T) {
	for _, c := range []struct {
		timing string
		seed   int64
	}{{"2 s / 6 s", 69}, {"2 s / 6 s", 79}, {"20 s / 100 s", 14}} {
		s, _ := Get("node-lease")
		s, _ = s.With("timing", c.timing)
		w, res, err := s.Run(c.seed)
		if err != nil || res.Expect != nil {
			t.Fatalf("%s seed %d: %v %v", c.timing, c.seed, err, res.Expect)
		}
		said := res.Texts[len(res.Texts)-1]
		if n := w.KubeCounts().SpuriousNotReady; strings.Contains(said, "no node marked NotReady") && n != 0 {
			t.Errorf("%s seed %d: the last step said %q and the run ended with %d spurious NotReady", c.timing, c.seed, said, n)
		}
	}
}

// TestNodeLeaseSlowWithALongMonitorPeriod: a controller that looks less
// often than the kubelet renews is still on time when it marks at its
// first look past the grace period, so the slow-NotReady check flags
// nothing (its deadline allows two looks).
func TestNodeLeaseSlowWithALongMonitorPeriod(t *testing.T) {
	s, _ := Get("node-lease")
	s, _ = s.With("network", "calm")
	s.Base.Kube.MonitorMs = 20000
	for seed := int64(1); seed <= 3; seed++ {
		w, _, err := s.Run(seed)
		if err != nil {
			t.Fatal(err)
		}
		if n := w.KubeCounts().SlowNotReady; n != 0 {
			t.Errorf("seed %d: %d slow NotReady with a 20 s monitor period", seed, n)
		}
	}
}
