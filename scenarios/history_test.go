package scenarios

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"raftlab/raftcore"
)

func mustRun(t *testing.T, id string, seed int64, settings ...Setting) (*Scenario, *raftcore.World, Result) {
	t.Helper()
	s, err := Get(id)
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range settings {
		if s, err = s.With(st.Knob, st.Value); err != nil {
			t.Fatal(err)
		}
	}
	w, r, err := s.Run(seed)
	if err != nil {
		t.Fatal(err)
	}
	return s, w, r
}

// playUntil plays the scenario's autoplay up to ms and stops there, so a
// test can look at the middle of a run.
func playUntil(t *testing.T, s *Scenario, seed int64, ms float64) *raftcore.World {
	t.Helper()
	w := raftcore.MustWorld(s.Config(seed))
	var acts []raftcore.Action
	for _, a := range s.Autoplay() {
		if a.AtMs <= ms {
			acts = append(acts, a)
		}
	}
	if err := w.Play(acts); err != nil {
		t.Fatal(err)
	}
	w.RunUntil(int64(ms * 1000))
	return w
}

func answerWords(as []raftcore.Answer) string {
	var out []string
	for _, a := range as {
		word := "NO"
		switch {
		case !a.Answered:
			word = "—"
		case a.Exists:
			word = "YES"
		}
		out = append(out, a.Name+"="+word)
	}
	return strings.Join(out, " ")
}

func TestThreeAnswers(t *testing.T) {
	for seed := int64(1); seed <= 5; seed++ {
		_, w, r := mustRun(t, "three-answers", seed)
		if got := answerWords(w.Ask(keyWeb)); got != "A=YES B=YES C=NO" {
			t.Fatalf("seed %d: answers %s", seed, got)
		}
		for _, op := range w.Ops() {
			if op.Kind != raftcore.DoRead {
				continue
			}
			if op.Result != raftcore.OpOK || op.ReadFound != (op.Node != 3) {
				t.Fatalf("seed %d: read at %s found=%v (%s)", seed, name(w, op.Node), op.ReadFound, op.Result)
			}
		}
		if !strings.Contains(r.Final, "A and B answer YES") || !strings.Contains(r.Final, "C answers NO") {
			t.Fatalf("closing line: %q", r.Final)
		}
	}
}

func TestReplicatedMemoryDropsOneCopyAndNobodyNotices(t *testing.T) {
	_, w, r := mustRun(t, "replicated-memory", 4)
	if a, b, c := w.Node(1).LastIndex(), w.Node(2).LastIndex(), w.Node(3).LastIndex(); a != 2 || b != 2 || c != 1 {
		t.Fatalf("log lengths %d %d %d, want 2 2 1", a, b, c)
	}
	if divergeAt(w, 1, 3) != 0 || !sameLog(w, 1, 2) {
		t.Fatal("C should simply lack the second change")
	}
	if v, _ := w.Node(3).KV().Get(keyWeb); v.Value != "replicas=3" {
		t.Fatalf("C holds %q", v.Value)
	}
	// Nothing noticed: after the second write, nothing at all was sent to C.
	second := w.Ops()[1].InvokeUs
	for _, e := range w.Trace() {
		if e.Kind == raftcore.TraceSend && e.Peer == 3 && e.AtUs > second {
			t.Fatalf("something was sent to C after the loss: %v", e)
		}
	}
	if c := w.Contract()[1]; c.State != raftcore.ClauseBroken || c.Fact != raftcore.FactLacks || w.Config().Name(c.Node) != "C" {
		t.Fatalf("contract: %+v", c)
	}
	if !strings.Contains(r.Final, "C never got deployments/web=replicas=5") {
		t.Fatalf("closing line: %q", r.Final)
	}
}

