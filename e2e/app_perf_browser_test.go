//go:build browser

package e2e

// Measurements of the app in headless Chromium and of its download, for the "App"
// section of BENCHMARKS.md. They are benchmarks, not tests: each reports what it
// measured (b.ReportMetric, and a table in the log) and fails only when it cannot
// measure. Every figure that has something to be compared with is measured next to
// it in the same run: the app against a bare Ebiten program (e2e/sizefloor) in the
// same browser, or the goal the figure is held to.
//
//	make bench-app                                       # all of them, with -v
//	go test -tags browser -run '^$' -bench AppMainThread -benchtime 1x -v ./e2e/
//
// Run `make wasm` first. The numbers depend on the machine and on what else runs on
// it; each benchmark logs the CPU, the core count and the load average before and
// after.

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/performance"
	cdpruntime "github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/systeminfo"
	"github.com/chromedp/chromedp"

	"raftlab/internal/wasmsize"
	"raftlab/viz/app"
	"raftlab/viz/frame"
)

// measureWindow is how long a steady-state measurement lasts.
const measureWindow = 10 * time.Second

// gpuModes are the two ways Chromium renders WebGL here: SwiftShader in the GPU process
// (the harness's default flags), and --disable-gpu, under which Chromium still runs
// WebGL on SwiftShader but the page's compositing is done in software.
var gpuModes = []struct {
	name  string
	flags []chromedp.ExecAllocatorOption
}{
	{"swiftshader", nil},
	{"disable-gpu", []chromedp.ExecAllocatorOption{chromedp.Flag("disable-gpu", true)}},
}

// logMachine logs what the figures were measured on.
func logMachine(b *testing.B, br *browser) {
	b.Helper()
	cpu := "unknown CPU"
	if data, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, l := range strings.Split(string(data), "\n") {
			if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "model name" {
				cpu = strings.TrimSpace(v)
				break
			}
		}
	}
	version := "unknown"
	if br != nil {
		ctx, cancel := context.WithTimeout(br.ctx, waitTimeout)
		defer cancel()
		if v, err := chromedp.CallBrowser(ctx, cdpbrowser.GetVersion, struct{}{}); err == nil {
			version = v.Product
		}
	}
	b.Logf("machine: %s, %d cores, %s, %s/%s, browser %s, load average %s",
		cpu, runtime.NumCPU(), runtime.Version(), runtime.GOOS, runtime.GOARCH, version, loadAverage())
}

// loadAverage is the first three fields of /proc/loadavg: other work on the machine
// slows everything measured here.
func loadAverage() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(data))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

// metrics returns Chromium's Performance.getMetrics for the page: TaskDuration (main
// thread busy, seconds), ThreadTime (main thread CPU, seconds), ProcessTime (renderer
// CPU, seconds), JSHeapUsedSize (bytes) and others.
func metrics(br *browser) map[string]float64 {
	br.t.Helper()
	ctx, cancel := context.WithTimeout(br.ctx, waitTimeout)
	defer cancel()
	if _, err := chromedp.Call(ctx, performance.Enable, performance.EnableParams{}); err != nil {
		br.t.Fatalf("Performance.enable: %v", err)
	}
	res, err := chromedp.Call(ctx, performance.GetMetrics, struct{}{})
	if err != nil {
		br.t.Fatalf("Performance.getMetrics: %v", err)
	}
	out := map[string]float64{}
	for _, m := range res.Metrics {
		out[m.Name] = m.Value
	}
	return out
}

// processCPU returns the CPU seconds used so far by Chromium's processes, summed by type
// ("browser", "renderer", "GPU", "utility"), and the process ids of each type.
func processCPU(br *browser) (map[string]float64, map[string][]int64) {
	br.t.Helper()
	ctx, cancel := context.WithTimeout(br.ctx, waitTimeout)
	defer cancel()
	res, err := chromedp.CallBrowser(ctx, systeminfo.GetProcessInfo, struct{}{})
	if err != nil {
		br.t.Fatalf("SystemInfo.getProcessInfo: %v", err)
	}
	cpu, pids := map[string]float64{}, map[string][]int64{}
	for _, p := range res.ProcessInfo {
		cpu[p.Type] += p.CPUTime
		pids[p.Type] = append(pids[p.Type], p.ID)
	}
	return cpu, pids
}

// rssBytes is the resident memory of a process, from /proc.
func rssBytes(pid int64) float64 { return procKB(pid, "status", "VmRSS:") * 1024 }

