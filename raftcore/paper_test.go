package raftcore

// Tests of the rules of the Raft paper (Ongaro and Ousterhout, "In Search of
// an Understandable Consensus Algorithm", 2014): Figure 2 and section 5, and
// the extensions etcd runs on top (PreVote, CheckQuorum, ReadIndex and lease
// reads, from Ongaro's thesis). Each test names the sentence it checks.
//
// Worlds are driven through Apply, RunUntil and link cuts. Where a rule is
// about how a machine answers one particular message, deliverNow hands it
// that message directly and returns what it sent back.

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const msUs = 1000 // microseconds in a millisecond

// stepUntil handles events one at a time until cond holds, or until the
// next event is later than limitUs (the clock then moves to limitUs). It
// reports whether cond held.
func stepUntil(w *World, limitUs int64, cond func() bool) bool {
	for !cond() {
		if next, ok := w.NextEventAt(); !ok || next > limitUs {
			w.RunUntil(limitUs)
			return cond()
		}
		w.Step()
	}
	return true
}

// waitSettled steps until one machine leads, has committed its whole log,
// which ends in its own term, and every other running machine follows it and
// has applied the same commit index. It returns the leader.
func waitSettled(t testing.TB, w *World, withinMs int64) NodeID {
	t.Helper()
	var lead NodeID
	ok := stepUntil(w, w.Now()+withinMs*msUs, func() bool {
		ls := leaders(w)
		if len(ls) != 1 {
			return false
		}
		l := w.Node(ls[0])
		if l.Commit() != l.LastIndex() || l.TermAt(l.Commit()) != l.Term() {
			return false
		}
		for i := 1; i <= w.Size(); i++ {
			n := w.Node(NodeID(i))
			if w.Status(NodeID(i)) == StatusUp && (n.Applied() != l.Commit() || (n != l && n.Lead() != ls[0])) {
				return false
			}
		}
		lead = ls[0]
		return true
	})
	if !ok {
		t.Fatalf("no settled leader within %d ms (now %s)", withinMs, fmtMs(w.Now()))
	}
	return lead
}

// deliverNow hands m to machine m.To as if it had just arrived, and returns
// the messages the machine sent in answer (whether or not its links are up).
func deliverNow(w *World, m Message) []Message {
	before := w.capture(m.To)
	n := w.nodes[m.To]
	n.step(m)
	out := append([]Message(nil), n.msgs...)
	w.afterStep(m.To, before)
	return out
}

// only returns the single message in ms, failing otherwise.
func only(t testing.TB, ms []Message) Message {
	t.Helper()
	if len(ms) != 1 {
		t.Fatalf("want exactly one message in answer, got %+v", ms)
	}
	return ms[0]
}

func followerOf(w *World, lead NodeID) NodeID {
	for i := 1; i <= w.Size(); i++ {
		if NodeID(i) != lead {
			return NodeID(i)
		}
	}
	return None
}

// standing is a machine's role, term and known leader in one line, so that
// a failed comparison shows all three by name (testify prints a Role or a
// term on its own as a hex number).
func standing(role Role, term uint64, lead NodeID) string {
	return fmt.Sprintf("%v in term %d, leader %d", role, term, lead)
}

func standingOf(n *Node) string { return standing(n.Role(), n.Term(), n.Lead()) }

// brief is a message's type and term, and whether it refuses, in one line.
func brief(m Message) string {
	s := fmt.Sprintf("%v of term %d", m.Type, m.Term)
	if m.Reject {
		s += ", refusing"
	}
	return s
}

func sameLog(w *World, a, b NodeID) bool {
	na, nb := w.Node(a), w.Node(b)
	return na.LastIndex() == nb.LastIndex() && (na.LastIndex() == 0 || na.Entry(na.LastIndex()).Chain == nb.Entry(nb.LastIndex()).Chain)
}

func opOf(t testing.TB, w *World, id int) Op {
	t.Helper()
	op, ok := w.Op(id)
	if !ok {
		t.Fatalf("no operation %d", id)
	}
	return op
}

// newestOp is the id of the last client operation.
func newestOp(w *World) int { return len(w.Ops()) }

// TestElectionSafetyAndMajority checks Figure 3's Election Safety, "at most
// one leader can be elected in a given term", and §5.2, "a candidate wins an
// election if it receives votes from a majority of the servers in the full
// cluster for the same term", on clusters of 3, 5 and 7 with repeated forced
// timeouts. It also checks §5.1, "current terms ... increase monotonically".
func TestElectionSafetyAndMajority(t *testing.T) {
	seeds := int64(12)
	if testing.Short() {
		seeds = 4
	}
	for _, nodes := range []int{3, 5, 7} {
		for seed := int64(1); seed <= seeds; seed++ {
			w := newTestWorld(t, func(c *Config) { c.Nodes, c.Seed = nodes, seed })
			// Crash each new leader for a while, so that there are many
			// elections, some with a machine missing.
			r := NewRand(seed)
			for i := 0; i < 4; i++ {
				l := waitSettled(t, w, 10_000)
				mustApply(t, w, Action{Do: DoCrash, Node: int(l)})
				w.RunFor(int64(1000+r.Intn(2000)) * msUs)
				mustApply(t, w, Action{Do: DoRestart, Node: int(l)})
			}
			waitSettled(t, w, 10_000)

			leaderOf := map[uint64]NodeID{}
			votes := map[[2]uint64]int{} // (term, candidate) -> votes so far
			terms := make([]uint64, nodes+1)
			elections := 0
			for _, e := range w.Trace() {
				switch e.Kind {
				case TraceTerm:
					if e.Term < terms[e.Node] {
						t.Fatalf("%d nodes seed %d: n%d's term went from %d to %d", nodes, seed, e.Node, terms[e.Node], e.Term)
					}
					terms[e.Node] = e.Term
				case TraceVote:
					votes[[2]uint64{e.Term, uint64(e.Peer)}]++
				case TraceRole:
					if e.ToRole != RoleLeader {
						continue
					}
					elections++
					if prev, ok := leaderOf[e.Term]; ok && prev != e.Node {
						t.Fatalf("%d nodes seed %d: n%d and n%d both led term %d", nodes, seed, prev, e.Node, e.Term)
					}
					leaderOf[e.Term] = e.Node
					if got := votes[[2]uint64{e.Term, uint64(e.Node)}]; got < nodes/2+1 {
						t.Fatalf("%d nodes seed %d: n%d became leader of term %d with %d votes of %d", nodes, seed, e.Node, e.Term, got, nodes)
					}
				}
			}
			if elections < 5 {
				t.Fatalf("%d nodes seed %d: only %d elections after four leader crashes", nodes, seed, elections)
			}
			noViolations(t, w)
		}
	}
}

