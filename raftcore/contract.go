package raftcore

import (
	"sort"
	"strconv"
)

// The shared-history contract: five promises a replicated history must keep
// for anything built on it to be safe. Contract judges them on the world as
// it is now, from the machines' logs, the messages still on their way and
// the checker's findings, so that the app can show each promise live and
// say in one sentence why it holds, bends or breaks: each clause names the
// situation it is in and its facts (machines, indexes, entries, counts),
// and the app's words (package viz/words) tell them.

// ClauseState is how a promise stands right now.
type ClauseState string

const (
	// ClauseHolding: the promise is kept now.
	ClauseHolding ClauseState = "holding"
	// ClauseNotYet: the promise is bent, but the protocol will restore it
	// without help (a follower is behind, entries nobody agreed on are
	// waiting to be replaced, copies are still in flight).
	ClauseNotYet ClauseState = "not-yet"
	// ClauseBroken: the promise is broken and nothing in the protocol will
	// ever mend it.
	ClauseBroken ClauseState = "broken"
)

// Stable ids of the clauses, in the contract's order.
const (
	ClauseOneHistory = "one-history"
	ClauseConverge   = "converge"
	ClauseNoFork     = "no-fork"
	ClauseAgreed     = "agreed-decisions"
	ClauseAgreement  = "agreement-over-copies"
)

// Clause is one promise of the contract, how it stands, and why: the
// situation it is in (Fact) and that situation's facts. Fields a
// situation does not state are zero.
type Clause struct {
	ID    string      `json:"id"`
	State ClauseState `json:"state"`
	Fact  ClauseFact  `json:"fact"`
	// Node is the machine the situation is about and Other the one it is
	// compared to; Nodes are the machines it is about when they are many
	// (FactAuthorities).
	Node  NodeID   `json:"node,omitempty"`
	Other NodeID   `json:"other,omitempty"`
	Nodes []NodeID `json:"nodes,omitempty"`
	// Status is how Node runs (FactBehind, FactLacks).
	Status Status `json:"status,omitempty"`
	// Index is where two histories differ, where Node's branch begins
	// (FactBranch) or the entry Node lacks (FactLacks). Entry is Node's
	// entry there (the one it lacks, for FactLacks) and OtherEntry
	// Other's; Term is the term of Node's entry there (FactBranch).
	Index      uint64  `json:"index,omitempty"`
	Entry      Command `json:"entry,omitzero"`
	OtherEntry Command `json:"other_entry,omitzero"`
	Term       uint64  `json:"term,omitempty"`
	// Entries counts entries: those of Node's branch (FactBranch), or of
	// the history the machines hold or will hold (FactAllHold,
	// FactOnTheWay, and FactNoFork of the first clause: the longest).
	Entries int `json:"entries,omitempty"`
	// Machines is how many machines there are; Copies how many copies are
	// still on their way (FactOnTheWay); Stored how many entries the
	// machines store between them (the last clause).
	Machines int `json:"machines,omitempty"`
	Copies   int `json:"copies,omitempty"`
	Stored   int `json:"stored,omitempty"`
	// Has is how many committed entries Node knows, of Committed in all,
	// and Behind how many machines know fewer than Committed (FactBehind).
	// Committed is also how long the committed history is (FactOneHistory,
	// FactAllHold under Raft) and how much of what is stored counts
	// (FactStored under Raft).
	Has       uint64 `json:"has,omitempty"`
	Committed uint64 `json:"committed,omitempty"`
	Behind    int    `json:"behind,omitempty"`
	// Holds (FactBehind): Node already holds every committed entry and
	// lacks only the news that they are committed.
	Holds bool `json:"holds,omitempty"`
	// Applied is how many entries the machines have acted on
	// (FactMajorityHeld).
	Applied uint64 `json:"applied,omitempty"`
	// Rule is the rule the checker found broken (FactViolation), and Why
	// its explanation, as its trace event gives it; where the checker
	// counted violations but kept none, Why is empty and Violations says
	// how many.
	Rule       Rule   `json:"rule,omitempty"`
	Why        string `json:"why,omitempty"`
	Violations int    `json:"violations,omitempty"`
}

// ClauseFact names the situation a clause is in. The same situation may
// stand behind several clauses, each of which tells it in its own terms.
type ClauseFact uint8

