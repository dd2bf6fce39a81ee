package timeline

import (
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
	"testing"

	"raftlab/raftcore"
)

// The benchmark run: five machines with the default configuration and one
// client write every 200 ms, to each machine in turn, for ten virtual
// minutes.
const benchRunUs = 600_000_000

func buildBenchRun(tb testing.TB) *Timeline {
	tl := mustNew(tb, raftcore.DefaultConfig(), Options{})
	for i := 0; tl.Pos().AtUs < benchRunUs; i++ {
		tl.Advance(200_000)
		mustAct(tb, tl, raftcore.Action{Do: raftcore.DoWrite, Node: 1 + i%5, Key: "deployments/web", Value: "replicas=" + string(rune('0'+i%10))})
	}
	return tl
}

var benchRun = sync.OnceValue(func() *Timeline { return buildBenchRun(&testing.B{}) })

// BenchmarkSeekRandom rewinds from the head to a random earlier moment.
func BenchmarkSeekRandom(b *testing.B) {
	tl := benchRun()
	head := tl.Head()
	r := rand.New(rand.NewPCG(1, 2))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		tl.SeekTo(head)
		us := r.Int64N(head.AtUs)
		b.StartTimer()
		tl.SeekTime(us)
	}
}

// BenchmarkStepBack steps back one event at a time from the head (recent)
// and from a minute into the run (early, where checkpoints are sparse).
func BenchmarkStepBack(b *testing.B) {
	tl := benchRun()
	for _, c := range []struct {
		name  string
		start Position
	}{{"recent", tl.Head()}, {"early", Position{math.MaxUint64, 60_000_000, allActions}}} {
		b.Run(c.name, func(b *testing.B) {
			tl.SeekTo(c.start)
			from := tl.Pos()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if tl.Pos().Events+5000 < from.Events {
					b.StopTimer()
					tl.SeekTo(from)
					b.StartTimer()
				}
				tl.StepBack()
			}
		})
	}
}

// BenchmarkRawRun is the same run on a bare world, for comparison with
// BenchmarkLiveRun: the cost of marks and checkpoints.
func BenchmarkRawRun(b *testing.B) {
	for i := 0; i < b.N; i++ {
		cfg := raftcore.DefaultConfig()
		cfg.TraceLimit = DefaultTraceLimit
		w := raftcore.MustWorld(cfg)
		for j := 0; w.Now() < benchRunUs; j++ {
			w.RunFor(200_000)
			if err := w.Apply(raftcore.Action{Do: raftcore.DoWrite, Node: 1 + j%5, Key: "deployments/web", Value: "replicas=" + string(rune('0'+j%10))}); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkLiveRun builds the ten-minute run live, and reports the memory
// its checkpoints hold next to the size of one world at the head.
func BenchmarkLiveRun(b *testing.B) {
	var tl *Timeline
	for i := 0; i < b.N; i++ {
		tl = buildBenchRun(b)
	}
	b.StopTimer()
	clone := tl.World().Clone()
	withClone := heapBytes()
	runtime.KeepAlive(clone)
	clone = nil
	all := heapBytes()
	n := tl.Checkpoints()
	tl.br.cps = []checkpoint{tl.br.cps[0]}
	without := heapBytes()
	runtime.KeepAlive(tl)
	b.ReportMetric(float64(all-without), "checkpoint-bytes")
	b.ReportMetric(float64(withClone-all), "world-bytes")
	b.ReportMetric(float64(n), "checkpoints")
}

func heapBytes() int64 {
	var m runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

// BenchmarkOpenLink decodes the ten-minute run's link and rebuilds it at a
// moment in its middle.
func BenchmarkOpenLink(b *testing.B) {
	tl := benchRun()
	tl.SeekTime(benchRunUs / 2)
	s, err := EncodeLink(tl.Link("", nil))
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		l, err := DecodeLink(s)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := OpenLink(l); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(s)), "link-chars")
}
