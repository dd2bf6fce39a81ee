package raftcore

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// snapWorld is three machines that snapshot every 10 applied entries and
// keep 3 before each snapshot, with machine 1 leading.
func snapWorld(t *testing.T, mut func(*Config)) *World {
	t.Helper()
	w := newTestWorld(t, func(c *Config) {
		c.Nodes, c.SnapshotCount, c.CatchUpEntries = 3, 10, 3
		if mut != nil {
			mut(c)
		}
	})
	mustApply(t, w, Action{Do: DoTimeout, Node: 1})
	w.RunFor(1_000_000)
	require.Equal(t, RoleLeader, w.Node(1).Role())
	return w
}

// writeN has the leader write n keys, one every 50 ms, and lets them
// settle.
func writeN(t *testing.T, w *World, from, n int) {
	t.Helper()
	for i := from; i < from+n; i++ {
		mustApply(t, w, Action{Do: DoWrite, Node: 1, Key: fmt.Sprintf("k%d", i%7), Value: fmt.Sprint(i)})
		w.RunFor(50_000)
	}
	w.RunFor(1_000_000)
}

// countTrace counts the trace events for which match holds.
func countTrace(w *World, match func(TraceEvent) bool) int {
	n := 0
	for _, e := range w.Trace() {
		if match(e) {
			n++
		}
	}
	return n
}

// TestMachinesSnapshotAndCompact: as the etcd server does after applying,
// every machine saves its state machine once more than SnapshotCount
// entries were applied since the last snapshot, and compacts its log up to
// CatchUpEntries before the snapshot's index. The snapshot holds what the
// machine's store held at that index.
func TestMachinesSnapshotAndCompact(t *testing.T) {
	w := snapWorld(t, nil)
	writeN(t, w, 0, 25)
	noViolations(t, w)
	for id := NodeID(1); id <= 3; id++ {
		n := w.Node(id)
		s, ok := n.SnapshotAt()
		require.True(t, ok, "machine %d took no snapshot", id)
		assert.Greater(t, s.Index, uint64(20), "machine %d: a snapshot after every 10 applied entries", id)
		assert.LessOrEqual(t, s.Index, n.Commit(), "machine %d: a snapshot covers committed entries only", id)
		assert.Equal(t, s.Index-3+1, n.FirstIndex(), "machine %d: 3 entries kept before the snapshot", id)
		assert.Equal(t, n.Applied(), n.LastIndex(), "machine %d applied everything", id)
		assert.Equal(t, n.KV().Digest(), w.Node(1).KV().Digest())
	}
	snaps := countTrace(w, func(e TraceEvent) bool { return e.Kind == TraceSnapshot })
	assert.Equal(t, 6, snaps, "two snapshots on each of three machines")
}

// TestTakeSnapshotStopsAtTheAppliedIndex: a snapshot is of the state
// machine, so it ends at the applied index, however far the log goes.
func TestTakeSnapshotStopsAtTheAppliedIndex(t *testing.T) {
	n := loneNode(1, 3, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2)
	n.cfg.snapshotCount, n.cfg.catchUpEntries = 10, 2
	n.commit = 12
	for {
		e, ok := n.nextApply()
		if !ok {
			break
		}
		n.markApplied(e)
	}
	require.True(t, n.takeSnapshot())
	assert.Equal(t, uint64(12), n.snap.Index, "the applied index, not the last of the log (16)")
	assert.Equal(t, uint64(11), n.log.firstIndex())
	assert.Equal(t, uint64(16), n.log.lastIndex(), "uncommitted entries stay in the log")
}

