//go:build browser

package e2e

// The first live frame: how long after a page starts the app, an embedded figure and the
// two bare Ebiten programs draw their first frame, and where that time goes. The anchor is
// e2e/barefloor, the plainest Ebiten program that writes a line (Ebiten's debug font, no
// TrueType), loaded with WebAssembly.instantiateStreaming; e2e/sizefloor is the same with
// the app's font through text/v2. Every program is built with the flags of `make wasm`,
// compressed as `make release` does and served by internal/webserver, as the app is.

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// streamedPage is a page that runs the Go program wasm with nothing else: wasm_exec.js
// and WebAssembly.instantiateStreaming straight on the fetch, marking <prefix>-instantiated
// when the module is compiled and instantiated.
func streamedPage(title, wasm, prefix string) string {
	return `<!doctype html><meta charset="utf-8"><title>` + title + `</title>
<style>html, body { margin: 0; width: 100%; height: 100%; overflow: hidden; }</style>
<script src="wasm_exec.js"></script>
<script>
var go = new Go();
WebAssembly.instantiateStreaming(fetch("` + wasm + `"), go.importObject).then(function (r) { performance.mark("` + prefix + `-instantiated"); go.run(r.instance); });
</script>`
}

var bareSiteOnce site

// bareSite builds e2e/barefloor as floorSite builds e2e/sizefloor.
func bareSite(b *testing.B) string {
	b.Helper()
	return programSite(b, &bareSiteOnce, "./e2e/barefloor", "bare", nil)
}

// programSite builds the bare program pkg into st's directory as name.wasm, as appSite
// builds the app (the flags of `make wasm`, with its gzip and brotli siblings), with
// wasm_exec.js and index.html, streamedPage running it; then more, if set, adds files.
func programSite(b *testing.B, st *site, pkg, name string, more func(dir string) error) string {
	b.Helper()
	root := repoRoot(b)
	return st.build(b, func(dir string) error {
		wasm := filepath.Join(dir, name+".wasm")
		if err := buildWasm(root, pkg, wasm); err != nil {
			return err
		}
		if err := copyInto(goRootFile(b, "lib/wasm/wasm_exec.js"), dir, "wasm_exec.js"); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, "index.html"), []byte(streamedPage(name, name+".wasm", name)), 0o644); err != nil {
			return err
		}
		if more != nil {
			if err := more(dir); err != nil {
				return err
			}
		}
		return compress(wasm)
	})
}

// starter is a program whose first frame is measured.
type starter struct {
	name string
	// drawn is a JavaScript expression for the page's performance.now() at the end of
	// the program's first Draw, undefined until then.
	drawn string
	// phases are the program's performance marks in the order they come, each with
	// what it means.
	phases [][2]string
}

// The programs of the first-frame comparison.
var (
	appStarter = starter{
		name:  "app",
		drawn: `(function () { var m = performance.getEntriesByName("raftlab-first-draw")[0]; return m ? m.startTime : undefined; })()`,
		phases: [][2]string{
			{"raftlab-fetch", "fetch"}, {"raftlab-instantiated", "compiled and instantiated"},
			{"raftlab-main", "Go runtime and init"}, {"raftlab-setup", "app set up"},
			{"raftlab-update", "Ebiten started"}, {"raftlab-draw", "first Update"},
			{"raftlab-built", "first frame built"},
		},
	}
	floorStarter = starter{
		name:  "sizefloor",
		drawn: `window.floorFirstDraw`,
		phases: [][2]string{
			{"floor-instantiated", "compiled and instantiated"}, {"floor-main", "Go runtime and init"},
			{"floor-font", "font parsed"}, {"floor-draw", "Ebiten started"},
		},
	}
	bareStarter = starter{
		name:  "barefloor",
		drawn: `window.bareFirstDraw`,
		phases: [][2]string{
			{"bare-instantiated", "compiled and instantiated"}, {"bare-main", "Go runtime and init"},
			{"bare-draw", "Ebiten started"},
		},
	}
)

// startup is what a page tells of its start-up, in ms after its navigation started.
type startup struct {
	Marks     map[string]float64 `json:"marks"`
	Drawn     float64            `json:"drawn"`     // the end of the first Draw
	WasmStart float64            `json:"wasmStart"` // the .wasm requested
	WasmEnd   float64            `json:"wasmEnd"`   // and fully received
	WasmBytes float64            `json:"wasmBytes"` // on the wire
	Encoding  string             `json:"encoding"`  // as the server sent it
}

// readStartup reads it in the page's window win (a JavaScript expression: window, or an
// iframe's contentWindow), whose first Draw is drawn.
const readStartup = `(function (w) {
	var out = {marks: {}, drawn: w.eval(%s)};
	w.performance.getEntriesByType("mark").forEach(function (m) { if (!(m.name in out.marks)) out.marks[m.name] = m.startTime; });
	var e = w.performance.getEntriesByType("resource").filter(function (r) { return /\.wasm$/.test(r.name); })[0];
	if (e) {
		out.wasmStart = e.startTime; out.wasmEnd = e.responseEnd; out.wasmBytes = e.encodedBodySize;
		out.encoding = e.encodedBodySize < e.decodedBodySize ? "compressed" : "identity";
	}
	return out;
})(%s)`

// describe tells where the start-up's time went, phase by phase.
func (s starter) describe(u startup) string {
	parts := []string{fmt.Sprintf(".wasm requested at %.0f, received at %.0f (%.2f MB %s)", u.WasmStart, u.WasmEnd, u.WasmBytes/1e6, u.Encoding)}
	last := 0.0
	for _, p := range s.phases {
		at, ok := u.Marks[p[0]]
		if !ok {
			continue
		}
		parts = append(parts, fmt.Sprintf("%s at %.0f (+%.0f)", p[1], at, at-last))
		last = at
	}
	parts = append(parts, fmt.Sprintf("first Draw done (painted) at %.0f (+%.0f)", u.Drawn, u.Drawn-last))
	return strings.Join(parts, ", ")
}

