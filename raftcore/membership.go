package raftcore

// Membership: which machines take part in the cluster, as etcd-io/raft's
// tracker holds it. Every machine keeps its own configuration: the voters
// (two sets while the configuration is joint: the incoming voters and the
// outgoing ones, and a decision then needs a majority of each) and the
// learners, which receive the log but are never counted. (etcd also keeps
// LearnersNext, voters being demoted to learners through a joint
// configuration; no change here demotes a voter, so it is always empty and
// left out.) A machine that is in none of these sets exists and
// runs, but is not a member: nobody sends it the log, it never stands for
// election, and its answers count for nothing.
//
// A configuration changes only through the log (raft.go's proposeConfChange
// and applyConfChange, following etcd's confchange package) and takes
// effect on each machine when that machine applies the entry, as etcd's
// ApplyConfChange does. World.Config's Members names the machines that are
// voters from the start; the rest of the Nodes are spares.

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"

	"raftlab/raftcore/quorum"
)

// nodeSet is a set of machines, bit i for machine i (1 to MaxNodes).
type nodeSet uint16

func (s nodeSet) has(id NodeID) bool { return id >= 1 && id <= MaxNodes && s&(1<<uint(id)) != 0 }

func (s nodeSet) with(id NodeID) nodeSet    { return s | 1<<uint(id) }
func (s nodeSet) without(id NodeID) nodeSet { return s &^ (1 << uint(id)) }
func (s nodeSet) len() int                  { return bits.OnesCount16(uint16(s)) }

// ids lists the machines in ascending order.
func (s nodeSet) ids() []NodeID {
	if s == 0 {
		return nil
	}
	out := make([]NodeID, 0, s.len())
	for id := NodeID(1); id <= MaxNodes; id++ {
		if s.has(id) {
			out = append(out, id)
		}
	}
	return out
}

// setOf is the set of the given machines; ids outside 1..MaxNodes are left
// out.
func setOf(ids ...NodeID) nodeSet {
	var s nodeSet
	for _, id := range ids {
		if id >= 1 && id <= MaxNodes {
			s = s.with(id)
		}
	}
	return s
}

// firstN is the set of machines 1..n.
func firstN(n int) nodeSet {
	var s nodeSet
	for id := 1; id <= n && id <= MaxNodes; id++ {
		s = s.with(NodeID(id))
	}
	return s
}

func (s nodeSet) String() string {
	var b strings.Builder
	b.WriteByte('(')
	for i, id := range s.ids() {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strconv.Itoa(int(id)))
	}
	b.WriteByte(')')
	return b.String()
}

// majorities holds the majority configuration of every set of machines, so
// that a change of configuration, which can happen on every machine of a
// run, allocates nothing: configurations are immutable and shared. Their
// voters share one array (each of the MaxNodes machines is in half of the
// sets), made when the package starts, as a page opens.
var majorities = func() (all [1 << (MaxNodes + 1)]quorum.MajorityConfig) {
	ids := make([]quorum.ID, 0, MaxNodes<<(MaxNodes-1))
	for s := range all {
		if s&1 != 0 || s == 0 {
			continue // bit 0 names no machine; no machine is the zero value
		}
		from := len(ids)
		for id := NodeID(1); id <= MaxNodes; id++ {
			if nodeSet(s).has(id) {
				ids = append(ids, quorum.ID(id))
			}
		}
		all[s] = quorum.MajorityOfAscending(ids[from:])
	}
	return all
}()

func majorityOf(s nodeSet) quorum.MajorityConfig { return majorities[s&^1] }

// confState is one machine's configuration (etcd's tracker.Config).
type confState struct {
	// incoming and outgoing are the voters; outgoing is empty unless the
	// configuration is joint.
	incoming, outgoing nodeSet
	// learners receive the log and are never counted.
	learners nodeSet
	// autoLeave: the joint configuration is left by the leader on its own
	// once the change that entered it is applied (etcd's AutoLeave).
	autoLeave bool
	// voters is incoming and outgoing as quorum counts them.
	voters quorum.JointConfig
}

