//go:build browser

package e2e

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// gpuRecorder counts the textures and renderbuffers a page's WebGL2 contexts
// hold, from the calls that size them: it wraps the prototype's methods
// before the page runs (Ebiten binds them when it makes its context), and
// window.__raftlabGPU() returns what is held now.
const gpuRecorder = `(function () {
	var C = window.WebGL2RenderingContext;
	if (!C || C.prototype.__raftlabGPU) return;
	var P = C.prototype;
	P.__raftlabGPU = true;
	var textures = new Map(), buffers = new Map(), state = new WeakMap();
	function st(gl) {
		var s = state.get(gl);
		if (!s) { s = {unit: gl.TEXTURE0, tex: {}, rb: null}; state.set(gl, s); }
		return s;
	}
	function wrap(name, before) {
		var f = P[name];
		P[name] = function () { before.apply(this, arguments); return f.apply(this, arguments); };
	}
	wrap("activeTexture", function (u) { st(this).unit = u; });
	wrap("bindTexture", function (target, t) { if (target === this.TEXTURE_2D) st(this).tex[st(this).unit] = t; });
	wrap("texImage2D", function (target, level, fmt, w, h) {
		var t = st(this).tex[st(this).unit];
		if (target === this.TEXTURE_2D && level === 0 && arguments.length >= 9 && t) textures.set(t, [w, h]);
	});
	wrap("texStorage2D", function (target, levels, fmt, w, h) {
		var t = st(this).tex[st(this).unit];
		if (target === this.TEXTURE_2D && t) textures.set(t, [w, h]);
	});
	wrap("deleteTexture", function (t) { textures.delete(t); });
	wrap("bindRenderbuffer", function (target, rb) { st(this).rb = rb; });
	wrap("renderbufferStorage", function (target, fmt, w, h) { if (st(this).rb) buffers.set(st(this).rb, [w, h]); });
	wrap("renderbufferStorageMultisample", function (target, n, fmt, w, h) { if (st(this).rb) buffers.set(st(this).rb, [w * Math.max(n, 1), h]); });
	wrap("deleteRenderbuffer", function (rb) { buffers.delete(rb); });
	window.__raftlabGPU = function () {
		var canvases = Array.prototype.map.call(document.querySelectorAll("canvas"), function (c) { return [c.width, c.height]; });
		return JSON.stringify({textures: Array.from(textures.values()), renderbuffers: Array.from(buffers.values()), canvases: canvases});
	};
})();`

// gpuMemory is what gpuRecorder saw: the sizes of the textures, renderbuffers
// and canvases held now.
type gpuMemory struct {
	Textures      [][2]int `json:"textures"`
	Renderbuffers [][2]int `json:"renderbuffers"`
	Canvases      [][2]int `json:"canvases"`
}

// pixelBytes counts four bytes a pixel (RGBA8 textures, depth-stencil buffers).
func pixelBytes(sizes [][2]int) float64 {
	n := 0.0
	for _, s := range sizes {
		n += 4 * float64(s[0]) * float64(s[1])
	}
	return n
}

func (g gpuMemory) String() string {
	ts := slices.Clone(g.Textures)
	slices.SortFunc(ts, func(a, b [2]int) int { return b[0]*b[1] - a[0]*a[1] })
	var parts []string
	for _, t := range ts {
		parts = append(parts, fmt.Sprintf("%dx%d", t[0], t[1]))
	}
	return fmt.Sprintf("%d textures %.2f MB (%s), %d renderbuffers %.2f MB, canvas %v (drawing buffer %.2f MB)",
		len(g.Textures), pixelBytes(g.Textures)/1e6, strings.Join(parts, " "),
		len(g.Renderbuffers), pixelBytes(g.Renderbuffers)/1e6, g.Canvases, pixelBytes(g.Canvases)/1e6)
}

func readGPU(br *browser) gpuMemory {
	br.t.Helper()
	var g gpuMemory
	if err := json.Unmarshal([]byte(evalJS[string](br, `window.__raftlabGPU()`)), &g); err != nil {
		br.t.Fatalf("__raftlabGPU: %v", err)
	}
	return g
}

// memoryFrameStats is the memory part of window.raftlab.frameStats().
type memoryFrameStats struct {
	HeapLive uint64 `json:"heapLive"`
	HeapSys  uint64 `json:"heapSys"`
	NextGC   uint64 `json:"nextGC"`
	Sys      uint64 `json:"sys"`
	GCs      uint32 `json:"gcs"`
}

// figureGoalMB is issue 29's goal for one live figure: what the whole browser holds
// beyond an empty page, in megabytes of proportional memory.
const figureGoalMB = 120

