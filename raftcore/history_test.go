package raftcore

import (
	"strconv"
	"strings"
	"testing"
)

// historyRun is loadRun with a controller and a paused machine holding a
// client's write, so that operations wait while older ones are forgotten.
func historyRun(t *testing.T, limit int) *World {
	t.Helper()
	cfg := DefaultConfig()
	cfg.HistoryLimit = limit
	w := MustWorld(cfg)
	w.RunFor(2_000_000)
	mustApply(t, w, Action{Do: DoLoad, Key: "deployments/app", Keys: 3, EveryMs: 100})
	w.RunFor(5_000_000)
	mustApply(t, w, Action{Do: DoControl, Node: 1, Key: "deployments/app1", Change: "replicas+1", ThinkMs: 300})
	w.RunFor(3_000_000)
	mustApply(t, w, Action{Do: DoPause, Node: 4})
	mustApply(t, w, Action{Do: DoWrite, Node: 4, Key: "held", Value: "v"})
	w.RunFor(2_000_000)
	return w
}

func TestHistoryLimitKeepsTheNewestAndEveryWaitingOne(t *testing.T) {
	const limit = 16
	full, w := historyRun(t, 0), historyRun(t, limit)
	if w.TraceHash() != full.TraceHash() {
		t.Fatalf("the history limit changed the run")
	}
	all, kept, f := full.Ops(), w.Ops(), w.ForgottenOps()
	if f.Count == 0 || f.Count+len(kept) != len(all) {
		t.Fatalf("%d forgotten and %d kept of %d operations", f.Count, len(kept), len(all))
	}
	answered := 0
	for i, op := range kept {
		if want := all[f.Count+i]; op.ID != want.ID || op.Key != want.Key || op.Result != want.Result {
			t.Fatalf("kept operation %d is %+v, want %+v", i, op, want)
		}
		if op.Done() {
			answered++
		}
	}
	// The write to the paused machine waits; it is older than the newest
	// sixteen answered, and still kept.
	held := all[len(all)-1]
	for _, op := range all {
		if op.Key == "held" {
			held = op
		}
	}
	if held.Done() {
		t.Fatalf("the write to the paused machine was answered: %s", held.Result)
	}
	if op, ok := w.Op(held.ID); !ok || op.Key != "held" {
		t.Errorf("the waiting write %d is not kept", held.ID)
	}
	// Only the oldest operations go: the answered ones sent after the
	// waiting write stay with it.
	after := 0
	for _, op := range all {
		if op.ID > held.ID && op.Done() {
			after++
		}
	}
	if want := max(limit, after); answered < want || answered > want+2 {
		t.Errorf("%d answered operations kept, want %d (a write overlapping another may stay with it)", answered, want)
	}
	if after <= limit {
		t.Errorf("only %d answered after the waiting write: the test does not show it kept past the limit", after)
	}
	if _, ok := w.Op(1); ok {
		t.Errorf("operation 1 is still found")
	}
	if !w.ForgotWriteTo("deployments/app0") || w.ForgotWriteTo("held") || full.ForgotWriteTo("deployments/app0") {
		t.Errorf("keys with forgotten writes: app0 %v, held %v, app0 with no limit %v",
			w.ForgotWriteTo("deployments/app0"), w.ForgotWriteTo("held"), full.ForgotWriteTo("deployments/app0"))
	}
	var byResult ForgottenOps
	for _, op := range all[:f.Count] {
		byResult.Count++
		if op.Kind != DoRead {
			byResult.Writes++
		}
		switch op.Result {
		case OpOK:
			byResult.OK++
		case OpConflict:
			byResult.Conflict++
		case OpTimeout:
			byResult.Timeout++
		case OpRefused:
			byResult.Refused++
		}
	}
	if byResult != f {
		t.Errorf("forgotten counts %+v, want %+v", f, byResult)
	}
	if s := w.Summarize(); s.OpsForgotten == nil || *s.OpsForgotten != f || len(s.Ops) != len(kept) {
		t.Errorf("the summary lists %d operations and counts %+v forgotten", len(s.Ops), s.OpsForgotten)
	}
	// The controller's requests keep their ids; those kept are found by
	// them, the others are not.
	c, _ := w.Controller(1)
	fc, _ := full.Controller(1)
	if len(c.Ops) == 0 || len(c.Ops) != len(fc.Ops) {
		t.Fatalf("controller ops %v, want %v", c.Ops, fc.Ops)
	}
	for i, id := range c.Ops {
		op, ok := w.Op(id)
		if id != fc.Ops[i] || ok != (id > f.Count) || ok && op.Controller != 1 {
			t.Errorf("controller op %d: id %d (want %d), found %v", i, id, fc.Ops[i], ok)
		}
	}
	// A kept world and its clone go on as the world does.
	k := w.Keep()
	k.RunFor(3_000_000)
	w.RunFor(3_000_000)
	if k.TraceHash() != w.TraceHash() || len(k.Ops()) != len(w.Ops()) || k.ForgottenOps() != w.ForgottenOps() {
		t.Errorf("a kept world went another way")
	}
}