func TestTwoWorldsDivergeAndStayApart(t *testing.T) {
	s, _ := Get("two-worlds")
	atHeal := playUntil(t, s, 2, 8000)
	if logsEqual(atHeal, []id{1, 3}) || !sameLog(atHeal, 1, 2) {
		t.Fatal("at the heal, A and B should share a history that C does not")
	}
	forkAt := divergeAt(atHeal, 1, 3)
	if forkAt == 0 {
		t.Fatal("the two sides' histories do not diverge")
	}
	_, w, r := mustRun(t, "two-worlds", 2)
	// The closing line counts, in the chapter's words, the positions at
	// which the histories hold different writes: where the checker found
	// machines that acted on different writes.
	apart := apartAt(w)
	if len(apart) == 0 || len(apart) != w.ViolationCount(raftcore.RuleStateMachineSafety) {
		t.Fatalf("the histories part at %v; the checker counted %d forks", apart, w.ViolationCount(raftcore.RuleStateMachineSafety))
	}
	if !strings.Contains(r.Final, fmt.Sprintf("At %d positions the histories hold different writes, and each machine has acted on its own.", len(apart))) {
		t.Fatalf("closing line: %q", r.Final)
	}
	for _, n := range all(w) {
		if nd := w.Node(n); nd.Applied() != nd.LastIndex() {
			t.Fatalf("%s has acted on %d of the %d writes it holds", name(w, n), nd.Applied(), nd.LastIndex())
		}
	}
	if sameLog(w, 1, 3) || divergeAt(w, 1, 3) != forkAt {
		t.Fatalf("after healing the histories should still part at index %d, got %d", forkAt, divergeAt(w, 1, 3))
	}
	if w.Node(1).LastIndex() <= atHeal.Node(1).LastIndex() {
		t.Fatal("no write after the heal")
	}
	var fork *raftcore.Violation
	for _, v := range w.Violations() {
		if v.Rule == raftcore.RuleStateMachineSafety {
			fork = &v
			break
		}
	}
	if fork == nil || !strings.Contains(fork.Text, "forked") {
		t.Fatalf("no fork among the violations: %+v", w.Violations())
	}
	v := &View{W: w, h: scan(w)}
	if v.sidesThatWrote() != 2 {
		t.Fatal("both sides should have accepted writes")
	}
}

// TestSlowAndDeadLookAlike: with one seed, A and B live exactly the same
// history whether C is paused or crashed, until C comes back; only then do
// the two runs differ, and only the paused C acts on stale beliefs.
func TestSlowAndDeadLookAlike(t *testing.T) {
	for seed := int64(1); seed <= 5; seed++ {
		ps, pw, _ := mustRun(t, "slow-or-dead", seed)
		_, cw, _ := mustRun(t, "slow-or-dead", seed, Setting{"silence", "crash"})
		wake := ps.Autoplay()[len(ps.Autoplay())-1].AtUs()
		seen := func(w *raftcore.World) []string {
			var out []string
			for _, e := range w.Trace() {
				if e.AtUs >= wake {
					break
				}
				switch e.Kind {
				case raftcore.TraceFault, raftcore.TraceDrop, raftcore.TraceOpInvoke, raftcore.TraceOpComplete:
					continue // the world's doing, not something A or B saw
				}
				if e.Node == 1 || e.Node == 2 {
					// Sequence and message numbers count everything in the
					// world, the client's request to the paused C too,
					// which A and B never see.
					e.Seq, e.Msg = 0, 0
					out = append(out, e.String())
				}
			}
			return out
		}
		a, b := seen(pw), seen(cw)
		if strings.Join(a, "\n") != strings.Join(b, "\n") {
			t.Fatalf("seed %d: A and B saw different things (%d and %d events)", seed, len(a), len(b))
		}
		// Before the silence C led; during it the others elected a leader of
		// a higher term.
		h := scan(pw)
		first, ok := firstRole(h, raftcore.RoleCandidate, raftcore.RoleLeader)
		if !ok || first.node != 3 {
			t.Fatalf("seed %d: C should lead first", seed)
		}
		second, ok := secondLeader(h)
		if !ok || second.node == 3 || second.atUs >= wake {
			t.Fatalf("seed %d: no new leader while C was silent", seed)
		}
		if st, ok := staleBy(&View{W: pw, h: h}); !ok || st.node != 3 || st.term != first.term {
			t.Fatalf("seed %d: the paused C did not act as leader of its old term", seed)
		}
		if len(scan(cw).stale) != 0 {
			t.Fatalf("seed %d: the crashed C acted on stale beliefs", seed)
		}
	}
}

// TestTwoLeaders watches every event: under failover two authorities exist
// at the same time and accept conflicting writes; under raft no term ever
// has two leaders, even while an old leader still believes it leads.
func TestTwoLeaders(t *testing.T) {
	for seed := int64(1); seed <= 5; seed++ {
		fo, _ := Get("two-leaders")
		w := raftcore.MustWorld(fo.Config(seed))
		both := false
		for _, a := range fo.Autoplay() {
			for next, ok := w.NextEventAt(); ok && next <= a.AtUs(); next, ok = w.NextEventAt() {
				w.Step()
				both = both || len(authorities(w)) >= 2
			}
			w.RunUntil(a.AtUs())
			mustApply(t, w, a)
		}
		w.RunUntil(int64(fo.UntilMs * 1000))
		if !both {
			t.Fatalf("seed %d: never two authorities at once under failover", seed)
		}
		if err := expectTwoAuthorities(w); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}

		rf, _ := fo.With("protocol", "raft")
		w = raftcore.MustWorld(rf.Config(seed))
		check := func() {
			ls := leaders(w)
			for i := range ls {
				for j := i + 1; j < len(ls); j++ {
					if w.Node(ls[i]).Term() == w.Node(ls[j]).Term() {
						t.Fatalf("seed %d: %s and %s both lead term %d", seed, name(w, ls[i]), name(w, ls[j]), w.Node(ls[i]).Term())
					}
				}
			}
		}
		for _, a := range rf.Autoplay() {
			for next, ok := w.NextEventAt(); ok && next <= a.AtUs(); next, ok = w.NextEventAt() {
				w.Step()
				check()
			}
			w.RunUntil(a.AtUs())
			mustApply(t, w, a)
		}
		for next, ok := w.NextEventAt(); ok && next <= int64(rf.UntilMs*1000); next, ok = w.NextEventAt() {
			w.Step()
			check()
		}
		if w.ViolationCount(raftcore.RuleElectionSafety) != 0 || oneLeaderPerTerm(&View{W: w, h: scan(w)}) != nil {
			t.Fatalf("seed %d: a term had two leaders", seed)
		}
	}
}

