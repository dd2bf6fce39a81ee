package scenarios

import (
	"testing"

	"raftlab/raftcore"
)

// TestFigure8TurnsOnTheBugAlone: the two plays of figure-8 differ only in
// the bug, and each needs it as set: the play with the bug fails its point
// when the engine keeps Raft's rule, and the play without fails its own
// when the engine breaks it. So the figure shows what the rule does, not
// what its script arranges.
func TestFigure8TurnsOnTheBugAlone(t *testing.T) {
	off, err := Get("figure-8")
	if err != nil {
		t.Fatal(err)
	}
	on, err := off.With("bug", f8BugOn)
	if err != nil {
		t.Fatal(err)
	}
	if on.Base.Bugs != raftcore.BugCommitOldTerm || off.Base.Bugs != 0 {
		t.Fatalf("bugs: on %v, off %v", on.Base.Bugs, off.Base.Bugs)
	}
	if len(on.Script) != len(off.Script) {
		t.Fatalf("the two plays have different scripts")
	}
	swapped := func(s *Scenario, bugs raftcore.Bug) error {
		c := *s
		c.Base.Bugs = bugs
		_, r, err := c.Run(1)
		if err != nil {
			t.Fatal(err)
		}
		return r.Expect
	}
	if swapped(on, 0) == nil {
		t.Error("the play with the bug makes its point with Raft's rule in force")
	}
	if swapped(off, raftcore.BugCommitOldTerm) == nil {
		t.Error("the play without the bug makes its point with the bug in force")
	}
}
