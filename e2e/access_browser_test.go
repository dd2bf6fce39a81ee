//go:build browser

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"raftlab/viz/app"
)

// axText is every unignored node of the page's accessibility tree as
// "role: name", one a line, as a screen reader would find them.
func axText(t *testing.T, b *browser) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, waitTimeout)
	defer cancel()
	res, err := chromedp.Call(ctx, accessibility.GetFullAXTree, accessibility.GetFullAXTreeParams{})
	if err != nil {
		t.Fatalf("Accessibility.getFullAXTree: %v", err)
	}
	str := func(v *accessibility.Value) string {
		if v == nil {
			return ""
		}
		var s string
		_ = json.Unmarshal(v.Value, &s)
		return s
	}
	var lines []string
	for _, n := range res.Nodes {
		if n.Ignored {
			continue
		}
		lines = append(lines, str(n.Role)+": "+str(n.Name))
	}
	return strings.Join(lines, "\n")
}

// shiftKey is the Shift bit of a CDP key event's modifiers.
const shiftKey = 8

// key presses one key with modifiers (shiftKey) as real key events, a
// frame apart: the keyboard layer handles a key as it comes, not once a
// frame.
func key(b *browser, k string, mods int64) {
	b.t.Helper()
	events := kb.Encode([]rune(k)[0])
	ctx, cancel := context.WithTimeout(b.ctx, waitTimeout)
	defer cancel()
	for i, ev := range events {
		ev.Modifiers = mods
		if _, err := chromedp.Call(ctx, input.DispatchKeyEvent, *ev); err != nil {
			b.t.Fatalf("key %q: %v", k, err)
		}
		if i == len(events)-2 {
			b.waitFrames(1)
		}
	}
	b.waitFrames(1)
}

// focused is the id of the control the keyboard is on ("" for none).
func focused(b *browser) string {
	return evalJS[string](b, `(document.activeElement && document.activeElement.getAttribute("data-id")) || ""`)
}

// tabUntil presses Tab (or Shift+Tab when back) until the focused control's
// id starts with prefix.
func tabUntil(t *testing.T, b *browser, prefix string, back bool) string {
	t.Helper()
	var mods int64
	if back {
		mods = shiftKey
	}
	var seen []string
	for i := 0; i < 60; i++ {
		key(b, kb.Tab, mods)
		id := focused(b)
		if strings.HasPrefix(id, prefix) {
			return id
		}
		seen = append(seen, id)
	}
	t.Fatalf("Tab never reached %q; it went through %v", prefix, seen)
	return ""
}

func TestAccessibilityTreeHasTheDescriptionAndTheLiveRegion(t *testing.T) {
	b := newBrowser(t, 1280, 800)
	b.openApp("nodes=3&seed=3")
	b.waitFor(`document.getElementById("raftlab-description").textContent.indexOf("3 machines: A, B and C.") >= 0`)
	b.waitFor(`window.raftlab.snapshot() && JSON.parse(window.raftlab.snapshot()).leader > 0`)
	b.waitFor(`/leads/.test(document.getElementById("raftlab-description").textContent)`)
	tree := axText(t, b)
	for _, want := range []string{"3 machines: A, B and C.", "What happens in the figure", "Figure controls", "Machine A"} {
		if !strings.Contains(tree, want) {
			t.Errorf("the accessibility tree lacks %q:\n%s", want, tree)
		}
	}
	if !strings.Contains(tree, "log: What happens in the figure") {
		t.Errorf("the live region is not a log in the tree:\n%s", tree)
	}
	if !strings.Contains(tree, "image: raftlab simulation") && !strings.Contains(tree, "img: raftlab simulation") {
		t.Errorf("the canvas has no role and label in the tree:\n%s", tree)
	}
	// An action is announced in the live region.
	if err := evalJS[any](b, `window.raftlab.act('{"do":"crash","node":2}')`); err != nil {
		t.Fatalf("act: %v", err)
	}
	b.waitFor(`/B is crashed/.test(document.getElementById("raftlab-description").textContent)`)
	b.waitFor(`document.getElementById("raftlab-live").textContent.length > 0`)
	if live := evalJS[string](b, `document.getElementById("raftlab-live").getAttribute("aria-live")`); live != "polite" {
		t.Errorf("the live region is aria-live=%q, want polite", live)
	}
}

