package scenarios

import (
	"errors"
	"fmt"

	"raftlab/raftcore"
)

// The figure figure-8, one of the lab's own: the Raft paper's Figure 8
// (§5.4.2), played to its end with crashes and cuts, as the engine's
// transcript testdata/figure8.txt plays it. An entry of an older term
// reaches a majority, and the leader of a later term must not commit it by
// counting replicas: a server that never had it can still be elected and
// replace it. With the bug switch on (raftcore.BugCommitOldTerm) the
// leader does commit it, the entry is then overwritten, and the checker
// flags both. The knob "then" plays the paper's other ending, (e), where
// S1's own entry reaches a majority first. Settings as in the paper: no PreVote, no CheckQuorum; every
// message takes 10 ms and each append carries one entry, so that every
// step lands at a known instant.

// The script's moments, in milliseconds.
const (
	f8SplitMs    = 500   // (a) S1 leads term 1; x=a reaches S2 only
	f8S5Ms       = 600   // (b) S1 crashes; S5 stands
	f8S1BackMs   = 700   // (c) S5 crashes; S1 restarts and stands
	f8S1DownMs   = 815   //     (d) S1 crashes before its own entry is on a majority
	f8S1LateMs   = 860   //     (e) S1 crashes once its own entry is committed
	f8S5BackMs   = 900   // (d) S5 restarts and stands
	f8HealMs     = 1200  //     the network heals; S1 restarts
	f8UntilMs    = 10000 // the story ends by 1.3 s; the rest shows it settled
	f8BugOff     = "off"
	f8BugOn      = "on"
	f8D          = "(d)"
	f8E          = "(e)"
	f8EUntilMs   = 15000 // (e) ends with an election of its own
	f8EntryIndex = 2
)

var figure8 = def{id: "figure-8",
	knobs: []Knob{{Name: "bug", Label: "Bug: commit old term", Values: []string{f8BugOff, f8BugOn}, Default: f8BugOff},
		// The paper's other ending (figure8_e.go), for the full lab: a
		// figure in a page plays the one its paragraph is about.
		{Name: "then", Label: "Then", Values: []string{f8D, f8E}, Default: f8D, Lab: true}},
	build: func(k values) *Scenario {
		bug, e := k.get("bug") == f8BugOn, k.get("then") == f8E
		cfg := config(raft, []string{"S1", "S2", "S3", "S4", "S5"})
		cfg.PreVote, cfg.CheckQuorum = false, false
		cfg.LatencyMinMs, cfg.LatencyMaxMs = 10, 10
		cfg.MaxEntriesPerMsg = 1
		if bug {
			cfg.Bugs = raftcore.BugCommitOldTerm
		}
		var sc script
		sc.at(100, act(raftcore.DoTimeout, 1))
		sc.at(f8SplitMs, partition([]int{1, 2}, []int{3, 4, 5}), write(1, "x", "a"))
		sc.at(f8S5Ms, act(raftcore.DoCrash, 1), act(raftcore.DoTimeout, 5))
		sc.at(625, cutOneWay(5, 3), cutOneWay(5, 4))
		sc.at(f8S1BackMs, act(raftcore.DoCrash, 5), partition([]int{1, 2, 3}, []int{4}, []int{5}), act(raftcore.DoRestart, 1))
		sc.at(710, act(raftcore.DoTimeout, 1))
		sc.at(750, act(raftcore.DoTimeout, 1))
		if e {
			// The paper's (e): S1's own entry reaches S3 before S1 crashes.
			sc.at(f8S1LateMs, act(raftcore.DoCrash, 1))
		} else {
			sc.at(f8S1DownMs, cutOneWay(1, 3), act(raftcore.DoCrash, 1))
		}
		sc.at(f8S5BackMs, partition([]int{2, 3, 4, 5}, []int{1}), act(raftcore.DoRestart, 5))
		sc.at(910, act(raftcore.DoTimeout, 5))
		sc.at(950, act(raftcore.DoTimeout, 5))
		sc.at(f8HealMs, heal(), act(raftcore.DoRestart, 1))
		s := &Scenario{
			Title:   "The paper's Figure 8",
			Chapter: chapterLab,
			Prompt:  "An entry of an older term reaches a majority: does the new leader commit it? Play it, then again with the bug on.",
			Base:    cfg,
			Script:  sc, UntilMs: f8UntilMs,
			UI: UI{Focus: PanelChecker, Panels: []Panel{PanelChecker, PanelLogs, PanelRoles}, Key: "x", Highlight: []id{1, 5},
				Compare: &Setting{Knob: "bug", Value: f8Other(bug)}},
		}
		if e {
			s.UntilMs = f8EUntilMs
			s.Steps = f8StepsE(bug)
			if bug {
				s.Shows = []raftcore.Rule{raftcore.RuleCommitCurrentTerm}
			}
			s.Expect = func(w *raftcore.World) error { return f8ExpectE(w, bug) }
			s.final = func(*View) string { return f8FinalE(bug) }
			return s
		}
		s.Steps = f8Steps(bug)
		if bug {
			s.Shows = []raftcore.Rule{raftcore.RuleCommitCurrentTerm, raftcore.RuleLeaderCompleteness, raftcore.RuleStateMachineSafety}
		}
		s.Expect = func(w *raftcore.World) error { return f8Expect(w, bug) }
		s.final = func(v *View) string {
			if bug {
				return "With the bug, S1 committed x=a because three of five servers held it, although it was of term 1 and S1 led term 3. S5, which never had it, could still be elected, and replaced it: a committed entry was lost, and S2 and the others now disagree about index 2 for good. Raft's rule is to commit only an entry of the leader's own term by counting; the older ones follow it."
			}
			return "S1 held x=a on a majority in term 3 and did not commit it: it was of term 1. It was waiting for its own entry of term 3 to reach a majority, which would have committed both and kept S5 from being elected. S5 was elected instead and replaced x=a, which broke nothing, since nobody had committed it. Turn the bug on to see what counting replicas would have done."
		}
		return s
	}}

