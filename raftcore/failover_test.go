package raftcore

import "testing"

// Machine 1 is the failover authority only when the cluster starts: after a
// crash it comes back as a follower like any other machine, even if it never
// wrote anything.
func TestFailoverRestartedAuthorityComesBackAsFollower(t *testing.T) {
	w := newTestWorld(t, func(c *Config) { c.Protocol = ProtocolFailover; c.Nodes = 3 })
	if w.Node(1).Role() != RoleLeader {
		t.Fatalf("machine 1 should start as the authority, is %v", w.Node(1).Role())
	}
	mustApply(t, w, Action{Do: DoCrash, Node: 1})
	w.RunFor(4_000_000) // another machine promotes itself meanwhile
	mustApply(t, w, Action{Do: DoRestart, Node: 1})
	if r := w.Node(1).Role(); r != RoleFollower {
		t.Fatalf("restarted machine 1 is %v, want follower", r)
	}
}

// Slices the world hands out cannot be used to write into it.
func TestWorldSlicesAreCapped(t *testing.T) {
	w := newTestWorld(t, nil)
	mustApply(t, w, Action{Do: DoWrite, Node: 1, Key: "k", Value: "v"})
	acts := w.Actions()
	_ = append(acts, Action{Do: DoHeal})
	if len(w.Actions()) != 1 || cap(acts) != len(acts) {
		t.Fatalf("Actions() leaked its storage: cap %d len %d", cap(acts), len(acts))
	}
}
