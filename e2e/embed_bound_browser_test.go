//go:build browser

package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// boundPage is a page of figures (each a div given as raw attributes), stacked with no
// gap, then a long tail of text so that the page can scroll.
func boundPage(figs ...string) string {
	var b strings.Builder
	b.WriteString(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>bounded</title>
<style>body{margin:0}div[data-raftlab]{margin:0}</style></head><body>`)
	for _, f := range figs {
		b.WriteString(f)
	}
	b.WriteString(`<p style="height:6000px;margin:0">The end.</p><script src="embed.js"></script></body></html>`)
	return b.String()
}

// openBoundPage serves figs as a boundPage, opens it in a w×h view, and waits until
// embed.js has mounted every figure and those numbered in live listen.
func openBoundPage(t *testing.T, w, h int, figs []string, live ...int) *browser {
	t.Helper()
	base := pageServer(t, map[string]string{"/r.html": boundPage(figs...)})
	b := newBrowser(t, w, h)
	b.navigate(base + "r.html")
	b.waitFor(fmt.Sprintf(`window.raftlabEmbed && raftlabEmbed.figures().length === %d`, strings.Count(strings.Join(figs, ""), "data-raftlab=")))
	for _, i := range live {
		b.waitFor(fmt.Sprintf(`raftlabEmbed.figures()[%d].listening`, i))
	}
	return b
}

// boundState is what the page says of figure i: its state in embed.js, its Play button's
// text ("" without one) and how many figures are live.
func boundState(b *browser, i int) string {
	return evalJS[string](b, fmt.Sprintf(`(function () {
		var f = raftlabEmbed.figures()[%d];
		var btn = document.querySelectorAll("div[data-raftlab]")[%d].querySelector(".raftlab-poster-play");
		return JSON.stringify({requested: f.requested, loaded: f.loaded, listening: f.listening, releases: f.releases,
			button: btn ? btn.textContent : "", live: raftlabEmbed.live()});
	})()`, i, i))
}

// Four automatic figures in view and live; the reader clicks Play on a fifth, a
// data-live="click" figure, also in view. What the reader asked for goes live: one of
// the four they merely scrolled to gives its place (not a fifth context, and not a
// button saying "Loading…" for as long as the reader stays).
func TestPlayPressedWhileFourFiguresInViewAreLive(t *testing.T) {
	var figs []string
	for i := range 4 {
		figs = append(figs, fmt.Sprintf(`<div id="a%d" data-raftlab="roles" data-height="200"></div>`, i))
	}
	figs = append(figs, `<div id="c" data-raftlab="roles" data-height="200" data-live="click"></div>`)
	b := openBoundPage(t, 800, 1400, figs, 0, 1, 2, 3)
	evalJS[chromedp.Void](b, `document.querySelector("#c .raftlab-poster-play").click()`)
	if err := b.poll(`raftlabEmbed.figures()[4].listening`, 20*time.Second); err != nil {
		t.Errorf("the clicked figure, in view, is not live 20 s after its Play button was pressed: %s", boundState(b, 4))
	}
	t.Logf("clicked figure: %s", boundState(b, 4))
}

// A reader plays a click figure at the top of the view, with three automatic figures
// live below it in view. Scrolling 100 px down brings a fourth automatic figure near: the
// figure the reader is watching (still in view) keeps its place and the newcomer waits.
func TestAWatchedClickFigureKeepsItsPlace(t *testing.T) {
	figs := []string{`<div id="c" data-raftlab="roles" data-height="200" data-live="click"></div>`}
	for i := range 3 {
		figs = append(figs, fmt.Sprintf(`<div id="a%d" data-raftlab="roles" data-height="200"></div>`, i))
	}
	// 800..1250: text; the fourth automatic figure at 1250, 250 px below a 1000 px view.
	figs = append(figs, `<p style="height:450px;margin:0">Text.</p>`, `<div id="a3" data-raftlab="roles" data-height="200"></div>`)
	b := openBoundPage(t, 800, 1000, figs, 1, 2, 3)
	if r := evalJS[bool](b, `raftlabEmbed.figures()[4].requested`); r {
		t.Fatalf("the fourth automatic figure was requested before the scroll")
	}
	evalJS[chromedp.Void](b, `document.querySelector("#c .raftlab-poster-play").click()`)
	b.waitFor(`raftlabEmbed.figures()[0].listening`)
	evalJS[chromedp.Void](b, `window.scrollTo(0, 100)`)
	b.waitFor(`raftlabEmbed.figures()[4].requested`)
	time.Sleep(6 * time.Second)
	top := evalJS[float64](b, `document.getElementById("c").getBoundingClientRect().bottom`)
	st := boundState(b, 0)
	if !strings.Contains(st, `"releases":0`) {
		t.Errorf("the click figure the reader is watching (bottom at %.0f px, in view) was released: %s", top, st)
	}
	t.Logf("watched figure: %s; fourth automatic: %s", st, boundState(b, 4))
}

// A played click figure scrolled five screens away is released, as every figure more
// than two screen heights away is (docs/embedding.md).
func TestAPlayedClickFigureFarAwayIsReleased(t *testing.T) {
	base := pageServer(t, map[string]string{"/r.html": boundPage(`<div id="c" data-raftlab="roles" data-height="200" data-live="click"></div>`)})
	b := newBrowser(t, 800, 800)
	b.navigate(base + "r.html")
	b.waitFor(`window.raftlabEmbed && raftlabEmbed.figures().length === 1`)
	evalJS[chromedp.Void](b, `document.querySelector("#c .raftlab-poster-play").click()`)
	b.waitFor(`raftlabEmbed.figures()[0].listening`)
	evalJS[chromedp.Void](b, `window.scrollTo(0, 4000)`)
	if err := b.poll(`raftlabEmbed.figures()[0].releases > 0`, 8*time.Second); err != nil {
		t.Errorf("a played click figure 5 screens away is not released after 8 s: %s", boundState(b, 0))
	}
}

// Five automatic figures of 150 px in a 600 px view; the fifth starts below the view,
// near, and waits. Scrolled 160 px down, it is wholly in view and the first wholly above
// the view (but within 200 px of it): the figure in view takes the place of the one out
// of view.
func TestAFigureInViewTakesThePlaceOfOneOutOfView(t *testing.T) {
	var figs []string
	for i := range 5 {
		figs = append(figs, fmt.Sprintf(`<div id="a%d" data-raftlab="roles" data-height="150"></div>`, i))
	}
	b := openBoundPage(t, 800, 600, figs)
	b.waitFor(`raftlabEmbed.figures().filter(function (f) { return f.listening; }).length === 4`)
	w := evalJS[int](b, `raftlabEmbed.figures().findIndex(function (f) { return !f.listening; })`)
	t.Logf("figure %d waits", w)
	evalJS[chromedp.Void](b, `window.scrollTo(0, 160)`)
	var idle []string
	for i := range 5 {
		r := evalJS[[2]float64](b, fmt.Sprintf(`(function () { var r = document.getElementById("a%d").getBoundingClientRect(); return [r.top, r.bottom]; })()`, i))
		if r[1] <= 0 || r[0] >= 600 {
			idle = append(idle, fmt.Sprintf("a%d (%.0f..%.0f)", i, r[0], r[1]))
		}
	}
	r := evalJS[[2]float64](b, fmt.Sprintf(`(function () { var r = document.getElementById("a%d").getBoundingClientRect(); return [r.top, r.bottom]; })()`, w))
	if err := b.poll(fmt.Sprintf(`raftlabEmbed.figures()[%d].listening`, w), 15*time.Second); err != nil {
		t.Errorf("figure a%d, in view at %.0f..%.0f px, not live after 15 s while out of view %v hold slots: %s", w, r[0], r[1], idle, boundState(b, w))
	}
}

// The many-figures page; the reader scrolls fast (a figure every 40 ms) and stops at a
// figure: it goes live, and no figure more than 200 px from the view starts meanwhile
// (those passed before they could start let their turn go).
func TestAfterAFastScrollOnlyFiguresNearTheViewStart(t *testing.T) {
	var figs []string
	ids := []string{"majority", "roles", "two-leaders", "slow-or-dead", "partition-halts"}
	for i := range 17 {
		figs = append(figs, fmt.Sprintf(`<p style="height:500px;margin:0">Text %d.</p><div id="fig-%d" data-raftlab="%s" data-height="400"></div>`, i, i, ids[i%len(ids)]))
	}
	b := openBoundPage(t, 1280, 800, figs, 0)
	// Each page's start is noted as it happens (a mutation record comes right after the
	// script that set the frame's src), with how far the figure then is from the view.
	evalJS[chromedp.Void](b, `window.starts = []; (function () {
		var frames = Array.prototype.slice.call(document.querySelectorAll("iframe"));
		new MutationObserver(function (records) {
			records.forEach(function (m) {
				var f = m.target, s = f.getAttribute("src");
				if (!s || s === "about:blank") return;
				var r = f.getBoundingClientRect();
				window.starts.push([frames.indexOf(f), Math.round(performance.now()), Math.round(r.bottom < 0 ? -r.bottom : r.top > innerHeight ? r.top - innerHeight : 0)]);
			});
		}).observe(document.body, {subtree: true, attributes: true, attributeFilter: ["src"]});
	})()`)
	for _, stop := range []int{10, 3, 14} {
		cur := evalJS[int](b, `(function () { var best = 0, d = 1e9; for (var i = 0; i < 17; i++) { var r = document.getElementById("fig-" + i).getBoundingClientRect(); var x = Math.abs(r.top + r.height/2 - innerHeight/2); if (x < d) { d = x; best = i; } } return best; })()`)
		step := 1
		if stop < cur {
			step = -1
		}
		for i := cur; i != stop; i += step {
			evalJS[bool](b, fmt.Sprintf(`document.getElementById("fig-%d").scrollIntoView({block: "center"}), true`, i))
			time.Sleep(40 * time.Millisecond)
		}
		evalJS[bool](b, fmt.Sprintf(`document.getElementById("fig-%d").scrollIntoView({block: "center"}), window.stopAt = performance.now(), window.starts = [], true`, stop))
		start := time.Now()
		if err := b.poll(fmt.Sprintf(`raftlabEmbed.figures()[%d].listening`, stop), 30*time.Second); err != nil {
			t.Errorf("figure %d, in view, not live 30 s after the reader stopped there: %s", stop, boundState(b, stop))
		}
		took := time.Since(start).Round(100 * time.Millisecond)
		starts := evalJS[[][3]float64](b, `window.starts.map(function (s) { return [s[0], Math.round(s[1] - window.stopAt), s[2]]; })`)
		t.Logf("stopped at %d: live after %v; pages started since the stop [figure, ms after, px from the viewport]: %v", stop, took, starts)
		for _, s := range starts {
			if s[2] > 200 {
				t.Errorf("stopped at figure %d: figure %.0f, %.0f px from the viewport (not near), started its page %.0f ms after the stop", stop, s[0], s[2], s[1])
			}
		}
		time.Sleep(3 * time.Second)
	}
}

// A directive sent to a figure (a prose link, raftlabEmbed.act) that is released before
// it answers settles with an error instead of staying pending for good. The figure's page
// here never answers (the app's page is replaced by a silent one), and the reader scrolls
// it into view and then far away.
func TestADirectiveToAFigureReleasedBeforeItAnswersSettles(t *testing.T) {
	base := pageServer(t, map[string]string{
		"/r.html": boundPage(`<p style="height:3000px;margin:0">Text.</p>`,
			`<div id="f" data-raftlab="roles" data-height="200" data-poster="none"></div>`),
		"/index.html": `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>silent</title></head><body></body></html>`,
	})
	b := newBrowser(t, 800, 800)
	b.navigate(base + "r.html")
	b.waitFor(`window.raftlabEmbed && raftlabEmbed.figures().length === 1`)
	b.waitFor(`!raftlabEmbed.figures()[0].visible`) // the observers have looked
	evalJS[chromedp.Void](b, `window.answer = null;
		raftlabEmbed.act("f", "crash etcd-1").then(function (a) { window.answer = a; });
		document.getElementById("f").scrollIntoView({block: "center"})`)
	b.waitFor(`raftlabEmbed.figures()[0].visible && raftlabEmbed.figures()[0].loaded`)
	evalJS[chromedp.Void](b, `window.scrollTo(0, 0)`)
	if err := b.poll(`window.answer !== null`, 15*time.Second); err != nil {
		t.Fatalf("the directive to a figure released before it answered never settled: %s", boundState(b, 0))
	}
	a := evalJS[map[string]any](b, `window.answer`)
	st := boundState(b, 0)
	if a["raftlab"] != "error" || !strings.Contains(st, `"releases":1`) {
		t.Errorf("answer %v with the figure %s, want an error from the released figure", a, st)
	}
}
