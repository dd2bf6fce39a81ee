package raftcore

import (
	"fmt"
	"strings"

	"raftlab/raftcore/quorum"
)

// Bug deliberately breaks one rule of Raft. Bugs exist only so tests can show
// that the safety checker catches each broken variant; the app never sets one.
type Bug uint32

const (
	// BugVoteTwice lets a machine vote for a second candidate in one term.
	BugVoteTwice Bug = 1 << iota
	// BugSkipUpToDate grants votes without the election restriction (§5.4.1).
	BugSkipUpToDate
	// BugCommitOldTerm lets a leader commit an entry of an earlier term by
	// counting replicas (the situation of the paper's Figure 8).
	BugCommitOldTerm
	// BugCommitWithoutMajority lets a leader commit what only it has.
	BugCommitWithoutMajority
	// BugNoTruncate makes followers keep conflicting entries instead of
	// replacing them with the leader's.
	BugNoTruncate
	// BugKeepCommitOnRestart keeps the applied index across a restart
	// while the state machine, which is volatile, starts again from the
	// last snapshot (or empty).
	BugKeepCommitOnRestart
	// BugBlindSwap applies a compare-and-swap without comparing the
	// revision, as a plain write. It breaks no rule of Raft, so it is not
	// in Bugs; the lost-update tests use it.
	BugBlindSwap
	// BugReadWithoutConfirm answers a linearizable read at the leader's
	// commit index without the heartbeat round that confirms it still
	// leads, so a deposed leader serves old state.
	BugReadWithoutConfirm
	// BugDirectSwitch applies a joint change as a switch straight from the
	// old voters to the new ones: the paper's disjoint majorities.
	BugDirectSwitch
	// BugCountLearners counts learners' votes and acknowledgements as if
	// they were voters'.
	BugCountLearners
	// BugSecondPendingChange lets the leader take a change of
	// configuration while an earlier one is not yet applied.
	BugSecondPendingChange
	// BugApplyOnAppend makes a change of configuration take effect when a
	// machine appends it to its log instead of when it applies it.
	BugApplyOnAppend
	// BugSnapshotUncommitted makes a machine's snapshot cover its whole
	// log, entries not yet committed included.
	BugSnapshotUncommitted
	// BugRestoreOldSnapshot lets a follower restore a snapshot at or below
	// its commit index, throwing away entries it had committed.
	BugRestoreOldSnapshot
	// BugCompactWithoutSnapshot makes a leader that has compacted entries
	// a follower needs send it appends from its first kept index instead
	// of its snapshot.
	BugCompactWithoutSnapshot

	// The node lifecycle controller's deliberate bugs (nodelifecycle.go).
	// They break no rule of Raft, so they are not in Bugs; the kube
	// checks' tests use them.
	//
	// BugKubeTrustKubeletClock judges a Lease by comparing the kubelet's
	// renewTime with the controller's own clock, as if the two agreed.
	BugKubeTrustKubeletClock
	// BugKubeConcludeBlind judges every node on what it saw last when it
	// cannot read the Leases, as a controller whose watch went quiet.
	BugKubeConcludeBlind
	// BugKubeEvictInDisruption evicts Pods when most nodes (or all) look
	// NotReady at once, where Kubernetes stops.
	BugKubeEvictInDisruption
	// BugWatchFromNow makes an informer whose watch was cut resume
	// watching from its API server's newest revision instead of listing
	// again, so the changes made while it was cut never reach its cache.
	// It breaks no rule of Raft, so it is not in Bugs; the informer tests
	// use it.
	BugWatchFromNow
)

// Bugs lists every deliberate bug with a short name (for tests and flags).
var Bugs = []struct {
	Bug  Bug
	Name string
}{
	{BugVoteTwice, "vote-twice"},
	{BugSkipUpToDate, "skip-up-to-date"},
	{BugCommitOldTerm, "commit-old-term"},
	{BugCommitWithoutMajority, "commit-without-majority"},
	{BugNoTruncate, "no-truncate"},
	{BugKeepCommitOnRestart, "keep-commit-on-restart"},
	{BugReadWithoutConfirm, "read-without-confirm"},
	{BugDirectSwitch, "direct-switch"},
	{BugCountLearners, "count-learners"},
	{BugSecondPendingChange, "second-pending-change"},
	{BugApplyOnAppend, "apply-on-append"},
	{BugSnapshotUncommitted, "snapshot-uncommitted"},
	{BugRestoreOldSnapshot, "restore-old-snapshot"},
	{BugCompactWithoutSnapshot, "compact-without-snapshot"},
}

