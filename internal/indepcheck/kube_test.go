package indepcheck

import (
	"testing"

	"raftlab/raftcore"
)

const sec = 1_000_000

// kubeRun is one run with workers: a configuration and actions at times.
type kubeRun struct {
	name    string
	workers int
	bugs    raftcore.Bug
	evictMs int
	acts    []raftcore.Action // at_ms set
	untilMs float64
}

func (k kubeRun) play(t *testing.T, seed int64) *raftcore.World {
	t.Helper()
	cfg := raftcore.DefaultConfig()
	cfg.Nodes, cfg.Workers, cfg.Seed, cfg.Bugs = 3, k.workers, seed, k.bugs
	cfg.Kube.EvictMs = k.evictMs
	if k.workers > 3 {
		cfg.Kube.Pods = 2 * k.workers
	}
	w := raftcore.MustWorld(cfg)
	if err := w.Play(k.acts); err != nil {
		t.Fatalf("%s: %v", k.name, err)
	}
	w.RunUntil(int64(k.untilMs * 1000))
	return w
}

func cutEtcd(at float64) []raftcore.Action {
	return []raftcore.Action{
		{AtMs: at, Do: raftcore.DoCut, From: 1, To: 2},
		{AtMs: at, Do: raftcore.DoCut, From: 1, To: 3},
		{AtMs: at, Do: raftcore.DoCut, From: 2, To: 3},
	}
}

var kubeRuns = []kubeRun{
	{name: "crash", workers: 3, untilMs: 150000, acts: []raftcore.Action{{AtMs: 40000, Do: raftcore.DoCrash, Node: 5}}},
	{name: "pause and resume", workers: 3, untilMs: 200000, acts: []raftcore.Action{
		{AtMs: 40000, Do: raftcore.DoPause, Node: 4}, {AtMs: 150000, Do: raftcore.DoResume, Node: 4}}},
	{name: "cut off", workers: 3, untilMs: 200000, acts: []raftcore.Action{
		{AtMs: 40000, Do: raftcore.DoPartition, Groups: [][]int{{1, 2, 3, 4, 5}, {6}}}, {AtMs: 140000, Do: raftcore.DoHeal}}},
	{name: "no quorum", workers: 3, untilMs: 260000, acts: append(cutEtcd(60000), raftcore.Action{AtMs: 180000, Do: raftcore.DoHeal})},
	{name: "no quorum, blind controller", workers: 3, bugs: raftcore.BugKubeConcludeBlind, untilMs: 260000,
		acts: append(cutEtcd(60000), raftcore.Action{AtMs: 180000, Do: raftcore.DoHeal})},
	{name: "kubelet clocks", workers: 3, bugs: raftcore.BugKubeTrustKubeletClock, untilMs: 300000, acts: []raftcore.Action{
		{AtMs: 0, Do: raftcore.DoDrift, Node: 4, Rate: 0.5}, {AtMs: 0, Do: raftcore.DoDrift, Node: 5, Rate: 3},
		{AtMs: 150000, Do: raftcore.DoCrash, Node: 5}}},
	{name: "disruption", workers: 4, evictMs: 20000, bugs: raftcore.BugKubeEvictInDisruption, untilMs: 180000, acts: []raftcore.Action{
		{AtMs: 60000, Do: raftcore.DoPartition, Groups: [][]int{{1, 2, 3, 4}, {5, 6, 7}}}}},
	{name: "controller paused", workers: 3, untilMs: 200000, acts: []raftcore.Action{
		{AtMs: 30000, Do: raftcore.DoCrash, Node: 5}, {AtMs: 60000, Do: raftcore.DoPause, Node: 1},
		{AtMs: 150000, Do: raftcore.DoResume, Node: 1}}},
	{name: "controller crash", workers: 3, untilMs: 240000, acts: []raftcore.Action{
		{AtMs: 30000, Do: raftcore.DoCrash, Node: 6}, {AtMs: 50000, Do: raftcore.DoCrash, Node: 1},
		{AtMs: 90000, Do: raftcore.DoRestart, Node: 1}, {AtMs: 100000, Do: raftcore.DoPause, Node: 4},
		{AtMs: 130000, Do: raftcore.DoPause, Node: 1}, {AtMs: 170000, Do: raftcore.DoResume, Node: 1}}},
}

