package indepcheck

import (
	"fmt"
	"math"
	"sort"

	"raftlab/raftcore"
)

// Result is one run checked from the outside.
type Result struct {
	World      *raftcore.World
	Violations []Violation
	// StaleByDesign counts lease reads that were stale by design.
	StaleByDesign int
	// EndHash is the trace hash at the schedule's end, before the run
	// went on for the liveness judge.
	EndHash uint64
	// Liveness is the liveness judge's verdict (raftcore.World.Liveness).
	Liveness raftcore.Liveness
	// Reconcile is what the run's controllers did wrong without breaking
	// a rule of Raft (Checker.Reconcile).
	Reconcile []Violation
}

// CheckRandomRun plays raftcore.RandomRun(seed, o), then checks a replay of
// its recorded schedule with CheckSchedule. The replay must give the same
// trace as the original run, or the check would be of some other run.
func CheckRandomRun(seed int64, o raftcore.RandomOptions, inspectEvery int) (Result, error) {
	orig := raftcore.RandomRun(seed, o)
	r, err := CheckSchedule(orig.Schedule(), o.Bugs, inspectEvery)
	if err != nil {
		return r, fmt.Errorf("seed %d: %v", seed, err)
	}
	if r.EndHash != orig.TraceHash() {
		return r, fmt.Errorf("seed %d: the replay's trace differs from the run's", seed)
	}
	return r, nil
}

// CheckSchedule plays s (with the deliberate bugs given, which a schedule
// cannot name) one event at a time under a Checker: trace rules after every
// event, machine states every inspectEvery events and before every action,
// the client history at the end. Without deliberate bugs, a run that ends
// calm but too soon for the liveness judge goes on, with no more actions
// and still checked, until the judge rules. The run is bounded by virtual
// time (the schedule's end, and the judge's bound), never by the wall
// clock.
func CheckSchedule(s raftcore.Schedule, bugs raftcore.Bug, inspectEvery int) (Result, error) {
	if err := s.Validate(); err != nil {
		return Result{}, err
	}
	cfg := s.Config()
	cfg.Bugs = bugs
	w, err := raftcore.NewWorld(cfg)
	if err != nil {
		return Result{}, err
	}
	c := New(w)
	steps := 0
	// runTo handles the events due at or before us (and, for an action
	// recorded between two events of one instant, no more than it saw).
	runTo := func(us int64, events uint64) {
		for events == 0 || w.Processed() < events {
			if next, ok := w.NextEventAt(); !ok || next > us {
				return
			}
			w.Step()
			c.Observe()
			if steps++; steps%inspectEvery == 0 {
				c.Inspect()
			}
		}
	}
	// Actions happen in time order, ties in the order written, as Play
	// takes them.
	actions := append([]raftcore.Action(nil), s.Actions...)
	sort.SliceStable(actions, func(i, j int) bool { return actions[i].AtMs < actions[j].AtMs })
	for i, a := range actions {
		runTo(a.AtUs(), a.AfterEvents)
		c.Inspect()
		if err := w.Play([]raftcore.Action{a}); err != nil {
			return Result{}, fmt.Errorf("actions[%d]: %v", i, err)
		}
		c.Observe()
	}
	end := int64(math.Round(s.UntilMs * 1000))
	runTo(end, 0)
	w.RunUntil(end)
	c.Observe()
	endHash := w.TraceHash()
	live := w.Liveness()
	for bugs == 0 && live.Verdict == raftcore.NotJudged && live.JudgedAtMs > 0 {
		// As World.AwaitLiveness does: look again every second at most.
		next := min(int64(math.Round(live.JudgedAtMs*1000)), w.Now()+1_000_000)
		runTo(next, 0)
		w.RunUntil(next)
		c.Observe()
		live = w.Liveness()
	}
	c.Finish()
	return Result{World: w, Violations: c.Violations(), StaleByDesign: c.StaleByDesign(), EndHash: endHash, Liveness: live, Reconcile: c.Reconcile()}, nil
}
