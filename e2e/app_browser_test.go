//go:build browser

package e2e

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"raftlab/viz"
	"raftlab/viz/app"
)

// The tests in this file drive the real app in headless Chromium: the reader's gestures
// are real mouse events, and the outcome is read from window.raftlab.snapshot(), which
// is the app's own state (viz/app.Snapshot), not a picture of it.

// appState returns the app's snapshot.
func appState(b *browser) app.Snapshot {
	b.t.Helper()
	var s app.Snapshot
	b.snapshot(&s)
	return s
}

// jsCall calls window.raftlab.<fn>(args...) with JSON-encoded arguments; the bridge
// returns null on success and an error string otherwise.
func jsCall(b *browser, fn string, args ...any) {
	b.t.Helper()
	enc := make([]string, len(args))
	for i, a := range args {
		data, err := json.Marshal(a)
		if err != nil {
			b.t.Fatal(err)
		}
		enc[i] = string(data)
	}
	call := fmt.Sprintf("window.raftlab.%s(%s)", fn, strings.Join(enc, ", "))
	if res := evalJS[*string](b, call); res != nil {
		b.t.Fatalf("%s: %s", call, *res)
	}
}

// appCmd runs a command of the app (see app.App.Cmd) through the bridge.
func appCmd(b *browser, name string, args ...string) {
	b.t.Helper()
	all := []any{name}
	for _, a := range args {
		all = append(all, a)
	}
	jsCall(b, "cmd", all...)
}

