// Package indepcheck checks a raftcore run from the outside. It is a second
// opinion on raftcore's own checker: it reads only what any observer can read
// (the trace, the machines' logs, commit indexes, stores and the client
// history, all through raftcore's exported API) and computes every rule
// itself. It never calls raftcore's quorum package, up-to-date test, commit
// rule, chain hashes or checker, so a bug in one of those cannot hide
// itself by making the check agree with it. Majorities are counted here,
// entries are compared field by field, and the stores are rebuilt here from
// the committed log.
//
// It is used by tests only (internal/indepcheck's own tests and `make
// random-long`); the app never runs it.
package indepcheck

import (
	"fmt"

	"raftlab/raftcore"
)

// Violation is one broken rule, in words.
type Violation struct {
	Rule string
	Text string
}

func (v Violation) String() string { return v.Rule + ": " + v.Text }

// knownEntry is an entry known to be committed, with the term of the
// machine that was first seen holding it committed. A machine learns a
// commit index only from a leader of its term or an earlier one, so the
// entry was committed in that term or before, and every leader of a later
// term must hold it.
type knownEntry struct {
	entry  raftcore.Entry
	inTerm uint64
	// known is false for an index the checker never saw in any log
	// before every machine had compacted it into a snapshot.
	known bool
}

type voteKey struct {
	node raftcore.NodeID
	term uint64
}

// Checker follows one world. Call Observe after any number of events (it
// reads the new trace events), Inspect whenever the machines' states should
// be compared, and Finish at the end of the run.
type Checker struct {
	w    *raftcore.World
	size int
	// pending are the trace events recorded since Observe last read them:
	// the world hands each over as it records it and keeps only a few
	// itself, so a long run's checking takes no more memory than a short
	// one's.
	pending []raftcore.TraceEvent
	// elected are the role events of machines becoming leader, in trace
	// order, for judging lease reads (deposedBy).
	elected []raftcore.TraceEvent
	leaders map[uint64]raftcore.NodeID
	votes   map[voteKey]raftcore.NodeID
	terms   []uint64
	commits []uint64
	roles   []raftcore.Role
	// committed is the committed prefix as first seen on any machine.
	committed []knownEntry
	list      []Violation
	reported  map[string]bool
	// reconcile is what Finish found that breaks no rule of Raft: objects
	// created twice by a non-idempotent reconcile.
	reconcile []Violation
	// staleByDesign holds the lease reads classified as stale by design,
	// by operation id: the committed-log check and porcupine may both see
	// one, and it counts once.
	staleByDesign map[int]bool
	// start is the voters the world started with; appliedMax the highest
	// index each machine was seen applying; firstCommits the highest
	// index seen committed on any machine; reconfigured whether the
	// machines are not all voters (spares at the start, or a change of
	// configuration applied), so that a majority of all machines means
	// nothing (membership.go).
	start        machines
	appliedMax   []uint64
	firstCommits uint64
	reconfigured bool
}

// checkerTraceKeep is how many trace events a checked world keeps: the
// checker reads every event from the stream, not from the world.
const checkerTraceKeep = 64

// New starts checking w, which must still hold every trace event it
// recorded (a new world, or one that kept its whole trace): from then on
// it streams them to the checker (raftcore.World.StreamTrace). A world
// that dropped events cannot be checked, and New panics.
func New(w *raftcore.World) *Checker {
	n := w.Size()
	c := &Checker{w: w, size: n, leaders: map[uint64]raftcore.NodeID{}, votes: map[voteKey]raftcore.NodeID{},
		terms: make([]uint64, n+1), roles: make([]raftcore.Role, n+1), commits: make([]uint64, n+1), reported: map[string]bool{},
		staleByDesign: map[int]bool{}, appliedMax: make([]uint64, n+1)}
	members := w.Config().Members
	if members == 0 {
		members = n
	}
	for id := 1; id <= members; id++ {
		c.start |= 1 << id
	}
	c.reconfigured = members != n
	if err := w.StreamTrace(checkerTraceKeep, c.take); err != nil {
		panic("indepcheck: " + err.Error())
	}
	return c
}

// take is handed each trace event as the world records it.
func (c *Checker) take(e raftcore.TraceEvent) {
	if e.Kind == raftcore.TraceRole && e.ToRole == raftcore.RoleLeader {
		c.elected = append(c.elected, e)
	}
	if e.Kind == raftcore.TraceCommit && c.w.Config().Protocol == raftcore.ProtocolRaft {
		c.noteCommitted(e.Node)
	}
	c.pending = append(c.pending, e)
}

