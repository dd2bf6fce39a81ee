package app

import (
	"strings"
	"testing"

	"raftlab/raftcore"
	"raftlab/viz"
)

// roleEvent is one role change read from the trace.
type roleEvent struct {
	at   int64
	node raftcore.NodeID
	term uint64
	to   raftcore.Role
}

// roleEvents returns the role changes into to at or after from, oldest
// first.
func roleEvents(w *raftcore.World, from int64, to raftcore.Role) []roleEvent {
	var out []roleEvent
	for _, e := range w.Trace() {
		if e.Kind == raftcore.TraceRole && e.AtUs >= from && e.ToRole == to {
			out = append(out, roleEvent{e.AtUs, e.Node, e.Term, to})
		}
	}
	return out
}

// campaigns are the moments machines start to stand for election: with
// PreVote on, they first become pre-candidates.
func campaigns(w *raftcore.World, from int64) []roleEvent {
	return roleEvents(w, from, raftcore.RolePreCandidate)
}

// pressed presses key and returns the actions it recorded.
func pressed(t *testing.T, a *App, key string) []raftcore.Action {
	t.Helper()
	n := len(a.World().Actions())
	if !a.Key(key) {
		t.Fatalf("key %s did nothing", key)
	}
	return a.World().Actions()[n:]
}

// paused makes a free-play app of n machines with seed, paused at the
// start, so the test moves time itself.
func paused(t *testing.T, n int, seed int64) (*App, *hostClock) {
	t.Helper()
	p := viz.DefaultParams()
	p.Nodes = n
	p.Seed = seed
	a, err := New(Options{Params: p, Width: 1280, Height: 800, SpeedGiven: true})
	if err != nil {
		t.Fatal(err)
	}
	return a, &hostClock{}
}

func TestAlignMakesTwoMachinesCampaignAtOnce(t *testing.T) {
	for seed := int64(1); seed <= 4; seed++ {
		a, _ := paused(t, 5, seed)
		acts := pressed(t, a, "a")
		for _, x := range acts {
			if x.Do != raftcore.DoTimer {
				t.Fatalf("seed %d: key a recorded %v, want timers only", seed, acts)
			}
		}
		start := a.World().Now()
		a.advance(start + 3_000_000)
		cs := campaigns(a.World(), start)
		if len(cs) < 2 {
			t.Fatalf("seed %d: %d campaigns after key a, want at least two", seed, len(cs))
		}
		if cs[0].at != cs[1].at || cs[0].node == cs[1].node || cs[0].term != cs[1].term {
			t.Errorf("seed %d: first campaigns %+v and %+v, want two machines at one instant in one term", seed, cs[0], cs[1])
		}
		// The last timer key a set is the second machine's, moved onto the
		// first one's instant.
		last := acts[len(acts)-1]
		if raftcore.NodeID(last.Node) != cs[0].node && raftcore.NodeID(last.Node) != cs[1].node {
			t.Errorf("seed %d: key a moved machine %d, but %d and %d campaigned", seed, last.Node, cs[0].node, cs[1].node)
		}
		if int64(last.AtMs*1000)+int64(last.Ms*1000) != cs[0].at {
			t.Errorf("seed %d: timer set for %v ms after %v ms, campaign at %d µs", seed, last.Ms, last.AtMs, cs[0].at)
		}
		// Everyone else waits at least an election's length.
		if len(cs) > 2 && cs[2].at-cs[0].at < a.electionGap() && cs[2].term == cs[0].term {
			t.Errorf("seed %d: a third machine campaigned %d µs after the pair", seed, cs[2].at-cs[0].at)
		}
	}
}

func TestSpreadLetsOneMachineStandAloneAndWin(t *testing.T) {
	for seed := int64(1); seed <= 4; seed++ {
		a, _ := paused(t, 5, seed)
		// Line two timers up first, so that spreading has work to do:
		// without t these two would stand at the same instant.
		pressed(t, a, "a")
		acts := pressed(t, a, "t")
		if len(acts) == 0 {
			t.Fatalf("seed %d: key t after key a changed no timer", seed)
		}
		start := a.World().Now()
		a.advance(start + 3_000_000)
		w := a.World()
		cs := campaigns(w, start)
		leads := roleEvents(w, start, raftcore.RoleLeader)
		if len(cs) == 0 || len(leads) == 0 {
			t.Fatalf("seed %d: %d campaigns and %d leaders after key t", seed, len(cs), len(leads))
		}
		first := cs[0]
		if leads[0].node != first.node || leads[0].term != first.term+1 {
			t.Errorf("seed %d: %d campaigned first in term %d but %d won term %d", seed, first.node, first.term, leads[0].node, leads[0].term)
		}
		for _, c := range cs[1:] {
			if c.at <= leads[0].at {
				t.Errorf("seed %d: %d also campaigned at %d, before %d won at %d", seed, c.node, c.at, first.node, leads[0].at)
			}
		}
		if n := len(roleEvents(w, start, raftcore.RoleCandidate)); n != 1 {
			t.Errorf("seed %d: %d machines became candidates, want one", seed, n)
		}
	}
}

// TestAlignWithoutSpreadCanSplit shows the test above can fail: without t,
// the pair that key a lined up both stand, and in some seed their votes
// split.
func TestAlignWithoutSpreadCanSplit(t *testing.T) {
	split := false
	for seed := int64(1); seed <= 8 && !split; seed++ {
		a, _ := paused(t, 5, seed)
		pressed(t, a, "a")
		start := a.World().Now()
		a.advance(start + 5_000_000)
		if n := len(roleEvents(a.World(), start, raftcore.RoleCandidate)); n >= 2 {
			split = true
		}
	}
	if !split {
		t.Error("in 8 seeds, the pair key a lined up never both became candidates")
	}
}

