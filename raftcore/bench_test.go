package raftcore

// Benchmarks. BENCHMARKS.md gives the commands, the machine and the results.
//
// The elect-and-commit pair runs raftcore and etcd-io/raft side by side in
// one benchmark so that one `go test -bench` run measures both. The etcd
// cluster is three RawNodes over MemoryStorage with an in-memory message
// pump and a logger that discards everything (the cheapest way to run it);
// the raftcore cluster is a full World: clock, network with latency,
// clients, trace and safety checker.

import (
	"fmt"
	"testing"

	etcdraft "go.etcd.io/raft/v3"
)

// drain delivers messages until none is left.
func (p *etcdPump) drain() {
	for len(p.queue) > 0 {
		m := p.queue[0]
		p.queue = p.queue[1:]
		p.rns[m.To].Step(m)
		p.ready(int(m.To))
	}
}

func (p *etcdPump) leader() int {
	for id := 1; id < len(p.rns); id++ {
		if p.rns[id].BasicStatus().RaftState == etcdraft.StateLeader {
			return id
		}
	}
	return 0
}

// commitOne proposes one entry at the leader and runs until every machine
// has applied it.
func (p *etcdPump) commitOne(b *testing.B, l int) {
	if err := p.rns[l].Propose([]byte("deployments/web=replicas=3")); err != nil {
		b.Fatal(err)
	}
	p.ready(l)
	p.drain()
	want, _ := p.stores[l].LastIndex()
	for id := 1; id < len(p.rns); id++ {
		if p.applied[id] < want {
			b.Fatalf("etcd machine %d applied %d of %d", id, p.applied[id], want)
		}
	}
}

func raftcoreLeader(w *World) NodeID {
	for id := 1; id <= w.Size(); id++ {
		if w.Node(NodeID(id)).Role() == RoleLeader {
			return NodeID(id)
		}
	}
	return None
}

// raftcoreCommitOne writes at the leader and steps the world until every
// machine has applied the write.
func raftcoreCommitOne(b *testing.B, w *World, l NodeID) {
	if err := w.Apply(Action{Do: DoWrite, Node: int(l), Key: "deployments/web", Value: "replicas=3"}); err != nil {
		b.Fatal(err)
	}
	want := w.Node(l).LastIndex()
	for id := 1; id <= w.Size(); id++ {
		for w.Node(NodeID(id)).Applied() < want {
			if !w.Step() {
				b.Fatalf("raftcore machine %d never applied %d", id, want)
			}
		}
	}
}

// BenchmarkElectAndCommit3 elects a leader of three machines and commits one
// entry, applied on every machine. start=ticks lets election timeouts fire
// (each implementation draws its own); start=campaign starts the election
// at machine 1 by hand at once.
func BenchmarkElectAndCommit3(b *testing.B) {
	o := clusterOpts{nodes: 3, preVote: true, checkQuorum: true}
	for _, start := range []string{"ticks", "campaign"} {
		b.Run("start="+start+"/impl=raftcore", func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				cfg := DefaultConfig()
				cfg.Nodes = 3
				cfg.Seed = int64(i%16) + 1
				w := MustWorld(cfg)
				if start == "campaign" {
					if err := w.Apply(Action{Do: DoTimeout, Node: 1}); err != nil {
						b.Fatal(err)
					}
				}
				for raftcoreLeader(w) == None {
					if !w.Step() {
						b.Fatal("no leader")
					}
				}
				raftcoreCommitOne(b, w, raftcoreLeader(w))
			}
		})
		b.Run("start="+start+"/impl=etcd", func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				p := newEtcdPump(o)
				if start == "campaign" {
					if err := p.rns[1].Campaign(); err != nil {
						b.Fatal(err)
					}
					p.ready(1)
					p.drain()
				}
				for ticks := 0; p.leader() == 0; ticks++ {
					if ticks > 1000 {
						b.Fatal("no leader")
					}
					for id := 1; id <= o.nodes; id++ {
						p.rns[id].Tick()
						p.ready(id)
					}
					p.drain()
				}
				p.commitOne(b, p.leader())
			}
		})
	}
}

// TestFnvUintIsByteWiseFNV checks the shortcut in fnvUint (trailing zero
// bytes folded into one multiplication) against FNV-1a done byte by byte:
// trace and log hashes must not change with the speedup.
func TestFnvUintIsByteWiseFNV(t *testing.T) {
	byteWise := func(h, v uint64) uint64 {
		for i := 0; i < 8; i++ {
			h ^= v & 0xff
			h *= fnvPrime
			v >>= 8
		}
		return h
	}
	r := NewRand(7)
	for i := 0; i < 100000; i++ {
		// Values of every byte length, including 0 and full 64-bit ones.
		h, v := r.Uint64(), r.Uint64()>>(8*r.Intn(9))
		if got, want := fnvUint(h, v), byteWise(h, v); got != want {
			t.Fatalf("fnvUint(%#x, %#x) = %#x, want %#x", h, v, got, want)
		}
	}
}

// BenchmarkSteadyState5 runs five machines for 60 virtual seconds with a
// client write every 10 ms (100 a second), sent to the machines in turn
// (followers forward to the leader). It reports events handled per second
// of wall time. trace=all is the default configuration, which keeps every
// trace event in memory; trace=4096 keeps only the newest 4096.
func BenchmarkSteadyState5(b *testing.B) {
	for _, limit := range []int{0, 4096} {
		name := "trace=all"
		if limit > 0 {
			name = fmt.Sprintf("trace=%d", limit)
		}
		b.Run(name, func(b *testing.B) { benchSteadyState(b, limit) })
	}
}

func benchSteadyState(b *testing.B, traceLimit int) {
	const writes = 6000
	const gapUs = 10_000
	keys := make([]string, writes)
	values := make([]string, writes)
	for k := range keys {
		keys[k] = fmt.Sprintf("deployments/app%d", k%8)
		values[k] = fmt.Sprintf("v%d", k)
	}
	b.ReportAllocs()
	var events uint64
	for i := 0; i < b.N; i++ {
		cfg := DefaultConfig()
		cfg.Nodes = 5
		cfg.TraceLimit = traceLimit
		w := MustWorld(cfg)
		for k := 0; k < writes; k++ {
			w.RunUntil(int64(k) * gapUs)
			if err := w.Apply(Action{Do: DoWrite, Node: 1 + k%5, Key: keys[k], Value: values[k]}); err != nil {
				b.Fatal(err)
			}
		}
		w.RunUntil(writes * gapUs)
		events += w.Processed()
		if ok := countOK(w); ok < writes*9/10 {
			b.Fatalf("only %d of %d writes succeeded", ok, writes)
		}
	}
	b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
	b.ReportMetric(float64(events)/float64(b.N), "events/op")
}

func countOK(w *World) int {
	n := 0
	for _, op := range w.Ops() {
		if op.Result == OpOK {
			n++
		}
	}
	return n
}

// BenchmarkRandomRun plays randomized fault runs (RandomRun with default
// options: 2 to 9 machines, 20 to 40 virtual seconds, faults and client
// requests every 400 ms on average), the checker on. One op is the batch of
// seeds 1 to 8, so every op does the same work.
func BenchmarkRandomRun(b *testing.B) {
	const seeds = 8
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		for s := int64(1); s <= seeds; s++ {
			if w := RandomRun(s, RandomOptions{}); len(w.Violations()) > 0 {
				b.Fatalf("seed %d: %v", s, w.Violations()[0])
			}
		}
	}
	b.ReportMetric(float64(seeds*b.N)/b.Elapsed().Seconds(), "schedules/s")
}
