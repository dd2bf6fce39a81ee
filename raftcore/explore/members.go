package explore

import (
	"fmt"
	"math/bits"

	"raftlab/raftcore"
)

// Membership actions: with Bounds.Reconfigs above zero, a running leader
// can be asked to change the configuration or to hand leadership over.
// The leader is named in the action (From), so that a deposed leader that
// still leads an old term is asked too. Only what the machine's server
// check would pass is offered (an add of a machine that is not yet a
// member, a promote of a learner, a remove of a member, a transfer to
// another voter): a request refused there changes nothing but the budget.
// Whether the leader takes the change or writes an empty entry in its
// place (one change at a time, none but the leave while joint) is left to
// the engine, so that a bug there shows. A joint change is offered while
// the configuration is not joint, for each machine that is not a voter:
// the voters with it added, and the voters with it in place of each one
// of them.

// isMember reports whether v is a membership verb.
func isMember(v raftcore.Verb) bool {
	switch v {
	case raftcore.DoAdd, raftcore.DoAddLearner, raftcore.DoPromote, raftcore.DoRemove, raftcore.DoJoint, raftcore.DoTransferLeader:
		return true
	}
	return false
}

// set is a set of machines, bit i for machine i.
type set uint16

func setOf(ids []raftcore.NodeID) set {
	var s set
	for _, id := range ids {
		s |= 1 << uint(id)
	}
	return s
}

func (s set) has(id raftcore.NodeID) bool { return s&(1<<uint(id)) != 0 }

// ints lists the machines of s in ascending order.
func (s set) ints() []int {
	var out []int
	for id := 1; id < 16; id++ {
		if s&(1<<uint(id)) != 0 {
			out = append(out, id)
		}
	}
	return out
}

// memberArg packs a membership action for step.arg: the machine it is
// about, the machine asked above it, and a joint change's new voters
// above that.
func memberArg(a raftcore.Action) uint64 {
	var voters set
	for _, id := range a.Voters {
		voters |= 1 << uint(id)
	}
	return uint64(a.Node) | uint64(a.From)<<8 | uint64(voters)<<16
}

// memberAction unpacks memberArg.
func memberAction(do raftcore.Verb, arg uint64) raftcore.Action {
	a := raftcore.Action{Do: do, From: int(arg >> 8 & 0xff)}
	if do == raftcore.DoJoint {
		a.Voters = set(arg >> 16 & 0xffff).ints()
		return a
	}
	a.Node = int(arg & 0xff)
	return a
}

// memberChoices adds the membership actions machine id can be asked, if
// it leads.
func memberChoices(w *raftcore.World, id raftcore.NodeID, out []raftcore.Action) []raftcore.Action {
	m := w.Node(id)
	if m.Role() != raftcore.RoleLeader {
		return out
	}
	c := m.Membership()
	voters := setOf(c.Voters) | setOf(c.Outgoing)
	learners := setOf(c.Learners)
	from := int(id)
	for x := raftcore.NodeID(1); int(x) <= w.Size(); x++ {
		switch {
		case learners.has(x):
			out = append(out, raftcore.Action{Do: raftcore.DoPromote, Node: int(x), From: from})
		case !voters.has(x):
			out = append(out,
				raftcore.Action{Do: raftcore.DoAdd, Node: int(x), From: from},
				raftcore.Action{Do: raftcore.DoAddLearner, Node: int(x), From: from})
		}
		if voters.has(x) || learners.has(x) {
			out = append(out, raftcore.Action{Do: raftcore.DoRemove, Node: int(x), From: from})
		}
		if voters.has(x) && x != id {
			out = append(out, raftcore.Action{Do: raftcore.DoTransferLeader, Node: int(x), From: from})
		}
	}
	if c.Joint() {
		return out
	}
	for x := raftcore.NodeID(1); int(x) <= w.Size(); x++ {
		if voters.has(x) {
			continue
		}
		in := voters | 1<<uint(x)
		out = append(out, raftcore.Action{Do: raftcore.DoJoint, Voters: in.ints(), From: from})
		for v := raftcore.NodeID(1); int(v) <= w.Size(); v++ {
			if voters.has(v) {
				out = append(out, raftcore.Action{Do: raftcore.DoJoint, Voters: (in &^ (1 << uint(v))).ints(), From: from})
			}
		}
	}
	return out
}

// conf is a configuration as this package reads it from a log, on its own
// and not with raftcore's membership code: the voters (while joint, the
// incoming ones, with the outgoing ones in out) and the learners.
type conf struct{ in, out, learners set }