// procKB reads a field given in kilobytes ("VmRSS:", "Pss:") from a file of /proc/PID;
// 0 when the process or the field is gone.
func procKB(pid int64, file, field string) float64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/%s", pid, file))
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(l, field); ok {
			if f := strings.Fields(v); len(f) > 0 {
				kb, _ := strconv.ParseFloat(f[0], 64)
				return kb
			}
		}
	}
	return 0
}

// wasmMemory is the size in bytes of every WebAssembly.Memory on the page: the Go
// program's linear memory, which holds its whole heap and only ever grows.
func wasmMemory(br *browser) float64 {
	br.t.Helper()
	ctx, cancel := context.WithTimeout(br.ctx, waitTimeout)
	defer cancel()
	const group = "raftlab-wasm-memory"
	defer chromedp.Call(ctx, cdpruntime.ReleaseObjectGroup, cdpruntime.ReleaseObjectGroupParams{ObjectGroup: group})
	proto, err := chromedp.Call(ctx, cdpruntime.Evaluate, cdpruntime.EvaluateParams{Expression: "WebAssembly.Memory.prototype", ObjectGroup: group})
	if err != nil || proto.Result == nil {
		br.t.Fatalf("WebAssembly.Memory.prototype: %v", err)
	}
	objs, err := chromedp.Call(ctx, cdpruntime.QueryObjects, cdpruntime.QueryObjectsParams{PrototypeObjectID: proto.Result.ObjectID, ObjectGroup: group})
	if err != nil || objs.Objects == nil {
		br.t.Fatalf("Runtime.queryObjects: %v", err)
	}
	yes := true
	sum, err := chromedp.Call(ctx, cdpruntime.CallFunctionOn, cdpruntime.CallFunctionOnParams{
		FunctionDeclaration: "function () { return this.reduce(function (s, m) { return s + m.buffer.byteLength; }, 0); }",
		ObjectID:            objs.Objects.ObjectID, ReturnByValue: &yes,
	})
	if err != nil || sum.Result == nil {
		br.t.Fatalf("summing WebAssembly memories: %v", err)
	}
	var n float64
	if err := json.Unmarshal([]byte(sum.Result.Value), &n); err != nil {
		br.t.Fatalf("WebAssembly memory size %s: %v", sum.Result.Value, err)
	}
	return n
}

// jsHeap is the page's used JavaScript heap in bytes.
func jsHeap(br *browser) float64 {
	br.t.Helper()
	ctx, cancel := context.WithTimeout(br.ctx, waitTimeout)
	defer cancel()
	res, err := chromedp.Call(ctx, cdpruntime.GetHeapUsage, struct{}{})
	if err != nil {
		br.t.Fatalf("Runtime.getHeapUsage: %v", err)
	}
	return res.UsedSize
}

// frameStats is window.raftlab.frameStats().
type frameStats struct {
	frame.Stats
	BuildUs  int64 `json:"build_us"`
	PaintUs  int64 `json:"paint_us"`
	UpdateUs int64 `json:"update_us"`
	Calls    int   `json:"draw_calls"`
	// ClusterUs and PanelsUs are the parts of PaintUs spent on the
	// cluster and on the side panels.
	ClusterUs int64  `json:"paint_cluster_us"`
	PanelsUs  int64  `json:"paint_panels_us"`
	HeapLive  uint64 `json:"heapLive"` // the Go heap's objects, live or not yet collected
	HeapSys   uint64 `json:"heapSys"`  // what the Go heap holds from the WebAssembly memory
}

func readFrameStats(br *browser) frameStats {
	br.t.Helper()
	var s frameStats
	if err := json.Unmarshal([]byte(evalJS[string](br, `window.raftlab.frameStats()`)), &s); err != nil {
		br.t.Fatalf("frameStats: %v", err)
	}
	return s
}

// rafCounter counts the page's animation frames from now on in window.__raftlabFrames.
const rafCounter = `(function () {
	if (window.__raftlabFrames !== undefined) return true;
	window.__raftlabFrames = 0;
	function tick() { window.__raftlabFrames++; requestAnimationFrame(tick); }
	requestAnimationFrame(tick);
	return true;
})()`

// interval is a steady-state measurement between two samples.
type interval struct {
	seconds             float64
	busy, thread, proc  float64 // main thread busy, main thread CPU, renderer CPU (CDP), seconds
	cpu                 map[string]float64
	frames              float64 // animation frames
	draws, skips, ticks float64 // the app's painted and skipped Draws, and Updates (0 for the floor)
}