const (
	// FactNothingYet: nothing is committed, stored or applied yet, as the
	// clause counts.
	FactNothingYet ClauseFact = iota
	// FactOneHistory: every machine's committed entries fit one history
	// of Committed entries, which Node holds whole (Raft).
	FactOneHistory
	// FactNoFork: no two machines hold different entries at the same
	// index; for the first clause, under the naive protocols, the longest
	// history holds Entries.
	FactNoFork
	// FactAllHold: all Machines hold the same history: Committed
	// committed entries under Raft, Entries otherwise.
	FactAllHold
	// FactOnTheWay: Copies are still on their way; once delivered, all
	// Machines will hold the same Entries.
	FactOnTheWay
	// FactBehind: under Raft, machine Node (with Status) knows Has of
	// Committed committed entries; Behind machines are behind in all, and
	// Raft will catch them up.
	FactBehind
	// FactBranch: under Raft, from Index Node holds Entries uncommitted
	// entries of Term that differ from Other's; Raft will keep only one
	// branch.
	FactBranch
	// FactCommittedApart: Node and Other committed (or, under the naive
	// protocols, treat as final) different entries at Index: Entry and
	// OtherEntry.
	FactCommittedApart
	// FactApart: Node and Other hold different entries at Index (Entry
	// and OtherEntry) for good; for the last clause, Stored entries are
	// stored on Machines.
	FactApart
	// FactLacks: Node (with Status) lacks Entry, index Index at Other, and
	// nothing will ever send it again.
	FactLacks
	// FactDiffer: the machines' histories differ for good; for the last
	// clause, Stored entries are stored on Machines.
	FactDiffer
	// FactAuthorities: Nodes all act as the authority at once.
	FactAuthorities
	// FactMajorityHeld: every entry applied so far, Applied of them, was
	// held by a majority before any machine acted on it.
	FactMajorityHeld
	// FactStored: Stored entries are stored on Machines, and none
	// contradicts another; under Raft, the first Committed of them count
	// as history.
	FactStored
	// FactViolation: the checker found Rule broken, as Why explains (or
	// counted Violations of it).
	FactViolation
)

var clauseFactNames = [...]string{"nothing-yet", "one-history", "no-fork", "all-hold", "on-the-way", "behind", "branch",
	"committed-apart", "apart", "lacks", "differ", "authorities", "majority-held", "stored", "violation"}

func (f ClauseFact) String() string {
	if int(f) < len(clauseFactNames) {
		return clauseFactNames[f]
	}
	return "fact(" + strconv.Itoa(int(f)) + ")"
}

// MarshalText lets JSON name the fact.
func (f ClauseFact) MarshalText() ([]byte, error) { return []byte(f.String()), nil }

// UnmarshalText reads a fact by name.
func (f *ClauseFact) UnmarshalText(b []byte) error {
	return parseName(f, "clause fact", clauseFactNames[:], b)
}

// Contract evaluates the five promises, in order: history becomes one
// committed sequence; every machine eventually builds on the same history;
// history never forks for good; decisions use agreed history; agreement,
// not copying, is what keeps history from contradicting itself.
func (w *World) Contract() []Clause {
	c := contract{w: w, raft: w.cfg.Protocol == ProtocolRaft}
	conv := c.converge()
	return []Clause{c.oneHistory(), conv, c.noFork(), c.agreed(), c.agreement(conv)}
}

type contract struct {
	w    *World
	raft bool
}

// diverge returns the first index at which two logs hold different entries,
// or 0 when one log is a prefix of the other. The chain hash covers the
// whole prefix, so equality at an index implies equality below it and the
// first difference can be found by bisection.
func diverge(a, b *Node) uint64 {
	hi := a.log.lastIndex()
	if l := b.log.lastIndex(); l < hi {
		hi = l
	}
	// Below a compaction point a log holds no chain to compare; from the
	// higher of the two on, both do.
	lo := max(a.log.offset, b.log.offset)
	if hi < lo {
		return 0 // one log ends before the other's compacted prefix: nothing to tell them apart
	}
	if a.log.chain(hi) == b.log.chain(hi) {
		return 0
	}
	if lo > 0 && a.log.chain(lo) != b.log.chain(lo) {
		return lo // they differ already in what one compacted
	}
	// Chains are equal at lo (index 0 is the empty prefix).
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if a.log.chain(mid) == b.log.chain(mid) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return hi
}

// violated breaks cl on the first recorded violation of any of rules, and
// reports whether there was one.
func (c contract) violated(cl *Clause, rules ...Rule) bool {
	for _, v := range c.w.checker.list {
		for _, r := range rules {
			if v.Rule == r {
				cl.State, cl.Fact, cl.Rule, cl.Why = ClauseBroken, FactViolation, r, v.Text
				return true
			}
		}
	}
	for _, r := range rules {
		if n := c.w.checker.counts[r]; n > 0 {
			// Counted but not kept (the list is bounded).
			cl.State, cl.Fact, cl.Rule, cl.Violations = ClauseBroken, FactViolation, r, n
			return true
		}
	}
	return false
}

