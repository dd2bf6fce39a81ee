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

// TestFigure8EndingEWithTheBug: the paper's (e) with the bug on, which no
// single knob's variant covers: S1 commits x=a early and the checker says
// so, but S1's own entry follows, S5 loses, and x=a stays committed.
func TestFigure8EndingEWithTheBug(t *testing.T) {
	s, err := Get("figure-8")
	if err != nil {
		t.Fatal(err)
	}
	if s, err = s.With("then", f8E); err == nil {
		s, err = s.With("bug", f8BugOn)
	}
	if err != nil {
		t.Fatal(err)
	}
	for seed := int64(1); seed <= 5; seed++ {
		w, r, err := s.run(seed, func(i int, v *View) {
			if c := s.Steps[i].Claims; c != nil {
				if err := c(v); err != nil {
					t.Errorf("seed %d, step %d: %v", seed, i, err)
				}
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		if !r.Complete(s) || r.Expect != nil {
			t.Fatalf("seed %d: reached %d of %d steps; %v", seed, len(r.StepsReached), len(s.Steps), r.Expect)
		}
		if w.ViolationCount(raftcore.RuleCommitCurrentTerm) == 0 || w.ViolationCount(raftcore.RuleStateMachineSafety) != 0 {
			t.Fatalf("seed %d: violations %+v", seed, w.Violations())
		}
	}
}
