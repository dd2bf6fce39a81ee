package raftcore

import (
	"strings"
	"testing"
)

// loadRun runs five machines for a virtual minute under a steady load to
// the cluster, with a crash of the machine the client is connected to in
// the middle, so that the load fails over to the next machine.
func loadRun(t *testing.T, cfg Config) *World {
	t.Helper()
	w := MustWorld(cfg)
	w.RunFor(2_000_000)
	mustApply(t, w, Action{Do: DoLoad, Key: "deployments/app", Keys: 3, EveryMs: 100})
	w.RunFor(20_000_000)
	mustApply(t, w, Action{Do: DoCrash, Node: int(w.Endpoint())})
	w.RunFor(20_000_000)
	mustApply(t, w, Action{Do: DoLoadStop})
	w.RunFor(18_000_000)
	return w
}

func TestLoadWritesRoundItsKeysUntilStopped(t *testing.T) {
	w := loadRun(t, DefaultConfig())
	if got := len(w.Actions()); got != 3 {
		t.Fatalf("%d actions, want 3 (load, crash, load-stop): the load's writes are not actions", got)
	}
	ops := w.Ops()
	// A write every 100 ms for 40 s: 400 writes, the first 100 ms after
	// the load began.
	if len(ops) != 400 {
		t.Fatalf("%d writes, want 400", len(ops))
	}
	endpoints := map[NodeID]bool{}
	for i, op := range ops {
		key := "deployments/app" + string(rune('0'+i%3))
		if op.Kind != DoWrite || op.Key != key || !op.Cluster || op.InvokeUs != 2_000_000+int64(i+1)*100_000 {
			t.Fatalf("write %d: %s %s at %d us (cluster %v), want write %s at %d", i, op.Kind, op.Key, op.InvokeUs, op.Cluster, key, 2_000_000+int64(i+1)*100_000)
		}
		endpoints[op.Node] = true
	}
	if len(endpoints) != 2 {
		t.Errorf("the load wrote to %d machines, want 2: the one it was connected to, then the next after its crash", len(endpoints))
	}
	if _, on := w.Load(); on {
		t.Errorf("a load still runs after load-stop")
	}
	if n := w.ViolationCount(""); n > 0 {
		t.Errorf("%d violations: %v", n, w.Violations()[0])
	}
}

func TestLoadReplaysFromItsActionLog(t *testing.T) {
	live := loadRun(t, DefaultConfig())
	again := loadRun(t, DefaultConfig())
	if live.TraceHash() != again.TraceHash() {
		t.Fatalf("the same seed and actions gave two traces")
	}
	replay, err := live.Schedule().Run()
	if err != nil {
		t.Fatal(err)
	}
	if replay.TraceHash() != live.TraceHash() || replay.TraceCount() != live.TraceCount() {
		t.Fatalf("replay: hash %s (%d events), live %s (%d events)", HashString(replay.TraceHash()), replay.TraceCount(),
			HashString(live.TraceHash()), live.TraceCount())
	}
	// A second load replaces the first: one write every 50 ms, not two
	// streams.
	w := MustWorld(DefaultConfig())
	w.RunFor(2_000_000)
	mustApply(t, w, Action{Do: DoLoad, Key: "a", Keys: 1, EveryMs: 100})
	w.RunFor(1_000_000)
	mustApply(t, w, Action{Do: DoLoad, Node: 2, Key: "b", Keys: 2, EveryMs: 50})
	w.RunFor(1_000_000)
	var a, b int
	for _, op := range w.Ops() {
		switch {
		case op.Key == "a0":
			a++
		case strings.HasPrefix(op.Key, "b") && op.Node == 2 && !op.Cluster:
			b++
		}
	}
	if a != 10 || b != 20 {
		t.Errorf("%d writes of the first load and %d of the second, want 10 and 20", a, b)
	}
}

func TestScheduleWithBadLoadIsRefused(t *testing.T) {
	for _, c := range []struct{ action, want string }{
		{`{"at_ms": 1, "do": "load", "key": "k", "keys": 3}`, "every_ms: load writes every 1 to 60000 milliseconds, got 0"},
		{`{"at_ms": 1, "do": "load", "key": "k", "keys": 3, "every_ms": 0.5}`, "every_ms: load writes every 1 to 60000"},
		{`{"at_ms": 1, "do": "load", "key": "k", "keys": 0, "every_ms": 100}`, "keys: load writes round 1 to 1000 keys, got 0"},
		{`{"at_ms": 1, "do": "load", "key": "k", "keys": 1001, "every_ms": 100}`, "keys: load writes round 1 to 1000 keys, got 1001"},
		{`{"at_ms": 1, "do": "load", "keys": 3, "every_ms": 100}`, "key: load needs the keys' prefix"},
		{`{"at_ms": 1, "do": "load", "node": 9, "key": "k", "keys": 3, "every_ms": 100}`, "node: 9 is out of range: use 1 to 3"},
		{`{"at_ms": 1, "do": "load-stop", "every_ms": 100}`, "load-stop: takes no fields"},
		{`{"at_ms": 1, "do": "write", "node": 1, "key": "k", "value": "v", "every_ms": 100}`, "every_ms: only a load has an interval, not write"},
		{`{"at_ms": 1, "do": "write", "node": 1, "key": "k", "value": "v", "keys": 2}`, "keys: only a load writes round several keys, not write"},
	} {
		_, err := ParseSchedule([]byte(`{"nodes": 3, "until_ms": 100, "actions": [` + c.action + `]}`))
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "actions[0]") {
			t.Errorf("%s: error %v, want one naming actions[0] and saying %q", c.action, err, c.want)
		}
	}
	s, err := ParseSchedule([]byte(`{"nodes": 3, "until_ms": 3000, "actions": [
		{"at_ms": 1000, "do": "load", "key": "k", "keys": 2, "every_ms": 250},
		{"at_ms": 2000, "do": "load-stop"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	w, err := s.Run()
	if err != nil {
		t.Fatal(err)
	}
	if n := len(w.Ops()); n != 4 {
		t.Errorf("a load every 250 ms for a second made %d writes, want 4", n)
	}
}
