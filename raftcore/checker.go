package raftcore

import (
	"fmt"
	"maps"
	"strconv"

	"raftlab/raftcore/quorum"
)

// Rule names a safety property the checker enforces.
type Rule string

// The rules. The first five are the Raft paper's Figure 3; the others are
// things the paper's proof relies on, plus what a client can observe.
const (
	RuleElectionSafety     Rule = "election-safety"
	RuleLeaderAppendOnly   Rule = "leader-append-only"
	RuleLogMatching        Rule = "log-matching"
	RuleLeaderCompleteness Rule = "leader-completeness"
	RuleStateMachineSafety Rule = "state-machine-safety"
	RuleMajority           Rule = "majority-agreement"
	RuleSingleAuthority    Rule = "single-authority"
	RuleTermMonotonic      Rule = "term-monotonic"
	RuleCommitMonotonic    Rule = "commit-monotonic"
	RuleCommitWithinLog    Rule = "commit-within-log"
	RuleOneVote            Rule = "one-vote-per-term"
	RuleStateDigest        Rule = "state-matches-log"
	RuleStaleRead          Rule = "stale-read"
	RuleCommitCurrentTerm  Rule = "commit-current-term"
	RuleExactlyOnce        Rule = "exactly-once"
	// RuleSnapshotSafety: a snapshot at index i holds exactly the state
	// that applying the committed entries up to i gives, and no machine
	// applies an entry at or below its own snapshot's index.
	RuleSnapshotSafety Rule = "snapshot-safety"
)

// allRules lists every rule; a trace event keeps its rule as a place here.
var allRules = []Rule{
	RuleElectionSafety, RuleLeaderAppendOnly, RuleLogMatching, RuleLeaderCompleteness,
	RuleStateMachineSafety, RuleMajority, RuleSingleAuthority, RuleTermMonotonic,
	RuleCommitMonotonic, RuleCommitWithinLog, RuleOneVote, RuleStateDigest, RuleStaleRead,
	RuleCommitCurrentTerm, RuleExactlyOnce, RuleSnapshotSafety,
}

// Violation is one broken rule, explained in a sentence.
type Violation struct {
	Rule  Rule     `json:"rule"`
	Nodes []NodeID `json:"nodes"`
	Term  uint64   `json:"term,omitempty"`
	Index uint64   `json:"index,omitempty"`
	AtUs  int64    `json:"at_us"`
	// Op is the client operation that saw the violation (stale reads).
	Op   int    `json:"op,omitempty"`
	Text string `json:"text"`
}

// maxViolations bounds the violations kept; counts are always exact.
const maxViolations = 200

type appliedRec struct {
	term   uint64
	data   Command
	digest uint64
	node   NodeID
}

type committedRec struct {
	chain uint64
	// known is false for an index no machine could still read when it
	// was first seen committed: the machine that committed it had already
	// compacted it into a snapshot (a leader's commit can jump as it
	// applies a configuration change, and it may snapshot in the same
	// step). The record is filled in by the next machine that holds the
	// entry; until then the chains of later indexes, which cover it,
	// judge it.
	known bool
	// inTerm is the term of the machine that first committed the entry
	// (always a leader): only leaders of later terms must hold it.
	inTerm uint64
}

// checker watches every change a machine makes and records violations.
type checker struct {
	w         *World
	raft      bool
	leaders   map[uint64]NodeID // raft: the leader of each term
	applied   []appliedRec      // first application seen at each index above base
	committed []committedRec    // raft: the committed prefix above base, as first seen
	// base is the index below which the records above are dropped: every
	// machine's snapshot is past it, so no machine applies or restores
	// there again, and a long run's checker stays the same size.
	base       uint64
	digestBad  []bool   // state-matches-log reported, per machine
	commitSeen []uint64 // per machine: commit index already compared
	// tookEffect is, by client operation from tookBase+1 on, the index
	// at which its write first changed a store (0: not yet). The notes
	// below tookBase were dropped once no log or message held those
	// operations any more (trimTookEffect): no copy of them is left to
	// take effect a second time.
	tookEffect []uint64
	tookBase   int
	// forgottenWrites is, by key, the highest index at which a write the
	// client history has forgotten (World.forget) took effect: each of
	// them finished before any operation still kept began, so every
	// linearizable read from now on must see it.
	forgottenWrites map[string]uint64
	list            []Violation
	// reconfigured: the cluster did not start with every machine a
	// voter, or some machine has applied a change of configuration.
	reconfigured bool
	counts       map[Rule]int
	seen         map[string]bool

	// Lost updates, kept apart from the violations: they are not Raft's
	// to prevent (lostupdate.go).
	findings    []Finding
	lostUpdates int
}

