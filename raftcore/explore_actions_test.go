package raftcore

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// frozenWorld is a world of three machines whose clock is never moved: only
// actions change it, as in an exploration.
func frozenWorld(t *testing.T) *World {
	t.Helper()
	cfg := DefaultConfig()
	cfg.Nodes = 3
	return MustWorld(cfg)
}

func TestDeliverHandsOneMessageOverNow(t *testing.T) {
	w := frozenWorld(t)
	mustApply(t, w, Action{Do: DoTimeout, Node: 1})
	wire := w.InFlight()
	require.Len(t, wire, 2, "a pre-vote to each of the other two machines")
	// The second message arrives first, ahead of its latency.
	mustApply(t, w, Action{Do: DoDeliver, ID: wire[1].ID})
	assert.Equal(t, int64(0), w.Now(), "delivering takes no time")
	after := w.InFlight()
	require.Len(t, after, 2, "the pre-vote answered, the other still on its way")
	assert.Equal(t, wire[0].ID, after[0].ID)
	assert.Equal(t, MsgPreVoteResp, after[1].Type)
	assert.Equal(t, NodeID(3), after[1].From)
	assert.False(t, after[1].Reject)
	// Its own arrival later finds nothing to do: the answer is the only
	// reply machine 3 ever sends.
	w.RunFor(1_000_000)
	replies := 0
	for _, e := range w.Trace() {
		if e.Kind == TraceSend && e.Node == 3 && e.MsgType == MsgPreVoteResp {
			replies++
		}
	}
	assert.LessOrEqual(t, replies, 1)
	assert.Equal(t, 0, w.ViolationCount(""))
}

func TestRepeatPutsASecondCopyInFlight(t *testing.T) {
	w := frozenWorld(t)
	mustApply(t, w, Action{Do: DoTimeout, Node: 1})
	m := w.InFlight()[0]
	mustApply(t, w, Action{Do: DoRepeat, ID: m.ID})
	wire := w.InFlight()
	require.Len(t, wire, 3)
	c := wire[2]
	assert.NotEqual(t, m.ID, c.ID, "the copy has an id of its own")
	assert.Equal(t, m.Type, c.Type)
	assert.Equal(t, m.To, c.To)
	assert.Equal(t, m.Term, c.Term)
	// Both copies can be delivered, one after the other.
	mustApply(t, w, Action{Do: DoDeliver, ID: m.ID})
	mustApply(t, w, Action{Do: DoDeliver, ID: c.ID})
	answers := 0
	for _, x := range w.InFlight() {
		if x.Type == MsgPreVoteResp {
			answers++
		}
	}
	assert.Equal(t, 2, answers, "each copy is answered")
}

func TestHeartbeatActionMakesOnlyALeaderSend(t *testing.T) {
	w := frozenWorld(t)
	mustApply(t, w, Action{Do: DoHeartbeat, Node: 1})
	assert.Empty(t, w.InFlight(), "a follower has no heartbeat to send")
	// Elect machine 1 with machine 2's votes.
	mustApply(t, w, Action{Do: DoTimeout, Node: 1})
	deliverTo := func(to NodeID, typ MsgType) { t.Helper(); deliverFirst(t, w, to, typ) }
	deliverTo(2, MsgPreVote)
	deliverTo(1, MsgPreVoteResp)
	deliverTo(2, MsgVote)
	deliverTo(1, MsgVoteResp)
	require.Equal(t, RoleLeader, w.Node(1).Role())
	before := w.InFlightCount()
	elapsed, _ := w.Node(1).ElectionTimer()
	mustApply(t, w, Action{Do: DoHeartbeat, Node: 1})
	heartbeats := 0
	for _, m := range w.InFlight() {
		if m.Type == MsgHeartbeat {
			heartbeats++
			assert.Equal(t, w.Node(1).Term(), m.Term)
		}
	}
	assert.Equal(t, 2, heartbeats)
	assert.Equal(t, before+2, w.InFlightCount())
	after, _ := w.Node(1).ElectionTimer()
	assert.Equal(t, elapsed, after, "no time passes: the CheckQuorum count stays")
}

func TestMessageActionsNeedAMessageInFlight(t *testing.T) {
	w := frozenWorld(t)
	for _, v := range []Verb{DoDeliver, DoRepeat} {
		err := w.Apply(Action{Do: v})
		require.Error(t, err)
		assert.Contains(t, err.Error(), "id: "+string(v)+" needs the id of a message in flight")
		err = w.Apply(Action{Do: v, ID: 99})
		require.Error(t, err)
		assert.Contains(t, err.Error(), "id: message 99 is not in flight")
	}
	mustApply(t, w, Action{Do: DoTimeout, Node: 1})
	id := w.InFlight()[0].ID
	mustApply(t, w, Action{Do: DoDeliver, ID: id})
	assert.ErrorContains(t, w.Apply(Action{Do: DoDeliver, ID: id}), "not in flight", "a message arrives once")
	err := w.Apply(Action{Do: DoHeartbeat, Node: 4})
	assert.ErrorContains(t, err, "node: 4 is out of range")
	assert.Len(t, w.Actions(), 2, "refused actions are not logged")
}