func TestMajoritySplit32(t *testing.T) {
	for seed := int64(1); seed <= 5; seed++ {
		s, _ := Get("majority")
		mid := playUntil(t, s, seed, 11_000)
		// D, the old leader on the small side, holds the small side's writes,
		// uncommitted.
		d := mid.Node(4)
		held := 0
		for _, op := range mid.Ops() {
			if op.Node != 4 && op.Node != 5 || op.InvokeUs < 4_000_000 {
				continue
			}
			if i, in := inLog(mid, 4, op.ID); in {
				held++
				if i <= d.Commit() {
					t.Fatalf("seed %d: D committed the small side's write at index %d", seed, i)
				}
			}
		}
		if held == 0 {
			t.Fatalf("seed %d: D accepted none of the small side's writes", seed)
		}
		l, ok := majorityLeader(mid)
		if !ok || l > 3 || mid.Node(l).Commit() <= d.Commit() {
			t.Fatalf("seed %d: the big side should lead and commit past D", seed)
		}
		_, w, r := mustRun(t, "majority", seed)
		if r.Expect != nil {
			t.Fatalf("seed %d: %v", seed, r.Expect)
		}
		if !logsEqual(w, nil) {
			t.Fatalf("seed %d: logs differ after the heal", seed)
		}
		// Everything the big side committed before the heal is still there.
		for i := uint64(1); i <= mid.Node(l).Commit(); i++ {
			if w.Node(4).Entry(i).Chain != mid.Node(l).Entry(i).Chain {
				t.Fatalf("seed %d: committed index %d changed", seed, i)
			}
		}
		if !strings.Contains(r.Final, "The 3-machine side committed 3 writes;") || !strings.Contains(r.Final, "2-machine side's 2 writes never committed") {
			t.Fatalf("closing line: %q", r.Final)
		}
	}
}

func TestContractUnderEachProtocol(t *testing.T) {
	s, _ := Get("contract")
	mid := playUntil(t, s, 1, 8000)
	bent := false
	for _, c := range mid.Contract() {
		if c.State == raftcore.ClauseBroken {
			t.Fatalf("under raft %q broke mid-run: %+v", c.ID, c)
		}
		bent = bent || c.State == raftcore.ClauseNotYet
	}
	if !bent {
		t.Fatal("under raft, A cut off should leave some promise bent (not yet) mid-run")
	}
	_, w, _ := mustRun(t, "contract", 1)
	for _, c := range w.Contract() {
		if c.State != raftcore.ClauseHolding {
			t.Fatalf("under raft %q is %s at the end", c.ID, c.State)
		}
	}
	for _, p := range []string{"naive-copy", "failover"} {
		_, w, r := mustRun(t, "contract", 1, Setting{"protocol", p})
		cs := w.Contract()
		if cs[0].State != raftcore.ClauseBroken || cs[2].State != raftcore.ClauseBroken || cs[3].State != raftcore.ClauseBroken {
			t.Fatalf("under %s: %+v", p, cs)
		}
		if !strings.HasPrefix(r.Final, "Under "+p+", ") {
			t.Fatalf("closing line: %q", r.Final)
		}
	}
}

// hasKey reports whether machine n's state holds key.
func hasKey(w *raftcore.World, n id, key string) bool {
	_, ok := w.Node(n).KV().Get(key)
	return ok
}

// replayKV applies a machine's own log to an empty store.
func replayKV(w *raftcore.World, n id) map[string]string {
	kv := map[string]string{}
	nd := w.Node(n)
	for i := uint64(1); i <= nd.Applied(); i++ {
		e := nd.Entry(i)
		switch e.Data.Kind {
		case raftcore.OpPut:
			kv[e.Data.Key] = e.Data.Value
		case raftcore.OpDelete:
			delete(kv, e.Data.Key)
		}
	}
	return kv
}

