package raftcore

import (
	"strings"
	"testing"
)

// kubeWorld3 is three members and three workers at the lesson's defaults.
func kubeConfig(seed int64) Config {
	cfg := DefaultConfig()
	cfg.Nodes, cfg.Seed, cfg.Workers = 3, seed, 3
	return cfg
}

const sec = int64(1_000_000)

// notReadyAt returns when worker id was first marked NotReady after from,
// from the trace; -1 if it was not.
func notReadyAt(w *World, id NodeID, from int64) int64 {
	name := w.cfg.WorkerName(id) + " NotReady"
	for _, e := range w.Trace() {
		if e.Kind == TraceKube && e.Node == id && e.Text == name && e.AtUs >= from {
			return e.AtUs
		}
	}
	return -1
}

// lastRenewalBefore is when worker id's renewal was last applied by a
// member before t: the renewal the controller saw last.
func lastRenewalBefore(w *World, id NodeID, t int64) int64 {
	last := int64(-1)
	for _, op := range w.Ops() {
		if op.Kube == KubeRenew && op.Worker == id && op.Result == OpOK && op.CompleteUs <= t {
			last = max(last, op.CompleteUs)
		}
	}
	return last
}

// A crashed, a paused and a cut-off kubelet's node is NotReady within the
// grace period and one renew interval of its death, and never before the
// grace period after its last renewal.
func TestDeadKubeletIsNotReadyWithinGraceAndOneInterval(t *testing.T) {
	for _, how := range []string{"crash", "pause", "partition"} {
		for seed := int64(1); seed <= 3; seed++ {
			w := MustWorld(kubeConfig(seed))
			w.RunFor(60 * sec)
			worker := hostOf(t, w, "web-1")
			if got := w.KubeCounts().Renewals; got < 10 {
				t.Fatalf("%s seed %d: %d renewals in the first minute, want at least 10", how, seed, got)
			}
			if n := notReadyAt(w, worker, 0); n >= 0 {
				t.Fatalf("%s seed %d: worker NotReady at %d before anything happened", how, seed, n)
			}
			dead := w.Now()
			switch how {
			case "crash":
				mustApply(t, w, Action{Do: DoCrash, Node: int(worker)})
			case "pause":
				mustApply(t, w, Action{Do: DoPause, Node: int(worker)})
			case "partition":
				var rest []int
				for id := 1; id <= w.cfg.Machines(); id++ {
					if id != int(worker) {
						rest = append(rest, id)
					}
				}
				mustApply(t, w, Action{Do: DoPartition, Groups: [][]int{rest, {int(worker)}}})
			}
			w.RunFor(90 * sec)
			at := notReadyAt(w, worker, dead)
			if at < 0 {
				t.Fatalf("%s seed %d: never marked NotReady", how, seed)
			}
			set := w.kube.set
			if at > dead+set.GraceUs+set.RenewUs+JudgeSlackUs {
				t.Errorf("%s seed %d: NotReady %.1f s after death, later than grace + one interval", how, seed, float64(at-dead)/1e6)
			}
			if last := lastRenewalBefore(w, worker, at); at < last+set.GraceUs {
				t.Errorf("%s seed %d: NotReady %.1f s after the last renewal, before the grace period", how, seed, float64(at-last)/1e6)
			}
			for id := NodeID(4); id <= 6; id++ {
				if n := notReadyAt(w, id, 0); id != worker && n >= 0 {
					t.Errorf("%s seed %d: live worker %d marked NotReady at %d", how, seed, id, n)
				}
			}
			if c := w.KubeCounts(); c.SpuriousNotReady+c.SlowNotReady != 0 {
				t.Errorf("%s seed %d: findings %+v", how, seed, w.KubeFindings())
			}
			for _, a := range w.Ask(nodeKey + w.cfg.WorkerName(worker)) {
				if a.Value != "ready=unknown" {
					t.Errorf("%s seed %d: machine %d holds %s's condition as %q", how, seed, a.Node, w.cfg.WorkerName(worker), a.Value)
				}
			}
			if w.KubeCounts().Evictions == 0 {
				t.Errorf("%s seed %d: no Pod moved off the dead node", how, seed)
			}
			// A crashed node's Pods die with it; a paused or cut-off one
			// still holds them when they start elsewhere.
			if twice := w.KubeCounts().PodTwice; (how == "crash") != (twice == 0) {
				t.Errorf("%s seed %d: %d Pods ran twice", how, seed, twice)
			}
			t.Logf("%s seed %d: NotReady %.1f s after death; counts %+v", how, seed, float64(at-dead)/1e6, w.KubeCounts())
		}
	}
}

