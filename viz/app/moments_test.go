package app

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"raftlab/raftcore"
	"raftlab/raftcore/timeline"
	"raftlab/viz"
)

// openExampleLink opens the schedule docs/examples/name from a share link
// as raftsim explore prints it (no moment named), on 1280x800.
func openExampleLink(t *testing.T, name string) (*App, raftcore.Schedule) {
	t.Helper()
	data, err := os.ReadFile("../../docs/examples/" + name)
	require.NoError(t, err)
	s, err := raftcore.ParseSchedule(data)
	require.NoError(t, err)
	payload, err := timeline.EncodeLink(timeline.Link{Config: s.Config(), Actions: s.Actions})
	require.NoError(t, err)
	p := viz.DefaultParams()
	p.Link = payload
	a, err := New(Options{Params: p, Width: 1280, Height: 800})
	require.NoError(t, err)
	return a, s
}

// The counterexample opens on its broken rule, which the safety panel
// names first; "," and "." then walk it one action at a time, back to its
// start and on to the broken rule again.
func TestACounterexampleStepsActionByActionWithTheKeys(t *testing.T) {
	// The explorer's shortest run for commit-old-term, nineteen actions
	// at time 0.
	a, _ := openExampleLink(t, "figure8-commit-old-term.json")
	n := len(a.World().Actions())
	require.Equal(t, 19, n, "the counterexample's actions")
	require.Equal(t, 1, a.World().ViolationCount(raftcore.RuleCommitCurrentTerm), "opened on the broken rule")
	safety := panelText(t, a, "Safety")
	require.True(t, strings.HasPrefix(safety, "1 broken rule"), "the safety panel starts with %q", safety)
	for k := n - 1; k >= 0; k-- {
		require.True(t, a.Key(","), "',' did nothing with %d actions applied", k+1)
		require.Len(t, a.World().Actions(), k, "',' went back more or less than one action")
		require.Zero(t, a.World().Now(), "',' moved the clock")
	}
	require.Zero(t, a.World().ViolationCount(""), "a rule is broken at the start")
	for k := 1; k <= n; k++ {
		require.True(t, a.Key("."))
		require.Len(t, a.World().Actions(), k, "'.' went on more or less than one action")
	}
	require.Equal(t, 1, a.World().ViolationCount(raftcore.RuleCommitCurrentTerm), "back on the broken rule")
}

// A link copied between two actions of one instant opens there: the
// moment names how many actions it has applied.
func TestALinkCopiedMidInstantOpensThere(t *testing.T) {
	a, _ := openExampleLink(t, "figure8-commit-old-term.json")
	for range 5 {
		require.True(t, a.Key(","))
	}
	require.Len(t, a.World().Actions(), 14)
	link := a.ShareLink()
	_, payload, ok := strings.Cut(link, "link=")
	require.True(t, ok, link)
	p := viz.DefaultParams()
	p.Link = payload
	b, err := New(Options{Params: p, Width: 1280, Height: 800})
	require.NoError(t, err)
	require.Len(t, b.World().Actions(), 14, "the copied moment")
	require.Equal(t, a.World().TraceHash(), b.World().TraceHash())
	require.True(t, b.Key("."))
	require.Len(t, b.World().Actions(), 15, "the opened run steps on from there")
}
