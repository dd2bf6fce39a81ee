package raftcore

import (
	"testing"
)

// TestAskAnswersFromEachMachinesOwnState loses one copy of a write under
// naive-copy, so that the machines honestly disagree, then checks how a
// crashed and a paused machine answer.
func TestAskAnswersFromEachMachinesOwnState(t *testing.T) {
	w := newTestWorld(t, func(c *Config) {
		c.Nodes, c.Protocol, c.Names = 3, ProtocolNaiveCopy, []string{"A", "B", "C"}
	})
	one := 1.0
	mustApply(t, w, Action{Do: DoLoss, From: 1, To: 3, OneWay: true, Loss: &one})
	mustApply(t, w, Action{Do: DoWrite, Node: 1, Key: "deployments/web", Value: "replicas=3"})
	w.RunFor(1_000_000)

	got := w.Ask("deployments/web")
	if len(got) != 3 {
		t.Fatalf("want 3 answers, got %d", len(got))
	}
	for i, want := range []bool{true, true, false} {
		if !got[i].Answered || got[i].Exists != want {
			t.Fatalf("machine %s answered %+v, want the key to exist: %v", got[i].Name, got[i], want)
		}
	}
	if got[0].Value != "replicas=3" || got[0].ModIndex != 1 || got[0].Applied != 1 {
		t.Fatalf("A's answer lacks the value or its index: %+v", got[0])
	}
	if got[2].Exists || got[2].Applied != 0 {
		t.Fatalf("C's answer: %+v", got[2])
	}

	mustApply(t, w, Action{Do: DoCrash, Node: 2})
	mustApply(t, w, Action{Do: DoPause, Node: 3})
	got = w.Ask("deployments/web")
	if got[1].Answered || got[1].Exists {
		t.Fatalf("a crashed machine must not answer: %+v", got[1])
	}
	if !got[2].Answered || !got[2].Paused || got[2].Exists {
		t.Fatalf("a paused machine answers from what it has, marked paused: %+v", got[2])
	}
	if got := w.Ask("deployments/none"); got[0].Exists {
		t.Fatalf("a key nobody wrote exists at A: %+v", got[0])
	}
}