func (c *checker) init(w *World) {
	c.w = w
	c.raft = w.cfg.Protocol == ProtocolRaft
	c.reconfigured = w.cfg.members() != w.cfg.Nodes
	// The maps are made when first written (noteLeader, noteViolation):
	// most worlds never see a violation, and an explorer clones worlds by
	// the million.
	c.digestBad = make([]bool, w.cfg.Nodes+1)
	c.commitSeen = make([]uint64, w.cfg.Nodes+1)
}

func (c checker) clone(w *World) checker {
	c.w = w
	// maps.Clone keeps a map that was never made nil, so a clone of a
	// world with no leader yet and no violation allocates no map.
	c.leaders = maps.Clone(c.leaders)
	c.applied = append([]appliedRec(nil), c.applied...)
	c.committed = append([]committedRec(nil), c.committed...)
	c.digestBad = append([]bool(nil), c.digestBad...)
	c.commitSeen = append([]uint64(nil), c.commitSeen...)
	c.tookEffect = append([]uint64(nil), c.tookEffect...)
	c.forgottenWrites = maps.Clone(c.forgottenWrites)
	c.list = append([]Violation(nil), c.list...)
	c.findings = append([]Finding(nil), c.findings...)
	c.counts = maps.Clone(c.counts)
	c.seen = maps.Clone(c.seen)
	return c
}

// noteLeader and noteViolation make the checker's maps on their first
// write.
func (c *checker) noteLeader() {
	if c.leaders == nil {
		c.leaders = make(map[uint64]NodeID)
	}
}

func (c *checker) noteViolation() {
	if c.counts == nil {
		c.counts = make(map[Rule]int)
		c.seen = make(map[string]bool)
	}
}

func (c *checker) name(id NodeID) string { return c.w.cfg.Name(id) }

// report records a violation once per key.
func (c *checker) report(key string, v Violation) {
	k := string(v.Rule) + "/" + key
	if c.seen[k] {
		return
	}
	c.noteViolation()
	c.seen[k] = true
	v.AtUs = c.w.now
	c.counts[v.Rule]++
	if len(c.list) < maxViolations {
		c.list = append(c.list, v)
	}
	c.w.record(TraceEvent{Kind: TraceViolation, Node: firstNode(v.Nodes), Term: v.Term, Index: v.Index, rule: ruleCode(v.Rule), Text: v.Text})
}

func firstNode(ns []NodeID) NodeID {
	if len(ns) == 0 {
		return None
	}
	return ns[0]
}

func u(v uint64) string { return strconv.FormatUint(v, 10) }