// waitState polls the snapshot until ok holds and returns that snapshot. It polls from
// Go rather than on animation frames, so a slow renderer delays it no more than needed.
func waitState(b *browser, what string, ok func(app.Snapshot) bool) app.Snapshot {
	b.t.Helper()
	deadline := time.Now().Add(waitTimeout)
	for {
		s := appState(b)
		if ok(s) {
			return s
		}
		if time.Now().After(deadline) {
			b.t.Fatalf("waiting for %s: not true after %v (virtual time %.0f ms, paused %v, leader %d, banner %q)",
				what, waitTimeout, s.NowMs, s.Paused, s.Leader, s.Banner)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// widgetRect returns where the control with the given id is on the canvas.
func widgetRect(s app.Snapshot, id string) (viz.Rect, bool) {
	for _, w := range s.Screen.Widgets {
		if w.ID == id {
			return w.Rect, true
		}
	}
	return viz.Rect{}, false
}

// mustWidget returns where the control with the given id is, or fails the test
// naming the controls there are.
func mustWidget(t testing.TB, s app.Snapshot, id string) viz.Rect {
	t.Helper()
	r, ok := widgetRect(s, id)
	if !ok {
		var ids []string
		for _, w := range s.Screen.Widgets {
			ids = append(ids, w.ID)
		}
		t.Fatalf("no control %q on screen; there are %s", id, strings.Join(ids, ", "))
	}
	return r
}

// clickWidget clicks the middle of a control with real mouse events.
func clickWidget(b *browser, s app.Snapshot, id string) {
	b.t.Helper()
	c := mustWidget(b.t, s, id).Center()
	b.click(c.X, c.Y)
}

func machine(s app.Snapshot, id int) app.MachineState {
	for _, m := range s.Machines {
		if m.ID == id {
			return m
		}
	}
	return app.MachineState{}
}

func center(m app.MachineState) viz.Point { return viz.Pt(m.X, m.Y) }

// linkKey names an undirected link by its machine ids, smaller first.
type linkKey [2]int

func keyOf(i, j int) linkKey {
	if i > j {
		i, j = j, i
	}
	return linkKey{i, j}
}

// linkSegment is where the link between machines i and j is drawn: from the edge of one
// disc to the edge of the other, as viz.Layout draws it and as the cut gesture tests it.
func linkSegment(s app.Snapshot, k linkKey) (viz.Point, viz.Point) {
	a, b := machine(s, k[0]), machine(s, k[1])
	ca, cb := center(a), center(b)
	d := cb.Sub(ca)
	d = d.Mul(1 / d.Len())
	return ca.Add(d.Mul(a.R)), cb.Sub(d.Mul(b.R))
}

// crossedLinks lists the links that the straight stroke p→q crosses.
func crossedLinks(s app.Snapshot, p, q viz.Point) []linkKey {
	var out []linkKey
	for i := 1; i <= len(s.Machines); i++ {
		for j := i + 1; j <= len(s.Machines); j++ {
			a, b := linkSegment(s, linkKey{i, j})
			if _, ok := viz.SegmentIntersection(p, q, a, b); ok {
				out = append(out, linkKey{i, j})
			}
		}
	}
	return out
}

// clearSpot reports whether a press at p lands on empty cluster space: inside the
// cluster, well away from every machine and every message dot.
func clearSpot(s app.Snapshot, p viz.Point) bool {
	if !clearOfMachines(s, p, 16) {
		return false
	}
	for _, f := range s.InFlight {
		if p.Dist(viz.Pt(f.X, f.Y)) < 20 {
			return false
		}
	}
	return true
}

// clearOfMachines reports whether p is inside the cluster and more than gap pixels
// from the edge of every machine's disc.
func clearOfMachines(s app.Snapshot, p viz.Point, gap float64) bool {
	c := s.Screen.Cluster
	if p.X < c.X+4 || p.Y < c.Y+4 || p.X > c.Right()-4 || p.Y > c.Bottom()-4 {
		return false
	}
	for _, m := range s.Machines {
		if p.Dist(center(m)) < m.R+gap {
			return false
		}
	}
	return true
}

// cutStroke finds a straight stroke that starts and ends in empty space and crosses
// exactly two links of machine id, ones that leave it side by side.
func cutStroke(t *testing.T, s app.Snapshot, id int) (p, q viz.Point, want []linkKey) {
	t.Helper()
	c := center(machine(s, id))
	r := machine(s, id).R
	type ray struct {
		to    int
		angle float64
	}
	var rays []ray
	for _, m := range s.Machines {
		if m.ID != id {
			d := center(m).Sub(c)
			rays = append(rays, ray{m.ID, math.Atan2(d.Y, d.X)})
		}
	}
	sort.Slice(rays, func(i, j int) bool { return rays[i].angle < rays[j].angle })
	for k := range rays {
		a, b := rays[k], rays[(k+1)%len(rays)]
		lo, hi := a.angle, b.angle
		if hi <= lo {
			hi += 2 * math.Pi
		}
		if hi-lo > math.Pi*0.9 {
			continue
		}
		want := []linkKey{keyOf(id, a.to), keyOf(id, b.to)}
		slices.SortFunc(want, func(x, y linkKey) int { return x[0]*100 + x[1] - y[0]*100 - y[1] })
		for d := 1.8 * r; d <= 5*r; d += 0.2 * r {
			for _, spread := range []float64{0.2, 0.35, 0.5} {
				p := c.Add(viz.Pt(math.Cos(lo-spread), math.Sin(lo-spread)).Mul(d))
				q := c.Add(viz.Pt(math.Cos(hi+spread), math.Sin(hi+spread)).Mul(d))
				if clearSpot(s, p) && clearSpot(s, q) && slices.Equal(crossedLinks(s, p, q), want) {
					return p, q, want
				}
			}
		}
	}
	t.Fatalf("found no stroke that crosses exactly two links of machine %d", id)
	return
}

// downLinks lists the links with at least one direction cut, and fails the test when a
// link is cut in one direction only.
func downLinks(t *testing.T, s app.Snapshot) []linkKey {
	t.Helper()
	up := map[[2]int]bool{}
	for _, l := range s.Links {
		up[[2]int{l.From, l.To}] = l.Up
	}
	var out []linkKey
	for i := 1; i <= len(s.Machines); i++ {
		for j := i + 1; j <= len(s.Machines); j++ {
			ij, ji := up[[2]int{i, j}], up[[2]int{j, i}]
			if ij != ji {
				t.Errorf("link %d–%d is cut one way only (%d→%d up: %v, %d→%d up: %v)", i, j, i, j, ij, j, i, ji)
			}
			if !ij || !ji {
				out = append(out, linkKey{i, j})
			}
		}
	}
	return out
}

func noExceptions(t *testing.T, b *browser) {
	t.Helper()
	if ex := b.exceptions(); len(ex) > 0 {
		t.Errorf("uncaught exceptions on the page:\n%s", strings.Join(ex, "\n"))
	}
}

// TestAppDragAcrossTwoLinksCutsThem draws a stroke with the mouse across two links that
// leave one machine side by side and checks that those two links, and no others, are cut
// in both directions; a second stroke along the same path restores them.
// requireOnlyPaused checks that machine id, and no other, was paused by the
// last action.
func requireOnlyPaused(t *testing.T, s app.Snapshot, id int) {
	t.Helper()
	for _, o := range s.Machines {
		if o.ID != id && o.Status != "up" {
			t.Errorf("machine %s is %s, want up", o.Name, o.Status)
		}
	}
	if last := s.Actions[len(s.Actions)-1]; last.Do != "pause" || last.Node != id {
		t.Errorf("last action %+v, want pause of machine %d", last, id)
	}
}

// requireTwoCuts checks that a stroke cut exactly the links want, said so, and
// was recorded as two cut actions.
func requireTwoCuts(t *testing.T, s app.Snapshot, want []linkKey) {
	t.Helper()
	if got := downLinks(t, s); !slices.Equal(got, want) {
		t.Fatalf("cut links %v, want exactly %v", got, want)
	}
	if !strings.HasPrefix(s.Banner, "Cut ") {
		t.Errorf("banner %q, want it to say what was cut", s.Banner)
	}
	if n := len(s.Actions); n < 2 || s.Actions[n-1].Do != "cut" || s.Actions[n-2].Do != "cut" {
		t.Errorf("actions %+v, want two cuts at the end", s.Actions)
	}
}

func TestAppDragAcrossTwoLinksCutsThem(t *testing.T) {
	b := newBrowser(t, 1280, 800)
	b.openApp("nodes=5&seed=1")
	// Pausing keeps the message dots still, so that the press lands on empty space.
	appCmd(b, "pause")
	s := waitState(b, "the app to pause", func(s app.Snapshot) bool { return s.Paused })
	if n := len(downLinks(t, s)); n != 0 {
		t.Fatalf("%d links are cut before the stroke", n)
	}
	p, q, want := cutStroke(t, s, 1)
	t.Logf("stroke (%.0f,%.0f) → (%.0f,%.0f) should cut %v", p.X, p.Y, q.X, q.Y, want)

	b.drag(p.X, p.Y, q.X, q.Y, 12)
	s = waitState(b, "the stroke to cut links", func(s app.Snapshot) bool { return len(downLinks(t, s)) > 0 })
	requireTwoCuts(t, s, want)
	requireNotBlank(t, b.screenshot("two-links-cut"))

	// Drawing across a cut link again restores what the stroke crosses.
	b.drag(p.X, p.Y, q.X, q.Y, 12)
	s = waitState(b, "the second stroke to restore the links", func(s app.Snapshot) bool { return len(downLinks(t, s)) == 0 })
	if !strings.HasPrefix(s.Banner, "Restored ") {
		t.Errorf("banner %q after the second stroke, want it to say what was restored", s.Banner)
	}
	noExceptions(t, b)
}

// isolationTarget is a point on the canvas far enough outside the ring that dropping a
// machine there cuts it off (viz.GestureConfig's default distance, 1.5 radii and at least
// 24 px, with a margin), choosing the one nearest to where the machine is.
func isolationTarget(t *testing.T, s app.Snapshot, m app.MachineState) viz.Point {
	t.Helper()
	ring := viz.Pt(s.Screen.Ring[0], s.Screen.Ring[1])
	dist := s.Screen.Ring[2] + math.Max(1.5*m.R, 24) + 40
	var best viz.Point
	bestD := math.Inf(1)
	for deg := 0; deg < 360; deg += 10 {
		a := float64(deg) * math.Pi / 180
		p := ring.Add(viz.Pt(math.Cos(a), math.Sin(a)).Mul(dist))
		if p.X < 10 || p.Y < 10 || p.X > s.Screen.Width-10 || p.Y > s.Screen.Height-10 {
			continue
		}
		if d := p.Dist(center(m)); d < bestD {
			best, bestD = p, d
		}
	}
	if math.IsInf(bestD, 1) {
		t.Fatalf("no point on the %gx%g canvas is far enough outside the ring", s.Screen.Width, s.Screen.Height)
	}
	return best
}

// TestAppIsolatedLeaderIsReplaced drags the leader out of the ring with the mouse and
// checks that the machines left behind, a majority, elect a new leader in a later term.
func TestAppIsolatedLeaderIsReplaced(t *testing.T) {
	b := newBrowser(t, 1280, 800)
	b.openApp("nodes=5&seed=2&speed=10")
	s := waitState(b, "a first leader", func(s app.Snapshot) bool { return s.Leader > 0 })
	appCmd(b, "pause")
	s = waitState(b, "the app to pause", func(s app.Snapshot) bool { return s.Paused })
	old := machine(s, s.Leader)
	if old.Role != "leader" {
		t.Fatalf("snapshot leader %d has role %q", s.Leader, old.Role)
	}
	to := isolationTarget(t, s, old)
	t.Logf("dragging leader %s (term %d) from (%.0f,%.0f) to (%.0f,%.0f)", old.Name, old.Term, old.X, old.Y, to.X, to.Y)

	b.drag(old.X, old.Y, to.X, to.Y, 15)
	s = waitState(b, "the leader to be cut off", func(s app.Snapshot) bool { return len(downLinks(t, s)) == len(s.Machines)-1 })
	for _, k := range downLinks(t, s) {
		if k[0] != old.ID && k[1] != old.ID {
			t.Errorf("link %v is cut, but only the dragged machine's links should be", k)
		}
	}
	requireNotBlank(t, b.screenshot("leader-cut-off"))

	appCmd(b, "play")
	s = waitState(b, "a new leader among the other machines", func(s app.Snapshot) bool {
		return s.Leader > 0 && s.Leader != old.ID
	})
	nl := machine(s, s.Leader)
	if nl.Term <= old.Term {
		t.Errorf("new leader %s in term %d, want a term after %d", nl.Name, nl.Term, old.Term)
	}
	if s.Layout != "partition" {
		t.Errorf("layout %q, want the partition layout", s.Layout)
	}
	for _, side := range s.Sides {
		if slices.Contains(side, nl.ID) {
			if slices.Contains(side, old.ID) || 2*len(side) <= len(s.Machines) {
				t.Errorf("new leader %s is on side %v, want the majority side without %s", nl.Name, side, old.Name)
			}
		}
	}
	// CheckQuorum: the cut-off leader notices it hears no majority and steps down.
	s = waitState(b, "the old leader to step down", func(s app.Snapshot) bool { return machine(s, old.ID).Role != "leader" })
	requireNotBlank(t, b.screenshot("new-leader"))
	noExceptions(t, b)
}

// TestAppPauseMachineFromItsMenu pauses the run with the toolbar button, opens a
// machine's menu by clicking the machine and pauses and resumes the machine from the
// menu, all with real clicks.
func TestAppPauseMachineFromItsMenu(t *testing.T) {
	b := newBrowser(t, 1280, 800)
	b.openApp("nodes=5&seed=1&speed=1")
	s := appState(b)
	if s.Paused {
		t.Fatal("free play starts paused")
	}
	clickWidget(b, s, "cmd:"+viz.CmdPlayPause.String())
	s = waitState(b, "the play button to pause the run", func(s app.Snapshot) bool { return s.Paused })

	const id = 3
	m := machine(s, id)
	b.click(m.X, m.Y)
	s = waitState(b, "the machine's menu", func(s app.Snapshot) bool { return s.Menu == fmt.Sprintf("node:%d", id) })
	if s.Selected != id {
		t.Errorf("selected machine %d, want %d", s.Selected, id)
	}
	b.screenshot("node-menu")
	clickWidget(b, s, "node.pause")
	s = waitState(b, "the machine to pause", func(s app.Snapshot) bool { return machine(s, id).Status == "paused" })
	requireOnlyPaused(t, s, id)
	requireNotBlank(t, b.screenshot("machine-paused"))

	if s.Menu != fmt.Sprintf("node:%d", id) {
		b.click(m.X, m.Y)
		s = waitState(b, "the machine's menu again", func(s app.Snapshot) bool { return s.Menu == fmt.Sprintf("node:%d", id) })
	}
	clickWidget(b, s, "node.resume")
	waitState(b, "the machine to resume", func(s app.Snapshot) bool { return machine(s, id).Status == "up" })
	noExceptions(t, b)
}

// figureState is what the embed test reads from one iframe.
type figureState struct {
	Ready    bool    `json:"ready"`
	Visible  bool    `json:"visible"`
	Now      float64 `json:"now"`
	Paused   bool    `json:"paused"`
	Scenario string  `json:"scenario"`
	Left     float64 `json:"left"`
	Top      float64 `json:"top"`
}

func figure(b *browser, i int) figureState {
	b.t.Helper()
	return evalJS[figureState](b, fmt.Sprintf(`(function () {
		var f = document.querySelectorAll("iframe")[%d], w = f.contentWindow, r = f.getBoundingClientRect();
		var out = {ready: false, visible: w.raftlabVisible === true, left: r.left, top: r.top};
		if (w.raftlab && w.raftlab.ready === true) {
			var s = JSON.parse(w.raftlab.snapshot());
			out.ready = true; out.now = s.now_ms; out.paused = s.paused;
			out.scenario = s.scenario ? s.scenario.id : "";
		}
		return out;
	})()`, i))
}

// waitFigure polls figure i until ok holds.
func waitFigure(b *browser, i int, what string, ok func(figureState) bool) figureState {
	b.t.Helper()
	deadline := time.Now().Add(readyTimeout)
	for {
		f := figure(b, i)
		if ok(f) {
			return f
		}
		if time.Now().After(deadline) {
			b.t.Fatalf("figure %d: waiting for %s: %+v", i+1, what, f)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// runFigure checks that figure i is ready and that its virtual time advances, pressing
// its play button (a real click inside the iframe) if the scenario waits for the reader.
func runFigure(t *testing.T, b *browser, i int) {
	t.Helper()
	f := waitFigure(b, i, "the app to be ready and in view", func(f figureState) bool { return f.Ready && f.Visible })
	if f.Scenario != "majority" {
		t.Errorf("figure %d plays scenario %q, want majority", i+1, f.Scenario)
	}
	if f.Paused {
		// A figure opens still; its play button plays the next step. (Through
		// the iframe's click(): a real click inside an iframe whose app rests
		// can fall between two of its frames.)
		res := evalJS[*string](b, fmt.Sprintf(`document.querySelectorAll("iframe")[%d].contentWindow.raftlab.click("figure.play")`, i))
		if res != nil {
			t.Fatalf("figure %d: play: %s", i+1, *res)
		}
	}
	start := waitFigure(b, i, "the figure to run", func(f figureState) bool { return !f.Paused })
	waitFigure(b, i, "virtual time to advance", func(f figureState) bool { return f.Now > start.Now+50 })
}

// TestAppEmbeddedFiguresRun loads the sample chapter with two embedded figures and checks
// that each one's app becomes ready and runs once it is in view.
func TestAppEmbeddedFiguresRun(t *testing.T) {
	dir := webDir(t)
	requireAppBuild(t, dir)
	base := startWebServer(t, dir)
	b := newBrowser(t, 1280, 800)
	b.navigate(base + "embed-example.html")
	b.waitFor(`window.raftlabEmbed && document.querySelectorAll("iframe").length === 2`)

	runFigure(t, b, 0)
	requireNotBlank(t, b.screenshot("first-figure"))

	evalJS[bool](b, `document.querySelectorAll("iframe")[1].scrollIntoView({block: "center"}), true`)
	runFigure(t, b, 1)
	// Out of view, the first figure is paused by the page: its clock stands still.
	f1 := waitFigure(b, 0, "the first figure to be hidden", func(f figureState) bool { return !f.Visible })
	time.Sleep(500 * time.Millisecond)
	if again := figure(b, 0); again.Now != f1.Now {
		t.Errorf("the first figure's clock moved from %.0f to %.0f ms while it was out of view", f1.Now, again.Now)
	}
	requireNotBlank(t, b.screenshot("second-figure"))
	noExceptions(t, b)
}

// TestAppBadURLFallsBack opens the app with parameters it cannot use and checks that the
// page names each one and what is used instead, and that the app runs with those values.
func TestAppBadURLFallsBack(t *testing.T) {
	b := newBrowser(t, 1280, 800)
	b.openApp("nodes=12&protocol=paxos&seed=4")
	msg := evalJS[string](b, `document.getElementById("raftlab-message").hidden ? "" : document.getElementById("raftlab-message").textContent`)
	for _, want := range []string{"nodes=12", "using 5", "protocol=paxos", "using raft"} {
		if !strings.Contains(msg, want) {
			t.Errorf("page message %q does not contain %q", msg, want)
		}
	}
	s := appState(b)
	if s.Nodes != 5 || len(s.Machines) != 5 || s.Protocol != "raft" {
		t.Errorf("app runs %d machines (%d shown) with protocol %q, want the fallback 5 and raft", s.Nodes, len(s.Machines), s.Protocol)
	}
	if s.Seed != 4 {
		t.Errorf("seed %d, want 4: a good parameter next to bad ones still counts", s.Seed)
	}
	requireNotBlank(t, b.screenshot("bad-url"))
	noExceptions(t, b)
}

// worldView is what must match between a run and the run its share link reopens.
type worldView struct {
	TraceHash string
	Trace     uint64
	NowMs     float64
	Machines  []string
	Down      []linkKey
	Actions   int
}

func viewOf(t *testing.T, s app.Snapshot) worldView {
	v := worldView{TraceHash: s.TraceHash, Trace: s.TraceCount, NowMs: s.NowMs, Down: downLinks(t, s), Actions: len(s.Actions)}
	for _, m := range s.Machines {
		v.Machines = append(v.Machines, fmt.Sprintf("%s %s %s term %d vote %d lead %d commit %d applied %d last %d",
			m.Name, m.Role, m.Status, m.Term, m.Vote, m.Leader, m.Commit, m.Applied, m.LastIndex))
	}
	return v
}

// TestAppShareLinkRoundTrip plays a run with faults and client writes, copies its share
// link the way the setup menu does, opens the link in a second browser and checks that
// it shows the same world at the same moment.
func TestAppShareLinkRoundTrip(t *testing.T) {
	b := newBrowser(t, 1280, 800)
	b.openApp("nodes=5&seed=3&speed=10")
	waitState(b, "a leader", func(s app.Snapshot) bool { return s.Leader > 0 })
	appCmd(b, "key", "c")
	jsCall(b, "act", `{"do":"cut","from":1,"to":2}`)
	jsCall(b, "act", `{"do":"crash","node":4}`)
	appCmd(b, "key", "c")
	s := waitState(b, "the run to go on after the faults", func(s app.Snapshot) bool { return s.NowMs > 4000 })
	appCmd(b, "pause")
	s = waitState(b, "the app to pause", func(s app.Snapshot) bool { return s.Paused })
	want := viewOf(t, s)

	// The setup menu's "copy link" control, as a reader would use it.
	evalJS[bool](b, `delete window.raftlab.lastLink, true`)
	appCmd(b, "click", "share.link")
	link := ""
	deadline := time.Now().Add(waitTimeout)
	for link == "" {
		link = evalJS[string](b, `window.raftlab.lastLink || ""`)
		if time.Now().After(deadline) {
			t.Fatal("copying the link left no window.raftlab.lastLink")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if direct := evalJS[string](b, `window.raftlab.link()`); direct != link {
		t.Errorf("copied link %s differs from raftlab.link() %s", link, direct)
	}
	if !strings.Contains(link, "link=") || !strings.HasPrefix(link, "http://127.0.0.1:") {
		t.Fatalf("copied link %q does not look like a share link of this server", link)
	}
	shown := evalJS[string](b, `(document.getElementById("raftlab-link-text") || {}).value || ""`)
	if shown != link {
		t.Errorf("the link box shows %q, want the copied link", shown)
	}
	b.screenshot("link-copied")

	b2 := newBrowser(t, 1280, 800)
	b2.navigate(link)
	b2.waitReady()
	s2 := appState(b2)
	if !s2.Paused {
		t.Errorf("a shared run opens running; want it paused at the shared moment")
	}
	got := viewOf(t, s2)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("the shared link opens a different world:\n got %+v\nwant %+v", got, want)
	}
	// The reopened run goes on exactly as the original would: the same 20 steps must
	// lead both to the same world.
	for _, br := range []*browser{b, b2} {
		for range 20 {
			appCmd(br, "step")
		}
	}
	if a, c := viewOf(t, appState(b)), viewOf(t, appState(b2)); fmt.Sprint(a) != fmt.Sprint(c) {
		t.Errorf("after 20 steps the runs differ:\noriginal %+v\nreopened %+v", a, c)
	}
	requireNotBlank(t, b2.screenshot("link-opened"))
	noExceptions(t, b)
	noExceptions(t, b2)
}

// TestAppScreenshots saves pictures of the app and of the embedding example on a laptop
// and a phone screen, in the states a reader meets, for a person to look at; each must at
// least not be blank.
func TestAppScreenshots(t *testing.T) {
	sizes := []struct {
		name string
		w, h int
	}{{"1280x800", 1280, 800}, {"390x844", 390, 844}}
	for _, sz := range sizes {
		t.Run("app-"+sz.name, func(t *testing.T) {
			b := newBrowser(t, sz.w, sz.h)
			b.openApp("nodes=5&seed=1&speed=10")
			waitState(b, "a leader", func(s app.Snapshot) bool { return s.Leader > 0 })
			for range 3 {
				appCmd(b, "key", "c")
			}
			jsCall(b, "act", `{"do":"cut","from":2,"to":3}`)
			waitState(b, "writes to commit", func(s app.Snapshot) bool { return machine(s, s.Leader).Commit >= 3 })
			appCmd(b, "speed", "1")
			requireNotBlank(t, b.screenshot("running"))
			appCmd(b, "pause")
			s := waitState(b, "pause", func(s app.Snapshot) bool { return s.Paused })
			m := machine(s, s.Leader)
			b.click(m.X, m.Y)
			waitState(b, "the leader's menu", func(s app.Snapshot) bool { return strings.HasPrefix(s.Menu, "node:") })
			requireNotBlank(t, b.screenshot("node-menu"))
			b.pressKey("?")
			waitState(b, "help", func(s app.Snapshot) bool { return s.Help })
			requireNotBlank(t, b.screenshot("help"))
			appCmd(b, "help", "off")
			s = waitState(b, "help closed", func(s app.Snapshot) bool { return !s.Help })
			if _, ok := widgetRect(s, "menu"); ok {
				clickWidget(b, s, "menu")
				waitState(b, "the setup menu", func(s app.Snapshot) bool { return s.Menu == "setup" })
				requireNotBlank(t, b.screenshot("setup-menu"))
				appCmd(b, "key", "Escape")
				waitState(b, "Escape to close the menu", func(s app.Snapshot) bool { return s.Menu == "" })
			}
			for _, panel := range []string{"Scenario", "Safety", "Client"} {
				appCmd(b, "panel", panel)
				appCmd(b, "select", "0")
				waitState(b, panel+" panel", func(s app.Snapshot) bool { return s.Panel == panel })
				b.waitFrames(2)
				requireNotBlank(t, b.screenshot("panel-"+strings.ToLower(panel)))
			}
			noExceptions(t, b)
		})
		t.Run("embed-"+sz.name, func(t *testing.T) {
			dir := webDir(t)
			requireAppBuild(t, dir)
			base := startWebServer(t, dir)
			b := newBrowser(t, sz.w, sz.h)
			b.navigate(base + "embed-example.html")
			b.waitFor(`window.raftlabEmbed && document.querySelectorAll("iframe").length === 2`)
			evalJS[bool](b, `document.querySelectorAll("iframe")[0].scrollIntoView({block: "center"}), true`)
			waitFigure(b, 0, "the first figure", func(f figureState) bool { return f.Ready && f.Visible })
			b.waitFrames(3)
			requireNotBlank(t, b.screenshot("first-figure"))
			evalJS[bool](b, `document.querySelectorAll("iframe")[1].scrollIntoView({block: "center"}), true`)
			waitFigure(b, 1, "the second figure", func(f figureState) bool { return f.Ready && f.Visible })
			b.waitFrames(3)
			requireNotBlank(t, b.screenshot("second-figure"))
			noExceptions(t, b)
		})
	}
}

// TestAppCanvasWithoutMultisampling: the page has Ebiten's WebGL context made without a
// multisampled drawing buffer and without a depth or stencil buffer (index.html says why:
// where WebGL is drawn in software they cost every frame and memory, and change no pixel),
// and the app still draws.
func TestAppCanvasWithoutMultisampling(t *testing.T) {
	b := newBrowser(t, 960, 600)
	b.openApp("nodes=3&seed=2")
	attrs := evalJS[map[string]any](b, `(function () {
		var c = document.querySelector("canvas");
		var gl = c && (c.getContext("webgl2") || c.getContext("webgl"));
		return gl ? gl.getContextAttributes() : {};
	})()`)
	if len(attrs) == 0 {
		t.Fatal("the page's canvas has no WebGL context")
	}
	for _, name := range []string{"antialias", "depth", "stencil"} {
		if on, _ := attrs[name].(bool); on {
			t.Errorf("the canvas's WebGL context has %s on: %v", name, attrs)
		}
	}
	requireNotBlank(t, b.screenshot("no-multisampling"))
	noExceptions(t, b)
}
