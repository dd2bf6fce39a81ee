//go:build browser

package e2e

// BenchmarkFrameRate: how many frames a second the app shows when WebGL is drawn in
// software, beside the bare Ebiten program and RaftScope in the same browser.

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"raftlab/viz/app"
)

// envRaftScope names a checkout of github.com/ongardie/raftscope (with its two
// submodules, bootstrap-slider and bootstrap-contextmenu) to measure the app against,
// besides the bare Ebiten program. RaftScope is not part of the project, and CI has
// no network: without it the benchmark measures the app against the bare Ebiten
// program (e2e/sizefloor) only, and says so.
const envRaftScope = "RAFTLAB_RAFTSCOPE"

// frameRateRounds is how many times each page is measured, in turn with the others,
// so that a change in the machine's load shows as a spread rather than as a
// difference between pages.
const frameRateRounds = 2

// envAppBefore names a directory holding another build of the app (index.html,
// raftlab.wasm and wasm_exec.js, as `make wasm` leaves web/), such as the commit
// before a change: the benchmark then measures it too, as "before", in turn with
// the others, so that a change is compared within one run.
const envAppBefore = "RAFTLAB_APP_BEFORE"

// frameRatePage is one page the benchmark measures.
type frameRatePage struct {
	name string
	w, h int
	url  string
	// isApp: the page is raftlab, which counts its painted frames itself;
	// raftScope: the page is RaftScope, whose renders are counted apart.
	isApp, raftScope bool
}

// countRenders counts RaftScope's render.update calls in window.__refRenders: its
// animation-frame loop calls it once per frame while the run plays.
const countRenders = `(function () {
	if (window.__refRenders !== undefined) return true;
	window.__refRenders = 0;
	var update = render.update;
	render.update = function () { window.__refRenders++; return update.apply(this, arguments); };
	return true;
})()`

// BenchmarkFrameRate measures frames per second and main-thread time of the app
// running five machines at 1x, at 1280x800 and as a 720x450 embedded run (a book
// column), against the bare Ebiten program and RaftScope (see envRaftScope) at the
// same sizes. One browser per set of flags (SwiftShader, --disable-gpu) loads
// the pages one after another, frameRateRounds times, measuring each for
// measureWindow. Frames are those actually shown: the app's painted frames, and
// for the reference every animation frame (the bare program draws in each;
// RaftScope's loop runs in each, and its renders are logged beside them).
func BenchmarkFrameRate(b *testing.B) {
	appURL := startWebServer(b, appSite(b)) + "index.html"
	floorBase := startWebServer(b, floorSite(b))
	floorURL := floorBase + "index.html"
	scope, withScope := raftScopeURL(b)
	var pages []frameRatePage
	for _, size := range []struct {
		name, query string
		w, h        int
	}{{"app", "?nodes=5&seed=1&speed=1", 1280, 800}, {"figure", "?nodes=5&seed=1&speed=1&embed=1", 720, 450}} {
		pages = append(pages,
			frameRatePage{name: size.name, w: size.w, h: size.h, isApp: true, url: appURL + size.query},
			frameRatePage{name: "bare Ebiten", w: size.w, h: size.h, url: floorURL},
			// The floor with the WebGL context the app's page asks for: the app against
			// Ebiten's own cost under the same settings.
			frameRatePage{name: "bare Ebiten, page's context", w: size.w, h: size.h, url: floorBase + floorContextPage})
		if withScope {
			pages = append(pages, frameRatePage{name: "RaftScope", w: size.w, h: size.h, url: scope, raftScope: true})
		}
	}
	if dir := os.Getenv(envAppBefore); dir != "" {
		requireAppBuild(b, dir)
		before := startWebServer(b, dir) + "index.html"
		pages = append(pages,
			frameRatePage{name: "app before", w: 1280, h: 800, isApp: true, url: before + "?nodes=5&seed=1&speed=1"},
			frameRatePage{name: "figure before", w: 720, h: 450, isApp: true, url: before + "?nodes=5&seed=1&speed=1&embed=1"})
	}
	for _, mode := range gpuModes {
		b.Run(mode.name, func(b *testing.B) {
			for range b.N {
				br := newBrowserWith(b, 1280, 800, mode.flags...)
				logMachine(b, br)
				got := make([][]interval, len(pages))
				for round := range frameRateRounds {
					for i, p := range pages {
						w := measurePage(b, br, p)
						got[i] = append(got[i], w)
						b.Logf("round %d, %s %dx%d, %s: %v; load average %s", round+1, p.name, p.w, p.h, mode.name, w, loadAverage())
					}
				}
				br.close()
				reportFrameRate(b, mode.name, pages, got)
			}
		})
	}
}

