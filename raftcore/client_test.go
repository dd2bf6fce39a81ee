package raftcore

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// write asks machine n to write and returns the request's id.
func write(t *testing.T, w *World, n int) int {
	t.Helper()
	mustApply(t, w, Action{Do: DoWrite, Node: n, Key: "k", Value: "v"})
	return len(w.Ops())
}

// TestOpRecordsTheNetworkItFound: each request keeps the side of the
// network its machine was on when it was asked, and whether the network was
// split, however the network changes afterwards.
func TestOpRecordsTheNetworkItFound(t *testing.T) {
	w := newTestWorld(t, nil) // five machines
	w.RunFor(2_000_000)
	type want struct {
		side  []NodeID
		split bool
	}
	wants := map[int]want{}

	wants[write(t, w, 3)] = want{[]NodeID{1, 2, 3, 4, 5}, false}
	_, ok := w.LastSplit()
	assert.False(t, ok, "no split yet")

	w.RunFor(500_000)
	mustApply(t, w, Action{Do: DoPartition, Groups: [][]int{{1, 2}, {3, 4, 5}}})
	splitAt := w.Now()
	wants[write(t, w, 1)] = want{[]NodeID{1, 2}, true}    // minority
	wants[write(t, w, 4)] = want{[]NodeID{3, 4, 5}, true} // majority
	assert.Equal(t, [][]NodeID{{1, 2}, {3, 4, 5}}, w.Sides())

	w.RunFor(500_000)
	mustApply(t, w, Action{Do: DoPause, Node: 5})
	mustApply(t, w, Action{Do: DoCrash, Node: 2})
	wants[write(t, w, 5)] = want{nil, true} // paused: on no side
	wants[write(t, w, 2)] = want{nil, true} // crashed: on no side
	wants[write(t, w, 3)] = want{[]NodeID{3, 4}, true}
	wants[write(t, w, 1)] = want{[]NodeID{1}, true}
	assert.Equal(t, [][]NodeID{{1, 2}, {3, 4, 5}}, w.Sides(), "sides are the links, whoever runs")
	assert.Equal(t, [][]NodeID{{1}, {3, 4}}, w.RunningSides())

	w.RunFor(500_000)
	mustApply(t, w, Action{Do: DoHeal})
	healAt := w.Now()
	wants[write(t, w, 4)] = want{[]NodeID{1, 3, 4}, false}
	mustApply(t, w, Action{Do: DoResume, Node: 5})
	mustApply(t, w, Action{Do: DoRestart, Node: 2})
	wants[write(t, w, 4)] = want{[]NodeID{1, 2, 3, 4, 5}, false}

	// A one-way cut splits the network, but 1 and 2 still talk through
	// the others, so nobody is cut off.
	w.RunFor(500_000)
	mustApply(t, w, Action{Do: DoCut, From: 1, To: 2, OneWay: true})
	wants[write(t, w, 1)] = want{[]NodeID{1, 2, 3, 4, 5}, true}
	// Cut off from everyone both ways, machine 1 is on a side of its own.
	mustApply(t, w, Action{Do: DoPartition, Groups: [][]int{{1}, {2, 3, 4, 5}}})
	wants[write(t, w, 1)] = want{[]NodeID{1}, true}
	wants[write(t, w, 2)] = want{[]NodeID{2, 3, 4, 5}, true}

	at, ok := w.LastSplit()
	require.True(t, ok)
	assert.NotEqual(t, splitAt, at, "the cut split the network again")
	assert.Less(t, healAt, at)
	heal, ok := w.LastHeal()
	require.True(t, ok)
	assert.Equal(t, healAt, heal, "the network has not been whole since")

	w.RunFor(10_000_000)
	require.Len(t, w.Ops(), len(wants))
	for _, op := range w.Ops() {
		assert.Equal(t, wants[op.ID].side, op.Side, "side of request %d (write at %d)", op.ID, op.Node)
		assert.Equal(t, wants[op.ID].split, op.Split, "split for request %d", op.ID)
	}
	// A whole network again: the earlier split and heal are the latest.
	mustApply(t, w, Action{Do: DoHeal})
	at, _ = w.LastSplit()
	heal, _ = w.LastHeal()
	assert.Less(t, at, heal)
}

