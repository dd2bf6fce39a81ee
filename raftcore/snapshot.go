package raftcore

// Snapshots and log compaction, as etcd runs them. The raft library only
// moves snapshots around (raft.go's maybeSendSnapshot, handleSnapshot and
// restore, log.go's compaction); the etcd server decides when to take one:
// after applying, once more than --snapshot-count entries were applied since
// the last snapshot, it saves the state machine at its applied index and
// compacts its Raft log up to --snapshot-catchup-entries before that index,
// keeping a tail from which a follower that is only a little behind can
// still be sent entries. A follower that needs an entry the leader has
// compacted is sent the leader's snapshot instead (MsgSnap); it replaces its
// state machine and its log with it. The leader's progress for that
// follower goes from probe or replicate to snapshot, and back to probe when
// the transport reports how the send went (MsgSnapStatus), as in etcd's
// tracker.
//
// Here every machine does what the etcd server does, with the counts of
// Config.SnapshotCount and Config.CatchUpEntries; the lab's defaults are
// small so that a reader sees snapshots within a minute of writes.

// Snapshot is a machine's state machine as of one log index, with what a
// machine restoring from it needs: the index and term of the last entry it
// covers, the chain hash of the log up to it (so log matching can still be
// judged on the prefix it replaces), and the configuration in force there
// (etcd's ConfState). A snapshot is never changed once taken: worlds,
// machines and messages share it.
type Snapshot struct {
	Index, Term uint64
	Chain       uint64
	conf        confState
	confIndex   uint64
	kv          KV
}

// KV returns the state machine the snapshot holds; read it, never change
// it.
func (s *Snapshot) KV() *KV { return &s.kv }

// Conf is the configuration in force at the snapshot's index, as a
// sentence of the trace writes it.
func (s *Snapshot) Conf() string { return s.conf.String() }

// Membership is the configuration in force at the snapshot's index: what
// a machine that restores it starts from, since the changes that made it
// are compacted away.
func (s *Snapshot) Membership() Membership {
	c := &s.conf
	return Membership{Voters: c.incoming.ids(), Outgoing: c.outgoing.ids(), Learners: c.learners.ids(),
		AutoLeave: c.autoLeave, Index: s.confIndex}
}

// snapshotHeaderBytes is what a snapshot's metadata takes on the wire
// (index, term, configuration), beside its contents.
const snapshotHeaderBytes = 64

// Bytes is how large the snapshot is on the wire: its metadata and every
// key, value and revision it holds, and its clients' sessions.
func (s *Snapshot) Bytes() int {
	b := snapshotHeaderBytes
	for k, v := range s.kv.data {
		b += len(k) + len(v.Value) + 8
	}
	for _, ss := range s.kv.sessions {
		b += 16 + 16*len(ss.done)
	}
	return b
}

// takeSnapshot is what the etcd server does after applying (its
// triggerSnapshot): once more than SnapshotCount entries were applied since
// the last snapshot, it saves the state machine at the applied index and
// compacts the log, keeping the CatchUpEntries entries before that index
// for followers that are a little behind. It reports whether it took one.
func (n *Node) takeSnapshot() bool {
	count := uint64(n.cfg.snapshotCount)
	if count == 0 || n.cfg.protocol != ProtocolRaft {
		return false
	}
	at := n.applied
	if n.cfg.has(BugSnapshotUncommitted) {
		// Broken: the snapshot covers the whole log, committed or not,
		// as if every entry held had been applied.
		at = n.log.lastIndex()
	}
	var last uint64
	if n.snap != nil {
		last = n.snap.Index
	}
	if at <= last || at-last <= count {
		return false
	}
	s := &Snapshot{Index: at, Term: n.log.term(at), Chain: n.log.chain(at), conf: n.conf, confIndex: n.confIndex, kv: n.kv.clone()}
	if at > n.applied {
		// Broken (BugSnapshotUncommitted): the entries past the applied
		// index go into the snapshot, and the machine takes its state.
		for i := n.applied + 1; i <= at; i++ {
			s.kv.apply(n.log.entry(i))
		}
		n.kv, n.applied = s.kv.clone(), at
	}
	n.snap = s
	if catchUp := uint64(n.cfg.catchUpEntries); at > catchUp {
		n.log.compact(at - catchUp)
	}
	return true
}

// SnapshotAt returns the machine's last snapshot, if it took or received
// one.
func (n *Node) SnapshotAt() (*Snapshot, bool) { return n.snap, n.snap != nil }

// FirstIndex is the first index the machine's log still holds; the entries
// before it were compacted into its snapshot.
func (n *Node) FirstIndex() uint64 { return n.log.firstIndex() }

// maybeSendSnapshot sends follower to the machine's latest snapshot, as
// etcd's leader does when the follower needs an entry it has compacted. A
// follower not heard from recently is not sent one (it is probably down,
// and a snapshot is large); as in etcd, a later heartbeat answer tries
// again.
func (n *Node) maybeSendSnapshot(to NodeID, pr *Progress) bool {
	if !pr.RecentActive || n.snap == nil {
		return false
	}
	pr.becomeSnapshot(n.snap.Index)
	n.send(Message{Type: MsgSnap, To: to, Term: n.term, Snapshot: n.snap})
	return true
}

// handleSnapshot is a follower's answer to MsgSnap (etcd's handleSnapshot):
// having restored it, it tells the leader its log now ends at the
// snapshot's index; otherwise it answers with its commit index, which the
// leader then takes as what it holds.
func (n *Node) handleSnapshot(m Message) {
	if n.restore(m.Snapshot) {
		n.send(Message{Type: MsgAppResp, To: m.From, Term: n.term, Index: n.log.lastIndex()})
		return
	}
	n.send(Message{Type: MsgAppResp, To: m.From, Term: n.term, Index: n.commit})
}

// restore replaces the machine's log and state machine with snapshot s
// (etcd's raft.restore, with the etcd server's applySnapshot). A snapshot
// at or below the commit index is old news and refused. One whose last
// entry the log already holds only moves the commit index up: the log
// after it may be worth keeping. Otherwise the log is thrown away, and
// with it any entry past the snapshot: they were never known to match the
// leader's.
func (n *Node) restore(s *Snapshot) bool {
	if s.Index <= n.commit && !n.cfg.has(BugRestoreOldSnapshot) {
		return false
	}
	if n.log.matchTerm(s.Index, s.Term) && s.Index > n.commit {
		n.followLeaderCommit(s.Index)
		return false
	}
	n.log.restore(s)
	n.snap = s
	n.commit = s.Index
	n.applied = s.Index
	n.kv = s.kv.clone()
	n.conf, n.confIndex = s.conf, s.confIndex
	n.restored = append(n.restored, s)
	return true
}

// reportSnapshot is the leader's side of MsgSnapStatus, which the transport
// sends it once a snapshot it sent has arrived (or failed to): either way
// the follower goes back to probe, and no append goes out until it answers
// (after a success) or a heartbeat answer shows it is there (after a
// failure), as in etcd.
func (n *Node) reportSnapshot(m Message, pr *Progress) {
	if pr.State != ProgressSnapshot {
		return
	}
	if m.Reject {
		// The snapshot never arrived: probe from what the follower is
		// known to hold, not from the snapshot's index.
		pr.PendingSnapshot = 0
	}
	pr.becomeProbe()
	pr.Paused = true
}
