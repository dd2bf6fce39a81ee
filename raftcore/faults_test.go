package raftcore

import (
	"encoding/json"
	"flag"
	"fmt"
	"testing"
)

var randomRuns = flag.Int("random-runs", 1000, "number of randomized fault runs for TestRandomRunsKeepRaftSafe")

// failWithSchedule prints everything needed to reproduce a failing run.
func failWithSchedule(t *testing.T, w *World, why string) {
	t.Helper()
	js, _ := json.Marshal(w.Schedule())
	t.Fatalf("%s\nseed %d; reproduce with: go run ./cmd/raftsim run -f - <<'EOF'\n%s\nEOF\nviolations: %+v", why, w.Config().Seed, js, w.Violations())
}

// diverged lets w, whose faults are healed, run quietly for three seconds and
// reports how a machine's log or state then differs from machine 1's, or ""
// when every machine holds the same committed and applied history.
func diverged(w *World) string {
	w.RunFor(3_000_000)
	a := w.Node(1)
	for id := NodeID(2); int(id) <= w.Size(); id++ {
		b := w.Node(id)
		if b.LastIndex() != a.LastIndex() || b.LastTerm() != a.LastTerm() || b.Commit() != a.Commit() ||
			b.Applied() != a.Applied() || b.KV().Digest() != a.KV().Digest() {
			return fmt.Sprintf("after healing, machine %d (last %d, commit %d, applied %d) differs from machine 1 (last %d, commit %d, applied %d)",
				id, b.LastIndex(), b.Commit(), b.Applied(), a.LastIndex(), a.Commit(), a.Applied())
		}
	}
	return ""
}

// TestRandomRunsKeepRaftSafe runs Raft through randomized fault runs with
// the checker on; no rule may ever break, and once the faults are healed
// every machine converges on the same committed history.
func TestRandomRunsKeepRaftSafe(t *testing.T) {
	runs := *randomRuns
	if testing.Short() {
		runs = 100
	}
	for seed := int64(1); seed <= int64(runs); seed++ {
		w := RandomRun(seed, RandomOptions{})
		if unexpectedViolations(w) {
			failWithSchedule(t, w, "raft broke a safety rule")
		}
		if why := diverged(w.Clone()); why != "" {
			failWithSchedule(t, w, why)
		}
		// Replaying the recorded schedule gives the same world.
		if seed%50 == 0 {
			r, err := w.Schedule().Run()
			if err != nil {
				t.Fatalf("seed %d: replay: %v", seed, err)
			}
			if r.TraceHash() != w.TraceHash() {
				failWithSchedule(t, w, "replaying the recorded schedule gave a different trace")
			}
		}
	}
}

// unexpectedViolations reports whether w broke any rule, a stale lease
// read aside when the lease was stale by design. Lease reads are unsafe
// even in etcd: a follower's lease is one election timeout while a leader
// notices it lost its majority only at its next CheckQuorum, one to two
// timeouts later (etcd-io/raft issue 166), and clock drift widens the
// window. The lab shows exactly that. But such a read is stale only because
// a later leader had been elected behind the serving leader's back; a stale
// lease read from a leader that nobody had yet replaced (one that answered
// before an entry of its own term committed, say) is a bug, and counts.
func unexpectedViolations(w *World) bool {
	for _, v := range w.Violations() {
		if v.Rule == RuleStaleRead {
			if op, ok := w.Op(v.Op); ok && op.Mode == ReadLease && deposedBefore(w, op.ReadTerm, op.CompleteUs) {
				continue
			}
		}
		return true
	}
	return false
}

// deposedBefore reports whether a leader of a term after term was elected
// at or before time us.
func deposedBefore(w *World, term uint64, us int64) bool {
	for _, e := range w.Trace() {
		if e.AtUs > us {
			break
		}
		if e.Kind == TraceRole && e.ToRole == RoleLeader && e.Term > term {
			return true
		}
	}
	return false
}

// TestCheckerCatchesBrokenVariants shows the checker is not vacuous: each
// deliberately broken Raft is caught in some randomized run.
func TestCheckerCatchesBrokenVariants(t *testing.T) {
	for _, b := range Bugs {
		b := b
		if b.Bug == BugApplyOnAppend {
			continue // breaks no safety rule: TestApplyOnAppendBreaksNoSafetyRule
		}
		if b.Bug == BugCompactWithoutSnapshot {
			continue // a follower is never caught up, which breaks no safety rule: TestFollowerBehindCompactionGetsSnapshot
		}
		if b.Bug == BugSecondPendingChange {
			// Not caught as a safety bug: in 6,000 random runs that
			// change the configuration, no rule broke that correct
			// Raft does not break in the same run (seed 2478 breaks
			// leader completeness either way, see
			// TestStaleCandidateWinsWithRemovedVoters).
			// TestSecondPendingChangeIsRefused holds the refusal itself.
			continue
		}
		const maxSeeds = 1000
		t.Run(b.Name, func(t *testing.T) {
			// The bugs of changing the configuration show only in runs
			// that change it.
			reconf := b.Bug&(BugDirectSwitch|BugCountLearners) != 0
			// The bugs of snapshots show only in runs that take them.
			snaps := b.Bug&(BugSnapshotUncommitted|BugRestoreOldSnapshot) != 0
			for seed := int64(1); seed <= maxSeeds; seed++ {
				w := RandomRun(seed, RandomOptions{Bugs: b.Bug, StopOnViolation: true, Reconfigure: reconf, Snapshots: snaps})
				// A stale lease read happens without any bug, so it does
				// not count as catching one.
				if unexpectedViolations(w) {
					for _, v := range w.Violations() {
						t.Logf("caught with seed %d: %s: %s", seed, v.Rule, v.Text)
					}
					return
				}
			}
			t.Fatalf("%s was not caught in %d random runs", b.Name, maxSeeds)
		})
	}
}

// TestApplyOnAppendBreaksNoSafetyRule: a change that takes effect when it
// is appended is the thesis's rule for single-server changes (§4.1), safe
// though not etcd's behaviour (the conformance tests catch that). The
// checker must not call it unsafe: a leader that commits under its old
// configuration and then takes a change in the same step is judged
// against the configuration it counted with.
func TestApplyOnAppendBreaksNoSafetyRule(t *testing.T) {
	runs := int64(400)
	if testing.Short() {
		runs = 40
	}
	changed := 0
	for seed := int64(1); seed <= runs; seed++ {
		w := RandomRun(seed, RandomOptions{Bugs: BugApplyOnAppend, Reconfigure: true})
		if unexpectedViolations(w) {
			v := w.Violations()[0]
			t.Fatalf("seed %d: %s: %s%s", seed, v.Rule, v.Text, confTrace(w))
		}
		if changedConfiguration(w) {
			changed++
		}
	}
	if changed < int(runs)/2 {
		t.Fatalf("only %d of %d runs changed the configuration anywhere", changed, runs)
	}
}