func TestNotebooks(t *testing.T) {
	_, w, _ := mustRun(t, "notebooks", 3)
	if !allDiffer(w) {
		t.Fatal("under naive-copy no two notebooks should match")
	}
	for _, n := range all(w) {
		got, want := w.Node(n).KV().Snapshot(), replayKV(w, n)
		if len(got) != len(want) {
			t.Fatalf("%s is not consistent with its own log", name(w, n))
		}
		for k, v := range want {
			if got[k] != v {
				t.Fatalf("%s is not consistent with its own log at %s", name(w, n), k)
			}
		}
	}
	if hasKey(w, 2, "orders/1") || !hasKey(w, 1, "orders/1") || !hasKey(w, 3, "orders/1") {
		t.Fatal("orders/1 should have reached A and C only")
	}

	_, w, r := mustRun(t, "notebooks", 3, Setting{"protocol", "raft"})
	if !logsEqual(w, nil) || scan(w).truncs[3] == 0 {
		t.Fatal("under raft the notebooks should match, after C's own entries were replaced")
	}
	for _, op := range w.Ops() {
		_, in := inLog(w, 1, op.ID)
		if (op.Result == raftcore.OpOK) != in {
			t.Fatalf("order %s: result %s, in history %v", op.Key, op.Result, in)
		}
	}
	if !strings.Contains(r.Final, "All three notebooks hold the same orders") {
		t.Fatalf("closing line: %q", r.Final)
	}
}

// tolerance is the most members unreachable while a write still committed,
// in a quorum-size run.
func tolerance(t *testing.T, n string) int {
	t.Helper()
	s, w, r := mustRun(t, "quorum-size", 1, Setting{"members", n})
	if r.Expect != nil {
		t.Fatal(r.Expect)
	}
	most := -1
	for _, op := range w.Ops() {
		if u := s.Config(1).Nodes - len(op.Side); op.Result == raftcore.OpOK && u > most {
			most = u
		}
	}
	return most
}

func TestQuorumSizeOddSizesWasteNothing(t *testing.T) {
	got := map[string]int{}
	for _, n := range []string{"1", "2", "3", "4", "5", "6", "7"} {
		got[n] = tolerance(t, n)
	}
	want := map[string]int{"1": 0, "2": 0, "3": 1, "4": 1, "5": 2, "6": 2, "7": 3}
	for n, k := range want {
		if got[n] != k {
			t.Fatalf("%s members tolerated %d unreachable, want %d", n, got[n], k)
		}
	}
	// With four members the failing round is an even split.
	s, _ := Get("quorum-size")
	s4, _ := s.With("members", "4")
	split := false
	for _, a := range s4.Autoplay() {
		if a.Do == raftcore.DoPartition && len(a.Groups) == 2 && len(a.Groups[0]) == 2 && len(a.Groups[1]) == 2 {
			split = true
		}
	}
	if !split {
		t.Fatal("four members should be split 2/2")
	}
}

// TestHistoryForgetsTheFutureARewindLeftBehind: after a rewind the history
// holds what happened up to the moment shown and nothing after it, as if it
// had only ever watched the run up to there.
func TestHistoryForgetsTheFutureARewindLeftBehind(t *testing.T) {
	run := func(until int64) *raftcore.World {
		cfg := raftcore.DefaultConfig()
		cfg.Nodes, cfg.Seed = 3, 7
		w := raftcore.MustWorld(cfg)
		w.RunUntil(min(until, 3_000_000))
		if until > 3_000_000 {
			// Crash whoever leads and cut a link, so that the future holds a
			// second leader, drops and a higher term.
			for id := raftcore.NodeID(1); id <= 3; id++ {
				if w.Node(id).Role() == raftcore.RoleLeader {
					if err := w.Apply(raftcore.Action{Do: raftcore.DoCrash, Node: int(id)}); err != nil {
						t.Fatal(err)
					}
				}
			}
			w.RunUntil(until)
		}
		return w
	}
	near, far := run(3_000_000), run(9_000_000)
	h := newHistory()
	h.update(far)
	if h.topLeader < 2 || len(h.drops) == 0 {
		t.Fatalf("the far world should hold a second leader and drops: top leader term %d, %d drops", h.topLeader, len(h.drops))
	}
	h.update(near)
	want := scan(near)
	if h.seq != want.seq || h.topLeader != want.topLeader || len(h.roles) != len(want.roles) ||
		len(h.drops) != len(want.drops) || len(h.stale) != len(want.stale) || !slices.Equal(h.truncs, want.truncs) {
		t.Errorf("after the rewind: seq %d, top leader %d, %d roles, %d drops, %d stale, truncs %v; watching only up to there gives %d, %d, %d, %d, %d, %v",
			h.seq, h.topLeader, len(h.roles), len(h.drops), len(h.stale), h.truncs,
			want.seq, want.topLeader, len(want.roles), len(want.drops), len(want.stale), want.truncs)
	}
}
