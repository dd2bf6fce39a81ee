package explore

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"raftlab/raftcore"
)

// converse delivers every message between machines a and b, in either
// direction, until none is left in flight.
func converse(t testing.TB, w *raftcore.World, a, b raftcore.NodeID) {
	t.Helper()
	for {
		var next []raftcore.Message
		for _, m := range w.InFlight() {
			if (m.From == a && m.To == b) || (m.From == b && m.To == a) {
				next = append(next, m)
				break
			}
		}
		if len(next) == 0 {
			return
		}
		require.NoError(t, w.Apply(raftcore.Action{Do: raftcore.DoDeliver, ID: next[0].ID}))
	}
}

// memberCase is a bug of changing the cluster and where its search
// starts: nodes machines, the first members of them voters; machine 1
// elected with machine 2's votes (elected's steps), then asked the
// changes in turn. prepare carries the changes as far as the case needs.
type memberCase struct {
	bug            raftcore.Bug
	nodes, members int
	changes        []raftcore.Action
	prepare        func(testing.TB, *raftcore.World)
	b              Bounds
	rules          []raftcore.Rule
	steps          int // of the shortest run, counted from the start state
}

// caughtUp carries the changes to machine 2 and back, so that machine 1
// commits and applies them, and then brings machine k's log up to machine
// 1's.
func caughtUp(k raftcore.NodeID) func(testing.TB, *raftcore.World) {
	return func(t testing.TB, w *raftcore.World) {
		converse(t, w, 1, 2)
		converse(t, w, 1, k)
	}
}

var memberCases = []memberCase{
	// Two voters and a learner: counting the learner, the leader commits
	// a write that it and the learner hold, one voter of two.
	{raftcore.BugCountLearners, 3, 2, []raftcore.Action{{Do: raftcore.DoAddLearner, Node: 3}}, caughtUp(3),
		Bounds{Nodes: 3, Terms: 2, Writes: 1, Depth: 4}, []raftcore.Rule{raftcore.RuleMajority}, 3},
	// Machine 4 in place of machine 3 by a joint change, which the broken
	// leader takes as a switch: it commits a write on machines 1 and 4, a
	// majority of the new voters and not of the old.
	{raftcore.BugDirectSwitch, 4, 3, []raftcore.Action{{Do: raftcore.DoJoint, Voters: []int{1, 2, 4}}}, caughtUp(4),
		Bounds{Nodes: 4, Terms: 2, Writes: 1, Depth: 4}, []raftcore.Rule{raftcore.RuleMajority}, 3},
}

func (c memberCase) start(t testing.TB, bug raftcore.Bug) *raftcore.World {
	t.Helper()
	cfg := Config(c.nodes, bug)
	cfg.Members = c.members
	w := electedIn(t, cfg, false)
	for _, a := range c.changes {
		a.From = 1
		require.NoError(t, w.Apply(a))
	}
	c.prepare(t, w)
	return w
}

// TestFindsAShortestRunForEveryMembershipBug: from its start, each bug of
// changing the cluster breaks a rule within a few steps, and correct Raft
// from the same actions breaks none as deep as the bug's run.
func TestFindsAShortestRunForEveryMembershipBug(t *testing.T) {
	for _, c := range memberCases {
		name := c.bug.Names()[0]
		t.Run(name, func(t *testing.T) {
			start := c.start(t, c.bug)
			res, err := ExploreFrom(start, c.b)
			require.NoError(t, err)
			ce := res.Counterexample
			require.NotNil(t, ce, "no run breaks a rule within %s", c.b)
			assert.Contains(t, c.rules, ce.Violations[0].Rule, ce.Violations[0].Text)
			steps := ce.Steps() - len(start.Schedule().Actions)
			assert.Equal(t, c.steps, steps, "steps: %v", ce.Schedule.Actions)
			assert.Len(t, res.Levels, steps, "the levels searched in full before the broken rule")
			assert.Equal(t, []string{name}, ce.Schedule.Options.Bugs)
			w, err := ce.Schedule.Run()
			require.NoError(t, err)
			assert.Equal(t, ce.Schedule.Actions, w.Schedule().Actions)

			b := c.b
			b.Depth = steps
			res, err = ExploreFrom(c.start(t, 0), b)
			require.NoError(t, err)
			assert.Nil(t, res.Counterexample, "correct Raft")
			assert.True(t, res.Exhausted)
		})
	}
}

// TestExhaustsAReconfigurationSpace: three voters and a spare, machine 1
// just elected, one membership action and one write along a run: correct
// Raft breaks no rule in any state.
func TestExhaustsAReconfigurationSpace(t *testing.T) {
	cfg := Config(4, 0)
	cfg.Members = 3
	res, err := ExploreFrom(electedIn(t, cfg, false), reconfBounds)
	require.NoError(t, err)
	require.Nil(t, res.Counterexample, "correct Raft broke a rule")
	assert.True(t, res.Exhausted)
	t.Logf("%s: %d states, levels %v", reconfBounds, res.States, res.Levels)
}

// reconfBounds search around a just-elected leader of three voters with a
// spare machine.
var reconfBounds = Bounds{Nodes: 4, Members: 3, Terms: 2, Writes: 1, Reconfigs: 1, Depth: 5}