func (c *checker) onLeader(id NodeID, term uint64) {
	if !c.raft {
		if c.w.cfg.Protocol == ProtocolFailover {
			var auth []NodeID
			for i := 1; i <= c.w.cfg.Nodes; i++ {
				if c.w.nodes[i].role == RoleLeader && c.w.machines[i].status != StatusCrashed {
					auth = append(auth, NodeID(i))
				}
			}
			if len(auth) > 1 {
				c.report(fmt.Sprint(auth), Violation{Rule: RuleSingleAuthority, Nodes: auth,
					Text: fmt.Sprintf("%s became an authority while %s still acts as one: two machines accept writes and order them differently", c.name(id), c.others(auth, id))})
			}
		}
		return
	}
	c.noteLeader()
	if prev, ok := c.leaders[term]; ok && prev != id {
		c.report(u(term), Violation{Rule: RuleElectionSafety, Nodes: []NodeID{prev, id}, Term: term,
			Text: fmt.Sprintf("%s and %s were both elected leader of term %d; a term may have only one leader", c.name(prev), c.name(id), term)})
	} else {
		c.leaders[term] = id
	}
	// Leader Completeness: an entry committed in a term is in the log of
	// every leader of a later term. (A leader of an older term may still be
	// elected late, e.g. after a long pause, and need not have it.)
	n := c.w.nodes[id]
	for i := range c.committed {
		idx := c.base + uint64(i+1)
		if n.log.compacted(idx) {
			// Compacted into the leader's snapshot, whose chain at the
			// compaction point covers it.
			continue
		}
		if c.committed[i].known && c.committed[i].inTerm < term && n.log.chain(idx) != c.committed[i].chain {
			c.report(u(term), Violation{Rule: RuleLeaderCompleteness, Nodes: []NodeID{id}, Term: term, Index: idx,
				Text: fmt.Sprintf("%s became leader of term %d without the committed entry at index %d", c.name(id), term, idx)})
			break
		}
	}
}

func (c *checker) others(ids []NodeID, not NodeID) string {
	s := ""
	for _, id := range ids {
		if id == not {
			continue
		}
		if s != "" {
			s += " and "
		}
		s += c.name(id)
	}
	return s
}

func (c *checker) onNodeChange(id NodeID, before nodeState) {
	n := c.w.nodes[id]
	if !c.raft {
		return
	}
	if n.term < before.term {
		c.report(u(uint64(id))+"/"+u(n.term), Violation{Rule: RuleTermMonotonic, Nodes: []NodeID{id}, Term: n.term,
			Text: fmt.Sprintf("%s's term went back from %d to %d", c.name(id), before.term, n.term)})
	}
	if n.term == before.term && before.vote != None && n.vote != before.vote {
		c.report(u(uint64(id))+"/"+u(n.term), Violation{Rule: RuleOneVote, Nodes: []NodeID{id, before.vote, n.vote}, Term: n.term,
			Text: fmt.Sprintf("%s voted for %s and then for %s in term %d; one vote per term is what makes a majority unique", c.name(id), c.name(before.vote), c.name(n.vote), n.term)})
	}
	if before.role == RoleLeader && n.role == RoleLeader && n.term == before.term && n.log.lastIndex() < before.last {
		c.report(u(uint64(id))+"/"+u(n.term), Violation{Rule: RuleLeaderAppendOnly, Nodes: []NodeID{id}, Term: n.term,
			Text: fmt.Sprintf("leader %s's log shrank from %d to %d entries", c.name(id), before.last, n.log.lastIndex())})
	}
	if n.commit < before.commit {
		c.report(u(uint64(id))+"/"+u(n.commit), Violation{Rule: RuleCommitMonotonic, Nodes: []NodeID{id}, Index: n.commit,
			Text: fmt.Sprintf("%s's commit index went back from %d to %d", c.name(id), before.commit, n.commit)})
	}
}

func (c *checker) onLogChange(id NodeID, from uint64, truncated bool) {
	if !c.raft {
		return
	}
	n := c.w.nodes[id]
	if truncated && n.role == RoleLeader {
		c.report(u(uint64(id))+"/"+u(n.term), Violation{Rule: RuleLeaderAppendOnly, Nodes: []NodeID{id}, Term: n.term, Index: from,
			Text: fmt.Sprintf("leader %s replaced its own entries from index %d", c.name(id), from)})
	}
	// Log Matching: wherever two logs have an entry with the same index
	// and term, they are identical up to it. Only the changed part of this
	// log needs checking against the others.
	last := n.log.lastIndex()
	for j := 1; j <= c.w.cfg.Nodes; j++ {
		if NodeID(j) == id {
			continue
		}
		o := c.w.nodes[j]
		end := last
		if ol := o.log.lastIndex(); ol < end {
			end = ol
		}
		// Only the entries both logs still hold (or the compaction
		// point, whose chain stands for the prefix) can be compared.
		for i := max(from, n.log.offset, o.log.offset); i <= end; i++ {
			if n.log.term(i) == o.log.term(i) && n.log.chain(i) != o.log.chain(i) {
				c.report(u(i)+"/"+u(n.log.term(i)), Violation{Rule: RuleLogMatching, Nodes: []NodeID{id, NodeID(j)}, Term: n.log.term(i), Index: i,
					Text: fmt.Sprintf("%s and %s both hold an entry of term %d at index %d, yet their logs differ up to it", c.name(id), c.name(NodeID(j)), n.log.term(i), i)})
				break
			}
		}
	}
}