// confOf is the configuration machine n has in force when it has applied
// its log up to upTo: the start's voters, changed by every change of
// configuration in the log up to there. A change that cannot be made
// where it stands (a simple change while joint, a leave while not joint,
// one that leaves no voter) changes nothing, as a machine refuses to
// apply it.
func confOf(w *raftcore.World, n *raftcore.Node, upTo uint64) conf {
	members := w.Config().Members
	if members == 0 {
		members = w.Size()
	}
	var c conf
	for id := 1; id <= members; id++ {
		c.in |= 1 << uint(id)
	}
	from := uint64(1)
	if snap, ok := n.SnapshotAt(); ok {
		// The changes up to the snapshot are compacted away: start from
		// the configuration it holds.
		m := snap.Membership()
		c = conf{in: setOf(m.Voters), out: setOf(m.Outgoing), learners: setOf(m.Learners)}
		from = snap.Index + 1
	}
	for i := from; i <= min(upTo, n.LastIndex()); i++ {
		if e := n.Entry(i); e.Data.Kind == raftcore.OpConf {
			c = c.after(e.Data.Conf)
		}
	}
	return c
}

// after is c once cc is applied.
func (c conf) after(cc raftcore.ConfChange) conf {
	x := set(1) << uint(cc.Node)
	next := c
	switch cc.Type {
	case raftcore.ConfAddVoter:
		next.in, next.learners = c.in|x, c.learners&^x
	case raftcore.ConfAddLearner:
		next.in, next.learners = c.in&^x, c.learners|x
	case raftcore.ConfRemove:
		next.in, next.learners = c.in&^x, c.learners&^x
	case raftcore.ConfEnterJoint:
		voters := set(uint16(cc.Voters))
		if c.out != 0 || voters == 0 {
			return c
		}
		next.in, next.out, next.learners = voters, c.in, c.learners&^voters
	case raftcore.ConfLeaveJoint:
		if c.out == 0 {
			return c
		}
		next.out = 0
	}
	if cc.Type != raftcore.ConfEnterJoint && cc.Type != raftcore.ConfLeaveJoint && (c.out != 0 || next.in == 0) {
		return c
	}
	return next
}

// wonBy reports whether the machines in have are a majority of each half
// of c.
func (c conf) wonBy(have set) bool {
	major := func(voters set) bool {
		return voters == 0 || 2*bits.OnesCount16(uint16(have&voters)) > bits.OnesCount16(uint16(voters))
	}
	return major(c.in) && major(c.out)
}

func (c conf) String() string {
	s := fmt.Sprint("voters ", c.in.ints())
	if c.out != 0 {
		s += fmt.Sprint(" and ", c.out.ints())
	}
	if c.learners != 0 {
		s += fmt.Sprint(", learners ", c.learners.ints())
	}
	return s
}

// checkCommits judges the step from w to c: a leader that moved its
// commit index in the step counted a majority of each half of the
// configuration it had in force before the step (the changes it had
// applied, or kept from before a restart), or of the one its log makes
// below the new commit index, and the entry at its new commit index must
// be on such a majority now. Learners never count.
func checkCommits(w, c *raftcore.World) (raftcore.Violation, bool) {
	for id := raftcore.NodeID(1); int(id) <= w.Size(); id++ {
		before, after := w.Node(id), c.Node(id)
		if before.Role() != raftcore.RoleLeader || after.Role() != raftcore.RoleLeader || before.Term() != after.Term() ||
			after.Commit() <= before.Commit() || c.Status(id) == raftcore.StatusCrashed {
			continue
		}
		index := after.Commit()
		in := confOf(w, before, max(before.Applied(), before.Membership().Index))
		want := after.Entry(index).Chain
		var have set
		for j := raftcore.NodeID(1); int(j) <= c.Size(); j++ {
			if nj := c.Node(j); nj.LastIndex() >= index && nj.Entry(index).Chain == want {
				have |= 1 << uint(j)
			}
		}
		// The changes committed in the step are applied in it, and the
		// leader commits again under the configuration they make (etcd's
		// switchToConfig): what lies beyond them may be on a majority of
		// that one instead.
		if !in.wonBy(have) && !confOf(w, after, index-1).wonBy(have) {
			return raftcore.Violation{Rule: raftcore.RuleMajority, Nodes: []raftcore.NodeID{id}, Index: index, Term: after.Term(),
				Text: fmt.Sprintf("leader %d committed index %d held by machines %v, not a majority of each half of its configuration (%s)", id, index, have.ints(), in)}, true
		}
	}
	return raftcore.Violation{}, false
}