// TestRandomizedElectionTimeouts checks §5.2, "Raft uses randomized
// election timeouts ... chosen randomly from a fixed interval", with etcd's
// interval [E, 2E) ticks, drawn again for every election.
func TestRandomizedElectionTimeouts(t *testing.T) {
	const E = 10
	w := newTestWorld(t, func(c *Config) { c.Nodes, c.PreVote, c.CheckQuorum, c.ElectionTicks = 3, false, false, E })
	// Alone, no candidate can win, so every forced timeout starts a new
	// election with a fresh draw.
	mustApply(t, w, Action{Do: DoPartition, Groups: [][]int{{1}, {2}, {3}}})
	seen := make([]int, 2*E)
	last := make([]int, 4)
	changed, draws := 0, 0
	for i := 0; i < 300; i++ {
		id := NodeID(1 + i%3)
		mustApply(t, w, Action{Do: DoTimeout, Node: int(id)})
		if w.Node(id).Role() != RoleCandidate {
			t.Fatalf("n%d is %s after a forced timeout", id, w.Node(id).Role())
		}
		_, timeout := w.Node(id).ElectionTimer()
		if timeout < E || timeout >= 2*E {
			t.Fatalf("drawn timeout %d ticks is outside [%d, %d)", timeout, E, 2*E)
		}
		seen[timeout]++
		if last[id] != 0 {
			draws++
			if timeout != last[id] {
				changed++
			}
		}
		last[id] = timeout
		w.RunFor(7 * msUs)
	}
	for v := E; v < 2*E; v++ {
		if seen[v] == 0 {
			t.Errorf("timeout %d ticks never drawn in 300 elections: %v", v, seen[E:])
		}
	}
	// Independent draws from ten values repeat one time in ten.
	if changed*10 < draws*7 {
		t.Errorf("a machine's timeout changed in only %d of %d consecutive elections", changed, draws)
	}

	// The timer really fires at the drawn timeout. A machine's first tick
	// comes within one tick of the start (clocks start at random phases),
	// so in a fresh cluster the first election starts after E-1 to 2E
	// ticks.
	for seed := int64(1); seed <= 20; seed++ {
		w := newTestWorld(t, func(c *Config) { c.Seed = seed })
		stepUntil(w, 5_000*msUs, func() bool {
			for i := 1; i <= w.Size(); i++ {
				if w.Node(NodeID(i)).Role() != RoleFollower {
					return true
				}
			}
			return false
		})
		tick := int64(w.Config().TickMs) * msUs
		if now := w.Now(); now < (E-1)*tick || now > 2*E*tick {
			t.Errorf("seed %d: first election at %s, outside [%d, %d] ms", seed, fmtMs(now), (E-1)*tick/msUs, 2*E*tick/msUs)
		}
	}
}

// TestTermRules checks §5.1: "If one server's current term is smaller than
// the other's, then it updates its current term to the larger value. If a
// candidate or leader discovers that its term is out of date, it immediately
// reverts to follower state. If a server receives a request with a stale
// term number, it rejects the request." And §5.2: a candidate that hears an
// append "from a leader whose term is at least as large as the candidate's
// current term ... returns to follower state".
func TestTermRules(t *testing.T) {
	w := newTestWorld(t, func(c *Config) { c.Nodes = 3 })
	l := waitSettled(t, w, 5_000)
	f := followerOf(w, l)
	other := NodeID(6) - l - f // the third machine of 1, 2, 3
	term := w.Node(l).Term()

	// A follower hearing a heartbeat of a higher term adopts the term and
	// the sender as its leader.
	c := w.Clone()
	resp := only(t, deliverNow(c, Message{Type: MsgHeartbeat, From: other, To: f, Term: term + 3}))
	assert.Equal(t, standing(RoleFollower, term+3, other), standingOf(c.Node(f)), "a follower after a heartbeat of term %d", term+3)
	assert.Equal(t, brief(Message{Type: MsgHeartbeatResp, Term: term + 3}), brief(resp), "its answer to the heartbeat")
	// A leader that learns of a higher term from an answer steps down.
	c = w.Clone()
	deliverNow(c, Message{Type: MsgAppResp, From: f, To: l, Term: term + 1, Index: 1})
	assert.Equal(t, standing(RoleFollower, term+1, None), standingOf(c.Node(l)), "a leader after an answer of term %d", term+1)
	// A stale append is refused: the log is untouched, and (with
	// CheckQuorum or PreVote, as etcd does) the answer carries the newer
	// term so that the stale leader steps down.
	c = w.Clone()
	deliverNow(c, Message{Type: MsgHeartbeat, From: other, To: f, Term: term + 3})
	lastBefore, logBefore := c.Node(f).LastIndex(), logTerms(c.Node(f))
	stale := Message{Type: MsgApp, From: l, To: f, Term: term, Index: lastBefore, LogTerm: c.Node(f).LastTerm(),
		Entries: []Entry{{Index: lastBefore + 1, Term: term, Data: Command{Kind: OpPut, Key: "x", Value: "stale"}}}}
	resp = only(t, deliverNow(c, stale))
	assert.Equal(t, brief(Message{Type: MsgAppResp, Term: term + 3}), brief(resp), "the answer to a stale append")
	assert.Equal(t, logBefore, logTerms(c.Node(f)), "the follower's log (terms) after a stale append")
	assert.Equal(t, standing(RoleFollower, term+3, other), standingOf(c.Node(f)), "the follower after a stale append")
	// Without CheckQuorum and PreVote, the paper's plain rule: ignored.
	plain := newTestWorld(t, func(c *Config) { c.Nodes, c.PreVote, c.CheckQuorum = 3, false, false })
	pl := waitSettled(t, plain, 5_000)
	pf := followerOf(plain, pl)
	pterm := plain.Node(pl).Term()
	deliverNow(plain, Message{Type: MsgHeartbeat, From: NodeID(6) - pl - pf, To: pf, Term: pterm + 3})
	stale.From, stale.To, stale.Term, stale.Index, stale.LogTerm = pl, pf, pterm, plain.Node(pf).LastIndex(), plain.Node(pf).LastTerm()
	assert.Empty(t, deliverNow(plain, stale), "without CheckQuorum or PreVote a stale append gets no answer")

	// A candidate hearing an append or heartbeat from a leader of its own
	// term becomes its follower.
	isolate(t, plain, pf)
	mustApply(t, plain, Action{Do: DoTimeout, Node: int(pf)})
	cterm := plain.Node(pf).Term()
	require.Equal(t, standing(RoleCandidate, cterm, None), standingOf(plain.Node(pf)), "n%d after a timeout", pf)
	deliverNow(plain, Message{Type: MsgHeartbeat, From: pl, To: pf, Term: cterm})
	assert.Equal(t, standing(RoleFollower, cterm, pl), standingOf(plain.Node(pf)), "a candidate after a heartbeat of its term")
}

