package indepcheck

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"raftlab/raftcore"
)

// TestIndependentCheckFindsObjectsCreatedTwice plays the docs' reconcile
// example and chaotic runs of a deployment controller, with idempotence
// off and on: the committed log, read here, holds exactly as many
// ReplicaSets created twice as raftcore's check counted, none with
// idempotence on, and no rule of Raft breaks.
func TestIndependentCheckFindsObjectsCreatedTwice(t *testing.T) {
	data, err := os.ReadFile("../../docs/examples/reconcile.json")
	if err != nil {
		t.Fatal(err)
	}
	example, err := raftcore.ParseSchedule(data)
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	for seed := int64(0); seed <= 40; seed++ {
		for _, idempotent := range []bool{false, true} {
			s := example
			if seed > 0 {
				s = chaoticSchedule(seed)
			}
			s.Options = &raftcore.ScheduleOptions{Idempotent: &idempotent}
			r, err := CheckSchedule(s, 0, 16)
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Violations) > 0 {
				t.Fatalf("seed %d: %v", seed, r.Violations)
			}
			want := r.World.ReconcileCounts().Duplicates
			if len(r.Reconcile) != want || (idempotent && want != 0) {
				t.Fatalf("seed %d, idempotent %v: raftcore counted %d duplicates, the log holds %d: %v", seed, idempotent, want, len(r.Reconcile), r.Reconcile)
			}
			if seed == 0 && !idempotent && (want != 1 || !strings.Contains(r.Reconcile[0].Text, "replicasets/web-cj89r, created at index 4")) {
				t.Fatalf("example: %v", r.Reconcile)
			}
			found += want
		}
	}
	if found < 3 {
		t.Fatalf("only %d duplicates in all the runs", found)
	}
}

// chaoticSchedule is a deployment controller on machine 1 reading machine
// 2's API server, with watches cut, the link between them cut and
// restored, the server crashed and restarted, reconciles repeated and the
// Deployment's template changed.
func chaoticSchedule(seed int64) raftcore.Schedule {
	r := rand.New(rand.NewPCG(uint64(seed), 27))
	s := raftcore.Schedule{Nodes: 3, Seed: seed, Actions: []raftcore.Action{
		{AtMs: 3000, Do: raftcore.DoDeployController, Node: 1, To: 2},
		{AtMs: 3000, Do: raftcore.DoWrite, Key: "deployments/web", Value: "replicas=3 image=web:1"},
	}}
	at := 3000.0
	for i := 0; i < 30; i++ {
		at += 20 + float64(r.IntN(800))
		var a raftcore.Action
		switch r.IntN(7) {
		case 0:
			a = raftcore.Action{Do: raftcore.DoWatchCut}
		case 1:
			a = raftcore.Action{Do: raftcore.DoCut, From: 1, To: 2}
		case 2:
			a = raftcore.Action{Do: raftcore.DoRestore, From: 1, To: 2}
		case 3:
			a = raftcore.Action{Do: raftcore.DoCrash, Node: 2}
		case 4:
			a = raftcore.Action{Do: raftcore.DoRestart, Node: 2}
		case 5:
			a = raftcore.Action{Do: raftcore.DoWrite, Key: "deployments/web", Value: fmt.Sprintf("replicas=3 image=web:%d", i)}
		default:
			a = raftcore.Action{Do: raftcore.DoReconcile, Key: "deployments/web"}
		}
		a.AtMs = at
		s.Actions = append(s.Actions, a)
	}
	s.Actions = append(s.Actions, raftcore.Action{AtMs: at, Do: raftcore.DoHeal}, raftcore.Action{AtMs: at, Do: raftcore.DoRestart, Node: 2})
	s.UntilMs = at + 40000
	return s
}