func (c *checker) onCommit(id NodeID) {
	n := c.w.nodes[id]
	if n.commit > n.log.lastIndex() {
		c.report(u(uint64(id))+"/"+u(n.commit), Violation{Rule: RuleCommitWithinLog, Nodes: []NodeID{id}, Index: n.commit,
			Text: fmt.Sprintf("%s's commit index %d is past the end of its log (%d)", c.name(id), n.commit, n.log.lastIndex())})
		return
	}
	if !c.raft || n.commit == 0 {
		return
	}
	if n.confIndex != 0 {
		// The machine's configuration has changed, perhaps before any
		// machine applied a change (a broken variant takes one when it
		// appends it).
		c.reconfigured = true
	}
	if !c.reconfigured {
		c.checkMajority(id, n.commit, "committed")
	} else if n.commit > c.base+uint64(len(c.committed)) {
		// Once configurations change, an entry is judged when it is
		// first committed, against the configuration the machine that
		// committed it counted with (both halves when joint): as in
		// etcd, a leader counts with the configuration it has applied,
		// and a change it applies later in the same step (once the
		// commit lets it apply one) does not undo the count. A machine
		// that learns of the commit later may already be in a newer
		// configuration, whose majority need not hold an entry the
		// older one committed: etcd's changes keep any two majorities
		// of configurations in force at once overlapping, and the
		// election and completeness rules judge the rest.
		c.checkConfMajority(id, n.commit)
	}
	if n.role == RoleLeader && n.log.term(n.commit) != n.term {
		c.report(u(uint64(id))+"/"+u(n.commit), Violation{Rule: RuleCommitCurrentTerm, Nodes: []NodeID{id}, Term: n.term, Index: n.commit,
			Text: fmt.Sprintf("leader %s of term %d committed index %d, an entry of term %d, by counting replicas; only entries of the leader's own term may be committed that way (the paper's Figure 8 shows why)", c.name(id), n.term, n.commit, n.log.term(n.commit))})
	}
	// Compare the newly committed part with the committed prefix seen so
	// far: no two machines may ever commit different entries at an index.
	for i := max(c.commitSeen[id]+1, n.log.offset, c.base+1); i <= n.commit; i++ {
		for i > c.base+uint64(len(c.committed))+1 {
			c.committed = append(c.committed, committedRec{inTerm: n.term})
		}
		if i > c.base+uint64(len(c.committed)) {
			c.committed = append(c.committed, committedRec{chain: n.log.chain(i), inTerm: n.term, known: true})
			continue
		}
		if rec := &c.committed[i-c.base-1]; !rec.known {
			rec.chain, rec.known = n.log.chain(i), true
			continue
		}
		if c.committed[i-c.base-1].chain != n.log.chain(i) {
			c.report(u(i), Violation{Rule: RuleStateMachineSafety, Nodes: []NodeID{id}, Index: i, Term: n.log.term(i),
				Text: fmt.Sprintf("%s committed a different entry at index %d than was committed there before", c.name(id), i)})
			break
		}
	}
	c.commitSeen[id] = n.commit
}

