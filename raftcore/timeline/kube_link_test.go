package timeline

import (
	"testing"

	"raftlab/raftcore"
)

// TestLinkCarriesWorkers: a run with workers, their settings and actions on
// them (a crash, a drift, a cut from the control plane) opens from its
// link the same, at the moment shown and at its head, with what
// Kubernetes did.
func TestLinkCarriesWorkers(t *testing.T) {
	cfg := testConfig()
	cfg.Nodes, cfg.Workers = 3, 3
	cfg.Kube.GraceMs, cfg.Kube.EvictMs, cfg.Kube.Pods = 20000, 5000, 4
	tl := mustNew(t, cfg, Options{})
	tl.Advance(30_000_000)
	mustAct(t, tl, raftcore.Action{Do: raftcore.DoCrash, Node: 4})
	mustAct(t, tl, raftcore.Action{Do: raftcore.DoDrift, Node: 5, Rate: 0.8})
	mustAct(t, tl, raftcore.Action{Do: raftcore.DoCut, From: 6, To: 1})
	tl.Advance(40_000_000)
	head := snapOf(tl.World())
	counts := tl.World().KubeCounts()
	if counts.NotReady == 0 || counts.Evictions == 0 {
		t.Fatalf("the run shows too little: %+v", counts)
	}
	tl.SeekTime(50_000_000)
	want := snapOf(tl.World())

	opened := reopened(t, tl, want, head)
	if got := opened.World().KubeCounts(); got != counts {
		t.Fatalf("after opening: %+v, before: %+v", got, counts)
	}
	if got := opened.World().Config(); got.Workers != 3 || got.Kube != cfg.Kube {
		t.Fatalf("the link lost the workers' settings: %d %+v", got.Workers, got.Kube)
	}
}