// f8Other is the bug knob's other value.
func f8Other(bug bool) string {
	if bug {
		return f8BugOff
	}
	return f8BugOn
}

// cutOneWay cuts the from->to direction of a link only.
func cutOneWay(from, to int) raftcore.Action {
	return raftcore.Action{Do: raftcore.DoCut, From: from, To: to, OneWay: true}
}

// f8Leads reports whether machine n runs and leads term.
func f8Leads(n id, term uint64) func(v *View) bool {
	return func(v *View) bool {
		nd := v.W.Node(n)
		return isUp(v.W, n) && nd.Role() == raftcore.RoleLeader && nd.Term() == term
	}
}

// f8Holds reports whether each of ns holds an entry of term at index 2.
func f8Holds(v *View, term uint64, ns ...id) bool {
	for _, n := range ns {
		if v.W.Node(n).TermAt(f8EntryIndex) != term {
			return false
		}
	}
	return true
}

// f8Opening is the story up to the paper's (c), which (d) and (e) share.
func f8Opening(bug bool) []Step {
	steps := []Step{
		{Text: "Five servers, as in the paper's Figure 8, with the paper's settings: no PreVote, no CheckQuorum. Every message takes 10 ms; each append carries one entry.",
			Claims: claims(machines(5), allActive())},
		{Text: "(a) S1 leads term 1 and writes x=a at index 2. The network splits before it reaches more than S2.",
			When: func(v *View) bool { return f8Leads(1, 1)(v) && f8Holds(v, 1, 1, 2) },
			Claims: claims(that("S1 leads term 1", f8Leads(1, 1)), that("S1 and S2 hold x=a of term 1 at index 2, and nobody else", func(v *View) bool {
				return f8Holds(v, 1, 1, 2) && v.W.Node(3).LastIndex() < f8EntryIndex && v.W.Node(4).LastIndex() < f8EntryIndex
			}))},
		{Text: "(b) S1 crashes. S5 is elected for term 2 with the votes of S3 and S4, and puts its own entry at index 2, which reaches nobody.",
			When: func(v *View) bool { return f8Leads(5, 2)(v) && f8Holds(v, 2, 5) },
			Claims: claims(silentNow(node(1)), that("S5 leads term 2 with its own entry at index 2", func(v *View) bool { return f8Leads(5, 2)(v) && f8Holds(v, 2, 5) }),
				that("S3 and S4 voted for S5", func(v *View) bool { return v.W.Node(3).Vote() == 5 && v.W.Node(4).Vote() == 5 }))},
	}
	c := Step{When: func(v *View) bool {
		return f8Leads(1, 3)(v) && f8Holds(v, 1, 1, 2, 3) && (!bug || v.W.Node(1).Commit() >= f8EntryIndex)
	}}
	majority := that("S1 leads term 3 and x=a of term 1 is on S1, S2 and S3, a majority", func(v *View) bool { return f8Leads(1, 3)(v) && f8Holds(v, 1, 1, 2, 3) })
	if bug {
		c.Text = "(c) S5 crashes; S1 restarts and is elected for term 3. It copies x=a to S3, so three of five servers hold it, and, with the bug, S1 counts them and commits x=a although it is of term 1. The checker flags the commit."
		c.Claims = claims(majority, that("S1 committed index 2", func(v *View) bool { return v.W.Node(1).Commit() >= f8EntryIndex }),
			that("the checker flagged the commit of an older term's entry", func(v *View) bool { return v.W.ViolationCount(raftcore.RuleCommitCurrentTerm) > 0 }))
	} else {
		c.Text = "(c) S5 crashes; S1 restarts and is elected for term 3. It copies x=a to S3, so three of five servers hold it. S1 does not commit it: it is of term 1. S1 waits until its own entry of term 3, at index 3, reaches a majority."
		c.Claims = claims(majority, that("S1 has not committed index 2", func(v *View) bool { return v.W.Node(1).Commit() < f8EntryIndex }),
			that("S1's own entry of term 3 is at index 3", func(v *View) bool { return v.W.Node(1).TermAt(3) == 3 }))
	}
	return append(steps, c)
}