// ParseBug finds a deliberate bug by the name Bugs gives it.
func ParseBug(name string) (Bug, error) {
	names := make([]string, len(Bugs))
	for i, b := range Bugs {
		if b.Name == name {
			return b.Bug, nil
		}
		names[i] = b.Name
	}
	return 0, fmt.Errorf("unknown bug %q; use one of %s", name, strings.Join(names, ", "))
}

// Names lists the names of the bugs set in b, in the order of Bugs.
func (b Bug) Names() []string {
	var names []string
	for _, x := range Bugs {
		if b&x.Bug != 0 {
			names = append(names, x.Name)
		}
	}
	return names
}

// nodeConfig is shared, read-only, by every machine of a world.
type nodeConfig struct {
	protocol       Protocol
	size           int
	electionTicks  int
	heartbeatTicks int
	preVote        bool
	checkQuorum    bool
	maxEntries     int // entries per append message
	maxInflight    int // appends in flight per follower in Replicate state
	snapshotCount  int // entries applied between snapshots (0: none)
	catchUpEntries int // entries kept before a snapshot's index
	bugs           Bug
	// voters is every machine, 1..size: what the naive protocols, which
	// have no configuration, count a majority of.
	voters quorum.MajorityConfig
	// boot is the configuration every machine starts with (membership.go):
	// the voters are Config.Members, and the other machines are spares.
	boot confState
}

func (c *nodeConfig) has(b Bug) bool { return c.bugs&b != 0 }

// ReadState is a read index confirmed for the read with context Ctx: the read
// may be answered once the machine has applied Index.
type ReadState struct {
	Index uint64
	Ctx   uint64
	// Term is the term of the leader that fixed Index: a lease read can be
	// stale only if a leader of a later term had been elected by then.
	Term uint64
}

// readRequest is a read the leader is confirming with a heartbeat round.
type readRequest struct {
	ctx   uint64
	index uint64
	from  NodeID
	acks  []bool
}

// RoleChange records one role transition, so the app can highlight every
// edge of the state diagram even when several happen in one step.
type RoleChange struct {
	From, To Role
	Term     uint64
	Cause    Cause
}

// Node is one machine. Term, vote, commit index, log and last snapshot are
// persistent: they survive a crash, as etcd keeps its HardState (term,
// vote, commit), its WAL and its snapshot on disk. Everything else is
// volatile and is rebuilt after a restart: the state machine from the
// snapshot and the committed entries after it, the rest by the protocol.
type Node struct {
	ID  NodeID
	cfg *nodeConfig
	rng *Rand

	// Persistent state (Figure 2 of the Raft paper, with etcd's commit
	// index and snapshot).
	term   uint64
	vote   NodeID
	commit uint64
	log    raftLog
	// snap is the machine's last snapshot, taken or received (nil: none).
	snap *Snapshot
	// conf is the configuration in force on this machine, and confIndex
	// the index of the entry that made it (0: the boot configuration).
	// They are kept across a restart, as etcd keeps its configuration in
	// its snapshot and state machine: see restart.
	conf      confState
	confIndex uint64

	// Volatile state.
	role              Role
	lead              NodeID
	applied           uint64
	electionElapsed   int
	heartbeatElapsed  int
	randomizedTimeout int
	votes             []int8 // by NodeID: 0 unknown, 1 granted, -1 rejected
	prs               progressList
	kv                KV
	pendingReads      []readRequest
	pendingReadMsgs   []Message // reads waiting for an entry of this term to commit
	readStates        []ReadState
	msgs              []Message
	roleChanges       []RoleChange
	// pendingConfIndex is, on a leader, the index of the last change of
	// configuration it took (etcd's pendingConfIndex): no other is taken
	// until it is applied. leadTransferee is the machine a leadership
	// transfer goes to (None: no transfer under way).
	pendingConfIndex uint64
	leadTransferee   NodeID
	// confNotes are what the machine did with changes of configuration
	// since the world last looked, for the trace.
	confNotes []confNote
	// countedIn, countedOut and countedLearners are the configuration
	// this machine counted copies with when, as leader, it last moved its
	// commit index, and countedTo the index it moved it to. Nothing in
	// Raft reads them: the checker judges a commit against the
	// configuration that decided it, which a change applied later in the
	// same step does not undo. (Sets, not a confState: every machine of
	// every world an explorer clones carries them.)
	countedIn, countedOut, countedLearners nodeSet
	countedTo                              uint64
	// restored holds the snapshots the machine restored since the world
	// last looked, for the trace and the checker.
	restored []*Snapshot
}