func TestKeyboardAloneCutsALinkPausesAMachineAndSharesTheRun(t *testing.T) {
	b := newBrowser(t, 1280, 800)
	b.openApp("nodes=3&seed=3")
	b.waitFor(`window.raftlabKeys && document.querySelectorAll("#raftlab-keys button").length > 5`)

	// Pause machine B: Tab to the machines, the arrow to B, Enter opens its
	// menu (which takes the focus on its first control, Pause), Enter.
	tabUntil(t, b, "machine:", false)
	for focused(b) != "machine:2" {
		key(b, kb.ArrowRight, 0)
	}
	b.screenshot("machine-focused")
	key(b, kb.Enter, 0)
	b.waitFor(`JSON.parse(window.raftlab.snapshot()).menu === "node:2"`)
	if id := focused(b); id != "node.pause" {
		t.Fatalf("the machine's menu opened with the focus on %q, want node.pause", id)
	}
	b.screenshot("machine-menu")
	key(b, kb.Enter, 0)
	var s app.Snapshot
	b.snapshot(&s)
	if s.Machines[1].Status != "paused" {
		t.Fatalf("B is %s after Enter on Pause, want paused", s.Machines[1].Status)
	}
	key(b, kb.Escape, 0)
	b.waitFor(`JSON.parse(window.raftlab.snapshot()).menu === ""`)
	if id := focused(b); id != "machine:2" {
		t.Errorf("Escape left the focus on %q, want back on machine:2", id)
	}

	// Cut link A-C from its menu.
	tabUntil(t, b, "link:", false)
	for focused(b) != "link:1-3" {
		key(b, kb.ArrowRight, 0)
	}
	key(b, kb.Enter, 0)
	b.waitFor(`JSON.parse(window.raftlab.snapshot()).menu === "link:1-3"`)
	if id := focused(b); id != "link.cut" {
		t.Fatalf("the link's menu opened with the focus on %q, want link.cut", id)
	}
	key(b, kb.Enter, 0)
	b.snapshot(&s)
	for _, l := range s.Links {
		if (l.From == 1 && l.To == 3 || l.From == 3 && l.To == 1) && l.Up {
			t.Errorf("link %d→%d is up after Enter on Cut", l.From, l.To)
		}
	}
	key(b, kb.Escape, 0)

	// Share the run: back to the toolbar's menu button, the Share row's
	// Copy link.
	tabUntil(t, b, "menu", true)
	key(b, kb.Enter, 0)
	b.waitFor(`JSON.parse(window.raftlab.snapshot()).menu === "setup"`)
	for i := 0; focused(b) != "share.link"; i++ {
		if i > 40 {
			t.Fatalf("the arrow keys never reached Copy link; focus on %q", focused(b))
		}
		key(b, kb.ArrowDown, 0)
	}
	key(b, kb.Enter, 0)
	b.waitFor(`typeof window.raftlab.lastLink === "string" && window.raftlab.lastLink.indexOf("link=") > 0`)
	b.screenshot("shared")

	// Every one of those was a recorded action of the world.
	b.snapshot(&s)
	var verbs []string
	for _, a := range s.Actions {
		verbs = append(verbs, string(a.Do))
	}
	if got := strings.Join(verbs, " "); !strings.Contains(got, "pause") || !strings.Contains(got, "cut") {
		t.Errorf("the recorded actions are %q, want a pause and a cut", got)
	}
	if ex := b.exceptions(); len(ex) > 0 {
		t.Errorf("uncaught exceptions:\n%s", strings.Join(ex, "\n"))
	}
}

// figureSnapshot is the snapshot of the app in the iframe of figure i of an
// embedding page (same origin, so the host page can read it).
func figureSnapshot(t *testing.T, b *browser, i int) app.Snapshot {
	t.Helper()
	raw := evalJS[string](b, fmt.Sprintf(`document.querySelectorAll("iframe")[%d].contentWindow.raftlab.snapshot()`, i))
	var s app.Snapshot
	if err := json.Unmarshal([]byte(raw), &s); err != nil {
		t.Fatalf("figure %d's snapshot: %v", i, err)
	}
	return s
}