type sample struct {
	at      time.Time
	metrics map[string]float64
	cpu     map[string]float64
	frames  float64
	stats   frameStats
}

func takeSample(br *browser, isApp bool) sample {
	br.t.Helper()
	s := sample{metrics: metrics(br), frames: evalJS[float64](br, `window.__raftlabFrames || 0`)}
	s.cpu, _ = processCPU(br)
	if isApp {
		s.stats = readFrameStats(br)
	}
	s.at = time.Now()
	return s
}

func between(a, b sample) interval {
	w := interval{seconds: b.at.Sub(a.at).Seconds(), cpu: map[string]float64{}}
	w.busy = b.metrics["TaskDuration"] - a.metrics["TaskDuration"]
	w.thread = b.metrics["ThreadTime"] - a.metrics["ThreadTime"]
	w.proc = b.metrics["ProcessTime"] - a.metrics["ProcessTime"]
	for k, v := range b.cpu {
		w.cpu[k] = v - a.cpu[k]
	}
	w.frames = b.frames - a.frames
	w.draws = float64(b.stats.Draws - a.stats.Draws)
	w.skips = float64(b.stats.Skipped - a.stats.Skipped)
	w.ticks = float64(b.stats.Updates - a.stats.Updates)
	return w
}

// measure counts animation frames, samples, waits d and samples again.
func measure(br *browser, isApp bool, d time.Duration) interval {
	br.t.Helper()
	evalJS[bool](br, rafCounter)
	return measureStill(br, isApp, d)
}

// measureStill is measure without counting animation frames: a page that asks for
// every animation frame makes the browser run its rendering steps 60 times a second,
// which by itself costs several times what a resting app may.
func measureStill(br *browser, isApp bool, d time.Duration) interval {
	br.t.Helper()
	a := takeSample(br, isApp)
	time.Sleep(d)
	return between(a, takeSample(br, isApp))
}

func (w interval) perSecond(v float64) float64 { return v / w.seconds }

func (w interval) String() string {
	var cpu []string
	for _, k := range []string{"renderer", "GPU", "browser", "utility"} {
		cpu = append(cpu, fmt.Sprintf("%s %.3f", k, w.perSecond(w.cpu[k])))
	}
	perFrame := ""
	if w.frames > 0 {
		perFrame = fmt.Sprintf(" (per frame: busy %.1f ms, CPU %.1f ms)", 1000*w.busy/w.frames, 1000*w.thread/w.frames)
	}
	return fmt.Sprintf("main thread busy %.0f ms/s, CPU %.0f ms/s; %.1f frames/s%s, %.1f painted/s, %.1f updates/s; CPU-s/s: %s",
		1000*w.perSecond(w.busy), 1000*w.perSecond(w.thread), w.perSecond(w.frames), perFrame, w.perSecond(w.draws), w.perSecond(w.ticks), strings.Join(cpu, ", "))
}

// site is a directory served to the browser, built once per test binary.
type site struct {
	sync.Once
	dir string
	err error
}

var appSiteOnce, floorSiteOnce site

// TestMain stops the Chromium the tests share and removes the directories the
// benchmarks built once all tests and benchmarks are done with them.
func TestMain(m *testing.M) {
	code := m.Run()
	sharedChromium.mu.Lock()
	sharedChromium.close()
	sharedChromium.mu.Unlock()
	for _, st := range sitesCleanup {
		if st.dir != "" {
			os.RemoveAll(st.dir)
		}
	}
	os.Exit(code)
}

// build makes the directory with fill, once, and returns it.
func (st *site) build(b *testing.B, fill func(dir string) error) string {
	b.Helper()
	st.Do(func() {
		st.dir, st.err = os.MkdirTemp("", "raftlab-bench-")
		if st.err == nil {
			st.err = fill(st.dir)
		}
	})
	if st.err != nil {
		b.Fatal(st.err)
	}
	return st.dir
}

