//go:build browser

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"raftlab/internal/webserver"
)

const (
	// envWebDir overrides the directory served to the browser (default <repo>/web).
	envWebDir = "RAFTLAB_WEB_DIR"
	// envChromium overrides the browser binary (default /usr/bin/chromium).
	envChromium = "RAFTLAB_CHROMIUM"

	defaultChromium = "/usr/bin/chromium"

	// Default limits for waits. They bound how long a broken page can hang a test;
	// nothing is measured against them.
	readyTimeout = 60 * time.Second
	waitTimeout  = 60 * time.Second // generous: a loaded 2-core machine can starve the renderer for a while
	// framesPerInput is how many animation frames the mouse and key helpers wait between
	// the press and the release, so that Ebiten's once-per-frame input polling sees both.
	framesPerInput = 3
)

// webDir returns the directory that the browser tests serve: $RAFTLAB_WEB_DIR or <repo>/web.
func webDir(t testing.TB) string {
	t.Helper()
	if d := os.Getenv(envWebDir); d != "" {
		return d
	}
	return filepath.Join(repoRoot(t), "web")
}

// requireAppBuild skips (fails under CI) unless dir holds the built app: raftlab.wasm
// and wasm_exec.js, which `make wasm` writes.
func requireAppBuild(t testing.TB, dir string) {
	t.Helper()
	if missing := webserver.MissingFiles(dir, "index.html", "raftlab.wasm", "wasm_exec.js"); len(missing) > 0 {
		requireOrSkip(t, fmt.Sprintf("%s lacks %s: run `make wasm` (cmd/wasm must exist)", dir, strings.Join(missing, ", ")))
	}
}

// startWebServer serves dir with the same handler as cmd/serve on a random loopback port
// and returns the base URL, ending in "/". The server stops when the test ends.
func startWebServer(t testing.TB, dir string) string {
	t.Helper()
	h, err := webserver.Handler(dir)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h) // listens on 127.0.0.1
	t.Cleanup(srv.Close)
	return srv.URL + "/"
}

// browser is one headless Chromium with one tab.
type browser struct {
	t         testing.TB
	ctx       context.Context // the tab; no deadline (see chromedp docs, "Set a timeout for one action")
	shots     string          // screenshot directory, made on first use
	shotsTest string          // the test that shots belongs to

	mu      sync.Mutex
	console []string // console messages and uncaught exceptions, in order
	// close ends the browser (at once, or when the test ends): a benchmark that
	// starts one browser after another closes each before the next, so that idle
	// pages do not eat the CPU the next measurement needs.
	close func()
}

// newBrowser opens a tab with a width×height viewport. A test gets it in the
// Chromium that the package's tests share, in a browser context of its own (its
// own storage and cache, as in a fresh profile), closed when the test ends; a
// benchmark gets a Chromium of its own, as newBrowserWith starts. The console
// output of the page is logged if the test failed.
func newBrowser(t testing.TB, width, height int) *browser {
	t.Helper()
	if _, ok := t.(*testing.T); !ok {
		return newBrowserWith(t, width, height)
	}
	parent := sharedChromium.tabParent(t)
	ctx, cancelTab := chromedp.NewContext(parent, chromedp.WithNewBrowserContext())
	return startTab(t, ctx, cancelTab, width, height)
}

// newBrowserWith starts a Chromium of its own with a width×height viewport and
// more command-line flags, added after the usual ones (a later flag of the same
// name wins), such as chromedp.Flag("disable-gpu", true) for a measurement
// without the GPU process. A test that measures the browser's processes uses it
// with no flags, so that no other test's tab counts. The browser, its fresh
// profile directory and its tab go away when the test ends.
func newBrowserWith(t testing.TB, width, height int, extra ...chromedp.ExecAllocatorOption) *browser {
	t.Helper()
	profile := t.TempDir() // registered first, so removed after the browser has exited
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), chromiumOptions(t, profile, width, height, extra...)...)
	ctx, cancelTab := chromedp.NewContext(allocCtx)
	return startTab(t, ctx, func() {
		cancelTab()
		cancelAlloc() // waits for the browser process to exit
	}, width, height)
}