// clickElement clicks the middle of the element selector names with real
// mouse events, after scrolling it into view.
func clickElement(t *testing.T, b *browser, selector string) {
	t.Helper()
	p := evalJS[[2]float64](b, fmt.Sprintf(`(function () {
		var el = document.querySelector(%q);
		el.scrollIntoView({block: "center"});
		var r = el.getClientRects()[0];
		return [r.left + r.width / 2, r.top + r.height / 2];
	})()`, selector))
	b.click(p[0], p[1])
}

func TestAProseLinkDrivesItsFigureAndHearsBack(t *testing.T) {
	dir := webDir(t)
	requireAppBuild(t, dir)
	base := startWebServer(t, dir)
	b := newBrowser(t, 1280, 800)
	b.navigate(base + "prose-example.html")
	b.waitFor(`window.raftlabEmbed && raftlabEmbed.figures().length === 1`)

	// Pressing a link loads the figure if need be and waits until it
	// listens. Playing the next step is reported as the step it shows.
	clickElement(t, b, `[data-raftlab-act="next"]`)
	b.waitFor(`document.querySelector('[data-raftlab-act="next"]').getAttribute("data-raftlab-result") === "done"`)
	b.waitFor(`(raftlabEmbed.figures()[0].step || {step: 0}).step >= 2`)
	b.waitFor(`/event step/.test(document.getElementById("heard").textContent)`)

	// A link's directive is applied: C is cut off from everyone.
	clickElement(t, b, `[data-raftlab-act="isolate C"]`)
	b.waitFor(`document.querySelector('[data-raftlab-act="isolate C"]').getAttribute("data-raftlab-result") === "done"`)
	s := figureSnapshot(t, b, 0)
	for _, l := range s.Links {
		if (l.From == 3 || l.To == 3) && l.Up {
			t.Errorf("link %d→%d is still up after \"isolate C\"", l.From, l.To)
		}
	}
	var acts []string
	for _, a := range s.Actions {
		acts = append(acts, string(a.Do))
	}
	if !strings.Contains(strings.Join(acts, " "), "partition") {
		t.Errorf("the figure recorded %v, want the partition as an action", acts)
	}
	// The embedded figure holds its description and live region too.
	inner := `document.querySelector("iframe").contentDocument.getElementById(%q).textContent`
	b.waitFor(fmt.Sprintf(inner+`.indexOf("split into") >= 0`, "raftlab-description"))
	if live := evalJS[string](b, fmt.Sprintf(inner, "raftlab-live")); live == "" {
		t.Errorf("the embedded figure's live region announced nothing")
	}
	// The figure reports back: the answer and the announcement of what it did.
	b.waitFor(`/done isolate C/.test(document.getElementById("heard").textContent)`)
	b.waitFor(`/event describe: .*split into 2 sides/.test(document.getElementById("heard").textContent)`)

	// A phrase the figure cannot follow says why, and changes nothing.
	hash := figureSnapshot(t, b, 0).Actions
	clickElement(t, b, `[data-raftlab-act="cut A-Z"]`)
	b.waitFor(`document.querySelector('[data-raftlab-act="cut A-Z"]').getAttribute("data-raftlab-result") === "error"`)
	if title := evalJS[string](b, `document.querySelector('[data-raftlab-act="cut A-Z"]').title`); !strings.Contains(title, `no machine "Z"`) {
		t.Errorf("the failed phrase's title is %q, want the figure's reason", title)
	}
	if got := figureSnapshot(t, b, 0).Actions; len(got) != len(hash) {
		t.Errorf("a refused directive recorded actions: %d before, %d after", len(hash), len(got))
	}

	// Messages the figure cannot read get an error, never a crash.
	answer := evalJS[map[string]any](b, `new Promise(function (done) {
		var w = document.querySelector("iframe").contentWindow;
		window.addEventListener("message", function h(ev) {
			if (ev.source === w && ev.data && ev.data.id === "bad") { window.removeEventListener("message", h); done(ev.data); }
		});
		w.postMessage({raftlab: "jump", id: "bad"}, location.origin);
	})`)
	if answer["raftlab"] != "error" || !strings.Contains(fmt.Sprint(answer["error"]), "not a message kind") {
		t.Errorf("a bad message got %v, want an error naming the kind", answer)
	}
	b.screenshot("prose")
	if ex := b.exceptions(); len(ex) > 0 {
		t.Errorf("uncaught exceptions:\n%s", strings.Join(ex, "\n"))
	}
}