// appSite builds the app from the current tree, as `make release` does (with its gzip and
// brotli siblings), into a private directory next to copies of web/'s pages, so that a
// `make wasm` or `make clean` running meanwhile cannot change what is measured.
func appSite(b *testing.B) string {
	b.Helper()
	root := repoRoot(b)
	return appSiteOnce.build(b, func(dir string) error {
		if err := buildWasm(root, "./cmd/wasm", filepath.Join(dir, "raftlab.wasm")); err != nil {
			return err
		}
		for _, name := range []string{"index.html", "embed.js", "embed-example.html"} {
			if err := copyInto(filepath.Join(root, "web", name), dir, name); err != nil {
				return err
			}
		}
		if err := copyInto(goRootFile(b, "lib/wasm/wasm_exec.js"), dir, "wasm_exec.js"); err != nil {
			return err
		}
		return compress(filepath.Join(dir, "raftlab.wasm"))
	})
}

// floorSite builds e2e/sizefloor the same way, with a bare page that runs it
// (programSite), and the same page with the WebGL context the app's page asks for.
func floorSite(b *testing.B) string {
	b.Helper()
	root := repoRoot(b)
	return programSite(b, &floorSiteOnce, "./e2e/sizefloor", "floor", func(dir string) error {
		script, err := pageContextScript(root)
		if err != nil {
			return err
		}
		withContext := strings.Replace(floorPage, `<script src="wasm_exec.js">`, script+"\n"+`<script src="wasm_exec.js">`, 1)
		return os.WriteFile(filepath.Join(dir, floorContextPage), []byte(withContext), 0o644)
	})
}

// floorContextPage is the bare program's page with the app page's WebGL context settings.
const floorContextPage = "index-context.html"

// pageContextScript returns the script of web/index.html that sets the WebGL context's
// settings (the one that replaces HTMLCanvasElement's getContext), with its tags.
func pageContextScript(root string) (string, error) {
	data, err := os.ReadFile(filepath.Join(root, "web", "index.html"))
	if err != nil {
		return "", err
	}
	page := string(data)
	at := strings.Index(page, "HTMLCanvasElement.prototype.getContext")
	if at < 0 {
		return "", fmt.Errorf("web/index.html sets no WebGL context settings (no HTMLCanvasElement.prototype.getContext)")
	}
	start := strings.LastIndex(page[:at], "<script>")
	end := strings.Index(page[at:], "</script>")
	if start < 0 || end < 0 {
		return "", fmt.Errorf("web/index.html: the WebGL context settings are not inside a <script> element")
	}
	return page[start : at+end+len("</script>")], nil
}

func copyInto(src, dir, name string) error {
	data, err := os.ReadFile(src)
	if err == nil {
		err = os.WriteFile(filepath.Join(dir, name), data, 0o644)
	}
	return err
}

// compress writes path.gz (gzip -9) and path.br (brotli -q 11), the siblings `make release`
// writes and the web server sends to browsers that accept them.
func compress(path string) error {
	for _, c := range [][]string{
		{"gzip", "-9", "-n", "-k", "-f", path},
		{"brotli", "-q", "11", "-k", "-f", path},
	} {
		bin, err := exec.LookPath(c[0])
		if err != nil {
			return fmt.Errorf("%s not found (Debian package %s)", c[0], c[0])
		}
		if out, err := exec.Command(bin, c[1:]...).CombinedOutput(); err != nil {
			return fmt.Errorf("%s: %v\n%s", strings.Join(c, " "), err, out)
		}
	}
	// brotli copies the source's modification time; the server ignores siblings older
	// than the file.
	now := time.Now()
	for _, ext := range []string{".gz", ".br"} {
		if err := os.Chtimes(path+ext, now, now); err != nil {
			return err
		}
	}
	return nil
}

// openAppIn opens index.html?query from dir and waits until the app is ready.
func openAppIn(br *browser, dir, query string) {
	br.t.Helper()
	url := startWebServer(br.t, dir) + "index.html"
	if query != "" {
		url += "?" + query
	}
	br.navigate(url)
	br.waitReady()
}

// floorPage runs floor.wasm with nothing else, the plain streamed way.
var floorPage = streamedPage("floor", "floor.wasm", "floor")

// wasmGCFlags are the Makefile's WASM_GCFLAGS: packages built without
// inlining, for a smaller download.
var wasmGCFlags = []string{"-gcflags=raftlab/scenarios=-l", "-gcflags=raftlab/viz/app/command=-l", "-gcflags=raftlab/viz/words=-l",
	"-gcflags=raftlab/viz/svg=-l", "-gcflags=raftlab/cmd/wasm=-l"}