// checkMajority reports when the entry at index on machine id is held by
// fewer than a majority of machines. An entry on a minority can be lost or
// replaced: nothing built on it is safe.
func (c *checker) checkMajority(id NodeID, index uint64, verb string) {
	n := c.w.nodes[id]
	want := n.log.chain(index)
	holds := func(j quorum.ID) (holds, counted bool) { return c.holds(NodeID(j), index, want), true }
	if c.w.ncfg.voters.VoteResult(holds) != quorum.VoteWon {
		have := 0
		for j := 1; j <= c.w.cfg.Nodes; j++ {
			if h, _ := holds(quorum.ID(j)); h {
				have++
			}
		}
		c.report(u(index)+"/"+u(want), Violation{Rule: RuleMajority, Nodes: []NodeID{id}, Index: index, Term: n.log.term(index),
			Text: fmt.Sprintf("%s %s %s at index %d while only %d of %d machines had it", c.name(id), verb, n.Entry(index).Data, index, have, c.w.cfg.Nodes)})
	}
}

// holds reports whether machine j holds the entry at index whose chain
// hash is want. A machine that compacted past index holds it inside its
// snapshot: compaction only takes applied entries, and the committed
// prefix is judged on its own (onCommit, onRestore).
func (c *checker) holds(j NodeID, index, want uint64) bool {
	l := &c.w.nodes[j].log
	return l.compacted(index) || l.chain(index) == want
}

// checkConfMajority reports when the entry at index, which machine id
// commits first, is not held by a majority of each half of the
// configuration id counted with.
func (c *checker) checkConfMajority(id NodeID, index uint64) {
	n := c.w.nodes[id]
	conf := n.conf
	if n.countedTo == index {
		conf = newConfState(n.countedIn, n.countedOut, n.countedLearners, false)
	}
	want := n.log.chain(index)
	holds := func(j quorum.ID) (holds, counted bool) {
		return int(j) <= c.w.cfg.Nodes && c.holds(NodeID(j), index, want), true
	}
	if conf.voters.VoteResult(holds) == quorum.VoteWon {
		return
	}
	have, voters := 0, conf.voters.IDs()
	for _, j := range voters {
		if h, _ := holds(j); h {
			have++
		}
	}
	c.report(u(index)+"/"+u(want), Violation{Rule: RuleMajority, Nodes: []NodeID{id}, Index: index, Term: n.log.term(index),
		Text: fmt.Sprintf("%s committed %s at index %d while only %d of the %d voters of %s had it", c.name(id), n.Entry(index).Data, index, have, len(voters), conf)})
}

func (c *checker) onApply(id NodeID, e Entry, did applied) {
	n := c.w.nodes[id]
	if e.Data.Kind == OpConf {
		c.reconfigured = true
	}
	if !c.raft {
		c.checkMajority(id, e.Index, "applied")
	}
	if did.changed() && c.raft && e.Data.OpID != 0 {
		c.checkExactlyOnce(id, e)
	}
	i := e.Index
	if c.raft && n.snap != nil && i <= n.snap.Index {
		c.report(u(uint64(id))+"/"+u(i), Violation{Rule: RuleSnapshotSafety, Nodes: []NodeID{id}, Index: i, Term: e.Term,
			Text: fmt.Sprintf("%s applied index %d, at or below its snapshot at index %d, whose state already holds that entry", c.name(id), i, n.snap.Index)})
	}
	if i <= c.base {
		return
	}
	if i > c.base+uint64(len(c.applied)) {
		c.applied = append(c.applied, appliedRec{term: e.Term, data: e.Data, digest: n.kv.digest, node: id})
		c.onLostUpdate(e, did)
		return
	}
	first := c.applied[i-c.base-1]
	if first.term != e.Term || first.data != e.Data {
		what := "histories forked"
		if c.raft {
			what = "the replicated state machines disagree"
		}
		c.report(u(i), Violation{Rule: RuleStateMachineSafety, Nodes: []NodeID{first.node, id}, Index: i, Term: e.Term,
			Text: fmt.Sprintf("%s: %s applied %s at index %d but %s applied %s there", what, c.name(first.node), first.data, i, c.name(id), e.Data)})
		return
	}
	if c.raft && n.kv.digest != first.digest && !c.digestBad[id] {
		c.digestBad[id] = true
		c.report(u(uint64(id)), Violation{Rule: RuleStateDigest, Nodes: []NodeID{id}, Index: i,
			Text: fmt.Sprintf("%s's store after applying index %d differs from what applying its log gives: it skipped or lost earlier changes", c.name(id), i)})
	}
}

