//go:build browser

package e2e

// Directives, Play buttons and places: how the page's live figures share the bound
// when the reader drives them (web/embed.js; docs/embedding.md).

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// fourAndAClick is four automatic figures and a click figure, 200 px each, all in a
// 1400 px view: a0 is the furthest from the view's middle.
func fourAndAClick(t *testing.T) *browser {
	var figs []string
	for i := range 4 {
		figs = append(figs, fmt.Sprintf(`<div id="a%d" data-raftlab="roles" data-height="200"></div>`, i))
	}
	figs = append(figs, `<div id="c" data-raftlab="roles" data-height="200" data-live="click"></div>`)
	figs = append(figs, `<a href="#" id="l0" style="position:fixed;right:0;top:0" data-raftlab-act="next" data-raftlab-target="a0">next on a0</a>`)
	b := openBoundPage(t, 800, 1400, figs, 0, 1, 2, 3)
	return b
}

// A prose link acts on a live figure at the moment another figure's Play button makes
// it give its place: the promise of act settles (done or error), it does not hang.
func TestADirectiveToAFigureGivingItsPlaceSettles(t *testing.T) {
	b := fourAndAClick(t)
	evalJS[chromedp.Void](b, `window.r = "pending";
		document.querySelector("#c .raftlab-poster-play").click();
		raftlabEmbed.act("a0", "next").then(function (a) { window.r = a.raftlab; }); void 0`)
	b.waitFor(`raftlabEmbed.figures()[4].listening`)
	time.Sleep(8 * time.Second)
	r := evalJS[string](b, `window.r`)
	st := boundState(b, 0)
	if r == "pending" {
		t.Errorf("act on a0 never settled (10 s): a0 %s", st)
	}
	t.Logf("act: %s; a0: %s", r, st)
}

// A prose link acts on a click figure that has not started yet (the posters are slow to
// come, so it waits for them); the reader scrolls far away at once. The promise of act
// (and a link's data-raftlab-result) settles; it does not hang until the reader plays the
// figure again, perhaps never.
func TestADirectiveToAFigureLetGoBeforeItStartsSettles(t *testing.T) {
	files := appFiles(t)
	slowPosters := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.Contains(r.URL.Path, "/posters/majority") {
			time.Sleep(6 * time.Second)
		}
		files.ServeHTTP(w, r)
	})
	base := pagesOver(t, slowPosters, map[string]string{"/r.html": boundPage(
		`<div id="c" data-raftlab="roles" data-height="200" data-live="click"></div>`,
		`<p style="height:3000px;margin:0">Text.</p>`,
		`<div id="m" data-raftlab="majority" data-height="200" data-live="click"></div>`)})
	b := newBrowser(t, 800, 800)
	b.navigate(base + "r.html")
	b.waitFor(`window.raftlabEmbed && raftlabEmbed.figures().length === 2 && raftlabEmbed.posters()[0].shown && raftlabEmbed.posters()[1].poster !== "" && !raftlabEmbed.posters()[1].shown`)
	evalJS[chromedp.Void](b, `window.r = "pending";
		raftlabEmbed.act("c", "next").then(function (a) { window.r = a.raftlab; });
		window.scrollTo(0, 4000); void 0`)
	time.Sleep(10 * time.Second)
	r := evalJS[string](b, `window.r`)
	st := boundState(b, 0)
	if r == "pending" {
		t.Errorf("act on c never settled (10 s after the reader scrolled away): c %s", st)
	}
	// Back, the reader plays c: the directive given long ago is applied now.
	evalJS[chromedp.Void](b, `window.scrollTo(0, 0)`)
	time.Sleep(time.Second)
	evalJS[chromedp.Void](b, `document.querySelector("#c .raftlab-poster-play").click()`)
	b.waitFor(`raftlabEmbed.figures()[0].listening`)
	time.Sleep(time.Second)
	t.Logf("act before: %s; after Play: %s; c: %s", r, evalJS[string](b, `window.r`), boundState(b, 0))
}

// The reader drives a0 by its prose link, then presses Play on c: c takes the place of
// one of a1..a3, which the reader did not ask for, not of a0, which they did and see.
func TestAFigureDrivenByAProseLinkKeepsItsPlace(t *testing.T) {
	b := fourAndAClick(t)
	clickElement(t, b, `#l0`)
	b.waitFor(`document.getElementById("l0").getAttribute("data-raftlab-result") === "done"`)
	evalJS[chromedp.Void](b, `document.querySelector("#c .raftlab-poster-play").click()`)
	b.waitFor(`raftlabEmbed.figures()[4].listening`)
	time.Sleep(time.Second)
	var rel []string
	for i := range 4 {
		rel = append(rel, fmt.Sprintf("a%d %s", i, boundState(b, i)))
	}
	if !strings.Contains(boundState(b, 0), `"releases":0`) {
		t.Errorf("a0, driven by the reader's prose link and in view, gave its place to c:\n%s", strings.Join(rel, "\n"))
	}
	t.Logf("%s", strings.Join(rel, "\n"))
}

