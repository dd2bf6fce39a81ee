package raftcore

// Determinism: the same configuration and the same actions give the same
// trace, hash for hash, in every run, in every clone and on every platform.
// The golden file testdata/hashes.golden is checked both natively and
// compiled to WebAssembly (GOOS=js), which is what proves the two agree.

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSameScheduleSameHash replays recorded runs and checks that every
// replay, and every run of a script, gives the same trace hash; and that
// the hash does tell runs apart.
func TestSameScheduleSameHash(t *testing.T) {
	hashes := map[uint64]int64{}
	for seed := int64(1); seed <= 5; seed++ {
		w := RandomRun(seed, RandomOptions{UntilMs: 8_000})
		for i := 0; i < 2; i++ {
			r, err := w.Schedule().Run()
			if err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			if r.TraceHash() != w.TraceHash() || r.TraceCount() != w.TraceCount() {
				t.Fatalf("seed %d replay %d: hash %s (%d events), want %s (%d events)", seed, i+1,
					HashString(r.TraceHash()), r.TraceCount(), HashString(w.TraceHash()), w.TraceCount())
			}
		}
		if other, ok := hashes[w.TraceHash()]; ok {
			t.Errorf("seeds %d and %d gave the same hash", other, seed)
		}
		hashes[w.TraceHash()] = seed
	}

	s := loadScript(t, "figure8.txt")
	a, _ := s.run(t, s.cfg, 0)
	b, _ := s.run(t, s.cfg, 0)
	if a.TraceHash() != b.TraceHash() {
		t.Errorf("figure8.txt gave hashes %s and %s", HashString(a.TraceHash()), HashString(b.TraceHash()))
	}
	// One more action, or one fewer event, changes the hash.
	mustApply(t, b, Action{Do: DoWrite, Node: 5, Key: "x", Value: "b"})
	if a.TraceHash() == b.TraceHash() {
		t.Errorf("an extra write left the hash unchanged")
	}
}

// timedAction is an action taken dt microseconds after the previous one.
type timedAction struct {
	dt int64
	a  Action
}

func drive(t *testing.T, w *World, acts []timedAction) {
	t.Helper()
	for _, ta := range acts {
		w.RunFor(ta.dt)
		if ta.a.Do != "" {
			mustApply(t, w, ta.a)
		}
	}
}

// busyWorld is a world in the middle of things: the old leader is cut off
// with a paused follower and holds a write that will be replaced, the
// paused follower has a backlog, another follower is slow, messages are in
// flight and client requests pending. It returns the old leader, the paused
// follower and the other machines.
func busyWorld(t *testing.T) (w *World, old, paused int, rest []int) {
	w = newTestWorld(t, func(c *Config) { c.Seed = 7 })
	old = int(waitSettled(t, w, 5_000))
	paused = old%5 + 1
	for i := 1; i <= w.Size(); i++ {
		if i != old && i != paused {
			rest = append(rest, i)
		}
	}
	drive(t, w, []timedAction{
		{500_000, Action{Do: DoWrite, Node: old, Key: "a", Value: "1"}},
		{200_000, Action{Do: DoPartition, Groups: [][]int{{old, paused}, rest}}},
		{0, Action{Do: DoWrite, Node: old, Key: "a", Value: "lost"}},
		{100_000, Action{Do: DoPause, Node: paused}},
		{0, Action{Do: DoSlow, Node: rest[0], MsPerMessage: 30}},
		{2_500_000, Action{Do: DoWrite, Node: rest[1], Key: "b", Value: "2"}},
		{0, Action{Do: DoWrite, Node: rest[2], Key: "b", Value: "3"}},
		{0, Action{Do: DoRead, Node: paused, Key: "a", Mode: ReadLinearizable}},
		{7_000, Action{}},
	})
	if w.Backlog(NodeID(paused)) == 0 || w.InFlightCount() == 0 || w.Node(NodeID(old)).LastIndex() <= w.Node(NodeID(old)).Commit() {
		t.Fatalf("setup: backlog %d, in flight %d, n%d log [%s] commit %d", w.Backlog(NodeID(paused)), w.InFlightCount(), old, logTerms(w.Node(NodeID(old))), w.Node(NodeID(old)).Commit())
	}
	return w, old, paused, rest
}

// stateOf is everything observable about a world, for comparisons.
func stateOf(t *testing.T, w *World) string {
	t.Helper()
	js, err := json.Marshal(struct {
		S        Summary
		InFlight []Message
		Links    [][]Link
		Machines string
		Trace    []TraceEvent
	}{w.Summarize(), w.InFlight(), w.links, fmt.Sprintf("%+v", w.machines), w.Trace()})
	if err != nil {
		t.Fatal(err)
	}
	return string(js)
}