// measurePage opens p in br at its size, lets it settle and measures it. For
// RaftScope the interval's draws are its renders.
func measurePage(b *testing.B, br *browser, p frameRatePage) interval {
	b.Helper()
	br.do(waitTimeout, chromedp.EmulateViewport(int64(p.w), int64(p.h)))
	br.navigate(p.url)
	switch {
	case p.isApp:
		br.waitReady()
		waitState(br, "a leader", func(s app.Snapshot) bool { return s.Leader > 0 && !s.Paused })
	case p.raftScope:
		evalJS[bool](br, countRenders)
	default:
		br.waitFor(`document.querySelector("canvas") !== null`)
	}
	br.waitFrames(10)
	time.Sleep(2 * time.Second) // past the start-up work
	if !p.raftScope {
		return measure(br, p.isApp, measureWindow)
	}
	r0 := evalJS[float64](br, `window.__refRenders`)
	w := measure(br, false, measureWindow)
	w.draws = evalJS[float64](br, `window.__refRenders`) - r0
	return w
}

// raftScopeURL serves the RaftScope checkout that envRaftScope names and
// returns its index.html; ok is false when the variable is not set.
func raftScopeURL(b *testing.B) (url string, ok bool) {
	b.Helper()
	dir := os.Getenv(envRaftScope)
	if dir == "" {
		b.Logf("%s is not set: measuring the app against the bare Ebiten program only, not RaftScope", envRaftScope)
		return "", false
	}
	for _, f := range []string{"index.html", "script.js", "bootstrap-slider/js/bootstrap-slider.js", "bootstrap-contextmenu/bootstrap-contextmenu.js"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			b.Fatalf("%s=%s is not a RaftScope checkout with its submodules: %v", envRaftScope, dir, err)
		}
	}
	return startWebServer(b, dir) + "index.html", true
}

// reportFrameRate logs the table of one set of flags and reports the means over
// the rounds.
func reportFrameRate(b *testing.B, mode string, pages []frameRatePage, got [][]interval) {
	b.Helper()
	var lines []string
	for i, p := range pages {
		var shown, raf, busy, gpu []float64
		for _, w := range got[i] {
			raf = append(raf, w.perSecond(w.frames))
			if p.isApp {
				shown = append(shown, w.perSecond(w.draws))
			} else {
				shown = append(shown, w.perSecond(w.frames))
			}
			busy = append(busy, 1000*w.perSecond(w.busy))
			gpu = append(gpu, w.perSecond(w.cpu["GPU"]))
		}
		lines = append(lines, fmt.Sprintf("| %s | %s %dx%d | %s frames/s (animation frames %s) | main thread %s ms/s | GPU process %s CPU-s/s |",
			mode, p.name, p.w, p.h, spread(shown, "%.1f"), spread(raf, "%.1f"), spread(busy, "%.0f"), spread(gpu, "%.2f")))
		key := fmt.Sprintf("%s-%dx%d", strings.ReplaceAll(p.name, " ", "-"), p.w, p.h)
		b.ReportMetric(mean(shown), key+"-fps")
		b.ReportMetric(mean(busy), key+"-busy-ms/s")
	}
	b.Logf("frame rate, %s (%d rounds of %v windows):\n%s", mode, frameRateRounds, measureWindow, strings.Join(lines, "\n"))
}

// spread formats the lowest and highest of xs ("15.1-15.7"), or the one value.
func spread(xs []float64, format string) string {
	lo, hi := percentile(xs, 0), percentile(xs, 100)
	if fmt.Sprintf(format, lo) == fmt.Sprintf(format, hi) {
		return fmt.Sprintf(format, lo)
	}
	return fmt.Sprintf(format+"-"+format, lo, hi)
}

func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	var sum float64
	for _, x := range xs {
		sum += x
	}
	return sum / float64(len(xs))
}
