package timeline

import (
	"math/rand/v2"
	"testing"

	"raftlab/raftcore"
)

// snap is what must be identical between a live world and its rebuilds.
type snap struct {
	pos     Position
	hash    uint64
	trace   uint64
	actions int
}

func snapOf(w *raftcore.World) snap {
	return snap{posOf(w), w.TraceHash(), w.TraceCount(), len(w.Actions())}
}

func mustNew(t testing.TB, cfg raftcore.Config, o Options) *Timeline {
	t.Helper()
	tl, err := NewWithOptions(cfg, o)
	if err != nil {
		t.Fatal(err)
	}
	return tl
}

func mustAct(t testing.TB, tl *Timeline, a raftcore.Action) {
	t.Helper()
	if err := tl.Act(a); err != nil {
		t.Fatalf("act %v: %v", a, err)
	}
}

// randomAction picks a client request or a fault for a world of n machines.
func randomAction(r *rand.Rand, n int) raftcore.Action {
	node := 1 + r.IntN(n)
	other := 1 + (node+r.IntN(n-1))%n
	switch r.IntN(12) {
	case 0:
		return raftcore.Action{Do: raftcore.DoPartition, Groups: [][]int{{node}}}
	case 1:
		return raftcore.Action{Do: raftcore.DoHeal}
	case 2:
		return raftcore.Action{Do: raftcore.DoCrash, Node: node}
	case 3:
		return raftcore.Action{Do: raftcore.DoRestart, Node: node}
	case 4:
		return raftcore.Action{Do: raftcore.DoPause, Node: node}
	case 5:
		return raftcore.Action{Do: raftcore.DoResume, Node: node}
	case 6:
		return raftcore.Action{Do: raftcore.DoCut, From: node, To: other, OneWay: r.IntN(2) == 0}
	case 7:
		return raftcore.Action{Do: raftcore.DoTimeout, Node: node}
	case 8:
		return raftcore.Action{Do: raftcore.DoRead, Node: node, Key: "k", Mode: []raftcore.ReadMode{raftcore.ReadLinearizable, raftcore.ReadLease, raftcore.ReadLocal}[r.IntN(3)]}
	}
	return raftcore.Action{Do: raftcore.DoWrite, Node: node, Key: "k", Value: string(rune('a' + r.IntN(26)))}
}

// liveRun drives tl the way a reader does — running in uneven slices,
// stepping single events, acting at odd moments — for about seconds of
// virtual time, and records the world after every operation.
func liveRun(t testing.TB, tl *Timeline, r *rand.Rand, seconds int) []snap {
	t.Helper()
	var snaps []snap
	end := tl.Pos().AtUs + int64(seconds)*1_000_000
	n := tl.Config().Nodes
	for tl.Pos().AtUs < end {
		switch k := r.IntN(10); {
		case k < 5:
			tl.Advance(int64(1 + r.IntN(400_000)))
		case k < 7:
			for i := r.IntN(20); i >= 0; i-- {
				tl.StepForward()
			}
		default:
			// Invalid picks (resume a running machine is fine; nothing
			// here is invalid) are applied like any other.
			mustAct(t, tl, randomAction(r, n))
		}
		snaps = append(snaps, snapOf(tl.World()))
		if !tl.AtHead() {
			t.Fatalf("live run left the head: at %v, head %v", tl.Pos(), tl.Head())
		}
	}
	return snaps
}

// fresh rebuilds the run of cfg and log at p from nothing, with raftcore's
// own Play and Step, independently of the timeline's replay.
func fresh(t testing.TB, cfg raftcore.Config, log []raftcore.Action, p Position) *raftcore.World {
	t.Helper()
	cfg.TraceLimit = 0
	w := raftcore.MustWorld(cfg)
	for _, a := range log[:p.Actions] {
		if err := w.Play([]raftcore.Action{a}); err != nil {
			t.Fatal(err)
		}
	}
	for w.Processed() < p.Events {
		w.Step()
	}
	if p.AtUs > w.Now() {
		w.RunUntil(p.AtUs)
	}
	return w
}

func sameWorld(t testing.TB, what string, got *raftcore.World, want snap) {
	t.Helper()
	if g := snapOf(got); g != want {
		t.Fatalf("%s: got %+v, want %+v", what, g, want)
	}
}

func testConfig() raftcore.Config {
	cfg := raftcore.DefaultConfig()
	cfg.Seed = 7
	return cfg
}

// Small checkpoint spacing makes the tests cross many checkpoints and
// thin them.
var smallOpts = Options{CheckpointEvents: 64, DenseCheckpoints: 4}

func TestSeekToLiveMomentsRebuildsThem(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	tl := mustNew(t, testConfig(), smallOpts)
	snaps := liveRun(t, tl, r, 40)
	log := tl.Actions()
	for i, j := range r.Perm(len(snaps)) {
		s := snaps[j]
		tl.SeekTo(s.pos)
		sameWorld(t, "seek to live moment "+s.pos.String(), tl.World(), s)
		if i%10 == 0 {
			sameWorld(t, "fresh replay to "+s.pos.String(), fresh(t, tl.Config(), log, s.pos), s)
		}
	}
	if got := len(tl.Actions()); got != len(log) {
		t.Fatalf("seeking changed the log: %d actions, had %d", got, len(log))
	}
}

