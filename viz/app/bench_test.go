package app

import (
	"os"
	"runtime"
	"runtime/pprof"
	"strconv"
	"testing"
	"time"

	"raftlab/viz"
	"raftlab/viz/app/command"
)

// busyApp is nine machines with slow links and steady writes, so that
// hundreds of messages are on the wire at once.
func busyApp(b testing.TB, want int) *App {
	a := newApp(b, 9, 1280, 800)
	var c hostClock
	untilLeader(b, a, &c)
	if err := a.Act([]byte(`{"do":"latency","latency_ms":[2000,3000]}`)); err != nil {
		b.Fatal(err)
	}
	for i := 0; i < 400 && a.World().InFlightCount() < want; i++ {
		a.Key("c")
		c.run(a, 50*time.Millisecond)
	}
	if n := a.World().InFlightCount(); n < want {
		b.Fatalf("only %d messages in flight, want %d", n, want)
	}
	a.clock.SetPaused(true)
	return a
}

// BenchmarkFrame builds the frame of a busy nine-machine cluster with at
// least 300 messages in flight: the work a host does every frame while the
// world runs.
func BenchmarkFrame(b *testing.B) {
	a := busyApp(b, 300)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		a.changed()
		if f := a.Frame(); len(f.Nodes) != 9 {
			b.Fatal("bad frame")
		}
	}
	b.ReportMetric(float64(len(a.Frame().Messages)), "dots")
}

// BenchmarkTick is one 60 Hz tick of the running app: advance the world a
// frame's worth at real time, then build the frame.
func BenchmarkTick(b *testing.B) {
	a := busyApp(b, 300)
	a.clock.SetPaused(false)
	a.Do(command.SetSpeed{Speed: 1})
	c := hostClock{now: time.Hour}
	a.Update(c.now)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c.now += time.Second / 60
		a.Update(c.now)
		a.Frame()
	}
}

// BenchmarkHover is the cost of moving the mouse over the cluster.
func BenchmarkHover(b *testing.B) {
	a := busyApp(b, 300)
	c := a.Layout().Ring.C
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		a.Hover(viz.Pt(c.X+float64(i%50), c.Y))
		a.Frame()
	}
}

// BenchmarkLongRunHeap runs five machines at 10x for 90 virtual minutes,
// as a tab left open would, with a client write every ten virtual seconds,
// and reports the live heap (after a collection) at 30 and at 90 minutes.
// The trace and the message history are bounded and the timeline thins its
// checkpoints, but each checkpoint holds the logs as they were, and logs
// are never compacted (etcd would take a snapshot and drop the prefix), so
// the heap grows with the number of entries written.
func BenchmarkLongRunHeap(b *testing.B) {
	for range b.N {
		p := viz.DefaultParams()
		p.Nodes, p.Speed = 5, 10
		a, err := New(Options{Params: p, Width: 1280, Height: 800, SpeedGiven: true})
		if err != nil {
			b.Fatal(err)
		}
		var c hostClock
		heapAt := map[int]float64{}
		for m := 1; m <= 90; m++ {
			// A virtual minute is 6 s of app time at 10x.
			for s := 0; s < 6; s++ {
				a.Key("c")
				c.run(a, time.Second)
			}
			a.Frame()
			if m == 30 || m == 90 {
				var ms runtime.MemStats
				runtime.GC()
				runtime.ReadMemStats(&ms)
				heapAt[m] = float64(ms.HeapAlloc) / 1e6
			}
		}
		b.ReportMetric(heapAt[30], "heap-MB-30min")
		b.ReportMetric(heapAt[90], "heap-MB-90min")
		b.ReportMetric(float64(len(a.World().Ops())), "client-ops")
	}
}

