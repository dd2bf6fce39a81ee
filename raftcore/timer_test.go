package raftcore

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// campaignAt returns the time of machine id's first role change into a
// campaign (pre-candidate or candidate) at or after from, or -1.
func campaignAt(w *World, id NodeID, from int64) int64 {
	for _, e := range w.Trace() {
		if e.Kind == TraceRole && e.Node == id && e.AtUs >= from && campaigning(e.ToRole) {
			return e.AtUs
		}
	}
	return -1
}

func campaigning(r Role) bool { return r == RolePreCandidate || r == RoleCandidate }

// firstCampaign returns the machine that campaigns first at or after from.
func firstCampaign(w *World, from int64) (NodeID, int64) {
	for _, e := range w.Trace() {
		if e.Kind == TraceRole && e.AtUs >= from && campaigning(e.ToRole) {
			return e.Node, e.AtUs
		}
	}
	return None, -1
}

func TestTimerFiresWhenAsked(t *testing.T) {
	for _, drift := range []float64{1, 0.7, 3} {
		w := newTestWorld(t, nil)
		w.RunUntil(50_000)
		// Machine 4's clock runs at another rate: its ticks are longer or
		// shorter, and the timer must still land on the microsecond.
		mustApply(t, w, Action{Do: DoDrift, Node: 4, Rate: drift})
		w.RunUntil(123_456)
		start := w.Now()
		mustApply(t, w, Action{Do: DoTimer, Node: 2, Ms: 250.5})
		mustApply(t, w, Action{Do: DoTimer, Node: 4, Ms: 250.5})
		want := start + 250_500
		for _, id := range []NodeID{2, 4} {
			if due, ok := w.TimerDue(id); !ok || due != want {
				t.Errorf("drift %g: TimerDue(%d) = %d, %v; want %d", drift, id, due, ok, want)
			}
		}
		w.RunUntil(want + 1)
		for _, id := range []NodeID{2, 4} {
			if at := campaignAt(w, id, start); at != want {
				t.Errorf("drift %g: machine %d campaigned at %d, want %d", drift, id, at, want)
			}
		}
		// Nobody else's timer was touched, and none ran out yet: the
		// shortest randomized timeout is a second.
		for _, id := range []NodeID{1, 3, 5} {
			if at := campaignAt(w, id, start); at != -1 {
				t.Errorf("drift %g: machine %d campaigned at %d without being asked", drift, id, at)
			}
		}
		// Both campaign in the same term.
		if a, b := w.Node(2).Term(), w.Node(4).Term(); a != b {
			t.Errorf("drift %g: terms %d and %d after aligned timers", drift, a, b)
		}
		noViolations(t, w)
	}
}

// TestTimerDuePredictsTheTimeout checks TimerDue against what happens when
// the world runs untouched: the first machine to campaign does so exactly
// when its TimerDue said.
func TestTimerDuePredictsTheTimeout(t *testing.T) {
	for seed := int64(1); seed <= 5; seed++ {
		w := newTestWorld(t, func(c *Config) { c.Seed = seed })
		w.RunUntil(10_000)
		best, bestAt := None, int64(0)
		for id := NodeID(1); int(id) <= w.Size(); id++ {
			due, ok := w.TimerDue(id)
			if !ok {
				t.Fatalf("seed %d: follower %d has no timer", seed, id)
			}
			if best == None || due < bestAt {
				best, bestAt = id, due
			}
		}
		w.RunUntil(bestAt)
		if id, at := firstCampaign(w, 0); id != best || at != bestAt {
			t.Errorf("seed %d: machine %d campaigned first at %d; TimerDue said %d at %d", seed, id, at, best, bestAt)
		}
	}
}