// internalsOf adds every field of every machine (progress, pending reads,
// timers), the random source, the event queue and the checker. Pointers
// print as addresses, so this compares a world only with itself.
func internalsOf(t *testing.T, w *World) string {
	var b strings.Builder
	b.WriteString(stateOf(t, w))
	for _, n := range w.nodes[1:] {
		fmt.Fprintf(&b, "\n%+v", *n)
	}
	fmt.Fprintf(&b, "\n%+v\n%+v\n%+v", *w.rng, w.queue, w.checker)
	return b.String()
}

// TestCloneIsIndependent checks World.Clone: a clone and its original,
// given the same actions, produce the same trace hash; and whatever is done
// to a clone leaves the original exactly as it was, so that the original
// then continues exactly like a world that was never cloned.
func TestCloneIsIndependent(t *testing.T) {
	w, old, paused, rest := busyWorld(t)
	later := cloneLater(old, paused, rest)

	// Run a clone through everything, checking the original after each
	// step; the clone replaces the old leader's uncommitted entry, which
	// the original still holds.
	before := internalsOf(t, w)
	c := w.Clone()
	for i, ta := range later {
		drive(t, c, []timedAction{ta})
		if internalsOf(t, w) != before {
			t.Fatalf("running a clone changed the original (after %v)", later[i].a)
		}
	}
	truncated := false
	for _, e := range c.Trace() {
		truncated = truncated || (e.Kind == TraceTruncate && e.Node == NodeID(old))
	}
	if !truncated {
		t.Fatalf("setup: the clone did not replace n%d's entries", old)
	}
	cc := c.Clone()
	drive(t, cc, []timedAction{{0, Action{Do: DoCrash, Node: old}}, {1_000_000, Action{}}})
	if internalsOf(t, w) != before {
		t.Fatalf("running a clone of a clone changed the original")
	}

	// A second clone goes another way; neither the original nor the
	// first clone may notice.
	cloneState := internalsOf(t, c)
	d := w.Clone()
	drive(t, d, otherWay(w, old, paused))
	if internalsOf(t, w) != before || internalsOf(t, c) != cloneState {
		t.Fatalf("running a second clone changed the original or the first clone")
	}

	drive(t, w, later)
	if w.TraceHash() != c.TraceHash() {
		t.Errorf("original and clone given the same actions: hashes %s and %s", HashString(w.TraceHash()), HashString(c.TraceHash()))
	}
	if internalsOf(t, c) != cloneState {
		t.Errorf("running the original changed its clone")
	}
	never, _, _, _ := busyWorld(t)
	drive(t, never, later)
	if never.TraceHash() != w.TraceHash() || stateOf(t, never) != stateOf(t, w) {
		t.Errorf("a world that was cloned continued differently from one that never was")
	}
}

// cloneLater heals busyWorld: the old leader's write is replaced.
func cloneLater(old, paused int, rest []int) []timedAction {
	return []timedAction{
		{300_000, Action{Do: DoDrift, Node: rest[1], Rate: 2}},
		{0, Action{Do: DoWrite, Node: rest[2], Key: "a", Value: "3"}},
		{200_000, Action{Do: DoResume, Node: paused}},
		{0, Action{Do: DoRead, Node: paused, Key: "a", Mode: ReadLocal}},
		{500_000, Action{Do: DoHeal}},
		{0, Action{Do: DoCrash, Node: rest[2]}},
		{0, Action{Do: DoSlow, Node: rest[0], MsPerMessage: 1}},
		{3_000_000, Action{Do: DoRestart, Node: rest[2]}},
		{0, Action{Do: DoWrite, Node: old, Key: "c", Value: "4"}},
		{2_000_000, Action{}},
	}
}

// otherWay takes busyWorld elsewhere: it cuts off the majority's leader at
// once, so the entries in flight from it never land and others take their
// indexes.
func otherWay(w *World, old, paused int) []timedAction {
	var lead2 int
	for _, id := range leaders(w) {
		if int(id) != old {
			lead2 = int(id)
		}
	}
	var others []int
	for i := 1; i <= w.Size(); i++ {
		if i != lead2 {
			others = append(others, i)
		}
	}
	return []timedAction{
		{0, Action{Do: DoPartition, Groups: [][]int{{lead2}, others}}},
		{0, Action{Do: DoResume, Node: paused}},
		{3_000_000, Action{Do: DoWrite, Node: others[0], Key: "d", Value: "5"}},
		{0, Action{Do: DoWrite, Node: others[1], Key: "d", Value: "6"}},
		{2_000_000, Action{}},
	}
}

// plan plays timed actions on a world in slices of time.
type plan struct {
	w    *World
	at   []int64
	acts []timedAction
	end  int64
}

func newPlan(w *World, acts []timedAction) *plan {
	p := &plan{w: w, acts: acts}
	t := w.Now()
	for _, ta := range acts {
		t += ta.dt
		p.at = append(p.at, t)
	}
	p.end = t
	return p
}

