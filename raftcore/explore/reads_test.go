package explore

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"raftlab/raftcore"
)

func TestExhaustsASmallSpaceWithReads(t *testing.T) {
	b := small
	b.Reads = 1
	res, err := Explore(b, 0)
	require.NoError(t, err)
	require.Nil(t, res.Counterexample, "correct Raft broke a rule")
	assert.True(t, res.Exhausted)
	// Pinned as the search without reads is: the first leader is elected
	// at depth 5, so reads add states from depth 6 on.
	assert.Equal(t, []int{1, 6, 31, 109, 336, 1084, 3941}, res.Levels)
	assert.Equal(t, 12846, res.Transitions)
}

// readBugRun is the shortest run the explorer finds for read-without-
// confirm (TestFindsAShortestRunForEveryInjectedBug finds it and checks
// it is this one): from the deposed-leader start, machine 2 sends its empty
// entry on, takes a write and replicates it, its client is told "ok", and
// machine 1 is asked to read.
func readBugRun(t *testing.T) raftcore.Schedule {
	t.Helper()
	s := bugCase{bug: raftcore.BugReadWithoutConfirm, from: leaderDeposed}.start(t).Schedule()
	for _, a := range []raftcore.Action{
		{Do: raftcore.DoDeliver, ID: 18},
		{Do: raftcore.DoWrite, Node: 2, Key: writeKey, Value: "v1"},
		{Do: raftcore.DoDeliver, ID: 19},
		{Do: raftcore.DoDeliver, ID: 21},
		{Do: raftcore.DoDeliver, ID: 22},
		{Do: raftcore.DoRead, Node: 1, Key: writeKey, Mode: raftcore.ReadLinearizable},
	} {
		s.Actions = append(s.Actions, a)
	}
	return s
}

// TestDeposedLeadersLeaseReadIsStaleByDesign plays the read bug's run on
// correct Raft. Made a lease read, the last read is answered stale by the
// deposed leader, and the rule lets it pass only because a leader of a
// later term had been elected; a linearizable read there waits for a
// confirmation that cannot come, and is not answered at all.
func TestDeposedLeadersLeaseReadIsStaleByDesign(t *testing.T) {
	s := readBugRun(t)
	s.Options.Bugs = nil
	last := &s.Actions[len(s.Actions)-1]
	require.Equal(t, raftcore.DoRead, last.Do)

	last.Mode = raftcore.ReadLease
	w, err := s.Run()
	require.NoError(t, err)
	ops := w.Ops()
	read := ops[len(ops)-1]
	require.Equal(t, raftcore.OpOK, read.Result)
	acked, ok := lastAcknowledged(ops, read)
	require.True(t, ok)
	assert.True(t, staleAgainst(read, acked), "the deposed leader's lease read is stale")
	assert.True(t, electedAfter(w, read.ReadTerm), "a leader of term 2 was elected")
	_, bad := checkReads(w, 0)
	assert.False(t, bad, "stale by design, not a broken rule")

	last.Mode = raftcore.ReadLinearizable
	w, err = s.Run()
	require.NoError(t, err)
	ops = w.Ops()
	assert.Equal(t, raftcore.OpPending, ops[len(ops)-1].Result, "the read waits for its heartbeat round")
	_, bad = checkReads(w, 0)
	assert.False(t, bad)
}

// TestReadRuleOrdersByEventsAndKnowsDeletes checks the rule on client
// histories at one instant, as an exploration makes them.
func TestReadRuleOrdersByEventsAndKnowsDeletes(t *testing.T) {
	put := func(id int, index, complete uint64) raftcore.Op {
		return raftcore.Op{ID: id, Kind: raftcore.DoWrite, Key: "x", Value: "v", Result: raftcore.OpOK, Index: index, CompleteEvent: complete}
	}
	read := raftcore.Op{ID: 9, Kind: raftcore.DoRead, Key: "x", Result: raftcore.OpOK, InvokeEvent: 20, ReadFound: true, ReadRev: 3, ReadAt: 4}
	for _, c := range []struct {
		name  string
		ops   []raftcore.Op
		stale bool
	}{
		{"the last write before the read was seen", []raftcore.Op{put(1, 2, 5), put(2, 3, 10)}, false},
		{"a write acknowledged after the read began does not count", []raftcore.Op{put(1, 3, 5), put(2, 7, 21)}, false},
		{"a write acknowledged just before it does", []raftcore.Op{put(1, 3, 5), put(2, 7, 19)}, true},
		{"a write that failed does not count", []raftcore.Op{put(1, 3, 5), {ID: 2, Kind: raftcore.DoWrite, Key: "x", Result: raftcore.OpRefused, Index: 7, CompleteEvent: 6}}, false},
		{"another key does not count", []raftcore.Op{put(1, 3, 5), {ID: 2, Kind: raftcore.DoWrite, Key: "y", Result: raftcore.OpOK, Index: 4, CompleteEvent: 6}}, false},
		{"a delete seen as a later revision", []raftcore.Op{{ID: 1, Kind: raftcore.DoDelete, Key: "x", Result: raftcore.OpOK, Index: 2, CompleteEvent: 5}}, false},
		{"a delete missed", []raftcore.Op{{ID: 1, Kind: raftcore.DoDelete, Key: "x", Result: raftcore.OpOK, Index: 3, CompleteEvent: 5}}, true},
	} {
		last, ok := lastAcknowledged(c.ops, read)
		assert.Equal(t, c.stale, ok && staleAgainst(read, last), c.name)
	}
	// Answered from a state too old, whatever it returned.
	old := read
	old.ReadAt = 2
	last, _ := lastAcknowledged([]raftcore.Op{put(1, 3, 5)}, old)
	assert.True(t, staleAgainst(old, last))
	// A key found absent misses any write.
	absent := read
	absent.ReadFound, absent.ReadRev = false, 0
	last, _ = lastAcknowledged([]raftcore.Op{put(1, 1, 5)}, absent)
	assert.True(t, staleAgainst(absent, last))
}
