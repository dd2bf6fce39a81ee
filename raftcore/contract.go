package raftcore

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// The shared-history contract: five promises a replicated history must keep
// for anything built on it to be safe. Contract judges them on the world as
// it is now, from the machines' logs, the messages still on their way and
// the checker's findings, so the app can show each promise live and say in
// one sentence why it holds, bends or breaks.

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

// Clause is one promise of the contract and how it stands.
type Clause struct {
	ID    string      `json:"id"`
	Title string      `json:"title"`
	State ClauseState `json:"state"`
	// Text says why, in one sentence naming machines, indexes and counts.
	Text string `json:"text"`
	// Fact names the situation Text tells of, where a reader may tell it
	// in its own words from the typed facts that follow, which are zero
	// where Text does not state them.
	Fact ClauseFact `json:"fact,omitempty"`
	// Node is the machine Text is about; Other the one it is compared to.
	Node  NodeID `json:"node,omitempty"`
	Other NodeID `json:"other,omitempty"`
	// Index is where Node's branch begins, Term the term of its entry
	// there, and Entries how many entries the branch holds (FactBranch).
	Index   uint64 `json:"index,omitempty"`
	Term    uint64 `json:"term,omitempty"`
	Entries int    `json:"entries,omitempty"`
	// Has is how many committed entries Node knows, of Committed in all,
	// and Behind how many machines know fewer than Committed (FactBehind).
	Has       uint64 `json:"has,omitempty"`
	Committed uint64 `json:"committed,omitempty"`
	Behind    int    `json:"behind,omitempty"`
	// Holds (FactBehind): Node already holds every committed entry and
	// lacks only the news that they are committed.
	Holds bool `json:"holds,omitempty"`
}

// ClauseFact names a situation a clause tells of.
type ClauseFact uint8

const (
	// FactOther: any situation not named below; Text alone tells it.
	FactOther ClauseFact = iota
	// FactBehind: under Raft, running machine Node knows Has of Committed
	// committed entries, and a leader will send it the rest; Behind
	// machines are behind in all.
	FactBehind
	// FactBranch: under Raft, from Index Node holds Entries uncommitted
	// entries of Term that differ from Other's; Raft will keep only one
	// branch.
	FactBranch
)

var clauseFactNames = [...]string{"", "behind", "branch"}

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

func (c contract) name(id NodeID) string { return c.w.cfg.Name(id) }

