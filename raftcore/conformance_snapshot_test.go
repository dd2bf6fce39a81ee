package raftcore

// Conformance with etcd-io/raft for snapshots, compaction and restarts.
// The etcd side plays the part the etcd server plays around the raft
// library: it snapshots into its MemoryStorage and compacts it
// (maybeSnapshot), applies a snapshot its Ready carries (etcdPump.ready),
// reports a snapshot's fate to the leader (lockstep.deliver and drop), and
// restarts a machine over what it persisted (restart).

import (
	"fmt"
	"testing"

	"go.etcd.io/raft/v3/raftpb"
)

// maybeSnapshot is the etcd server's triggerSnapshot after machine id
// applied entries: once more than snapshotCount entries were applied since
// the last snapshot, it saves one at the applied index (no data: the
// comparison reads raftcore's store on its own) and compacts the log,
// keeping catchUp entries before it.
func (p *etcdPump) maybeSnapshot(id int) {
	if p.o.snapshotCount == 0 {
		return
	}
	ms, applied := p.stores[id], p.applied[id]
	snap, err := ms.Snapshot()
	if err != nil {
		panic(err)
	}
	if applied-snap.Metadata.Index <= uint64(p.o.snapshotCount) {
		return
	}
	cs := raftpb.ConfState{Voters: p.o.voterIDs()}
	if _, err := ms.CreateSnapshot(applied, &cs, nil); err != nil {
		panic(err)
	}
	if catchUp := uint64(p.o.catchUp); applied > catchUp {
		if err := ms.Compact(applied - catchUp); err != nil {
			panic(err)
		}
	}
}

// restart crashes machine id and starts it again from what it persisted:
// on etcd a new RawNode over the same MemoryStorage (HardState, snapshot,
// entries), applied from its snapshot, as the etcd server restarts; on
// raftcore the crash and restart actions. No message may be waiting to or
// from it.
func (h *lockstep) restart(id int) {
	h.t.Helper()
	if h.waitingAt(id) > 0 {
		h.fail(fmt.Sprintf("transcript restarts %d with messages waiting on its links", id))
	}
	ms := h.etcd.stores[id]
	snap, err := ms.Snapshot()
	if err != nil {
		h.t.Fatal(err)
	}
	h.etcd.rns[id] = startEtcdNode(uint64(id), h.o, ms, snap.Metadata.Index)
	h.etcd.applied[id] = snap.Metadata.Index
	for _, do := range []Verb{DoCrash, DoRestart} {
		if err := h.w.Apply(Action{Do: do, Node: id}); err != nil {
			h.t.Fatal(err)
		}
	}
	h.settle(fmt.Sprintf("restart %d", id))
}

// waitingAt counts the messages waiting to or from id.
func (h *lockstep) waitingAt(id int) int {
	c := 0
	for _, m := range h.rq {
		if m.From == NodeID(id) || m.To == NodeID(id) {
			c++
		}
	}
	return c
}

// snapOpts are three machines that snapshot after more than 5 applied
// entries and keep 2 before each snapshot.
func snapOpts(preVote, checkQuorum bool) clusterOpts {
	return clusterOpts{nodes: 3, preVote: preVote, checkQuorum: checkQuorum, snapshotCount: 5, catchUp: 2}
}

// snapSettings runs a transcript under each PreVote/CheckQuorum setting.
func snapSettings(t *testing.T, f func(t *testing.T, h *lockstep)) {
	for _, pv := range []bool{false, true} {
		for _, cq := range []bool{false, true} {
			o := snapOpts(pv, cq)
			t.Run(o.String(), func(t *testing.T) { f(t, newLockstep(t, o)) })
		}
	}
}

// behindCompaction elects machine 1, cuts machine 3 off while eight
// writes commit on 1 and 2 (which snapshot at index 6 and compact up to
// 4), and heals the network: machine 3 holds only the first entry.
func behindCompaction(h *lockstep) {
	h.t.Helper()
	h.campaign(1)
	h.flush()
	h.expectLeader(1, 1)
	h.partition([]int{1, 2}, []int{3})
	for i := 0; i < 8; i++ {
		h.propose(1, "k", fmt.Sprint(i))
		h.flush()
	}
	h.heal()
	if s, ok := h.w.Node(1).SnapshotAt(); !ok || s.Index != 6 || h.w.Node(1).FirstIndex() != 5 {
		h.t.Fatalf("the leader did not snapshot at 6 and compact up to 4 (first index %d)", h.w.Node(1).FirstIndex())
	}
	h.expectLog(3, 1, "1:")
}