func TestManyFiguresStayBoundedAndComeBackWhereTheyWere(t *testing.T) {
	dir := webDir(t)
	requireAppBuild(t, dir)
	base := startWebServer(t, dir)
	b := newBrowser(t, 1280, 800)
	// A page of 17 figures with text between them, built on a page of the
	// site that has none, before embed.js is loaded.
	b.navigate(base + "404.html")
	const n = 17
	evalJS[bool](b, fmt.Sprintf(`new Promise(function (done) {
		document.body.style.display = "block";
		var main = document.createElement("main");
		document.body.innerHTML = "";
		document.body.append(main);
		var ids = ["majority", "roles", "two-leaders", "slow-or-dead", "partition-halts"];
		for (var i = 0; i < %d; i++) {
			var p = document.createElement("p");
			p.style.height = "500px";
			p.textContent = "Text before figure " + i + ".";
			main.append(p);
			var d = document.createElement("div");
			d.id = "fig-" + i;
			d.setAttribute("data-raftlab", ids[i %% ids.length]);
			d.setAttribute("data-height", "400");
			main.append(d);
		}
		var s = document.createElement("script");
		s.src = "embed.js";
		s.onload = function () { done(true); };
		document.body.append(s);
	})`, n))
	b.waitFor(fmt.Sprintf(`raftlabEmbed.figures().length === %d`, n))
	// The page counts for itself, every few ms, the frames that hold a figure's
	// page (loaded or loading), without asking embed.js.
	evalJS[chromedp.Void](b, `window.mostStarted = 0; setInterval(function () {
		var n = 0;
		document.querySelectorAll("iframe").forEach(function (f) { var s = f.getAttribute("src"); if (s && s !== "about:blank") n++; });
		window.mostStarted = Math.max(window.mostStarted, n);
	}, 4)`)

	const bound = 4
	maxLive := 0
	visit := func(i int, wait bool) {
		t.Helper()
		evalJS[bool](b, fmt.Sprintf(`document.getElementById("fig-%d").scrollIntoView({block: "center"}), true`, i))
		if wait {
			b.waitFor(fmt.Sprintf(`raftlabEmbed.figures()[%d].listening`, i))
		}
		b.waitFor(fmt.Sprintf(`raftlabEmbed.live() <= %d`, bound))
		maxLive = max(maxLive, evalJS[int](b, `raftlabEmbed.live()`))
	}
	visit(0, true)
	// Move figure 0 away from its opening, so that coming back at the same
	// moment means something.
	if r := evalJS[map[string]any](b, `raftlabEmbed.act("fig-0", "isolate B; write A")`); r["raftlab"] != "done" {
		t.Fatalf("acting on figure 0: %v", r)
	}
	b.waitFrames(10)
	evalJS[any](b, `document.querySelectorAll("iframe")[0].contentWindow.raftlab.cmd("pause")`)
	was := figureSnapshot(t, b, 0)

	for i := 1; i < n; i++ {
		visit(i, true)
	}
	for i := n - 2; i >= 0; i-- {
		visit(i, i == 0)
	}
	// A reader who scrolls faster than figures start and hand over: down and
	// back up without waiting for any, a figure every 40 ms.
	for _, i := range append(rangeUp(n), rangeDown(n)...) {
		evalJS[bool](b, fmt.Sprintf(`document.getElementById("fig-%d").scrollIntoView({block: "center"}), true`, i))
		time.Sleep(40 * time.Millisecond)
	}
	visit(0, true)
	figs := evalJS[[]struct {
		Releases    int  `json:"releases"`
		ContextLost int  `json:"contextLost"`
		Listening   bool `json:"listening"`
	}](b, `raftlabEmbed.figures()`)
	released := 0
	for i, f := range figs {
		if f.ContextLost > 0 {
			t.Errorf("figure %d lost its WebGL context %d times", i, f.ContextLost)
		}
		released += f.Releases
	}
	if figs[0].Releases == 0 {
		t.Fatalf("figure 0 was never released on the way down")
	}
	if released < n-bound {
		t.Errorf("only %d releases in a full scroll of %d figures", released, n)
	}
	// A figure being released holds its context until it has handed over its
	// link, and no other starts before it is gone.
	if maxLive > bound {
		t.Errorf("%d figures were live at once, want at most %d", maxLive, bound)
	}
	if most := evalJS[int](b, `window.mostStarted`); most > bound {
		t.Errorf("the page held %d figures' pages at once, want at most %d", most, bound)
	}
	t.Logf("at most %d figures live at once; %d releases", maxLive, released)

	now := figureSnapshot(t, b, 0)
	if now.TraceHash != was.TraceHash || now.NowMs != was.NowMs {
		t.Errorf("figure 0 came back at %.0f ms (trace %s), want %.0f ms (trace %s)", now.NowMs, now.TraceHash, was.NowMs, was.TraceHash)
	}
	if len(now.Actions) != len(was.Actions) {
		t.Errorf("figure 0 came back with %d actions, want %d", len(now.Actions), len(was.Actions))
	}
	b.screenshot("back-at-the-top")
}

