package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"raftlab/internal/linearize"
	"raftlab/raftcore"
	"raftlab/raftcore/timeline"
)

// exploreOutput decodes explore's standard output strictly.
func exploreOutput(t *testing.T, stdout string) exploreReport {
	t.Helper()
	var r exploreReport
	dec := json.NewDecoder(strings.NewReader(stdout))
	dec.DisallowUnknownFields()
	require.NoError(t, dec.Decode(&r), stdout)
	return r
}

func TestExploreExhaustsSmallBoundsAndExitsZero(t *testing.T) {
	code, out, errOut := cmd(t, "", "explore", "-depth", "5", "-writes", "1", "-faults", "1")
	require.Equal(t, exitOK, code, errOut)
	r := exploreOutput(t, out)
	assert.True(t, r.Exhausted)
	assert.Equal(t, 3, r.Nodes)
	assert.Equal(t, 5, r.Depth)
	assert.Greater(t, r.States, 100)
	assert.Empty(t, r.Violations)
	assert.Nil(t, r.Counterexample)
	assert.Contains(t, errOut, "nodes=3 terms=2 writes=1 reads=1 depth=5 faults=1: ")
	assert.Contains(t, errOut, "no rule broken")
}

func TestExploreFindsABugReplayableAsScheduleAndLink(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "cex.json")
	code, out, errOut := cmd(t, "", "explore", "-bug", "commit-without-majority", "-writes", "0", "-depth", "8",
		"-schedule", path, "-base", "http://127.0.0.1/index.html")
	require.Equal(t, exitViolation, code, errOut)
	r := exploreOutput(t, out)
	require.NotNil(t, r.Counterexample)
	require.NotEmpty(t, r.Violations)
	assert.Equal(t, raftcore.RuleMajority, r.Violations[0].Rule)
	assert.False(t, r.Exhausted)
	assert.Len(t, r.Counterexample.Steps, len(r.Counterexample.Schedule.Actions))
	assert.Contains(t, errOut, "majority-agreement after 5 steps")
	assert.Contains(t, errOut, "raftsim run -f "+path)

	// The saved schedule replays to the same broken rule, exit 1.
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Contains(t, string(data), `"commit-without-majority"`)
	code, runOut, _ := cmd(t, "", "run", "-f", path)
	assert.Equal(t, exitViolation, code)
	assert.Greater(t, summary(t, runOut).ViolationCounts[raftcore.RuleMajority], 0)

	// The link opens the same run.
	assert.True(t, strings.HasPrefix(r.Counterexample.Link, "http://127.0.0.1/index.html?link="))
	l, err := timeline.DecodeLink(r.Counterexample.Link)
	require.NoError(t, err)
	assert.Equal(t, raftcore.BugCommitWithoutMajority, l.Config.Bugs)
	tl, err := timeline.OpenLink(l)
	require.NoError(t, err)
	assert.Greater(t, tl.World().ViolationCount(raftcore.RuleMajority), 0)
}