// TestFollowerBehindCompactionGetsSnapshot: a follower down while the
// leader compacted past its log comes back; the leader, unable to send
// the entries, sends its snapshot (progress snapshot), the follower
// restores it, its log then starts after the snapshot, and replication
// goes on from there (progress probe, then replicate), as in etcd.
func TestFollowerBehindCompactionGetsSnapshot(t *testing.T) {
	w := snapWorld(t, nil)
	writeN(t, w, 0, 3)
	mustApply(t, w, Action{Do: DoCrash, Node: 3})
	writeN(t, w, 3, 30)
	lead := w.Node(1)
	ls, _ := lead.SnapshotAt()
	require.Greater(t, lead.FirstIndex(), w.Node(3).LastIndex()+1, "the leader compacted past the follower's log")

	mustApply(t, w, Action{Do: DoRestart, Node: 3})
	var sent *Message
	states := map[ProgressState]bool{}
	stepUntil(w, w.Now()+3_000_000, func() bool {
		if pr, ok := lead.Progress(3); ok {
			states[pr.State] = true
		}
		for _, m := range w.InFlight() {
			if m.Type == MsgSnap && sent == nil {
				m := m
				sent = &m
			}
		}
		return sent != nil && w.Node(3).Applied() == lead.Applied() && lead.prs[3].State == ProgressReplicate
	})
	require.NotNil(t, sent, "the leader sent no snapshot")
	assert.Equal(t, NodeID(3), sent.To)
	assert.Equal(t, ls.Index, sent.Snapshot.Index, "the leader's latest snapshot")
	assert.True(t, states[ProgressSnapshot], "progress went through snapshot")
	f := w.Node(3)
	fs, ok := f.SnapshotAt()
	require.True(t, ok)
	assert.Equal(t, ls.Index, fs.Index)
	assert.Equal(t, lead.KV().Digest(), f.KV().Digest())
	assert.Equal(t, lead.LastIndex(), f.LastIndex())
	assert.Equal(t, ProgressReplicate, lead.prs[3].State)
	restored := countTrace(w, func(e TraceEvent) bool { return e.Kind == TraceRestore && e.Node == 3 && e.Index == ls.Index })
	assert.Equal(t, 1, restored, "the follower's restore is traced")
	noViolations(t, w)
}

// TestSnapshotIsSlowOnASlowLink: a snapshot carries the whole store, so on
// a link of limited bandwidth it takes longer than an append.
func TestSnapshotIsSlowOnASlowLink(t *testing.T) {
	w := snapWorld(t, func(c *Config) { c.BandwidthKBps = 1 })
	writeN(t, w, 0, 3)
	mustApply(t, w, Action{Do: DoCrash, Node: 3})
	writeN(t, w, 3, 30)
	mustApply(t, w, Action{Do: DoRestart, Node: 3})
	mustApply(t, w, Action{Do: DoWrite, Node: 1, Key: "k1", Value: "new"})
	var snap, app int64
	stepUntil(w, w.Now()+3_000_000, func() bool {
		for _, m := range w.InFlight() {
			switch {
			case m.Type == MsgSnap && snap == 0:
				snap = m.DeliverUs - m.SendUs
			case m.Type == MsgApp && m.To == 2 && len(m.Entries) == 1 && app == 0:
				app = m.DeliverUs - m.SendUs
			}
		}
		return snap != 0 && app != 0
	})
	require.NotZero(t, snap)
	require.NotZero(t, app)
	assert.Greater(t, snap, app+100_000, "a snapshot of %d keys takes longer than a one-entry append", w.Node(1).KV().Len())
}

