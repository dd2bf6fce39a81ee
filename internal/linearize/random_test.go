package linearize

import (
	"encoding/json"
	"flag"
	"strconv"
	"testing"

	"raftlab/raftcore"
)

var randomRuns = flag.Int("random-runs", 2000, "number of randomized runs for the linearizability tests")

func runs() int64 {
	if testing.Short() {
		return 200
	}
	return int64(*randomRuns)
}

func schedule(w *raftcore.World) string {
	js, _ := json.Marshal(w.Schedule())
	return string(js)
}

// withoutReads keeps the writes and the reads served in one of modes.
func withoutReads(ops []raftcore.Op, modes ...raftcore.ReadMode) []raftcore.Op {
	var out []raftcore.Op
	for _, op := range ops {
		keep := op.Kind != raftcore.DoRead
		for _, m := range modes {
			keep = keep || op.Mode == m
		}
		if keep {
			out = append(out, op)
		}
	}
	return out
}

// readIndexHistoryIsLinearizable checks a random run's writes and
// linearizable (ReadIndex) reads; it returns the first stale read, if any.
func readIndexHistoryIsLinearizable(w *raftcore.World) (ReadVerdict, bool) {
	r := Check(withoutReads(w.Ops(), raftcore.ReadLinearizable))
	for _, v := range r.Reads {
		if v.Verdict != Linearizable && v.Verdict != Unanswered {
			return v, false
		}
	}
	return ReadVerdict{}, true
}

// TestReadIndexReadsAreLinearizable: over thousands of random fault runs
// (partitions, crashes, pauses, loss, drift), the history of writes and
// ReadIndex reads is always linearizable.
func TestReadIndexReadsAreLinearizable(t *testing.T) {
	answered := 0
	for seed := int64(1); seed <= runs(); seed++ {
		w := raftcore.RandomRun(seed, raftcore.RandomOptions{})
		if v, ok := readIndexHistoryIsLinearizable(w); !ok {
			op, _ := w.Op(v.Op)
			t.Fatalf("seed %d: read %d (%+v) judged %s, missed %d\nschedule: %s", seed, v.Op, op, v.Verdict, v.Missed, schedule(w))
		}
		for _, op := range w.Ops() {
			if op.Mode == raftcore.ReadLinearizable && op.Result == raftcore.OpOK {
				answered++
			}
		}
	}
	if answered == 0 {
		t.Fatal("no linearizable read was answered; the test judged nothing")
	}
}

// TestReadWithoutConfirmIsCaught is the broken variant: a leader that serves
// ReadIndex reads without the heartbeat round that confirms it still leads
// gives a stale read on some random run, which the test above would reject.
func TestReadWithoutConfirmIsCaught(t *testing.T) {
	for seed := int64(1); seed <= 2000; seed++ {
		w := raftcore.RandomRun(seed, raftcore.RandomOptions{Bugs: raftcore.BugReadWithoutConfirm})
		if v, ok := readIndexHistoryIsLinearizable(w); !ok {
			t.Logf("seed %d: read %d judged %s, missed write %d", seed, v.Op, v.Verdict, v.Missed)
			return
		}
	}
	t.Fatal("reads served without confirming leadership were never caught")
}

// TestLocalReadsGoStaleInPartitions: a local (serializable) read answers
// from the asked machine's copy, so on some runs one made during a partition
// is flagged stale, naming an acknowledged write it missed.
func TestLocalReadsGoStaleInPartitions(t *testing.T) {
	for seed := int64(1); seed <= runs(); seed++ {
		w := raftcore.RandomRun(seed, raftcore.RandomOptions{})
		r := Check(withoutReads(w.Ops(), raftcore.ReadLocal))
		for _, v := range r.Stale() {
			op, _ := w.Op(v.Op)
			missed, _ := w.Op(v.Missed)
			if op.Split && missed.FinishedBefore(op) {
				t.Logf("seed %d: local read %d at %s during a partition missed write %d", seed, op.ID, w.Config().Name(op.Node), missed.ID)
				return
			}
		}
	}
	t.Fatal("no local read during a partition was ever flagged stale")
}

// readRun is a random run built to stress reads: the leader is cut off
// often, CheckQuorum is sometimes off so that a cut-off leader lingers, and
// most actions are writes and reads on two keys. Every choice comes from
// seed and goes through World.Apply, so w.Schedule() replays it.
func readRun(seed int64, bugs raftcore.Bug) *raftcore.World {
	r := raftcore.NewRand(seed)
	cfg := raftcore.DefaultConfig()
	cfg.Seed, cfg.Nodes, cfg.Bugs = seed, []int{3, 5}[r.Intn(2)], bugs
	cfg.CheckQuorum = r.Chance(0.5)
	w := raftcore.MustWorld(cfg)
	n := cfg.Nodes
	leader := func() int {
		for id := 1; id <= n; id++ {
			if w.Status(raftcore.NodeID(id)) == raftcore.StatusUp && w.Node(raftcore.NodeID(id)).Role() == raftcore.RoleLeader {
				return id
			}
		}
		return 1 + r.Intn(n)
	}
	apply := func(a raftcore.Action) {
		if err := w.Apply(a); err != nil {
			panic(err)
		}
	}
	for step := 0; step < 80; step++ {
		w.RunFor(int64(100+r.Intn(500)) * 1000)
		key := []string{"k1", "k2"}[r.Intn(2)]
		switch k := r.Intn(100); {
		case k < 12:
			l := leader()
			var rest []int
			for id := 1; id <= n; id++ {
				if id != l {
					rest = append(rest, id)
				}
			}
			apply(raftcore.Action{Do: raftcore.DoPartition, Groups: [][]int{{l}, rest}})
		case k < 20:
			apply(raftcore.Action{Do: raftcore.DoHeal})
		case k < 55:
			apply(raftcore.Action{Do: raftcore.DoWrite, Node: 1 + r.Intn(n), Key: key, Value: "v" + strconv.Itoa(step)})
		default:
			mode := []raftcore.ReadMode{raftcore.ReadLinearizable, raftcore.ReadLease, raftcore.ReadLocal}[r.Intn(3)]
			apply(raftcore.Action{Do: raftcore.DoRead, Node: 1 + r.Intn(n), Key: key, Mode: mode})
		}
	}
	w.RunFor(6_000_000) // let every client hear back or time out
	return w
}