// f8Steps are the story of the paper's (d): S1 crashes first.
func f8Steps(bug bool) []Step {
	d := Step{When: func(v *View) bool {
		if !f8Leads(5, 4)(v) || !f8Holds(v, 2, 3, 4, 5) {
			return false
		}
		for _, n := range []id{3, 4, 5} {
			if v.W.Node(n).Commit() < f8EntryIndex {
				return false
			}
		}
		return true
	}}
	replaced := that("S5 leads term 4 and its entry of term 2 is committed at index 2 on S3, S4 and S5", d.When)
	if bug {
		d.Text = "(d) S1 crashes before its own entry reaches a majority. S5 restarts and is elected for term 4, though it lacks the committed x=a: its last entry, of term 2, is more up to date than S3's and S4's. It replaces x=a with its own entry and commits that: a committed entry is lost, and the checker flags it."
		d.Claims = claims(silentNow(node(1)), replaced, that("the checker flagged a committed entry replaced", func(v *View) bool {
			return v.W.ViolationCount(raftcore.RuleStateMachineSafety) > 0
		}))
	} else {
		d.Text = "(d) S1 crashes before its own entry reaches a majority. S5 restarts and is elected for term 4: its last entry, of term 2, is more up to date than S3's and S4's. It replaces x=a with its own entry. Nothing is lost: nobody had committed x=a."
		d.Claims = claims(silentNow(node(1)), replaced, that("no safety rule is broken", func(v *View) bool { return len(v.W.Violations()) == 0 }))
	}
	end := Step{When: func(v *View) bool { return isUp(v.W, 1) && whole(v.W) && v.W.Node(1).TermAt(f8EntryIndex) == 2 }}
	if bug {
		// S1 and S2 learned that x=a was committed, and a machine keeps its
		// commit index across a restart, as etcd does: neither ever takes
		// S5's entry, so the run ends once S1 has heard of term 4.
		end.When = func(v *View) bool { return isUp(v.W, 1) && whole(v.W) && v.W.Node(1).Term() == 4 }
		end.Text = "The network heals and S1 comes back. Neither S1 nor S2 takes S5's entry: both had learned that x=a was committed, and a server never replaces an entry it knows is committed. Two servers hold x=a and three hold S5's entry, each side sure its entry is committed: they disagree for good."
		end.Claims = claims(healed(), that("S1 and S2 still hold x=a at index 2, committed", func(v *View) bool {
			return f8Holds(v, 1, 1, 2) && v.W.Node(1).Commit() >= f8EntryIndex && v.W.Node(2).Commit() >= f8EntryIndex
		}))
	} else {
		end.Text = "The network heals and S1 comes back; every server now holds S5's entry at index 2, and none ever applied x=a."
		end.Claims = claims(healed(), that("every server holds S5's entry at index 2 and none applied x=a", func(v *View) bool { return f8Settled(v.W) == nil }))
	}
	return append(f8Opening(bug), d, end)
}

// f8Settled checks the end of the run without the bug: S5's entry of term
// 2 at index 2 everywhere, x=a applied nowhere, no rule broken.
func f8Settled(w *raftcore.World) error {
	for _, n := range all(w) {
		if t := w.Node(n).TermAt(f8EntryIndex); t != 2 {
			return fmt.Errorf("%s holds an entry of term %d at index 2, not S5's of term 2", name(w, n), t)
		}
		if _, ok := w.Node(n).KV().Get("x"); ok {
			return fmt.Errorf("%s applied x=a, which was never committed", name(w, n))
		}
	}
	if vs := w.Violations(); len(vs) > 0 {
		return fmt.Errorf("raft broke a safety rule: %s", vs[0].Text)
	}
	return nil
}

// f8Expect is the figure's point: without the bug S1 never commits x=a
// and S5's entry replaces it harmlessly; with it the checker flags the
// commit of an older term's entry and the loss of a committed one.
func f8Expect(w *raftcore.World, bug bool) error {
	if !bug {
		return f8Settled(w)
	}
	switch {
	case w.ViolationCount(raftcore.RuleCommitCurrentTerm) == 0:
		return errors.New("with the bug, the checker did not flag S1's commit of x=a")
	case w.ViolationCount(raftcore.RuleStateMachineSafety) == 0:
		return errors.New("with the bug, the checker did not flag the committed x=a replaced")
	}
	return nil
}
