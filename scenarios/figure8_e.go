package scenarios

import (
	"errors"
	"fmt"

	"raftlab/raftcore"
)

// The paper's Figure 8 (e), the figure-8 figure's other ending: S1's own
// entry of term 3 reaches S3 before S1 crashes. Once an entry of the
// leader's own term is on a majority, it and every entry before it are
// committed, and no server that lacks them can be elected: S5 stands and
// loses, refused by the servers that hold the entry of term 3.

// f8StepsE are the story of the paper's (e).
func f8StepsE(bug bool) []Step {
	ownOnMajority := that("S1, S2 and S3 hold S1's entry of term 3 at index 3, and S1 committed it", func(v *View) bool {
		for _, n := range []id{1, 2, 3} {
			if v.W.Node(n).TermAt(3) != 3 {
				return false
			}
		}
		return v.W.Node(1).Commit() >= 3
	})
	e := Step{Text: "(e) S1's own entry of term 3 reaches S3: it is on a majority, so S1 commits it, and x=a before it with it.",
		When:   func(v *View) bool { return isUp(v.W, 1) && v.W.Node(1).Commit() >= 3 },
		Claims: claims(ownOnMajority, that("x=a is committed at S1", func(v *View) bool { return f8Holds(v, 1, 1) && v.W.Node(1).Commit() >= f8EntryIndex }))}
	if bug {
		e.Text = "(e) S1's own entry of term 3 reaches S3 as well: it is on a majority, and S1 commits it."
	}
	loses := Step{Text: "S1 crashes. S5 restarts and stands twice, and loses both times: S2 and S3 hold an entry of term 3, more up to date than S5's last, of term 2, and refuse it.",
		When: func(v *View) bool { return f8StoodAgain(v) >= 2 && v.W.Now() >= (f8S5BackMs+90)*1000 },
		Claims: claims(silentNow(node(1)), that("S5 stood twice since it restarted and leads no term", func(v *View) bool {
			return f8StoodAgain(v) >= 2 && v.W.Node(5).Role() != raftcore.RoleLeader
		}), that("S2 and S3 hold the entry of term 3, S5 a last entry of term 2", func(v *View) bool {
			return v.W.Node(2).LastTerm() == 3 && v.W.Node(3).LastTerm() == 3 && v.W.Node(5).LastTerm() == 2
		}))}
	end := Step{Text: "The network heals and S1 comes back. A server that holds x=a is elected, and every server now holds x=a at index 2, committed.",
		When: func(v *View) bool { return f8HeldEverywhere(v.W) == nil && whole(v.W) },
		Live: func(v *View) string {
			l, _ := topLeader(v.W)
			return fmt.Sprintf("The network heals and S1 comes back. %s, which holds x=a, is elected for term %d, and every server now holds x=a at index 2, committed.", name(v.W, l), v.W.Node(l).Term())
		},
		Claims: claims(healed(), that("a server holding x=a leads, and every server holds x=a committed", func(v *View) bool { return f8HeldEverywhere(v.W) == nil }))}
	return append(f8Opening(bug), e, loses, end)
}

// f8StoodAgain counts the times S5 stood for election after it restarted.
func f8StoodAgain(v *View) int {
	k := 0
	for _, rc := range v.h.roles {
		if rc.node == 5 && rc.to == raftcore.RoleCandidate && rc.atUs >= f8S5BackMs*1000 {
			k++
		}
	}
	return k
}

// f8HeldEverywhere checks the end of (e): a server holding x=a leads, and
// every server holds x=a at index 2, committed and applied.
func f8HeldEverywhere(w *raftcore.World) error {
	l, ok := topLeader(w)
	if !ok || w.Node(l).TermAt(f8EntryIndex) != 1 {
		return errors.New("no server holding x=a leads")
	}
	for _, n := range all(w) {
		nd := w.Node(n)
		if nd.TermAt(f8EntryIndex) != 1 || nd.Commit() < f8EntryIndex {
			return fmt.Errorf("%s does not hold x=a at index 2, committed", name(w, n))
		}
		if v, ok := nd.KV().Get("x"); !ok || v.Value != "a" {
			return fmt.Errorf("%s has not applied x=a", name(w, n))
		}
	}
	return nil
}

// f8ExpectE is (e)'s point: x=a ends committed everywhere, and nothing
// breaks a rule, except with the bug, S1's early commit by counting.
func f8ExpectE(w *raftcore.World, bug bool) error {
	if err := f8HeldEverywhere(w); err != nil {
		return err
	}
	for _, v := range w.Violations() {
		if !bug || v.Rule != raftcore.RuleCommitCurrentTerm {
			return fmt.Errorf("a safety rule is broken: %s", v.Text)
		}
	}
	if bug && w.ViolationCount(raftcore.RuleCommitCurrentTerm) == 0 {
		return errors.New("with the bug, the checker did not flag S1's commit of x=a")
	}
	return nil
}

// f8FinalE is (e)'s closing line.
func f8FinalE(bug bool) string {
	if bug {
		return "With the bug, S1 committed x=a early, by counting replicas, and the checker flagged it. Here S1's own entry followed in time and nothing was lost; in (d) it did not, and the committed x=a was overwritten."
	}
	return "S1 committed x=a only once its own entry of term 3 was on a majority. From then on no server without x=a could be elected: S5 lost, refused by the servers holding the entry of term 3. That is Raft's rule: an older term's entry is committed by an entry of the leader's own term."
}
