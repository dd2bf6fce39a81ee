package raftcore

import (
	"strings"
	"testing"
)

// A world of five machines of which three are members: the spares run but
// never stand for election and are sent nothing, and the three elect a
// leader and commit writes on their own.
func TestSpareMachinesRunButTakeNoPart(t *testing.T) {
	w := newTestWorld(t, func(c *Config) { c.Nodes, c.Members = 5, 3 })
	w.RunUntil(5_000_000)
	ls := leaders(w)
	if len(ls) != 1 || ls[0] > 3 {
		t.Fatalf("want one leader among machines 1-3, got %v", ls)
	}
	mustApply(t, w, Action{Do: DoWrite, Node: int(ls[0]), Key: "k", Value: "v"})
	w.RunFor(2_000_000)
	for id := NodeID(1); id <= 5; id++ {
		n := w.Node(id)
		if got, want := n.Membership().String(), "voters=(1 2 3)"; got != want {
			t.Errorf("machine %d: configuration %s, want %s", id, got, want)
		}
		if id > 3 {
			if n.IsMember() || n.LastIndex() != 0 || n.Term() != 0 || n.Role() != RoleFollower {
				t.Errorf("spare %d: member=%v log=%d term=%d role=%s; want a follower of term 0 with an empty log",
					id, n.IsMember(), n.LastIndex(), n.Term(), n.Role())
			}
			continue
		}
		if _, ok := n.KV().Get("k"); !ok {
			t.Errorf("member %d does not have the write", id)
		}
	}
	for _, e := range w.Trace() {
		if e.Kind == TraceSend && e.Peer > 3 {
			t.Fatalf("a message was sent to spare machine %d: %v", e.Peer, e)
		}
	}
	noViolations(t, w)
}

func TestMembersMustFitTheMachines(t *testing.T) {
	for _, tc := range []struct {
		nodes, members int
		protocol       Protocol
		want           string
	}{
		{3, 4, ProtocolRaft, "members: 4 is out of range"},
		{3, -1, ProtocolRaft, "members: -1 is out of range"},
		{3, 2, ProtocolNaiveCopy, "spare machines need the raft protocol"},
	} {
		cfg := DefaultConfig()
		cfg.Nodes, cfg.Members, cfg.Protocol = tc.nodes, tc.members, tc.protocol
		if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("nodes %d members %d %s: got %v, want an error saying %q", tc.nodes, tc.members, tc.protocol, err, tc.want)
		}
	}
	cfg := DefaultConfig()
	cfg.Nodes, cfg.Members = 3, 3
	if err := cfg.Validate(); err != nil {
		t.Errorf("members equal to nodes: %v", err)
	}
}
