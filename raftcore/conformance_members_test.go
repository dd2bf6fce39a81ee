package raftcore

// Conformance with etcd-io/raft for changes of configuration and
// leadership transfer: the same add, add-learner, promote, remove, joint
// and transfer steps on etcd RawNodes (which apply each committed
// ConfChangeV2 with ApplyConfChange, and step down when removed, as
// StepDownOnRemoval asks) and on raftcore, compared after every step as
// conformance_test.go compares them, configurations included.

import (
	"fmt"
	"strings"
	"testing"

	"go.etcd.io/raft/v3/raftpb"
)

// confEtcdChange writes an etcd ConfChangeV2 in raftcore's words. A joint
// change carries raftcore's words in its Context (confChange puts them
// there), since etcd names the changes and raftcore the new voters.
func confEtcdChange(data []byte) string {
	var cc raftpb.ConfChangeV2
	if err := cc.Unmarshal(data); err != nil {
		return "undecodable conf change: " + err.Error()
	}
	switch {
	case len(cc.Changes) == 0:
		return ConfChange{Type: ConfLeaveJoint}.String()
	case len(cc.Context) > 0:
		return string(cc.Context)
	case len(cc.Changes) == 1:
		c := cc.Changes[0]
		t := map[raftpb.ConfChangeType]ConfChangeType{raftpb.ConfChangeAddNode: ConfAddVoter,
			raftpb.ConfChangeAddLearnerNode: ConfAddLearner, raftpb.ConfChangeRemoveNode: ConfRemove}[c.Type]
		return ConfChange{Type: t, Node: NodeID(c.NodeID)}.String()
	}
	return fmt.Sprintf("conf change %v", cc.Changes)
}

// confChange asks machine id for a change: ProposeConfChange on etcd, the
// membership action on raftcore. For "joint", voters are the new voters
// and old the voters now.
func (h *lockstep) confChange(id int, do Verb, node int, old, voters []int) {
	h.t.Helper()
	a := Action{Do: do, Node: node, From: id}
	var cc raftpb.ConfChangeV2
	switch do {
	case DoAdd, DoPromote:
		cc.Changes = []raftpb.ConfChangeSingle{{Type: raftpb.ConfChangeAddNode, NodeID: uint64(node)}}
	case DoAddLearner:
		cc.Changes = []raftpb.ConfChangeSingle{{Type: raftpb.ConfChangeAddLearnerNode, NodeID: uint64(node)}}
	case DoRemove:
		cc.Changes = []raftpb.ConfChangeSingle{{Type: raftpb.ConfChangeRemoveNode, NodeID: uint64(node)}}
	case DoJoint:
		a.Node, a.Voters = 0, voters
		in := map[int]bool{}
		for _, v := range voters {
			in[v] = true
			cc.Changes = append(cc.Changes, raftpb.ConfChangeSingle{Type: raftpb.ConfChangeAddNode, NodeID: uint64(v)})
		}
		for _, v := range old {
			if !in[v] {
				cc.Changes = append(cc.Changes, raftpb.ConfChangeSingle{Type: raftpb.ConfChangeRemoveNode, NodeID: uint64(v)})
			}
		}
		cc.Context = []byte(confChangeOf(a).String())
	}
	err := h.etcd.rns[id].ProposeConfChange(cc)
	seen := len(h.w.Trace())
	if aerr := h.w.Apply(a); aerr != nil {
		h.t.Fatal(aerr)
	}
	h.settle(fmt.Sprintf("%s at %d", a.String(), id))
	// etcd reports a dropped proposal as an error; a change it takes and
	// turns into an empty entry is no error, and neither is it here.
	refused := false
	for _, e := range h.w.Trace()[seen:] {
		for _, r := range []Refusal{RefusedNoLeader, RefusedElection, RefusedTransfer} {
			if e.Kind == TraceConf && strings.HasSuffix(e.Text, ": "+r.String()) {
				refused = true
			}
		}
	}
	if (err != nil) != refused {
		h.fail(fmt.Sprintf("etcd's answer %v; raftcore refused it: %v", err, refused))
	}
}

// transfer asks leader id to hand leadership to target.
func (h *lockstep) transfer(id, target int) {
	h.t.Helper()
	h.etcd.rns[id].TransferLeader(uint64(target))
	if err := h.w.Apply(Action{Do: DoTransferLeader, Node: target, From: id}); err != nil {
		h.t.Fatal(err)
	}
	h.settle(fmt.Sprintf("transfer leadership from %d to %d", id, target))
}

// expectConf checks the configuration of machines ids (on raftcore; the
// comparison has shown etcd's to be the same).
func (h *lockstep) expectConf(want string, ids ...int) {
	h.t.Helper()
	for _, id := range ids {
		if got := h.w.Node(NodeID(id)).conf.String(); got != want {
			h.t.Fatalf("%s: machine %d has configuration %s, want %s", h.o, id, got, want)
		}
	}
}

func confMemberSettings(t *testing.T, nodes, members int, f func(t *testing.T, h *lockstep)) {
	confAllSettings(t, nodes, func(t *testing.T, o clusterOpts) {
		o.members = members
		f(t, newLockstep(t, o))
	})
}