// TestConformanceSnapshotCatchUp: a follower behind the leader's
// compaction answers a heartbeat; the leader's append is rejected, it
// probes, finds the entry it needs compacted, and sends its snapshot
// (progress snapshot). The transport reports it delivered (probe, paused);
// the follower restores it, its log empty after index 6, and answers with
// 6; the leader replicates the rest. Every step as etcd does it.
func TestConformanceSnapshotCatchUp(t *testing.T) {
	snapSettings(t, func(t *testing.T, h *lockstep) {
		behindCompaction(h)
		h.tick(1) // a heartbeat round reaches machine 3 again
		sent := false
		for i := 0; i < 100 && len(h.rq) > 0; i++ {
			from, to := int(h.rq[0].From), int(h.rq[0].To)
			if h.rq[0].Type == MsgSnap {
				sent = true
				if h.rq[0].Snapshot.Index != 6 || to != 3 {
					t.Fatalf("snapshot %d sent to %d", h.rq[0].Snapshot.Index, to)
				}
			}
			h.deliver(from, to)
		}
		if !sent {
			t.Fatal("no snapshot was sent")
		}
		for _, s := range []ProgressState{ProgressProbe, ProgressReplicate, ProgressSnapshot} {
			if !h.states[s] {
				t.Errorf("the leader's progress never was %s", s)
			}
		}
		// What the follower holds: the snapshot at 6, then entries 7 to
		// 9, all committed and applied, and the leader's store.
		f := h.w.Node(3)
		if s, ok := f.SnapshotAt(); !ok || s.Index != 6 {
			t.Fatalf("machine 3 holds no snapshot at 6")
		}
		h.expectLog(3, 9, "1:k=5", "1:k=6", "1:k=7")
		if f.FirstIndex() != 7 || f.Applied() != 9 || f.KV().Digest() != h.w.Node(1).KV().Digest() {
			t.Fatalf("machine 3: first index %d applied %d, store same as leader's: %v", f.FirstIndex(), f.Applied(), f.KV().Digest() == h.w.Node(1).KV().Digest())
		}
	})
}

// TestConformanceLostSnapshot: the snapshot is lost; the transport
// reports it and the leader goes back to probe (paused) until a heartbeat
// answer, then sends the snapshot again.
func TestConformanceLostSnapshot(t *testing.T) {
	snapSettings(t, func(t *testing.T, h *lockstep) {
		behindCompaction(h)
		h.tick(1)
		dropped := 0
		for i := 0; i < 200 && len(h.rq) > 0; i++ {
			from, to := int(h.rq[0].From), int(h.rq[0].To)
			if h.rq[0].Type == MsgSnap && dropped == 0 {
				dropped++
				h.drop(from, to)
				if pr := h.w.Node(1).prs[3]; pr.State != ProgressProbe || !pr.Paused {
					t.Fatalf("after the loss, progress %s paused=%v", pr.State, pr.Paused)
				}
				h.tick(1)
				continue
			}
			h.deliver(from, to)
		}
		if dropped != 1 {
			t.Fatal("no snapshot was sent to drop")
		}
		h.expectLog(3, 9, "1:k=5", "1:k=6", "1:k=7")
	})
}

// TestConformanceRestartKeepsCommit: a restarted machine keeps its term,
// vote, commit index (etcd's HardState), snapshot and compacted log, and
// its state machine is rebuilt to the commit index at once.
func TestConformanceRestartKeepsCommit(t *testing.T) {
	snapSettings(t, func(t *testing.T, h *lockstep) {
		h.campaign(1)
		h.flush()
		for i := 0; i < 8; i++ {
			h.propose(1, "k", fmt.Sprint(i))
			h.flush()
		}
		h.tick(1) // the followers learn the last commit index
		h.flush()
		for _, id := range []int{2, 1} {
			h.restart(id)
			n := h.w.Node(NodeID(id))
			if n.Commit() != 9 || n.Applied() != 9 {
				t.Fatalf("machine %d after its restart: commit %d applied %d, want 9 and 9", id, n.Commit(), n.Applied())
			}
		}
		// Machine 1 came back a follower; an election goes on from there.
		h.campaign(2)
		h.flush()
		h.expectLeader(2, 2)
		h.propose(2, "k", "after")
		h.flush()
		// Machine 1's snapshot is at 6 with 2 entries kept before it.
		h.expectLog(1, 11, "1:k=3", "1:k=4", "1:k=5", "1:k=6", "1:k=7", "2:", "2:k=after")
	})
}
