package indepcheck

import (
	"fmt"
	"math/bits"

	"raftlab/raftcore"
)

// Configurations, read here from the logs: which machines' votes and
// copies count. A machine's configuration in force is the start's voters
// changed by every configuration entry it has applied, as etcd applies
// them, read from its own log and interpreted here, not with raftcore's
// membership code. A machine that restarts keeps its configuration (as an
// etcd member keeps it with its applied state), so what a machine has
// applied is the highest index it was ever seen applying. While joint, a
// decision needs a majority of each of the two voter sets; learners never
// count.

// machines is a set of machines, bit i for machine i.
type machines uint16

func (m machines) count() int { return bits.OnesCount16(uint16(m)) }

func (m machines) list() []int {
	var ids []int
	for id := 1; id < 16; id++ {
		if m&(1<<id) != 0 {
			ids = append(ids, id)
		}
	}
	return ids
}

// configuration is one machine's: halves[1] is empty unless joint.
type configuration struct {
	halves   [2]machines
	learners machines
}

// change is the configuration once cc is applied; a change that cannot be
// made from it (a simple one while joint, a leave while not joint, one
// that would leave no voter) leaves it as it is, as a machine does.
func (c configuration) change(cc raftcore.ConfChange) configuration {
	joint := c.halves[1] != 0
	one := machines(1) << uint(cc.Node)
	out := c
	switch cc.Type {
	case raftcore.ConfLeaveJoint:
		if !joint {
			return c
		}
		out.halves[1] = 0
		return out
	case raftcore.ConfEnterJoint:
		incoming := machines(uint16(cc.Voters))
		if joint || incoming == 0 || c.halves[0] == 0 {
			return c
		}
		out.halves = [2]machines{incoming, c.halves[0]}
		out.learners &^= incoming
		return out
	}
	if joint {
		return c
	}
	switch cc.Type {
	case raftcore.ConfAddVoter:
		out.halves[0] |= one
		out.learners &^= one
	case raftcore.ConfAddLearner:
		out.halves[0] &^= one
		out.learners |= one
	case raftcore.ConfRemove:
		out.halves[0] &^= one
		out.learners &^= one
	}
	if out.halves[0] == 0 {
		return c
	}
	return out
}

// quorate reports whether the machines in m hold more than half of each
// non-empty half.
func (c configuration) quorate(m machines) bool {
	for _, h := range c.halves {
		if h != 0 && 2*(m&h).count() <= h.count() {
			return false
		}
	}
	return true
}

func (c configuration) String() string {
	s := fmt.Sprint("voters ", c.halves[0].list())
	if c.halves[1] != 0 {
		s += fmt.Sprint(" and ", c.halves[1].list())
	}
	if c.learners != 0 {
		s += fmt.Sprint(", learners ", c.learners.list())
	}
	return s
}

// configOf is machine id's configuration in force now.
func (c *Checker) configOf(id raftcore.NodeID) configuration {
	return c.configTo(id, c.appliedMax[id])
}

// configTo is machine id's configuration once it has applied its log up
// to index.
func (c *Checker) configTo(id raftcore.NodeID, index uint64) configuration {
	conf := configuration{halves: [2]machines{c.start}}
	n := c.w.Node(id)
	upTo := min(index, n.LastIndex())
	if upTo == 0 {
		return conf
	}
	for i := uint64(1); i <= upTo; i++ {
		if e, ok := c.entryAt(n, i); ok && e.Data.Kind == raftcore.OpConf {
			conf = conf.change(e.Data.Conf)
		}
	}
	return conf
}

// holders is the set of machines whose logs hold e at its index.
func (c *Checker) holders(index uint64, e raftcore.Entry) machines {
	var m machines
	for j := 1; j <= c.size; j++ {
		n := c.w.Node(raftcore.NodeID(j))
		if index < n.FirstIndex() {
			// In the machine's snapshot: checkSnapshot judges it.
			m |= 1 << j
			continue
		}
		if n.LastIndex() >= index {
			if f := n.Entry(index); f.Term == e.Term && f.Data == e.Data {
				m |= 1 << j
			}
		}
	}
	return m
}

// checkElectedByQuorum: the votes machine id got for term (the machines
// seen voting for it in that term, and itself: a candidate votes for
// itself in the step it stands, whose vote event can come after its role
// event when it wins at once) are a majority of each half of its
// configuration.
func (c *Checker) checkElectedByQuorum(id raftcore.NodeID, term uint64) {
	got := machines(1) << uint(id)
	for j := 1; j <= c.size; j++ {
		if c.votes[voteKey{raftcore.NodeID(j), term}] == id {
			got |= 1 << j
		}
	}
	if conf := c.configOf(id); !conf.quorate(got) {
		c.report(fmt.Sprint(term), "election-quorum", "machine %d became leader of term %d with the votes of %v, not a majority of each half of its configuration (%s)", id, term, got.list(), conf)
	}
}

// checkCommitQuorum: a leader that commits an index first does so on a
// majority of each half of the configuration it has in force (the applies
// of the same step, which come after the commit, are not counted yet), or
// of the one its log makes below that index when a single change lies
// between.
func (c *Checker) checkCommitQuorum(id raftcore.NodeID, e raftcore.TraceEvent) {
	if e.Index <= c.firstCommits {
		return
	}
	c.firstCommits = e.Index
	n := c.w.Node(id)
	if c.roles[id] != raftcore.RoleLeader || e.Index > n.LastIndex() || e.Index < n.FirstIndex() {
		return
	}
	have := c.holders(e.Index, n.Entry(e.Index))
	// The changes committed in the step are applied in it, and the
	// leader commits again under the configuration they make (etcd's
	// switchToConfig): what lies beyond them may be on a majority of
	// that one instead.
	// With one change at a time, at most one change is committed and
	// applied in a step; two mean the leader took a second change before
	// the first was applied, and only the configuration before counts.
	pending := 0
	for i := c.appliedMax[id] + 1; i < e.Index; i++ {
		if f, ok := c.entryAt(n, i); ok && f.Data.Kind == raftcore.OpConf {
			pending++
		}
	}
	if conf := c.configOf(id); !conf.quorate(have) && (pending > 1 || !c.configTo(id, e.Index-1).quorate(have)) {
		c.report(fmt.Sprint(e.Index), "commit-quorum", "leader %d committed index %d held by %v, not a majority of each half of its configuration (%s)", id, e.Index, have.list(), conf)
	}
}

// noteApplied keeps what machine id has applied, and whether any machine
// has applied a change of configuration.
func (c *Checker) noteApplied(id raftcore.NodeID, index uint64) {
	c.appliedMax[id] = max(c.appliedMax[id], index)
	if e, ok := c.entryAt(c.w.Node(id), index); !c.reconfigured && ok && e.Data.Kind == raftcore.OpConf {
		c.reconfigured = true
	}
}

// entryAt is the entry at index i of machine n's log: from the log while
// it holds it, and below its first index, where the machine compacted it
// into a snapshot, the committed entry recorded there (every compacted
// entry was committed). ok is false when neither is known.
func (c *Checker) entryAt(n *raftcore.Node, i uint64) (raftcore.Entry, bool) {
	if i >= n.FirstIndex() && i <= n.LastIndex() {
		return n.Entry(i), true
	}
	if i >= 1 && i <= uint64(len(c.committed)) && c.committed[i-1].known {
		return c.committed[i-1].entry, true
	}
	return raftcore.Entry{}, false
}