// chromiumOptions are the flags every Chromium of the tests runs with, then extra.
func chromiumOptions(t testing.TB, profile string, width, height int, extra ...chromedp.ExecAllocatorOption) []chromedp.ExecAllocatorOption {
	t.Helper()
	execPath := os.Getenv(envChromium)
	if execPath == "" {
		execPath = defaultChromium
	}
	if _, err := os.Stat(execPath); err != nil {
		requireOrSkip(t, fmt.Sprintf("Chromium not found at %s (Debian package chromium; `make deps` installs it)", execPath))
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(execPath),
		chromedp.NoSandbox,
		chromedp.UserDataDir(profile),
		chromedp.Flag("headless", "new"),
		chromedp.Flag("use-angle", "swiftshader"),
		chromedp.Flag("enable-unsafe-swiftshader", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("no-first-run", true),
		chromedp.WindowSize(width, height),
	)
	return append(opts, extra...)
}

// startTab makes the browser of the tab ctx, which closeTab closes, records its
// console and sets its viewport.
func startTab(t testing.TB, ctx context.Context, closeTab func(), width, height int) *browser {
	t.Helper()
	b := &browser{t: t, ctx: ctx}
	b.close = sync.OnceFunc(closeTab)
	t.Cleanup(b.close)

	// Console returns once the browser runs and the tab exists.
	messages := chromedp.Console(ctx)
	go func() {
		for m, err := range messages {
			if err != nil {
				return
			}
			line := fmt.Sprintf("console.%s %s", m.Type, m.String())
			if m.URL != "" {
				line += fmt.Sprintf(" (%s:%d)", m.URL, m.Line+1)
			}
			b.mu.Lock()
			b.console = append(b.console, line)
			b.mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		if t.Failed() {
			for _, l := range b.consoleLog() {
				t.Log(l)
			}
		}
	})
	b.do(waitTimeout, chromedp.EmulateViewport(int64(width), int64(height)))
	return b
}

// sharedChromium is the Chromium the package's tests open their tabs in:
// started by the first test that asks for one, again if it has died, and
// stopped by TestMain.
var sharedChromium chromium

type chromium struct {
	mu      sync.Mutex
	profile string
	ctx     context.Context // its first tab, which holds the browser
	stop    func()
}

// sharedWidth and sharedHeight are the shared Chromium's window; every tab sets its own viewport.
const sharedWidth, sharedHeight = 1280, 800

// tabParent returns a context that new tabs of the shared Chromium derive from,
// starting the browser if it does not run.
func (c *chromium) tabParent(t testing.TB) context.Context {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ctx != nil && c.ctx.Err() == nil {
		return c.ctx
	}
	c.close()
	profile, err := os.MkdirTemp("", "raftlab-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), chromiumOptions(t, profile, sharedWidth, sharedHeight)...)
	ctx, cancel := chromedp.NewContext(allocCtx)
	c.profile, c.ctx = profile, ctx
	c.stop = func() {
		cancel()
		cancelAlloc() // waits for the browser process to exit
		os.RemoveAll(profile)
	}
	if err := chromedp.Do(ctx); err != nil {
		c.close()
		t.Fatalf("starting Chromium: %v", err)
	}
	return ctx
}

// close stops the shared Chromium, if it runs.
func (c *chromium) close() {
	if c.stop != nil {
		c.stop()
	}
	c.ctx, c.stop = nil, nil
}

// lend hands the browser to t, a subtest of the test that started it, until t
// ends: its failures, waits and screenshots are then t's, and the page's console
// is logged if t fails. Subtests that share one browser this way run one after
// another, each navigating to its own page first; starting Chromium costs more
// than loading a page in it.
func (b *browser) lend(t *testing.T) {
	t.Helper()
	owner := b.t
	seen := len(b.consoleLog())
	b.t = t
	t.Cleanup(func() {
		if t.Failed() {
			for _, l := range b.consoleLog()[seen:] {
				t.Log(l)
			}
		}
		b.t = owner
	})
}

// do runs actions with a time limit and fails the test on error.
func (b *browser) do(limit time.Duration, actions ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, limit)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		b.t.Fatalf("browser: %v", err)
	}
}