func TestTimerLeavesWhatHasNoTimer(t *testing.T) {
	w := newTestWorld(t, nil)
	l := waitSettled(t, w, 5_000)
	if _, ok := w.TimerDue(l); ok {
		t.Errorf("the leader %d reports an election timer", l)
	}
	before := w.Node(l).Term()
	mustApply(t, w, Action{Do: DoTimer, Node: int(l), Ms: 1})
	w.RunFor(500_000)
	if w.Node(l).Role() != RoleLeader || w.Node(l).Term() != before {
		t.Errorf("timer on the leader changed it: %v in term %d", w.Node(l).Role(), w.Node(l).Term())
	}
	f := l%5 + 1
	mustApply(t, w, Action{Do: DoPause, Node: int(f)})
	if _, ok := w.TimerDue(f); ok {
		t.Errorf("paused machine %d reports a running timer", f)
	}
	mustApply(t, w, Action{Do: DoTimer, Node: int(f), Ms: 1})
	mustApply(t, w, Action{Do: DoCrash, Node: int(f%5 + 1)})
	mustApply(t, w, Action{Do: DoTimer, Node: int(f%5 + 1), Ms: 1})
	from := w.Now()
	w.RunFor(100_000)
	if id, at := firstCampaign(w, from); id != None {
		t.Errorf("machine %d campaigned at %d after timers on paused and crashed machines", id, at)
	}
	if n := len(w.Actions()); w.Actions()[n-1].Do != DoTimer {
		t.Errorf("a timer that changed nothing was not logged: %v", w.Actions()[n-1])
	}

	naive := newTestWorld(t, func(c *Config) { c.Protocol = ProtocolNaiveCopy })
	mustApply(t, naive, Action{Do: DoTimer, Node: 1, Ms: 100})
	if _, ok := naive.TimerDue(1); ok {
		t.Error("a naive-copy machine reports an election timer")
	}

	// Under failover a follower's timer running out promotes it.
	fo := newTestWorld(t, func(c *Config) { c.Protocol = ProtocolFailover })
	fo.RunUntil(300_000)
	mustApply(t, fo, Action{Do: DoCrash, Node: 1})
	start := fo.Now()
	mustApply(t, fo, Action{Do: DoTimer, Node: 3, Ms: 120})
	fo.RunUntil(start + 120_000)
	if fo.Node(3).Role() != RoleLeader {
		t.Errorf("failover machine 3 is %v after its timer ran out", fo.Node(3).Role())
	}
}

// TestTimeoutIsTheTimerRunningOut: the "timeout" action makes a raft
// follower do what its election timer running out does, etcd's MsgHup: with
// PreVote it becomes a pre-candidate in its own term, without it a
// candidate of the next term, and either way the timer's count starts
// again. A leader is left alone. Under failover a follower promotes itself;
// naive-copy has no timers.
func TestTimeoutIsTheTimerRunningOut(t *testing.T) {
	for _, preVote := range []bool{true, false} {
		w := newTestWorld(t, func(c *Config) { c.PreVote = preVote })
		l := waitSettled(t, w, 5_000)
		f := followerOf(w, l)
		term := w.Node(l).Term()
		// Cut off from its leader, the follower's election timer counts a
		// few ticks.
		isolate(t, w, f)
		w.RunFor(350_000)
		counted, _ := w.Node(f).ElectionTimer()
		require.Positive(t, counted, "PreVote %v: ticks counted by the cut-off follower", preVote)

		c := w.Clone()
		mustApply(t, c, Action{Do: DoTimeout, Node: int(f)})
		n := c.Node(f)
		if preVote {
			assert.Equal(t, standing(RolePreCandidate, term, None), standingOf(n), "PreVote on: a follower after a timeout")
		} else {
			assert.Equal(t, standing(RoleCandidate, term+1, None), standingOf(n), "PreVote off: a follower after a timeout")
			assert.Equal(t, f, n.Vote(), "PreVote off: a candidate votes for itself")
		}
		elapsed, _ := n.ElectionTimer()
		assert.Zero(t, elapsed, "PreVote %v: the election timer's count after a timeout", preVote)

		c = w.Clone()
		sent := c.InFlightCount()
		mustApply(t, c, Action{Do: DoTimeout, Node: int(l)})
		assert.Equal(t, standing(RoleLeader, term, l), standingOf(c.Node(l)), "PreVote %v: the leader after a timeout", preVote)
		assert.Equal(t, sent, c.InFlightCount(), "PreVote %v: messages in flight after a timeout on the leader", preVote)
	}

	fo := newTestWorld(t, func(c *Config) { c.Protocol = ProtocolFailover })
	require.Equal(t, standing(RoleFollower, 0, None), standingOf(fo.Node(2)), "failover: machine 2 at the start")
	mustApply(t, fo, Action{Do: DoTimeout, Node: 2})
	assert.Equal(t, standing(RoleLeader, 0, 2), standingOf(fo.Node(2)), "failover: a follower after a timeout")

	naive := newTestWorld(t, func(c *Config) { c.Protocol = ProtocolNaiveCopy })
	mustApply(t, naive, Action{Do: DoTimeout, Node: 1})
	assert.Equal(t, standing(RoleReplica, 0, None), standingOf(naive.Node(1)), "naive-copy: a machine after a timeout")
}

