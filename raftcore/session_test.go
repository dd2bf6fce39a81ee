package raftcore

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// runExample plays a schedule from docs/examples.
func runExample(t *testing.T, name string) *World {
	t.Helper()
	data, err := os.ReadFile("../docs/examples/" + name)
	require.NoError(t, err)
	s, err := ParseSchedule(data)
	require.NoError(t, err)
	w, err := s.Run()
	require.NoError(t, err)
	return w
}

// logValues lists the commands of machine id's log.
func logValues(w *World, id NodeID) []string {
	var out []string
	for _, e := range w.Node(id).Entries(1, w.Node(id).LastIndex()) {
		out = append(out, e.Data.String())
	}
	return out
}

// TestDuplicatedProposalIsAppliedTwiceWithoutSessions reproduces the
// hazard: the network duplicates a write a follower passes on, the leader
// appends both copies around another client's write, and a linearizable
// read then returns the older value although the newer one was
// acknowledged after it. The checker names it.
func TestDuplicatedProposalIsAppliedTwiceWithoutSessions(t *testing.T) {
	w := runExample(t, "duplicate-proposal-no-sessions.json")
	for id := NodeID(1); id <= 3; id++ {
		assert.Equal(t, []string{"(empty)", "x=a", "x=b", "x=a"}, logValues(w, id), "machine %d's log", id)
		v, _ := w.Node(id).KV().Get("x")
		assert.Equal(t, "a", v.Value, "machine %d's store", id)
	}
	ops := w.Ops()
	require.Len(t, ops, 3)
	assert.Equal(t, OpOK, ops[1].Result, "x=b was acknowledged")
	assert.Less(t, ops[0].CompleteUs, ops[1].CompleteUs)
	assert.Equal(t, OpOK, ops[2].Result)
	assert.Equal(t, "a", ops[2].ReadValue, "the read sees the repeat")
	assert.Equal(t, 1, w.ViolationCount(RuleExactlyOnce))
	assert.Equal(t, 1, w.ViolationCount(""), "%v", w.Violations())
}

// TestSessionsApplyADuplicatedProposalOnce is the same run with sessions
// on: the log still holds both copies, but every machine skips the second
// when it applies it, so the read returns b.
func TestSessionsApplyADuplicatedProposalOnce(t *testing.T) {
	w := runExample(t, "duplicate-proposal.json")
	require.True(t, w.Config().Sessions)
	for id := NodeID(1); id <= 3; id++ {
		assert.Equal(t, []string{"(empty)", "x=a", "x=b", "x=a"}, logValues(w, id), "machine %d's log", id)
		v, _ := w.Node(id).KV().Get("x")
		assert.Equal(t, "b", v.Value, "machine %d's store", id)
		assert.Equal(t, uint64(3), v.ModIndex, "x last changed by x=b at index 3")
	}
	ops := w.Ops()
	require.Len(t, ops, 3)
	assert.Equal(t, uint64(1), ops[0].Seq)
	assert.Equal(t, uint64(2), ops[0].Index, "x=a took effect at index 2")
	assert.Equal(t, "b", ops[2].ReadValue)
	assert.Zero(t, w.ViolationCount(""), "%v", w.Violations())
	skipped := 0
	for _, e := range w.Trace() {
		if e.Kind == TraceApply && e.Text == repeatSkipped {
			assert.Equal(t, uint64(4), e.Index)
			skipped++
		}
	}
	assert.Equal(t, 3, skipped, "each machine skips the repeat at index 4")
}

// TestSessionTableAdmitsEachSequenceNumberOnce: writes of one client may
// reach the log out of order; each takes effect the first time only, the
// repeat gets the first copy's index, and numbers below the client's
// low-water mark are forgotten and refused.
func TestSessionTableAdmitsEachSequenceNumberOnce(t *testing.T) {
	var tab sessionTable
	put := func(client NodeID, seq, low uint64) Command {
		return Command{Kind: OpPut, Key: "k", Client: client, Seq: seq, Low: low}
	}
	admit := func(c Command, index uint64) (bool, uint64) { return tab.admit(c, index) }

	took, at := admit(put(2, 2, 1), 5)
	assert.True(t, took)
	assert.Equal(t, uint64(5), at)
	took, _ = admit(put(2, 1, 1), 6) // overtaken by seq 2: still new
	assert.True(t, took)
	took, at = admit(put(2, 2, 1), 7)
	assert.False(t, took, "a repeat of seq 2")
	assert.Equal(t, uint64(5), at, "the cached result is the first index")
	took, _ = admit(put(3, 2, 1), 8)
	assert.True(t, took, "another client's seq 2 is its own")

	took, _ = admit(put(2, 4, 3), 9) // the client has its answers below 3
	assert.True(t, took)
	assert.Equal(t, uint64(3), tab.find(2).low)
	assert.Len(t, tab.find(2).done, 1, "results below the low-water mark are forgotten")
	took, at = admit(put(2, 1, 1), 10)
	assert.False(t, took, "below the low-water mark")
	assert.Zero(t, at)
	took, _ = admit(put(2, 3, 3), 11)
	assert.True(t, took, "seq 3 was never applied")

	took, _ = admit(Command{Kind: OpPut, Key: "k"}, 12)
	assert.True(t, took, "a write outside any session always applies")
	took, _ = admit(Command{Kind: OpPut, Key: "k"}, 13)
	assert.True(t, took)
	assert.Equal(t, []NodeID{2, 3}, []NodeID{tab[0].client, tab[1].client}, "sessions kept in client order")
}

// TestSessionsSurviveCloneIndependently: a cloned world's session table
// is its own, so a fork that applies a write does not make the original
// skip it.
func TestSessionsSurviveCloneIndependently(t *testing.T) {
	kv := KV{}
	kv.apply(Entry{Index: 1, Data: Command{Kind: OpPut, Key: "k", Value: "a", Client: 1, Seq: 1, Low: 1}})
	c := kv.clone()
	did := c.apply(Entry{Index: 2, Data: Command{Kind: OpPut, Key: "k", Value: "b", Client: 1, Seq: 2, Low: 1}})
	require.False(t, did.Repeat)
	did = kv.apply(Entry{Index: 2, Data: Command{Kind: OpPut, Key: "k", Value: "b", Client: 1, Seq: 2, Low: 1}})
	assert.False(t, did.Repeat, "the original never saw seq 2")
}

// TestSessionsOffWritesCarryNoSession: with the knob off, commands carry no
// client id, and a schedule made from the world says so.
func TestSessionsOffWritesCarryNoSession(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Nodes, cfg.Sessions = 3, false
	w := MustWorld(cfg)
	w.RunFor(3_000_000)
	mustApply(t, w, Action{Do: DoWrite, Node: 1, Key: "k", Value: "v"})
	w.RunFor(1_000_000)
	n := w.Node(1)
	last := n.Entry(n.LastIndex())
	assert.Equal(t, OpPut, last.Data.Kind)
	assert.Equal(t, None, last.Data.Client)
	assert.Zero(t, w.Ops()[0].Seq)
	s := w.Schedule()
	require.NotNil(t, s.Options.Sessions)
	assert.False(t, *s.Options.Sessions)
	assert.False(t, s.Config().Sessions)
}
