package indepcheck

import (
	"testing"

	"raftlab/raftcore"
)

// The checker reads every event from the world's stream, so the world it
// checks keeps only a few: the check of a long run holds no more events
// than a short one's, and reaches the same verdict as reading them all.
func TestCheckedWorldKeepsFewEvents(t *testing.T) {
	s := loadSchedule(t, "partition-3-2.json")
	r, err := CheckSchedule(s, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	w := r.World
	if w.TraceCount() <= 4*checkerTraceKeep {
		t.Fatalf("the run has %d events: too few to show the bound", w.TraceCount())
	}
	if n := len(w.Trace()); n > checkerTraceKeep {
		t.Fatalf("the checked world keeps %d events, more than %d", n, checkerTraceKeep)
	}
	if len(r.Violations) != 0 {
		t.Fatalf("a correct run judged broken: %v", r.Violations)
	}
	whole, err := s.Run()
	if err != nil {
		t.Fatal(err)
	}
	if whole.TraceHash() != w.TraceHash() {
		t.Fatal("the checked run differs from the schedule's run")
	}
}

// A world that has dropped events cannot be checked: the checker would
// miss them.
func TestCheckerRefusesATrimmedWorld(t *testing.T) {
	cfg := raftcore.DefaultConfig()
	cfg.TraceLimit = 2
	w := raftcore.MustWorld(cfg)
	w.RunUntil(1_000_000)
	defer func() {
		if recover() == nil {
			t.Fatal("New accepted a world that dropped events")
		}
	}()
	New(w)
}