// diverge returns the first index at which two logs hold different entries,
// or 0 when one log is a prefix of the other. The chain hash covers the
// whole prefix, so equality at an index implies equality below it and the
// first difference can be found by bisection.
func diverge(a, b *Node) uint64 {
	hi := a.log.lastIndex()
	if l := b.log.lastIndex(); l < hi {
		hi = l
	}
	if a.log.chain(hi) == b.log.chain(hi) {
		return 0
	}
	lo := uint64(0) // chains are equal at lo (index 0 is the empty prefix)
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

// firstViolation returns the first recorded violation of any of rules.
func (c contract) firstViolation(rules ...Rule) (Violation, bool) {
	for _, v := range c.w.checker.list {
		for _, r := range rules {
			if v.Rule == r {
				return v, true
			}
		}
	}
	for _, r := range rules {
		if c.w.checker.counts[r] > 0 {
			// Counted but not kept (the list is bounded).
			return Violation{Rule: r, Text: fmt.Sprintf("the checker found %d violations of %s", c.w.checker.counts[r], r)}, true
		}
	}
	return Violation{}, false
}

// sentence makes a checker explanation start like a sentence and end with a
// full stop.
func sentence(s string) string {
	if s == "" {
		return s
	}
	s = strings.ToUpper(s[:1]) + s[1:]
	if !strings.HasSuffix(s, ".") {
		s += "."
	}
	return s
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

func (c contract) entryText(id NodeID, i uint64) string {
	return c.w.nodes[id].log.entry(i).Data.String()
}

// holdsText says that a machine holds the top committed entries but knows
// only has of them to be committed.
func holdsText(name string, has, top uint64) string {
	const tell = "; a leader's next message will tell it."
	switch {
	case has > 0:
		return fmt.Sprintf("%s already holds all %d committed entries but knows only %d of them to be committed", name, top, has) + tell
	case top == 1:
		return name + " already holds the committed entry but does not know yet that it is committed" + tell
	default:
		return fmt.Sprintf("%s already holds all %d committed entries but does not know yet that they are committed", name, top) + tell
	}
}

// holdsCommitted says whether machine id's log holds the first top
// entries as machine best, which has committed them, does. It compares the
// logs' chain hashes, not only the terms at top: log matching would make
// those enough in Raft, but an injected bug can break it.
func (c contract) holdsCommitted(id, best NodeID, top uint64) bool {
	mine, theirs := c.w.nodes[id].log, c.w.nodes[best].log
	return mine.lastIndex() >= top && mine.chain(top) == theirs.chain(top)
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

// NameList joins machine names as prose: "A", "A and B", "A, B and C".
func (w *World) NameList(ids []NodeID) string {
	names := make([]string, len(ids))
	for i, id := range ids {
		names[i] = w.cfg.Name(id)
	}
	switch len(names) {
	case 0:
		return "no machine"
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

func plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}

// oneHistory: there is one authoritative sequence of committed entries.
func (c contract) oneHistory() Clause {
	cl := Clause{ID: ClauseOneHistory, Title: "History becomes singular"}
	ref, top := c.maxCommit()
	for _, p := range c.forks() {
		ca, cb := c.w.nodes[p.a].commit, c.w.nodes[p.b].commit
		if p.index > ca || p.index > cb {
			continue // a difference past what one of them committed
		}
		cl.State = ClauseBroken
		if c.raft {
			cl.Text = fmt.Sprintf("%s and %s committed different entries at index %d (%s and %s).",
				c.name(p.a), c.name(p.b), p.index, c.entryText(p.a, p.index), c.entryText(p.b, p.index))
		} else {
			cl.Text = fmt.Sprintf("%s and %s each treat index %d as final, with different entries (%s and %s).",
				c.name(p.a), c.name(p.b), p.index, c.entryText(p.a, p.index), c.entryText(p.b, p.index))
		}
		return cl
	}
	if v, ok := c.firstViolation(RuleStateMachineSafety, RuleElectionSafety, RuleLogMatching, RuleLeaderCompleteness); ok {
		cl.State, cl.Text = ClauseBroken, sentence(v.Text)
		return cl
	}
	if c.w.cfg.Protocol == ProtocolFailover {
		if auth := c.authorities(); len(auth) > 1 {
			cl.State = ClauseBroken
			cl.Text = fmt.Sprintf("%s all act as the authority, so each can make writes final that the others never see.", c.w.NameList(auth))
			if len(auth) == 2 {
				cl.Text = fmt.Sprintf("%s both act as the authority, so each can make writes final that the other never sees.", c.w.NameList(auth))
			}
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
		cl.Text = fmt.Sprintf("No two machines have recorded different entries at the same index; the longest history has %s.", plural(int(longest), "entry", "entries"))
	case top == 0:
		cl.Text = "Nothing is committed yet, so no machine has committed anything different."
	default:
		cl.Text = fmt.Sprintf("Every machine's committed entries fit one history of %s (%s has them all).", plural(int(top), "entry", "entries"), c.name(ref))
	}
	return cl
}

// converge: every machine eventually holds the same history.
func (c contract) converge() Clause {
	cl := Clause{ID: ClauseConverge, Title: "All build on one history"}
	if c.raft {
		return c.convergeRaft(cl)
	}
	n := c.w.cfg.Nodes
	same := true
	for i := 2; i <= n && same; i++ {
		same = c.sameLog(c.w.nodes[1].log.entries, c.w.nodes[i].log.entries)
	}
	if same {
		cl.State = ClauseHolding
		cl.Text = fmt.Sprintf("All %d machines hold the same %s.", n, plural(int(c.w.nodes[1].log.lastIndex()), "entry", "entries"))
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
		cl.State = ClauseNotYet
		cl.Text = fmt.Sprintf("%s still on the way; once delivered, all %d machines will hold the same %s.",
			plural(pending, "copy is", "copies are"), n, plural(len(future[1]), "entry", "entries"))
		return cl
	}
	cl.State = ClauseBroken
	for i := 1; i <= n; i++ {
		for j := 1; j <= n; j++ {
			a, b := future[i], future[j]
			if i == j || len(a) >= len(b) || !sameCommands(a, b[:len(a)]) {
				continue
			}
			// Machine i will hold a strict prefix of j's history.
			missing := b[len(a)]
			cl.Text = fmt.Sprintf("%s lacks %s (index %d at %s), and nothing will ever send it again.",
				c.name(NodeID(i)), missing, len(a)+1, c.name(NodeID(j)))
			if c.w.machines[i].status == StatusCrashed {
				cl.Text = fmt.Sprintf("%s is down and lacks %s (index %d at %s); nothing will send it again after a restart.",
					c.name(NodeID(i)), missing, len(a)+1, c.name(NodeID(j)))
			}
			return cl
		}
	}
	for i := 1; i <= n; i++ {
		for j := i + 1; j <= n; j++ {
			a, b := future[i], future[j]
			for k := 0; k < len(a) && k < len(b); k++ {
				if a[k] != b[k] {
					cl.Text = fmt.Sprintf("%s and %s hold different entries at index %d (%s and %s), and nothing will ever make them agree.",
						c.name(NodeID(i)), c.name(NodeID(j)), k+1, a[k], b[k])
					return cl
				}
			}
		}
	}
	cl.Text = "The machines' histories differ, and nothing will ever make them agree."
	return cl
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
		cl.State = ClauseHolding
		if top == 0 {
			cl.Text = "Nothing is committed yet, so no machine is behind."
		} else {
			cl.Text = fmt.Sprintf("All %d machines hold the same %s.", n, plural(int(top), "committed entry", "committed entries"))
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
	cl.State = ClauseNotYet
	has := c.w.nodes[worst].commit
	switch c.w.machines[worst].status {
	case StatusCrashed:
		cl.Text = fmt.Sprintf("%s is down, knowing %d of %d committed entries; it catches up after it restarts.", c.name(worst), has, top)
	case StatusPaused:
		cl.Text = fmt.Sprintf("%s is paused, knowing %d of %d committed entries; it catches up when it resumes.", c.name(worst), has, top)
	default:
		cl.Fact = FactBehind
		cl.Holds = c.holdsCommitted(worst, best, top)
		if cl.Holds {
			// Its log matches up to the last committed entry: only the
			// commit index has not reached it, and the leader's next
			// append or heartbeat carries that.
			cl.Text = holdsText(c.name(worst), has, top)
		} else {
			cl.Text = fmt.Sprintf("%s knows %d of %d committed entries; a leader will send it the rest.", c.name(worst), has, top)
		}
	}
	cl.Node, cl.Has, cl.Committed, cl.Behind = worst, has, top, len(behind)
	if len(behind) > 1 {
		cl.Text = strings.TrimSuffix(cl.Text, ".") + fmt.Sprintf(" (%s behind).", plural(len(behind), "machine is", "machines are"))
	}
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
	cl := Clause{ID: ClauseNoFork, Title: "History never forks for good"}
	fs := c.forks()
	if c.raft {
		if v, ok := c.firstViolation(RuleStateMachineSafety, RuleLogMatching); ok {
			cl.State, cl.Text = ClauseBroken, sentence(v.Text)
			return cl
		}
		for _, p := range fs {
			if p.index <= c.w.nodes[p.a].commit && p.index <= c.w.nodes[p.b].commit {
				cl.State = ClauseBroken
				cl.Text = fmt.Sprintf("%s and %s committed different entries at index %d.", c.name(p.a), c.name(p.b), p.index)
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
			extra := sn.log.lastIndex() - p.index + 1
			cl.State = ClauseNotYet
			verb := "differ"
			if extra == 1 {
				verb = "differs"
			}
			cl.Text = fmt.Sprintf("From index %d, %s holds %s of term %d that %s from %s's; none is committed, so Raft will keep only one branch.",
				p.index, c.name(stale), plural(int(extra), "entry", "entries"), sn.log.term(p.index), verb, c.name(other))
			cl.Fact, cl.Node, cl.Other = FactBranch, stale, other
			cl.Index, cl.Term, cl.Entries = p.index, sn.log.term(p.index), int(extra)
			return cl
		}
		cl.State = ClauseHolding
		cl.Text = "No two machines hold different entries at the same index."
		return cl
	}
	if len(fs) > 0 {
		p := fs[0]
		cl.State = ClauseBroken
		cl.Text = fmt.Sprintf("%s and %s hold different entries at index %d (%s and %s), and %s never reconciles them.",
			c.name(p.a), c.name(p.b), p.index, c.entryText(p.a, p.index), c.entryText(p.b, p.index), c.w.cfg.Protocol)
		return cl
	}
	if v, ok := c.firstViolation(RuleStateMachineSafety); ok {
		cl.State, cl.Text = ClauseBroken, sentence(v.Text)
		return cl
	}
	cl.State = ClauseHolding
	cl.Text = "No two machines hold different entries at the same index."
	return cl
}

// agreed: machines act only on history a majority has accepted.
func (c contract) agreed() Clause {
	cl := Clause{ID: ClauseAgreed, Title: "Decisions use shared history"}
	if v, ok := c.firstViolation(RuleMajority, RuleStaleRead); ok {
		cl.State, cl.Text = ClauseBroken, sentence(v.Text)
		return cl
	}
	applied := uint64(0)
	for i := 1; i <= c.w.cfg.Nodes; i++ {
		if a := c.w.nodes[i].applied; a > applied {
			applied = a
		}
	}
	cl.State = ClauseHolding
	if applied == 0 {
		cl.Text = "No machine has acted on any entry yet."
	} else {
		cl.Text = fmt.Sprintf("Every entry applied so far (%s) was held by a majority before any machine acted on it.", plural(int(applied), "entry", "entries"))
	}
	return cl
}

// agreement: agreement matters more than copying. Copies keep history from
// being lost; only agreement keeps the copies from contradicting each other.
// Under the naive protocols every machine copies what it can, and this is
// broken as soon as two copies say different things for good. conv is the
// converge clause, already judged.
func (c contract) agreement(conv Clause) Clause {
	cl := Clause{ID: ClauseAgreement, Title: "Agreement over copies"}
	n := c.w.cfg.Nodes
	stored := 0
	for i := 1; i <= n; i++ {
		stored += int(c.w.nodes[i].log.lastIndex())
	}
	copies := fmt.Sprintf("%s stored on %d machines", plural(stored, "entry is", "entries are"), n)
	if c.raft {
		if v, ok := c.firstViolation(RuleStateMachineSafety, RuleElectionSafety, RuleLogMatching, RuleLeaderCompleteness, RuleMajority); ok {
			cl.State, cl.Text = ClauseBroken, sentence(v.Text)
			return cl
		}
		_, top := c.maxCommit()
		cl.State = ClauseHolding
		switch {
		case stored == 0:
			cl.Text = "Nothing is stored yet. A copy will count only once a majority has agreed on it."
		case top == 0:
			cl.Text = fmt.Sprintf("%s, and none counts yet: no majority has agreed on any of them.", capitalFirst(copies))
		default:
			cl.Text = fmt.Sprintf("%s; only the first %d, which a majority agreed on, count as history.", capitalFirst(copies), top)
		}
		return cl
	}
	if fs := c.forks(); len(fs) > 0 {
		p := fs[0]
		cl.State = ClauseBroken
		cl.Text = fmt.Sprintf("%s, yet %s and %s contradict each other at index %d: %s copies without agreeing.",
			capitalFirst(copies), c.name(p.a), c.name(p.b), p.index, c.w.cfg.Protocol)
		return cl
	}
	if conv.State == ClauseBroken {
		cl.State = ClauseBroken
		cl.Text = fmt.Sprintf("%s, yet they will never all give the same answer: %s copies without agreeing.", capitalFirst(copies), c.w.cfg.Protocol)
		return cl
	}
	cl.State = ClauseHolding
	if stored == 0 {
		cl.Text = "Nothing is stored yet."
	} else {
		cl.Text = fmt.Sprintf("%s and none contradicts another yet; nothing but luck with the network keeps them alike.", capitalFirst(copies))
	}
	return cl
}

func capitalFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