// TestTimerKeepsTheLease: setting a timer changes when it runs out, not how
// long ago the machine heard its leader (which etcd keeps in the same
// counter), and one follower whose timer runs out does not unseat a leader
// the others still hear.
func TestTimerKeepsTheLease(t *testing.T) {
	w := newTestWorld(t, nil)
	l := waitSettled(t, w, 5_000)
	f := l%5 + 1
	term := w.Node(l).Term()
	for _, id := range []NodeID{f, f%5 + 1} {
		el, _ := w.Node(id).ElectionTimer()
		mustApply(t, w, Action{Do: DoTimer, Node: int(id), Ms: 1900})
		if now, _ := w.Node(id).ElectionTimer(); now != el {
			t.Errorf("machine %d: timer moved the time since it heard its leader from %d to %d ticks", id, el, now)
		}
	}
	mustApply(t, w, Action{Do: DoTimer, Node: int(f), Ms: 2})
	w.RunFor(2_000)
	if r := w.Node(f).Role(); r != RolePreCandidate {
		t.Fatalf("machine %d is %v after its timer ran out, want pre-candidate", f, r)
	}
	w.RunFor(1_000_000)
	if w.Node(l).Role() != RoleLeader || w.Node(l).Term() != term {
		t.Errorf("the leader %d was unseated (%v, term %d, was %d)", l, w.Node(l).Role(), w.Node(l).Term(), term)
	}
	noViolations(t, w)
}

