package explore

import (
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"raftlab/raftcore"
)

// snapshotInFlight is a start state for searches across snapshots: the
// machines snapshot every second applied entry and keep nothing before it.
// Machine 1 won term 1 with machine 2, took a write, committed it with
// machine 2 and compacted its log past it; machine 3, which had heard
// nothing, answered a heartbeat, so the leader, which no longer holds the
// entries machine 3 lacks, has sent it its snapshot, now in flight.
func snapshotInFlight(t testing.TB, bugs raftcore.Bug) *raftcore.World {
	t.Helper()
	w := electedIn(t, snapshottingConfig(bugs), true)
	deliverAll(t, w, 1, 2, raftcore.MsgApp)
	deliverAll(t, w, 2, 1, raftcore.MsgAppResp)
	require.NoError(t, w.Apply(raftcore.Action{Do: raftcore.DoHeartbeat, Node: 1}))
	deliverFrom(t, w, 1, 3, raftcore.MsgHeartbeat)
	deliverFrom(t, w, 3, 1, raftcore.MsgHeartbeatResp)
	s, ok := w.Node(1).SnapshotAt()
	require.True(t, ok, "the leader took no snapshot")
	require.Equal(t, uint64(2), s.Index)
	require.Equal(t, uint64(3), w.Node(1).FirstIndex())
	for _, m := range w.InFlight() {
		if m.Type == raftcore.MsgSnap && m.To == 3 {
			return w
		}
	}
	t.Fatalf("no snapshot in flight to machine 3: %v", w.InFlight())
	return nil
}

// snapshottingConfig is the explorer's configuration with machines that
// snapshot every second applied entry and keep nothing before it
// (Bounds.SnapshotCount 1).
func snapshottingConfig(bugs raftcore.Bug) raftcore.Config {
	cfg := Config(3, bugs)
	cfg.SnapshotCount, cfg.CatchUpEntries = 1, 0
	return cfg
}

// TestCorrectRaftKeepsEveryRuleAcrossSnapshots searches every run of four
// actions (a write, a drop, repeat or crash among them) from the snapshot
// in flight: delivered, lost, duplicated, overtaken by an append or a new
// election. No rule breaks: the follower that restores it holds the
// leader's state, and every log agrees where it still holds entries.
func TestCorrectRaftKeepsEveryRuleAcrossSnapshots(t *testing.T) {
	start := snapshotInFlight(t, 0)
	// The space holds the restore: delivering the snapshot gives
	// machine 3 the leader's state.
	w := start.Clone()
	deliverAll(t, w, 1, 3, raftcore.MsgSnap)
	s, ok := w.Node(3).SnapshotAt()
	require.True(t, ok, "machine 3 restored nothing")
	require.Equal(t, w.Node(1).KV().Digest(), s.KV().Digest())
	require.Equal(t, uint64(3), w.Node(3).FirstIndex())

	res, err := ExploreFrom(start, Bounds{Nodes: 3, Terms: 2, Writes: 1, Faults: 1, Depth: 4})
	require.NoError(t, err)
	require.Nil(t, res.Counterexample)
	require.True(t, res.Exhausted)
	t.Logf("%d states", res.States)
}

// TestSnapshotCountBound: the bound is checked and said as raftsim
// explore's flag says it.
func TestSnapshotCountBound(t *testing.T) {
	b := Bounds{Nodes: 3, Terms: 1, Depth: 2, SnapshotCount: 1}
	require.NoError(t, b.Validate())
	require.Contains(t, b.String(), "snapshot-count=1")
	b.SnapshotCount = -1
	require.ErrorContains(t, b.Validate(), "snapshot-count: -1 is out of range")
}

// deliverAll delivers every message of type typ from machine from to
// machine to now in flight, oldest first.
func deliverAll(t testing.TB, w *raftcore.World, from, to raftcore.NodeID, typ raftcore.MsgType) {
	t.Helper()
	for _, m := range w.InFlight() {
		if m.From == from && m.To == to && m.Type == typ {
			require.NoError(t, w.Apply(raftcore.Action{Do: raftcore.DoDeliver, ID: m.ID}))
		}
	}
}

// A configuration change compacted into a snapshot still counts: machine 1
// removes machine 2, snapshots past the change, and its configuration is
// itself alone (the explorer once rebuilt it from the log, where the
// compacted change reads as an empty entry, and judged the next write as
// committed without a majority of machines 1 and 2).
func TestConfigurationCompactedIntoASnapshotCounts(t *testing.T) {
	data, err := os.ReadFile("testdata/remove-then-compact.json")
	require.NoError(t, err)
	sch, err := raftcore.ParseSchedule(data)
	require.NoError(t, err)
	w, err := sch.Run()
	require.NoError(t, err)
	lead := w.Node(1)
	_, ok := lead.SnapshotAt()
	require.True(t, ok, "machine 1 took no snapshot")
	c := confOf(w, lead, lead.LastIndex())
	require.Equal(t, conf{in: setOf([]raftcore.NodeID{1})}, c)
}
