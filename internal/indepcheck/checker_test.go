package indepcheck

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"testing"

	"raftlab/raftcore"
)

var (
	runs    = flag.Int("runs", 300, "random runs for TestRandomRunsPassTheIndependentChecker")
	firstID = flag.Int64("first-seed", 1, "seed of the first random run")
	// inspectEvery trades thoroughness for speed: the machines' states are
	// compared every this many events (and before every action).
	reconfRuns   = flag.Int("reconf-runs", 300, "random runs for TestReconfiguringRunsPassTheIndependentChecker")
	inspectEvery = flag.Int("inspect-every", 16, "events between two inspections of the machines' states")
)

// runOptions is the shape of the random runs checked here: every cluster
// size from 1 to 9, even ones included, taken in turn, and a bounded
// virtual length so that each run's work is bounded.
func runOptions(seed int64) raftcore.RandomOptions {
	return raftcore.RandomOptions{Nodes: 1 + int(seed%9), UntilMs: 12_000}
}

// failWith prints the schedule of a failed run so that it can be replayed
// with raftsim.
func failWith(t *testing.T, seed int64, r Result, what string) {
	t.Helper()
	s, _ := json.Marshal(r.World.Schedule())
	t.Fatalf("seed %d (%d machines): %s: %v\nschedule: %s", seed, r.World.Size(), what, r.Violations, s)
}

// TestRandomRunsPassTheIndependentChecker: random fault runs over 1 to 9
// machines break no rule as computed from outside the engine, and every
// one of them is live once healed: the liveness judge finds a settled
// leader, every machine caught up and every request answered. `make
// random-long` runs 100,000 of them.
func TestRandomRunsPassTheIndependentChecker(t *testing.T) {
	n := *runs
	if testing.Short() {
		n = 45
	}
	stale, settled := 0, 0.0
	for seed := *firstID; seed < *firstID+int64(n); seed++ {
		r, err := CheckRandomRun(seed, runOptions(seed), *inspectEvery)
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Violations) > 0 {
			failWith(t, seed, r, "a rule broke")
		}
		if r.Liveness.Verdict != raftcore.Live {
			failWith(t, seed, r, fmt.Sprintf("%s: %s%v", r.Liveness.Verdict, r.Liveness.Note, r.Liveness.Problems))
		}
		stale += r.StaleByDesign
		settled = max(settled, r.Liveness.JudgedAtMs-r.Liveness.CalmSinceMs)
	}
	t.Logf("%d runs, seeds %d to %d, 1 to 9 machines: no violations, every run live after healing (within %.0f ms of the calm); %d lease reads stale by design",
		n, *firstID, *firstID+int64(n)-1, settled, stale)
}

// TestReconfiguringRunsPassTheIndependentChecker: random runs that start
// with spares and change the configuration break no rule as judged here,
// each against the configuration in force on the machine that decided.
// `make random-long` runs many more of the plain ones.
func TestReconfiguringRunsPassTheIndependentChecker(t *testing.T) {
	n := *reconfRuns
	if testing.Short() {
		n = 45
	}
	for seed := int64(1); seed <= int64(n); seed++ {
		o := runOptions(seed)
		o.Reconfigure = true
		r, err := CheckRandomRun(seed, o, *inspectEvery)
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Violations) > 0 {
			failWith(t, seed, r, "a rule broke")
		}
	}
	t.Logf("%d reconfiguring runs, 1 to 9 machines: no violations", n)
}

// TestSnapshottingRunsPassTheIndependentChecker: random runs whose
// machines snapshot and compact every few entries, and send snapshots to
// followers behind the compaction, break no rule as judged here: every
// snapshot holds what the committed entries up to it give, and every
// store what its snapshot and the entries applied after it give.
func TestSnapshottingRunsPassTheIndependentChecker(t *testing.T) {
	n := *reconfRuns
	if testing.Short() {
		n = 45
	}
	for seed := int64(1); seed <= int64(n); seed++ {
		o := runOptions(seed)
		o.Snapshots, o.Reconfigure = true, seed%3 == 0
		r, err := CheckRandomRun(seed, o, *inspectEvery)
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Violations) > 0 {
			failWith(t, seed, r, "a rule broke")
		}
	}
	t.Logf("%d snapshotting runs, 1 to 9 machines: no violations", n)
}

