package timeline

import (
	"math/rand/v2"
	"testing"

	"raftlab/raftcore"
)

// A walk back moment by moment and then forward again passes the same
// worlds in reverse, each one event or one action from the next.
func TestMomentsWalkBackAndForthThroughTheSameWorlds(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	tl := mustNew(t, testConfig(), smallOpts)
	liveRun(t, tl, r, 3)
	// Land on the last moment: a live run may end with time passed
	// after it.
	for tl.StepMoment() && tl.Pos().AtUs < tl.Head().AtUs {
	}
	var back []snap
	for {
		back = append(back, snapOf(tl.World()))
		if !tl.StepBackMoment() {
			break
		}
		p, q := tl.Pos(), back[len(back)-1].pos
		if !p.Less(q) {
			t.Fatalf("step back from %v reached %v, not earlier", q, p)
		}
		if d := (q.Events - p.Events) + uint64(q.Actions-p.Actions); d != 1 {
			t.Fatalf("step back from %v to %v passed %d moments, want 1", q, p, d)
		}
	}
	if tl.Pos() != (Position{}) {
		t.Fatalf("walking back ended at %v, not the start", tl.Pos())
	}
	if len(back) < 50 {
		t.Fatalf("only %d moments in the run; the test needs a longer one", len(back))
	}
	for i := len(back) - 1; i >= 0; i-- {
		sameWorld(t, "moment "+back[i].pos.String(), tl.World(), back[i])
		if i > 0 && !tl.StepMoment() {
			t.Fatalf("StepMoment did not move at %v", tl.Pos())
		}
	}
}

// A run made of actions at one instant, as a counterexample of the
// explorer is, is walked one action at a time both ways: not from the
// start to after all of them in one step, nor back to the start.
func TestMomentsWalkActionsAtOneInstant(t *testing.T) {
	cfg := testConfig()
	cfg.Nodes = 3
	tl := mustNew(t, cfg, Options{})
	mustAct(t, tl, raftcore.Action{Do: raftcore.DoTimeout, Node: 1})
	for range 3 {
		// Deliver by hand whatever is on the wire, as explore does.
		in := tl.World().InFlight()
		if len(in) == 0 {
			break
		}
		mustAct(t, tl, raftcore.Action{Do: raftcore.DoDeliver, ID: in[0].ID})
	}
	n := len(tl.Actions())
	if n < 3 || tl.Pos().Events != 0 || tl.Pos().AtUs != 0 {
		t.Fatalf("the run should be %d actions at time 0 with no event handled, is at %v", n, tl.Pos())
	}
	for k := n - 1; k >= 0; k-- {
		if !tl.StepBackMoment() {
			t.Fatalf("no step back with %d actions applied", k+1)
		}
		if got := tl.Pos(); got != (Position{0, 0, k}) {
			t.Fatalf("stepping back reached %v, want %d actions at time 0", got, k)
		}
	}
	if tl.StepBackMoment() {
		t.Fatal("stepped back from the start")
	}
	for k := 1; k <= n; k++ {
		if !tl.StepMoment() {
			t.Fatalf("no step forward with %d actions applied", k-1)
		}
		if got := tl.Pos(); got != (Position{0, 0, k}) {
			t.Fatalf("stepping forward reached %v, want %d actions at time 0", got, k)
		}
	}
	// The next moment is the first event: the first message's arrival.
	if !tl.StepMoment() || tl.Pos().Events != 1 || tl.Pos().Actions != n {
		t.Fatalf("after the actions, a step should handle one event: at %v", tl.Pos())
	}
}

// A link of a moment between two actions at one instant names how many it
// has applied, and opens there; a link of a moment after every action of
// its instant names none, as links always did.
func TestALinkOfAMomentBetweenActionsOpensThere(t *testing.T) {
	cfg := testConfig()
	cfg.Nodes = 3
	tl := mustNew(t, cfg, Options{})
	mustAct(t, tl, raftcore.Action{Do: raftcore.DoTimeout, Node: 1})
	mustAct(t, tl, raftcore.Action{Do: raftcore.DoDeliver, ID: tl.World().InFlight()[0].ID})
	mustAct(t, tl, raftcore.Action{Do: raftcore.DoPause, Node: 3})
	if l := tl.Link("", nil); l.PosActions != nil {
		t.Fatalf("a link after every action names %d of them", *l.PosActions)
	}
	for want := 2; want >= 0; want-- {
		tl.StepBackMoment()
		l := tl.Link("", nil)
		if l.PosActions == nil || *l.PosActions != want {
			t.Fatalf("a link with %d actions applied names %v", want, l.PosActions)
		}
		back, err := DecodeLink(mustEncode(t, l))
		if err != nil {
			t.Fatal(err)
		}
		opened, err := OpenLink(back)
		if err != nil {
			t.Fatal(err)
		}
		if got := opened.Pos(); got != tl.Pos() {
			t.Fatalf("the link opened at %v, copied at %v", got, tl.Pos())
		}
	}
}
