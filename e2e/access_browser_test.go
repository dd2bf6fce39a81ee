//go:build browser

package e2e

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

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