// checkExactlyOnce reports a client write that changed a store at two
// indexes: the log holds it twice (a duplicated proposal, say) and nothing
// discarded the second copy, so a later write by someone else can be
// undone by the repeat.
func (c *checker) checkExactlyOnce(id NodeID, e Entry) {
	op := e.Data.OpID
	at := op - 1 - c.tookBase
	if at < 0 {
		// No log or message held the operation when its note was
		// dropped, so no copy of it is left to apply: unreachable.
		return
	}
	for len(c.tookEffect) <= at {
		c.tookEffect = append(c.tookEffect, 0)
	}
	first := c.tookEffect[at]
	if first == 0 {
		c.tookEffect[at] = e.Index
		return
	}
	if first != e.Index {
		c.report(strconv.Itoa(op), Violation{Rule: RuleExactlyOnce, Nodes: []NodeID{id}, Index: e.Index, Term: e.Term, Op: op,
			Text: fmt.Sprintf("%s applied client write %d (%s) at index %d after it had already taken effect at index %d: the write was applied twice", c.name(id), op, e.Data, e.Index, first)})
	}
}

// onRead checks a linearizable or lease read against the writes that
// completed before it began: the read must see each of them. "Before" is
// the order clients saw (Op.FinishedBefore), so an acknowledgement and a
// read at one instant are told apart by the trace.
func (c *checker) onRead(op Op, modIndex uint64) {
	if !c.raft || op.Mode == ReadLocal {
		return
	}
	if at := c.forgottenWrites[op.Key]; at > op.ReadAt {
		c.report(strconv.Itoa(op.ID), Violation{Rule: RuleStaleRead, Nodes: []NodeID{op.Node}, Index: at, Op: op.ID,
			Text: fmt.Sprintf("a %s read of %s at %s returned state as of index %d, missing the write at index %d that had already completed", op.Mode, op.Key, c.name(op.Node), op.ReadAt, at)})
		return
	}
	for _, w := range c.w.ops {
		if w.Kind == DoRead || w.Key != op.Key || w.Result != OpOK || !w.FinishedBefore(op) {
			continue
		}
		if w.Index > op.ReadAt {
			c.report(strconv.Itoa(op.ID), Violation{Rule: RuleStaleRead, Nodes: []NodeID{op.Node}, Index: w.Index, Op: op.ID,
				Text: fmt.Sprintf("a %s read of %s at %s returned state as of index %d, missing the write at index %d that had already completed", op.Mode, op.Key, c.name(op.Node), op.ReadAt, w.Index)})
			return
		}
	}
}

// onSnapshot checks the snapshot machine id just took: it may cover only
// committed entries, and its state must be what applying them gives.
func (c *checker) onSnapshot(id NodeID) {
	n := c.w.nodes[id]
	s := n.snap
	if s.Index > n.commit {
		c.report(u(uint64(id))+"/"+u(s.Index), Violation{Rule: RuleSnapshotSafety, Nodes: []NodeID{id}, Index: s.Index, Term: s.Term,
			Text: fmt.Sprintf("%s took a snapshot at index %d, past its commit index %d: the snapshot holds entries that may never be committed", c.name(id), s.Index, n.commit)})
		return
	}
	c.checkSnapshotState(id, s, "took")
	c.trim()
}

// onRestore checks a snapshot machine id restored: it must cover the
// committed prefix (the same entries every machine committed up to its
// index) and hold the state applying them gives.
func (c *checker) onRestore(id NodeID, s *Snapshot) {
	if s.Index > c.base && s.Index <= c.base+uint64(len(c.committed)) && c.committed[s.Index-c.base-1].known && c.committed[s.Index-c.base-1].chain != s.Chain {
		c.report(u(uint64(id))+"/"+u(s.Index), Violation{Rule: RuleSnapshotSafety, Nodes: []NodeID{id}, Index: s.Index, Term: s.Term,
			Text: fmt.Sprintf("%s restored a snapshot at index %d whose log differs from the entries committed up to it", c.name(id), s.Index)})
		return
	}
	c.checkSnapshotState(id, s, "restored")
	c.trim()
}