// pair is the first two machines whose logs hold different entries at the
// same index, with that index.
type pair struct {
	a, b  NodeID
	index uint64
}

// forks lists every pair of machines whose logs diverge.
func (c contract) forks() []pair {
	var out []pair
	n := c.w.cfg.Nodes
	for i := 1; i <= n; i++ {
		for j := i + 1; j <= n; j++ {
			if d := diverge(c.w.nodes[i], c.w.nodes[j]); d != 0 {
				out = append(out, pair{NodeID(i), NodeID(j), d})
			}
		}
	}
	return out
}

// apart states that machines p.a and p.b hold different entries at p.index.
func (c contract) apart(cl *Clause, f ClauseFact, p pair) {
	cl.Fact, cl.Node, cl.Other, cl.Index = f, p.a, p.b, p.index
	cl.Entry, cl.OtherEntry = c.w.nodes[p.a].Entry(p.index).Data, c.w.nodes[p.b].Entry(p.index).Data
}

// holdsCommitted says whether machine id's log holds the first top
// entries as machine best, which has committed them, does. It compares the
// logs' chain hashes, not only the terms at top: log matching would make
// those enough in Raft, but an injected bug can break it.
func (c contract) holdsCommitted(id, best NodeID, top uint64) bool {
	mine, theirs := c.w.nodes[id].log, c.w.nodes[best].log
	// A log compacted past top holds it in its snapshot, which covers
	// committed entries only.
	return mine.lastIndex() >= top && (mine.compacted(top) || mine.chain(top) == theirs.chain(top))
}

// maxCommit returns the machine with the highest commit index (the lowest id
// on ties) and that index.
func (c contract) maxCommit() (NodeID, uint64) {
	best, at := NodeID(1), uint64(0)
	for i := 1; i <= c.w.cfg.Nodes; i++ {
		if cm := c.w.nodes[i].commit; cm > at {
			best, at = NodeID(i), cm
		}
	}
	return best, at
}

func (c contract) authorities() []NodeID {
	var out []NodeID
	for i := 1; i <= c.w.cfg.Nodes; i++ {
		if c.w.nodes[i].role == RoleLeader && c.w.machines[i].status != StatusCrashed {
			out = append(out, NodeID(i))
		}
	}
	return out
}

// oneHistory: there is one authoritative sequence of committed entries.
func (c contract) oneHistory() Clause {
	cl := Clause{ID: ClauseOneHistory}
	ref, top := c.maxCommit()
	for _, p := range c.forks() {
		ca, cb := c.w.nodes[p.a].commit, c.w.nodes[p.b].commit
		if p.index > ca || p.index > cb {
			continue // a difference past what one of them committed
		}
		cl.State = ClauseBroken
		c.apart(&cl, FactCommittedApart, p)
		return cl
	}
	if c.violated(&cl, RuleStateMachineSafety, RuleElectionSafety, RuleLogMatching, RuleLeaderCompleteness) {
		return cl
	}
	if c.w.cfg.Protocol == ProtocolFailover {
		if auth := c.authorities(); len(auth) > 1 {
			cl.State, cl.Fact, cl.Nodes = ClauseBroken, FactAuthorities, auth
			return cl
		}
	}
	cl.State = ClauseHolding
	switch {
	case !c.raft:
		longest := uint64(0)
		for i := 1; i <= c.w.cfg.Nodes; i++ {
			if l := c.w.nodes[i].log.lastIndex(); l > longest {
				longest = l
			}
		}
		cl.Fact, cl.Entries = FactNoFork, int(longest)
	case top == 0:
		cl.Fact = FactNothingYet
	default:
		cl.Fact, cl.Committed, cl.Node = FactOneHistory, top, ref
	}
	return cl
}