// hostOf is the worker that runs pod p.
func hostOf(t *testing.T, w *World, p string) NodeID {
	t.Helper()
	s, _ := w.Kube()
	for _, n := range s.Nodes {
		for _, q := range n.Pods {
			if q == p {
				return n.ID
			}
		}
	}
	t.Fatalf("no worker runs %s: %+v", p, s.Nodes)
	return 0
}

func TestKubeTraceShows(t *testing.T) {
	w := MustWorld(kubeConfig(1))
	w.RunFor(30 * sec)
	var texts []string
	for _, e := range w.Trace() {
		if e.Kind == TraceKube {
			texts = append(texts, e.Text)
		}
	}
	if !strings.Contains(strings.Join(texts, "\n"), "start pod web-1") {
		t.Fatalf("no pod started: %q", texts)
	}
}

// splitEtcd cuts every link between members, so that no side has a
// quorum while every kubelet still reaches every API server.
func splitEtcd(t *testing.T, w *World) {
	for a := 1; a <= w.cfg.Nodes; a++ {
		for b := a + 1; b <= w.cfg.Nodes; b++ {
			mustApply(t, w, Action{Do: DoCut, From: a, To: b})
		}
	}
}

// With etcd below quorum no Lease can be renewed and the controller cannot
// read them; it concludes nothing, during the outage or after it. The
// controller that judges on what it saw last marks every live node
// NotReady, and the spurious check says so.
func TestNoQuorumMarksNoNodeNotReady(t *testing.T) {
	for seed := int64(1); seed <= 3; seed++ {
		for _, bug := range []Bug{0, BugKubeConcludeBlind} {
			cfg := kubeConfig(seed)
			cfg.Bugs = bug
			w := MustWorld(cfg)
			w.RunFor(60 * sec)
			before := w.KubeCounts()
			splitEtcd(t, w)
			w.RunFor(120 * sec)
			during := w.KubeCounts()
			if during.Renewals-before.Renewals > 3 {
				t.Errorf("seed %d: %d renewals without quorum", seed, during.Renewals-before.Renewals)
			}
			mustApply(t, w, Action{Do: DoHeal})
			w.RunFor(120 * sec)
			c := w.KubeCounts()
			if bug == 0 {
				if c.NotReady != 0 || c.SpuriousNotReady != 0 || c.Evictions != 0 {
					t.Errorf("seed %d: a controller that cannot read concluded: %+v", seed, c)
				}
				if c.LooksFailed == 0 {
					t.Errorf("seed %d: no read failed without quorum", seed)
				}
				continue
			}
			if c.SpuriousNotReady == 0 {
				t.Errorf("seed %d: the blind controller's marks were not flagged: %+v", seed, c)
			}
		}
	}
}