// TestRandomRunsThatOnceFailed replays the random runs in which `make
// random-long` found the checkers wrong: seed 37939, where a swap found a
// key absent after a delete whose client never heard back, and seed
// 59410, where a machine restarted with its zone (zone-restart), not by
// restart, and relearned its commit index from zero. Each is clean and
// live.
func TestRandomRunsThatOnceFailed(t *testing.T) {
	for _, seed := range []int64{37939, 59410} {
		r, err := CheckRandomRun(seed, runOptions(seed), *inspectEvery)
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Violations) > 0 || r.Liveness.Verdict != raftcore.Live {
			failWith(t, seed, r, fmt.Sprintf("liveness %+v", r.Liveness))
		}
	}
}

// TestIndependentCheckerCatchesBrokenVariants: the checker is not vacuous.
// Each of raftcore's deliberate bugs is caught by it within a bounded
// number of random runs.
func TestIndependentCheckerCatchesBrokenVariants(t *testing.T) {
	for _, b := range raftcore.Bugs {
		if b.Bug == raftcore.BugSecondPendingChange {
			// Not caught here yet: in 3,000 random runs its machines two
			// changes apart never broke a rule this checker judges
			// (nor does raftcore's own checker: TestSecondPendingChange-
			// IsRefused holds the refusal).
			continue
		}
		if b.Bug == raftcore.BugApplyOnAppend {
			// Using the newest configuration in the log is the thesis's
			// own rule for single-server changes (§4.1): it breaks no
			// safety rule (docs/raftsim.md), only etcd's behaviour, which
			// raftcore's conformance tests hold.
			continue
		}
		if b.Bug == raftcore.BugCompactWithoutSnapshot {
			// The follower is never caught up, which breaks no safety
			// rule: raftcore's TestFollowerBehindCompactionGetsSnapshot
			// and the conformance tests against etcd hold it.
			continue
		}
		reconf := b.Bug&(raftcore.BugDirectSwitch|raftcore.BugCountLearners|raftcore.BugSecondPendingChange) != 0
		snaps := b.Bug&(raftcore.BugSnapshotUncommitted|raftcore.BugRestoreOldSnapshot) != 0
		maxSeeds := int64(400)
		if b.Bug == raftcore.BugReadWithoutConfirm {
			// A stale read needs a deposed leader asked to read in the
			// short time before it learns of its successor, and a write
			// acknowledged elsewhere in that time: rarer in random runs
			// (first seen at seed 370).
			maxSeeds = 2000
		}
		t.Run(b.Name, func(t *testing.T) {
			for seed := int64(1); seed <= maxSeeds; seed++ {
				o := raftcore.RandomOptions{Nodes: 3 + int(seed%2)*2, Bugs: b.Bug, StopOnViolation: true, Reconfigure: reconf, Snapshots: snaps}
				if reconf {
					o.Nodes = 0 // 2 to 9 machines, some of them spares
				}
				r, err := CheckRandomRun(seed, o, 4)
				if err != nil {
					t.Fatal(err)
				}
				if len(r.Violations) > 0 {
					t.Logf("caught with seed %d: %v", seed, r.Violations[0])
					return
				}
			}
			t.Fatalf("%s was not caught in %d random runs", b.Name, maxSeeds)
		})
	}
}

func loadSchedule(t *testing.T, name string) raftcore.Schedule {
	t.Helper()
	return loadScheduleFrom(t, "../../docs/examples/"+name)
}

