package timeline

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"raftlab/raftcore"
)

func TestActInThePastForksAndKeepsAGhost(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	tl := mustNew(t, testConfig(), smallOpts)
	liveRun(t, tl, r, 30)
	oldLog := append([]raftcore.Action(nil), tl.Actions()...)
	oldHead := tl.Head()
	oldHeadWorld := snapOf(tl.World())
	oldMarks := append([]Mark(nil), tl.Marks()...)
	if len(oldLog) < 10 {
		t.Fatalf("the run has only %d actions", len(oldLog))
	}

	// Go back to a moment with recorded actions after it, and act there.
	tl.SeekTime(12_345_678)
	here := tl.Pos()
	if here.Actions >= len(oldLog) {
		t.Fatalf("no actions after %v", here)
	}
	write := raftcore.Action{Do: raftcore.DoWrite, Node: 2, Key: "fork", Value: "yes"}
	mustAct(t, tl, write)

	log := tl.Actions()
	if !reflect.DeepEqual(log[:here.Actions], oldLog[:here.Actions]) {
		t.Fatal("the actions before the fork changed")
	}
	if len(log) != here.Actions+1 {
		t.Fatalf("log has %d actions after the fork, want %d", len(log), here.Actions+1)
	}
	got := log[len(log)-1]
	if got.Do != raftcore.DoWrite || got.Key != "fork" || got.AtUs() != here.AtUs || got.AfterEvents != here.Events {
		t.Fatalf("the new action was logged as %+v at %v", got, here)
	}
	if want := (Position{here.Events, here.AtUs, here.Actions + 1}); tl.Head() != want || !tl.AtHead() {
		t.Fatalf("head %v after the fork, want %v", tl.Head(), want)
	}
	g, ok := tl.Ghost()
	if !ok {
		t.Fatal("no ghost after acting in the past")
	}
	if g.Fork != here || g.Head != oldHead || !reflect.DeepEqual(g.Actions, oldLog[here.Actions:]) {
		t.Fatalf("ghost: fork %v head %v %d actions; want fork %v head %v %d actions", g.Fork, g.Head, len(g.Actions), here, oldHead, len(oldLog)-here.Actions)
	}
	for _, m := range g.Marks {
		if !here.Less(m.At) {
			t.Fatalf("ghost mark %+v is not after the fork", m)
		}
	}
	for _, m := range tl.Marks() {
		if tl.Head().Less(m.End) {
			t.Fatalf("mark %+v lies after the new head %v", m, tl.Head())
		}
	}

	// The new branch runs on like any run of its log.
	tl.Advance(5_000_000)
	mustAct(t, tl, raftcore.Action{Do: raftcore.DoCrash, Node: 1})
	tl.Advance(2_000_000)
	want := snapOf(tl.World())
	sameWorld(t, "forked branch vs fresh replay", fresh(t, tl.Config(), tl.Actions(), want.pos), want)
	tl.SeekTime(1_000_000)
	tl.SeekTo(want.pos)
	sameWorld(t, "forked branch after a rewind", tl.World(), want)
	newLog := append([]raftcore.Action(nil), tl.Actions()...)
	newMarks := append([]Mark(nil), tl.Marks()...)

	// Back to the ghost: the old run exactly, and the fork is now the ghost.
	if !tl.ReturnToGhost() {
		t.Fatal("ReturnToGhost found no ghost")
	}
	if !reflect.DeepEqual(tl.Actions(), oldLog) || tl.Head() != oldHead {
		t.Fatalf("ghost came back with %d actions, head %v; want %d, %v", len(tl.Actions()), tl.Head(), len(oldLog), oldHead)
	}
	if tl.Pos().AtUs != want.pos.AtUs {
		t.Fatalf("ReturnToGhost moved to %v, want time %d", tl.Pos(), want.pos.AtUs)
	}
	if !reflect.DeepEqual(tl.Marks(), oldMarks) {
		t.Fatal("the old branch's marks changed")
	}
	tl.SeekTo(oldHead)
	sameWorld(t, "old head after returning", tl.World(), oldHeadWorld)
	g, _ = tl.Ghost()
	if !reflect.DeepEqual(g.Actions, newLog[here.Actions:]) {
		t.Fatalf("the fork did not become the ghost: %d actions", len(g.Actions))
	}
	tl.ReturnToGhost()
	if !reflect.DeepEqual(tl.Actions(), newLog) || !reflect.DeepEqual(tl.Marks(), newMarks) {
		t.Fatal("going back to the fork did not restore it")
	}
	tl.SeekTo(want.pos)
	sameWorld(t, "fork after going back and forth", tl.World(), want)
}

func TestActAtHeadDoesNotFork(t *testing.T) {
	tl := mustNew(t, testConfig(), Options{})
	tl.Advance(3_000_000)
	mustAct(t, tl, raftcore.Action{Do: raftcore.DoWrite, Node: 1, Key: "a", Value: "1"})
	tl.StepForward()
	mustAct(t, tl, raftcore.Action{Do: raftcore.DoPause, Node: 3})
	if _, ok := tl.Ghost(); ok {
		t.Fatal("acting at the head made a ghost")
	}
	if len(tl.Actions()) != 2 || !tl.AtHead() {
		t.Fatalf("%d actions, at head %v", len(tl.Actions()), tl.AtHead())
	}
	if tl.ReturnToGhost() {
		t.Fatal("ReturnToGhost with no ghost")
	}
}

func TestInvalidActInThePastChangesNothing(t *testing.T) {
	tl := mustNew(t, testConfig(), Options{})
	tl.Advance(3_000_000)
	mustAct(t, tl, raftcore.Action{Do: raftcore.DoWrite, Node: 1, Key: "a", Value: "1"})
	tl.Advance(3_000_000)
	head := tl.Head()
	tl.SeekTime(1_000_000)
	before := snapOf(tl.World())
	for _, a := range []raftcore.Action{
		{Do: raftcore.DoCrash, Node: 9},
		{Do: raftcore.DoDrop, ID: 999999},
		{Do: "fly"},
	} {
		if err := tl.Act(a); err == nil {
			t.Fatalf("Act(%+v) was accepted", a)
		}
	}
	sameWorld(t, "after refused actions", tl.World(), before)
	if _, ok := tl.Ghost(); ok || tl.Head() != head || len(tl.Actions()) != 1 {
		t.Fatalf("a refused action forked the run: head %v, %d actions", tl.Head(), len(tl.Actions()))
	}
}

func TestDropAMessageInFlightThenRewind(t *testing.T) {
	tl := mustNew(t, testConfig(), Options{})
	tl.Advance(3_000_000)
	for i := 0; i < 100 && len(tl.World().InFlight()) == 0; i++ {
		tl.StepForward()
	}
	msgs := tl.World().InFlight()
	if len(msgs) == 0 {
		t.Fatal("nothing in flight")
	}
	mustAct(t, tl, raftcore.Action{Do: raftcore.DoDrop, ID: msgs[0].ID})
	tl.Advance(1_000_000)
	want := snapOf(tl.World())
	tl.SeekTime(0)
	tl.SeekTo(want.pos)
	sameWorld(t, "rewound past a drop", tl.World(), want)
}