// A controller that compares the kubelet's clock with its own marks a live
// node whose clock runs slow NotReady (spurious) and a dead node whose
// clock ran fast too late (slow); the real one does neither.
func TestControllerUsesItsOwnClock(t *testing.T) {
	for seed := int64(1); seed <= 3; seed++ {
		for _, bug := range []Bug{0, BugKubeTrustKubeletClock} {
			cfg := kubeConfig(seed)
			cfg.Bugs = bug
			w := MustWorld(cfg)
			mustApply(t, w, Action{Do: DoDrift, Node: 4, Rate: 0.5})
			mustApply(t, w, Action{Do: DoDrift, Node: 5, Rate: 3})
			w.RunFor(150 * sec)
			mustApply(t, w, Action{Do: DoCrash, Node: 5})
			w.RunFor(150 * sec)
			c := w.KubeCounts()
			if bug == 0 {
				if c.SpuriousNotReady+c.SlowNotReady != 0 || notReadyAt(w, 5, 0) < 0 {
					t.Errorf("seed %d: %+v %+v", seed, c, w.KubeFindings())
				}
				continue
			}
			if c.SpuriousNotReady == 0 || c.SlowNotReady == 0 {
				t.Errorf("seed %d: trusting the kubelet's clock went unflagged: %+v", seed, c)
			}
		}
	}
}

// When most nodes look NotReady at once the zone is disrupted and nothing
// is evicted: the Pods of nodes cut off from the control plane, which
// still run them, are not started elsewhere. A controller that evicts
// anyway runs them twice.
func TestDisruptionStopsEvictions(t *testing.T) {
	for seed := int64(1); seed <= 3; seed++ {
		for _, bug := range []Bug{0, BugKubeEvictInDisruption} {
			cfg := kubeConfig(seed)
			// With no eviction delay the first node's Pods would move before
			// the controller saw the others expire; Kubernetes' 300 s
			// toleration leaves the zone's state time to settle.
			cfg.Workers, cfg.Kube.Pods, cfg.Kube.EvictMs, cfg.Bugs = 4, 8, 20000, bug
			w := MustWorld(cfg)
			w.RunFor(60 * sec)
			mustApply(t, w, Action{Do: DoPartition, Groups: [][]int{{1, 2, 3, 4}, {5, 6, 7}}})
			w.RunFor(120 * sec)
			c := w.KubeCounts()
			if c.NotReady != 3 || c.SlowNotReady+c.SpuriousNotReady != 0 {
				t.Errorf("seed %d bug %d: %+v", seed, bug, c)
			}
			if s, _ := w.Kube(); s.Zone != "PartialDisruption" {
				t.Errorf("seed %d: zone %s", seed, s.Zone)
			}
			if bug == 0 {
				if c.Evictions != 0 || c.PodTwice != 0 {
					t.Errorf("seed %d: evicted in a disrupted zone: %+v", seed, c)
				}
				continue
			}
			if c.PodTwice == 0 {
				t.Errorf("seed %d: evicting in disruption went unflagged: %+v", seed, c)
			}
		}
	}
}

// The same seed gives the same trace, and a schedule of the run replays
// it exactly.
func TestKubeDeterministicAndReplayable(t *testing.T) {
	run := func() *World {
		w := MustWorld(kubeConfig(7))
		w.RunFor(30 * sec)
		mustApply(t, w, Action{Do: DoCrash, Node: 4})
		mustApply(t, w, Action{Do: DoDrift, Node: 6, Rate: 1.5})
		mustApply(t, w, Action{Do: DoCut, From: 5, To: 1})
		w.RunFor(70 * sec)
		mustApply(t, w, Action{Do: DoRestart, Node: 4})
		mustApply(t, w, Action{Do: DoPause, Node: 5})
		w.RunFor(40 * sec)
		mustApply(t, w, Action{Do: DoResume, Node: 5})
		w.RunFor(20 * sec)
		return w
	}
	a, b := run(), run()
	if a.TraceHash() != b.TraceHash() || a.TraceCount() != b.TraceCount() {
		t.Fatalf("two runs of one seed differ: %x/%d and %x/%d", a.TraceHash(), a.TraceCount(), b.TraceHash(), b.TraceCount())
	}
	if a.KubeCounts().NotReady == 0 || a.KubeCounts().ReadyAgain == 0 {
		t.Fatalf("the run shows too little: %+v", a.KubeCounts())
	}
	r, err := a.Schedule().Run()
	if err != nil {
		t.Fatal(err)
	}
	if r.TraceHash() != a.TraceHash() || r.KubeCounts() != a.KubeCounts() {
		t.Fatalf("replay differs: %+v vs %+v", r.KubeCounts(), a.KubeCounts())
	}
	c := a.Clone()
	a.RunFor(10 * sec)
	c.RunFor(10 * sec)
	if a.TraceHash() != c.TraceHash() {
		t.Fatal("a clone went its own way")
	}
}