// TestWasmFlagsAreTheMakefiles: what the benchmarks build and measure is
// built as `make wasm` builds what readers download.
func TestWasmFlagsAreTheMakefiles(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(repoRoot(t), "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.ReplaceAll(string(data), "\\\n", " ")
	for _, line := range strings.Split(text, "\n") {
		if v, ok := strings.CutPrefix(line, "WASM_GCFLAGS ?="); ok {
			if got := strings.Fields(v); !slices.Equal(got, wasmGCFlags) {
				t.Fatalf("the Makefile builds with %q, the benchmarks with %q", got, wasmGCFlags)
			}
			return
		}
	}
	t.Fatal("the Makefile sets no WASM_GCFLAGS")
}

// buildWasm builds a package for the browser with the flags `make wasm` uses.
func buildWasm(root, pkg, out string) error {
	cmd := exec.Command("go", append(append([]string{"build", "-trimpath"}, wasmGCFlags...), "-ldflags=-s -w", "-o", out, pkg)...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if data, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("GOOS=js GOARCH=wasm go build %s: %v\n%s", pkg, err, data)
	}
	return nil
}

// openFloor opens the bare Ebiten program and waits until it draws (its canvas exists
// and animation frames run).
func openFloor(b *testing.B, br *browser) {
	b.Helper()
	br.navigate(startWebServer(b, floorSite(b)) + "index.html")
	br.waitFor(`document.querySelector("canvas") !== null`)
	br.waitFrames(10)
}

// BenchmarkAppMainThread measures the renderer's main thread while the app runs five
// machines at real speed (1x), against the bare Ebiten program drawing a line of text
// every frame in the same browser, under SwiftShader and under --disable-gpu. The
// goal is at most half of RaftScope's 370-450 ms per second.
func BenchmarkAppMainThread(b *testing.B) {
	for _, mode := range gpuModes {
		b.Run(mode.name, func(b *testing.B) {
			for range b.N {
				br := newBrowserWith(b, 1280, 800, mode.flags...)
				logMachine(b, br)
				openAppIn(br, appSite(b), "nodes=5&seed=1&speed=1")
				waitState(br, "a leader", func(s app.Snapshot) bool { return s.Leader > 0 })
				time.Sleep(2 * time.Second) // past the start-up work and the first banner
				w := measure(br, true, measureWindow)
				b.Logf("app, 5 machines at 1x, %s: %v", mode.name, w)
				s := appState(br)
				b.Logf("app: %d messages in flight at the end, virtual time %.1f s", len(s.InFlight), s.NowMs/1000)
				br.close() // so that the floor has the machine to itself

				fl := newBrowserWith(b, 1280, 800, mode.flags...)
				openFloor(b, fl)
				time.Sleep(2 * time.Second)
				f := measure(fl, false, measureWindow)
				b.Logf("bare Ebiten program, %s: %v", mode.name, f)
				b.Logf("load average after: %s", loadAverage())
				fl.close()

				b.ReportMetric(1000*w.perSecond(w.busy), "busy-ms/s")
				b.ReportMetric(1000*w.perSecond(w.thread), "cpu-ms/s")
				b.ReportMetric(w.perSecond(w.frames), "fps")
				b.ReportMetric(w.perSecond(w.draws), "painted/s")
				b.ReportMetric(1000*f.perSecond(f.busy), "floor-busy-ms/s")
				b.ReportMetric(f.perSecond(f.frames), "floor-fps")
			}
		})
	}
}

// BenchmarkAppPaused measures CPU use while nothing changes: the app paused with the
// mouse still, and the app hidden the way embed.js hides a figure scrolled out of view.
// The goal is under 0.02 CPU-seconds per second for the renderer and GPU processes.
func BenchmarkAppPaused(b *testing.B) {
	for range b.N {
		br := newBrowser(b, 1280, 800)
		paused := measurePaused(b, br, measureWindow)
		b.Logf("paused: %v", paused)
		jsCall(br, "setVisible", false)
		time.Sleep(2 * time.Second)
		hidden := measureStill(br, true, measureWindow)
		b.Logf("hidden (setVisible(false)): %v", hidden)
		jsCall(br, "setVisible", true)
		b.Logf("load average after: %s", loadAverage())
		for _, m := range []struct {
			name string
			w    interval
		}{{"paused", paused}, {"hidden", hidden}} {
			b.ReportMetric(m.w.perSecond(m.w.cpu["renderer"]), m.name+"-renderer-cpu-s/s")
			b.ReportMetric(m.w.perSecond(m.w.cpu["GPU"]), m.name+"-gpu-cpu-s/s")
			b.ReportMetric(m.w.perSecond(m.w.draws), m.name+"-painted/s")
		}
	}
}

// measurePaused opens the app with five machines in br, lets it elect a leader, pauses
// it and measures it for d once it rests.
func measurePaused(b *testing.B, br *browser, d time.Duration) interval {
	b.Helper()
	logMachine(b, br)
	openAppIn(br, appSite(b), "nodes=5&seed=1&speed=1")
	waitState(br, "a leader", func(s app.Snapshot) bool { return s.Leader > 0 })
	appCmd(br, "pause")
	waitState(br, "paused, with no banner left to expire", func(s app.Snapshot) bool { return s.Paused && s.Banner == "" })
	time.Sleep(2 * time.Second)
	// No frame counter here: the app rests, and a counter would keep the page's
	// rendering running.
	return measureStill(br, true, d)
}

// percentile returns the p-th percentile (0..100) of xs, which it sorts.
func percentile(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	slices.Sort(xs)
	i := int(p / 100 * float64(len(xs)-1))
	return xs[i]
}

// BenchmarkAppBusyFrame measures frames of nine machines with 300 or more messages in
// flight (links slowed to 2-3 s so that heartbeats pile up on the wire, election
// timeouts lengthened to match, client writes until 300 are on the wire), at 1x:
// the app's own timings of each frame from frameStats (building the frame, painting it,
// the Update before it), sampled from distinct frames for 10 s, and the main thread's
// busy time over the same window. Under SwiftShader the GPU process takes most of
// both cores, and the page's main thread is often descheduled in the middle of a
// frame; under --disable-gpu WebGL runs in the page's process after the frame's Go
// code, and the timings are of the app's own work.
func BenchmarkAppBusyFrame(b *testing.B) {
	for _, mode := range gpuModes {
		b.Run(mode.name, func(b *testing.B) { busyFrame(b, mode.flags) })
	}
}

func busyFrame(b *testing.B, flags []chromedp.ExecAllocatorOption) {
	for range b.N {
		br := newBrowserWith(b, 1280, 800, flags...)
		logMachine(b, br)
		openAppIn(br, appSite(b), "nodes=9&seed=1&speed=1")
		// Election timeouts of 5-10 s keep one leader although its heartbeats take 2-3 s
		// to arrive; with the default 1-2 s the followers would keep starting elections.
		appCmd(br, "election", "50")
		waitState(br, "a leader", func(s app.Snapshot) bool { return s.Leader > 0 && s.Election == 50 })
		jsCall(br, "act", `{"do":"latency","latency_ms":[2000,3000]}`)
		deadline := time.Now().Add(readyTimeout)
		for len(appState(br).InFlight) < 300 {
			appCmd(br, "key", "c")
			if time.Now().After(deadline) {
				b.Fatalf("fewer than 300 messages in flight after %v", readyTimeout)
			}
			time.Sleep(200 * time.Millisecond)
		}
		startFlight := len(appState(br).InFlight)
		evalJS[bool](br, rafCounter)
		a := takeSample(br, true)
		var build, paint, update, total, cluster, panels []float64
		last := a.stats.Draws
		for end := time.Now().Add(measureWindow); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
			s := readFrameStats(br)
			if s.Draws == last {
				continue
			}
			last = s.Draws
			build = append(build, float64(s.BuildUs))
			paint = append(paint, float64(s.PaintUs))
			update = append(update, float64(s.UpdateUs))
			cluster = append(cluster, float64(s.ClusterUs))
			panels = append(panels, float64(s.PanelsUs))
			total = append(total, float64(s.BuildUs+s.PaintUs+s.UpdateUs))
		}
		w := between(a, takeSample(br, true))
		endFlight := len(appState(br).InFlight)
		b.Logf("9 machines, %d → %d messages in flight, %d frames sampled", startFlight, endFlight, len(total))
		for _, m := range []struct {
			name string
			xs   []float64
		}{{"build", build}, {"paint", paint}, {"  cluster", cluster}, {"  panels", panels}, {"update", update}, {"update+build+paint", total}} {
			b.Logf("%-18s p25 %6.2f ms, median %6.2f ms, p90 %6.2f ms, max %6.2f ms", m.name,
				percentile(m.xs, 25)/1000, percentile(m.xs, 50)/1000, percentile(m.xs, 90)/1000, percentile(m.xs, 100)/1000)
		}
		b.Logf("window: %v", w)
		b.Logf("load average after: %s", loadAverage())
		b.ReportMetric(percentile(total, 25)/1000, "frame-ms-p25")
		b.ReportMetric(percentile(total, 50)/1000, "frame-ms-median")
		b.ReportMetric(percentile(total, 90)/1000, "frame-ms-p90")
		b.ReportMetric(percentile(build, 50)/1000, "build-ms-median")
		b.ReportMetric(percentile(paint, 50)/1000, "paint-ms-median")
		b.ReportMetric(1000*w.perSecond(w.busy), "busy-ms/s")
		b.ReportMetric(w.perSecond(w.frames), "fps")
	}
}