func TestExplorationActionsReplayFromTheSchedule(t *testing.T) {
	w := frozenWorld(t)
	mustApply(t, w, Action{Do: DoTimeout, Node: 2})
	wire := w.InFlight()
	mustApply(t, w, Action{Do: DoRepeat, ID: wire[0].ID})
	mustApply(t, w, Action{Do: DoDeliver, ID: wire[1].ID})
	mustApply(t, w, Action{Do: DoHeartbeat, Node: 3})
	s := w.Schedule()
	r, err := s.Run()
	require.NoError(t, err)
	assert.Equal(t, w.TraceHash(), r.TraceHash())
	assert.Equal(t, w.StateKey(), r.StateKey())
}

func TestStateKeyIgnoresOrderAndIdsButNotState(t *testing.T) {
	// Machines 1 and 2 both time out; their pre-votes to machine 3 are
	// delivered in opposite orders in two worlds. The resulting states
	// are the same, but the messages carry different ids.
	build := func(first, second NodeID) *World {
		w := frozenWorld(t)
		mustApply(t, w, Action{Do: DoTimeout, Node: int(first)})
		mustApply(t, w, Action{Do: DoTimeout, Node: int(second)})
		return w
	}
	a, b := build(1, 2), build(2, 1)
	assert.NotEqual(t, a.InFlight()[0].From, b.InFlight()[0].From, "the same ids name different messages")
	assert.Equal(t, a.StateKey(), b.StateKey())
	assert.Equal(t, a.StateKey(), a.Clone().StateKey())
	// A dropped message leaves the wire, and the key changes with it.
	c := a.Clone()
	mustApply(t, c, Action{Do: DoDrop, ID: c.InFlight()[0].ID})
	assert.NotEqual(t, a.StateKey(), c.StateKey())
	// A duplicate counts: a multiset, not a set.
	d := a.Clone()
	mustApply(t, d, Action{Do: DoRepeat, ID: d.InFlight()[0].ID})
	assert.NotEqual(t, a.StateKey(), d.StateKey())
	// A crash changes the key even though no persistent state changed.
	e := a.Clone()
	mustApply(t, e, Action{Do: DoCrash, Node: 3})
	assert.NotEqual(t, a.StateKey(), e.StateKey())
}

func TestScheduleCarriesBugsByName(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Nodes = 3
	cfg.Bugs = BugVoteTwice | BugNoTruncate
	s := MustWorld(cfg).Schedule()
	require.NotNil(t, s.Options)
	assert.Equal(t, []string{"vote-twice", "no-truncate"}, s.Options.Bugs)
	assert.Equal(t, cfg.Bugs, s.Config().Bugs)
	_, err := ParseSchedule([]byte(`{"nodes":3,"until_ms":0,"options":{"bugs":["vote-twice","explode"]},"actions":[]}`))
	require.Error(t, err)
	assert.Contains(t, err.Error(), `options.bugs[1]: unknown bug "explode"; use one of vote-twice,`)
	// A correct world writes no bugs at all.
	cfg.Bugs = 0
	assert.Nil(t, MustWorld(cfg).Schedule().Options.Bugs)
}

// At a standing clock every operation begins and ends at the same instant;
// the trace's sequence numbers still say which ended before which began,
// and the checker remembers who was elected.
func TestOpsAtOneInstantAreOrderedByTheirTraceEvents(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Nodes = 1
	w := MustWorld(cfg)
	mustApply(t, w, Action{Do: DoTimeout, Node: 1})
	leader, ok := w.ElectedLeader(1)
	require.True(t, ok)
	assert.Equal(t, NodeID(1), leader)
	_, ok = w.ElectedLeader(2)
	assert.False(t, ok)

	mustApply(t, w, Action{Do: DoWrite, Node: 1, Key: "x", Value: "a"})
	mustApply(t, w, Action{Do: DoRead, Node: 1, Key: "x"})
	ops := w.Ops()
	require.Len(t, ops, 2)
	write, read := ops[0], ops[1]
	require.Equal(t, OpOK, write.Result)
	require.Equal(t, OpOK, read.Result)
	assert.Equal(t, write.CompleteUs, read.InvokeUs, "one instant")
	assert.Less(t, write.InvokeEvent, write.CompleteEvent)
	assert.Less(t, write.CompleteEvent, read.InvokeEvent, "the write ended before the read began")
	assert.Equal(t, TraceOpComplete, w.Trace()[write.CompleteEvent-1].Kind)
	assert.Equal(t, TraceOpInvoke, w.Trace()[read.InvokeEvent-1].Kind)

	// A refusal is a completion too, at the same instant.
	w3 := frozenWorld(t)
	mustApply(t, w3, Action{Do: DoWrite, Node: 1, Key: "x", Value: "a"})
	op, _ := w3.Op(1)
	assert.Equal(t, OpRefused, op.Result, "no leader known: refused at once")
	assert.Less(t, op.InvokeEvent, op.CompleteEvent)
}

// deliverFirst delivers the first message of type typ in flight to machine
// to, failing the test if there is none.
func deliverFirst(t *testing.T, w *World, to NodeID, typ MsgType) {
	t.Helper()
	for _, m := range w.InFlight() {
		if m.To == to && m.Type == typ {
			mustApply(t, w, Action{Do: DoDeliver, ID: m.ID})
			return
		}
	}
	t.Fatalf("no %s to %d in flight", typ, to)
}
