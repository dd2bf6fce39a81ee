package explore

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"raftlab/raftcore"
)

// elected is a start state for the bugs that need a history: machine 1 won
// term 1 with machine 2's votes, and its empty entry is committed on both.
// Machine 3 has heard nothing yet. With write, machine 1 then takes a
// client's write, which no other machine has yet. Built with the
// explorer's own actions, so a counterexample from here is still one
// schedule from a fresh world.
func elected(t testing.TB, bugs raftcore.Bug, write bool) *raftcore.World {
	t.Helper()
	return electedIn(t, Config(3, bugs), write)
}

// electedIn is elected in a world made with cfg.
func electedIn(t testing.TB, cfg raftcore.Config, write bool) *raftcore.World {
	t.Helper()
	w := raftcore.MustWorld(cfg)
	apply := func(a raftcore.Action) {
		t.Helper()
		require.NoError(t, w.Apply(a))
	}
	deliver := func(to raftcore.NodeID, typ raftcore.MsgType) {
		t.Helper()
		for _, m := range w.InFlight() {
			if m.To == to && m.Type == typ {
				apply(raftcore.Action{Do: raftcore.DoDeliver, ID: m.ID})
				return
			}
		}
		t.Fatalf("no %s to machine %d in flight", typ, to)
	}
	apply(raftcore.Action{Do: raftcore.DoTimeout, Node: 1})
	deliver(2, raftcore.MsgPreVote)
	deliver(1, raftcore.MsgPreVoteResp)
	deliver(2, raftcore.MsgVote)
	deliver(1, raftcore.MsgVoteResp)
	deliver(2, raftcore.MsgApp)
	deliver(1, raftcore.MsgAppResp)
	require.Equal(t, raftcore.RoleLeader, w.Node(1).Role())
	require.Equal(t, uint64(1), w.Node(1).Commit())
	if write {
		apply(raftcore.Action{Do: raftcore.DoWrite, Node: 1, Key: writeKey, Value: "w"})
	}
	return w
}

// startState names where a bug's search begins.
type startState int

const (
	fresh         startState = iota // a new world
	leaderElected                   // elected
	leaderWrote                     // elected, then a write at the leader
	// oldLeaderBack is the start of the paper's Figure 8 on three
	// machines: the leader of term 1 took a write no other machine holds,
	// crashed, came back (keeping its term, vote and log, losing its
	// commit index) and is campaigning again (a pre-vote for term 2). Appends carry one entry
	// each, so a new leader's empty entry need not travel with the old
	// entries before it; with the default 64 an append that carries an
	// old entry carries the empty one too and the rule cannot break.
	oldLeaderBack
	// leaderDeposed is elected, then machine 2 timed out and won term 2
	// with machine 3's votes (machine 3 had not yet heard of machine 1).
	// Machine 1 has heard nothing of it and still leads term 1: the state a
	// deposed leader's stale read needs, two elections in, too deep for a
	// breadth-first search from a fresh world in a test.
	leaderDeposed
	// leaderWroteSnapshotting is leaderWrote in a world whose machines
	// snapshot every second applied entry and keep nothing before it.
	leaderWroteSnapshotting
)

// bugCase is one injected bug and a search that must find it, from start
// within bounds small enough for a test. Rules lists the rules the
// shortest run may break first (several can break in its last step), and
// steps the length of that run from a fresh world, counting the actions
// that built the start state.
type bugCase struct {
	bug   raftcore.Bug
	from  startState
	b     Bounds
	rules []raftcore.Rule
	steps int
}

// bugCases covers every deliberate bug. commit-old-term is found from the
// Figure 8 start: from a fresh world or a just-elected leader its shortest
// run lies some twenty steps deep, too far for a breadth-first search in a
// test.
var bugCases = []bugCase{
	{raftcore.BugVoteTwice, fresh, Bounds{Nodes: 3, Terms: 2, Depth: 8}, []raftcore.Rule{raftcore.RuleOneVote}, 7},
	{raftcore.BugCommitWithoutMajority, fresh, Bounds{Nodes: 3, Terms: 2, Depth: 8}, []raftcore.Rule{raftcore.RuleMajority}, 5},
	{raftcore.BugSkipUpToDate, leaderElected, Bounds{Nodes: 3, Terms: 2, Depth: 8}, []raftcore.Rule{raftcore.RuleLeaderCompleteness}, 14},
	{raftcore.BugNoTruncate, leaderWrote, Bounds{Nodes: 3, Terms: 2, Depth: 8}, []raftcore.Rule{raftcore.RuleMajority, raftcore.RuleLogMatching, raftcore.RuleStateMachineSafety}, 15},
	{raftcore.BugKeepCommitOnRestart, leaderWrote, Bounds{Nodes: 3, Terms: 2, Faults: 1, Depth: 7}, []raftcore.Rule{raftcore.RuleStateDigest}, 13},
	{raftcore.BugCommitOldTerm, oldLeaderBack, Bounds{Nodes: 3, Terms: 2, Depth: 8}, []raftcore.Rule{raftcore.RuleCommitCurrentTerm}, 19},
	{raftcore.BugReadWithoutConfirm, leaderDeposed, deposedBounds, []raftcore.Rule{raftcore.RuleStaleRead}, 18},
	{raftcore.BugSnapshotUncommitted, leaderWroteSnapshotting, Bounds{Nodes: 3, Terms: 2, Depth: 4}, []raftcore.Rule{raftcore.RuleSnapshotSafety}, 9},
}

