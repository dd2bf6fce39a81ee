package session

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"raftlab/raftcore"
)

// budget bounds each search of the client reads, as the app's does.
const budget = 100 * time.Millisecond

// freeConfig is a free-play world of n machines.
func freeConfig(n int) raftcore.Config {
	cfg := raftcore.DefaultConfig()
	cfg.Nodes, cfg.Names, cfg.TraceLimit = n, MachineNames(n), TraceLimit
	return cfg
}

// free is a free-play session of n machines.
func free(t *testing.T, n int) *Session {
	t.Helper()
	s, err := New(freeConfig(n), nil, budget)
	require.NoError(t, err)
	return s
}

// playing is a session of the book's figure id, its script played by the
// session, with knobs set by name and value pairs.
func playing(t *testing.T, id string, knobs ...string) *Session {
	t.Helper()
	r, err := BuiltinScenarios().Get(id)
	require.NoError(t, err)
	for k := 0; k+1 < len(knobs); k += 2 {
		r, err = r.With(knobs[k], knobs[k+1])
		require.NoError(t, err)
	}
	r.SetAutoplay(true)
	s, err := New(r.Config(1), r, budget)
	require.NoError(t, err)
	return s
}

// act applies x, which must not fail.
func act(t *testing.T, s *Session, x raftcore.Action) (forked bool, at int64) {
	t.Helper()
	forked, at, err := s.Act(x)
	require.NoError(t, err)
	return forked, at
}

// untilLeader runs s until a machine leads, and returns it.
func untilLeader(t *testing.T, s *Session) int {
	t.Helper()
	for k := 0; k < 100 && s.Leader() < 0; k++ {
		s.GoTo(s.HeadUs())
		_, err := s.Advance(s.NowUs()+100_000, -1)
		require.NoError(t, err)
		s.Observed()
	}
	require.GreaterOrEqual(t, s.Leader(), 0, "no leader after 10 s")
	return s.Leader()
}

func TestAFreshSessionKnowsNothingOfItsWorld(t *testing.T) {
	s := free(t, 3)
	assert.Nil(t, s.Scenario())
	assert.Zero(t, s.NowUs())
	assert.True(t, s.AtHead())
	assert.False(t, s.HasOtherRun())
	assert.Equal(t, Told{Leader: -1, Step: -1}, *s.Told())
	_, forked := s.TakeFork()
	assert.False(t, forked)
	assert.Equal(t, -1, s.Leader())
	assert.Equal(t, ClientKey, s.QuestionKey())
	assert.Equal(t, []string{"A", "B", "C"}, s.Config().Names)
}

func TestMachinesAreNamedAsTheBookNamesThem(t *testing.T) {
	assert.Equal(t, []string{"A", "B", "C", "D", "E"}, MachineNames(5))
	assert.Empty(t, MachineNames(0))
}

func TestABadConfigIsRefused(t *testing.T) {
	cfg := raftcore.DefaultConfig()
	cfg.Nodes = 0
	_, err := New(cfg, nil, budget)
	require.Error(t, err)
}

// Leader is the leader of the highest term among running machines: a
// leader cut off in an old term is not it, nor a crashed one.
func TestLeaderIsTheLeaderOfTheHighestTerm(t *testing.T) {
	// Without CheckQuorum a leader cut off stays leader of its old term.
	cfg := freeConfig(3)
	cfg.CheckQuorum = false
	s, err := New(cfg, nil, budget)
	require.NoError(t, err)
	old := untilLeader(t, s)
	others := []int{}
	for i := 0; i < 3; i++ {
		if i != old {
			others = append(others, i+1)
		}
	}
	act(t, s, raftcore.Action{Do: raftcore.DoPartition, Groups: [][]int{{old + 1}, others}})
	for k := 0; k < 100 && (s.Leader() == old || s.Leader() < 0); k++ {
		_, err := s.Advance(s.NowUs()+100_000, -1)
		require.NoError(t, err)
	}
	lead := s.Leader()
	require.NotEqual(t, old, lead, "the majority's new leader")
	require.GreaterOrEqual(t, lead, 0)
	require.Equal(t, raftcore.RoleLeader, s.World().Node(raftcore.NodeID(old+1)).Role(), "the old leader still leads its term")
	act(t, s, raftcore.Action{Do: raftcore.DoCrash, Node: lead + 1})
	assert.NotEqual(t, lead, s.Leader(), "a crashed machine leads nobody")
}

// The question panel asks about the figure's key, or the lab's.
func TestQuestionKeyIsTheFiguresOrTheLabs(t *testing.T) {
	assert.Equal(t, "orders/1", playing(t, "notebooks").QuestionKey())
	assert.Equal(t, ClientKey, playing(t, "roles").QuestionKey())
}