func TestTimerReplaysAndRoundTrips(t *testing.T) {
	w := newTestWorld(t, func(c *Config) { c.Seed = 3 })
	w.RunUntil(77_777)
	mustApply(t, w, Action{Do: DoTimer, Node: 1, Ms: 300})
	mustApply(t, w, Action{Do: DoTimer, Node: 5, Ms: 300})
	mustApply(t, w, Action{Do: DoDrift, Node: 2, Rate: 1.7})
	w.RunFor(10_001)
	mustApply(t, w, Action{Do: DoTimer, Node: 2, Ms: 999.25})
	w.RunFor(3_000_000)
	data, err := json.Marshal(w.Schedule())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"do":"timer","node":1,"ms":300`) {
		t.Errorf("schedule does not carry the timer's ms: %s", data)
	}
	s, err := ParseSchedule(data)
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.Run()
	if err != nil {
		t.Fatal(err)
	}
	if r.TraceHash() != w.TraceHash() || r.TraceCount() != w.TraceCount() {
		t.Errorf("replay: hash %s (%d events), want %s (%d events)",
			HashString(r.TraceHash()), r.TraceCount(), HashString(w.TraceHash()), w.TraceCount())
	}
	var faults int
	for _, e := range w.Trace() {
		if e.Kind == TraceFault && strings.Contains(e.Text, "timer 1 in 300ms") {
			faults++
		}
	}
	if faults != 1 {
		t.Errorf("trace has %d fault events for the timer, want 1", faults)
	}
	// Without the timers the run differs: the action does something.
	plain := newTestWorld(t, func(c *Config) { c.Seed = 3 })
	plain.RunUntil(w.Now())
	if plain.TraceHash() == w.TraceHash() {
		t.Error("timers left the trace unchanged")
	}
}

func TestTimerValidation(t *testing.T) {
	for _, c := range []struct {
		js, want string
	}{
		{`{"at_ms":1,"do":"timer","node":1}`, "actions[0].ms: timer needs a time ahead"},
		{`{"at_ms":1,"do":"timer","node":1,"ms":-5}`, "actions[0].ms: timer needs a time ahead"},
		{`{"at_ms":1,"do":"timer","node":1,"ms":0.0001}`, "actions[0].ms: timer needs a time ahead"},
		{`{"at_ms":1,"do":"timer","node":1,"ms":2000.5}`, "actions[0].ms: 2000.5 is beyond the longest election timeout, 2000 ms"},
		{`{"at_ms":1,"do":"timer","node":1,"ms":1e12}`, "actions[0].ms: 1e+12 is more than a virtual day ahead"},
		{`{"at_ms":1,"do":"timer","node":6,"ms":10}`, "actions[0].node: 6 is out of range"},
		{`{"at_ms":1,"do":"timer","node":1,"ms":"soon"}`, "actions[0].ms: want a number"},
	} {
		_, err := ParseSchedule([]byte(`{"nodes":5,"until_ms":10,"actions":[` + c.js + `]}`))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q...", c.js, err, c.want)
		}
	}
	// The bound follows the world's timing.
	s, err := ParseSchedule([]byte(`{"nodes":3,"until_ms":10,"options":{"election_ticks":20,"tick_ms":50},
		"actions":[{"at_ms":1,"do":"timer","node":1,"ms":2000}]}`))
	if err != nil {
		t.Errorf("2000 ms with election_ticks 20 and tick_ms 50: %v", err)
	} else if _, err := s.Run(); err != nil {
		t.Errorf("running it: %v", err)
	}
	w := newTestWorld(t, nil)
	before := w.TraceHash()
	if err := w.Apply(Action{Do: DoTimer, Node: 1, Ms: 5000}); err == nil || !strings.HasPrefix(err.Error(), "ms: ") {
		t.Errorf("Apply of a timer too far ahead: %v", err)
	}
	if w.TraceHash() != before || len(w.Actions()) != 0 {
		t.Error("a refused timer changed the world")
	}
}

// TestLeaseEndIsWhenVotesAreHeardAgain: after its leader falls silent, a
// follower trusts it until exactly LeaseEnd, and not after.
func TestLeaseEndIsWhenVotesAreHeardAgain(t *testing.T) {
	w := newTestWorld(t, nil)
	l := waitSettled(t, w, 5_000)
	mustApply(t, w, Action{Do: DoCrash, Node: int(l)})
	w.RunFor(5_000)
	for id := NodeID(1); int(id) <= w.Size(); id++ {
		if id == l {
			if w.LeaseEnd(id) != w.Now() {
				t.Errorf("crashed machine %d has a lease until %d", id, w.LeaseEnd(id))
			}
			continue
		}
		c := w.Clone()
		end := c.LeaseEnd(id)
		if end <= c.Now() {
			t.Fatalf("follower %d has no lease %d µs after its leader crashed", id, c.Now())
		}
		c.RunUntil(end - 1)
		if el, _ := c.Node(id).ElectionTimer(); c.Node(id).Lead() == None || el >= c.Config().ElectionTicks {
			t.Errorf("follower %d stopped trusting its leader before %d", id, end)
		}
		c.RunUntil(end)
		if el, _ := c.Node(id).ElectionTimer(); c.Node(id).Lead() != None && el < c.Config().ElectionTicks {
			t.Errorf("follower %d still trusts its leader at %d", id, end)
		}
		if c.LeaseEnd(id) != c.Now() {
			t.Errorf("follower %d: LeaseEnd %d after its lease ran out, want now", id, c.LeaseEnd(id))
		}
	}
}

func loadScheduleFile(t *testing.T, name string) Schedule {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	s, err := ParseSchedule(data)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return s
}

// TestSlowedMachineWithATimerCatchesUp: a machine slowed while messages
// pile up in its queue, whose election timer is then set ("timer"), keeps
// handling its queue. Setting the timer re-phases the machine's clock; it
// must not abandon the event that works through the queue, or the machine
// would stay up and deaf for good: campaigning, never catching up, and
// timing out its own clients' requests.
func TestSlowedMachineWithATimerCatchesUp(t *testing.T) {
	w, err := loadScheduleFile(t, "slowed-machine-timer.json").Run()
	if err != nil {
		t.Fatal(err)
	}
	lead := leaders(w)
	if len(lead) != 1 {
		t.Fatalf("leaders at the end: %v", lead)
	}
	n := w.Node(3)
	if n.Role() != RoleFollower || n.Lead() != lead[0] || n.Commit() != w.Node(lead[0]).Commit() || w.Backlog(3) != 0 {
		t.Errorf("machine 3 is %s following %d with commit %d and %d messages waiting; the leader %d has commit %d",
			n.Role(), n.Lead(), n.Commit(), w.Backlog(3), lead[0], w.Node(lead[0]).Commit())
	}
	for _, op := range w.Ops() {
		if op.Node == 3 && op.Result != OpOK {
			t.Errorf("%s %d at machine 3: %s (%s)", op.Kind, op.ID, op.Result, op.Reason)
		}
	}
	if v := w.Liveness(); v.Verdict != Live {
		t.Errorf("liveness: %+v", v)
	}
	noViolations(t, w)
}

// TestForcedElectionInsideTheLease: with every clock exact and nothing
// paused, a lease read can still be stale when elections are forced early.
// The leader is cut off; it goes on trusting its lease until its next
// CheckQuorum check fails, one to two election timeouts later. The two
// others, their timers set to run out at once, drop their leader, vote for
// each other and commit a write long before that.
// A lease read at the old leader answers from its old state and the
// checker flags it; a ReadIndex read there waits instead.
func TestForcedElectionInsideTheLease(t *testing.T) {
	for _, mode := range []ReadMode{ReadLease, ReadLinearizable} {
		w := newTestWorld(t, func(c *Config) { c.Nodes = 3 })
		old := waitSettled(t, w, 5_000)
		mustApply(t, w, Action{Do: DoWrite, Node: int(old), Key: "k", Value: "a"})
		w.RunFor(500_000)
		var rest []int
		for id := 1; id <= 3; id++ {
			if NodeID(id) != old {
				rest = append(rest, id)
			}
		}
		mustApply(t, w, Action{Do: DoPartition, Groups: [][]int{{int(old)}, rest}})
		for _, id := range rest {
			mustApply(t, w, Action{Do: DoTimer, Node: id, Ms: 1})
		}
		w.RunFor(400_000)
		mustApply(t, w, Action{Do: DoWrite, Node: rest[0], Key: "k", Value: "b"})
		w.RunFor(400_000)
		write, _ := w.Op(len(w.Ops()))
		require.Equal(t, OpOK, write.Result, "the majority's side elects and commits at once")
		end, leads := w.LeaderLeaseEnd(old)
		require.True(t, leads, "the old leader still trusts its lease")
		require.Greater(t, end, w.Now())
		for i := 1; i <= 3; i++ {
			require.Equal(t, 1.0, w.Drift(NodeID(i)), "every clock is exact")
		}

		mustApply(t, w, Action{Do: DoRead, Node: int(old), Key: "k", Mode: mode})
		w.RunFor(10_000)
		read, _ := w.Op(len(w.Ops()))
		if mode == ReadLease {
			assert.Equal(t, OpOK, read.Result)
			assert.Equal(t, "a", read.ReadValue, "answered from the old state")
			assert.Equal(t, 1, w.ViolationCount(RuleStaleRead), "the checker flags it")
		} else {
			assert.False(t, read.Done(), "a ReadIndex read waits for a majority it cannot reach")
			noViolations(t, w)
		}
	}
}