// consoleLog returns the page's console messages and uncaught exceptions so far.
func (b *browser) consoleLog() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.console...)
}

// exceptions returns the uncaught exceptions seen so far.
func (b *browser) exceptions() []string {
	var out []string
	for _, l := range b.consoleLog() {
		if strings.HasPrefix(l, "console."+string(chromedp.ConsoleException)) {
			out = append(out, l)
		}
	}
	return out
}

// navigate loads url and waits for its load event.
func (b *browser) navigate(url string) {
	b.t.Helper()
	b.do(waitTimeout, chromedp.Navigate(url))
}

// openApp serves web/ (see webDir), requires the built app, opens
// index.html?<query> and waits until the app reports ready. query may be empty;
// it is a raw query string such as "scenario=majority&seed=3".
func (b *browser) openApp(query string) string {
	b.t.Helper()
	dir := webDir(b.t)
	requireAppBuild(b.t, dir)
	url := startWebServer(b.t, dir) + "index.html"
	if query != "" {
		url += "?" + query
	}
	b.navigate(url)
	b.waitReady()
	return url
}

// waitReady waits until window.raftlab.ready === true, which the app sets after its
// first Draw.
func (b *browser) waitReady() {
	b.t.Helper()
	err := b.poll(`window.raftlab !== undefined && window.raftlab !== null && window.raftlab.ready === true`, readyTimeout)
	if err != nil {
		state := evalJS[string](b, `JSON.stringify(window.raftlabPage ? {state: raftlabPage.state, error: raftlabPage.error} : null)`)
		b.t.Fatalf("app not ready after %v: %v (page: %s)", readyTimeout, err, state)
	}
}

// waitFor waits until the JavaScript expression is truthy, checking once per animation
// frame, and fails the test after waitTimeout.
func (b *browser) waitFor(expr string) {
	b.t.Helper()
	if err := b.poll(expr, waitTimeout); err != nil {
		b.t.Fatalf("waiting for %s: %v", expr, err)
	}
}

func (b *browser) poll(expr string, limit time.Duration) error {
	ctx, cancel := context.WithTimeout(b.ctx, limit+5*time.Second)
	defer cancel()
	_, err := chromedp.Run(ctx, chromedp.Poll[chromedp.Void](expr, chromedp.WithPollingTimeout(limit)))
	return err
}

// evalJS evaluates a JavaScript expression in the page (awaiting it if it is a promise)
// and decodes its JSON value into T. Use chromedp.Void to ignore the result.
func evalJS[T any](b *browser, expr string) T {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, waitTimeout)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		b.t.Fatalf("evaluating %s: %v", expr, err)
	}
	return v
}

// snapshot calls window.raftlab.snapshot(), which returns a JSON string, and decodes it
// into out.
func (b *browser) snapshot(out any) {
	b.t.Helper()
	raw := evalJS[string](b, `window.raftlab.snapshot()`)
	if err := json.Unmarshal([]byte(raw), out); err != nil {
		b.t.Fatalf("window.raftlab.snapshot() is not valid JSON: %v\n%s", err, raw)
	}
}

// snapshotMap is snapshot into a generic map.
func (b *browser) snapshotMap() map[string]any {
	b.t.Helper()
	var m map[string]any
	b.snapshot(&m)
	return m
}

// waitFrames waits for n animation frames of the page.
func (b *browser) waitFrames(n int) {
	b.t.Helper()
	evalJS[chromedp.Void](b, fmt.Sprintf(`new Promise(function (done) {
		var left = %d;
		function step() { if (--left <= 0) done(); else requestAnimationFrame(step); }
		requestAnimationFrame(step);
	})`, n))
}

func (b *browser) mouse(typ input.DispatchMouseEventType, x, y float64, button input.MouseButton, buttons int64) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, waitTimeout)
	defer cancel()
	_, err := chromedp.Call(ctx, input.DispatchMouseEvent, input.DispatchMouseEventParams{
		Type: typ, X: x, Y: y, Button: button, Buttons: buttons, ClickCount: clickCount(typ),
	})
	if err != nil {
		b.t.Fatalf("mouse %s at (%.0f, %.0f): %v", typ, x, y, err)
	}
}

