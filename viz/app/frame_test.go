package app

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"raftlab/raftcore"
	"raftlab/viz"
	"raftlab/viz/app/scene"
	"raftlab/viz/app/view"
	"raftlab/viz/frame"
	"raftlab/viz/words"
)

var canvases = []struct{ w, h float64 }{
	{1280, 800}, {1024, 640}, {390, 844}, {800, 450}, {1920, 1080},
}

func inside(outer, r viz.Rect) bool {
	const eps = 0.5
	return r.X >= outer.X-eps && r.Y >= outer.Y-eps && r.Right() <= outer.Right()+eps && r.Bottom() <= outer.Bottom()+eps
}

// checkFrame checks what any frame must satisfy: everything on the canvas,
// controls apart, panels apart from the cluster.
func checkFrame(t *testing.T, a *App, what string) {
	t.Helper()
	f := a.Frame()
	canvas := viz.XYWH(0, 0, f.W, f.H)
	n := a.World().Size()
	if len(f.Nodes) != n || len(f.Links) != n*(n-1)/2 || len(f.Logs.Rows) != n {
		t.Fatalf("%s: %d nodes, %d links, %d log rows for %d machines", what, len(f.Nodes), len(f.Links), len(f.Logs.Rows), n)
	}
	for _, nd := range f.Nodes {
		disc := viz.XYWH(nd.Center.X-nd.R, nd.Center.Y-nd.R, 2*nd.R, 2*nd.R)
		if !inside(canvas, disc) || nd.R < 8 {
			t.Errorf("%s: node %s at %v radius %.1f is off the canvas or too small", what, nd.Name.Text, nd.Center, nd.R)
		}
		// Where the layout says the words do not fit (seven members on a
		// phone's small stage), a role line may go: the disc's shape still
		// tells the role.
		if nd.Name.Text == "" || (nd.Lines[0].Text == "" && a.lay().WordsFit) {
			t.Errorf("%s: node %d has no name or role line", what, nd.Index)
		}
	}
	// A message's tag never sits on a machine or the words under it
	// (unless the reader picked that message).
	for _, m := range f.Messages {
		if m.Label.Text == "" || m.Selected {
			continue
		}
		tag := viz.XYWH(m.Label.X-a.measure(m.Label.Text, m.Label.Size)/2, m.Label.Y-scene.LineHeight(m.Label.Size)/2,
			a.measure(m.Label.Text, m.Label.Size), scene.LineHeight(m.Label.Size))
		for _, nd := range f.Nodes {
			disc := viz.XYWH(nd.Center.X-nd.R, nd.Center.Y-nd.R, 2*nd.R, 2*nd.R)
			if tag.Overlaps(disc) || tag.Overlaps(a.lay().Nodes[nd.Index].Caption) {
				t.Errorf("%s: the tag %q at %v sits on machine %s", what, m.Label.Text, tag, nd.Name.Text)
			}
		}
	}
	// The key's button keeps off the machines and their words, unless
	// words lie all along the log rows' header.
	if k := f.Logs.Key; k.ID != "" && onMachineWords(a, f, k.Rect) {
		for x := f.Logs.Rect.X; x+k.Rect.W <= f.Logs.Rect.Right(); x += 6 {
			if r := viz.XYWH(x, k.Rect.Y, k.Rect.W, k.Rect.H); !onMachineWords(a, f, r) {
				t.Errorf("%s: the key's button at %v sits on a machine or its words, while %v is clear", what, k.Rect, r)
				break
			}
		}
	}
	var ws []frame.Widget
	ws = append(ws, f.Toolbar...)
	ws = append(ws, f.Tabs...)
	for i, w := range ws {
		if !inside(canvas, w.Rect) || w.Rect.W < 20 || w.Rect.H < 20 {
			t.Errorf("%s: control %s at %v is off the canvas or too small to press", what, w.ID, w.Rect)
		}
		for _, v := range ws[i+1:] {
			if w.Rect.Overlaps(v.Rect) {
				t.Errorf("%s: controls %s and %s overlap", what, w.ID, v.ID)
			}
		}
	}
	cluster := a.Layout().Cluster
	for i, p := range f.Panels {
		if !inside(canvas, p.Rect) {
			t.Errorf("%s: panel %v at %v is off the canvas", what, p.Kind, p.Rect)
		}
		if p.Rect.Overlaps(cluster) || p.Rect.Overlaps(f.Logs.Rect) || p.Rect.Overlaps(f.Timeline.Rect) {
			t.Errorf("%s: panel %v overlaps the cluster, logs or timeline", what, p.Kind)
		}
		for _, q := range f.Panels[i+1:] {
			if p.Rect.Overlaps(q.Rect) {
				t.Errorf("%s: panels %v and %v overlap", what, p.Kind, q.Kind)
			}
		}
		for _, w := range p.Widgets {
			if w.Rect.Right() > p.Rect.Right()+0.5 || w.Rect.X < p.Rect.X {
				t.Errorf("%s: control %s sticks out of panel %v", what, w.ID, p.Kind)
			}
		}
	}
	if f.Menu != nil && !inside(canvas, f.Menu.Rect) {
		t.Errorf("%s: the menu at %v is off the canvas", what, f.Menu.Rect)
	}
	if f.Menu != nil {
		for _, r := range f.Menu.Rows {
			for _, w := range r.Widgets {
				if !inside(f.Menu.Rect, w.Rect) {
					t.Errorf("%s: menu control %s at %v is outside the menu %v", what, w.ID, w.Rect, f.Menu.Rect)
				}
			}
		}
	}
	if f.Help != nil && !inside(canvas, f.Help.Rect) {
		t.Errorf("%s: the help at %v is off the canvas", what, f.Help.Rect)
	}
}

