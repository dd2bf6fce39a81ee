package scenarios

import (
	"strings"
	"testing"

	"raftlab/raftcore"
)

func TestRolesShowEveryTransition(t *testing.T) {
	for seed := int64(1); seed <= 5; seed++ {
		_, w, r := mustRun(t, "roles", seed)
		h := scan(w)
		var last int64
		for _, e := range []struct {
			from, to raftcore.Role
			why      []raftcore.Cause
		}{
			// The lesson's three roles: PreVote is off in this figure.
			{raftcore.RoleFollower, raftcore.RoleCandidate, timeouts},
			{raftcore.RoleCandidate, raftcore.RoleLeader, []raftcore.Cause{raftcore.CauseWonElection}},
			{raftcore.RoleLeader, raftcore.RoleFollower, higherTerm},
		} {
			rc, ok := firstRole(h, e.from, e.to, e.why...)
			if !ok || rc.atUs < last {
				t.Fatalf("seed %d: %s -> %s %v missing or out of order", seed, e.from, e.to, e.why)
			}
			last = rc.atUs
		}
		// The leader that stepped down on a higher term is the first one.
		first, _ := firstRole(h, raftcore.RoleCandidate, raftcore.RoleLeader)
		down, _ := firstRole(h, raftcore.RoleLeader, raftcore.RoleFollower, higherTerm...)
		if down.node != first.node || down.term <= first.term {
			t.Fatalf("seed %d: %+v stepped down, first leader %+v", seed, down, first)
		}
		if !strings.HasPrefix(r.Final, "Seen: ") || !strings.Contains(r.Final, "1 leader stepping down on a higher term") {
			t.Fatalf("closing line: %q", r.Final)
		}
	}
}

func TestPartitionHaltsEveryWrite(t *testing.T) {
	for seed := int64(1); seed <= 5; seed++ {
		s, w, r := mustRun(t, "partition-halts", seed)
		split, heal := splitAndHeal(s)
		for _, op := range w.Ops() {
			during := op.InvokeUs >= split && op.InvokeUs < heal
			if during && op.Result == raftcore.OpOK {
				t.Fatalf("seed %d: a write at %s succeeded without quorum", seed, name(w, op.Node))
			}
			if !during && op.Result != raftcore.OpOK {
				t.Fatalf("seed %d: a write at %s with quorum %s", seed, name(w, op.Node), outcome(op))
			}
		}
		if before, during := commitsBetween(w, split, heal); during != before {
			t.Fatalf("seed %d: the commit index moved from %d to %d with no quorum", seed, before, during)
		}
		if !strings.Contains(r.Final, "0 committed") {
			t.Fatalf("closing line: %q", r.Final)
		}
	}
}

// TestCommitLatencyWaitsForAMajority: each write returns only after a
// majority holds its entry, and waits as long as the slowest member of the
// fastest majority.
func TestCommitLatencyWaitsForAMajority(t *testing.T) {
	for seed := int64(1); seed <= 5; seed++ {
		_, w, r := mustRun(t, "commit-latency", seed)
		ws := okWrites(w)
		if len(ws) != 3 {
			t.Fatalf("seed %d: %d writes succeeded", seed, len(ws))
		}
		for _, op := range ws {
			holders := map[raftcore.NodeID]bool{}
			for _, e := range w.Trace() {
				if e.Kind == raftcore.TraceAppend && e.Index >= op.Index && e.AtUs <= op.CompleteUs {
					holders[e.Node] = true
				}
			}
			if len(holders) < quorum(w.Size()) {
				t.Fatalf("seed %d: write %d returned when only %d members held it", seed, op.ID, len(holders))
			}
		}
		fast, slow2, slow3 := ws[0].LatencyUs(0), ws[1].LatencyUs(0), ws[2].LatencyUs(0)
		if fast > 100_000 || slow2 > 100_000 || slow3 < 2*slowMs*1000 || slow3 > 2*slowMs*1000+100_000 {
			t.Fatalf("seed %d: waits %s, %s, %s", seed, ms(fast), ms(slow2), ms(slow3))
		}
		if !strings.Contains(r.Final, "with 3 slow members") {
			t.Fatalf("closing line: %q", r.Final)
		}
	}
}

// TestCapReadsCacheAnswersThroughThePartition: the cache in front of the
// cluster answers at every moment of the split from the record it read
// before it, stale by the majority's write, while every linearizable read
// through its upstream on the minority side goes unanswered; before the
// split and after the heal its answer is fresh.
func TestCapReadsCacheAnswersThroughThePartition(t *testing.T) {
	for seed := int64(1); seed <= 5; seed++ {
		s, w, _ := mustRun(t, "cap-reads", seed)
		if s.UI.Cache == nil {
			t.Fatal("cap-reads has no cache")
		}
		split, heal := splitAndHeal(s)
		// Replay to the end of the split and ask the cache there.
		mid := playUntil(t, s, seed, float64(heal)/1000-1)
		c := s.UI.Cache.State(mid)
		if !c.Held || c.Filled.CompleteUs >= split {
			t.Fatalf("seed %d: the cache holds no record read before the split: %+v", seed, c)
		}
		if !c.Cut() || !c.Stale() {
			t.Fatalf("seed %d: the cache's refresh got through or its answer is fresh: %+v", seed, c)
		}
		before := s.UI.Cache.State(playUntil(t, s, seed, float64(split)/1000-1))
		if !before.Held || before.Stale() || before.Cut() {
			t.Fatalf("seed %d: before the split the cache is empty, cut off or stale: %+v", seed, before)
		}
		end := s.UI.Cache.State(w)
		if !end.Held || end.Stale() {
			t.Fatalf("seed %d: after the heal the cache is still stale: %+v", seed, end)
		}
	}
}

// splitAndHeal are the moments s's autoplay splits the network and heals
// it (the last of each).
func splitAndHeal(s *Scenario) (split, heal int64) {
	for _, a := range s.Autoplay() {
		switch a.Do {
		case raftcore.DoPartition:
			split = a.AtUs()
		case raftcore.DoHeal:
			heal = a.AtUs()
		}
	}
	return split, heal
}