// deposedBounds search around the deposed leader with one write and one
// read (linearizable or lease); the read bug's run lies six steps deep.
var deposedBounds = Bounds{Nodes: 3, Terms: 2, Writes: 1, Reads: 1, Depth: 6}

func (c bugCase) start(t testing.TB) *raftcore.World {
	switch c.from {
	case leaderElected, leaderWrote:
		return elected(t, c.bug, c.from == leaderWrote)
	case oldLeaderBack:
		cfg := Config(3, c.bug)
		cfg.MaxEntriesPerMsg = 1
		w := electedIn(t, cfg, true)
		for _, do := range []raftcore.Verb{raftcore.DoCrash, raftcore.DoRestart, raftcore.DoTimeout} {
			require.NoError(t, w.Apply(raftcore.Action{Do: do, Node: 1}))
		}
		require.Equal(t, raftcore.RolePreCandidate, w.Node(1).Role())
		return w
	case leaderWroteSnapshotting:
		return electedIn(t, snapshottingConfig(c.bug), true)
	case leaderDeposed:
		w := elected(t, c.bug, false)
		require.NoError(t, w.Apply(raftcore.Action{Do: raftcore.DoTimeout, Node: 2}))
		deliverFrom(t, w, 2, 3, raftcore.MsgPreVote)
		deliverFrom(t, w, 3, 2, raftcore.MsgPreVoteResp)
		deliverFrom(t, w, 2, 3, raftcore.MsgVote)
		deliverFrom(t, w, 3, 2, raftcore.MsgVoteResp)
		require.Equal(t, raftcore.RoleLeader, w.Node(2).Role())
		require.Equal(t, uint64(2), w.Node(2).Term())
		require.Equal(t, raftcore.RoleLeader, w.Node(1).Role(), "machine 1 has not heard of term 2")
		return w
	}
	return raftcore.MustWorld(Config(3, c.bug))
}

// searched keeps each bug case's search, made once per test binary: the
// tests that look at a counterexample from another side replay it rather
// than search for it again.
var searched = map[raftcore.Bug]Result{}

// search returns the result of c's search.
func (c bugCase) search(t testing.TB) Result {
	t.Helper()
	if res, ok := searched[c.bug]; ok {
		return res
	}
	res, err := ExploreFrom(c.start(t), c.b)
	require.NoError(t, err)
	searched[c.bug] = res
	return res
}

func TestFindsAShortestRunForEveryInjectedBug(t *testing.T) {
	for _, c := range bugCases {
		name := c.bug.Names()[0]
		t.Run(name, func(t *testing.T) {
			res := c.search(t)
			ce := res.Counterexample
			require.NotNil(t, ce, "no run breaks a rule within %s", c.b)
			assert.Contains(t, c.rules, ce.Violations[0].Rule, ce.Violations[0].Text)
			assert.Equal(t, c.steps, ce.Steps(), "steps: %v", ce.Schedule.Actions)
			assert.Equal(t, []string{name}, ce.Schedule.Options.Bugs)
			if c.bug == raftcore.BugReadWithoutConfirm {
				assert.Equal(t, readBugRun(t).Actions, ce.Schedule.Actions, "the run the read tests play")
			}

			// The schedule replays to a broken rule.
			w, err := ce.Schedule.Run()
			require.NoError(t, err)
			broken := w.ViolationCount("") > 0
			if !broken {
				_, broken = checkState(w)
			}
			if !broken {
				_, broken = checkReads(w, 0)
			}
			assert.True(t, broken, "the replayed run broke no rule")
			// Shortest: the search had checked every state of every
			// level before the failing run's last step, so the broken
			// rule was found while the level of that step was made.
			depth := ce.Steps() - startSteps(c)
			assert.Len(t, res.Levels, depth, "the levels searched in full before the broken rule")
			// From a fresh world, where it is cheap, this is also shown
			// by a search of its own: one step less, and the whole space
			// within that depth holds no broken rule. (From the other
			// starts it would repeat most of the search above.)
			if c.from == fresh && depth > 1 {
				shorter := c.b
				shorter.Depth = depth - 1
				res, err := ExploreFrom(c.start(t), shorter)
				require.NoError(t, err)
				assert.Nil(t, res.Counterexample)
				assert.True(t, res.Exhausted)
			}
		})
	}
}