func TestStepBackThenForwardIsIdentical(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	tl := mustNew(t, testConfig(), smallOpts)
	liveRun(t, tl, r, 30)
	head := tl.Head()
	for _, n := range []uint64{1, 5, 63, 64, 65, 300, head.Events / 2, head.Events - 1, head.Events} {
		tl.SeekEvent(n)
		want := snapOf(tl.World())
		if want.pos.Events != n {
			t.Fatalf("SeekEvent(%d) reached %v", n, want.pos)
		}
		sameWorld(t, "fresh replay", fresh(t, tl.Config(), tl.Actions(), want.pos), want)
		const steps = 150
		back := 0
		for back < steps && tl.Pos().Events > 0 && tl.StepBack() {
			back++
			if got := tl.Pos().Events; got != n-uint64(back) {
				t.Fatalf("StepBack from %d reached event %d after %d steps", n, got, back)
			}
		}
		if back > 0 {
			sameWorld(t, "after stepping back", fresh(t, tl.Config(), tl.Actions(), tl.Pos()), snapOf(tl.World()))
		}
		for i := 0; i < back; i++ {
			if !tl.StepForward() {
				t.Fatalf("StepForward failed after %d of %d", i, back)
			}
		}
		sameWorld(t, "step back then forward", tl.World(), want)
	}
}

func TestSeekTimeMatchesScheduleReplay(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	tl := mustNew(t, testConfig(), smallOpts)
	liveRun(t, tl, r, 40)
	log := tl.Actions()
	head := tl.Head()
	for i := 0; i < 40; i++ {
		us := r.Int64N(head.AtUs + 1)
		if i == 0 {
			us = 0
		}
		tl.SeekTime(us)
		// The reference is what `raftsim run` does with a schedule
		// ending at us.
		cfg := tl.Config()
		w := raftcore.MustWorld(cfg)
		var upto []raftcore.Action
		for _, a := range log {
			if a.AtUs() <= us {
				upto = append(upto, a)
			}
		}
		if err := w.Play(upto); err != nil {
			t.Fatal(err)
		}
		w.RunUntil(us)
		sameWorld(t, "seek to "+clockWords(us), tl.World(), snapOf(w))
	}
}

func TestAdvanceFromThePastReplaysTheRun(t *testing.T) {
	r := rand.New(rand.NewPCG(29, 30))
	tl := mustNew(t, testConfig(), smallOpts)
	liveRun(t, tl, r, 20)
	tl.Advance(1)
	head := snapOf(tl.World())
	log := len(tl.Actions())
	tl.SeekFraction(0.25)
	if got := tl.Pos().AtUs; got != (head.pos.AtUs+2)/4 && got != head.pos.AtUs/4 {
		t.Fatalf("SeekFraction(0.25) went to %v of %v", tl.Pos(), head.pos)
	}
	for tl.Pos().AtUs < head.pos.AtUs {
		tl.Advance(min(777_777, head.pos.AtUs-tl.Pos().AtUs))
	}
	sameWorld(t, "advanced back to the head", tl.World(), head)
	if _, ok := tl.Ghost(); ok || len(tl.Actions()) != log {
		t.Fatal("replaying forward changed the log")
	}
}

func TestStepForwardAppliesActionsWhenNoEventIsLeft(t *testing.T) {
	tl := mustNew(t, testConfig(), Options{})
	tl.Advance(2_000_000)
	for i := 1; i <= 5; i++ {
		mustAct(t, tl, raftcore.Action{Do: raftcore.DoCrash, Node: i})
	}
	tl.Advance(10_000_000)
	if _, ok := tl.World().NextEventAt(); ok {
		t.Fatal("events left with every machine down")
	}
	quiet := tl.Pos()
	mustAct(t, tl, raftcore.Action{Do: raftcore.DoRestart, Node: 2})
	tl.Advance(1_000_000)
	want := snapOf(tl.World())

	tl.SeekTime(quiet.AtUs - 1)
	for i := 0; tl.Pos().Actions < quiet.Actions+1; i++ {
		if !tl.StepForward() || i > 10_000 {
			t.Fatalf("StepForward stuck at %v", tl.Pos())
		}
	}
	if tl.World().Status(2) != raftcore.StatusUp {
		t.Fatal("the restart was not applied")
	}
	tl.SeekTo(want.pos)
	sameWorld(t, "after the restart", tl.World(), want)
	tl.SeekTo(Position{})
	if m, ok := tl.PrevNotable(); ok {
		t.Fatalf("PrevNotable at the start found %+v", m)
	}
	if tl.StepBack() {
		t.Fatal("StepBack at the start moved")
	}
}