// noteCommitted records the entries machine id has just committed that no
// machine was seen committing before. It is called as the commit is
// recorded, before the machine applies them and perhaps compacts them
// into a snapshot, so that the committed log is known entry by entry even
// when every machine compacts between two inspections. Disagreements are
// Inspect's to report.
func (c *Checker) noteCommitted(id raftcore.NodeID) {
	n := c.w.Node(id)
	for i := n.FirstIndex(); i <= min(n.Commit(), n.LastIndex()); i++ {
		switch known := uint64(len(c.committed)); {
		case i == known+1:
			c.committed = append(c.committed, knownEntry{entry: n.Entry(i), inTerm: n.Term(), known: true})
		case i <= known && !c.committed[i-1].known:
			c.committed[i-1] = knownEntry{entry: n.Entry(i), inTerm: n.Term(), known: true}
		}
	}
}

// Violations returns what was found so far.
func (c *Checker) Violations() []Violation { return c.list }

func (c *Checker) report(key string, rule, format string, args ...any) {
	if c.reported[rule+"/"+key] {
		return
	}
	c.reported[rule+"/"+key] = true
	c.list = append(c.list, Violation{Rule: rule, Text: fmt.Sprintf(format, args...)})
}

// majority reports whether count machines out of the cluster are more than
// half of it, counted here and not with raftcore/quorum, which the engine
// commits and elects with.
func (c *Checker) majority(count int) bool { return 2*count > c.size }

// Observe reads the trace events since the last call: election safety, one
// vote per term, terms and commit indexes that never go back.
func (c *Checker) Observe() {
	for _, e := range c.pending {
		c.observe(e)
	}
	c.pending = c.pending[:0]
}

func (c *Checker) observe(e raftcore.TraceEvent) {
	id := e.Node
	switch e.Kind {
	case raftcore.TraceRole:
		c.roles[id] = e.ToRole
		if e.Cause == raftcore.CauseStart && c.w.Config().Protocol != raftcore.ProtocolRaft {
			// A machine of the naive protocols (re)starts, by restart
			// or with its zone: it takes its whole log as committed
			// again. Under raft the commit index is on disk (etcd's
			// HardState) and must never go back.
			c.commits[id] = 0
		}
		if e.ToRole != raftcore.RoleLeader || e.Term == 0 {
			return
		}
		if prev, ok := c.leaders[e.Term]; ok && prev != id {
			c.report(fmt.Sprint(e.Term), "election-safety", "machines %d and %d both became leader of term %d", prev, id, e.Term)
		}
		c.leaders[e.Term] = id
		c.checkLeaderHasCommitted(id, e.Term)
		c.checkElectedByQuorum(id, e.Term)
	case raftcore.TraceVote:
		k := voteKey{id, e.Term}
		if prev, ok := c.votes[k]; ok && prev != e.Peer {
			c.report(fmt.Sprint(id, "/", e.Term), "one-vote-per-term", "machine %d voted for %d and for %d in term %d", id, prev, e.Peer, e.Term)
		}
		c.votes[k] = e.Peer
	case raftcore.TraceTerm:
		if e.Term < c.terms[id] {
			c.report(fmt.Sprint(id, "/", e.Term), "term-monotonic", "machine %d's term went from %d back to %d", id, c.terms[id], e.Term)
		}
		c.terms[id] = e.Term
	case raftcore.TraceCommit:
		if e.Index < c.commits[id] {
			c.report(fmt.Sprint(id, "/", e.Index), "commit-monotonic", "machine %d's commit index went from %d back to %d", id, c.commits[id], e.Index)
		}
		c.commits[id] = e.Index
		c.checkLeaderCommit(id, e)
		c.checkCommitQuorum(id, e)
	case raftcore.TraceApply:
		c.noteApplied(id, e.Index)
	}
}

