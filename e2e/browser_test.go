//go:build browser

package e2e

import (
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// copyFile copies src to dir/name.
func copyFile(t *testing.T, src, dir, name string) {
	t.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func goRootFile(t testing.TB, rel string) string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatalf("go env GOROOT: %v", err)
	}
	return filepath.Join(strings.TrimSpace(string(out)), filepath.FromSlash(rel))
}

type embedFigure struct {
	Src       string `json:"src"`
	Requested bool   `json:"requested"`
	Loaded    bool   `json:"loaded"`
	Visible   bool   `json:"visible"`
}

// TestEmbedExample loads web/embed-example.html and checks what embed.js does with its two
// figures: the iframe URLs, the sizes, loading on scroll and pause/resume messages that
// index.html records on window.raftlabVisible, and releasing a figure far from the view. It
// needs no build of the app.
func TestEmbedExample(t *testing.T) {
	base := startWebServer(t, filepath.Join(repoRoot(t), "web"))
	b := newBrowser(t, 1280, 800)
	b.navigate(base + "embed-example.html")
	b.waitFor(`window.raftlabEmbed && document.querySelectorAll("iframe").length === 2`)

	figs := evalJS[[]embedFigure](b, `raftlabEmbed.figures()`)
	if len(figs) != 2 {
		t.Fatalf("embed.js mounted %d figures, want 2", len(figs))
	}
	wantParams := []map[string]string{
		{"scenario": "majority", "embed": "1"},
		{"scenario": "majority", "embed": "1", "seed": "7"},
	}
	for i, f := range figs {
		u, err := url.Parse(f.Src)
		if err != nil {
			t.Fatalf("figure %d: bad src %q: %v", i, f.Src, err)
		}
		if !strings.HasSuffix(u.Path, "/index.html") {
			t.Errorf("figure %d: src %s does not point at index.html", i, f.Src)
		}
		got := map[string]string{}
		for k := range u.Query() {
			got[k] = u.Query().Get(k)
		}
		if fmt.Sprint(got) != fmt.Sprint(wantParams[i]) {
			t.Errorf("figure %d: query %v, want %v", i, got, wantParams[i])
		}
	}

	// Sizes: the first figure follows the default 16:10 aspect ratio, the second has data-height="420".
	sizes := evalJS[[][2]float64](b, `Array.from(document.querySelectorAll("iframe")).map(function (f) {
		var r = f.getBoundingClientRect(); return [r.width, r.height];
	})`)
	if w, h := sizes[0][0], sizes[0][1]; w < 300 || h < 0.6*w || h > 0.65*w {
		t.Errorf("figure 0 is %.0f×%.0f, want a 16:10 box", w, h)
	}
	if h := sizes[1][1]; h != 420 {
		t.Errorf("figure 1 is %.0f px high, want 420", h)
	}

	// The second figure starts well below the fold, so it must not have loaded yet.
	if !evalJS[bool](b, `document.querySelectorAll("iframe")[1].getBoundingClientRect().top > innerHeight + 400`) {
		t.Fatalf("the example page's layout changed: figure 2 is no longer far below the first screen")
	}
	b.waitFor(`raftlabEmbed.figures()[0].loaded`)
	if figs := evalJS[[]embedFigure](b, `raftlabEmbed.figures()`); figs[1].Requested {
		t.Errorf("figure 2 was loaded before it came near the viewport")
	}
	b.waitFor(`document.querySelectorAll("iframe")[0].contentWindow.raftlabVisible === true`)
	b.screenshot("top")

	// Scroll to the second figure: it loads, the first one gets a pause message, or is
	// released when it is a screen or more away.
	pausedOrReleased := func(i int) string {
		return fmt.Sprintf(`raftlabEmbed.figures()[%[1]d].releases > 0 || document.querySelectorAll("iframe")[%[1]d].contentWindow.raftlabVisible === false`, i)
	}
	evalJS[bool](b, `document.querySelectorAll("iframe")[1].scrollIntoView({block: "center"}), true`)
	b.waitFor(`raftlabEmbed.figures()[1].loaded`)
	b.waitFor(`document.querySelectorAll("iframe")[1].contentWindow.raftlabVisible === true`)
	b.waitFor(pausedOrReleased(0))
	b.screenshot("second-figure")

	// Back to the top: the first resumes, the second pauses.
	evalJS[bool](b, `window.scrollTo(0, 0), true`)
	b.waitFor(`raftlabEmbed.figures()[0].loaded && document.querySelectorAll("iframe")[0].contentWindow.raftlabVisible === true`)
	b.waitFor(pausedOrReleased(1))

	// On a phone the app puts its panel under the machines: both figures, the
	// one with an aspect ratio and the one with a fixed height, grow to 560 px.
	b.do(waitTimeout, chromedp.EmulateViewport(390, 844))
	b.waitFor(`Array.from(document.querySelectorAll("iframe")).every(function (f) {
		var r = f.getBoundingClientRect(); return r.width < 400 && r.height >= 560;
	})`)

	if ex := b.exceptions(); len(ex) > 0 {
		t.Errorf("uncaught exceptions on the page:\n%s", strings.Join(ex, "\n"))
	}
}