// TestLostSnapshotIsSentAgain: the transport reports a snapshot that never
// arrived; the leader goes back to probe and, once the follower answers a
// heartbeat, sends the snapshot again.
func TestLostSnapshotIsSentAgain(t *testing.T) {
	w := snapWorld(t, nil)
	mustApply(t, w, Action{Do: DoCrash, Node: 3})
	writeN(t, w, 0, 30)
	mustApply(t, w, Action{Do: DoRestart, Node: 3})
	dropped := 0
	var after []ProgressState // the follower's progress after the drop
	ok := stepUntil(w, w.Now()+5_000_000, func() bool {
		if dropped > 0 {
			if pr, ok := w.Node(1).Progress(3); ok && (len(after) == 0 || after[len(after)-1] != pr.State) {
				after = append(after, pr.State)
			}
		}
		for _, m := range w.InFlight() {
			if m.Type == MsgSnap && dropped == 0 {
				mustApply(t, w, Action{Do: DoDrop, ID: m.ID})
				dropped++
			}
		}
		return dropped > 0 && w.Node(3).Applied() == w.Node(1).Applied()
	})
	require.True(t, ok, "the follower did not catch up after its snapshot was lost")
	// The loss is reported when the snapshot would have arrived: back to
	// probe; a heartbeat's answer has a second snapshot sent; its arrival
	// is reported (probe, paused) and the follower's answer to it moves
	// the follower on to replicate.
	assert.Equal(t, []ProgressState{ProgressSnapshot, ProgressProbe, ProgressSnapshot, ProgressProbe, ProgressReplicate}, after)
	sends := countTrace(w, func(e TraceEvent) bool { return e.Kind == TraceSend && e.MsgType == MsgSnap })
	assert.Equal(t, 2, sends, "the snapshot went out twice")
	noViolations(t, w)
}

// TestStaleSnapshotIsRefused: a snapshot at or below the follower's commit
// index (a late duplicate, say) changes nothing; the follower answers with
// its commit index.
func TestStaleSnapshotIsRefused(t *testing.T) {
	n := loneNode(2, 3, 2, 1, 1, 1, 1, 1, 2, 2)
	n.commit, n.applied = 5, 5
	old := &Snapshot{Index: 3, Term: 1, Chain: n.log.chain(3)}
	n.step(Message{Type: MsgSnap, From: 1, To: 2, Term: 2, Snapshot: old})
	msgs := takeMsgs(n)
	require.Len(t, msgs, 1)
	assert.Equal(t, MsgAppResp, msgs[0].Type)
	assert.Equal(t, uint64(5), msgs[0].Index, "answered with the commit index")
	assert.Equal(t, uint64(5), n.commit)
	assert.Equal(t, uint64(6), n.log.lastIndex(), "the log is kept")
	assert.Nil(t, n.snap)
}

// TestSnapshotOfHeldEntryMovesCommitOnly: a snapshot whose last entry the
// follower already holds only moves its commit index (etcd's
// fast-forward); the log after it stays.
func TestSnapshotOfHeldEntryMovesCommitOnly(t *testing.T) {
	n := loneNode(2, 3, 2, 1, 1, 1, 1, 1, 2, 2)
	n.commit = 2
	s := &Snapshot{Index: 4, Term: 1, Chain: n.log.chain(4)}
	n.step(Message{Type: MsgSnap, From: 1, To: 2, Term: 2, Snapshot: s})
	msgs := takeMsgs(n)
	require.Len(t, msgs, 1)
	assert.Equal(t, uint64(4), msgs[0].Index)
	assert.Equal(t, uint64(4), n.commit)
	assert.Equal(t, uint64(6), n.log.lastIndex())
	assert.Nil(t, n.snap, "nothing restored")
}

// TestRestartRebuildsFromSnapshot: a restarted machine starts its state
// machine from its snapshot and applies the committed entries after it at
// once, as etcd replays its WAL from the last snapshot to the commit index
// of its HardState.
func TestRestartRebuildsFromSnapshot(t *testing.T) {
	w := snapWorld(t, nil)
	writeN(t, w, 0, 25)
	n := w.Node(2)
	s, ok := n.SnapshotAt()
	require.True(t, ok)
	commit, digest, first := n.Commit(), n.KV().Digest(), n.FirstIndex()
	require.Greater(t, commit, s.Index, "entries committed after the snapshot")
	mustApply(t, w, Action{Do: DoCrash, Node: 2})
	mustApply(t, w, Action{Do: DoRestart, Node: 2})
	at := w.Now()
	n = w.Node(2)
	assert.Equal(t, commit, n.Commit(), "the commit index is kept")
	assert.Equal(t, commit, n.Applied(), "replayed to the commit index at once")
	assert.Equal(t, digest, n.KV().Digest())
	assert.Equal(t, first, n.FirstIndex(), "the compacted log is what is on disk")
	var replayed []uint64
	for _, e := range w.Trace() {
		if e.AtUs == at && e.Kind == TraceApply && e.Node == 2 {
			replayed = append(replayed, e.Index)
		}
	}
	require.NotEmpty(t, replayed)
	assert.Equal(t, s.Index+1, replayed[0], "the replay starts after the snapshot")
	assert.Equal(t, commit, replayed[len(replayed)-1])
	noViolations(t, w)
}