// checkLeaderCommit: a leader moves its commit index only onto an entry of
// its own term (the Raft paper's §5.4.2 and Figure 8); entries of earlier
// terms are committed with it, never by counting their own replicas. The
// leader's log cannot have changed below its last entry since the event,
// as a leader only appends, so it is read now.
func (c *Checker) checkLeaderCommit(id raftcore.NodeID, e raftcore.TraceEvent) {
	n := c.w.Node(id)
	if c.roles[id] != raftcore.RoleLeader || n.Term() != e.Term || e.Index > n.LastIndex() || e.Index < n.FirstIndex() {
		return
	}
	if t := n.Entry(e.Index).Term; t != e.Term {
		c.report(fmt.Sprint(id, "/", e.Index), "commit-current-term", "leader %d of term %d committed index %d, an entry of term %d", id, e.Term, e.Index, t)
	}
}

// checkLeaderHasCommitted is Leader Completeness: a leader of term holds
// every entry known committed in an earlier term. (A machine paused in
// the middle of an election can still win an old term late; it need not
// hold what later terms committed.)
func (c *Checker) checkLeaderHasCommitted(id raftcore.NodeID, term uint64) {
	n := c.w.Node(id)
	for i, k := range c.committed {
		if k.inTerm >= term {
			continue
		}
		idx := uint64(i + 1)
		if idx < n.FirstIndex() || !k.known {
			// Compacted into the leader's snapshot: checkSnapshot
			// judges what it holds.
			continue
		}
		if idx > n.LastIndex() || n.Entry(idx).Term != k.entry.Term || n.Entry(idx).Data != k.entry.Data {
			c.report(fmt.Sprint(term), "leader-completeness", "machine %d became leader of term %d without the entry committed at index %d", id, term, idx)
			return
		}
	}
}

// Inspect compares the machines' states: Log Matching, State Machine
// Safety, committed entries on a majority, commit within the log, each
// snapshot against the committed entries it covers, and each store against
// the store rebuilt here from its snapshot's index on. A machine's log may
// start after a snapshot: logs[id] holds its entries from firsts[id] on.
func (c *Checker) Inspect() {
	logs := make([][]raftcore.Entry, c.size+1)
	firsts := make([]uint64, c.size+1)
	for id := 1; id <= c.size; id++ {
		n := c.w.Node(raftcore.NodeID(id))
		firsts[id] = n.FirstIndex()
		logs[id] = n.Entries(firsts[id], n.LastIndex())
		if n.Commit() > n.LastIndex() {
			c.report(fmt.Sprint(id, "/", n.Commit()), "commit-within-log", "machine %d's commit index %d is past its last entry %d", id, n.Commit(), n.LastIndex())
		}
	}
	for a := 1; a <= c.size; a++ {
		for b := a + 1; b <= c.size; b++ {
			c.checkLogMatching(a, b, firsts[a], firsts[b], logs[a], logs[b])
		}
	}
	for id := 1; id <= c.size; id++ {
		n := c.w.Node(raftcore.NodeID(id))
		commit := min(n.Commit(), n.LastIndex())
		for i := uint64(1); i <= commit; i++ {
			e, ok := raftcore.Entry{}, i >= firsts[id]
			if ok {
				e = logs[id][i-firsts[id]]
			}
			switch {
			case i > uint64(len(c.committed)):
				c.committed = append(c.committed, knownEntry{entry: e, inTerm: n.Term(), known: ok})
			case !ok:
			case !c.committed[i-1].known:
				c.committed[i-1] = knownEntry{entry: e, inTerm: n.Term(), known: true}
			default:
				if k := c.committed[i-1].entry; k.Term != e.Term || k.Data != e.Data {
					c.report(fmt.Sprint(i), "state-machine-safety", "machine %d committed %s (term %d) at index %d where %s (term %d) was committed before", id, e.Data, e.Term, i, k.Data, k.Term)
				}
			}
		}
		if commit > 0 && commit >= firsts[id] && !c.reconfigured {
			c.checkOnMajority(id, logs, firsts, commit)
		}
		c.checkSnapshotAndStore(id, firsts[id], logs[id])
	}
}

// checkLogMatching: if two logs hold an entry of the same term at an index,
// they are identical up to it. It finds the last such index and compares
// the prefixes entry by entry, as far back as both logs still hold them.
func (c *Checker) checkLogMatching(a, b int, fa, fb uint64, la, lb []raftcore.Entry) {
	from := max(fa, fb)
	end := min(fa+uint64(len(la)), fb+uint64(len(lb))) // one past the last index both hold
	for i := end; i > from; i-- {
		ea, eb := la[i-1-fa], lb[i-1-fb]
		if ea.Term != eb.Term {
			continue
		}
		for j := from; j <= i-1; j++ {
			if ja, jb := la[j-fa], lb[j-fb]; ja.Term != jb.Term || ja.Data != jb.Data {
				c.report(fmt.Sprint(i, "/", ea.Term), "log-matching", "machines %d and %d both hold an entry of term %d at index %d but differ at index %d", a, b, ea.Term, i, j)
				return
			}
		}
		return
	}
}

