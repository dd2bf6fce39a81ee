package session

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"raftlab/raftcore"
	"raftlab/raftcore/timeline"
)

// open opens a share link's payload in catalog c to its end.
func open(t *testing.T, payload string, c Catalog) (*Session, error) {
	t.Helper()
	op, err := StartLink(payload, c, budget)
	if err != nil {
		return nil, err
	}
	for !op.Step(timeline.OpenStepMoments) {
	}
	require.Equal(t, 1.0, op.Progress())
	return op.Session()
}

// A share link holds the run up to its head and the moment shown, with
// the figure and its knobs: opening it shows the same world at the same
// moment, with the same run ahead.
func TestAShareLinkOpensTheSameRun(t *testing.T) {
	s := playing(t, "majority", "split", "2/2/1")
	runWatching(t, s, 9_000_000)
	act(t, s, write)
	runWatching(t, s, 11_000_000)
	head, headHash := s.HeadUs(), s.World().TraceHash()
	s.GoTo(6_000_000)
	shownHash := s.World().TraceHash()

	payload, err := s.LinkPayload()
	require.NoError(t, err)
	o, err := open(t, payload, BuiltinScenarios())
	require.NoError(t, err)
	require.Equal(t, int64(6_000_000), o.NowUs())
	require.Equal(t, shownHash, o.World().TraceHash())
	require.Equal(t, head, o.HeadUs())
	require.NotNil(t, o.Scenario())
	require.Equal(t, "majority", o.Scenario().ID())
	require.Equal(t, map[string]string{"split": "2/2/1"}, o.Scenario().Knobs())
	require.Equal(t, o.Scenario().Latest(), o.Scenario().Shown())
	require.Equal(t, s.Config().Seed, o.Config().Seed)
	o.GoTo(head)
	require.Equal(t, headHash, o.World().TraceHash())
}

func TestAFreePlayLinkOpensFreePlay(t *testing.T) {
	s := free(t, 5)
	runWatching(t, s, 2_000_000)
	payload, err := s.LinkPayload()
	require.NoError(t, err)
	o, err := open(t, payload, BuiltinScenarios())
	require.NoError(t, err)
	require.Nil(t, o.Scenario())
	require.Equal(t, s.World().TraceHash(), o.World().TraceHash())
}

// linkOf is the payload of a link to s's run, naming scenario id with
// knobs.
func linkOf(t *testing.T, s *Session, id string, knobs map[string]string) string {
	t.Helper()
	p, err := timeline.EncodeLink(s.Timeline().Link(id, knobs))
	require.NoError(t, err)
	return p
}

// A bad link is refused with an error, and the run shown stays as it was.
func TestBadLinksAreRefused(t *testing.T) {
	s := playing(t, "majority")
	runWatching(t, s, 3_000_000)
	now, hash := s.NowUs(), s.World().TraceHash()
	good := linkOf(t, s, "majority", nil)

	for what, payload := range map[string]string{
		"empty":               "",
		"garbage":             "not a link",
		"cut short":           good[:len(good)/2],
		"no such figure":      linkOf(t, s, "no-such-figure", nil),
		"no such knob":        linkOf(t, s, "majority", map[string]string{"nosuch": "x"}),
		"a value not offered": linkOf(t, s, "majority", map[string]string{"split": "9/9"}),
	} {
		o, err := open(t, payload, BuiltinScenarios())
		assert.Error(t, err, what)
		assert.Nil(t, o, what)
	}
	_, err := open(t, good, NewCatalog(nil))
	assert.Error(t, err, "a figure this app does not offer")
	_, err = StartLink(good, NewCatalog(nil), budget)
	assert.Error(t, err, "refused before anything is replayed")

	assert.Equal(t, now, s.NowUs())
	assert.Equal(t, hash, s.World().TraceHash())
}

func TestAnOpeningHasNoSessionUntilItIsOver(t *testing.T) {
	s := free(t, 3)
	runWatching(t, s, 3_000_000)
	op, err := StartLink(linkOf(t, s, "", nil), BuiltinScenarios(), budget)
	require.NoError(t, err)
	_, err = op.Session()
	require.Error(t, err)
}