// BenchmarkFigureMemory measures where a live figure's memory goes, embedded at
// a book column's size (720x450), in a Chromium of its own: opened, and again
// after its whole story is played step by step. It reports the WebAssembly
// memory (which never shrinks), the Go runtime's share of it (runtime.MemStats:
// the heap in use, the size that starts the next collection, the heap held,
// all the runtime holds),
// the textures and renderbuffers of the WebGL context as sized by the page's
// calls, and the renderer's and GPU process's resident memory (which depend on
// the browser and the load; the rest are exact byte counts), and the whole
// browser's proportional memory against the same browser on an empty page, which
// is what the figure costs the reader's device.
//
//	go test -tags browser -count=1 -run '^$' -bench FigureMemory -benchtime 1x -v ./e2e/
//
// RAFTLAB_WEB_DIR measures another build.
func BenchmarkFigureMemory(b *testing.B) {
	for _, id := range []string{"majority", "quorum-size", "failure-domains"} {
		b.Run(id, func(b *testing.B) {
			for range b.N {
				br := newBrowserWith(b, 720, 450)
				onEveryDocument(br, gpuRecorder)
				br.navigate("about:blank")
				time.Sleep(2 * time.Second) // let the empty page settle before it is measured
				blank := browserPSS(br)
				b.Logf("%s: the browser on an empty page: %s", id, blank)
				br.openApp("scenario=" + id + "&embed=1&speed=4")
				waitResting(br, "at the start")
				var whole processMemory
				at := func(when string) (wasm float64, m memoryFrameStats, g gpuMemory) {
					wasm, g = wasmMemory(br), readGPU(br)
					if err := json.Unmarshal([]byte(evalJS[string](br, `window.raftlab.frameStats()`)), &m); err != nil {
						b.Fatalf("frameStats: %v", err)
					}
					_, pids := processCPU(br)
					var rss [2]float64
					for i, kind := range []string{"renderer", "GPU"} {
						for _, pid := range pids[kind] {
							rss[i] += rssBytes(pid)
						}
					}
					b.Logf("%s %s: wasm memory %.2f MB; Go: heap in use %.2f MB, next GC at %.2f MB, heap held %.2f MB, runtime total %.2f MB, %d GCs; GPU: %v; renderer RSS %.1f MB, GPU process RSS %.1f MB",
						id, when, wasm/1e6, float64(m.HeapLive)/1e6, float64(m.NextGC)/1e6,
						float64(m.HeapSys)/1e6, float64(m.Sys)/1e6, m.GCs, g, rss[0]/1e6, rss[1]/1e6)
					whole = browserPSS(br)
					b.Logf("%s %s: the whole browser %s: %.0f MB more than on the empty page (goal: at most %d MB a live figure)",
						id, when, whole, whole.total-blank.total, figureGoalMB)
					return wasm, m, g
				}
				at("opened")
				for k := 0; k < 16 && !appState(br).Scenario.Done; k++ {
					playFigureStep(b, br)
				}
				wasm, m, g := at("played")
				b.ReportMetric(wasm/1e6, "wasm-MB")
				b.ReportMetric(float64(m.Sys)/1e6, "go-sys-MB")
				b.ReportMetric(float64(m.HeapLive)/1e6, "go-heap-MB")
				b.ReportMetric(pixelBytes(g.Textures)/1e6, "textures-MB")
				b.ReportMetric(whole.total-blank.total, "figure-PSS-MB")
				br.close()
			}
		})
	}
}

// figureTextureBudget is the most texture memory a figure at a book column's
// size (720x450) may hold: the screen's image (1024x512 as a texture, 2 MB),
// the glyph atlas and the sprite sheet (512x512, 1 MB each), the dash patterns
// and Ebiten's atlas of small source images (16x16 and up).
const figureTextureBudget = 4.5e6

// TestFigureTexturesFitItsSize: a figure embedded at a book column's size,
// opened and played two steps, holds no texture larger than its screen needs
// and no more texture memory than figureTextureBudget. Ebiten's atlas of source
// images starts at 16 pixels (cmd/wasm's ebitenMinSourceSize), not at its default
// of 1024, which alone would be 4 MB.
func TestFigureTexturesFitItsSize(t *testing.T) {
	br := newBrowserWith(t, 720, 450)
	onEveryDocument(br, gpuRecorder)
	br.openApp("scenario=majority&embed=1&speed=4")
	waitResting(br, "at the start")
	for range 2 {
		playFigureStep(t, br)
	}
	g := readGPU(br)
	if len(g.Textures) == 0 {
		t.Fatalf("no texture recorded: %v", g)
	}
	for _, s := range g.Textures {
		if s[0] > 1024 || s[1] > 1024 || s[0]*s[1] > 1024*512 {
			t.Errorf("a texture of %dx%d, larger than the 720x450 screen's 1024x512: %v", s[0], s[1], g)
		}
	}
	if n := pixelBytes(g.Textures); n > figureTextureBudget {
		t.Errorf("the figure holds %.2f MB of textures, more than %.2f MB: %v", n/1e6, figureTextureBudget/1e6, g)
	}
	noExceptions(t, br)
}