func TestFramesForEveryClusterSizeAndCanvas(t *testing.T) {
	for n := 1; n <= raftcore.MaxNodes; n++ {
		for _, cv := range canvases {
			what := fmt.Sprintf("%d machines on %gx%g", n, cv.w, cv.h)
			a := newApp(t, n, cv.w, cv.h)
			var c hostClock
			c.run(a, 3*time.Second)
			checkFrame(t, a, what)
			if n > 1 {
				a.openMenu(view.Menu{Kind: view.MenuNode, Node: n - 1})
				checkFrame(t, a, what+", node menu open")
				a.openMenu(view.Menu{Kind: view.MenuLink, Link: viz.LinkID{I: 0, J: n - 1}})
				checkFrame(t, a, what+", link menu open")
			}
			a.openMenu(view.Menu{Kind: view.MenuMain})
			checkFrame(t, a, what+", setup menu open")
			a.Key("?")
			checkFrame(t, a, what+", help open")
		}
	}
}

func TestOneMachineElectsItself(t *testing.T) {
	a := newApp(t, 1, 800, 600)
	var c hostClock
	if l := untilLeader(t, a, &c); l != 0 {
		t.Fatalf("leader %d", l)
	}
	f := a.Frame()
	if f.Nodes[0].Shape != frame.ShapeSquare || f.Nodes[0].Tone != frame.ToneLeader || !strings.HasPrefix(f.Nodes[0].Lines[0].Text, "Leader") {
		t.Errorf("the lone leader is drawn %+v", f.Nodes[0])
	}
}

func TestRolesDifferInShapeAndWords(t *testing.T) {
	a := newApp(t, 3, 1280, 800)
	var c hostClock
	l := untilLeader(t, a, &c)
	a.Key(" ")
	a.Act([]byte(`{"do":"pause","node":` + strconv.Itoa((l+1)%3+1) + `}`))
	a.Act([]byte(`{"do":"crash","node":` + strconv.Itoa((l+2)%3+1) + `}`))
	f := a.Frame()
	seen := map[string]bool{}
	for _, n := range f.Nodes {
		key := fmt.Sprintf("%d/%d/%s", n.Shape, n.Tone, strings.Fields(n.Lines[0].Text)[0])
		if seen[key] {
			t.Errorf("two machines look alike: %s", key)
		}
		seen[key] = true
	}
	if f.Nodes[l].Shape != frame.ShapeSquare {
		t.Error("the leader is not drawn as a square")
	}
	var paused, crashed int
	for _, n := range f.Nodes {
		switch {
		case n.Paused:
			paused++
			if n.Crashed || n.Tone != frame.TonePaused || !strings.HasPrefix(n.Lines[0].Text, "Paused") {
				t.Errorf("the paused machine is drawn %v %q, crashed %v", n.Tone, n.Lines[0].Text, n.Crashed)
			}
		case n.Crashed:
			crashed++
			if n.Tone != frame.ToneDown || !strings.HasPrefix(n.Lines[0].Text, "Crashed") || n.Timer >= 0 {
				t.Errorf("the crashed machine is drawn %v %q timer %v", n.Tone, n.Lines[0].Text, n.Timer)
			}
		}
	}
	if paused != 1 || crashed != 1 {
		t.Errorf("%d machines are drawn paused and %d crashed, want one of each", paused, crashed)
	}
}