// readerSession is five machines after ten virtual minutes of a reader at
// work at 10x: every virtual ten seconds a write, a local read and a
// linearizable read, the client panel shown, the app paused.
func readerSession(b *testing.B) *App {
	p := viz.DefaultParams()
	p.Nodes, p.Speed = 5, 10
	a, err := New(Options{Params: p, Width: 1280, Height: 800, SpeedGiven: true})
	if err != nil {
		b.Fatal(err)
	}
	var c hostClock
	for s := 0; s < 60; s++ {
		a.Key("c")
		for i, mode := range []string{"local", "linearizable"} {
			read := `{"do":"read","node":` + strconv.Itoa(1+(s+i)%5) + `,"key":"` + ClientKey + `","mode":"` + mode + `"}`
			if err := a.Act([]byte(read)); err != nil {
				b.Fatal(err)
			}
		}
		c.run(a, time.Second)
	}
	if err := a.Do(command.ShowPanel{Panel: viz.PanelClient}); err != nil {
		b.Fatal(err)
	}
	a.clock.SetPaused(true)
	return a
}

// BenchmarkFrameClientPanel builds the frame of a reader's ten-minute
// session with the client panel shown: the work of every frame while the
// panel is on screen, the reads' verdicts included.
func BenchmarkFrameClientPanel(b *testing.B) {
	a := readerSession(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		a.changed()
		a.Frame()
	}
	b.ReportMetric(float64(len(a.World().Ops())), "client-ops")
}

// BenchmarkFigureHeap is the Go heap a figure embedded at a book column's
// size (720x450) keeps live: opened, and after its whole story is played
// step by step with a frame built at every step, measured after a
// collection. RAFTLAB_HEAP_PROFILE=file writes the heap profile of the last
// figure played (go tool pprof -sample_index=inuse_space).
func BenchmarkFigureHeap(b *testing.B) {
	for _, id := range []string{"majority", "quorum-size", "failure-domains"} {
		b.Run(id, func(b *testing.B) {
			for range b.N {
				a := figureApp(b, id, 720, 450)
				a.Frame()
				opened := liveHeap()
				var c hostClock
				for k := 0; k < 16 && !a.State().Scenario.Done; k++ {
					playToRest(b, a, &c, 60*time.Second)
					a.Frame()
				}
				played := liveHeap()
				if path := os.Getenv("RAFTLAB_HEAP_PROFILE"); path != "" {
					writeHeapProfile(b, path)
				}
				runtime.KeepAlive(a)
				b.ReportMetric(opened/1e6, "live-MB-opened")
				b.ReportMetric(played/1e6, "live-MB-played")
			}
		})
	}
}

// liveHeap is the heap's objects in bytes after a collection: what is live.
func liveHeap() float64 {
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	return float64(ms.HeapAlloc)
}

func writeHeapProfile(b *testing.B, path string) {
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkFigureFrame builds the frame of a figure embedded in a book
// page (720x450) resting at its fourth step, while its world moves on:
// node-lease (three members, three workers and the Leases panel's
// gauges, at t = 85 s) beside timeout-tuning, a figure of five members
// with a timing panel of its own, in the same run.
func BenchmarkFigureFrame(b *testing.B) {
	for _, id := range []string{"node-lease", "timeout-tuning"} {
		b.Run(id, func(b *testing.B) {
			a := figureApp(b, id, 720, 450)
			var c hostClock
			c.run(a, time.Second)
			for a.scen().Step() < 3 {
				playToRest(b, a, &c, time.Minute)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				a.changed()
				if f := a.Frame(); len(f.Panels) != 1 {
					b.Fatal("the figure shows no panel")
				}
			}
			b.ReportMetric(float64(a.World().Now())/1e6, "virtual-s")
		})
	}
}

// BenchmarkFrameInformers builds a frame of the reconcile figure at column
// size (720x450) where its panel is fullest: the watch cut, the cache
// behind the store, every object listed beside the store's copy.
func BenchmarkFrameInformers(b *testing.B) {
	a := figureApp(b, "reconcile", 720, 450)
	var c hostClock
	for a.scen().Tracker().Step() < 3 {
		playToRest(b, a, &c, 60*time.Second)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		a.changed()
		if f := a.Frame(); len(f.Panels) != 1 {
			b.Fatal("bad frame")
		}
	}
}