// checkSnapshotState compares a snapshot's state with the state the first
// machine to apply the entry at its index had then.
func (c *checker) checkSnapshotState(id NodeID, s *Snapshot, verb string) {
	if s.Index <= c.base || s.Index > c.base+uint64(len(c.applied)) {
		return
	}
	if rec := c.applied[s.Index-c.base-1]; rec.digest != s.kv.digest {
		c.report(u(uint64(id))+"/"+u(s.Index), Violation{Rule: RuleSnapshotSafety, Nodes: []NodeID{id, rec.node}, Index: s.Index, Term: s.Term,
			Text: fmt.Sprintf("%s %s a snapshot at index %d whose state differs from what %s had after applying the committed entries up to it", c.name(id), verb, s.Index, c.name(rec.node))})
	}
}

// trimEvery is how far the lowest snapshot must move past base before the
// records below it are dropped, so that trimming costs little per entry.
const trimEvery = 256

// trim drops the records of indexes every machine has a snapshot past:
// none of them applies, restores or commits there again (a restart
// replays from the snapshot), and the snapshots' own chains stand for the
// prefix. A machine with no snapshot keeps everything.
func (c *checker) trim() {
	low := uint64(0)
	for i := 1; i <= c.w.cfg.Nodes; i++ {
		s := c.w.nodes[i].snap
		if s == nil {
			return
		}
		if i == 1 || s.Index < low {
			low = s.Index
		}
	}
	if low < c.base+trimEvery {
		return
	}
	// Keep the record at low itself: a snapshot at it is still compared.
	drop := low - 1 - c.base
	drop = min(drop, uint64(len(c.applied)), uint64(len(c.committed)))
	c.applied = append([]appliedRec(nil), c.applied[drop:]...)
	c.committed = append([]committedRec(nil), c.committed[drop:]...)
	c.base += drop
}

func (c *checker) onRestart(id NodeID) {
	c.digestBad[id] = false
	c.commitSeen[id] = 0
}

// ElectedLeader is the machine the checker saw elected leader of term, if
// any was: the memory the election-safety rule keeps, which no crash or
// restart erases. A stale lease read is told apart by it: its leader had
// been deposed by a later one.
func (w *World) ElectedLeader(term uint64) (NodeID, bool) {
	id, ok := w.checker.leaders[term]
	return id, ok
}

// Violations returns the violations found so far (the first 200).
func (w *World) Violations() []Violation { return capped(w.checker.list) }

// ViolationCount returns how many times rule was broken (all rules when
// rule is empty).
func (w *World) ViolationCount(rule Rule) int {
	if rule != "" {
		return w.checker.counts[rule]
	}
	total := 0
	for _, v := range w.checker.counts {
		total += v
	}
	return total
}

// forget takes note of what the rules still need of an operation the
// client history forgets: a write's index, for the stale-read rule.
func (c *checker) forget(op Op) {
	if op.Kind == DoRead || op.Result != OpOK {
		return
	}
	if c.forgottenWrites == nil {
		c.forgottenWrites = map[string]uint64{}
	}
	c.forgottenWrites[op.Key] = max(c.forgottenWrites[op.Key], op.Index)
}

// trimTookEffect drops the exactly-once notes of the operations below
// low, when there are more than keep notes. low must be an operation no
// log and no message holds, nor any before it (World.lowestProposable):
// a write applies only from an entry of a log, so none of them can take
// effect again.
func (c *checker) trimTookEffect(low, keep int) {
	drop := low - 1 - c.tookBase
	if len(c.tookEffect) <= keep || drop <= 0 {
		return
	}
	drop = min(drop, len(c.tookEffect))
	c.tookEffect = append([]uint64(nil), c.tookEffect[drop:]...)
	c.tookBase += drop
}