// TestVoteOncePerTerm checks §5.2: "Each server will vote for at most one
// candidate in a given term, on a first-come-first-served basis." A repeated
// request from the candidate it voted for is granted again (a lost answer
// may be retried); a new term frees the vote. The broken variant grants two.
func TestVoteOncePerTerm(t *testing.T) {
	for _, bug := range []Bug{0, BugVoteTwice} {
		w := newTestWorld(t, func(c *Config) { c.Nodes, c.Bugs = 3, bug })
		ask := func(from NodeID, term uint64) bool {
			resp := only(t, deliverNow(w, Message{Type: MsgVote, From: from, To: 3, Term: term}))
			if resp.Type != MsgVoteResp {
				t.Fatalf("answer to a vote request is %s", resp.Type)
			}
			return !resp.Reject
		}
		got := []bool{ask(1, 1), ask(2, 1), ask(1, 1), ask(2, 2)}
		want := []bool{true, false, true, true}
		if bug != 0 {
			want[1] = true
		}
		assert.Equal(t, want, got, "bugs %d: votes granted to (n1, term 1), (n2, term 1), (n1, term 1), (n2, term 2)", bug)
		if bug != 0 && w.ViolationCount(RuleOneVote) == 0 {
			t.Errorf("the checker missed the second vote in term 1")
		}
	}

	// In randomized runs no machine ever votes for two candidates in a term.
	runs := int64(30)
	if testing.Short() {
		runs = 6
	}
	for seed := int64(1); seed <= runs; seed++ {
		w := RandomRun(seed, RandomOptions{UntilMs: 15_000})
		voted := map[[2]uint64]NodeID{}
		for _, e := range w.Trace() {
			if e.Kind != TraceVote {
				continue
			}
			k := [2]uint64{uint64(e.Node), e.Term}
			if prev, ok := voted[k]; ok && prev != e.Peer {
				failWithSchedule(t, w, fmt.Sprintf("n%d voted for n%d and n%d in term %d", e.Node, prev, e.Peer, e.Term))
			}
			voted[k] = e.Peer
		}
	}
}

// TestElectionRestriction checks §5.4.1: "the voter denies its vote if its
// own log is more up-to-date than that of the candidate. ... If the logs
// have last entries with different terms, then the log with the later term
// is more up-to-date. If the logs end with the same term, then whichever log
// is longer is more up-to-date."
func TestElectionRestriction(t *testing.T) {
	build := func(bug Bug) *World {
		w := newTestWorld(t, func(c *Config) { c.Nodes, c.PreVote, c.CheckQuorum, c.Bugs = 3, false, false, bug })
		mustApply(t, w, Action{Do: DoTimeout, Node: 1})
		waitSettled(t, w, 1_000)
		mustApply(t, w, Action{Do: DoTimeout, Node: 2})
		waitSettled(t, w, 1_000)
		mustApply(t, w, Action{Do: DoWrite, Node: 2, Key: "x", Value: "1"})
		waitSettled(t, w, 1_000)
		return w
	}
	w := build(0)
	if got := logTerms(w.Node(3)); got != "1 2x2" {
		t.Fatalf("voter's log is [%s], want [1 2x2]", got)
	}
	cases := []struct {
		lastIndex, lastTerm uint64
		grant               bool
		why                 string
	}{
		{1, 3, true, "a later last term wins even with a shorter log"},
		{3, 2, true, "same last term, same length"},
		{4, 2, true, "same last term, longer log"},
		{2, 2, false, "same last term, shorter log"},
		{10, 1, false, "an earlier last term loses even with a longer log"},
	}
	for _, bug := range []Bug{0, BugSkipUpToDate} {
		w := build(bug)
		for _, tc := range cases {
			c := w.Clone()
			resp := only(t, deliverNow(c, Message{Type: MsgVote, From: 1, To: 3, Term: c.Node(3).Term() + 1, Index: tc.lastIndex, LogTerm: tc.lastTerm}))
			want := tc.grant || bug != 0
			if !resp.Reject != want {
				t.Errorf("bugs %d, candidate log ends (index %d, term %d): granted %v, want %v (%s)", bug, tc.lastIndex, tc.lastTerm, !resp.Reject, want, tc.why)
			}
		}
	}

	// In leader-crash.txt, x=a is on n2 and n3 only when the leader
	// crashes. Timeouts forced on n4 and n5 once the others' lease has run
	// out cannot make either leader; without the restriction n4 wins and
	// x=a is gone.
	s := loadScript(t, "leader-crash.txt")
	for _, bug := range []Bug{0, BugSkipUpToDate} {
		cfg := s.cfg
		cfg.Bugs = bug
		w, _ := s.run(t, cfg, 3_150)
		mustApply(t, w, Action{Do: DoTimeout, Node: 4})
		mustApply(t, w, Action{Do: DoTimeout, Node: 5})
		lead := waitSettled(t, w, 2_000)
		hasX := w.Node(lead).LastIndex() >= 2 && w.Node(lead).Entry(2).Data.Key == "x"
		if bug == 0 && (lead == 4 || lead == 5 || !hasX) {
			t.Errorf("n%d won with log [%s]; only n2 or n3, which hold x=a, may win", lead, logTerms(w.Node(lead)))
		}
		if bug != 0 && lead != 4 && lead != 5 {
			t.Errorf("without the restriction n4 or n5 should win here; n%d did", lead)
		}
	}
}