// TestLastSplitAndHealFollowTheLinks: only a change between whole and split
// moves them, whatever action made it.
func TestLastSplitAndHealFollowTheLinks(t *testing.T) {
	w := newTestWorld(t, func(c *Config) { c.Nodes = 3 })
	w.RunFor(1000)
	mustApply(t, w, Action{Do: DoCut, From: 1, To: 2})
	w.RunFor(1000)
	mustApply(t, w, Action{Do: DoPartition, Groups: [][]int{{1}, {2, 3}}}) // still split
	w.RunFor(1000)
	mustApply(t, w, Action{Do: DoRestore, From: 1, To: 3}) // still 1-2 down
	split, ok := w.LastSplit()
	require.True(t, ok)
	assert.EqualValues(t, 1000, split)
	_, ok = w.LastHeal()
	assert.False(t, ok)

	w.RunFor(1000)
	mustApply(t, w, Action{Do: DoRestore, From: 1, To: 2})
	heal, ok := w.LastHeal()
	require.True(t, ok)
	assert.EqualValues(t, 4000, heal)
	mustApply(t, w, Action{Do: DoHeal}) // already whole
	heal, _ = w.LastHeal()
	assert.EqualValues(t, 4000, heal)

	c := w.Clone()
	mustApply(t, c, Action{Do: DoCut, From: 3, To: 1, OneWay: true})
	split, _ = c.LastSplit()
	assert.EqualValues(t, 4000, split)
	split, _ = w.LastSplit()
	assert.EqualValues(t, 1000, split, "the original does not see its clone's split")
}

// TestOpRecordsRoundTrips: a request keeps the least round trip to each
// machine as the links were when it was made, one-way settings included,
// and later latency changes leave it as it was.
func TestOpRecordsRoundTrips(t *testing.T) {
	w := newTestWorld(t, nil) // five machines
	base := 2 * w.Link(1, 2).LatencyMinUs
	mustApply(t, w, Action{Do: DoLatency, From: 1, To: 4, LatencyMs: []float64{400, 500}})
	mustApply(t, w, Action{Do: DoLatency, From: 5, To: 1, OneWay: true, LatencyMs: []float64{300, 300}})
	first := write(t, w, 1)
	mustApply(t, w, Action{Do: DoLatency, LatencyMs: []float64{1, 1}})
	second := write(t, w, 1)

	op, _ := w.Op(first)
	assert.Equal(t, []int64{0, base, base, 800_000, base/2 + 300_000}, op.RoundTripMinUs)
	op, _ = w.Op(second)
	assert.Equal(t, []int64{0, 2000, 2000, 2000, 2000}, op.RoundTripMinUs)
}

// TestOpSaysWhyItWasRefused: each way a machine refuses a client leaves
// its typed Refusal on the operation, with Reason saying it in words; an
// operation answered or timed out has none.
func TestOpSaysWhyItWasRefused(t *testing.T) {
	// last runs w briefly, so that the newest request is handled, and
	// returns that request.
	last := func(w *World) Op {
		w.RunFor(1_000)
		ops := w.Ops()
		require.NotEmpty(t, ops)
		return ops[len(ops)-1]
	}
	refused := func(t *testing.T, op Op, want Refusal) {
		t.Helper()
		assert.Equal(t, OpRefused, op.Result, "op %d (%s)", op.ID, op.Reason)
		assert.Equal(t, want, op.Refusal)
		assert.Equal(t, want.String(), op.Reason)
	}
	t.Run("no leader", func(t *testing.T) {
		w := newTestWorld(t, nil)
		write(t, w, 1) // before any election
		refused(t, last(w), RefusedNoLeader)
	})
	t.Run("election", func(t *testing.T) {
		w := newTestWorld(t, func(c *Config) { c.PreVote = false })
		mustApply(t, w, Action{Do: DoTimeout, Node: 2})
		w.RunFor(1_000)
		require.Equal(t, RoleCandidate, w.Node(2).Role())
		write(t, w, 2)
		refused(t, last(w), RefusedElection)
	})
	t.Run("pre-vote", func(t *testing.T) {
		w := newTestWorld(t, nil)
		mustApply(t, w, Action{Do: DoTimeout, Node: 2})
		w.RunFor(1_000)
		require.Equal(t, RolePreCandidate, w.Node(2).Role())
		mustApply(t, w, Action{Do: DoRead, Node: 2, Key: "k", Mode: ReadLinearizable})
		refused(t, last(w), RefusedElection)
	})
	t.Run("no authority", func(t *testing.T) {
		w := newTestWorld(t, func(c *Config) { c.Protocol = ProtocolFailover })
		write(t, w, 2) // before machine 1, the authority, is heard from
		refused(t, last(w), RefusedNoAuthority)
	})
	t.Run("lease without CheckQuorum", func(t *testing.T) {
		w := newTestWorld(t, func(c *Config) { c.CheckQuorum = false })
		mustApply(t, w, Action{Do: DoRead, Node: 1, Key: "k", Mode: ReadLease})
		refused(t, last(w), RefusedLeaseNoCheckQuorum)
	})
	t.Run("machine down", func(t *testing.T) {
		w := newTestWorld(t, nil)
		mustApply(t, w, Action{Do: DoCrash, Node: 3})
		write(t, w, 3)
		refused(t, last(w), RefusedMachineDown)
	})
	t.Run("inbox full", func(t *testing.T) {
		w := newTestWorld(t, func(c *Config) { c.InboxLimit = 1 })
		mustApply(t, w, Action{Do: DoPause, Node: 3})
		write(t, w, 3) // waits in the inbox
		write(t, w, 3)
		refused(t, last(w), RefusedInboxFull)
		first, _ := w.Op(1)
		assert.Equal(t, OpPending, first.Result)
	})
	t.Run("crashed while waiting", func(t *testing.T) {
		w := newTestWorld(t, nil)
		mustApply(t, w, Action{Do: DoPause, Node: 3})
		id := write(t, w, 3)
		mustApply(t, w, Action{Do: DoCrash, Node: 3})
		op, _ := w.Op(id)
		refused(t, op, RefusedCrashed)
	})
	t.Run("timeout and answer", func(t *testing.T) {
		w := newTestWorld(t, nil)
		mustApply(t, w, Action{Do: DoPause, Node: 3})
		id := write(t, w, 3)
		w.RunFor(int64(w.Config().ClientTimeoutMs+1) * 1000)
		op, _ := w.Op(id)
		assert.Equal(t, OpTimeout, op.Result)
		assert.Equal(t, RefusedNone, op.Refusal)
		assert.Equal(t, "no answer in time", op.Reason)
		w = newTestWorld(t, nil)
		mustApply(t, w, Action{Do: DoRead, Node: 1, Key: "k", Mode: ReadLocal})
		op = last(w)
		assert.Equal(t, OpOK, op.Result)
		assert.Equal(t, RefusedNone, op.Refusal)
		assert.Empty(t, op.Reason)
	})
}

