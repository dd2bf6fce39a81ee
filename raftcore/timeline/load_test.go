package timeline

import (
	"testing"

	"raftlab/raftcore"
)

// TestLinkAndRewindCarryASteadyLoad: a run with a steady client load,
// stopped and started again, opens from its link the same at the moment
// shown and at its head; rewinding into the load and playing on again
// gives the same run, with the history bounded as the app bounds it.
func TestLinkAndRewindCarryASteadyLoad(t *testing.T) {
	cfg := testConfig()
	cfg.Nodes = 5
	tl := mustNew(t, cfg, Options{HistoryLimit: 32})
	tl.Advance(2_000_000)
	mustAct(t, tl, raftcore.Action{Do: raftcore.DoLoad, Key: "deployments/app", Keys: 10, EveryMs: 100})
	tl.Advance(20_000_000)
	mustAct(t, tl, raftcore.Action{Do: raftcore.DoCrash, Node: int(tl.World().Endpoint())})
	tl.Advance(10_000_000)
	mustAct(t, tl, raftcore.Action{Do: raftcore.DoLoadStop})
	tl.Advance(1_000_000)
	mustAct(t, tl, raftcore.Action{Do: raftcore.DoLoad, Node: 2, Key: "k", Keys: 1, EveryMs: 250})
	tl.Advance(10_000_000)
	w := tl.World()
	head := snapOf(w)
	if len(w.Actions()) != 4 {
		t.Fatalf("%d actions, want 4", len(w.Actions()))
	}
	forgotten, kept := w.ForgottenOps(), len(w.Ops())
	if forgotten.Count+kept != 300+40 || kept > 40 {
		t.Fatalf("%d operations forgotten and %d kept, want 340 in all with about 32 kept", forgotten.Count, kept)
	}
	// Rewind into the first load and play on: the same run.
	tl.SeekTime(15_000_000)
	want := snapOf(tl.World())
	if n := len(tl.World().Ops()) + tl.World().ForgottenOps().Count; n != 130 {
		t.Fatalf("%d writes by 15 s, want 130", n)
	}
	tl.SeekTo(tl.Head())
	sameWorld(t, "head after a rewind", tl.World(), head)
	tl.SeekTime(15_000_000)
	opened := reopened(t, tl, want, head)
	if got := opened.World(); len(got.Ops())+got.ForgottenOps().Count != 340 || got.ForgottenOps().Count != 0 {
		t.Fatalf("the opened link made %d writes and forgot %d, want 340 and none", len(got.Ops())+got.ForgottenOps().Count, got.ForgottenOps().Count)
	}
	// Opened with a history limit, as the app opens links, it forgets as
	// the run it came from did.
	o, err := StartOpening(mustEncode(t, tl.Link("", nil)))
	if err == nil {
		o, err = o.WithOptions(Options{HistoryLimit: 32})
	}
	if err != nil {
		t.Fatal(err)
	}
	bounded, err := o.Run(nil)
	if err != nil {
		t.Fatal(err)
	}
	bounded.SeekTo(bounded.Head())
	sameWorld(t, "link opened with a history limit", bounded.World(), head)
	if got := bounded.World().ForgottenOps(); got != forgotten {
		t.Errorf("opened with a history limit it forgot %+v, the run %+v", got, forgotten)
	}
	if _, err := o.WithOptions(Options{}); err == nil {
		t.Errorf("options set after the replay were taken")
	}
}