func loadScheduleFrom(t *testing.T, path string) raftcore.Schedule {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s, err := raftcore.ParseSchedule(data)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestIndependentCheckerSeesTheDoubleApply: without sessions the
// duplicated proposal takes effect twice; with sessions it does not. The
// read that follows returns the repeated value from a log that really
// holds it last, so the committed-log check passes it; porcupine, judging
// the history alone, flags it.
func TestIndependentCheckerSeesTheDoubleApply(t *testing.T) {
	r, err := CheckSchedule(loadSchedule(t, "duplicate-proposal-no-sessions.json"), 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	rules := map[string]bool{}
	for _, v := range r.Violations {
		rules[v.Rule] = true
	}
	if !rules["exactly-once"] || !rules["linearizability"] {
		t.Fatalf("want exactly-once and linearizability, got %v", r.Violations)
	}
	r, err = CheckSchedule(loadSchedule(t, "duplicate-proposal.json"), 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Violations) != 0 {
		t.Fatalf("with sessions: %v", r.Violations)
	}
}

// TestIndependentCheckerClassifiesTheDriftingLease: the stale lease read
// of docs/examples/stale-lease-read.json is served by a deposed leader, so
// it is classified as stale by design; made linearizable it waits instead.
func TestIndependentCheckerClassifiesTheDriftingLease(t *testing.T) {
	r, err := CheckSchedule(loadSchedule(t, "stale-lease-read.json"), 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Violations) != 0 || r.StaleByDesign != 1 {
		t.Fatalf("want one lease read stale by design and no violation: %d, %v", r.StaleByDesign, r.Violations)
	}
}

// TestPorcupineJudgesTheHistoryOnItsOwn runs only the porcupine half of
// Finish over finished runs: it flags the stale ReadIndex read of Raft
// broken to serve reads without confirming leadership (seed 370, the run
// TestIndependentCheckerCatchesBrokenVariants first catches), and it
// classifies the drifting lease's read as stale by design, not as a
// violation.
func TestPorcupineJudgesTheHistoryOnItsOwn(t *testing.T) {
	// Worlds that kept their whole trace, to stream it to a new checker:
	// CheckSchedule's world streams to its own and keeps only the newest
	// events.
	o := raftcore.RandomOptions{Nodes: 3, Bugs: raftcore.BugReadWithoutConfirm, StopOnViolation: true}
	w := raftcore.RandomRun(370, o)
	c := New(w)
	c.checkLinearizable(w.Ops())
	if len(c.Violations()) == 0 || c.Violations()[0].Rule != "linearizability" {
		t.Fatalf("want a linearizability violation, got %v", c.Violations())
	}

	w, err := loadSchedule(t, "stale-lease-read.json").Run()
	if err != nil {
		t.Fatal(err)
	}
	c = New(w)
	c.checkLinearizable(w.Ops())
	if len(c.Violations()) != 0 || c.StaleByDesign() != 1 {
		t.Fatalf("want one lease read stale by design and no violation: %d, %v", c.StaleByDesign(), c.Violations())
	}
}

// TestCasConflictIsNoViolation: a compare-and-swap that finds another
// revision changes nothing and tells its client the revision it found, as
// etcd's transactions do. The run of raftcore/testdata/cas-conflict.json
// (two such conflicts, two swaps that succeed, reads after each) breaks no
// rule in either checker: the stores rebuilt here skip the failed swaps,
// every swap's answer matches the revisions of the committed log, and
// porcupine finds the history linearizable.
func TestCasConflictIsNoViolation(t *testing.T) {
	s := loadScheduleFrom(t, "../../raftcore/testdata/cas-conflict.json")
	r, err := CheckSchedule(s, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	conflicts := 0
	for _, op := range r.World.Ops() {
		if op.Result == raftcore.OpConflict {
			conflicts++
		}
	}
	if conflicts != 2 || len(r.Violations) != 0 || len(r.World.Violations()) != 0 {
		t.Fatalf("%d conflicts; independent checker: %v; engine's checker: %v", conflicts, r.Violations, r.World.Violations())
	}
}

// TestBlindSwapIsCaught: the same run with swaps applied without
// comparing the revision is caught three ways: the machines' stores differ
// from the stores rebuilt here, the swap that expected revision 9 was
// answered as a success, and porcupine finds no order for it.
func TestBlindSwapIsCaught(t *testing.T) {
	s := loadScheduleFrom(t, "../../raftcore/testdata/cas-conflict.json")
	r, err := CheckSchedule(s, raftcore.BugBlindSwap, 1)
	if err != nil {
		t.Fatal(err)
	}
	rules := map[string]bool{}
	for _, v := range r.Violations {
		rules[v.Rule] = true
	}
	for _, want := range []string{"store-matches-log", "compare-and-swap", "linearizability"} {
		if !rules[want] {
			t.Errorf("no %s violation in %v", want, r.Violations)
		}
	}
}