// BenchmarkAppMemory leaves a tab running five machines at 10x until 30 virtual minutes
// have passed (3 real minutes when the app keeps up) and samples its memory every 15 s:
// the Go program's WebAssembly memory, the JavaScript heap and the renderer's resident
// size. Flat is the goal.
func BenchmarkAppMemory(b *testing.B) {
	const virtual = 30 * 60 * 1000.0 // ms
	for range b.N {
		br := newBrowser(b, 1280, 800)
		logMachine(b, br)
		openAppIn(br, appSite(b), "nodes=5&seed=1&speed=10")
		start := time.Now()
		var wasm, heap, rss []float64
		for {
			s := appState(br)
			_, pids := processCPU(br)
			var r float64
			for _, pid := range pids["renderer"] {
				r += rssBytes(pid)
			}
			wm, jh, fs := wasmMemory(br), jsHeap(br), readFrameStats(br)
			wasm, heap, rss = append(wasm, wm), append(heap, jh), append(rss, r)
			b.Logf("%6.0f s real, %7.1f virtual min: wasm memory %6.1f MB (Go heap %5.1f MB, objects %5.1f MB), JS heap %5.1f MB, renderer RSS %6.1f MB, trace events %d, actions %d",
				time.Since(start).Seconds(), s.NowMs/60000, wm/1e6, float64(fs.HeapSys)/1e6, float64(fs.HeapLive)/1e6, jh/1e6, r/1e6, s.TraceCount, len(s.Actions))
			if s.NowMs >= virtual {
				break
			}
			if time.Since(start) > 15*time.Minute {
				b.Logf("stopped after 15 real minutes at %.1f virtual minutes: the app did not keep up with 10x", s.NowMs/60000)
				break
			}
			time.Sleep(15 * time.Second)
		}
		b.Logf("load average after: %s", loadAverage())
		first, last := 0, len(wasm)-1
		b.ReportMetric(wasm[first]/1e6, "wasm-MB-start")
		b.ReportMetric(wasm[last]/1e6, "wasm-MB-end")
		b.ReportMetric(heap[last]/1e6, "jsheap-MB-end")
		b.ReportMetric(rss[first]/1e6, "rss-MB-start")
		b.ReportMetric(rss[last]/1e6, "rss-MB-end")
	}
}