func TestAFigureObeysOnlyTheOriginsItsAuthorLists(t *testing.T) {
	dir := webDir(t)
	requireAppBuild(t, dir)
	lab := startWebServer(t, dir)
	// The book is another origin (another port): its figures come from the lab.
	book := startWebServer(t, dir)
	b := newBrowser(t, 1280, 800)
	b.navigate(book + "404.html")
	bookOrigin := strings.TrimSuffix(book, "/")
	evalJS[bool](b, fmt.Sprintf(`new Promise(function (done) {
		document.body.innerHTML = "";
		document.body.style.display = "block";
		window.heard = {};
		[["stranger", ""], ["listed", %q]].forEach(function (f) {
			var d = document.createElement("div");
			d.id = f[0];
			d.setAttribute("data-raftlab", "majority");
			d.setAttribute("data-height", "300");
			if (f[1]) d.setAttribute("data-origins", f[1]);
			window.heard[f[0]] = [];
			d.addEventListener("raftlab", function (ev) { window.heard[f[0]].push(ev.detail); });
			document.body.append(d);
		});
		var s = document.createElement("script");
		s.src = "embed.js";
		s.setAttribute("data-app", %q);
		s.onload = function () { done(true); };
		document.body.append(s);
	})`, bookOrigin, lab+"index.html"))

	// The figure that lists the book's origin listens and obeys.
	b.waitFor(`raftlabEmbed.figures()[1].listening`)
	if r := evalJS[map[string]any](b, `raftlabEmbed.act("listed", "crash B")`); r["raftlab"] != "done" {
		t.Errorf("the figure that lists the book's origin answered %v", r)
	}
	// The other refuses every message from the book, and says why.
	b.waitFor(`heard.stranger.some(function (m) { return m.raftlab === "error" && /may not drive/.test(m.error); })`)
	if evalJS[bool](b, `raftlabEmbed.figures()[0].listening`) {
		t.Errorf("a figure listens to an origin its author did not list")
	}
	if ex := b.exceptions(); len(ex) > 0 {
		t.Errorf("uncaught exceptions:\n%s", strings.Join(ex, "\n"))
	}
}

// rangeUp is 0, 1, ..., n-1 and rangeDown n-1, ..., 0.
func rangeUp(n int) []int {
	r := make([]int, n)
	for i := range r {
		r[i] = i
	}
	return r
}

func rangeDown(n int) []int {
	r := rangeUp(n)
	slices.Reverse(r)
	return r
}