// TestAppendConsistencyCheck checks §5.3: "When sending an AppendEntries
// RPC, the leader includes the index and term of the entry in its log that
// immediately precedes the new entries. If the follower does not find an
// entry in its log with the same index and term, then it refuses the new
// entries." And Figure 2's receiver rules 3 to 5: a conflicting entry and
// all that follow it are deleted; entries already present are kept; the
// commit index becomes min(leaderCommit, index of last new entry).
func TestAppendConsistencyCheck(t *testing.T) {
	s := loadScript(t, "log-conflict.txt")
	// Just before the heal, n1 holds [1 1 1] (its two lost writes) and n3
	// leads term 2 with [1 2 2].
	w, _ := s.run(t, s.cfg, 5_900)
	if logTerms(w.Node(1)) != "1x3" || logTerms(w.Node(3)) != "1 2x2" || w.Node(3).Role() != RoleLeader {
		t.Fatalf("setup: n1 [%s], n3 %s [%s]", logTerms(w.Node(1)), w.Node(3).Role(), logTerms(w.Node(3)))
	}
	term := w.Node(3).Term()
	app := func(c *World, prev, prevTerm, commit uint64, ents []Entry) Message {
		return only(t, deliverNow(c, Message{Type: MsgApp, From: 3, To: 1, Term: term, Index: prev, LogTerm: prevTerm, Commit: commit, Entries: ents}))
	}
	chain := w.Node(1).Entry(3).Chain

	for _, prev := range []uint64{3, 5} {
		c := w.Clone()
		r := app(c, prev, 2, 0, nil)
		if !r.Reject || r.Index != prev || r.RejectHint != 3 || r.LogTerm != 1 {
			t.Errorf("append after (%d, term 2): want a rejection hinting (3, term 1), got %+v", prev, r)
		}
		if n := c.Node(1); n.LastIndex() != 3 || n.Entry(3).Chain != chain {
			t.Errorf("a refused append changed the log to [%s]", logTerms(n))
		}
	}

	c := w.Clone()
	before := c.TraceCount()
	r := app(c, 1, 1, 0, w.Node(3).Entries(2, 3))
	if r.Reject || r.Index != 3 || !sameLog(c, 1, 3) {
		t.Fatalf("matching append: answer %+v, log [%s]", r, logTerms(c.Node(1)))
	}
	truncated := false
	for _, e := range c.Trace() {
		if e.Seq > before && e.Kind == TraceTruncate && e.Node == 1 && e.Index == 2 {
			truncated = true
		}
	}
	if !truncated {
		t.Errorf("no truncation from index 2 traced")
	}
	// A delayed copy of an older append matches what is there: nothing
	// after it is removed.
	r = app(c, 1, 1, 0, w.Node(3).Entries(2, 2))
	if r.Reject || r.Index != 2 || !sameLog(c, 1, 3) {
		t.Errorf("delayed older append: answer %+v, log [%s]", r, logTerms(c.Node(1)))
	}

	// The commit index moves to min(leaderCommit, last new entry).
	c = w.Clone()
	app(c, 1, 1, 3, w.Node(3).Entries(2, 2))
	if got := c.Node(1).Commit(); got != 2 {
		t.Errorf("leader commit 3, last new entry 2: follower commit %d, want 2", got)
	}
}

// TestConflictRepairAfterHeal checks §5.3 at the world level: "the leader
// handles inconsistencies by forcing the followers' logs to duplicate its
// own", and the entries so replaced were never committed or applied.
func TestConflictRepairAfterHeal(t *testing.T) {
	s := loadScript(t, "log-conflict.txt")
	w, _ := s.run(t, s.cfg, 0)
	lead := waitSettled(t, w, 1_000)
	for i := 1; i <= w.Size(); i++ {
		if !sameLog(w, NodeID(i), lead) {
			t.Errorf("n%d's log [%s] differs from leader n%d's [%s]", i, logTerms(w.Node(NodeID(i))), lead, logTerms(w.Node(lead)))
		}
	}
	for _, id := range []int{1, 2} {
		if op := opOf(t, w, id); op.Result != OpTimeout {
			t.Errorf("lost write op%d: %s, want timeout", id, op.Result)
		}
	}
	for _, e := range w.Trace() {
		if e.Kind == TraceApply && (e.Op == 1 || e.Op == 2) {
			t.Errorf("n%d applied the lost write op%d", e.Node, e.Op)
		}
	}
	noViolations(t, w)
}

// loneLeaderRound makes x the leader of a new term, elected by a majority,
// whose entries reach nobody: its outgoing links are cut the moment it wins;
// it takes writes, and crashes. This is how a follower of the paper's
// Figure 7 ends up with entries of several terms that no one else has.
func loneLeaderRound(t *testing.T, w *World, x NodeID, writes int) {
	t.Helper()
	if w.Status(x) == StatusCrashed {
		mustApply(t, w, Action{Do: DoRestart, Node: int(x)})
	}
	for j := 1; j <= w.Size(); j++ {
		if NodeID(j) != x {
			mustApply(t, w, Action{Do: DoRestore, From: int(x), To: j, OneWay: true})
		}
	}
	won := false
	for try := 0; try < 4 && !won; try++ {
		mustApply(t, w, Action{Do: DoTimeout, Node: int(x)})
		stepUntil(w, w.Now()+200*msUs, func() bool { return w.Node(x).Role() != RoleCandidate })
		won = w.Node(x).Role() == RoleLeader
	}
	if !won {
		t.Fatalf("n%d did not win an election", x)
	}
	for j := 1; j <= w.Size(); j++ {
		if NodeID(j) != x {
			mustApply(t, w, Action{Do: DoCut, From: int(x), To: j, OneWay: true})
		}
	}
	for i := 0; i < writes; i++ {
		mustApply(t, w, Action{Do: DoWrite, Node: int(x), Key: "k", Value: fmt.Sprintf("n%d-t%d-%d", x, w.Node(x).Term(), i)})
	}
	mustApply(t, w, Action{Do: DoCrash, Node: int(x)})
}

// probeRejections builds two divergent logs and counts how many appends the
// leader's probes to the follower are refused before one matches. n5 and
// n4 take turns as lone leaders, k times each, with `writes` entries per
// term: n5's log ends up with terms 2, 4, ..., 2k and n4's with 3, 5, ...,
// 2k+1 over the same indexes. n4 is then elected and repairs n5.
func probeRejections(t *testing.T, k, writes int) (rejected int, divergent uint64) {
	// No snapshots: once more than SnapshotCount entries are applied the
	// leader compacts its log, and a follower diverging below the
	// compaction point is sent the snapshot instead of being probed
	// (TestFollowerBehindCompactionGetsSnapshot).
	w := newTestWorld(t, func(c *Config) { c.PreVote, c.CheckQuorum, c.SnapshotCount = false, false, 0 })
	mustApply(t, w, Action{Do: DoTimeout, Node: 1})
	waitSettled(t, w, 1_000)
	for i := 0; i < k; i++ {
		loneLeaderRound(t, w, 5, writes)
		loneLeaderRound(t, w, 4, writes)
	}
	divergent = w.Node(5).LastIndex() - 1
	mustApply(t, w, Action{Do: DoRestart, Node: 4})
	for j := 1; j <= 5; j++ {
		if j != 4 {
			mustApply(t, w, Action{Do: DoRestore, From: 4, To: j, OneWay: true})
		}
	}
	mustApply(t, w, Action{Do: DoTimeout, Node: 4})
	if !stepUntil(w, w.Now()+500*msUs, func() bool { return sameLog(w, 1, 4) && sameLog(w, 2, 4) && sameLog(w, 3, 4) }) {
		t.Fatalf("n4 (%s) did not repair n1 to n3", w.Node(4).Role())
	}
	mustApply(t, w, Action{Do: DoRestart, Node: 5})
	mustApply(t, w, Action{Do: DoHeal})
	seen := map[uint64]bool{}
	refusedAt := map[uint64]bool{}
	repaired := stepUntil(w, w.Now()+2_000*msUs, func() bool {
		for _, m := range w.InFlight() {
			if m.From == 5 && m.To == 4 && m.Type == MsgAppResp && m.Reject && !seen[m.ID] {
				seen[m.ID] = true
				refusedAt[m.Index] = true
			}
		}
		return sameLog(w, 4, 5)
	})
	if !repaired {
		t.Fatalf("n5 not repaired: n4 [%s], n5 [%s]", logTerms(w.Node(4)), logTerms(w.Node(5)))
	}
	noViolations(t, w)
	return len(refusedAt), divergent
}