// TestRefusalWordsAreDistinct: every refusal has its own words, which read
// back as it in JSON.
func TestRefusalWordsAreDistinct(t *testing.T) {
	seen := map[string]Refusal{}
	for r := RefusedNone + 1; int(r) < len(refusalWords); r++ {
		words := r.String()
		require.NotEmpty(t, words, "refusal %d", r)
		require.NotContains(t, seen, words, "two refusals say %q", words)
		seen[words] = r
		b, err := r.MarshalText()
		require.NoError(t, err)
		var back Refusal
		require.NoError(t, back.UnmarshalText(b))
		assert.Equal(t, r, back)
	}
}

// FinishedBefore orders by time, and at one instant by the trace events;
// an operation still waiting finished before nothing.
func TestFinishedBeforeOrdersOneInstantByEvents(t *testing.T) {
	op := func(invokeUs, completeUs int64, invoke, complete uint64) Op {
		return Op{InvokeUs: invokeUs, CompleteUs: completeUs, InvokeEvent: invoke, CompleteEvent: complete, Result: OpOK}
	}
	for _, c := range []struct {
		name string
		a, b Op
		want bool
	}{
		{"earlier time", op(0, 10, 9, 9), op(20, 30, 1, 2), true},
		{"later time", op(0, 30, 1, 2), op(20, 40, 3, 4), false},
		{"one instant, acknowledged first", op(0, 0, 1, 5), op(0, 0, 6, 7), true},
		{"one instant, acknowledged after", op(0, 0, 1, 7), op(0, 0, 6, 8), false},
		{"one instant, no events", op(0, 0, 0, 0), op(0, 0, 0, 0), false},
		{"still waiting", Op{InvokeUs: 0, CompleteUs: -1, InvokeEvent: 1, Result: OpPending}, op(10, 20, 5, 6), false},
	} {
		if got := c.a.FinishedBefore(c.b); got != c.want {
			t.Errorf("%s: FinishedBefore = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestSideCountIsHowManySides: SideCount agrees with Sides as the network
// is split, cut one way and both ways, and healed.
func TestSideCountIsHowManySides(t *testing.T) {
	w := newTestWorld(t, nil) // five machines
	check := func(want int, what string) {
		t.Helper()
		assert.Len(t, w.Sides(), want, what)
		assert.Equal(t, want, w.SideCount(), what)
	}
	check(1, "whole")
	mustApply(t, w, Action{Do: DoCut, From: 1, To: 2, OneWay: true})
	check(1, "one link cut one way: 1 and 2 talk through the others")
	mustApply(t, w, Action{Do: DoPartition, Groups: [][]int{{1, 2}, {3, 4, 5}}})
	check(2, "two groups")
	mustApply(t, w, Action{Do: DoPartition, Groups: [][]int{{1, 2}, {3, 4}, {5}}})
	check(3, "three groups")
	mustApply(t, w, Action{Do: DoHeal})
	for _, b := range []int{2, 3, 4, 5} {
		mustApply(t, w, Action{Do: DoCut, From: 1, To: b})
	}
	check(2, "machine 1 cut from each of the others")
	mustApply(t, w, Action{Do: DoHeal})
	check(1, "healed")
}
