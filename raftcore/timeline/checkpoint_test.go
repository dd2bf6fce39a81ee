package timeline

import (
	"math/rand/v2"
	"testing"
)

func TestCheckpointThinningKeepsTheBound(t *testing.T) {
	for _, c := range []struct {
		dense  uint64
		spaced int
	}{{1, 4}, {4, 8}, {4, 24}, {8, 3}} {
		r := checkpointRule{every: 1, dense: c.dense, spaced: c.spaced, budget: 1 << 62}
		cps := []checkpoint{{}}
		m := uint(0)
		for k := uint64(1); k <= 20000; k++ {
			cps = append(cps, checkpoint{pos: Position{Events: k}, bytes: int64(k)})
			cps = thinCheckpoints(cps, r, &m)
			if len(cps) > 1+int(c.dense)+c.spaced {
				t.Fatalf("%+v k=%d: %d checkpoints", c, k, len(cps))
			}
			if cps[0].pos.Events != 0 || cps[len(cps)-1].pos.Events != k {
				t.Fatalf("%+v k=%d: lost the start or the newest", c, k)
			}
			// Evenly spaced: no gap is wider than 2^m, and 2^m stays
			// below 2k/U.
			for i := 1; i < len(cps); i++ {
				if gap := cps[i].pos.Events - cps[i-1].pos.Events; gap > 1<<m {
					t.Fatalf("%+v k=%d: gap %d, spacing %d", c, k, gap, 1<<m)
				}
			}
			if m > 0 && 1<<m > 2*k/uint64(c.spaced) {
				t.Fatalf("%+v k=%d: spacing %d is more than 2k/U", c, k, 1<<m)
			}
		}
	}
}

func TestCheckpointThinningKeepsTheByteBudget(t *testing.T) {
	r := checkpointRule{every: 1, dense: 4, spaced: 100, budget: 1000}
	cps := []checkpoint{{bytes: 10}}
	m := uint(0)
	for k := uint64(1); k <= 5000; k++ {
		cps = append(cps, checkpoint{pos: Position{Events: k}, bytes: 10 + int64(k)/10})
		cps = thinCheckpoints(cps, r, &m)
		total := int64(0)
		for _, c := range cps {
			total += c.bytes
		}
		if total > r.budget && len(cps) > 2 {
			t.Fatalf("k=%d: %d bytes in %d checkpoints, budget %d", k, total, len(cps), r.budget)
		}
		if cps[0].pos.Events != 0 || cps[len(cps)-1].pos.Events != k {
			t.Fatalf("k=%d: lost the start or the newest", k)
		}
	}
	if len(cps) != 2 {
		t.Fatalf("with worlds bigger than half the budget, %d checkpoints are kept", len(cps))
	}
}

func TestCheckpointsStayBoundedAndExact(t *testing.T) {
	o := Options{CheckpointEvents: 32, DenseCheckpoints: 3, SpacedCheckpoints: 6}
	tl := mustNew(t, testConfig(), o)
	r := rand.New(rand.NewPCG(9, 10))
	seconds := 120
	if testing.Short() {
		seconds = 40
	}
	for tl.Pos().AtUs < int64(seconds)*1_000_000 {
		tl.Advance(200_000)
		mustAct(t, tl, randomAction(r, 5))
		if n := tl.Checkpoints(); n > 1+3+6 {
			t.Fatalf("at %v: %d checkpoints", tl.Pos(), n)
		}
	}
	if tl.br.sparse < 2 {
		t.Fatalf("spacing raised only %d times: thinning tested little", tl.br.sparse)
	}
	// Every checkpoint is the run at its position, untouched by the
	// replays made from it.
	head := snapOf(tl.World())
	for i, c := range tl.br.cps {
		tl.SeekTo(c.pos)
		if got := snapOf(c.w); got != snapOf(tl.World()) {
			t.Fatalf("checkpoint %d at %v differs from the run there", i, c.pos)
		}
		w := c.w.Clone()
		if _, err := replayTo(w, tl.Actions(), head.pos, nil); err != nil {
			t.Fatal(err)
		}
		sameWorld(t, "head replayed from a checkpoint", w, head)
	}
}

func TestStepBackKeepsTransientClones(t *testing.T) {
	o := Options{CheckpointEvents: 32, DenseCheckpoints: 2, SpacedCheckpoints: 4}
	tl := mustNew(t, testConfig(), o)
	tl.Advance(60_000_000)
	gap := uint64(32) << tl.br.sparse
	if gap < 8*32 {
		t.Fatalf("checkpoints only %d events apart", gap)
	}
	tl.SeekEvent(gap*2 + gap/2)
	want := snapOf(tl.World())
	tl.StepBack()
	if len(tl.near) != nearCheckpoints {
		t.Fatalf("%d transient clones after stepping back far from a checkpoint", len(tl.near))
	}
	for _, c := range tl.near {
		if c.pos.Events%4 != 0 || c.pos.Events+nearCheckpoints*4 <= want.pos.Events {
			t.Fatalf("transient clone at %v", c.pos)
		}
	}
	for i := 0; i < 100; i++ {
		tl.StepBack()
	}
	sameWorld(t, "after 101 steps back", tl.World(), snapOf(fresh(t, tl.Config(), tl.Actions(), tl.Pos())))
	for i := 0; i < 101; i++ {
		tl.StepForward()
	}
	sameWorld(t, "back and forth again", tl.World(), want)
	if tl.Checkpoints() > 1+2+4+nearCheckpoints {
		t.Fatalf("%d checkpoints", tl.Checkpoints())
	}
}