func clickCount(typ input.DispatchMouseEventType) int64 {
	if typ == chromedp.MousePressed || typ == chromedp.MouseReleased {
		return 1
	}
	return 0
}

// mouseMove moves the pointer to (x, y) in CSS pixels of the viewport, with no button held.
func (b *browser) mouseMove(x, y float64) {
	b.t.Helper()
	b.mouse(chromedp.MouseMoved, x, y, input.MouseButtonNone, 0)
}

// mouseDown presses the left button at (x, y). Follow it with waitFrames or a waitFor on
// the app's state before mouseUp: Ebiten reads input once per frame.
func (b *browser) mouseDown(x, y float64) {
	b.t.Helper()
	b.mouse(chromedp.MouseMoved, x, y, input.MouseButtonNone, 0)
	b.mouse(chromedp.MousePressed, x, y, input.MouseButtonLeft, 1)
}

// mouseUp releases the left button at (x, y).
func (b *browser) mouseUp(x, y float64) {
	b.t.Helper()
	b.mouse(chromedp.MouseReleased, x, y, input.MouseButtonLeft, 0)
}

// click presses and releases the left button at (x, y), a few frames apart, and waits a
// few frames after the release so that the app has handled it.
func (b *browser) click(x, y float64) {
	b.t.Helper()
	b.mouseDown(x, y)
	b.waitFrames(framesPerInput)
	b.mouseUp(x, y)
	b.waitFrames(framesPerInput)
}

// drag presses at (x0, y0), moves to (x1, y1) in steps (one frame apart), and releases.
func (b *browser) drag(x0, y0, x1, y1 float64, steps int) {
	b.t.Helper()
	if steps < 1 {
		steps = 1
	}
	b.mouseDown(x0, y0)
	b.waitFrames(framesPerInput)
	for i := 1; i <= steps; i++ {
		f := float64(i) / float64(steps)
		b.mouse(chromedp.MouseMoved, x0+(x1-x0)*f, y0+(y1-y0)*f, input.MouseButtonLeft, 1)
		b.waitFrames(1)
	}
	b.waitFrames(framesPerInput)
	b.mouseUp(x1, y1)
	b.waitFrames(framesPerInput)
}

// pressKey presses and releases one key, a few frames apart. key is a character such as
// "a" or " ", or a named key from github.com/chromedp/chromedp/kb such as kb.ArrowLeft.
func (b *browser) pressKey(key string) {
	b.t.Helper()
	r := []rune(key)
	if len(r) != 1 {
		b.t.Fatalf("pressKey: %q is not a single key", key)
	}
	events := kb.Encode(r[0])
	if len(events) < 2 {
		b.t.Fatalf("pressKey: no key events for %q", key)
	}
	send := func(evs []*input.DispatchKeyEventParams) {
		b.t.Helper()
		ctx, cancel := context.WithTimeout(b.ctx, waitTimeout)
		defer cancel()
		for _, ev := range evs {
			if _, err := chromedp.Call(ctx, input.DispatchKeyEvent, *ev); err != nil {
				b.t.Fatalf("key %q: %v", key, err)
			}
		}
	}
	send(events[:len(events)-1]) // keyDown (and char)
	b.waitFrames(framesPerInput)
	send(events[len(events)-1:]) // keyUp
	b.waitFrames(framesPerInput)
}

// screenshot saves a PNG of the viewport under artifacts/screenshots/browser/<test>/
// and returns its path.
func (b *browser) screenshot(name string) string {
	b.t.Helper()
	if b.shotsTest != b.t.Name() {
		b.shots, b.shotsTest = screenshotDir(b.t, "browser"), b.t.Name()
	}
	ctx, cancel := context.WithTimeout(b.ctx, waitTimeout)
	defer cancel()
	buf, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		b.t.Fatalf("screenshot: %v", err)
	}
	p := filepath.Join(b.shots, shotName(nextShot(b.t), name))
	if err := os.WriteFile(p, buf, 0o644); err != nil {
		b.t.Fatal(err)
	}
	return p
}
