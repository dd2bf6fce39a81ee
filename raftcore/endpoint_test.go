package raftcore

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// leaderOf is the running machine that leads in the highest term, or None.
func leaderOf(w *World) NodeID {
	best := None
	for id := NodeID(1); int(id) <= w.Size(); id++ {
		n := w.Node(id)
		if w.Status(id) == StatusUp && n.Role() == RoleLeader && (best == None || n.Term() > w.Node(best).Term()) {
			best = id
		}
	}
	return best
}

// TestAWriteToTheClusterFindsARunningMachine: writes sent to the cluster go
// to the machine its client is connected to, which passes them to the
// leader; with that machine crashed the client moves on to the next
// running one and stays there; with the leader crashed and a new one
// elected, the write is committed by the new leader. Replaying the actions
// sends every write to the same machine.
func TestAWriteToTheClusterFindsARunningMachine(t *testing.T) {
	w := newTestWorld(t, func(c *Config) { c.Nodes, c.Seed = 3, 1 })
	cfg := w.Config()
	w.RunUntil(msToUs(2000))
	lead := leaderOf(w)
	require.Equal(t, NodeID(1), lead, "seed 1 elects machine 1, the client's first endpoint")
	write := func(v string) Op {
		t.Helper()
		require.NoError(t, w.Apply(Action{Do: DoWrite, Key: "k", Value: v}))
		ops := w.Ops()
		w.RunFor(msToUs(1000))
		op, _ := w.Op(ops[len(ops)-1].ID)
		return op
	}
	op := write("a")
	assert.True(t, op.Cluster)
	assert.Equal(t, NodeID(1), op.Node, "the first endpoint")
	assert.Equal(t, OpOK, op.Result)

	require.NoError(t, w.Apply(Action{Do: DoCrash, Node: int(lead)}))
	for k := 0; k < 50 && (leaderOf(w) == None || leaderOf(w) == lead); k++ {
		w.RunFor(msToUs(200))
	}
	next := leaderOf(w)
	require.NotEqual(t, None, next, "a new leader is elected")
	op = write("b")
	assert.NotEqual(t, lead, op.Node, "never the crashed machine")
	assert.Equal(t, StatusUp, w.Status(op.Node))
	assert.Equal(t, OpOK, op.Result, "committed by the new leader")
	found := false
	for i := uint64(1); i <= w.Node(next).LastIndex(); i++ {
		if e := w.Node(next).Entry(i); e.Data.OpID == op.ID {
			found = true
			assert.Equal(t, w.Node(next).Term(), e.Term, "appended by the new leader in its term")
		}
	}
	assert.True(t, found, "the new leader holds the write")
	assert.Equal(t, NodeID(2), w.Endpoint(), "the client moved to the next machine")
	if next == 3 {
		assert.Equal(t, RoleFollower, w.Node(2).Role(), "machine 2 passed the write on")
	}
	stays := w.Endpoint()
	assert.Equal(t, stays, write("c").Node, "the client stays where it moved")

	again, err := NewWorld(cfg)
	require.NoError(t, err)
	require.NoError(t, again.Play(w.Actions()))
	again.RunUntil(w.Now())
	for i, o := range w.Ops() {
		assert.Equal(t, o.Node, again.Ops()[i].Node, "op %d is sent to the same machine on replay", o.ID)
	}
	assert.Equal(t, w.TraceHash(), again.TraceHash())
}

// TestOnlyWritesGoToTheCluster: a write or delete may leave the machine
// out, and its text says it went to the cluster; a read may not.
func TestOnlyWritesGoToTheCluster(t *testing.T) {
	assert.NoError(t, Action{Do: DoWrite, Key: "k", Value: "v"}.Validate(3))
	assert.NoError(t, Action{Do: DoDelete, Key: "k"}.Validate(3))
	assert.ErrorContains(t, Action{Do: DoRead, Key: "k"}.Validate(3), "node")
	assert.ErrorContains(t, Action{Do: DoWrite, Node: -1, Key: "k"}.Validate(3), "node")
	assert.Contains(t, Action{Do: DoWrite, Key: "k", Value: "v"}.String(), "write cluster k=v")
}

// TestAClusterWithEveryMachineDownRefusesTheWrite: with no machine to
// connect to, the write is refused as at a machine that is down.
func TestAClusterWithEveryMachineDownRefusesTheWrite(t *testing.T) {
	w := newTestWorld(t, func(c *Config) { c.Nodes, c.Seed = 3, 1 })
	for id := 1; id <= 3; id++ {
		require.NoError(t, w.Apply(Action{Do: DoCrash, Node: id}))
	}
	require.NoError(t, w.Apply(Action{Do: DoWrite, Key: "k", Value: "v"}))
	op := w.Ops()[0]
	assert.Equal(t, OpRefused, op.Result)
	assert.Equal(t, RefusedMachineDown, op.Refusal)
}

// TestTheClusterClientLeavesARemovedMember: once machine 1 is removed from
// the cluster (etcd stops a removed member), the cluster's client moves on
// to the next member, and its write commits.
func TestTheClusterClientLeavesARemovedMember(t *testing.T) {
	w := newTestWorld(t, func(c *Config) { c.Nodes, c.Members, c.Seed = 4, 3, 2 })
	w.RunUntil(msToUs(2000))
	require.NotEqual(t, None, leaderOf(w))
	require.NoError(t, w.Apply(Action{Do: DoRemove, Node: 1}))
	w.RunFor(msToUs(3000))
	require.False(t, w.Node(1).IsMember(), "machine 1 left the cluster")
	require.NoError(t, w.Apply(Action{Do: DoWrite, Key: "k", Value: "v"}))
	w.RunFor(msToUs(2000))
	op := w.Ops()[0]
	assert.Equal(t, NodeID(2), op.Node, "not the removed machine, nor the spare")
	assert.Equal(t, OpOK, op.Result, op.Reason)
}