// freshTab opens a tab in a browser context of its own in br's Chromium: an empty cache
// and storage, as a new profile has, in a browser that is already running (its GPU
// process too), as a reader's is. Closing the tab ends the context.
func freshTab(br *browser, width, height int) *browser {
	br.t.Helper()
	ctx, cancel := chromedp.NewContext(br.ctx, chromedp.WithNewBrowserContext())
	return startTab(br.t, ctx, cancel, width, height)
}

// loadCold opens url in a fresh tab of br's Chromium, waits for the first Draw of the
// program s in the window win (see readStartup) and returns its start-up and the main
// thread's CPU seconds until then.
func loadCold(br *browser, width, height int, url string, s starter, win string) (startup, float64) {
	br.t.Helper()
	tab := freshTab(br, width, height)
	defer tab.close()
	// The main thread's CPU time (CDP ThreadTime) is counted from the first metrics call.
	thread0 := metrics(tab)["ThreadTime"]
	tab.navigate(url)
	expr := fmt.Sprintf(readStartup, fmt.Sprintf("%q", s.drawn), win)
	if err := tab.poll(fmt.Sprintf(`(function () { try { return %s.drawn !== undefined; } catch (e) { return false; } })()`, expr), readyTimeout); err != nil {
		br.t.Fatalf("%s at %s: no first frame: %v", s.name, url, err)
	}
	thread := metrics(tab)["ThreadTime"] - thread0
	return evalJS[startup](tab, expr), thread
}

// BenchmarkAppFirstFrame measures page load to first Draw for the app (1280x800), an
// embedded figure (majority, the page embed.js frames, at the same size), e2e/sizefloor
// and e2e/barefloor, their order turned by one each round, each load in a fresh browser context
// of one Chromium (an empty cache, the files from a local server, so network time is near
// zero and the figure is download handling, compilation, start-up and the first frame).
// A first round warms the browser (its GPU process starts, SwiftShader compiles Ebiten's
// shaders) and is logged but not counted. The goal is the app and the figure within 1.3
// times the bare program's (barefloor's) time. Each load logs its phases from the pages'
// performance marks. With RAFTLAB_APP_BEFORE naming another build's web directory, that
// build's app and figure load in the same rounds, for a before and after.
func BenchmarkAppFirstFrame(b *testing.B) {
	const rounds = 5
	appBase := startWebServer(b, appSite(b))
	programs := []struct {
		starter
		url string
	}{
		{appStarter, appBase + "index.html"},
		{starter{name: "figure", drawn: appStarter.drawn, phases: appStarter.phases}, appBase + "index.html?scenario=majority&embed=1"},
		{floorStarter, startWebServer(b, floorSite(b)) + "index.html"},
		{bareStarter, startWebServer(b, bareSite(b)) + "index.html"},
	}
	if dir := os.Getenv(envAppBefore); dir != "" {
		// Another build of the app, loaded the same way in the same rounds.
		before := startWebServer(b, dir)
		programs = append(programs,
			struct {
				starter
				url string
			}{starter{name: "app before", drawn: appStarter.drawn, phases: appStarter.phases}, before + "index.html"},
			struct {
				starter
				url string
			}{starter{name: "figure before", drawn: appStarter.drawn, phases: appStarter.phases}, before + "index.html?scenario=majority&embed=1"})
	}
	drawn := map[string][]float64{}
	thread := map[string][]float64{}
	for range b.N {
		br := newBrowserWith(b, 1280, 800)
		logMachine(b, br)
		for round := range rounds + 1 {
			// The order turns by one each round, so that no program always follows
			// the same one (the app's load leaves its collector and a released WebGL
			// context behind for whatever loads next).
			for k := range programs {
				p := programs[(k+round)%len(programs)]
				u, cpu := loadCold(br, 1280, 800, p.url, p.starter, "window")
				tag := fmt.Sprintf("round %d", round)
				if round == 0 {
					tag = "warm-up"
				} else {
					drawn[p.name] = append(drawn[p.name], u.Drawn)
					thread[p.name] = append(thread[p.name], cpu)
				}
				b.Logf("%s, %s: first Draw %.0f ms, main thread CPU %.2f s; %s; load average %s", tag, p.name, u.Drawn, cpu, p.describe(u), loadAverage())
			}
		}
		br.close()
	}
	bare := percentile(drawn["barefloor"], 50)
	for _, p := range programs {
		d := drawn[p.name]
		b.Logf("%-13s first Draw median %5.0f ms (%.0f to %.0f), %.2fx barefloor; main thread CPU median %.2f s",
			p.name, percentile(d, 50), percentile(d, 0), percentile(d, 100), percentile(d, 50)/bare, percentile(thread[p.name], 50))
		metric := strings.ReplaceAll(p.name, " ", "-")
		b.ReportMetric(percentile(d, 50), metric+"-first-draw-ms")
		b.ReportMetric(percentile(thread[p.name], 50), metric+"-main-cpu-s")
		if p.name != "barefloor" {
			b.ReportMetric(percentile(d, 50)/bare, metric+"-x-barefloor")
		}
	}
	b.Logf("goal: app and figure within %.1fx barefloor; load average after: %s", firstFrameGoal, loadAverage())
}

// sitesCleanup are the directories the benchmarks build, removed by TestMain.
var sitesCleanup = []*site{&appSiteOnce, &floorSiteOnce, &bareSiteOnce}