// A controller paused across a dead node's deadline marks it within a
// monitor period of resuming (it looks at once with its old memory, as a
// real one would), and the slow check gives it that period and no more.
func TestPausedControllerMarksOnResume(t *testing.T) {
	for seed := int64(1); seed <= 3; seed++ {
		w := MustWorld(kubeConfig(seed))
		w.RunFor(30 * sec)
		mustApply(t, w, Action{Do: DoCrash, Node: 5})
		w.RunFor(30 * sec)
		mustApply(t, w, Action{Do: DoPause, Node: 1})
		w.RunFor(90 * sec)
		if n := notReadyAt(w, 5, 0); n >= 0 {
			t.Fatalf("seed %d: a paused controller marked at %d", seed, n)
		}
		resumed := w.Now()
		mustApply(t, w, Action{Do: DoResume, Node: 1})
		w.RunFor(30 * sec)
		at := notReadyAt(w, 5, 0)
		if at < 0 || at > resumed+w.kube.set.MonitorUs+JudgeSlackUs {
			t.Errorf("seed %d: marked %d µs after the resume", seed, at-resumed)
		}
		if c := w.KubeCounts(); c.SlowNotReady+c.SpuriousNotReady != 0 {
			t.Errorf("seed %d: %+v", seed, w.KubeFindings())
		}
	}
}

// Lease tuning: on a network that loses a fifth of the messages between
// the workers and the control plane, a short lease and grace mark live
// nodes NotReady (spurious), while Kubernetes' defaults ride it out. (A
// lost request costs its kubelet a renew interval, the time it waits for
// an answer, so at 40% loss even the defaults mark a node now and then.)
func TestShortLeaseOnNoisyNetworkIsSpurious(t *testing.T) {
	spurious := map[bool]int{}
	for seed := int64(1); seed <= 3; seed++ {
		for _, short := range []bool{false, true} {
			cfg := kubeConfig(seed)
			if short {
				cfg.Kube.RenewMs, cfg.Kube.GraceMs, cfg.Kube.MonitorMs = 1000, 2000, 500
			}
			w := MustWorld(cfg)
			loss := 0.2
			for wk := 4; wk <= 6; wk++ {
				for m := 1; m <= 3; m++ {
					mustApply(t, w, Action{Do: DoLoss, From: wk, To: m, Loss: &loss})
				}
			}
			w.RunFor(300 * sec)
			c := w.KubeCounts()
			if c.SlowNotReady != 0 {
				t.Errorf("seed %d short %v: %+v", seed, short, c)
			}
			spurious[short] += c.SpuriousNotReady
		}
	}
	t.Logf("spurious NotReady with the defaults: %d; with a short lease: %d", spurious[false], spurious[true])
	if spurious[false] != 0 || spurious[true] == 0 {
		t.Fatalf("spurious NotReady with the defaults: %d; with a short lease: %d", spurious[false], spurious[true])
	}
}

