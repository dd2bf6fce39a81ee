package app

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"raftlab/viz"
	"raftlab/viz/app/session"
	"raftlab/viz/app/view"
	"raftlab/viz/words"
)

// The Setup menu's snapshot chips start a new run with that count; with
// small snapshots every compacted log row begins with one snapshot block
// labelled with its last compacted index, whose hover text gives the
// snapshot's index, term and state; no cell is drawn for a compacted
// entry, and the count of earlier entries leaves compacted ones out.
func TestSnapshotBlockStandsForTheCompactedPrefix(t *testing.T) {
	a := newApp(t, 3, 800, 450)
	a.openMenu(view.Menu{Kind: view.MenuMain})
	var do string
	for wd := range a.Frame().Menu.Widgets() {
		if wd.ID == "snapshots:small" {
			do = wd.Do
		}
	}
	if do == "" {
		t.Fatal("the setup menu has no small snapshot chip")
	}
	if err := a.tryLine(do); err != nil {
		t.Fatal(err)
	}
	if got := a.cfg().SnapshotCount; got != 10 {
		t.Fatalf("after choosing small snapshots the run takes one every %d entries", got)
	}
	writeUntilApplied(t, a, 60)
	w := a.World()
	first, _ := a.builder.LogWindow(a.parts())
	f := a.Frame()
	low := uint64(1 << 62)
	for _, r := range f.Logs.Rows {
		nd := w.Node(nodeID(r.Node))
		low = min(low, nd.FirstIndex())
		if nd.FirstIndex() <= 1 {
			t.Fatalf("row %s is not compacted after 60 entries with small snapshots", r.Name.Text)
		}
		if r.Snap.Rect.Empty() || r.Snap.Index != nd.FirstIndex()-1 {
			t.Errorf("row %s: snapshot block %+v, want one for entries up to %d", r.Name.Text, r.Snap, nd.FirstIndex()-1)
			continue
		}
		if !strings.Contains(r.Snap.Text.Text, words.Utoa(r.Snap.Index)) {
			t.Errorf("row %s: the block says %q, not its last index %d", r.Name.Text, r.Snap.Text.Text, r.Snap.Index)
		}
		if r.Snap.Rect.X > r.Strip.X+2 {
			t.Errorf("row %s: the block starts at %g, not at the row's start %g", r.Name.Text, r.Snap.Rect.X, r.Strip.X)
		}
		for _, cell := range r.Cells {
			if cell.Index < nd.FirstIndex() {
				t.Errorf("row %s draws compacted entry %d", r.Name.Text, cell.Index)
			}
			if cell.Rect.X < r.Snap.Rect.Right() {
				t.Errorf("row %s: entry %d at %g overlaps the snapshot block ending at %g", r.Name.Text, cell.Index, cell.Rect.X, r.Snap.Rect.Right())
			}
		}
	}
	if first > low {
		if want := words.Earlier(first - low); f.Logs.Before.Text != want {
			t.Errorf("the strip says %q before the window, want %q (compacted entries not counted)", f.Logs.Before.Text, want)
		}
	} else if f.Logs.Before.Text != "" {
		t.Errorf("every entry before the window is compacted, yet the strip says %q", f.Logs.Before.Text)
	}
	// Scrolled all the way back, the window stops at the first entry a
	// machine still holds.
	for i := 0; i < 100; i++ {
		a.Wheel(a.Layout().Logs.Center(), 0, 1)
	}
	if back, _ := a.builder.LogWindow(a.parts()); back != low {
		t.Errorf("scrolled back, the window starts at %d, want the first entry held, %d", back, low)
	}
	if a.Frame().Logs.Before.Text != "" {
		t.Errorf("scrolled back, the strip still says %q", a.Frame().Logs.Before.Text)
	}
	// Hovering the leader's block tells its snapshot.
	r := a.Frame().Logs.Rows[0]
	a.Hover(r.Snap.Rect.Center())
	tip := a.Frame().Tooltip
	if tip == nil {
		t.Fatal("hovering a snapshot block shows no hover text")
	}
	var text []string
	for _, l := range tip.Lines {
		text = append(text, l.Text)
	}
	all := strings.Join(text, " ")
	s, _ := w.Node(nodeID(r.Node)).SnapshotAt()
	for _, want := range []string{"Snapshot at index " + words.Utoa(s.Index), "term " + words.Utoa(s.Term), "holds"} {
		if !strings.Contains(all, want) {
			t.Errorf("the block's hover text %q does not say %q", all, want)
		}
	}
	if key := s.KV().Keys(); len(key) > 0 && !strings.Contains(all, key[0]) {
		t.Errorf("the block's hover text %q does not name the key %s the snapshot holds", all, key[0])
	}
}

// writeUntilApplied elects a leader in a's run and writes until the first
// machine has applied n entries, then lets the run settle for two
// seconds.
func writeUntilApplied(t *testing.T, a *App, n uint64) {
	t.Helper()
	var c hostClock
	untilLeader(t, a, &c)
	for a.World().Node(1).Applied() < n {
		a.Key("c")
		c.run(a, 20*time.Millisecond)
	}
	c.run(a, 2*time.Second)
}

// TestSetupMenuWithFiguresFitsAShortCanvas: with the list of figures (its
// Scenario row) and the snapshot row, the Setup menu still fits a figure
// 450 pixels tall.
func TestSetupMenuWithFiguresFitsAShortCanvas(t *testing.T) {
	for _, w := range []float64{720, 800} {
		p := viz.DefaultParams()
		a, err := New(Options{Params: p, Width: w, Height: 450, SpeedGiven: true, Scenarios: session.BuiltinScenarios()})
		if err != nil {
			t.Fatal(err)
		}
		a.openMenu(view.Menu{Kind: view.MenuMain})
		checkFrame(t, a, fmt.Sprintf("setup menu with figures on %gx450", w))
	}
}