// converge: every machine eventually holds the same history.
func (c contract) converge() Clause {
	cl := Clause{ID: ClauseConverge}
	if c.raft {
		return c.convergeRaft(cl)
	}
	n := c.w.cfg.Nodes
	same := true
	for i := 2; i <= n && same; i++ {
		same = c.sameLog(c.w.nodes[1].log.entries, c.w.nodes[i].log.entries)
	}
	if same {
		cl.State, cl.Fact, cl.Machines, cl.Entries = ClauseHolding, FactAllHold, n, int(c.w.nodes[1].log.lastIndex())
		return cl
	}
	// Will the copies still on their way make the histories equal?
	future := make([][]Command, n+1)
	pending := 0
	for i := 1; i <= n; i++ {
		var k int
		future[i], k = c.predict(NodeID(i))
		pending += k
	}
	agree := true
	for i := 2; i <= n && agree; i++ {
		agree = sameCommands(future[1], future[i])
	}
	if agree {
		cl.State, cl.Fact = ClauseNotYet, FactOnTheWay
		cl.Copies, cl.Machines, cl.Entries = pending, n, len(future[1])
		return cl
	}
	cl.State = ClauseBroken
	c.neverAgree(&cl, future)
	return cl
}

// neverAgree states why histories that will be what future says never
// agree: a machine that will lack an entry another holds, two that hold
// different entries at an index, or, failing both, that they differ.
func (c contract) neverAgree(cl *Clause, future [][]Command) {
	n := c.w.cfg.Nodes
	for i := 1; i <= n; i++ {
		for j := 1; j <= n; j++ {
			a, b := future[i], future[j]
			if i == j || len(a) >= len(b) || !sameCommands(a, b[:len(a)]) {
				continue
			}
			// Machine i will hold a strict prefix of j's history.
			cl.Fact, cl.Node, cl.Other, cl.Status = FactLacks, NodeID(i), NodeID(j), c.w.machines[i].status
			cl.Entry, cl.Index = b[len(a)], uint64(len(a)+1)
			return
		}
	}
	for i := 1; i <= n; i++ {
		for j := i + 1; j <= n; j++ {
			a, b := future[i], future[j]
			for k := 0; k < len(a) && k < len(b); k++ {
				if a[k] != b[k] {
					cl.Fact, cl.Node, cl.Other, cl.Index = FactApart, NodeID(i), NodeID(j), uint64(k+1)
					cl.Entry, cl.OtherEntry = a[k], b[k]
					return
				}
			}
		}
	}
	cl.Fact = FactDiffer
}

func (c contract) convergeRaft(cl Clause) Clause {
	n := c.w.cfg.Nodes
	best, top := c.maxCommit()
	var behind []NodeID
	for i := 1; i <= n; i++ {
		if c.w.nodes[i].commit < top {
			behind = append(behind, NodeID(i))
		}
	}
	if len(behind) == 0 {
		cl.State, cl.Fact = ClauseHolding, FactNothingYet
		if top > 0 {
			cl.Fact, cl.Machines, cl.Committed = FactAllHold, n, top
		}
		return cl
	}
	// Describe the machine furthest behind; Raft repairs every one of them.
	worst := behind[0]
	for _, id := range behind {
		if c.w.nodes[id].commit < c.w.nodes[worst].commit {
			worst = id
		}
	}
	cl.State, cl.Fact, cl.Status = ClauseNotYet, FactBehind, c.w.machines[worst].status
	cl.Node, cl.Has, cl.Committed, cl.Behind = worst, c.w.nodes[worst].commit, top, len(behind)
	// A running machine whose log matches up to the last committed entry
	// lacks only the commit index, which the leader's next append or
	// heartbeat carries.
	cl.Holds = cl.Status == StatusUp && c.holdsCommitted(worst, best, top)
	return cl
}

func (c contract) sameLog(a, b []Entry) bool {
	if len(a) != len(b) {
		return false
	}
	return len(a) == 0 || a[len(a)-1].Chain == b[len(b)-1].Chain
}

func sameCommands(a, b []Command) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// predict returns the history machine id of a naive protocol will hold once
// the entries now travelling to it (or waiting in its inbox) are handled, and
// how many such messages there are. Messages that will be lost, were
// dropped, or meet a cut link or a crashed machine add nothing.
func (c contract) predict(id NodeID) ([]Command, int) {
	n := c.w.nodes[id]
	cmds := make([]Command, 0, n.log.lastIndex())
	for _, e := range n.log.entries {
		cmds = append(cmds, e.Data)
	}
	m := &c.w.machines[id]
	if m.status == StatusCrashed {
		return cmds, 0
	}
	msgs := append([]Message(nil), m.work...)
	var flying []event
	for _, e := range c.w.queue {
		if e.kind == evDeliver && e.msg.To == id && !e.msg.Lost && !c.w.isDropped(e.msg.ID) &&
			e.msg.Type != MsgClient && c.w.links[e.msg.From][id].Up {
			flying = append(flying, e)
		}
	}
	// Delivery order is the event queue's: by time, then by scheduling order.
	sort.Slice(flying, func(i, j int) bool {
		a, b := flying[i], flying[j]
		return a.at < b.at || (a.at == b.at && a.seq < b.seq)
	})
	for _, e := range flying {
		msgs = append(msgs, e.msg)
	}
	count := 0
	for _, msg := range msgs {
		switch {
		case msg.Type == MsgCopy:
			count++
			for _, e := range msg.Entries {
				cmds = append(cmds, e.Data)
			}
		case msg.Type == MsgApp && c.w.cfg.Protocol == ProtocolFailover && n.role != RoleLeader:
			count++
			for _, e := range msg.Entries {
				// The failover follower takes only the next entry in order.
				if e.Index == uint64(len(cmds))+1 {
					cmds = append(cmds, e.Data)
				}
			}
		}
	}
	return cmds, count
}