// TestFastBacktrackingByTerm checks the optimization at the end of §5.3, as
// etcd implements it with a rejection hint: "the follower can include the
// term of the conflicting entry and the first index it stores for that term.
// With this information, the leader can decrement nextIndex to bypass all of
// the conflicting entries in that term; one AppendEntries RPC will be
// required for each term with conflicting entries, rather than one RPC per
// entry." The probes refused grow with the number of divergent terms and
// not at all with the number of entries.
func TestFastBacktrackingByTerm(t *testing.T) {
	cases := []struct{ k, writes int }{{2, 4}, {2, 30}, {4, 4}, {4, 30}}
	for _, tc := range cases {
		rejected, divergent := probeRejections(t, tc.k, tc.writes)
		t.Logf("%d divergent terms per side, %d entries on the follower: %d probes refused", tc.k, divergent, rejected)
		// Each refusal skips one of the leader's terms: k refusals, then
		// the probe after the common entry matches.
		if rejected != tc.k {
			t.Errorf("%d divergent terms, %d divergent entries: %d probes refused, want %d", tc.k, divergent, rejected, tc.k)
		}
		if want := uint64(tc.k * (tc.writes + 1)); divergent != want {
			t.Errorf("setup: %d divergent entries, want %d", divergent, want)
		}
	}
}

// TestCommitOnlyCurrentTerm checks §5.4.2 on the paper's Figure 8 (the
// script testdata/figure8.txt): "Raft never commits log entries from
// previous terms by counting replicas. Only log entries from the leader's
// current term are committed by counting replicas."
func TestCommitOnlyCurrentTerm(t *testing.T) {
	s := loadScript(t, "figure8.txt")
	w, _ := s.run(t, s.cfg, 814)
	n1 := w.Node(1)
	if n1.Role() != RoleLeader || n1.Term() != 3 {
		t.Fatalf("setup: n1 is %s of term %d, want leader of term 3", n1.Role(), n1.Term())
	}
	for _, id := range []NodeID{1, 2, 3} {
		if n := w.Node(id); n.LastIndex() < 2 || n.TermAt(2) != 1 || n.Entry(2).Data.Key != "x" {
			t.Fatalf("setup: n%d lacks x=a (term 1) at index 2: [%s]", id, logTerms(n))
		}
	}
	if n1.Commit() >= 2 {
		t.Fatalf("n1 committed index 2, an entry of term 1, by counting replicas (commit %d)", n1.Commit())
	}
	s.play(t, w, 814, s.untilMs)
	for i := 1; i <= w.Size(); i++ {
		n := w.Node(NodeID(i))
		if n.TermAt(2) != 2 {
			t.Errorf("n%d: index 2 has term %d, want n5's entry of term 2", i, n.TermAt(2))
		}
		if _, ok := n.KV().Get("x"); ok {
			t.Errorf("n%d applied x=a, which was never committed", i)
		}
	}
	noViolations(t, w)
}

// TestFigure8CommitOldTermIsUnsafe runs the same script with the broken rule
// (commit an entry of an earlier term once it is on a majority): n1 commits
// and applies x=a, then n5 is elected and replaces it, so a committed entry
// is lost, and the checker says so.
func TestFigure8CommitOldTermIsUnsafe(t *testing.T) {
	s := loadScript(t, "figure8.txt")
	cfg := s.cfg
	cfg.Bugs = BugCommitOldTerm
	w, _ := s.run(t, cfg, 814)
	n1 := w.Node(1)
	if v, ok := n1.KV().Get("x"); n1.Commit() < 2 || !ok || v.Value != "a" {
		t.Fatalf("with the bug n1 should have committed and applied x=a: commit %d, x=%q", n1.Commit(), v.Value)
	}
	if w.ViolationCount(RuleCommitCurrentTerm) == 0 {
		t.Errorf("the checker did not flag the commit of an entry of an earlier term")
	}
	s.play(t, w, 814, s.untilMs)
	// n5's majority committed its own entry at index 2, while n2, which
	// had learned from n1 that x=a was committed, refuses to give it up:
	// the cluster has forked for good.
	for i := 3; i <= w.Size(); i++ {
		if n := w.Node(NodeID(i)); n.TermAt(2) != 2 || n.Commit() < 2 {
			t.Errorf("n%d: index 2 term %d commit %d; want n5's term 2 entry committed", i, n.TermAt(2), n.Commit())
		}
	}
	if n2 := w.Node(2); n2.TermAt(2) != 1 || n2.Commit() < 2 {
		t.Errorf("n2: index 2 term %d commit %d; want x=a still committed there", n2.TermAt(2), n2.Commit())
	}
	if w.ViolationCount(RuleStateMachineSafety) == 0 {
		t.Errorf("a committed entry was replaced, but the checker reported %+v", w.Violations())
	}
}

// observeReplay replays a schedule event by event, calling f after every
// event and action, and checks that the replay matches the original run.
func observeReplay(t *testing.T, orig *World, f func(w *World)) {
	t.Helper()
	s := orig.Schedule()
	w := MustWorld(s.Config())
	for _, a := range s.Actions {
		at := a.AtUs()
		for w.Processed() < a.AfterEvents {
			if next, ok := w.NextEventAt(); !ok || next > at {
				break
			}
			w.Step()
			f(w)
		}
		if at > w.now {
			w.now = at
		}
		mustApply(t, w, a)
		f(w)
	}
	stepUntil(w, msToUs(s.UntilMs), func() bool { f(w); return false })
	if w.TraceHash() != orig.TraceHash() {
		t.Fatalf("seed %d: the replay differs from the run", orig.Config().Seed)
	}
}