func newNode(id NodeID, cfg *nodeConfig, rng *Rand) *Node {
	n := &Node{ID: id, cfg: cfg, rng: rng, conf: cfg.boot}
	n.start(true)
	return n
}

// start puts a fresh (first) or restarted machine into its initial role.
func (n *Node) start(first bool) {
	n.votes = make([]int8, n.cfg.size+1)
	switch n.cfg.protocol {
	case ProtocolNaiveCopy:
		n.role = RoleReplica
	case ProtocolFailover:
		n.role = RoleFollower
		// Machine 1 is the designated authority when the cluster starts.
		if first && n.ID == 1 {
			n.role = RoleLeader
			n.lead = n.ID
		}
		n.resetTimeout()
	default:
		n.becomeFollower(n.term, None, CauseStart)
	}
}

// restart brings a crashed machine back as etcd restarts a member: it
// keeps its term, vote, commit index, log and last snapshot, and loses
// everything else. The state machine starts from the snapshot (empty when
// there is none) and the world then applies the committed entries after
// it, up to the commit index, before the machine does anything else.
func (n *Node) restart() {
	keepApplied := n.applied
	fresh := Node{ID: n.ID, cfg: n.cfg, rng: n.rng, term: n.term, vote: n.vote, commit: n.commit, log: n.log, snap: n.snap, conf: n.conf, confIndex: n.confIndex}
	*n = fresh
	if n.snap != nil {
		n.kv = n.snap.kv.clone()
		n.applied = n.snap.Index
	}
	if n.cfg.protocol != ProtocolRaft {
		// The naive protocols have no notion of commit beyond "I have it":
		// everything in the log is re-applied from the start.
		n.commit = n.log.lastIndex()
	}
	if n.cfg.has(BugKeepCommitOnRestart) {
		// Broken: the applied index survives while the state machine,
		// which is volatile, is back at the snapshot (or empty), so the
		// entries applied since are never applied again.
		n.applied = keepApplied
	}
	n.start(false)
}

// Accessors used by the world, the checker and the app.

func (n *Node) Term() uint64           { return n.term }
func (n *Node) Vote() NodeID           { return n.vote }
func (n *Node) Role() Role             { return n.role }
func (n *Node) Lead() NodeID           { return n.lead }
func (n *Node) Commit() uint64         { return n.commit }
func (n *Node) Applied() uint64        { return n.applied }
func (n *Node) LastIndex() uint64      { return n.log.lastIndex() }
func (n *Node) LastTerm() uint64       { return n.log.lastTerm() }
func (n *Node) TermAt(i uint64) uint64 { return n.log.term(i) }
func (n *Node) KV() *KV                { return &n.kv }

// Entry returns the log entry at index i (1 <= i <= LastIndex). An entry
// compacted into the snapshot (i below FirstIndex) is gone: only its index
// is returned, and at the compaction point its term and chain hash.
func (n *Node) Entry(i uint64) Entry {
	if i <= n.log.offset {
		return Entry{Index: i, Term: n.log.term(i), Chain: n.log.chain(i)}
	}
	return n.log.entry(i)
}

// Entries returns a copy of the log from index from to index to, inclusive.
func (n *Node) Entries(from, to uint64) []Entry {
	if from < n.log.firstIndex() {
		from = n.log.firstIndex()
	}
	if to > n.log.lastIndex() {
		to = n.log.lastIndex()
	}
	if from > to {
		return nil
	}
	return n.log.slice(from, int(to-from+1))
}

// ElectionTimer returns the election timer's elapsed ticks and the tick
// count at which it fires (for a leader: the CheckQuorum period).
func (n *Node) ElectionTimer() (elapsed, timeout int) {
	if n.role == RoleLeader {
		return n.electionElapsed, n.cfg.electionTicks
	}
	return n.electionElapsed, n.randomizedTimeout
}

// VoteFrom reports what the machine knows of from's answer in the current
// election: 1 granted, -1 rejected, 0 no answer.
func (n *Node) VoteFrom(from NodeID) int {
	if int(from) >= len(n.votes) || from < 1 {
		return 0
	}
	return int(n.votes[from])
}

// Progress returns the leader's view of follower id (ok is false when the
// machine is not a leader).
func (n *Node) Progress(id NodeID) (Progress, bool) {
	if n.role != RoleLeader || n.cfg.protocol != ProtocolRaft || int(id) >= len(n.prs) || id < 1 {
		return Progress{}, false
	}
	return n.prs[id], true
}

func (n *Node) send(m Message) {
	m.From = n.ID
	n.msgs = append(n.msgs, m)
}

