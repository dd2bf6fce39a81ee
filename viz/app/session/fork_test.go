package session

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"raftlab/raftcore"
)

// runWatching runs s to virtual time to a frame (20 ms) at a time,
// remembering the paths of the messages on the wire as the app does.
func runWatching(t *testing.T, s *Session, to int64) {
	t.Helper()
	for s.NowUs() < to {
		_, err := s.Advance(min(s.NowUs()+20_000, to), -1)
		require.NoError(t, err)
		s.Observed()
	}
}

// sentBefore splits the message paths s remembers by whether they were
// sent before at.
func sentBefore(s *Session, at int64) (before, after []uint64) {
	for _, id := range wirePaths(s) {
		if _, _, send, _, _ := s.Path(id); send < at {
			before = append(before, id)
		} else {
			after = append(after, id)
		}
	}
	return before, after
}

var write = raftcore.Action{Do: raftcore.DoWrite, Node: 1, Key: ClientKey, Value: "replicas=1"}

func TestActingAtTheHeadExtendsTheRun(t *testing.T) {
	s := free(t, 3)
	runWatching(t, s, 2_000_000)
	forked, _ := act(t, s, write)
	assert.False(t, forked)
	_, forked = s.TakeFork()
	assert.False(t, forked)
	assert.False(t, s.HasOtherRun())
	assert.False(t, s.ReturnToOtherRun(), "there is no other run to return to")
}

// Acting in the past forks the run there: the action says so once, the
// run left is kept to return to, and of the messages' paths only those
// the two branches share are kept.
func TestActingInThePastForksTheRun(t *testing.T) {
	s := free(t, 3)
	runWatching(t, s, 3_000_000)
	head, headHash := s.HeadUs(), s.World().TraceHash()
	const at = 1_500_000
	shared, later := sentBefore(s, at)
	require.NotEmpty(t, shared)
	require.NotEmpty(t, later)

	s.GoTo(at)
	require.False(t, s.AtHead())
	forked, forkAt := act(t, s, write)
	require.True(t, forked)
	require.Equal(t, int64(at), forkAt)
	got, ok := s.TakeFork()
	require.True(t, ok)
	require.Equal(t, int64(at), got)
	_, ok = s.TakeFork()
	require.False(t, ok, "a fork is taken once")

	require.True(t, s.AtHead(), "the new branch ends where it was made")
	require.Less(t, s.HeadUs(), head)
	require.True(t, s.HasOtherRun())
	for _, id := range shared {
		_, _, _, _, ok := s.Path(id)
		assert.True(t, ok, "message %d, sent before the fork, is of both branches", id)
	}
	for _, id := range later {
		_, _, _, _, ok := s.Path(id)
		assert.False(t, ok, "message %d, sent after the fork, is of the branch left", id)
	}

	// The new branch runs on, and its messages are remembered.
	runWatching(t, s, 2_500_000)
	_, ours := sentBefore(s, at)
	require.NotEmpty(t, ours)
	require.True(t, s.ReturnToOtherRun())
	require.Equal(t, head, s.HeadUs())
	s.GoTo(head)
	require.Equal(t, headHash, s.World().TraceHash(), "the run left is back as it was")
	_, after := sentBefore(s, at)
	require.Empty(t, after, "the new branch's messages are not the run left's")
}

// An action the world refuses changes nothing, even in the past.
func TestARefusedActionInThePastForksNothing(t *testing.T) {
	s := free(t, 3)
	runWatching(t, s, 2_000_000)
	s.GoTo(1_000_000)
	paths := len(wirePaths(s))
	_, _, err := s.Act(raftcore.Action{Do: raftcore.DoCrash, Node: 9})
	require.Error(t, err)
	_, forked := s.TakeFork()
	require.False(t, forked)
	require.False(t, s.HasOtherRun())
	require.Equal(t, int64(1_000_000), s.NowUs())
	require.Equal(t, int64(2_000_000), s.HeadUs())
	require.Len(t, wirePaths(s), paths)
}

// A message's path is where it went while it was on the wire: between
// two machines, sent before it was due.
func TestPathsAreWhereMessagesWent(t *testing.T) {
	s := free(t, 3)
	runWatching(t, s, 2_000_000)
	ids := wirePaths(s)
	require.NotEmpty(t, ids)
	for _, id := range ids {
		from, to, send, deliver, ok := s.Path(id)
		require.True(t, ok)
		assert.NotEqual(t, from, to)
		assert.True(t, from >= 0 && from < 3 && to >= 0 && to < 3, "message %d from %d to %d", id, from, to)
		assert.Less(t, send, deliver)
	}
	_, _, _, _, ok := s.Path(1 << 40)
	assert.False(t, ok, "a message never seen has no path")
}