func (p *plan) advance(t *testing.T, to int64) {
	for len(p.at) > 0 && p.at[0] <= to {
		p.w.RunUntil(p.at[0])
		if a := p.acts[0].a; a.Do != "" {
			mustApply(t, p.w, a)
		}
		p.at, p.acts = p.at[1:], p.acts[1:]
	}
	p.w.RunUntil(to)
}

// TestClonesRunInterleaved runs an original and two clones going different
// ways in alternating slices of 5 ms, and checks that each ends exactly as
// a world that ran alone and was never cloned: same trace, same logs, same
// stores, same messages.
func TestClonesRunInterleaved(t *testing.T) {
	alone := func(way func(w *World, old, paused int, rest []int) []timedAction) string {
		w, old, paused, rest := busyWorld(t)
		drive(t, w, way(w, old, paused, rest))
		return stateOf(t, w)
	}
	later := func(w *World, old, paused int, rest []int) []timedAction { return cloneLater(old, paused, rest) }
	other := func(w *World, old, paused int, rest []int) []timedAction { return otherWay(w, old, paused) }
	wantLater, wantOther := alone(later), alone(other)

	w, old, paused, rest := busyWorld(t)
	c, d := w.Clone(), w.Clone()
	plans := []*plan{newPlan(w, later(w, old, paused, rest)), newPlan(c, other(c, old, paused, rest)), newPlan(d, later(d, old, paused, rest))}
	end := max(plans[0].end, plans[1].end)
	for now := w.Now(); now < end; {
		now += 5 * msUs
		for _, p := range plans {
			p.advance(t, min(now, p.end))
		}
	}
	for i, want := range []string{wantLater, wantOther, wantLater} {
		if stateOf(t, plans[i].w) != want {
			t.Errorf("world %d of 3 ended differently from the same world run alone", i+1)
		}
	}
}

// hashRuns are the short random runs whose hashes testdata/hashes.golden
// records.
const (
	hashRuns    = 20
	hashRunMs   = 6_000
	hashesFile  = "hashes.golden"
	hashesIntro = "# Trace hashes of RandomRun(seed, UntilMs 6000). The same file is checked natively and\n# under GOOS=js, so a change here means runs differ by platform or the engine changed.\n"
)

func hashLines() string {
	var b strings.Builder
	b.WriteString(hashesIntro)
	for seed := int64(1); seed <= hashRuns; seed++ {
		w := RandomRun(seed, RandomOptions{UntilMs: hashRunMs})
		fmt.Fprintf(&b, "seed %d nodes %d events %d hash %s\n", seed, w.Size(), w.TraceCount(), HashString(w.TraceHash()))
	}
	// Runs that snapshot and compact every few entries, and send and
	// restore snapshots (RandomOptions.Snapshots).
	for seed := int64(1); seed <= hashRuns/2; seed++ {
		w := RandomRun(seed, RandomOptions{UntilMs: 4 * hashRunMs, Snapshots: true})
		fmt.Fprintf(&b, "snapshots seed %d nodes %d events %d hash %s\n", seed, w.Size(), w.TraceCount(), HashString(w.TraceHash()))
	}
	return b.String()
}

// TestHashesGolden compares the trace hashes of fixed random runs with the
// golden ones (rewrite with -update after an intended engine change).
func TestHashesGolden(t *testing.T) {
	path := filepath.Join("testdata", hashesFile)
	got := hashLines()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("trace hashes differ from %s:\n%s", path, lineDiff(string(want), got))
	}
}

// TestEventCountsThatRunTheClockBackwardsAreRefused: an action's
// after_events says how many events came before it. A count that goes
// back, taken in time order, is refused when the schedule is validated,
// before anything runs; a count reached while events due before the
// action's time still wait is refused when it is reached, before the
// action is taken. Either error names the action by its place and verb.
func TestEventCountsThatRunTheClockBackwardsAreRefused(t *testing.T) {
	s := RandomRun(4, RandomOptions{Nodes: 3, UntilMs: 8_000}).Schedule()
	if _, err := s.Run(); err != nil {
		t.Fatalf("as recorded: %v", err)
	}
	last := len(s.Actions) - 1
	moved := s
	moved.Actions = append([]Action(nil), s.Actions...)
	moved.Actions[0].AtMs = moved.Actions[last].AtMs
	err := moved.Validate()
	want := fmt.Sprintf("actions[0].after_events: the %s at %g ms comes after %d events, fewer than",
		moved.Actions[0].Do, moved.Actions[0].AtMs, moved.Actions[0].AfterEvents)
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("an action moved later: %v, want %q", err, want)
	}

	early := s
	early.Actions = append([]Action(nil), s.Actions[:1]...)
	early.Actions[0].AfterEvents = 3
	_, err = early.Run()
	want = fmt.Sprintf("actions[0] (%s at %gms): after_events: 3 events are handled by", early.Actions[0].Do, early.Actions[0].AtMs)
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("a count reached too early: %v, want %q", err, want)
	}
}