// TestNewLeaderAppendsEmptyEntry checks §8: "Raft handles this by having
// each leader commit a blank no-op entry into the log at the start of its
// term" (etcd appends it on becoming leader), and §5.4.2's consequence: an
// entry of an earlier term commits only together with an entry of the
// leader's term.
func TestNewLeaderAppendsEmptyEntry(t *testing.T) {
	runs := int64(10)
	if testing.Short() {
		runs = 3
	}
	for seed := int64(1); seed <= runs; seed++ {
		orig := RandomRun(seed, RandomOptions{UntilMs: 10_000})
		led := make([]uint64, orig.Size()+1) // term each machine last led
		elections := 0
		observeReplay(t, orig, func(w *World) {
			for i := 1; i <= w.Size(); i++ {
				n := w.Node(NodeID(i))
				if n.Role() != RoleLeader || w.Status(NodeID(i)) == StatusCrashed || led[i] == n.Term() {
					continue
				}
				led[i] = n.Term()
				elections++
				var first Entry
				for j := n.LastIndex(); j >= 1 && n.TermAt(j) == n.Term(); j-- {
					first = n.Entry(j)
				}
				if first.Term != n.Term() || first.Data.Kind != OpNoop {
					t.Fatalf("seed %d: n%d leads term %d; the first entry of its term is %+v, want an empty entry", seed, i, n.Term(), first)
				}
			}
		})
		if elections == 0 {
			t.Fatalf("seed %d: no election observed", seed)
		}
	}

	// In leader-crash.txt, x=a (term 1) is on n2 and n3 when n1 crashes.
	// The new leader's first commit takes its own empty entry with it.
	s := loadScript(t, "leader-crash.txt")
	w, _ := s.run(t, s.cfg, 0)
	var lead NodeID
	var term uint64
	for _, e := range w.Trace() {
		switch {
		case e.Kind == TraceRole && e.Node != 1 && e.ToRole == RoleLeader:
			lead, term = e.Node, e.Term
		case e.Kind == TraceCommit && e.Node == lead && lead != None:
			n := w.Node(lead)
			if n.TermAt(e.Index) != term || n.TermAt(2) != 1 || n.Entry(2).Data.Key != "x" {
				t.Errorf("leader n%d of term %d first committed index %d (term %d); log [%s]", lead, term, e.Index, n.TermAt(e.Index), logTerms(n))
			}
			lead = None
		}
	}
	if term == 0 || lead != None {
		t.Errorf("no new leader committed anything in leader-crash.txt")
	}
}

// TestProposalForwarding checks etcd's version of §8's "If a client
// contacts a follower, the follower redirects it to the leader": the
// follower forwards the proposal to the leader, and answers its client once
// it has applied the entry. Without a known leader it refuses.
func TestProposalForwarding(t *testing.T) {
	w := newTestWorld(t, nil)
	mustApply(t, w, Action{Do: DoWrite, Node: 1, Key: "x", Value: "early"})
	if op := opOf(t, w, 1); op.Result != OpRefused || op.Refusal != RefusedNoLeader || op.Reason != RefusedNoLeader.String() {
		t.Errorf("write before any election: %s %v %q, want refused: %v", op.Result, op.Refusal, op.Reason, RefusedNoLeader)
	}
	l := waitSettled(t, w, 5_000)
	f := followerOf(w, l)
	mustApply(t, w, Action{Do: DoWrite, Node: int(f), Key: "x", Value: "1"})
	forwarded := false
	for _, m := range w.InFlight() {
		if m.Type == MsgProp && m.From == f && m.To == l && m.Entries[0].Data.Value == "1" {
			forwarded = true
		}
	}
	if !forwarded {
		t.Fatalf("no proposal from n%d to leader n%d in flight: %+v", f, l, w.InFlight())
	}
	id := newestOp(w)
	stepUntil(w, w.Now()+2_000*msUs, func() bool { return opOf(t, w, id).Done() })
	op := opOf(t, w, id)
	if op.Result != OpOK || w.Node(l).Entry(op.Index).Data.OpID != id {
		t.Fatalf("forwarded write: %+v", op)
	}
	if w.Node(f).Applied() < op.Index {
		t.Errorf("n%d answered before applying index %d", f, op.Index)
	}
	noViolations(t, w)
}

// TestRestartKeepsPersistentState checks Figure 2's split of state as etcd
// draws it: "Persistent state on all servers: currentTerm, votedFor, log[]"
// survives a crash, and so does the commit index, which etcd keeps in its
// HardState; lastApplied and the role do not. The state machine is rebuilt
// at once by re-applying the log up to the commit index.
func TestRestartKeepsPersistentState(t *testing.T) {
	w := newTestWorld(t, nil)
	l := waitSettled(t, w, 5_000)
	for i := 0; i < 3; i++ {
		mustApply(t, w, Action{Do: DoWrite, Node: int(l), Key: fmt.Sprintf("k%d", i), Value: "v"})
	}
	waitSettled(t, w, 2_000)
	n := w.Node(l)
	term, vote, log, commit := n.Term(), n.Vote(), n.Entries(1, n.LastIndex()), n.Commit()
	digest := n.KV().Digest()
	mustApply(t, w, Action{Do: DoCrash, Node: int(l)})
	mustApply(t, w, Action{Do: DoRestart, Node: int(l)})
	restartedAt := w.Now()
	n = w.Node(l)
	if n.Term() != term || n.Vote() != vote || n.Commit() != commit || fmt.Sprint(n.Entries(1, n.LastIndex())) != fmt.Sprint(log) {
		t.Errorf("persistent state lost: term %d->%d, vote %d->%d, commit %d->%d, log %d entries -> %d", term, n.Term(), vote, n.Vote(), commit, n.Commit(), len(log), n.LastIndex())
	}
	if n.Role() != RoleFollower || n.Lead() != None {
		t.Errorf("volatile state kept: %s lead %d", n.Role(), n.Lead())
	}
	if n.Applied() != commit || n.KV().Digest() != digest {
		t.Errorf("state machine not replayed to the commit index on restart: applied %d of %d, digest %x want %x", n.Applied(), commit, n.KV().Digest(), digest)
	}
	waitSettled(t, w, 5_000)
	if n.Applied() < uint64(len(log)) {
		t.Errorf("state not caught up: applied %d of %d", n.Applied(), len(log))
	}
	reapplied := false
	for _, e := range w.Trace() {
		if e.AtUs >= restartedAt && e.Kind == TraceApply && e.Node == l && e.Index == 1 {
			reapplied = true
		}
	}
	if !reapplied {
		t.Errorf("n%d did not apply index 1 again after restarting", l)
	}
	noViolations(t, w)
}

