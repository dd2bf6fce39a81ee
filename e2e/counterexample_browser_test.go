//go:build browser

package e2e

import (
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"raftlab/viz/app"
)

// explorerLink runs the explorer as docs/raftsim.md shows it, from Figure
// 8's start with commit-old-term, and returns the link= part of the share
// link it prints for the shortest run it finds.
func explorerLink(t *testing.T) string {
	t.Helper()
	cmd := exec.Command("go", "run", "./cmd/raftsim", "explore",
		"-from", "docs/examples/figure8-start-commit-old-term.json", "-writes", "0", "-faults", "0", "-depth", "8")
	cmd.Dir = repoRoot(t)
	out, _ := cmd.CombinedOutput() // exit 1: a broken rule was found
	m := regexp.MustCompile(`link=[A-Za-z0-9._~-]+`).Find(out)
	if m == nil {
		t.Fatalf("raftsim explore printed no share link:\n%s", out)
	}
	return string(m)
}

// TestExplorerLinkStepsEveryEvent opens the explorer's Figure 8 link (nineteen
// actions at time 0), sees it open on the broken rule with the safety panel
// naming it first, then walks it back to its start with "," and on to the
// broken rule again with ".", one action a key press, and once each way with
// the toolbar's step buttons.
func TestExplorerLinkStepsEveryEvent(t *testing.T) {
	link := explorerLink(t)
	b := newBrowser(t, 1280, 800)
	b.openApp(link)
	s := appState(b)
	n := len(s.Actions)
	if n != 19 || len(s.Violations) != 1 || s.Violations[0].Rule != "commit-current-term" {
		t.Fatalf("opened with %d actions and violations %+v: want 19 actions and commit-current-term broken", n, s.Violations)
	}
	safety := panel(t, s, "Safety")
	if len(safety.Text) == 0 || !strings.HasPrefix(safety.Text[0], "1 broken rule") {
		t.Fatalf("the safety panel starts %q, want the broken rule first", safety.Text)
	}
	b.screenshot("opened")
	for k := n - 1; k >= 0; k-- {
		b.pressKey(",")
		s = waitState(b, "one action fewer", func(s app.Snapshot) bool { return len(s.Actions) <= k })
		if len(s.Actions) != k || s.NowMs != 0 {
			t.Fatalf("',' went to %d actions at %.3f ms, want %d at 0", len(s.Actions), s.NowMs, k)
		}
		if k == n/2 {
			b.screenshot("halfway back")
		}
	}
	if len(s.Violations) != 0 {
		t.Fatalf("the start breaks rules: %+v", s.Violations)
	}
	for k := 1; k <= n; k++ {
		b.pressKey(".")
		s = waitState(b, "one action more", func(s app.Snapshot) bool { return len(s.Actions) >= k })
		if len(s.Actions) != k {
			t.Fatalf("'.' went to %d actions, want %d", len(s.Actions), k)
		}
	}
	if len(s.Violations) != 1 {
		t.Fatalf("stepped to the end with violations %+v, want the broken rule again", s.Violations)
	}
	// The toolbar's buttons step the same way.
	clickWidget(b, s, "cmd:step-back")
	s = waitState(b, "the back button", func(s app.Snapshot) bool { return len(s.Actions) < n })
	if len(s.Actions) != n-1 {
		t.Fatalf("the back button went to %d actions, want %d", len(s.Actions), n-1)
	}
	clickWidget(b, s, "cmd:step")
	s = waitState(b, "the step button", func(s app.Snapshot) bool { return len(s.Actions) == n })
	b.screenshot("stepped to the broken rule")
}

// panel is the visible panel titled title.
func panel(t *testing.T, s app.Snapshot, title string) app.PanelState {
	t.Helper()
	for _, p := range s.Screen.Panels {
		if p.Title == title {
			return p
		}
	}
	t.Fatalf("no panel titled %q on screen", title)
	return app.PanelState{}
}
