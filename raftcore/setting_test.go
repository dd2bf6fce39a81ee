package raftcore

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPreVoteTurnedOffMidRunLetsAStaleCandidateDisrupt plays the textbook
// rejoin twice from one moment: machine 5 is cut off from a cluster that
// then commits a write, and the cut heals five seconds later. Left with
// PreVote on, machine 5's term never moves and the leader keeps leading.
// In a fork where PreVote is turned off at the moment of the cut, machine
// 5 raises its term at each timeout; when it comes back the leader steps
// down on hearing the higher term, machine 5 cannot win (its log lacks the
// write) and a machine of the majority leads a term above its own. The
// fork replays from its actions to the same trace.
func TestPreVoteTurnedOffMidRunLetsAStaleCandidateDisrupt(t *testing.T) {
	w := newTestWorld(t, func(c *Config) { c.Nodes, c.Seed = 5, 1 })
	w.RunUntil(msToUs(2000))
	lead := leaderOf(w)
	require.NotEqual(t, None, lead)
	require.NotEqual(t, NodeID(5), lead, "seed 1 elects a machine other than 5")
	require.NoError(t, w.Apply(Action{Do: DoPartition, Groups: [][]int{{1, 2, 3, 4}, {5}}}))
	fork := w.Clone()
	require.NoError(t, fork.Apply(Action{Do: DoSet, Setting: SettingPreVote, Value: "off"}))
	assert.False(t, fork.Settings().PreVote)
	assert.True(t, fork.Config().PreVote, "the config keeps the setting the run started with")
	assert.True(t, w.Settings().PreVote, "the world forked from is left as it was")

	var staleTerm [2]uint64
	for i, x := range []*World{w, fork} {
		x.RunUntil(msToUs(3000))
		require.NoError(t, x.Apply(Action{Do: DoWrite, Node: int(lead), Key: "x", Value: "a"}))
		x.RunUntil(msToUs(8000))
		staleTerm[i] = x.Node(5).Term()
		require.NoError(t, x.Apply(Action{Do: DoHeal}))
		x.RunUntil(msToUs(12000))
	}
	leaderTerm := w.Node(lead).Term()
	assert.Equal(t, leaderTerm, staleTerm[0], "with PreVote, the cut-off machine's term stays the leader's")
	assert.Equal(t, lead, leaderOf(w), "with PreVote, the leader keeps leading")

	assert.Greater(t, staleTerm[1], leaderTerm+1, "without PreVote, the cut-off machine's term climbs")
	steppedDown, fiveLed := false, false
	for _, e := range fork.Trace() {
		if e.Kind == TraceRole && e.AtUs >= msToUs(8000) {
			steppedDown = steppedDown || (e.Node == lead && e.FromRole == RoleLeader)
			fiveLed = fiveLed || (e.Node == 5 && e.ToRole == RoleLeader)
		}
	}
	assert.True(t, steppedDown, "the old leader steps down when the stale candidate comes back")
	assert.False(t, fiveLed, "the stale candidate, lacking the write, never wins")
	now := leaderOf(fork)
	require.NotEqual(t, None, now, "the cluster elects a leader again")
	assert.NotEqual(t, NodeID(5), now)
	assert.GreaterOrEqual(t, fork.Node(now).Term(), staleTerm[1], "the new leader's term is past the stale one")

	again := newTestWorld(t, func(c *Config) { c.Nodes, c.Seed = 5, 1 })
	require.NoError(t, again.Play(fork.Actions()))
	again.RunUntil(fork.Now())
	assert.Equal(t, fork.TraceHash(), again.TraceHash(), "the fork replays from its actions")
}

// TestASettingIsCheckedByName: "set" takes prevote, checkquorum or a bug,
// on or off, and only under raft; its text names both.
func TestASettingIsCheckedByName(t *testing.T) {
	cfg := DefaultConfig()
	assert.NoError(t, Action{Do: DoSet, Setting: "commit-old-term", Value: "on"}.ValidateFor(cfg))
	assert.ErrorContains(t, Action{Do: DoSet, Setting: "prevote", Value: "maybe"}.ValidateFor(cfg), "value")
	assert.ErrorContains(t, Action{Do: DoSet, Setting: "speed", Value: "on"}.ValidateFor(cfg), "setting")
	assert.ErrorContains(t, Action{Do: DoSet, Value: "on"}.ValidateFor(cfg), "setting")
	cfg.Protocol = ProtocolFailover
	assert.ErrorContains(t, Action{Do: DoSet, Setting: "prevote", Value: "on"}.ValidateFor(cfg), "setting")
	assert.Contains(t, Action{Do: DoSet, Setting: "checkquorum", Value: "off"}.String(), "set checkquorum off")

	w := newTestWorld(t, nil)
	require.NoError(t, w.Apply(Action{Do: DoSet, Setting: "commit-old-term", Value: "on"}))
	assert.Equal(t, BugCommitOldTerm, w.Settings().Bugs)
	require.NoError(t, w.Apply(Action{Do: DoSet, Setting: "commit-old-term", Value: "off"}))
	assert.Zero(t, w.Settings().Bugs)
}