// TestPreVoteRejoin checks PreVote (§9.6 of Ongaro's thesis): a machine
// cut off from the cluster "would first ask the other servers whether its
// log is up-to-date enough to get their vote", so its term does not grow
// while it is alone, and when it rejoins the leader keeps leading. The same
// script with PreVote off shows the disruption.
func TestPreVoteRejoin(t *testing.T) {
	for _, file := range []string{"prevote-rejoin.txt", "no-prevote-rejoin.txt"} {
		s := loadScript(t, file)
		w, _ := s.run(t, s.cfg, 1_999)
		lead := waitSettled(t, w, 1)
		term := w.Node(lead).Term()
		s.play(t, w, 1_999, 7_999)
		n5 := w.Node(5)
		if s.cfg.PreVote && (n5.Term() != term || n5.Role() != RolePreCandidate) {
			t.Errorf("%s: alone, n5 is %s of term %d; want a pre-candidate still in term %d", file, n5.Role(), n5.Term(), term)
		}
		if !s.cfg.PreVote && n5.Term() < term+3 {
			t.Errorf("%s: alone, n5 reached only term %d (leader's term %d)", file, n5.Term(), term)
		}
		healAt := w.Now()
		s.play(t, w, 7_999, s.untilMs)
		disrupted := false
		for _, e := range w.Trace() {
			if e.AtUs > healAt && e.Kind == TraceRole && e.Node == lead {
				disrupted = true
			}
		}
		if s.cfg.PreVote {
			if disrupted || w.Node(lead).Role() != RoleLeader || w.Node(lead).Term() != term || n5.Lead() != lead {
				t.Errorf("%s: after healing n%d is %s of term %d (was leader of %d); n5 follows %d", file, lead, w.Node(lead).Role(), w.Node(lead).Term(), term, n5.Lead())
			}
		} else if !disrupted {
			t.Errorf("%s: without PreVote the rejoining machine should unseat the leader", file)
		}
		noViolations(t, w)
	}
}

// TestCheckQuorumStepDown checks CheckQuorum (§6.2 of Ongaro's thesis, "a
// leader steps down if an election timeout elapses without a successful
// round of heartbeats to a majority of its cluster"). etcd checks once per
// election timeout whether a majority was heard since the last check, so a
// leader cut off alone steps down within two election timeouts. Without
// CheckQuorum it never does.
func TestCheckQuorumStepDown(t *testing.T) {
	seeds := int64(10)
	if testing.Short() {
		seeds = 3
	}
	for seed := int64(1); seed <= seeds; seed++ {
		for _, cq := range []bool{true, false} {
			w := newTestWorld(t, func(c *Config) { c.Seed, c.CheckQuorum = seed, cq })
			l := waitSettled(t, w, 5_000)
			r := NewRand(seed)
			w.RunFor(int64(r.Intn(1000)) * msUs) // vary the phase of the cut
			cut := w.Now()
			isolate(t, w, l)
			e := int64(w.Config().ElectionTicks*w.Config().TickMs) * msUs
			stepped := stepUntil(w, cut+5*e, func() bool { return w.Node(l).Role() != RoleLeader })
			took := w.Now() - cut
			if cq {
				// Meanwhile the others elect a leader of a newer term.
				newer := stepUntil(w, cut+5*e, func() bool {
					for _, id := range leaders(w) {
						if id != l && w.Node(id).Term() > w.Node(l).Term() {
							return true
						}
					}
					return false
				})
				if !newer {
					t.Errorf("seed %d: the majority elected no new leader", seed)
				}
			}
			switch {
			case cq && !stepped:
				t.Errorf("seed %d: n%d still leads %s after being cut off", seed, l, fmtMs(5*e))
			case cq && took > 2*e:
				t.Errorf("seed %d: n%d stepped down %s after the cut, more than two election timeouts", seed, l, fmtMs(took))
			case !cq && stepped:
				t.Errorf("seed %d: without CheckQuorum n%d stepped down", seed, l)
			}
		}
	}
}

// TestFollowersInLeaseIgnoreVotes checks §6 of the paper (as etcd does it
// with CheckQuorum): "if a server receives a RequestVote request within the
// minimum election timeout of hearing from a current leader, it does not
// update its term or grant its vote."
func TestFollowersInLeaseIgnoreVotes(t *testing.T) {
	for _, cq := range []bool{true, false} {
		w := newTestWorld(t, func(c *Config) { c.PreVote, c.CheckQuorum = false, cq })
		l := waitSettled(t, w, 5_000)
		f := followerOf(w, l)
		term := w.Node(l).Term()
		mark := w.TraceCount()
		mustApply(t, w, Action{Do: DoTimeout, Node: int(f)})
		var requests []uint64
		for _, m := range w.InFlight() {
			if m.From == f && m.Type == MsgVote {
				requests = append(requests, m.ID)
			}
		}
		if len(requests) != w.Size()-1 {
			t.Fatalf("want %d vote requests from n%d, got %d", w.Size()-1, f, len(requests))
		}
		stepUntil(w, w.Now()+time1s, func() bool {
			for _, m := range w.InFlight() {
				for _, id := range requests {
					if m.ID == id {
						return false
					}
				}
			}
			return true
		})
		granted := 0
		for _, e := range w.Trace() {
			if e.Seq > mark && e.Kind == TraceVote && e.Node != f && e.Node != l && e.Term == term+1 {
				granted++
			}
		}
		if cq && granted > 0 {
			t.Errorf("%d followers of a live leader granted n%d's vote", granted, f)
		}
		if !cq && granted == 0 {
			t.Errorf("without CheckQuorum the followers should have voted for n%d", f)
		}
	}
}

const time1s = 1_000 * msUs

// isolate cuts machine id off from all the others, which stay connected.
func isolate(t *testing.T, w *World, id NodeID) {
	t.Helper()
	var rest []int
	for i := 1; i <= w.Size(); i++ {
		if NodeID(i) != id {
			rest = append(rest, i)
		}
	}
	mustApply(t, w, Action{Do: DoPartition, Groups: [][]int{{int(id)}, rest}})
}

// partitionLeaderMinority cuts leader l and one follower off from the rest.
func partitionLeaderMinority(t *testing.T, w *World, l NodeID) (minority []int, majority []int) {
	minority = []int{int(l), int(followerOf(w, l))}
	for i := 1; i <= w.Size(); i++ {
		if i != minority[0] && i != minority[1] {
			majority = append(majority, i)
		}
	}
	mustApply(t, w, Action{Do: DoPartition, Groups: [][]int{minority, majority}})
	return minority, majority
}

// settledWithX1 is a settled five-machine cluster that has committed and
// applied x=1 everywhere.
func settledWithX1(t *testing.T) (*World, NodeID) {
	w := newTestWorld(t, nil)
	l := waitSettled(t, w, 5_000)
	mustApply(t, w, Action{Do: DoWrite, Node: int(l), Key: "x", Value: "1"})
	waitSettled(t, w, 1_000)
	return w, l
}