// TestForgottenWritesStillCatchStaleReads runs the stale lease read of
// docs/examples with more writes in between and a history of one: the
// write the read misses is forgotten by the time the read is answered, and
// the stale read must still be reported.
func TestForgottenWritesStillCatchStaleReads(t *testing.T) {
	s, err := ParseSchedule([]byte(`{"nodes": 3, "seed": 1, "until_ms": 8000, "actions": [
		{"at_ms": 2000, "do": "drift", "node": 1, "rate": 0.1},
		{"at_ms": 2100, "do": "partition", "groups": [[1], [2, 3]]},
		{"at_ms": 5000, "do": "write", "node": 2, "key": "deployments/web", "value": "replicas=5"},
		{"at_ms": 5100, "do": "write", "node": 2, "key": "other", "value": "1"},
		{"at_ms": 5200, "do": "write", "node": 2, "key": "other", "value": "2"},
		{"at_ms": 5500, "do": "read", "node": 1, "key": "deployments/web", "mode": "lease"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	w := runWithHistory(t, s, 1)
	if _, ok := w.Op(1); ok {
		t.Fatalf("the write is still kept: the test does not forget it")
	}
	if w.ViolationCount(RuleStaleRead) == 0 {
		t.Fatalf("no stale read reported once the write it missed was forgotten")
	}
}

// TestForgottenWritesStillCatchADoubleApply runs the duplicated proposal
// of docs/examples with many writes after it and a history of one: the
// write is forgotten while its second copy is still on its way, and its
// second application must still be reported.
func TestForgottenWritesStillCatchADoubleApply(t *testing.T) {
	var b strings.Builder
	for i := range 40 {
		b.WriteString(`, {"at_ms": ` + strconv.Itoa(3005+6*i) + `, "do": "write", "node": 3, "key": "y` + strconv.Itoa(i) + `", "value": "v"}`)
	}
	s, err := ParseSchedule([]byte(`{"nodes": 3, "seed": 1, "options": {"sessions": false}, "until_ms": 5000, "actions": [
		{"at_ms": 2999, "do": "latency", "latency_ms": [1, 2]},
		{"at_ms": 3000, "do": "latency", "from": 2, "to": 1, "oneway": true, "latency_ms": [10, 300]},
		{"at_ms": 3000, "do": "duplicate", "from": 2, "to": 1, "oneway": true, "duplicate": 1},
		{"at_ms": 3000, "do": "write", "node": 2, "key": "x", "value": "a"},
		{"at_ms": 3001, "do": "duplicate", "from": 2, "to": 1, "oneway": true, "duplicate": 0},
		{"at_ms": 3001, "do": "latency", "from": 2, "to": 1, "oneway": true, "latency_ms": [20, 40]}` + b.String() + `,
		{"at_ms": 3300, "do": "write", "node": 1, "key": "x", "value": "b"},
		{"at_ms": 4000, "do": "read", "node": 1, "key": "x"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	full, err := s.Run()
	if err != nil {
		t.Fatal(err)
	}
	if full.ViolationCount(RuleExactlyOnce) == 0 {
		t.Fatalf("the schedule applies no write twice")
	}
	// Snapshots every few entries compact the logs, so that the notes of
	// writes no log holds any more can go.
	s.Options.SnapshotCount, s.Options.CatchUpEntries = ptr(5), ptr(0)
	full, err = s.Run()
	if err != nil {
		t.Fatal(err)
	}
	if full.ViolationCount(RuleExactlyOnce) == 0 {
		t.Fatalf("with snapshots every 5 entries the schedule applies no write twice")
	}
	w := runWithHistory(t, s, 1)
	// The copy of write 1 that is applied second arrives after every
	// other write was answered and forgotten: its note must outlive them.
	if w.ForgottenOps().Count < 40 {
		t.Fatalf("%d operations forgotten: the test forgets too little", w.ForgottenOps().Count)
	}
	if w.ViolationCount(RuleExactlyOnce) != full.ViolationCount(RuleExactlyOnce) {
		t.Fatalf("%d writes applied twice reported with a history of one, %d with all of it",
			w.ViolationCount(RuleExactlyOnce), full.ViolationCount(RuleExactlyOnce))
	}
}

// TestCheckerNotesAreBoundedWithTheHistory runs a steady load for a
// virtual minute with a history of 16: the checker's notes of where each
// write took effect are kept only from the oldest write a log still holds.
func TestCheckerNotesAreBoundedWithTheHistory(t *testing.T) {
	cfg := DefaultConfig()
	cfg.HistoryLimit = 16
	w := MustWorld(cfg)
	w.RunFor(2_000_000)
	mustApply(t, w, Action{Do: DoLoad, Key: "deployments/app", Keys: 3, EveryMs: 100})
	w.RunFor(60_000_000)
	c := &w.checker
	// 600 writes; the logs hold the last 100 to 120 entries each.
	if c.tookBase < 400 || len(c.tookEffect) > 200 {
		t.Errorf("the checker keeps %d notes from operation %d on, of 600", len(c.tookEffect), c.tookBase+1)
	}
	if len(w.Ops()) > 20 {
		t.Errorf("%d operations kept with a limit of 16", len(w.Ops()))
	}
}

// runWithHistory runs schedule s keeping a history of limit operations.
func runWithHistory(t *testing.T, s Schedule, limit int) *World {
	t.Helper()
	cfg := s.Config()
	cfg.HistoryLimit = limit
	w := MustWorld(cfg)
	if err := w.Play(s.Actions); err != nil {
		t.Fatal(err)
	}
	w.RunUntil(msToUs(s.UntilMs))
	return w
}

// TestLivenessSeesForgottenFailures: writes that timed out at a paused
// machine are forgotten by a history of two, and the liveness judge still
// lists them as it does with the whole history.
func TestLivenessSeesForgottenFailures(t *testing.T) {
	run := func(limit int) *World {
		cfg := DefaultConfig()
		cfg.Nodes = 3
		cfg.HistoryLimit = limit
		w := MustWorld(cfg)
		w.RunFor(2_000_000)
		mustApply(t, w, Action{Do: DoPause, Node: 3})
		for range 5 {
			mustApply(t, w, Action{Do: DoWrite, Node: 3, Key: "k", Value: "v"})
			w.RunFor(100_000)
		}
		w.RunFor(6_000_000)
		mustApply(t, w, Action{Do: DoResume, Node: 3})
		for range 10 {
			w.RunFor(100_000)
			mustApply(t, w, Action{Do: DoWrite, Key: "k", Value: "w"})
		}
		w.RunFor(1_000_000)
		return w
	}
	full, w := run(0), run(2)
	if f := w.ForgottenOps(); f.Timeout != 5 {
		t.Fatalf("forgotten %+v, want the 5 writes that timed out among them", f)
	}
	lead := w.settledLeader()
	if lead == None {
		t.Fatal("no leader")
	}
	want := full.stalled(lead, 0, full.livenessTimes(lead))
	got := w.stalled(lead, 0, w.livenessTimes(lead))
	if len(want) < 5 || strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("problems with a history of two:\n%s\nwith the whole history:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