func TestPhoneTabsReachEveryPanel(t *testing.T) {
	a := newApp(t, 5, 390, 844)
	if !a.Layout().Tabbed {
		t.Fatal("a phone canvas should put the panels behind tabs")
	}
	for _, k := range viz.PanelKinds() {
		r, ok := widgetRect(a, scene.TabPrefix+k.Title())
		if !ok {
			t.Fatalf("no tab for %v", k)
		}
		var c hostClock
		press(a, &c, r.Center(), r.Center(), 0)
		f := a.Frame()
		if len(f.Panels) != 1 || f.Panels[0].Kind != k {
			t.Errorf("after tapping the %v tab the panels shown are %+v", k, f.Panels)
		}
		if len(f.Panels) == 1 && len(f.Panels[0].Lines) == 0 {
			t.Errorf("the %v panel is empty", k)
		}
	}
	// On a phone the menu button is still there.
	if _, ok := widgetRect(a, scene.IDMenu); !ok {
		t.Error("a phone canvas has no menu button")
	}
}

func TestLogWindowScrollsAndSaysWhatIsHidden(t *testing.T) {
	a := newApp(t, 3, 800, 600)
	var c hostClock
	untilLeader(t, a, &c)
	for i := 0; i < 80; i++ {
		a.Key("c")
		c.run(a, 20*time.Millisecond)
	}
	c.run(a, 2*time.Second)
	w := a.World()
	last := w.Node(1).LastIndex()
	first, capacity := a.builder.LogWindow(a.parts())
	if uint64(capacity) >= last {
		t.Fatalf("the strip holds %d entries, more than the %d written: make the test write more", capacity, last)
	}
	f := a.Frame()
	for _, r := range f.Logs.Rows {
		if len(r.Cells) > capacity {
			t.Errorf("row %s has %d cells for room for %d", r.Name.Text, len(r.Cells), capacity)
		}
		if n := len(r.Cells); n > 0 && r.Cells[n-1].Index != w.Node(nodeID(r.Node)).LastIndex() {
			t.Errorf("row %s ends at %d, not at its newest entry", r.Name.Text, r.Cells[n-1].Index)
		}
		for _, cell := range r.Cells {
			if !inside(r.Strip, cell.Rect) {
				t.Errorf("cell %d at %v is outside row %s's strip %v", cell.Index, cell.Rect, r.Name.Text, r.Strip)
			}
		}
	}
	if want := words.Utoa(first-1) + " earlier"; !strings.Contains(f.Logs.Before.Text, want) {
		t.Errorf("the strip shows from %d but says %q, want %q", first, f.Logs.Before.Text, want)
	}
	if f.Logs.After.Text != "" {
		t.Errorf("at the newest entry the strip says %q on the right", f.Logs.After.Text)
	}
	// Scroll back: earlier entries come in, and the newer ones are counted.
	a.Wheel(a.Layout().Logs.Center(), 0, 1)
	a.Wheel(a.Layout().Logs.Center(), 0, 1)
	f = a.Frame()
	first2, _ := a.builder.LogWindow(a.parts())
	if first2 != first-4 {
		t.Errorf("two wheel turns moved the window from %d to %d, want %d", first, first2, first-4)
	}
	if !strings.Contains(f.Logs.After.Text, "4 newer") {
		t.Errorf("scrolled back, the strip says %q on the right, want 4 newer", f.Logs.After.Text)
	}
	// Scrolling past the start stops at index 1.
	for i := 0; i < 100; i++ {
		a.Wheel(a.Layout().Logs.Center(), 0, 1)
	}
	if first3, _ := a.builder.LogWindow(a.parts()); first3 != 1 {
		t.Errorf("scrolled all the way back the window starts at %d", first3)
	}
	if a.Frame().Logs.Before.Text != "" {
		t.Errorf("at index 1 the strip still says %q", a.Frame().Logs.Before.Text)
	}
}