// checkOnMajority: the entry at machine id's commit index is held, same
// index, term and command, by more than half of the machines; a machine
// that compacted past it holds it in its snapshot.
func (c *Checker) checkOnMajority(id int, logs [][]raftcore.Entry, firsts []uint64, commit uint64) {
	want := logs[id][commit-firsts[id]]
	have := 0
	for j := 1; j <= c.size; j++ {
		switch {
		case commit < firsts[j]:
			have++
		case firsts[j]+uint64(len(logs[j])) > commit:
			if e := logs[j][commit-firsts[j]]; e.Term == want.Term && e.Data == want.Data {
				have++
			}
		}
	}
	if !c.majority(have) {
		c.report(fmt.Sprint(commit, "/", want.Term), "majority", "machine %d has committed index %d, held by only %d of %d machines", id, commit, have, c.size)
	}
}

// checkSnapshotAndStore judges machine id's snapshot and store against the
// committed entries as seen here. A snapshot at index s must hold the store
// that applying the committed entries up to s gives, and cover no entry
// past the machine's commit index; the machine must not have applied less
// than its snapshot. The store must be what applying the committed entries
// up to s and then the machine's own log up to its applied index gives. No
// client write may take effect twice.
func (c *Checker) checkSnapshotAndStore(id int, first uint64, log []raftcore.Entry) {
	n := c.w.Node(raftcore.NodeID(id))
	var prefix []raftcore.Entry // the committed entries up to the snapshot
	if s, ok := n.SnapshotAt(); ok {
		if s.Index > n.Commit() {
			c.report(fmt.Sprint(id, "/", s.Index), "snapshot-safety", "machine %d holds a snapshot at index %d, past its commit index %d", id, s.Index, n.Commit())
			return
		}
		if n.Applied() < s.Index {
			c.report(fmt.Sprint(id, "/", s.Index), "snapshot-safety", "machine %d applied up to %d, below its snapshot at index %d", id, n.Applied(), s.Index)
			return
		}
		if s.Index > uint64(len(c.committed)) {
			return
		}
		prefix = make([]raftcore.Entry, 0, s.Index)
		for i := uint64(1); i <= s.Index; i++ {
			k := c.committed[i-1]
			if !k.known {
				return // never seen: nothing to rebuild from
			}
			prefix = append(prefix, k.entry)
		}
		if !sameStore(replay(prefix), s.KV()) {
			c.report(fmt.Sprint(id, "/", s.Index), "snapshot-safety", "machine %d's snapshot at index %d differs from the committed entries up to it", id, s.Index)
			return
		}
	}
	applied := prefix
	for i := uint64(len(prefix)) + 1; i <= n.Applied(); i++ {
		if i < first || i >= first+uint64(len(log)) {
			return // applied entries the log no longer holds: judged above
		}
		applied = append(applied, log[i-first])
	}
	r := replay(applied)
	for op, k := range r.effects {
		if k > 1 {
			c.report(fmt.Sprint(op), "exactly-once", "client write %d took effect %d times on machine %d", op, k, id)
		}
	}
	kv := n.KV()
	if kv.Len() != len(r.values) {
		c.report(fmt.Sprint(id, "/", len(applied)), "store-matches-log", "machine %d holds %d keys; its applied log gives %d", id, kv.Len(), len(r.values))
		return
	}
	for k, v := range r.values {
		if got, ok := kv.Get(k); !ok || got.Value != v {
			c.report(fmt.Sprint(id, "/", len(applied)), "store-matches-log", "machine %d holds %q=%q; its applied log gives %q", id, k, got.Value, v)
			return
		}
	}
}

// sameStore reports whether a store rebuilt here holds exactly kv's keys
// and values.
func sameStore(r replayed, kv *raftcore.KV) bool {
	if kv.Len() != len(r.values) {
		return false
	}
	for k, v := range r.values {
		if got, ok := kv.Get(k); !ok || got.Value != v {
			return false
		}
	}
	return true
}
