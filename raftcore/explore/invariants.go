package explore

import (
	"fmt"

	"raftlab/raftcore"
)

// checkState looks for a broken safety rule in one state of w, from the
// machines' public state alone. It is a second opinion beside the checker
// the world runs on every change: that one watches transitions and keeps
// history; this one sees only the state, and counts a majority itself,
// not with raftcore/quorum, so that a bug there cannot make both agree.
func checkState(w *raftcore.World) (raftcore.Violation, bool) {
	size := w.Size()
	majority := size/2 + 1
	judgeMajority := !reconfigurable(w)
	for a := raftcore.NodeID(1); int(a) <= size; a++ {
		na := w.Node(a)
		if na.Commit() > na.LastIndex() {
			return raftcore.Violation{Rule: raftcore.RuleCommitWithinLog, Nodes: []raftcore.NodeID{a}, Index: na.Commit(),
				Text: fmt.Sprintf("machine %d's commit index %d is past the end of its log (%d)", a, na.Commit(), na.LastIndex())}, true
		}
		for b := a + 1; int(b) <= size; b++ {
			nb := w.Node(b)
			if na.Role() == raftcore.RoleLeader && nb.Role() == raftcore.RoleLeader && na.Term() == nb.Term() {
				return raftcore.Violation{Rule: raftcore.RuleElectionSafety, Nodes: []raftcore.NodeID{a, b}, Term: na.Term(),
					Text: fmt.Sprintf("machines %d and %d both lead term %d", a, b, na.Term())}, true
			}
			if v, bad := compareLogs(na, nb, a, b); bad {
				return v, true
			}
			// Two stores that applied the same log prefix hold the same
			// contents (a crashed machine's store is empty: it is not
			// running, and it applies again from the start on restart).
			ia := na.Applied()
			if ia > 0 && ia == nb.Applied() && w.Status(a) != raftcore.StatusCrashed && w.Status(b) != raftcore.StatusCrashed &&
				na.Entry(ia).Chain == nb.Entry(ia).Chain && na.KV().Digest() != nb.KV().Digest() {
				return raftcore.Violation{Rule: raftcore.RuleStateDigest, Nodes: []raftcore.NodeID{a, b}, Index: ia,
					Text: fmt.Sprintf("machines %d and %d have applied the same log up to index %d, yet their stores differ", a, b, ia)}, true
			}
		}
		// Every committed entry is on a majority: it got there before it
		// was committed, and no machine replaces an entry a later leader
		// also holds. Once the configuration can change, a state alone
		// does not say which configuration's majority committed an entry
		// (a machine added since need not hold it yet); the world's
		// checker judges each entry when it is first committed, against
		// the committing machine's configuration.
		// Below a machine's first index its log is compacted: only the
		// compaction point (its chain hash stands for the prefix) is
		// compared, and a machine compacted past an index holds it in
		// its snapshot, which checkSnapshot judges.
		for i := max(na.FirstIndex()-1, 1); judgeMajority && i <= na.Commit(); i++ {
			e := na.Entry(i)
			have := 0
			for c := raftcore.NodeID(1); int(c) <= size; c++ {
				nc := w.Node(c)
				if i+1 < nc.FirstIndex() || (nc.LastIndex() >= i && nc.Entry(i).Chain == e.Chain) {
					have++
				}
			}
			if have < majority {
				return raftcore.Violation{Rule: raftcore.RuleMajority, Nodes: []raftcore.NodeID{a}, Index: i, Term: e.Term,
					Text: fmt.Sprintf("machine %d counts index %d as committed, but only %d of %d machines hold that entry", a, i, have, size)}, true
			}
		}
		if v, bad := checkSnapshot(w, a); bad {
			return v, true
		}
	}
	return raftcore.Violation{}, false
}

// checkSnapshot judges machine a's snapshot, if it has one: it covers only
// committed entries, the machine has applied at least up to it, and its
// store is that of any running machine that has applied exactly the same
// log up to the snapshot's index.
func checkSnapshot(w *raftcore.World, a raftcore.NodeID) (raftcore.Violation, bool) {
	na := w.Node(a)
	s, ok := na.SnapshotAt()
	if !ok {
		return raftcore.Violation{}, false
	}
	if s.Index > na.Commit() || na.Applied() < s.Index {
		return raftcore.Violation{Rule: raftcore.RuleSnapshotSafety, Nodes: []raftcore.NodeID{a}, Index: s.Index,
			Text: fmt.Sprintf("machine %d holds a snapshot at index %d with its commit index at %d and its applied index at %d", a, s.Index, na.Commit(), na.Applied())}, true
	}
	for b := raftcore.NodeID(1); int(b) <= w.Size(); b++ {
		nb := w.Node(b)
		if b == a || w.Status(b) == raftcore.StatusCrashed || nb.Applied() != s.Index || nb.Entry(s.Index).Chain != s.Chain {
			continue
		}
		if nb.KV().Digest() != s.KV().Digest() {
			return raftcore.Violation{Rule: raftcore.RuleSnapshotSafety, Nodes: []raftcore.NodeID{a, b}, Index: s.Index,
				Text: fmt.Sprintf("machine %d's snapshot at index %d differs from machine %d's store, which applied the same log up to it", a, s.Index, b)}, true
		}
	}
	return raftcore.Violation{}, false
}

// compareLogs checks Log Matching (an entry of the same index and term
// means the same log up to it) and that two committed prefixes agree.
func compareLogs(na, nb *raftcore.Node, a, b raftcore.NodeID) (raftcore.Violation, bool) {
	end := min(na.LastIndex(), nb.LastIndex())
	// Only what both logs hold, from their compaction points on.
	for i := max(na.FirstIndex()-1, nb.FirstIndex()-1, 1); i <= end; i++ {
		ea, eb := na.Entry(i), nb.Entry(i)
		if ea.Term == eb.Term && ea.Chain != eb.Chain {
			return raftcore.Violation{Rule: raftcore.RuleLogMatching, Nodes: []raftcore.NodeID{a, b}, Index: i, Term: ea.Term,
				Text: fmt.Sprintf("machines %d and %d both hold an entry of term %d at index %d, yet their logs differ up to it", a, b, ea.Term, i)}, true
		}
		if i <= na.Commit() && i <= nb.Commit() && ea.Chain != eb.Chain {
			return raftcore.Violation{Rule: raftcore.RuleStateMachineSafety, Nodes: []raftcore.NodeID{a, b}, Index: i,
				Text: fmt.Sprintf("machines %d and %d have both committed index %d, with different entries", a, b, i)}, true
		}
	}
	return raftcore.Violation{}, false
}

// reconfigurable reports whether w's configuration can differ from every
// machine a voter: it started with spares, or some log holds a change of
// configuration.
func reconfigurable(w *raftcore.World) bool {
	if m := w.Config().Members; m != 0 && m != w.Size() {
		return true
	}
	for id := raftcore.NodeID(1); int(id) <= w.Size(); id++ {
		n := w.Node(id)
		if n.Membership().Index != 0 {
			return true // a change applied, perhaps compacted since
		}
		for i := n.FirstIndex(); i <= n.LastIndex(); i++ {
			if n.Entry(i).Data.Kind == raftcore.OpConf {
				return true
			}
		}
	}
	return false
}