// sizes returns the size of a file and of its .gz and .br siblings.
func sizes(b *testing.B, path string) (raw, gz, br float64) {
	b.Helper()
	var out [3]float64
	for i, ext := range []string{"", ".gz", ".br"} {
		st, err := os.Stat(path + ext)
		if err != nil {
			b.Fatal(err)
		}
		out[i] = float64(st.Size())
	}
	return out[0], out[1], out[2]
}

// BenchmarkWasmSize builds the app and the bare Ebiten program with the same font
// (e2e/sizefloor) with the same flags in the same run and compares their sizes raw,
// gzipped and brotli-compressed. The goal is within 15% of the floor.
func BenchmarkWasmSize(b *testing.B) {
	logMachine(b, nil)
	for range b.N {
		ar, ag, ab := sizes(b, filepath.Join(appSite(b), "raftlab.wasm"))
		fr, fg, fb := sizes(b, filepath.Join(floorSite(b), "floor.wasm"))
		for _, r := range []struct {
			name       string
			app, floor float64
		}{{"raw", ar, fr}, {"gzip -9", ag, fg}, {"brotli -q 11", ab, fb}} {
			b.Logf("%-12s app %6.2f MB, floor %6.2f MB, app is %+.1f%%", r.name, r.app/1e6, r.floor/1e6, 100*(r.app/r.floor-1))
		}
		logBreakdown(b)
		b.ReportMetric(ar/1e6, "raw-MB")
		b.ReportMetric(ag/1e6, "gzip-MB")
		b.ReportMetric(ab/1e6, "brotli-MB")
		b.ReportMetric(100*(ar/fr-1), "raw-%over-floor")
		b.ReportMetric(100*(ag/fg-1), "gzip-%over-floor")
		b.ReportMetric(100*(ab/fb-1), "brotli-%over-floor")
	}
}

