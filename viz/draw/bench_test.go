//go:build desktop

package draw

import (
	"image"
	"testing"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
)

// BenchmarkBusyFrame paints one 60 Hz frame of the running app with nine
// machines on a 1280×800 canvas, links slowed to 2-3 s, steady client
// writes and over 300 messages in flight: the busy cluster of the
// browser's BenchmarkAppBusyFrame. The frames are sixteen the app built
// one after another (testdata/busy.json.gz), painted forwards and back,
// so that each frame follows one a sixtieth of a second from it. (The
// app's own part of a frame, Update and building the Frame, is
// viz/app's BenchmarkTick and BenchmarkFrame.)
//
// paint-us is the Go side of painting, what the page's frameStats
// reports as paint_us. The GPU's work happens outside the timed part, when
// the commands are flushed by reading a pixel back, as a browser does it
// after the frame's Go code; that flush is timed apart as gpu-us, which
// under Xvfb is Mesa's software rasterizer filling the frame's pixels.
// "whole" paints every frame whole, "kept" paints only what changed onto
// the screen it keeps (keptScreen), as the game does.
func BenchmarkBusyFrame(b *testing.B) {
	frames := loadFrames(b, "busy.json.gz")
	for _, kept := range []bool{false, true} {
		b.Run(keptName(kept), func(b *testing.B) { paintFrames(b, frames, kept) })
	}
}

// BenchmarkPlayingFrame is BenchmarkBusyFrame for the common case: five
// machines playing at 1280×800 with nothing else going on, a second of
// frames (testdata/run.json.gz).
func BenchmarkPlayingFrame(b *testing.B) {
	var frames []storedFrame
	for _, s := range loadFrames(b, "run.json.gz") {
		if s.Name == "the run playing" {
			frames = append(frames, s)
		}
	}
	for _, kept := range []bool{false, true} {
		b.Run(keptName(kept), func(b *testing.B) { paintFrames(b, frames, kept) })
	}
}

func keptName(kept bool) string {
	if kept {
		return "kept"
	}
	return "whole"
}

// pingPong is the i-th frame of n played forwards, then backwards, and so
// on: 0, 1, ..., n-1, n-2, ..., 1, 0, 1, ...
func pingPong(i, n int) int {
	if n < 2 {
		return 0
	}
	i %= 2 * (n - 1)
	if i >= n {
		return 2*(n-1) - i
	}
	return i
}

// paintFrames paints frames in ping-pong order, b.N of them, and reports
// the timings and counts per frame.
func paintFrames(b *testing.B, frames []storedFrame, kept bool) {
	f0 := frames[0].Frame
	img := screenImage(int(f0.W), int(f0.H))
	defer img.Deallocate()
	px := img.SubImage(image.Rect(0, 0, 1, 1)).(*ebiten.Image)
	var texts textCache
	c := benchCanvas(img, &texts, kept)
	// The first frame lays out every label; count the frames after it.
	pal := lightPalette()
	c.paintFrame(f0, pal)
	px.ReadPixels(make([]byte, 4))
	texts.laid = 0
	var paint, gpu time.Duration
	var dots, calls, verts int
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		f := frames[pingPong(i+1, len(frames))].Frame
		t0 := time.Now()
		c.paintFrame(f, pal)
		texts.endFrame()
		paint += time.Since(t0)
		dots, calls, verts = dots+len(f.Messages), calls+c.calls, verts+c.verts
		b.StopTimer()
		t1 := time.Now()
		px.ReadPixels(make([]byte, 4))
		gpu += time.Since(t1)
		b.StartTimer()
	}
	n := float64(b.N)
	b.ReportMetric(float64(paint.Microseconds())/n, "paint-us")
	b.ReportMetric(float64(gpu.Microseconds())/n, "gpu-us")
	b.ReportMetric(float64(dots)/n, "dots")
	b.ReportMetric(float64(calls)/n, "calls")
	b.ReportMetric(float64(verts)/n, "vertices")
	b.ReportMetric(float64(texts.laid)/n, "new-labels")
	if c.kept != nil {
		b.ReportMetric(float64(c.kept.whole-1)/n, "painted-whole")
	}
}

// benchCanvas is the canvas the game paints with: one that keeps the
// screen between frames, or one that paints every frame whole.
func benchCanvas(img *ebiten.Image, texts *textCache, kept bool) *canvas {
	c := &canvas{dst: img, sc: 1, tc: texts}
	if kept {
		c.kept = &keptScreen{}
	}
	return c
}