// splitVoteRun elects a leader, lets it lead for settle µs (so followers
// trust it: they ignore vote requests until their lease runs out), presses
// l and runs ten seconds. It
// checks what l always does (the leader crashes, its messages on the wire
// are dropped, two machines campaign first and at one instant) and reports
// whether the votes then split: nobody won the next term and a later one
// has a leader.
func splitVoteRun(t *testing.T, nodes int, seed, settle int64) bool {
	t.Helper()
	a, c := paused(t, nodes, seed)
	l := untilLeader(t, a, c)
	a.clock.SetPaused(true)
	a.advance(a.World().Now() + settle)
	term := a.World().Node(nodeID(l)).Term()
	acts := pressed(t, a, "l")
	if acts[0].Do != raftcore.DoCrash || acts[0].Node != l+1 {
		t.Fatalf("seed %d: key l recorded %v, want the leader %d crashed first", seed, acts, l+1)
	}
	k := 1
	for k < len(acts) && acts[k].Do == raftcore.DoDrop {
		k++
	}
	var pair []int
	for _, x := range acts[k:] {
		if x.Do != raftcore.DoTimer {
			t.Fatalf("seed %d: key l recorded %v, want a crash, drops, then timers", seed, acts)
		}
		if x.Ms == acts[k].Ms {
			pair = append(pair, x.Node)
		}
	}
	if len(pair) != 2 {
		t.Fatalf("seed %d: key l set %v to one instant, want two machines", seed, pair)
	}
	start := a.World().Now()
	a.advance(start + 10_000_000)
	w := a.World()
	cs := campaigns(w, start)
	if len(cs) < 2 || cs[0].at != cs[1].at || int(cs[0].node) != pair[0] || int(cs[1].node) != pair[1] ||
		cs[0].term != term || cs[1].term != term {
		t.Fatalf("seed %d: campaigns %+v, want %v first, at one instant, in term %d", seed, cs, pair, term)
	}
	// The voters listen by then (their lease on the crashed leader is
	// over), so the pre-vote is won within one round trip.
	round := 2 * int64(a.cfg().LatencyMaxMs*1000)
	if cands := roleEvents(w, start, raftcore.RoleCandidate); len(cands) == 0 || cands[0].term != term+1 || cands[0].at > cs[0].at+round {
		t.Errorf("seed %d: candidates %+v, want one of term %d within %d µs of %d", seed, cands, term+1, round, cs[0].at)
	}
	if len(w.Violations()) > 0 {
		t.Errorf("seed %d: violations: %+v", seed, w.Violations())
	}
	leads := roleEvents(w, start, raftcore.RoleLeader)
	if len(leads) == 0 {
		t.Fatalf("seed %d: no leader within 10 s of key l", seed)
	}
	return leads[0].term >= term+2
}

// TestSplitVoteKeyGivesASplitVote: with three machines the leader's crash
// leaves the pair alone, each votes for itself and the vote splits. With
// five, two machines also vote and may give one of the pair a majority,
// but over a few seeds some votes split.
func TestSplitVoteKeyGivesASplitVote(t *testing.T) {
	for _, settle := range []int64{0, 1_000_000} {
		if !splitVoteRun(t, 3, 1, settle) {
			t.Errorf("three machines, seed 1, %d µs after the election: the votes did not split", settle)
		}
	}
	splits := 0
	for seed := int64(1); seed <= 10; seed++ {
		if splitVoteRun(t, 5, seed, seed%2*1_000_000) {
			splits++
		}
	}
	if splits == 0 {
		t.Error("five machines: no split vote in 10 seeds")
	}
}

func TestTimerKeysSayWhyTheyCannotAct(t *testing.T) {
	a, c := paused(t, 5, 1)
	l := untilLeader(t, a, c)
	// Let every follower hear the new leader.
	a.advance(a.World().Now() + 500_000)
	for _, key := range []string{"t", "a"} {
		n := len(a.World().Actions())
		a.Key(key)
		if got := a.World().Actions()[n:]; len(got) != 0 {
			t.Errorf("key %s with a heartbeating leader recorded %v", key, got)
		}
		if !strings.Contains(a.view.Banner().Text, a.cfg().Name(nodeID(l))+" leads") {
			t.Errorf("key %s: note %q, want it to say the leader's heartbeats restart the timers", key, a.view.Banner().Text)
		}
	}

	for _, proto := range []string{"naive-copy", "failover"} {
		p := viz.DefaultParams()
		p.Protocol = proto
		b, err := New(Options{Params: p, Width: 1280, Height: 800, SpeedGiven: true})
		if err != nil {
			t.Fatal(err)
		}
		n := len(b.World().Actions())
		b.Key("l")
		if got := b.World().Actions()[n:]; len(got) != 0 {
			t.Errorf("key l under %s recorded %v", proto, got)
		}
		if !strings.Contains(b.view.Banner().Text, "switch the protocol to raft") {
			t.Errorf("key l under %s: note %q", proto, b.view.Banner().Text)
		}
	}
	p := viz.DefaultParams()
	p.Protocol = "naive-copy"
	b, err := New(Options{Params: p, Width: 1280, Height: 800, SpeedGiven: true})
	if err != nil {
		t.Fatal(err)
	}
	b.Key("t")
	if len(b.World().Actions()) != 0 || !strings.Contains(b.view.Banner().Text, "No running machine has an election timer") {
		t.Errorf("key t under naive-copy: actions %v, note %q", b.World().Actions(), b.view.Banner().Text)
	}
}