// logBreakdown builds both programs again without -s, reads their name sections and logs
// where the app's extra bytes are: the packages whose code grew most, and the data.
// cmd/wasmsize prints the same and more (sections, the largest functions).
func logBreakdown(b *testing.B) {
	b.Helper()
	root, dir := repoRoot(b), b.TempDir()
	var pkgs [2]map[string]int
	var data [2]int
	for i, pkg := range []string{"./cmd/wasm", "./e2e/sizefloor"} {
		out := filepath.Join(dir, fmt.Sprint(i, ".wasm"))
		cmd := exec.Command("go", append(append([]string{"build", "-trimpath"}, wasmGCFlags...), "-o", out, pkg)...)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
		if data, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("go build %s: %v\n%s", pkg, err, data)
		}
		m, err := wasmsize.Read(out)
		if err != nil {
			b.Fatal(err)
		}
		pkgs[i], data[i] = m.ByPackage(), m.Data()
	}
	type grow struct {
		pkg   string
		bytes int
	}
	var gs []grow
	code := 0
	for p, n := range pkgs[0] {
		code += n - pkgs[1][p]
		if d := n - pkgs[1][p]; d >= 30000 {
			gs = append(gs, grow{p, d})
		}
	}
	for p, n := range pkgs[1] {
		if _, ok := pkgs[0][p]; !ok {
			code -= n
		}
	}
	slices.SortFunc(gs, func(x, y grow) int { return y.bytes - x.bytes })
	var parts []string
	for _, g := range gs {
		parts = append(parts, fmt.Sprintf("%s %.0f KB", g.pkg, float64(g.bytes)/1e3))
	}
	b.Logf("app minus floor, unstripped: code %+.2f MB, data section %+.2f MB; code by package: %s",
		float64(code)/1e6, float64(data[0]-data[1])/1e6, strings.Join(parts, ", "))
}

// BenchmarkFigureRest measures an embedded figure (quorum-size, at the size of a
// book page's column, 720x450) resting between two steps and playing a step at 1x,
// next to the full app paused at the same size. The goal for a resting figure is the
// paused app's: under 0.02 CPU-seconds per second for the renderer and GPU processes.
func BenchmarkFigureRest(b *testing.B) {
	const window = 5 * time.Second
	for range b.N {
		br := newBrowser(b, 720, 450)
		paused := measurePaused(b, br, window)
		b.Logf("full app paused, 720x450: %v", paused)
		br.close()

		fr := newBrowser(b, 720, 450)
		openAppIn(fr, appSite(b), "scenario=quorum-size&embed=1")
		s := appState(fr)
		clickWidget(fr, s, "figure.play")
		waitState(fr, "step 2", func(s app.Snapshot) bool { return s.Paused && s.Scenario.Step == 1 })
		waitResting(fr, "at step 2")
		time.Sleep(2 * time.Second)
		resting := measureStill(fr, true, window)
		b.Logf("figure resting at step 2: %v", resting)
		// Step 3 comes 6.4 s after step 2 at 1x: the figure plays all through the window.
		clickWidget(fr, appState(fr), "figure.play")
		waitState(fr, "the figure to play", func(s app.Snapshot) bool { return !s.Paused })
		playing := measureStill(fr, true, window)
		if st := appState(fr); st.Scenario.Step != 1 || st.Paused {
			b.Fatalf("the figure left step 2 (now step %d, paused %v) within the window: the measurement mixes playing and resting", st.Scenario.Step+1, st.Paused)
		}
		b.Logf("figure playing a step at 1x: %v", playing)
		b.Logf("load average after: %s", loadAverage())
		for _, m := range []struct {
			name string
			w    interval
		}{{"app-paused", paused}, {"figure-resting", resting}, {"figure-playing", playing}} {
			b.ReportMetric(m.w.perSecond(m.w.cpu["renderer"]), m.name+"-renderer-cpu-s/s")
			b.ReportMetric(m.w.perSecond(m.w.cpu["GPU"]), m.name+"-gpu-cpu-s/s")
			b.ReportMetric(m.w.perSecond(m.w.draws), m.name+"-painted/s")
		}
	}
}
