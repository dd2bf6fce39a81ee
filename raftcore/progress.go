package raftcore

import "raftlab/raftcore/quorum"

// ProgressState is how the leader currently replicates to one follower, as in
// etcd's tracker: Probe sends one append at a time until the follower's log
// position is known; Replicate streams appends optimistically; Snapshot
// sends nothing while a snapshot is on its way to a follower that needed
// entries the leader had compacted.
type ProgressState uint8

const (
	ProgressProbe ProgressState = iota
	ProgressReplicate
	ProgressSnapshot
)

var progressStateNames = [...]string{"probe", "replicate", "snapshot"}

func (s ProgressState) String() string {
	if int(s) < len(progressStateNames) {
		return progressStateNames[s]
	}
	return "probe"
}

// Progress is the leader's view of one follower.
type Progress struct {
	Match, Next uint64
	State       ProgressState
	// Paused: no append with entries is sent until the follower answers (or
	// a heartbeat response arrives). In Probe, one append is outstanding; in
	// Replicate, the window of appends in flight is full.
	Paused bool
	// RecentActive: the follower was heard from since the last CheckQuorum.
	RecentActive bool
	// PendingSnapshot is, in Snapshot state, the index of the snapshot
	// sent (etcd's PendingSnapshot).
	PendingSnapshot uint64
	// sentCommit is the highest commit index sent to the follower (in an
	// append or a heartbeat), so the leader knows when a follower may still
	// be missing the commit index and needs an append just to learn it.
	sentCommit uint64
	// inflight holds the last index of each append sent in Replicate state
	// and not yet acknowledged.
	inflight []uint64
}

// becomeProbe goes back to probing. Coming from Snapshot state, the
// follower is taken to hold the snapshot sent (if the send failed,
// PendingSnapshot was cleared first), so probing starts after it.
func (p *Progress) becomeProbe() {
	next := p.Match + 1
	if p.State == ProgressSnapshot {
		next = max(next, p.PendingSnapshot+1)
	}
	p.reset(ProgressProbe)
	p.Next = next
	p.sentCommit = min(p.sentCommit, p.Next-1)
}

func (p *Progress) becomeReplicate() {
	p.reset(ProgressReplicate)
	p.Next = p.Match + 1
}

// becomeSnapshot records that snapshot index is on its way to the
// follower: nothing more is sent until the transport reports on it.
func (p *Progress) becomeSnapshot(index uint64) {
	p.reset(ProgressSnapshot)
	p.PendingSnapshot = index
	p.Next = index + 1
	p.sentCommit = index
}

// reset enters state with flow control cleared (etcd's ResetState).
func (p *Progress) reset(state ProgressState) {
	p.State = state
	p.Paused = false
	p.PendingSnapshot = 0
	p.inflight = p.inflight[:0]
}

// isPaused reports whether no append may go out: the window is full or a
// probe is outstanding, or a snapshot is on its way.
func (p *Progress) isPaused() bool { return p.Paused || p.State == ProgressSnapshot }

func (p *Progress) inflightFull(maxInflight int) bool { return len(p.inflight) >= maxInflight }

// maybeUpdate records that the follower's log matches up to n.
func (p *Progress) maybeUpdate(n uint64) bool {
	updated := false
	if p.Match < n {
		p.Match = n
		updated = true
		p.Paused = false
	}
	if p.Next < n+1 {
		p.Next = n + 1
	}
	return updated
}

// maybeDecrTo handles a rejected append at index rejected with the
// follower's hint. It returns false for a stale rejection.
func (p *Progress) maybeDecrTo(rejected, hint uint64) bool {
	if p.State == ProgressReplicate {
		if rejected <= p.Match {
			return false
		}
		p.Next = p.Match + 1
		p.sentCommit = min(p.sentCommit, p.Next-1)
		return true
	}
	if p.Next-1 != rejected {
		return false
	}
	next := rejected
	if hint+1 < next {
		next = hint + 1
	}
	if next < p.Match+1 {
		next = p.Match + 1
	}
	p.Next = next
	p.sentCommit = min(p.sentCommit, p.Next-1)
	p.Paused = false
	return true
}

// sentEntries updates flow control after an append carrying n entries up
// to last was sent. An empty append (one that only carries the commit index
// or probes) pauses nothing.
func (p *Progress) sentEntries(n int, last uint64, maxInflight int) {
	switch p.State {
	case ProgressReplicate:
		if n > 0 {
			p.Next = last + 1
			p.inflight = append(p.inflight, last)
		}
		p.Paused = p.inflightFull(maxInflight)
	case ProgressProbe:
		if n > 0 {
			p.Paused = true
		}
	}
}

// canBumpCommit reports whether the follower may not know commit yet: it was
// last told an older commit index, and there are entries it is being sent
// (or has) up to which that commit index could move.
func (p *Progress) canBumpCommit(commit uint64) bool {
	return commit > p.sentCommit && p.sentCommit < p.Next-1
}

func (p *Progress) freeInflightUpTo(index uint64) {
	i := 0
	for i < len(p.inflight) && p.inflight[i] <= index {
		i++
	}
	p.inflight = append(p.inflight[:0], p.inflight[i:]...)
}

func (p Progress) clone() Progress {
	p.inflight = append([]uint64(nil), p.inflight...)
	return p
}

// progressList is a leader's view of every machine, by NodeID (index 0 is
// unused), itself included: its own Match is its last index.
type progressList []Progress

// AckedIndex gives quorum the highest index the leader knows machine id
// holds. It has a pointer receiver so that passing the list as a
// quorum.AckedIndexer, on every acknowledgement, allocates nothing.
func (p *progressList) AckedIndex(id quorum.ID) (quorum.Index, bool) {
	if id == 0 || id >= quorum.ID(len(*p)) {
		return 0, false
	}
	return quorum.Index((*p)[id].Match), true
}

// highestMatch is the highest index any machine is known to hold. Only
// BugCommitWithoutMajority commits it.
func (p progressList) highestMatch() uint64 {
	var high uint64
	for i := range p {
		high = max(high, p[i].Match)
	}
	return high
}

// allVoters is the configuration of machines 1..size. Configurations are
// immutable, so one per cluster size is built once and every world of that
// size shares it: making a world, which benchmarks and the explorer do by
// the thousand, allocates nothing for it.
func allVoters(size int) quorum.MajorityConfig {
	if size < 0 || size >= len(votersBySize) {
		return numberedVoters(size)
	}
	return votersBySize[size]
}

var votersBySize = func() (all [MaxNodes + 1]quorum.MajorityConfig) {
	for size := range all {
		all[size] = numberedVoters(size)
	}
	return all
}()

func numberedVoters(size int) quorum.MajorityConfig {
	ids := make([]quorum.ID, max(size, 0))
	for i := range ids {
		ids[i] = quorum.ID(i + 1)
	}
	return quorum.NewMajorityConfig(ids...)
}