// TestEmbedAttributeErrors checks that embed.js explains bad attributes in place of the figure.
func TestEmbedAttributeErrors(t *testing.T) {
	dir := t.TempDir()
	copyFile(t, filepath.Join(repoRoot(t), "web", "embed.js"), dir, "embed.js")
	copyFile(t, filepath.Join(repoRoot(t), "web", "index.html"), dir, "index.html")
	page := `<!doctype html><meta charset="utf-8"><title>embed errors</title>
<div id="empty" data-raftlab=""></div>
<div id="spaces" data-raftlab="two words"></div>
<div id="height" data-raftlab="majority" data-height="tall"></div>
<div id="aspect" data-raftlab="majority" data-aspect="wide"></div>
<div id="reserved" data-raftlab="majority" data-embed="0"></div>
<div id="ok" data-raftlab="majority" data-aspect="4:3" data-speed="2" data-theme="light"></div>
<script src="embed.js"></script>
<script src="embed.js"></script>`
	if err := os.WriteFile(filepath.Join(dir, "page.html"), []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	base := startWebServer(t, dir)
	b := newBrowser(t, 800, 600)
	b.navigate(base + "page.html")
	b.waitFor(`document.querySelectorAll("[data-raftlab-mounted]").length === 6`)

	texts := evalJS[map[string]string](b, `(function () {
		var out = {};
		document.querySelectorAll("[data-raftlab]").forEach(function (el) { out[el.id] = el.textContent; });
		return out;
	})()`)
	want := map[string]string{
		"empty":    "needs a scenario name",
		"spaces":   "contains spaces",
		"height":   `data-height="tall" is not a height`,
		"aspect":   `data-aspect="wide" is not a ratio`,
		"reserved": "data-embed is set by the embed script",
	}
	for id, sub := range want {
		if !strings.Contains(texts[id], sub) {
			t.Errorf("#%s shows %q, want it to contain %q", id, texts[id], sub)
		}
	}
	if n := evalJS[int](b, `document.querySelectorAll("iframe").length`); n != 1 {
		t.Errorf("%d iframes, want 1 (only #ok is valid; embed.js was included twice)", n)
	}
	b.waitFor(`document.querySelector("#ok iframe").src !== ""`)
	src := evalJS[string](b, `document.querySelector("#ok iframe").src`)
	u, err := url.Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	if q := u.Query(); q.Get("speed") != "2" || q.Get("theme") != "light" || q.Has("aspect") {
		t.Errorf("#ok iframe src %s: want speed=2 and theme=light and no aspect", src)
	}
	ratio := evalJS[float64](b, `(function () { var r = document.querySelector("#ok iframe").getBoundingClientRect(); return r.width / r.height; })()`)
	if ratio < 1.3 || ratio > 1.36 {
		t.Errorf("#ok iframe width/height = %.3f, want 4:3", ratio)
	}
}

// TestIndexReportsLoadErrors serves index.html without the files `make wasm` writes and
// checks that the page says what is wrong instead of loading forever.
func TestIndexReportsLoadErrors(t *testing.T) {
	cases := []struct {
		name     string
		execJS   bool // copy wasm_exec.js
		wantText string
	}{
		{"no wasm_exec.js", false, "wasm_exec.js did not load"},
		{"no raftlab.wasm", true, "Could not download raftlab.wasm (HTTP 404"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := newBrowser(t, 800, 600)
			dir := t.TempDir()
			copyFile(t, filepath.Join(repoRoot(t), "web", "index.html"), dir, "index.html")
			if c.execJS {
				copyFile(t, goRootFile(t, "lib/wasm/wasm_exec.js"), dir, "wasm_exec.js")
			}
			base := startWebServer(t, dir)
			b.navigate(base + "index.html")
			b.waitFor(`window.raftlabPage && raftlabPage.state === "error"`)
			msg := evalJS[string](b, `document.getElementById("raftlab-message").hidden ? "" : document.getElementById("raftlab-message").textContent`)
			if !strings.Contains(msg, c.wantText) {
				t.Errorf("message %q, want it to contain %q", msg, c.wantText)
			}
			b.screenshot(c.name)
		})
	}
}

// TestAppLoads is the smoke test of the real app: web/index.html with the wasm from
// `make wasm` must download with progress, report ready, remove the loading overlay,
// draw something and return a JSON snapshot.
func TestAppLoads(t *testing.T) {
	b := newBrowser(t, 1280, 800)
	b.openApp("")

	b.waitFor(`document.getElementById("raftlab-loading") === null`)
	progress := evalJS[map[string]float64](b, `({received: raftlabPage.received, total: raftlabPage.total})`)
	if progress["received"] <= 0 {
		t.Errorf("the page counted no downloaded bytes: %v", progress)
	}
	if tot := progress["total"]; tot > 0 && tot != progress["received"] {
		t.Errorf("download progress ended at %v of %v bytes", progress["received"], tot)
	}
	if !evalJS[bool](b, `document.querySelector("canvas") !== null`) {
		t.Fatal("no canvas on the page")
	}

	snap := b.snapshotMap()
	if _, err := json.Marshal(snap); err != nil {
		t.Fatalf("snapshot: %v", err)
	}
	b.waitFrames(5)
	requireNotBlank(t, b.screenshot("loaded"))
	if ex := b.exceptions(); len(ex) > 0 {
		t.Errorf("uncaught exceptions on the page:\n%s", strings.Join(ex, "\n"))
	}
}