// deliverFrom delivers the first message of type typ from machine from to
// machine to in flight.
func deliverFrom(t testing.TB, w *raftcore.World, from, to raftcore.NodeID, typ raftcore.MsgType) {
	t.Helper()
	for _, m := range w.InFlight() {
		if m.From == from && m.To == to && m.Type == typ {
			require.NoError(t, w.Apply(raftcore.Action{Do: raftcore.DoDeliver, ID: m.ID}))
			return
		}
	}
	t.Fatalf("no %s from machine %d to machine %d in flight", typ, from, to)
}

// startSteps is the number of actions that built the start state.
func startSteps(c bugCase) int {
	return [...]int{fresh: 0, leaderElected: 7, leaderWrote: 8, oldLeaderBack: 11, leaderDeposed: 12, leaderWroteSnapshotting: 8}[c.from]
}

// TestCorrectRaftKeepsEveryRuleFromTheBugsStartStates searches from the
// start states the bug cases use, with correct Raft: no rule breaks. From
// the Figure 8 start it searches one step short of commit-old-term's run
// (the whole depth would take some twenty seconds).
func TestCorrectRaftKeepsEveryRuleFromTheBugsStartStates(t *testing.T) {
	for _, write := range []bool{false, true} {
		res, err := ExploreFrom(elected(t, 0, write), Bounds{Nodes: 3, Terms: 2, Writes: 1, Faults: 1, Depth: 4})
		require.NoError(t, err)
		assert.Nil(t, res.Counterexample)
		assert.True(t, res.Exhausted)
	}
	res, err := ExploreFrom(bugCase{from: oldLeaderBack}.start(t), Bounds{Nodes: 3, Terms: 2, Depth: 7})
	require.NoError(t, err)
	assert.Nil(t, res.Counterexample)
	assert.True(t, res.Exhausted)
	// Around the deposed leader, with a write and a read of either kind,
	// as deep as read-without-confirm's run: the lease reads the deposed
	// leader serves stale are stale by design, and no rule breaks.
	res, err = ExploreFrom(bugCase{from: leaderDeposed}.start(t), deposedBounds)
	require.NoError(t, err)
	assert.Nil(t, res.Counterexample)
	assert.True(t, res.Exhausted)
}

// TestStateCheckCatchesBrokenVariantsOnItsOwn replays two counterexamples
// and asks only this package's state check, not the world's checker,
// about their last states: it must see the broken rule itself.
func TestStateCheckCatchesBrokenVariantsOnItsOwn(t *testing.T) {
	for _, c := range []struct {
		bugCase
		rule raftcore.Rule
	}{
		{bugCases[1], raftcore.RuleMajority},
		{bugCases[4], raftcore.RuleStateDigest},
	} {
		res := c.search(t)
		require.NotNil(t, res.Counterexample)
		w, err := res.Counterexample.Schedule.Run()
		require.NoError(t, err)
		v, bad := checkState(w)
		require.True(t, bad, "%v", c.bug.Names())
		assert.Equal(t, c.rule, v.Rule, v.Text)
	}
}

// TestStartExamplesAreTheTestsStarts: the start files in docs/examples,
// which docs/raftsim.md gives to `raftsim explore -from`, play to the
// states the searches for commit-old-term and read-without-confirm start
// from here (and to the second's with correct Raft).
func TestStartExamplesAreTheTestsStarts(t *testing.T) {
	for _, c := range []struct {
		file string
		bugCase
	}{
		{"figure8-start-commit-old-term.json", bugCase{bug: raftcore.BugCommitOldTerm, from: oldLeaderBack}},
		{"deposed-leader-read-without-confirm.json", bugCase{bug: raftcore.BugReadWithoutConfirm, from: leaderDeposed}},
		{"deposed-leader.json", bugCase{from: leaderDeposed}}, // make explore's, with correct Raft
	} {
		data, err := os.ReadFile("../../docs/examples/" + c.file)
		require.NoError(t, err)
		s, err := raftcore.ParseSchedule(data)
		require.NoError(t, err)
		assert.Equal(t, c.bug.Names(), s.Options.Bugs)
		w, err := s.Run()
		require.NoError(t, err)
		want := c.start(t)
		assert.Equal(t, want.StateKey(), w.StateKey(), c.file)
		assert.Equal(t, want.TraceHash(), w.TraceHash(), c.file)
	}
}