// TestKubeChecksAgree: on runs that exercise each kube check, and the
// deliberately broken controllers that make them fail, the independent
// count of every check is raftcore's.
func TestKubeChecksAgree(t *testing.T) {
	sawAll := KubeResult{}
	for _, k := range kubeRuns {
		for seed := int64(1); seed <= 3; seed++ {
			w := k.play(t, seed)
			got, err := CheckKube(w)
			if err != nil {
				t.Fatal(err)
			}
			c := w.KubeCounts()
			want := KubeResult{Spurious: c.SpuriousNotReady, Slow: c.SlowNotReady, Twice: c.PodTwice}
			if got != want {
				t.Errorf("%s seed %d: independently %+v, raftcore %+v (%+v)", k.name, seed, got, want, w.KubeFindings())
			}
			t.Logf("%s seed %d: %+v", k.name, seed, got)
			sawAll.Spurious += got.Spurious
			sawAll.Slow += got.Slow
			sawAll.Twice += got.Twice
		}
	}
	if sawAll.Spurious == 0 || sawAll.Slow == 0 || sawAll.Twice == 0 {
		t.Fatalf("some check never failed, so agreement says little: %+v", sawAll)
	}
}

// randomKubeRun plays faults on members and workers chosen from seed: each
// few seconds a crash, restart, pause, resume, cut, restore, partition,
// heal, drift or loss, on any machine, with one of the broken controllers
// now and then.
func randomKubeRun(t *testing.T, seed int64) *raftcore.World {
	r := raftcore.NewRand(seed)
	cfg := raftcore.DefaultConfig()
	cfg.Nodes, cfg.Workers, cfg.Seed = 3, 3+r.Intn(2), seed
	cfg.Kube.RenewMs, cfg.Kube.GraceMs, cfg.Kube.MonitorMs = 2000, 8000, 1000
	cfg.Kube.EvictMs = []int{0, 3000}[r.Intn(2)]
	cfg.Kube.ControllerNode = 1 + r.Intn(3)
	cfg.Bugs = []raftcore.Bug{0, 0, 0, raftcore.BugKubeTrustKubeletClock, raftcore.BugKubeConcludeBlind, raftcore.BugKubeEvictInDisruption}[r.Intn(6)]
	w := raftcore.MustWorld(cfg)
	total := cfg.Nodes + cfg.Workers
	machine := func() int { return 1 + r.Intn(total) }
	for w.Now() < 120*sec {
		w.RunFor(int64(1+r.Intn(6)) * sec)
		var a raftcore.Action
		switch k := r.Intn(10); k {
		case 0:
			a = raftcore.Action{Do: raftcore.DoCrash, Node: machine()}
		case 1:
			a = raftcore.Action{Do: raftcore.DoRestart, Node: machine()}
		case 2:
			a = raftcore.Action{Do: raftcore.DoPause, Node: machine()}
		case 3:
			a = raftcore.Action{Do: raftcore.DoResume, Node: machine()}
		case 4, 5:
			from := machine()
			to := 1 + (from+r.Intn(total-1))%total
			do := raftcore.DoCut
			if k == 5 {
				do = raftcore.DoRestore
			}
			a = raftcore.Action{Do: do, From: from, To: to, OneWay: r.Chance(0.3)}
		case 6:
			var g [2][]int
			for id := 1; id <= total; id++ {
				i := r.Intn(2)
				g[i] = append(g[i], id)
			}
			a = raftcore.Action{Do: raftcore.DoPartition, Groups: [][]int{g[0], g[1]}}
		case 7:
			a = raftcore.Action{Do: raftcore.DoHeal}
		case 8:
			a = raftcore.Action{Do: raftcore.DoDrift, Node: machine(), Rate: []float64{0.5, 1, 2}[r.Intn(3)]}
		case 9:
			loss := []float64{0, 0.2, 0.5}[r.Intn(3)]
			a = raftcore.Action{Do: raftcore.DoLoss, Loss: &loss}
		}
		if err := w.Apply(a); err != nil {
			t.Fatalf("seed %d: %v: %v", seed, a, err)
		}
	}
	// A calm end: everything back, so that what is dead is judged.
	for id := 1; id <= total; id++ {
		w.Apply(raftcore.Action{Do: raftcore.DoResume, Node: id})
	}
	w.RunFor(60 * sec)
	return w
}

// TestRandomKubeRunsAgree: on random fault runs with workers, the
// independent counts of the kube checks are raftcore's.
func TestRandomKubeRunsAgree(t *testing.T) {
	var all KubeResult
	for seed := int64(1); seed <= 200; seed++ {
		w := randomKubeRun(t, seed)
		got, err := CheckKube(w)
		if err != nil {
			t.Fatal(err)
		}
		c := w.KubeCounts()
		if want := (KubeResult{Spurious: c.SpuriousNotReady, Slow: c.SlowNotReady, Twice: c.PodTwice}); got != want {
			t.Errorf("seed %d (bugs %v): independently %+v, raftcore %+v", seed, w.Config().Bugs, got, want)
		}
		all.Spurious += got.Spurious
		all.Slow += got.Slow
		all.Twice += got.Twice
	}
	t.Logf("findings over the runs: %+v", all)
}
