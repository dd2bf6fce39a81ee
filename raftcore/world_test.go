package raftcore

import (
	"testing"
)

func newTestWorld(t testing.TB, mut func(*Config)) *World {
	t.Helper()
	cfg := DefaultConfig()
	if mut != nil {
		mut(&cfg)
	}
	w, err := NewWorld(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func leaders(w *World) []NodeID {
	var out []NodeID
	for i := 1; i <= w.Size(); i++ {
		if w.Status(NodeID(i)) == StatusUp && w.Node(NodeID(i)).Role() == RoleLeader {
			out = append(out, NodeID(i))
		}
	}
	return out
}

func mustApply(t testing.TB, w *World, a Action) {
	t.Helper()
	if err := w.Apply(a); err != nil {
		t.Fatalf("apply %v: %v", a, err)
	}
}

func noViolations(t testing.TB, w *World) {
	t.Helper()
	if v := w.Violations(); len(v) > 0 {
		t.Fatalf("violations: %+v", v)
	}
}

func TestElectsOneLeaderAndCommitsAWrite(t *testing.T) {
	w := newTestWorld(t, nil)
	w.RunUntil(5_000_000)
	ls := leaders(w)
	if len(ls) != 1 {
		t.Fatalf("want one leader after 5s, got %v", ls)
	}
	l := ls[0]
	follower := NodeID(1)
	if follower == l {
		follower = 2
	}
	mustApply(t, w, Action{Do: DoWrite, Node: int(follower), Key: "deployments/web", Value: "replicas=3"})
	w.RunFor(2_000_000)
	op, _ := w.Op(1)
	if op.Result != OpOK {
		t.Fatalf("write via follower: %+v", op)
	}
	for i := 1; i <= w.Size(); i++ {
		v, ok := w.Node(NodeID(i)).KV().Get("deployments/web")
		if !ok || v.Value != "replicas=3" {
			t.Fatalf("machine %d has %v %v", i, v, ok)
		}
	}
	noViolations(t, w)
}