// The operator's round: a learner is added and catches up from an empty
// log, is promoted, leadership moves to it, and the old leader is removed
// and steps down.
func TestConformanceLearnerPromoteTransferRemove(t *testing.T) {
	confMemberSettings(t, 4, 3, func(t *testing.T, h *lockstep) {
		h.campaign(1)
		h.flush()
		h.propose(1, "a", "1")
		h.flush()
		h.confChange(1, DoAddLearner, 4, nil, nil)
		h.flush()
		h.expectConf("voters=(1 2 3) learners=(4)", 1, 2, 3, 4)
		h.expectLog(4, 3, "1:", "1:a=1", "1:add-learner 4")
		h.confChange(1, DoPromote, 4, nil, nil)
		h.flush()
		h.expectConf("voters=(1 2 3 4)", 1, 2, 3, 4)
		h.transfer(1, 4)
		h.flush()
		h.expectLeader(4, 2)
		h.propose(4, "b", "2")
		h.flush()
		h.confChange(4, DoRemove, 1, nil, nil)
		h.flush()
		h.expectConf("voters=(2 3 4)", 2, 3, 4)
		h.propose(4, "c", "3")
		h.flush()
		h.expectLog(2, 8, "1:", "1:a=1", "1:add-learner 4", "1:add 4", "2:", "2:b=2", "2:remove 1", "2:c=3")
	})
}

// A leader that removes itself steps down once it applies the change; a
// vote asked for at once by one of the rest goes as etcd's goes (with
// CheckQuorum, the other still trusts the old leader's lease).
func TestConformanceRemoveTheLeader(t *testing.T) {
	confMemberSettings(t, 3, 0, func(t *testing.T, h *lockstep) {
		h.campaign(1)
		h.flush()
		h.confChange(1, DoRemove, 1, nil, nil)
		h.flush()
		h.expectRole(1, RoleFollower, 1)
		h.expectConf("voters=(2 3)", 1, 2, 3)
		h.campaign(2)
		h.flush()
		if !h.o.checkQuorum {
			h.expectLeader(2, 2)
		}
	})
}

// Growing three to five and replacing a voter through joint
// configurations, each left by the leader on its own once applied.
func TestConformanceJoint(t *testing.T) {
	confMemberSettings(t, 5, 3, func(t *testing.T, h *lockstep) {
		h.campaign(1)
		h.flush()
		h.confChange(1, DoJoint, 0, []int{1, 2, 3}, []int{1, 2, 3, 4, 5})
		// The entry commits and is applied before the joint configuration
		// is left: step by step on the leader's side.
		h.deliver(1, 2)
		h.deliver(2, 1)
		h.expectConf("voters=(1 2 3 4 5)&&(1 2 3) autoleave", 1)
		h.expectConf("voters=(1 2 3)", 2, 3, 4, 5)
		h.flush()
		h.expectConf("voters=(1 2 3 4 5)", 1, 2, 3, 4, 5)
		h.confChange(1, DoJoint, 0, []int{1, 2, 3, 4, 5}, []int{1, 2, 4})
		h.flush()
		h.expectConf("voters=(1 2 4)", 1, 2, 4)
		h.propose(2, "k", "v")
		h.flush()
	})
}

// One change at a time: a second change before the first is applied, and a
// change made while joint, become empty entries on both.
func TestConformanceOnePendingChange(t *testing.T) {
	confMemberSettings(t, 5, 3, func(t *testing.T, h *lockstep) {
		h.campaign(1)
		h.flush()
		h.confChange(1, DoAdd, 4, nil, nil)
		h.confChange(1, DoAdd, 5, nil, nil)
		h.flush()
		h.expectLog(1, 3, "1:", "1:add 4", "1:")
		h.confChange(1, DoJoint, 0, []int{1, 2, 3, 4}, []int{1, 2, 3, 4, 5})
		h.deliver(1, 2)
		h.deliver(2, 1)
		h.deliver(1, 3)
		h.deliver(3, 1)
		h.confChange(1, DoRemove, 2, nil, nil)
		h.flush()
		h.expectConf("voters=(1 2 3 4 5)", 1, 2, 3, 4, 5)
	})
}

// A transfer to a follower that lags: the leader refuses proposals, sends
// what the target lacks, and sends TimeoutNow once it has caught up; the
// target wins in the next term. A transfer to a machine cut off is
// abandoned after an election timeout, and proposals are taken again.
func TestConformanceTransfer(t *testing.T) {
	confMemberSettings(t, 3, 0, func(t *testing.T, h *lockstep) {
		h.campaign(1)
		h.flush()
		h.partition([]int{1, 2}, []int{3})
		h.propose(1, "a", "1")
		h.flush()
		h.heal()
		h.transfer(1, 3)
		if h.propose(1, "b", "2") {
			t.Fatal("a proposal was taken during the transfer")
		}
		h.confChange(1, DoRemove, 2, nil, nil) // dropped too, on both
		h.flush()
		h.expectLeader(3, 2)
		h.partition([]int{1, 2}, []int{3})
		h.propose(3, "c", "3")
		h.flush()
		h.transfer(3, 1)
		h.flush()
		for i := 0; i < 10; i++ {
			h.tick(3)
			h.flush()
		}
		h.heal()
		h.expectLeader(3, 2)
	})
}
