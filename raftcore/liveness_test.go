package raftcore

import (
	"strconv"
	"strings"
	"testing"
)

// TestLivenessJudgeSeesADeafMachine: the judge is not vacuous. With the
// slowed machine's queue orphaned by hand, as the timer once did, the run
// breaks no safety rule, but the judge names the machine that fell behind
// and its requests that were never answered.
func TestLivenessJudgeSeesADeafMachine(t *testing.T) {
	s := loadScheduleFile(t, "slowed-machine-timer.json")
	w := MustWorld(s.Config())
	at := 0
	for s.Actions[at].Do != DoTimer {
		at++
	}
	timer, rest := s.Actions[:at+1], s.Actions[at+1:]
	if err := w.Play(timer); err != nil {
		t.Fatal(err)
	}
	if w.Backlog(3) == 0 {
		t.Fatal("machine 3 has no backlog when its timer is set")
	}
	w.machines[3].workGen++
	if err := w.Play(rest); err != nil {
		t.Fatal(err)
	}
	w.RunUntil(msToUs(s.UntilMs))
	noViolations(t, w)
	v := w.Liveness()
	if v.Verdict != NotLive {
		t.Fatalf("want not live, got %+v", v)
	}
	text := strings.Join(v.Problems, "; ")
	for _, want := range []string{"machine 3 is pre-candidate", "machine 3's commit index is 1", "write 4 at machine 3", "read 5 at machine 3"} {
		if !strings.Contains(text, want) {
			t.Errorf("problems %q do not say %q", text, want)
		}
	}
}

// TestLivenessJudgesOnlyACalmRun: the judge holds a run to its bound only
// once every machine is up at normal speed with an exact clock, every link
// whole and lossless, and the calm has lasted long enough; naive protocols
// promise no progress and are never judged.
func TestLivenessJudgesOnlyACalmRun(t *testing.T) {
	for _, c := range []struct {
		act  *Action
		note string
	}{
		{&Action{Do: DoPause, Node: 2}, "machine 2 is paused"},
		{&Action{Do: DoCrash, Node: 2}, "machine 2 is crashed"},
		{&Action{Do: DoSlow, Node: 2, MsPerMessage: 5}, "machine 2 is slowed"},
		{&Action{Do: DoDrift, Node: 2, Rate: 1.01}, "machine 2's clock runs at 1.01"},
		{&Action{Do: DoCut, From: 1, To: 2, OneWay: true}, "the link from 1 to 2"},
		{&Action{Do: DoLoss, Loss: ptr(0.01)}, "loses messages"},
		{&Action{Do: DoLatency, LatencyMs: []float64{400, 500}}, "round trip takes as long as an election timeout"},
	} {
		w := newTestWorld(t, nil)
		mustApply(t, w, *c.act)
		w.RunUntil(30_000_000)
		if v := w.Liveness(); v.Verdict != NotJudged || !strings.Contains(v.Note, c.note) {
			t.Errorf("after %v: %+v, want not judged: %s", c.act, v, c.note)
		}
	}
	w := newTestWorld(t, nil)
	w.RunUntil(1_000_000)
	if v := w.Liveness(); v.Verdict != NotJudged || v.Note != "no leader has settled yet" {
		t.Errorf("at 1 s: %+v", v)
	}
	w.RunUntil(30_000_000)
	if v := w.Liveness(); v.Verdict != Live {
		t.Errorf("at 30 s: %+v", v)
	}
	w = newTestWorld(t, func(c *Config) { c.Protocol = ProtocolNaiveCopy })
	w.RunUntil(30_000_000)
	if v := w.Liveness(); v.Verdict != NotJudged || !strings.Contains(v.Note, "promises no progress") {
		t.Errorf("naive-copy: %+v", v)
	}
}

// TestRandomRunsAreLiveAfterHealing: every random run, left calm after its
// last quarter heals everything, settles on a leader that every machine
// follows and catches up to, and answers its clients, within the judge's
// bound.
func TestRandomRunsAreLiveAfterHealing(t *testing.T) {
	runs := int64(300)
	if testing.Short() {
		runs = 45
	}
	for seed := int64(1); seed <= runs; seed++ {
		w := RandomRun(seed, RandomOptions{Nodes: 1 + int(seed%9), UntilMs: 12_000})
		if v := w.AwaitLiveness(); v.Verdict != Live {
			failWithSchedule(t, w, string(v.Verdict)+": "+v.Note+strings.Join(v.Problems, "; "))
		}
	}
}

func ptr[T any](v T) *T { return &v }

// TestLivenessHoldsUnderABurstOfWrites: the judge gives no false verdict
// on a correct cluster that is merely busy. A burst of 150 writes through
// flow control that lets one entry a round trip to each follower keeps
// followers behind, and many clients time out while the burst is worked
// through; the followers that lag are allowed a round trip per entry they
// lack, and the timeouts before the leader could have worked through its
// log are not held against it.
func TestLivenessHoldsUnderABurstOfWrites(t *testing.T) {
	s := Schedule{Nodes: 5, Seed: 3, UntilMs: 30_000, Options: &ScheduleOptions{MaxInflight: ptr(1), MaxEntriesPerMsg: ptr(1)}}
	for i := 0; i < 150; i++ {
		s.Actions = append(s.Actions, Action{AtMs: float64(3000 + 5*i), Do: DoWrite, Node: 1 + i%5, Key: "k" + strconv.Itoa(i%3), Value: "v" + strconv.Itoa(i)})
	}
	w, err := s.Run()
	if err != nil {
		t.Fatal(err)
	}
	timeouts := 0
	for _, op := range w.Ops() {
		if op.Result == OpTimeout {
			timeouts++
		}
	}
	if v := w.Liveness(); v.Verdict != Live || timeouts == 0 {
		t.Errorf("%d timeouts; liveness %+v", timeouts, v)
	}
	noViolations(t, w)
}

// TestLivenessHoldsOnlyMembersToTheLeader: a machine taken out of the
// configuration stops hearing the leader (its commit index stays where it
// was, and it may sit in an old term). The judge must not hold that against
// the cluster: removing any one of three machines, the leader included, and
// writing on leaves a live run. Before the judge looked only at members,
// every one of these 60 runs was ruled not live.
func TestLivenessHoldsOnlyMembersToTheLeader(t *testing.T) {
	for seed := int64(1); seed <= 15; seed++ {
		for _, target := range []NodeID{None, 1, 2, 3} {
			cfg := DefaultConfig()
			cfg.Nodes, cfg.Seed = 3, seed
			w := MustWorld(cfg)
			w.RunFor(3_000_000)
			if target == None {
				target = w.settledLeader()
			}
			if err := w.Apply(Action{Do: DoRemove, Node: int(target)}); err != nil {
				t.Fatal(err)
			}
			w.RunFor(1_000_000)
			for _, a := range []Action{{Do: DoWrite, Node: 1, Key: "k", Value: "a"}, {Do: DoWrite, Node: 2, Key: "k", Value: "b"}} {
				if err := w.Apply(a); err != nil {
					t.Fatal(err)
				}
			}
			w.RunFor(2_000_000)
			if v := w.AwaitLiveness(); v.Verdict != Live {
				t.Errorf("seed %d, machine %d removed: %+v", seed, target, v)
			}
			noViolations(t, w)
		}
	}
}