// TestRandomRunsWithSnapshotsAreSafe: correct Raft breaks no rule in
// random runs that snapshot every few entries, and those runs do send and
// restore snapshots.
func TestRandomRunsWithSnapshotsAreSafe(t *testing.T) {
	runs := 300
	if testing.Short() {
		runs = 40
	}
	restores := 0
	for seed := int64(1); seed <= int64(runs); seed++ {
		w := RandomRun(seed, RandomOptions{Snapshots: true, Reconfigure: seed%2 == 0})
		if unexpectedViolations(w) {
			v := w.Violations()[0]
			t.Fatalf("seed %d: %s: %s", seed, v.Rule, v.Text)
		}
		restores += countTrace(w, func(e TraceEvent) bool { return e.Kind == TraceRestore })
	}
	assert.Greater(t, restores, runs/10, "too few restores for the runs to test them")
}

// TestCloneWithSnapshotsIsIndependent: a clone taken after snapshots and
// compaction shares the snapshots and the kept entries with its original;
// running the clone a different way (more writes, a crash, a restore)
// leaves the original exactly as a world that was never cloned.
func TestCloneWithSnapshotsIsIndependent(t *testing.T) {
	run := func(clone bool) *World {
		w := snapWorld(t, nil)
		writeN(t, w, 0, 25)
		if clone {
			c := w.Clone()
			mustApply(t, c, Action{Do: DoCrash, Node: 3})
			writeN(t, c, 25, 30)
			mustApply(t, c, Action{Do: DoRestart, Node: 3})
			c.RunFor(2_000_000)
			noViolations(t, c)
		}
		writeN(t, w, 100, 12)
		return w
	}
	a, b := run(true), run(false)
	assert.Equal(t, b.TraceHash(), a.TraceHash())
	for id := NodeID(1); id <= 3; id++ {
		na, nb := a.Node(id), b.Node(id)
		assert.Equal(t, nb.FirstIndex(), na.FirstIndex())
		assert.Equal(t, nb.Entries(nb.FirstIndex(), nb.LastIndex()), na.Entries(na.FirstIndex(), na.LastIndex()))
		assert.Equal(t, nb.KV().Digest(), na.KV().Digest())
	}
}

// TestContractReadsCompactedLogs: the shared-history contract, which the
// app shows every frame, reads logs whose prefixes are compacted (at
// different points on different machines) and restored, all through
// random runs that snapshot every few entries.
func TestContractReadsCompactedLogs(t *testing.T) {
	for seed := int64(1); seed <= 30; seed++ {
		sched := RandomRun(seed, RandomOptions{Snapshots: true}).Schedule()
		w := MustWorld(sched.Config())
		// After every action, where a fault or a write has just changed
		// what the machines hold.
		for _, a := range sched.Actions {
			if err := w.Play([]Action{a}); err != nil {
				t.Fatal(err)
			}
			w.Contract()
		}
		w.RunUntil(msToUs(sched.UntilMs))
		for _, cl := range w.Contract() {
			if cl.State == ClauseBroken {
				t.Fatalf("seed %d: %s broken: %+v", seed, cl.ID, cl)
			}
		}
	}
}