// On a host without web/posters a click figure is played, scrolled far away (released)
// and back: it can be played again.
func TestAReleasedClickFigureWithoutPosterCanPlayAgain(t *testing.T) {
	files := appFiles(t)
	noPosters := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.Contains(r.URL.Path, "/posters/") {
			http.NotFound(w, r)
			return
		}
		files.ServeHTTP(w, r)
	})
	base := pagesOver(t, noPosters, map[string]string{"/r.html": boundPage(`<div id="c" data-raftlab="roles" data-height="200" data-live="click"></div>`)})
	b := newBrowser(t, 800, 800)
	b.navigate(base + "r.html")
	b.waitFor(`window.raftlabEmbed && raftlabEmbed.figures().length === 1`)
	b.waitFor(`document.querySelector("#c img.raftlab-poster") === null`)
	evalJS[chromedp.Void](b, `document.querySelector("#c .raftlab-poster-play").click()`)
	b.waitFor(`raftlabEmbed.figures()[0].listening`)
	evalJS[chromedp.Void](b, `window.scrollTo(0, 4000)`)
	if err := b.poll(`raftlabEmbed.figures()[0].releases > 0`, 8*time.Second); err != nil {
		t.Fatalf("not released: %s", boundState(b, 0))
	}
	evalJS[chromedp.Void](b, `window.scrollTo(0, 0)`)
	time.Sleep(3 * time.Second)
	st := boundState(b, 0)
	src := evalJS[string](b, `document.querySelector("#c iframe").getAttribute("src")`)
	if !strings.Contains(st, "Play") && !strings.Contains(st, `"requested":true`) {
		t.Errorf("back in view, the released click figure has neither a Play button nor its page (src %s): %s", src, st)
	}
	t.Logf("c: %s src %s", st, src)
}

// Four automatic figures live in a 1000 px view; the page's script drives figure e, far
// below (raftlabEmbed.act, which does not scroll). While the reader stays still: e, more
// than two screens away, does not stay loaded for good, and no figure in view stays on
// its poster because of it.
func TestAFarFigureDrivenByActGivesItsPlaceBack(t *testing.T) {
	var figs []string
	for i := range 4 {
		figs = append(figs, fmt.Sprintf(`<div id="a%d" data-raftlab="roles" data-height="200"></div>`, i))
	}
	figs = append(figs, `<p style="height:5000px;margin:0">Text.</p>`, `<div id="e" data-raftlab="roles" data-height="200"></div>`)
	b := openBoundPage(t, 800, 1000, figs, 0, 1, 2, 3)
	if r := evalJS[map[string]any](b, `raftlabEmbed.act("e", "next")`); r["raftlab"] != "done" {
		t.Fatalf("act on e: %v", r)
	}
	time.Sleep(10 * time.Second)
	var st []string
	waiting := 0
	for i := range 5 {
		s := boundState(b, i)
		if i < 4 && strings.Contains(s, `"requested":false`) {
			waiting++
		}
		st = append(st, s)
	}
	eTop := evalJS[float64](b, `document.getElementById("e").getBoundingClientRect().top`)
	if strings.Contains(st[4], `"listening":true`) && waiting > 0 {
		t.Errorf("10 s on, e (top at %.0f px, view 1000 px) is still live while %d figure(s) in view show their poster:\n%s", eTop, waiting, strings.Join(st, "\n"))
	}
	t.Logf("%s", strings.Join(st, "\n"))
}

// Six figures in view, three of them click figures: every Play pressed and every figure
// driven by act at once, twice. Never more than four pages at once; once all is settled,
// no figure is released over 10 s while the reader stays still; every act settles.
func TestAnActAndClickStormStaysBoundedAndSettles(t *testing.T) {
	var figs []string
	for i := range 6 {
		live := ""
		if i%2 == 1 {
			live = ` data-live="click"`
		}
		figs = append(figs, fmt.Sprintf(`<div id="f%d" data-raftlab="roles" data-height="150"%s></div>`, i, live))
	}
	b := openBoundPage(t, 800, 1000, figs)
	evalJS[chromedp.Void](b, `window.mostStarted = 0; setInterval(function () {
		var n = 0;
		document.querySelectorAll("iframe").forEach(function (f) { var s = f.getAttribute("src"); if (s && s !== "about:blank") n++; });
		window.mostStarted = Math.max(window.mostStarted, n);
	}, 4); window.answers = []; void 0`)
	for round := range 2 {
		evalJS[chromedp.Void](b, `document.querySelectorAll(".raftlab-poster-play").forEach(function (p) { p.click(); });
			for (var i = 0; i < 6; i++) (function (i) { var k = window.answers.length; window.answers.push("pending");
				raftlabEmbed.act("f" + i, "next").then(function (a) { window.answers[k] = a.raftlab; }); })(i); void 0`)
		time.Sleep(time.Duration(500+round*3000) * time.Millisecond)
	}
	time.Sleep(12 * time.Second)
	rel0 := evalJS[string](b, `JSON.stringify(raftlabEmbed.figures().map(function (f) { return f.releases; }))`)
	time.Sleep(10 * time.Second)
	rel1 := evalJS[string](b, `JSON.stringify(raftlabEmbed.figures().map(function (f) { return f.releases; }))`)
	most := evalJS[int](b, `window.mostStarted`)
	answers := evalJS[string](b, `JSON.stringify(window.answers)`)
	t.Logf("most pages at once %d; releases %s then %s; answers %s", most, rel0, rel1, answers)
	if most > 4 {
		t.Errorf("%d pages at once", most)
	}
	if rel0 != rel1 {
		t.Errorf("figures released while the reader stayed still: %s then %s", rel0, rel1)
	}
	if strings.Contains(answers, "pending") {
		t.Errorf("acts never settled: %s", answers)
	}
}