// A schedule holds the whole run, to its furthest moment even when the
// reader stepped back; opening it replays that run to its end.
func TestAnExportedScheduleOpensTheWholeRun(t *testing.T) {
	s := free(t, 3)
	runWatching(t, s, 2_000_000)
	act(t, s, raftcore.Action{Do: raftcore.DoCrash, Node: 2})
	runWatching(t, s, 4_000_000)
	head := s.World().TraceHash()
	s.GoTo(1_000_000)

	data, err := s.ExportSchedule()
	require.NoError(t, err)
	o, err := OpenRun(data, budget)
	require.NoError(t, err)
	require.Equal(t, int64(4_000_000), o.NowUs())
	require.Equal(t, head, o.World().TraceHash())

	_, err = OpenRun([]byte(`{"nodes": 99}`), budget)
	require.Error(t, err)
	_, err = OpenRun(data[:len(data)/2], budget)
	require.Error(t, err)
}

// The trace export has every event of the run up to the moment shown, one
// JSON object a line.
func TestTheTraceExportHasEveryEventUpToNow(t *testing.T) {
	s := free(t, 3)
	runWatching(t, s, 3_000_000)
	s.GoTo(2_000_000)
	data, err := s.ExportTrace()
	require.NoError(t, err)
	lines := 0
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		require.True(t, json.Valid(sc.Bytes()), "line %d", lines+1)
		lines++
	}
	require.Equal(t, s.World().TraceCount(), uint64(lines))
}

// A link that names no moment, as the explorer's are, opens where the run
// first broke a rule: not at time 0, and not at its end.
func TestALinkWithNoMomentOpensOnTheFirstBrokenRule(t *testing.T) {
	data, err := os.ReadFile("../../../docs/examples/figure8-commit-old-term.json")
	require.NoError(t, err)
	sch, err := raftcore.ParseSchedule(data)
	require.NoError(t, err)
	// The same run a tenth of a second in (no election timer runs out
	// before), and a heal later on: the run's last moment is past the
	// broken rule.
	var acts []raftcore.Action
	for _, a := range sch.Actions {
		a.AtMs = 100
		acts = append(acts, a)
	}
	acts = append(acts, raftcore.Action{Do: raftcore.DoHeal, AtMs: 500})
	payload, err := timeline.EncodeLink(timeline.Link{Config: sch.Config(), Actions: acts})
	require.NoError(t, err)
	s, err := open(t, payload, Catalog{})
	require.NoError(t, err)
	assert.Len(t, s.World().Actions(), len(sch.Actions), "the moment shown")
	assert.Equal(t, int64(100_000), s.NowUs())
	assert.Equal(t, 1, s.World().ViolationCount(raftcore.RuleCommitCurrentTerm))
	assert.Equal(t, int64(500_000), s.HeadUs(), "the run is all there")
}

// TestRunsWithKubernetesOpen: a link or a schedule file with deployment
// controllers, and one with Kubernetes' worker machines, opens and is
// replayed to its end, its controllers' caches and counts as the run left
// them.
func TestRunsWithKubernetesOpen(t *testing.T) {
	data, err := os.ReadFile("../../../docs/examples/reconcile.json")
	require.NoError(t, err)
	sch, err := raftcore.ParseSchedule(data)
	require.NoError(t, err)
	payload, err := timeline.EncodeLink(timeline.Link{Config: sch.Config(), Actions: sch.Actions, EndUs: int64(sch.UntilMs * 1000), PosUs: int64(sch.UntilMs * 1000)})
	require.NoError(t, err)
	s, err := open(t, payload, BuiltinScenarios())
	require.NoError(t, err, "a link with a deployment controller")
	assert.Equal(t, int64(sch.UntilMs*1000), s.HeadUs(), "the run is all there")
	cs := s.World().DeploymentControllers()
	require.Len(t, cs, 1)
	assert.Equal(t, 1, cs[0].Informer.Relists, "the informer re-listed after its watch was cut")
	assert.Equal(t, 1, s.World().ReconcileCounts().Duplicates, "without idempotence the repeat made a second ReplicaSet")

	s, err = OpenRun(data, budget)
	require.NoError(t, err, "the schedule file")
	assert.Equal(t, 1, s.World().ReconcileCounts().Duplicates)

	cfg := raftcore.DefaultConfig()
	cfg.Nodes = 3
	cfg.Workers = 2
	payload, err = timeline.EncodeLink(timeline.Link{Config: cfg, EndUs: 2_000_000})
	require.NoError(t, err)
	s, err = open(t, payload, BuiltinScenarios())
	require.NoError(t, err, "a run with workers")
	assert.Equal(t, int64(2_000_000), s.HeadUs(), "the run with workers is all there")
	kube, ok := s.World().Kube()
	require.True(t, ok)
	assert.Len(t, kube.Nodes, 2)
}
