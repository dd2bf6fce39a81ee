//go:build desktop

package draw

import (
	"image"
	"testing"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"raftlab/viz"
	"raftlab/viz/app"
)

// busyApp is nine machines on a 1280×800 canvas with links slowed to
// 2-3 s and steady client writes, until at least want messages are on the
// wire; the same busy cluster as the browser's BenchmarkAppBusyFrame.
func busyApp(b *testing.B, want int) (*app.App, time.Duration) {
	b.Helper()
	p := viz.DefaultParams()
	p.Nodes = 9
	a, err := app.New(app.Options{Params: p, Width: 1280, Height: 800, Measure: Measure, SpeedGiven: true,
		Scenarios: app.BuiltinScenarios()})
	if err != nil {
		b.Fatal(err)
	}
	var now time.Duration
	// Election timeouts of 5-10 s keep one leader although heartbeats
	// take 2-3 s to arrive.
	if err := a.Do(app.SetElection{Ticks: 50}); err != nil {
		b.Fatal(err)
	}
	for i := 0; i < 300 && a.State().Leader == 0; i++ {
		run(a, &now, 100*time.Millisecond)
	}
	if a.State().Leader == 0 {
		b.Fatal("no leader")
	}
	if err := a.Act([]byte(`{"do":"latency","latency_ms":[2000,3000]}`)); err != nil {
		b.Fatal(err)
	}
	for i := 0; i < 400 && a.World().InFlightCount() < want; i++ {
		a.Key("c")
		run(a, &now, 50*time.Millisecond)
	}
	if n := a.World().InFlightCount(); n < want {
		b.Fatalf("only %d messages in flight, want %d", n, want)
	}
	return a, now
}

// BenchmarkBusyFrame is one 60 Hz frame of the running app with nine
// machines and 300 or more messages in flight: Update, building the frame
// and painting it, the three figures the page's frameStats reports (each
// also given per frame as update-us, build-us and paint-us). The GPU's
// work happens outside the timed part, when the commands are flushed by
// reading a pixel back, as a browser does it after the frame's Go code;
// that flush is timed apart as gpu-us, which under Xvfb is Mesa's software
// rasterizer filling the frame's pixels. "whole" paints every frame whole,
// "kept" paints only what changed onto the screen it keeps (keptScreen),
// as the game does.
func BenchmarkBusyFrame(b *testing.B) {
	for _, kept := range []bool{false, true} {
		name := "whole"
		if kept {
			name = "kept"
		}
		b.Run(name, func(b *testing.B) { busyFrame(b, kept) })
	}
}

func busyFrame(b *testing.B, kept bool) {
	a, now := busyApp(b, 300)
	img := ebiten.NewImage(1280, 800)
	defer img.Deallocate()
	px := img.SubImage(image.Rect(0, 0, 1, 1)).(*ebiten.Image)
	var texts textCache
	c := &canvas{dst: img, sc: 1, tc: &texts}
	if kept {
		c.kept = &keptScreen{}
	}
	// The first frame lays out every label; count the frames after it.
	pal := lightPalette()
	c.paintFrame(a.Frame(), pal)
	px.ReadPixels(make([]byte, 4))
	texts.laid = 0
	var update, build, paint, gpu time.Duration
	var dots, calls, verts int
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		now += time.Second / 60
		a.Update(now)
		t1 := time.Now()
		f := a.Frame()
		t2 := time.Now()
		c.paintFrame(f, pal)
		texts.endFrame()
		t3 := time.Now()
		update, build, paint = update+t1.Sub(t0), build+t2.Sub(t1), paint+t3.Sub(t2)
		dots, calls, verts = dots+len(f.Messages), calls+c.calls, verts+c.verts
		b.StopTimer()
		t4 := time.Now()
		px.ReadPixels(make([]byte, 4))
		gpu += time.Since(t4)
		b.StartTimer()
	}
	n := float64(b.N)
	b.ReportMetric(float64(update.Microseconds())/n, "update-us")
	b.ReportMetric(float64(build.Microseconds())/n, "build-us")
	b.ReportMetric(float64(paint.Microseconds())/n, "paint-us")
	b.ReportMetric(float64(gpu.Microseconds())/n, "gpu-us")
	b.ReportMetric(float64(dots)/n, "dots")
	b.ReportMetric(float64(calls)/n, "calls")
	b.ReportMetric(float64(verts)/n, "vertices")
	b.ReportMetric(float64(texts.laid)/n, "new-labels")
}