func newConfState(incoming, outgoing, learners nodeSet, autoLeave bool) confState {
	return confState{incoming: incoming, outgoing: outgoing, learners: learners,
		autoLeave: autoLeave, voters: quorum.JointConfig{majorityOf(incoming), majorityOf(outgoing)}}
}

// members is every machine the configuration names: each gets the log.
func (c *confState) members() nodeSet {
	return c.incoming | c.outgoing | c.learners
}

func (c *confState) isVoter(id NodeID) bool { return (c.incoming | c.outgoing).has(id) }
func (c *confState) joint() bool            { return c.outgoing != 0 }

// String is etcd's way of writing a configuration: "voters=(1 2 3)&&(1 2)
// learners=(4) autoleave".
func (c confState) String() string {
	s := "voters=" + c.incoming.String()
	if c.joint() {
		s += "&&" + c.outgoing.String()
	}
	if c.learners != 0 {
		s += " learners=" + c.learners.String()
	}
	if c.autoLeave {
		s += " autoleave"
	}
	return s
}

// ConfChangeType is what one configuration change does.
type ConfChangeType uint8

const (
	// ConfNone is the zero value: no change.
	ConfNone ConfChangeType = iota
	// ConfAddVoter makes Node a voter; on a learner, that promotes it
	// (etcd's ConfChangeAddNode).
	ConfAddVoter
	// ConfAddLearner makes Node a learner (etcd's ConfChangeAddLearnerNode).
	ConfAddLearner
	// ConfRemove takes Node out of the configuration (etcd's
	// ConfChangeRemoveNode).
	ConfRemove
	// ConfEnterJoint enters the joint configuration whose incoming voters
	// are Voters: the voters of now become the outgoing ones, voters not in
	// Voters leave, machines in Voters join (a learner among them is
	// promoted). It is left automatically (etcd's ConfChangeV2 with several
	// changes and the automatic transition).
	ConfEnterJoint
	// ConfLeaveJoint leaves the joint configuration for its incoming half
	// (etcd's empty ConfChangeV2).
	ConfLeaveJoint
)

var confChangeNames = [...]string{"", "add", "add-learner", "remove", "enter-joint", "leave-joint"}

func (t ConfChangeType) String() string {
	if int(t) < len(confChangeNames) {
		return confChangeNames[t]
	}
	return "conf(" + strconv.Itoa(int(t)) + ")"
}

// ConfChange is a change of configuration carried by a log entry.
type ConfChange struct {
	Type ConfChangeType
	Node NodeID
	// Voters is, for ConfEnterJoint, the incoming voters.
	Voters nodeSet
}

func (cc ConfChange) String() string {
	switch cc.Type {
	case ConfEnterJoint:
		return "enter-joint " + cc.Voters.String()
	case ConfLeaveJoint:
		return "leave-joint"
	}
	return cc.Type.String() + " " + strconv.Itoa(int(cc.Node))
}

// apply is etcd's confchange.Changer: the configuration c becomes once cc
// is applied, or an error saying why the change cannot be made from c.
func (c confState) apply(cc ConfChange) (confState, error) {
	switch cc.Type {
	case ConfAddVoter, ConfAddLearner, ConfRemove:
		return c.simple(cc)
	case ConfEnterJoint:
		return c.enterJoint(cc.Voters)
	case ConfLeaveJoint:
		if !c.joint() {
			return c, fmt.Errorf("can't leave a non-joint config")
		}
		return newConfState(c.incoming, 0, c.learners, false), nil
	}
	return c, fmt.Errorf("unknown configuration change %d", cc.Type)
}