// Bad schedules with workers are refused with an error naming the field.
func TestKubeScheduleErrors(t *testing.T) {
	cases := []struct{ json, want string }{
		{`{"nodes":3,"workers":11,"until_ms":1,"actions":[]}`, "workers: 11 is out of range: use 0 to 10"},
		{`{"nodes":3,"workers":2,"kube":{"grace_ms":5},"until_ms":1,"actions":[]}`, "kube.grace_ms: 5 is out of range"},
		{`{"nodes":3,"workers":2,"kube":{"grace":5},"until_ms":1,"actions":[]}`, `kube: unknown field "grace"; known fields: renew_ms, grace_ms`},
		{`{"nodes":3,"workers":2,"kube":{"controller_node":4},"until_ms":1,"actions":[]}`, "kube.controller_node: 4 is out of range: use 1 to 3"},
		{`{"nodes":3,"workers":2,"protocol":"failover","until_ms":1,"actions":[]}`, "workers: kubelets need the raft protocol"},
		{`{"nodes":3,"workers":2,"until_ms":1,"actions":[{"at_ms":0,"do":"crash","node":6}]}`, "actions[0].node: 6 is out of range: use 1 to 5"},
		{`{"nodes":3,"workers":2,"until_ms":1,"actions":[{"at_ms":0,"do":"timeout","node":4}]}`, "actions[0].node: 4 is out of range: use 1 to 3"},
		{`{"nodes":3,"workers":2,"until_ms":1,"actions":[{"at_ms":0,"do":"read","node":4,"key":"k"}]}`, "actions[0].node: 4 is out of range: use 1 to 3"},
		{`{"nodes":3,"until_ms":1,"actions":[{"at_ms":0,"do":"crash","node":4}]}`, "actions[0].node: 4 is out of range: use 1 to 3"},
	}
	for _, c := range cases {
		_, err := ParseSchedule([]byte(c.json))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.json, err, c.want)
		}
	}
	s, err := ParseSchedule([]byte(`{"nodes":3,"workers":2,"kube":{"grace_ms":20000},"until_ms":1000,"actions":[{"at_ms":0,"do":"partition","groups":[[1,2,3,4],[5]]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if cfg := s.Config(); cfg.Workers != 2 || cfg.Kube.GraceMs != 20000 || cfg.Kube.RenewMs != 10000 {
		t.Fatalf("config %+v", cfg)
	}
}

// A restarted controller takes a node's condition from the store: a dead
// node marked NotReady before the crash stays NotReady, without a second
// mark and without turning Ready on the controller's fresh memory.
func TestRestartedControllerKeepsNotReady(t *testing.T) {
	for seed := int64(1); seed <= 3; seed++ {
		w := MustWorld(kubeConfig(seed))
		w.RunFor(30 * sec)
		mustApply(t, w, Action{Do: DoCrash, Node: 6})
		w.RunFor(70 * sec)
		if notReadyAt(w, 6, 0) < 0 {
			t.Fatalf("seed %d: not marked", seed)
		}
		mustApply(t, w, Action{Do: DoCrash, Node: 1})
		w.RunFor(5 * sec)
		mustApply(t, w, Action{Do: DoRestart, Node: 1})
		w.RunFor(90 * sec)
		c := w.KubeCounts()
		if c.NotReady != 1 || c.ReadyAgain != 0 || c.SlowNotReady+c.SpuriousNotReady != 0 {
			t.Errorf("seed %d: %+v %+v", seed, c, w.KubeFindings())
		}
		if s, _ := w.Kube(); !s.Nodes[2].NotReady {
			t.Errorf("seed %d: the restarted controller holds worker-3 Ready", seed)
		}
	}
}

// The node lifecycle controller finds its read by id when the client
// history is bounded (as the app bounds it) and has forgotten older
// operations: a crashed kubelet's node is still marked NotReady, and no
// live one is. It noted its read as the history's length plus one, which
// is not the read's id once the history forgets.
func TestKubeWithABoundedHistory(t *testing.T) {
	cfg := kubeConfig(1)
	cfg.HistoryLimit = 8
	w := MustWorld(cfg)
	w.RunFor(60 * sec)
	if w.ForgottenOps().Count == 0 {
		t.Fatal("the history forgot nothing in a minute: the test proves nothing")
	}
	worker := hostOf(t, w, "web-1")
	dead := w.Now()
	mustApply(t, w, Action{Do: DoCrash, Node: int(worker)})
	w.RunFor(90 * sec)
	if at := notReadyAt(w, worker, dead); at < 0 || at > dead+w.kube.set.GraceUs+w.kube.set.RenewUs+JudgeSlackUs {
		t.Fatalf("crashed worker marked NotReady at %d (crashed at %d)", at, dead)
	}
	for id := NodeID(4); id <= 6; id++ {
		if n := notReadyAt(w, id, 0); id != worker && n >= 0 {
			t.Errorf("live worker %d marked NotReady at %d", id, n)
		}
	}
	if c := w.KubeCounts(); c.SpuriousNotReady+c.SlowNotReady != 0 {
		t.Errorf("findings %+v", w.KubeFindings())
	}
}

// With a bounded history, the operations forgotten are tallied by which
// part of Kubernetes made them: in a run where only Kubernetes asks, the
// tallies add up to every forgotten operation and every success.
func TestForgottenKubeOpsAreTallied(t *testing.T) {
	cfg := kubeConfig(1)
	cfg.HistoryLimit = 40
	w := MustWorld(cfg)
	w.RunFor(120 * sec)
	f := w.ForgottenOps()
	var sum OpTally
	for u, k := range f.Kube {
		if KubeUse(u) == KubeNone && k.Count != 0 {
			t.Errorf("%d forgotten operations tallied as no one's", k.Count)
		}
		sum.Count, sum.OK, sum.Failed, sum.Conflict = sum.Count+k.Count, sum.OK+k.OK, sum.Failed+k.Failed, sum.Conflict+k.Conflict
	}
	if f.Count == 0 || f.Kube[KubeRenew].Count == 0 || f.Kube[KubeLook].Count == 0 {
		t.Fatalf("too little forgotten to judge: %+v", f)
	}
	if sum.Count != f.Count || sum.OK != f.OK || sum.Failed != f.Timeout+f.Refused || sum.Conflict != f.Conflict {
		t.Errorf("the tallies %+v do not add up to %+v", sum, f)
	}
}

// The age of a renewal as the controller sees it stays under the grace
// period while the kubelet renews, and the node goes NotReady at the first
// look after it passes the grace period.
func TestLeaseAgeIsTheControllersAndRunsOutAtNotReady(t *testing.T) {
	w := MustWorld(kubeConfig(1))
	w.RunFor(60 * sec)
	worker := hostOf(t, w, "web-1")
	set := w.kube.set
	for i := 0; i < 40; i++ {
		w.RunFor(sec / 2)
		age, ok := w.KubeLeaseAge(worker)
		if !ok || age < 0 || age > set.RenewUs+set.MonitorUs+JudgeSlackUs {
			t.Fatalf("a renewing kubelet's lease age is %d (seen %v), want under one interval and one look", age, ok)
		}
	}
	if w.KubeBlind() {
		t.Fatal("the controller is blind with every member up")
	}
	mustApply(t, w, Action{Do: DoCrash, Node: int(worker)})
	dead := w.Now()
	w.RunFor(90 * sec)
	at := notReadyAt(w, worker, dead)
	if at < 0 {
		t.Fatal("never marked NotReady")
	}
	age, _ := w.KubeLeaseAge(worker)
	if want := w.Now() - at; age <= set.GraceUs+want-set.MonitorUs-JudgeSlackUs || age < set.GraceUs {
		t.Fatalf("lease age %.1f s, %.1f s after NotReady: it should have passed the %.0f s grace period then", float64(age)/1e6, float64(want)/1e6, float64(set.GraceUs)/1e6)
	}
	if _, ok := w.KubeLeaseAge(NodeID(1)); ok {
		t.Fatal("a member has a lease age")
	}
}