func (n *Node) setRole(r Role, why Cause) {
	// A candidate whose election timed out starts a new election: that is
	// a transition too (the candidate's loop in the paper's Figure 4).
	campaign := r == RoleCandidate || r == RolePreCandidate
	if n.role != r || why == CauseStart || campaign {
		n.roleChanges = append(n.roleChanges, RoleChange{From: n.role, To: r, Term: n.term, Cause: why})
	}
	n.role = r
}

// runsElectionTimer reports whether the machine has an election timer that
// can run out: under raft and failover every machine but the leader. A
// leader's election timer is the CheckQuorum period, which only checks
// that it is still heard; naive-copy has no timers at all.
func (n *Node) runsElectionTimer() bool {
	return n.cfg.protocol != ProtocolNaiveCopy && n.role != RoleLeader
}

// setElectionTimer makes the election timer run out on the ticks-th tick
// from now (the "timer" action) and reports whether the machine has such a
// timer. Only the timeout moves, not electionElapsed: in etcd that counter
// is also how long ago the machine last heard its leader, which decides
// whether it ignores vote requests (the CheckQuorum lease), and setting a
// timer must not rewrite that. The new timeout lasts, like a randomized
// one in etcd, until the timeout is drawn afresh (when the machine next
// becomes follower, candidate or leader; under failover never): a
// heartbeat restarts the count but keeps the length. A leader is left
// alone, as "timeout" leaves it.
func (n *Node) setElectionTimer(ticks int) bool {
	if !n.runsElectionTimer() {
		return false
	}
	n.randomizedTimeout = n.electionElapsed + ticks
	return true
}

func (n *Node) resetTimeout() {
	n.randomizedTimeout = n.cfg.electionTicks + n.rng.Intn(n.cfg.electionTicks)
}

// tick advances the machine's logical clock by one tick.
func (n *Node) tick() {
	switch n.cfg.protocol {
	case ProtocolNaiveCopy:
		return
	case ProtocolFailover:
		n.tickFailover()
	default:
		if n.role == RoleLeader {
			n.tickHeartbeat()
		} else {
			n.tickElection()
		}
	}
}

// step handles one message.
func (n *Node) step(m Message) {
	switch n.cfg.protocol {
	case ProtocolNaiveCopy:
		n.stepNaiveCopy(m)
	case ProtocolFailover:
		n.stepFailover(m)
	default:
		n.stepRaft(m)
	}
}

// propose asks the machine to add cmd to the shared history, and says why
// it refuses, if it does.
func (n *Node) propose(cmd Command) Refusal {
	switch n.cfg.protocol {
	case ProtocolNaiveCopy:
		n.acceptCopy(cmd)
		n.broadcastCopy(cmd)
		return RefusedNone
	case ProtocolFailover:
		return n.proposeFailover(cmd)
	default:
		return n.proposeRaft(cmd)
	}
}

// nextApply returns the next committed entry to apply, if any.
func (n *Node) nextApply() (Entry, bool) {
	if n.applied >= n.commit || n.applied >= n.log.lastIndex() {
		return Entry{}, false
	}
	return n.log.entry(n.applied + 1), true
}

// markApplied applies e to the state machine and says what it did (see
// KV.apply).
func (n *Node) markApplied(e Entry) applied {
	if n.cfg.has(BugBlindSwap) {
		e.Data.Cas = false
	}
	out := n.kv.apply(e)
	n.applied = e.Index
	if e.Data.Kind == OpConf {
		n.applyConfChange(e)
	}
	return out
}

func (n *Node) clone(cfg *nodeConfig, rng *Rand) *Node {
	c := *n
	c.cfg, c.rng = cfg, rng
	c.log = n.log.clone()
	c.votes = append([]int8(nil), n.votes...)
	if n.prs != nil {
		c.prs = make([]Progress, len(n.prs))
		for i := range n.prs {
			c.prs[i] = n.prs[i].clone()
		}
	}
	c.kv = n.kv.clone()
	c.pendingReads = make([]readRequest, len(n.pendingReads))
	for i, r := range n.pendingReads {
		r.acks = append([]bool(nil), r.acks...)
		c.pendingReads[i] = r
	}
	c.pendingReadMsgs = append([]Message(nil), n.pendingReadMsgs...)
	c.readStates = append([]ReadState(nil), n.readStates...)
	c.msgs = append([]Message(nil), n.msgs...)
	c.roleChanges = append([]RoleChange(nil), n.roleChanges...)
	c.confNotes = append([]confNote(nil), n.confNotes...)
	c.restored = append([]*Snapshot(nil), n.restored...)
	return &c
}
