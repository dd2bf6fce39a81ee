package raftcore

import (
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// BenchmarkHourOfWrites5 runs five machines with the default configuration
// for a virtual hour, a client write every 100 ms (ten keys, 36,000
// writes), keeping the newest 4096 trace events as the app does, and
// reports the world's live heap (after a collection) at 10, 30 and 60
// virtual minutes, and the heap at 60 over the heap at 10.
//
// snapshots=on and snapshots=off take each write as an action of its own,
// to each machine in turn, as a reader's clicks are: snapshots=on is the
// default (a snapshot every 100 applied entries, 20 kept), snapshots=off
// never compacts. Their heap holds, besides the machines, the run's
// record: the action log (every write is an action, which share links
// and replay need) and the whole client history (every write is an
// operation), which grow by the same few hundred bytes a write however
// the machines keep their logs. The record's arrays are counted apart
// (record-MB), and core-MB is the heap without them: the machines, the
// network, the checker and the trace.
//
// load,history=4096 makes the same writes with one "load" action, to the
// cluster, and keeps the newest 4096 answered operations (as the app
// does): the action log is one line, and the history and the checker's
// notes stay the same size, so the whole heap is flat.
func BenchmarkHourOfWrites5(b *testing.B) {
	for _, v := range []struct {
		name         string
		snaps, load  bool
		historyLimit int
	}{
		{"snapshots=on", true, false, 0},
		{"snapshots=off", false, false, 0},
		{"load,history=4096", true, true, 4096},
	} {
		b.Run(v.name, func(b *testing.B) {
			for range b.N {
				cfg := DefaultConfig()
				cfg.TraceLimit = 4096
				cfg.HistoryLimit = v.historyLimit
				if !v.snaps {
					cfg.SnapshotCount = 0
				}
				w := MustWorld(cfg)
				if v.load {
					mustApply(b, w, Action{Do: DoLoad, Key: "deployments/app", Keys: 10, EveryMs: 100})
				}
				marks := map[int64]string{10: "10min", 30: "30min", 60: "60min"}
				heaps := map[string]int64{}
				for i := 0; w.Now() < 3600*1_000_000; i++ {
					w.RunFor(100_000)
					if !v.load {
						a := Action{Do: DoWrite, Node: 1 + i%5, Key: "deployments/app" + strconv.Itoa(i%10), Value: "replicas=" + strconv.Itoa(i%7)}
						if err := w.Apply(a); err != nil {
							b.Fatal(err)
						}
					}
					if mark, ok := marks[w.Now()/60_000_000]; ok && w.Now()%60_000_000 < 100_000 && i > 0 {
						delete(marks, w.Now()/60_000_000)
						b.StopTimer()
						heap, record := liveHeap(), w.recordBytes()
						heaps[mark] = heap
						b.ReportMetric(float64(heap)/1e6, "heap-MB-"+mark)
						b.ReportMetric(float64(heap-record)/1e6, "core-MB-"+mark)
						b.ReportMetric(float64(record)/1e6, "record-MB-"+mark)
						b.StartTimer()
					}
				}
				if n := w.ViolationCount(""); n > 0 {
					b.Fatalf("%d violations: %v", n, w.Violations()[0])
				}
				b.ReportMetric(float64(heaps["60min"])/float64(heaps["10min"]), "heap-60/10")
				b.ReportMetric(float64(len(w.Ops())+w.ForgottenOps().Count), "writes")
				b.ReportMetric(float64(len(w.Actions())), "actions")
				runtime.KeepAlive(w)
			}
		})
	}
}

// liveHeap is the heap in use after a full collection.
func liveHeap() int64 {
	var m runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

// recordBytes is what the world's record of the run takes on the heap: the
// action log and the client history kept (each operation with its key,
// value, side of the network and round-trip bounds), and the checker's
// notes of where each write took effect. It is measured as the heap a deep copy of
// them takes, so the allocator's rounding is counted as in the original.
func (w *World) recordBytes() int64 {
	before := liveHeap()
	type record struct {
		actions []Action
		ops     []Op
		took    []uint64
	}
	r := record{actions: make([]Action, len(w.actions), cap(w.actions)), ops: make([]Op, len(w.ops), cap(w.ops)),
		took: append(make([]uint64, 0, cap(w.checker.tookEffect)), w.checker.tookEffect...)}
	for i, a := range w.actions {
		a.Key, a.Value = strings.Clone(a.Key), strings.Clone(a.Value)
		r.actions[i] = a
	}
	for i, op := range w.ops {
		// An operation shares its key and value with its action; a load's
		// writes have their own.
		if len(r.actions) > 0 && r.actions[0].Do == DoWrite {
			op.Key, op.Value = r.actions[0].Key, r.actions[0].Value
		} else {
			op.Key, op.Value = strings.Clone(op.Key), strings.Clone(op.Value)
		}
		op.Side = append(make([]NodeID, 0, cap(op.Side)), op.Side...)
		op.RoundTripMinUs = append(make([]int64, 0, cap(op.RoundTripMinUs)), op.RoundTripMinUs...)
		r.ops[i] = op
	}
	after := liveHeap()
	runtime.KeepAlive(r)
	return after - before
}