// noFork: history never forks for good.
func (c contract) noFork() Clause {
	cl := Clause{ID: ClauseNoFork}
	fs := c.forks()
	if c.raft {
		return c.noForkRaft(cl, fs)
	}
	if len(fs) > 0 {
		cl.State = ClauseBroken
		c.apart(&cl, FactApart, fs[0])
		return cl
	}
	if c.violated(&cl, RuleStateMachineSafety) {
		return cl
	}
	cl.State, cl.Fact = ClauseHolding, FactNoFork
	return cl
}

func (c contract) noForkRaft(cl Clause, fs []pair) Clause {
	if c.violated(&cl, RuleStateMachineSafety, RuleLogMatching) {
		return cl
	}
	for _, p := range fs {
		if p.index <= c.w.nodes[p.a].commit && p.index <= c.w.nodes[p.b].commit {
			cl.State = ClauseBroken
			c.apart(&cl, FactCommittedApart, p)
			return cl
		}
	}
	if len(fs) > 0 {
		p := fs[0]
		// Name the machine holding the older term's entry: that is the
		// branch no current majority stands behind.
		stale, other := p.a, p.b
		if c.w.nodes[p.b].log.term(p.index) < c.w.nodes[p.a].log.term(p.index) {
			stale, other = p.b, p.a
		}
		sn := c.w.nodes[stale]
		cl.State, cl.Fact, cl.Node, cl.Other = ClauseNotYet, FactBranch, stale, other
		cl.Index, cl.Term, cl.Entries = p.index, sn.log.term(p.index), int(sn.log.lastIndex()-p.index+1)
		return cl
	}
	cl.State, cl.Fact = ClauseHolding, FactNoFork
	return cl
}

// agreed: machines act only on history a majority has accepted.
func (c contract) agreed() Clause {
	cl := Clause{ID: ClauseAgreed}
	if c.violated(&cl, RuleMajority, RuleStaleRead) {
		return cl
	}
	applied := uint64(0)
	for i := 1; i <= c.w.cfg.Nodes; i++ {
		if a := c.w.nodes[i].applied; a > applied {
			applied = a
		}
	}
	cl.State, cl.Fact = ClauseHolding, FactNothingYet
	if applied > 0 {
		cl.Fact, cl.Applied = FactMajorityHeld, applied
	}
	return cl
}

// agreement: agreement matters more than copying. Copies keep history from
// being lost; only agreement keeps the copies from contradicting each other.
// Under the naive protocols every machine copies what it can, and this is
// broken as soon as two copies say different things for good. conv is the
// converge clause, already judged.
func (c contract) agreement(conv Clause) Clause {
	cl := Clause{ID: ClauseAgreement}
	n := c.w.cfg.Nodes
	stored := 0
	for i := 1; i <= n; i++ {
		stored += int(c.w.nodes[i].log.lastIndex())
	}
	cl.Stored, cl.Machines = stored, n
	if c.raft {
		if c.violated(&cl, RuleStateMachineSafety, RuleElectionSafety, RuleLogMatching, RuleLeaderCompleteness, RuleMajority) {
			return cl
		}
		_, top := c.maxCommit()
		cl.State, cl.Fact, cl.Committed = ClauseHolding, FactStored, top
		if stored == 0 {
			cl.Fact = FactNothingYet
		}
		return cl
	}
	if fs := c.forks(); len(fs) > 0 {
		p := fs[0]
		cl.State, cl.Fact, cl.Node, cl.Other, cl.Index = ClauseBroken, FactApart, p.a, p.b, p.index
		return cl
	}
	if conv.State == ClauseBroken {
		cl.State, cl.Fact = ClauseBroken, FactDiffer
		return cl
	}
	cl.State, cl.Fact = ClauseHolding, FactStored
	if stored == 0 {
		cl.Fact = FactNothingYet
	}
	return cl
}