// TestExploreFindsAStaleReadFromTheDeposedLeaderStart: from the example
// start, the read bug's shortest run, saved and linked. Everything in it
// happens at time 0, and the checkers order the write's acknowledgement
// before the read by the trace, so the saved run replays to the stale read
// (the engine's rule and porcupine both), and so does the link. The saved
// run is docs/examples/read-without-confirm.json.
func TestExploreFindsAStaleReadFromTheDeposedLeaderStart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cex.json")
	code, out, errOut := cmd(t, "", "explore", "-from", "../../docs/examples/deposed-leader-read-without-confirm.json",
		"-writes", "1", "-reads", "1", "-faults", "0", "-depth", "6", "-schedule", path)
	require.Equal(t, exitViolation, code, errOut)
	r := exploreOutput(t, out)
	require.NotNil(t, r.Counterexample)
	assert.Equal(t, raftcore.RuleStaleRead, r.Violations[0].Rule)
	assert.Contains(t, errOut, "stale-read after 18 steps")
	assert.Equal(t, "0ms read 1 x (linearizable)", r.Counterexample.Steps[17])

	// The link opens the run: the deposed leader's read answered from
	// before the write its client had been told was done.
	l, err := timeline.DecodeLink(r.Counterexample.Link)
	require.NoError(t, err)
	assert.Equal(t, raftcore.BugReadWithoutConfirm, l.Config.Bugs)
	tl, err := timeline.OpenLink(l)
	require.NoError(t, err)
	ops := tl.World().Ops()
	require.Len(t, ops, 2)
	assert.Equal(t, raftcore.OpOK, ops[0].Result)
	assert.Equal(t, "v1", ops[0].Value)
	assert.Equal(t, raftcore.OpOK, ops[1].Result)
	assert.False(t, ops[1].ReadFound)
	assert.Less(t, ops[0].CompleteEvent, ops[1].InvokeEvent, "the write was acknowledged before the read was sent")
	assert.Equal(t, ops[0].CompleteUs, ops[1].InvokeUs, "at one instant")
	assert.Equal(t, 1, tl.World().ViolationCount(raftcore.RuleStaleRead), "the engine's rule")
	res := linearize.Check(ops)
	assert.False(t, res.Linearizable(), "porcupine rejects the link's history")
	v, _ := res.Verdict(ops[1].ID)
	assert.Equal(t, linearize.ReadVerdict{Op: 2, Verdict: linearize.Stale, Missed: 1}, v)

	// The saved run is the example, and replays to the stale read: exit 1.
	saved, err := os.ReadFile(path)
	require.NoError(t, err)
	example, err := os.ReadFile("../../docs/examples/read-without-confirm.json")
	require.NoError(t, err)
	assert.JSONEq(t, string(example), string(saved), "docs/examples/read-without-confirm.json is the explorer's run")
	code, runOut, errOut := cmd(t, "", "run", "-f", path)
	assert.Equal(t, exitViolation, code, errOut)
	sum := summary(t, runOut)
	assert.Equal(t, map[raftcore.Rule]int{raftcore.RuleStaleRead: 1}, sum.ViolationCounts)
	require.Len(t, sum.Ops, 2)
	assert.Equal(t, string(linearize.Stale), sum.Ops[1].Verdict)
	assert.Equal(t, 1, sum.Ops[1].Missed)
	assert.Contains(t, errOut, "1 violation (stale-read); not linearizable (porcupine): read 2 (it missed write 1)")

	// The saved run, explored from its end, breaks the read rule at once.
	code, _, errOut = cmd(t, "", "explore", "-from", path, "-reads", "0", "-depth", "1")
	assert.Equal(t, exitViolation, code, errOut)
	assert.Contains(t, errOut, "stale-read after 18 steps")
}

func TestExploreFromAScheduleStartsThere(t *testing.T) {
	dir := t.TempDir()
	// Explore one step from a fresh world with a bug, save the failing
	// run, then explore from its first step on: the rest is found again.
	path := filepath.Join(dir, "cex.json")
	code, _, errOut := cmd(t, "", "explore", "-bug", "commit-without-majority", "-writes", "0", "-depth", "8", "-schedule", path)
	require.Equal(t, exitViolation, code, errOut)
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	var s raftcore.Schedule
	require.NoError(t, json.Unmarshal(data, &s))
	s.Actions = s.Actions[:1]
	prefix, err := json.Marshal(s)
	require.NoError(t, err)
	code, out, errOut := cmd(t, string(prefix), "explore", "-from", "-", "-writes", "0", "-depth", "8")
	require.Equal(t, exitViolation, code, errOut)
	r := exploreOutput(t, out)
	assert.Len(t, r.Counterexample.Schedule.Actions, 5, "the prefix's action and the four found")
	assert.Contains(t, errOut, "after 5 steps")
}

func TestExploreBadFlagsExitTwo(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-depth", "0"}, "-depth: 0 is out of range"},
		{[]string{"-nodes", "12"}, "-nodes: 12 is out of range"},
		{[]string{"-terms", "x"}, "invalid value \"x\" for flag -terms"},
		{[]string{"-reads", "-1"}, "-reads: -1 is out of range: use 0 to 100"},
		{[]string{"-bug", "explode"}, "-bug: unknown bug \"explode\"; use one of vote-twice,"},
		{[]string{"-from", "/no/such/file.json"}, "-from: open /no/such/file.json"},
		{[]string{"-from", ""}, "-from: empty file name"},
		{[]string{"-from", "../../docs/examples/partition-3-2.json", "-nodes", "3"}, "-nodes 3 does not match the 5 machines"},
		{[]string{"-from", "../../docs/examples/partition-3-2.json", "-bug", "vote-twice"}, "-bug goes without -from"},
	} {
		code, out, errOut := cmd(t, "", append([]string{"explore"}, c.args...)...)
		assert.Equal(t, exitInput, code, c.args)
		assert.Empty(t, out)
		assert.Contains(t, errOut, c.want, c.args)
	}
}