func TestLogCellsShowTermsCommitsAndConflicts(t *testing.T) {
	a := newApp(t, 3, 1280, 800)
	var c hostClock
	l := untilLeader(t, a, &c)
	// Cut the leader off, write to it: its entry cannot commit.
	var rest []string
	for i := 1; i <= 3; i++ {
		if i != l+1 {
			rest = append(rest, strconv.Itoa(i))
		}
	}
	if err := a.Act([]byte(`{"do":"partition","groups":[[` + strconv.Itoa(l+1) + `],[` + strings.Join(rest, ",") + `]]}`)); err != nil {
		t.Fatal(err)
	}
	a.Act([]byte(`{"do":"write","node":` + strconv.Itoa(l+1) + `,"key":"k","value":"v"}`))
	c.run(a, 200*time.Millisecond)
	f := a.Frame()
	row := f.Logs.Rows[l]
	lastCell := row.Cells[len(row.Cells)-1]
	if lastCell.Committed {
		t.Error("an entry only the isolated leader holds is drawn committed")
	}
	if lastCell.Color != int(lastCell.Term) || lastCell.Text != words.Utoa(lastCell.Term) {
		t.Errorf("cell %+v is not coloured and labelled by its term", lastCell)
	}
	// The others elect a new leader and write: the old leader's entry
	// conflicts with the new leader's at that index.
	c.run(a, 4*time.Second)
	nl := a.leader()
	if nl < 0 || nl == l {
		t.Fatalf("no new leader on the majority side (leader %d)", nl)
	}
	a.Act([]byte(`{"do":"write","node":` + strconv.Itoa(nl+1) + `,"key":"k","value":"w"}`))
	c.run(a, time.Second)
	f = a.Frame()
	conflict := false
	for _, cell := range f.Logs.Rows[l].Cells {
		conflict = conflict || cell.Conflict
	}
	if !conflict {
		t.Error("the old leader's divergent entry is not marked as conflicting with the new leader's log")
	}
	for _, r := range f.Logs.Rows {
		if r.Node != nl && r.Node != l && r.MatchX < 0 {
			t.Errorf("follower row %s shows no match marker for the leader's view", r.Name.Text)
		}
	}
}

// TestClientPanelStaysStillWhileRequestsWait: a waiting request says when
// it was sent, so the client panel shows the same lines frame after frame
// until a request completes (the drawing keeps an unchanged panel and
// repaints only panels that change).
func TestClientPanelStaysStillWhileRequestsWait(t *testing.T) {
	// Slow links keep the write waiting for seconds.
	a, c := slowCluster(t, 5)
	a.Key("c")
	c.run(a, time.Second/60)
	client := func() []frame.TextItem {
		for _, p := range a.Frame().Panels {
			if p.Kind == viz.PanelClient {
				return p.Lines
			}
		}
		t.Fatal("no client panel")
		return nil
	}
	first := client()
	var text []string
	for _, l := range first {
		text = append(text, l.Text)
	}
	if all := strings.Join(text, " "); !strings.Contains(all, "waiting (sent at t = ") {
		t.Fatalf("the client panel reads %q; want the waiting request to say when it was sent", all)
	}
	for i := 0; i < 30; i++ {
		c.run(a, time.Second/60)
		if a.World().Ops()[0].Result != raftcore.OpPending {
			t.Fatal("the write completed within half a second over 2-3 s links")
		}
		if got := client(); !slices.Equal(got, first) {
			t.Fatalf("frame %d: the client panel changed while the request waited:\n%v\nwas\n%v", i, got, first)
		}
	}
}

// onMachineWords reports whether r lies on a machine of f, on the words
// under it, or off the canvas.
func onMachineWords(a *App, f *frame.Frame, r viz.Rect) bool {
	if r.Y < 0 || r.Bottom() > f.H {
		return true
	}
	for _, n := range f.Nodes {
		if r.Overlaps(viz.XYWH(n.Center.X-n.R, n.Center.Y-n.R, 2*n.R, 2*n.R)) {
			return true
		}
		for _, l := range n.Lines {
			if w := a.measure(l.Text, l.Size); l.Text != "" && r.Overlaps(viz.XYWH(l.X-w/2, l.Y-l.Size/2, w, l.Size)) {
				return true
			}
		}
	}
	return false
}

// TestLogRowsLeaveTheCompactedPrefixOut: once machines snapshot and
// compact their logs (every 100 applied entries by default, keeping 20),
// the entries before a log's first index are gone; a row draws no cell
// for them, and the window does reach back that far.
func TestLogRowsLeaveTheCompactedPrefixOut(t *testing.T) {
	a := newApp(t, 3, 1280, 800)
	writeUntilApplied(t, a, 108)
	w := a.World()
	first, _ := a.builder.LogWindow(a.parts())
	compacted := false
	for id := 1; id <= 3; id++ {
		nd := w.Node(nodeID(id - 1))
		if _, ok := nd.SnapshotAt(); ok && first < nd.FirstIndex() {
			compacted = true
		}
	}
	if !compacted {
		t.Fatalf("the window starts at %d, after every machine's compaction: make the test write differently", first)
	}
	for _, r := range a.Frame().Logs.Rows {
		nd := w.Node(nodeID(r.Node))
		for _, cell := range r.Cells {
			if cell.Index < nd.FirstIndex() {
				t.Errorf("row %s draws index %d, compacted before its first index %d", r.Name.Text, cell.Index, nd.FirstIndex())
			}
		}
		if len(r.Cells) == 0 || r.Cells[0].Index != max(first, nd.FirstIndex()) {
			t.Errorf("row %s starts at %v, want %d", r.Name.Text, r.Cells, max(first, nd.FirstIndex()))
		}
	}
}