// simple makes one single-machine change outside a joint configuration
// (etcd's Changer.Simple): at most one voter may change.
func (c confState) simple(cc ConfChange) (confState, error) {
	if c.joint() {
		return c, fmt.Errorf("can't apply simple config change in joint config")
	}
	if cc.Node < 1 || cc.Node > MaxNodes {
		return c, fmt.Errorf("machine %d is out of range", cc.Node)
	}
	in, learners := c.incoming, c.learners
	switch cc.Type {
	case ConfAddVoter:
		in, learners = in.with(cc.Node), learners.without(cc.Node)
	case ConfAddLearner:
		in, learners = in.without(cc.Node), learners.with(cc.Node)
	case ConfRemove:
		in, learners = in.without(cc.Node), learners.without(cc.Node)
	}
	if in == 0 {
		return c, fmt.Errorf("removed all voters")
	}
	return newConfState(in, 0, learners, false), nil
}

// enterJoint enters the joint configuration with incoming voters voters
// (etcd's Changer.EnterJoint with autoLeave): the current voters become the
// outgoing half. A voter that leaves is removed; a learner that joins is
// promoted.
func (c confState) enterJoint(voters nodeSet) (confState, error) {
	if c.joint() {
		return c, fmt.Errorf("config is already joint")
	}
	if c.incoming == 0 {
		return c, fmt.Errorf("can't make a zero-voter config joint")
	}
	if voters == 0 {
		return c, fmt.Errorf("removed all voters")
	}
	return newConfState(voters, c.incoming, c.learners&^voters, true), nil
}

// Membership is a machine's configuration as the app and tests read it.
type Membership struct {
	// Voters are the voters, or while joint the incoming voters; Outgoing
	// is empty unless the configuration is joint.
	Voters, Outgoing []NodeID
	// Learners receive the log and are never counted.
	Learners []NodeID
	// AutoLeave says the joint configuration will be left on its own.
	AutoLeave bool
	// Index is the index of the entry that made it (0: the configuration
	// the cluster started with).
	Index uint64
}

// Joint reports whether a decision needs a majority of two voter sets.
func (m Membership) Joint() bool { return len(m.Outgoing) > 0 }

// String writes the configuration as etcd does.
func (m Membership) String() string {
	c := newConfState(setOf(m.Voters...), setOf(m.Outgoing...), setOf(m.Learners...), m.AutoLeave)
	return c.String()
}

// Membership is the machine's configuration in force: the one it has
// applied.
func (n *Node) Membership() Membership {
	c := &n.conf
	return Membership{Voters: c.incoming.ids(), Outgoing: c.outgoing.ids(), Learners: c.learners.ids(),
		AutoLeave: c.autoLeave, Index: n.confIndex}
}

// ConfIndex is the log index of the configuration change the machine
// applied last (0 for the starting configuration): Membership().Index
// without building the sets.
func (n *Node) ConfIndex() uint64 { return n.confIndex }

// IsMember reports whether the machine's own configuration names it.
func (n *Node) IsMember() bool { return n.conf.members().has(n.ID) }

// IsLearner reports whether the machine is a learner in its own
// configuration.
func (n *Node) IsLearner() bool { return n.conf.learners.has(n.ID) }

// promotable is etcd's promotable: only a voter of its own configuration
// may stand for election.
func (n *Node) promotable() bool { return n.conf.isVoter(n.ID) }

// canCampaign is the check at the top of etcd's hup: a machine stands for
// election only if it is a voter of its own configuration, and not while a
// committed change of configuration waits to be applied (its
// configuration is about to change). Here a machine applies what it
// commits in the same step, so the second never holds between steps; it
// is kept as etcd has it.
func (n *Node) canCampaign() bool {
	if !n.promotable() {
		return false
	}
	for i := n.applied + 1; i <= n.commit && i <= n.log.lastIndex(); i++ {
		if n.log.entry(i).Data.Kind == OpConf {
			return false
		}
	}
	return true
}

// withLearners is the configuration with the learners counted as voters
// of its incoming half: only BugCountLearners counts that way.
func (n *Node) withLearners() quorum.JointConfig {
	return quorum.JointConfig{majorityOf(n.conf.incoming | n.conf.learners), majorityOf(n.conf.outgoing)}
}