// TestLinearizableRead checks ReadIndex (§6.4 of Ongaro's thesis): the
// leader "needs to make sure it hasn't been superseded by a newer leader of
// which it is unaware. It issues a new round of heartbeats and waits for
// their acknowledgments from a majority of the cluster." So a read takes a
// round trip, and on the minority side of a partition it never succeeds.
func TestLinearizableRead(t *testing.T) {
	w, l := settledWithX1(t)

	mustApply(t, w, Action{Do: DoRead, Node: int(l), Key: "x", Mode: ReadLinearizable})
	id := newestOp(w)
	rounds := 0
	for _, m := range w.InFlight() {
		if m.Type == MsgHeartbeat && m.From == l && m.Context == uint64(id) {
			rounds++
		}
	}
	if rounds != w.Size()-1 {
		t.Errorf("want a heartbeat round for the read to each of %d followers, got %d", w.Size()-1, rounds)
	}
	if opOf(t, w, id).Done() {
		t.Fatalf("a linearizable read completed before any acknowledgement")
	}
	stepUntil(w, w.Now()+time1s, func() bool { return opOf(t, w, id).Done() })
	op := opOf(t, w, id)
	minRTT := 2 * msToUs(w.Config().LatencyMinMs)
	maxRTT := 2 * msToUs(w.Config().LatencyMaxMs)
	if op.Result != OpOK || op.ReadValue != "1" || op.LatencyUs(0) < minRTT || op.LatencyUs(0) > maxRTT {
		t.Errorf("read at the leader: %+v; want x=1 after one round trip (%s to %s)", op, fmtMs(minRTT), fmtMs(maxRTT))
	}

	// Cut the leader off with one follower: reads there never succeed.
	partitionLeaderMinority(t, w, l)
	f := followerOf(w, l)
	mustApply(t, w, Action{Do: DoRead, Node: int(l), Key: "x", Mode: ReadLinearizable})
	mustApply(t, w, Action{Do: DoRead, Node: int(f), Key: "x", Mode: ReadLinearizable})
	w.RunFor(3 * time1s) // CheckQuorum has stepped the leader down by now
	mustApply(t, w, Action{Do: DoRead, Node: int(f), Key: "x", Mode: ReadLinearizable})
	w.RunFor(6 * time1s)
	for _, id := range []int{newestOp(w) - 2, newestOp(w) - 1, newestOp(w)} {
		if op := opOf(t, w, id); op.Result == OpOK || op.Result == OpPending {
			t.Errorf("linearizable read op%d at n%d on the minority side: %s", id, op.Node, op.Result)
		}
	}
	noViolations(t, w)
}

// TestLeaseAndLocalReads checks the two reads that skip the quorum round.
// A lease read (§6.4.1 of Ongaro's thesis) is answered by the leader at
// once, trusting CheckQuorum. A local read (etcd's serializable read) is
// answered at once from the machine's own state and can be stale, which is
// allowed: the checker does not judge local reads.
func TestLeaseAndLocalReads(t *testing.T) {
	w, l := settledWithX1(t)
	mustApply(t, w, Action{Do: DoRead, Node: int(l), Key: "x", Mode: ReadLease})
	if op := opOf(t, w, newestOp(w)); op.Result != OpOK || op.LatencyUs(0) != 0 || op.ReadValue != "1" {
		t.Errorf("lease read at the leader: %+v; want x=1 at once", op)
	}
	for _, m := range w.InFlight() {
		if m.Type == MsgHeartbeat && m.Context != 0 {
			t.Errorf("a lease read started a heartbeat round: %+v", m)
		}
	}

	// Cut off n_f; the majority commits x=2; a local read at n_f answers x=1.
	f := followerOf(w, l)
	isolate(t, w, f)
	mustApply(t, w, Action{Do: DoWrite, Node: int(l), Key: "x", Value: "2"})
	write := newestOp(w)
	stepUntil(w, w.Now()+time1s, func() bool { return opOf(t, w, write).Done() })
	mustApply(t, w, Action{Do: DoRead, Node: int(f), Key: "x", Mode: ReadLocal})
	op := opOf(t, w, newestOp(w))
	if opOf(t, w, write).Result != OpOK || op.Result != OpOK || op.LatencyUs(0) != 0 || op.ReadValue != "1" {
		t.Errorf("local read at the cut-off n%d after x=2 completed: %+v; want the stale x=1 at once", f, op)
	}
	noViolations(t, w)
}

// TestLeaseReadUnderClockDrift checks the caveat of §6.4.1 of Ongaro's
// thesis: a lease "would rely on timing for safety ... assuming a bounded
// clock drift". The old leader's clock runs 20 times slow, so CheckQuorum,
// measured on that clock, keeps it leading long after the majority elected
// a new leader and committed a write. Its lease read returns stale data and
// the checker flags stale-read; a linearizable read in the same situation
// cannot get its quorum round and never answers.
func TestLeaseReadUnderClockDrift(t *testing.T) {
	w, old := settledWithX1(t)
	mustApply(t, w, Action{Do: DoDrift, Node: int(old), Rate: 0.05})
	isolate(t, w, old)
	var lead NodeID
	if !stepUntil(w, w.Now()+5*time1s, func() bool {
		for _, id := range leaders(w) {
			if n := w.Node(id); id != old && n.Commit() > 0 && n.TermAt(n.Commit()) == n.Term() {
				lead = id
				return true
			}
		}
		return false
	}) {
		t.Fatalf("the majority elected no leader")
	}
	mustApply(t, w, Action{Do: DoWrite, Node: int(lead), Key: "x", Value: "2"})
	write := newestOp(w)
	stepUntil(w, w.Now()+time1s, func() bool { return opOf(t, w, write).Done() })
	if opOf(t, w, write).Result != OpOK || w.Node(old).Role() != RoleLeader {
		t.Fatalf("setup: write %s; old leader n%d is %s", opOf(t, w, write).Result, old, w.Node(old).Role())
	}

	// The read starts strictly after the write completed, so it must see
	// the write.
	w.RunFor(msUs)
	lease := w.Clone()
	mustApply(t, lease, Action{Do: DoRead, Node: int(old), Key: "x", Mode: ReadLease})
	if op := opOf(t, lease, newestOp(lease)); op.Result != OpOK || op.ReadValue != "1" {
		t.Errorf("lease read at the drifting old leader: %+v; want the stale x=1", op)
	}
	if lease.ViolationCount(RuleStaleRead) != 1 {
		t.Errorf("the checker did not flag the stale lease read: %+v", lease.Violations())
	}

	mustApply(t, w, Action{Do: DoRead, Node: int(old), Key: "x", Mode: ReadLinearizable})
	w.RunFor(6 * time1s)
	if op := opOf(t, w, newestOp(w)); op.Result == OpOK || op.Result == OpPending {
		t.Errorf("linearizable read at the old leader: %+v; want no answer", op)
	}
	noViolations(t, w)
}
