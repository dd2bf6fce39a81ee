package app

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"raftlab/raftcore"
	"raftlab/raftcore/timeline"
	"raftlab/viz"
	"raftlab/viz/app/command"
	"raftlab/viz/frame"
	"raftlab/viz/words"
)

// newApp makes a free-play app on a canvas, running at real time.
func newApp(t testing.TB, nodes int, w, h float64) *App {
	t.Helper()
	p := viz.DefaultParams()
	p.Nodes = nodes
	a, err := New(Options{Params: p, Width: w, Height: h, SpeedGiven: true})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// hostClock is a host calling an app's Update at 60 ticks a second.
type hostClock struct{ now time.Duration }

func (c *hostClock) run(a *App, d time.Duration) {
	for end := c.now + d; c.now < end; c.now += time.Second / 60 {
		a.Update(c.now)
	}
}

// untilLeader runs the app until some machine leads, or fails.
func untilLeader(t testing.TB, a *App, c *hostClock) int {
	t.Helper()
	for i := 0; i < 600; i++ {
		if l := a.leader(); l >= 0 {
			return l
		}
		c.run(a, 100*time.Millisecond)
	}
	t.Fatalf("no leader after %v of virtual time", words.Clock(a.World().Now()))
	return -1
}

// slowCluster is a free-play app of n machines on 1280×800 that has a
// leader, with every link then slowed to 2-3 s.
func slowCluster(t testing.TB, n int) (*App, *hostClock) {
	t.Helper()
	a := newApp(t, n, 1280, 800)
	c := &hostClock{}
	untilLeader(t, a, c)
	if err := a.Act([]byte(`{"do":"latency","latency_ms":[2000,3000]}`)); err != nil {
		t.Fatal(err)
	}
	return a, c
}

func lastAction(t *testing.T, a *App) raftcore.Action {
	t.Helper()
	acts := a.World().Actions()
	if len(acts) == 0 {
		t.Fatal("no action was recorded")
	}
	return acts[len(acts)-1]
}

func TestDefaultSpeedIsSlowUnlessChosen(t *testing.T) {
	a, err := New(Options{Params: viz.DefaultParams(), Width: 800, Height: 600})
	if err != nil {
		t.Fatal(err)
	}
	if a.Speed() != DefaultSpeed {
		t.Errorf("speed %v without a speed parameter, want %v", a.Speed(), DefaultSpeed)
	}
	p := viz.DefaultParams()
	p.Speed = 2
	b, err := New(Options{Params: p, SpeedGiven: true, Width: 800, Height: 600})
	if err != nil {
		t.Fatal(err)
	}
	if b.Speed() != 2 {
		t.Errorf("speed %v, want the chosen 2", b.Speed())
	}
	if !SpeedChosen([]string{"nodes=3", "Speed=2"}) || !SpeedChosen([]string{"-speed", "2"}) || SpeedChosen([]string{"nodes=3"}) {
		t.Error("SpeedChosen misreads its parameters")
	}
	// A speed out of range is no choice: the app starts at its default,
	// as the problem reported says.
	for _, bad := range [][]string{{"speed=-1"}, {"speed=50"}, {"-speed", "fast"}, {"speed=2", "speed=0"}, {"speed=%2D1"}} {
		if SpeedChosen(bad) {
			t.Errorf("SpeedChosen(%q) is true", bad)
		}
	}
	if !SpeedChosen([]string{"speed=0", "speed=1%2F4"}) {
		t.Error("the last speed given counts")
	}
}

func TestRunningAdvancesVirtualTimeAtTheChosenSpeed(t *testing.T) {
	a := newApp(t, 3, 1280, 800)
	a.Do(command.SetSpeed{Speed: 0.5})
	var c hostClock
	c.run(a, 2*time.Second)
	got := a.World().Now()
	// Two real seconds at half speed is one virtual second, give or take
	// the first tick.
	if got < 950_000 || got > 1_000_000 {
		t.Errorf("virtual time %v after 2 s at 0.5x, want about 1 s", words.Clock(got))
	}
	if err := a.Command(viz.CmdPlayPause); err != nil {
		t.Fatal(err)
	}
	before, v := a.World().Now(), a.Version()
	c.run(a, time.Second)
	if a.World().Now() != before {
		t.Error("time moved while paused")
	}
	if a.Version() != v {
		t.Error("the frame version changed while paused with nothing happening, so the host would redraw")
	}
}

// TestClientWriteKeyGoesToTheClusterAndCompletes: the C key sends a
// write to the cluster, with a machine selected as without; its client
// picks a running machine, and the write is committed.
func TestClientWriteKeyGoesToTheClusterAndCompletes(t *testing.T) {
	a := newApp(t, 5, 1280, 800)
	var c hostClock
	l := untilLeader(t, a, &c)
	a.view.Select((l+1)%5, false)
	if !a.Key("c") {
		t.Fatal("key c did nothing")
	}
	x := lastAction(t, a)
	if x.Do != raftcore.DoWrite || x.Node != 0 || x.Key != ClientKey || x.Value != "replicas=1" {
		t.Fatalf("key c recorded %+v, want a write of replicas=1 to the cluster", x)
	}
	c.run(a, 2*time.Second)
	op, _ := a.World().Op(1)
	if op.Result != raftcore.OpOK || !op.Cluster || a.World().Status(op.Node) != raftcore.StatusUp {
		t.Errorf("the write ended %q (%s) at %d, want ok at a running machine", op.Result, op.Reason, op.Node)
	}
	// The question panel now hears YES from every machine.
	for _, ans := range a.World().Ask(ClientKey) {
		if !ans.Exists || ans.Value != "replicas=1" {
			t.Errorf("%s answers %+v, want YES replicas=1", ans.Name, ans)
		}
	}
}

func TestKeysMapToActions(t *testing.T) {
	a := newApp(t, 5, 1280, 800)
	var c hostClock
	l := untilLeader(t, a, &c)
	n := len(a.World().Actions())
	a.Key("r")
	acts := a.World().Actions()[n:]
	if len(acts) != 2 || acts[0].Do != raftcore.DoCrash || acts[1].Do != raftcore.DoRestart || acts[0].Node != l+1 || acts[1].Node != l+1 {
		t.Fatalf("key r recorded %v, want crash and restart of the leader %d", acts, l+1)
	}
	n = len(a.World().Actions())
	a.Key("a")
	acts = a.World().Actions()[n:]
	if len(acts) < 1 {
		t.Fatalf("key a recorded %v, want timers set", acts)
	}
	for _, x := range acts {
		if x.Do != raftcore.DoTimer || x.AtMs != acts[0].AtMs {
			t.Errorf("key a recorded %v, want timers set at one instant", acts)
		}
	}
	a.Key("h")
	if x := lastAction(t, a); x.Do != raftcore.DoHeal {
		t.Errorf("key h recorded %v, want heal", x)
	}
	a.Key("?")
	if !(a.Frame().Help != nil) {
		t.Error("? did not open the help")
	}
	a.Key("Escape")
	if a.Frame().Help != nil {
		t.Error("Escape did not close the help")
	}
	if a.Key("z") {
		t.Error("an unbound key reported doing something")
	}
}

// press sends a press, moves in steps and a release, as a mouse would.
func press(a *App, c *hostClock, from, to viz.Point, steps int) {
	a.Pointer(viz.PointerEvent{Action: viz.PointerDown, Pos: from, Time: c.now})
	for i := 1; i <= steps; i++ {
		c.now += time.Second / 60
		p := from.Add(to.Sub(from).Mul(float64(i) / float64(steps)))
		a.Pointer(viz.PointerEvent{Action: viz.PointerMove, Pos: p, Time: c.now})
	}
	c.now += time.Second / 60
	a.Pointer(viz.PointerEvent{Action: viz.PointerUp, Pos: to, Time: c.now})
}

func TestCutStrokeCutsAndRestoresLinks(t *testing.T) {
	a := newApp(t, 3, 1280, 800)
	a.clock.SetPaused(true)
	var c hostClock
	l := a.Layout()
	lk, _ := l.Link(0, 1)
	mid := lk.Seg.At(0.5)
	n := lk.Seg.B.Sub(lk.Seg.A).Unit().Perp()
	from, to := mid.Add(n.Mul(40)), mid.Sub(n.Mul(40))
	press(a, &c, from, to, 6)
	w := a.World()
	if w.Link(1, 2).Up || w.Link(2, 1).Up {
		t.Fatalf("a stroke across link A–B left it up; actions %v", w.Actions())
	}
	if !w.Link(1, 3).Up || !w.Link(2, 3).Up {
		t.Error("a stroke across one link cut others")
	}
	if f := a.Frame(); f.Links[0].State != frame.LinkCut {
		t.Errorf("link A–B is drawn %v, want cut", f.Links[0].State)
	}
	press(a, &c, to, from, 6)
	if !w.Link(1, 2).Up || !w.Link(2, 1).Up {
		t.Errorf("a second stroke did not restore A–B; actions %v", w.Actions())
	}
}

func TestDraggingANodeOutPartitionsItAndBackReconnects(t *testing.T) {
	a := newApp(t, 5, 1280, 800)
	a.clock.SetPaused(true)
	var c hostClock
	l := a.Layout()
	node := 2
	center := l.Nodes[node].Center
	out := center.Add(center.Sub(l.Ring.C).Unit().Mul(l.NodeRadius * 4))
	press(a, &c, center, out, 10)
	x := lastAction(t, a)
	if x.Do != raftcore.DoPartition || len(x.Groups) != 2 || len(x.Groups[1]) != 1 || x.Groups[1][0] != node+1 {
		t.Fatalf("dragging C out recorded %v, want a partition with C alone", x)
	}
	s := a.State()
	if s.Layout != "partition" || len(s.Sides) != 2 {
		t.Fatalf("the layout is %q with sides %v, want the two sides of the partition", s.Layout, s.Sides)
	}
	f := a.Frame()
	if len(f.Zones) != 3 {
		t.Fatalf("%d zones drawn, want two sides and an empty one to split further", len(f.Zones))
	}
	if !strings.Contains(f.Zones[0].Label.Text, "a majority") || !strings.Contains(f.Zones[1].Label.Text, "no majority") {
		t.Errorf("zone labels %q and %q do not say which side has a majority", f.Zones[0].Label.Text, f.Zones[1].Label.Text)
	}
	// Drag another machine into the lone machine's side: a 3/2 split.
	l = a.Layout()
	b := l.Nodes[1].Center
	press(a, &c, b, l.Zones[1].Body.Center(), 10)
	if s := a.State(); len(s.Sides) != 2 || len(s.Sides[1]) != 2 {
		t.Fatalf("after moving B the sides are %v, want {A,D,E} and {B,C}", s.Sides)
	}
	// Moving everyone back into one side heals the network.
	for _, i := range []int{1, 2} {
		l = a.Layout()
		press(a, &c, l.Nodes[i].Center, l.Zones[0].Body.Center(), 10)
	}
	if s := a.State(); s.Layout != "ring" {
		t.Errorf("with every machine on one side the layout is %q, want the ring back", s.Layout)
	}
	if x := lastAction(t, a); x.Do != raftcore.DoHeal {
		t.Errorf("the last move recorded %v, want heal", x)
	}
}

func TestNodeMenuActions(t *testing.T) {
	a := newApp(t, 3, 1280, 800)
	a.clock.SetPaused(true)
	var c hostClock
	center := a.Layout().Nodes[1].Center
	press(a, &c, center, center, 0)
	if a.State().Menu != "node:2" || a.Selected() != 1 {
		t.Fatalf("clicking B opened menu %q with selection %d", a.State().Menu, a.Selected())
	}
	for _, tc := range []struct {
		id   string
		want raftcore.Action
	}{
		{"node.pause", raftcore.Action{Do: raftcore.DoPause, Node: 2}},
		{"node.resume", raftcore.Action{Do: raftcore.DoResume, Node: 2}},
		{"node.slow:20", raftcore.Action{Do: raftcore.DoSlow, Node: 2, MsPerMessage: 20}},
		{"node.drift:2", raftcore.Action{Do: raftcore.DoDrift, Node: 2, Rate: 2}},
		{"node.timeout", raftcore.Action{Do: raftcore.DoTimeout, Node: 2}},
		{"node.read:lease", raftcore.Action{Do: raftcore.DoRead, Node: 2, Key: ClientKey, Mode: raftcore.ReadLease}},
		{"node.crash", raftcore.Action{Do: raftcore.DoCrash, Node: 2}},
		{"node.restart", raftcore.Action{Do: raftcore.DoRestart, Node: 2}},
	} {
		// Press the control where it is drawn, as a reader would.
		r, ok := widgetRect(a, tc.id)
		if !ok {
			t.Fatalf("the menu has no %s control; it has %v", tc.id, widgetIDs(a))
		}
		press(a, &c, r.Center(), r.Center(), 0)
		got := lastAction(t, a)
		got.AtMs, got.AfterEvents = 0, 0
		if got.Do != tc.want.Do || got.Node != tc.want.Node || got.MsPerMessage != tc.want.MsPerMessage || got.Rate != tc.want.Rate || got.Mode != tc.want.Mode || got.Key != tc.want.Key {
			t.Errorf("%s recorded %+v, want %+v", tc.id, got, tc.want)
		}
	}
	// Ids name controls; they are not read for values.
	if err := a.Click("node.slow:7"); err == nil || !strings.Contains(err.Error(), "no control") {
		t.Errorf("an id no control has gave %v, want an error saying so", err)
	}
}

func widgetRect(a *App, id string) (viz.Rect, bool) {
	for _, w := range a.State().Screen.Widgets {
		if w.ID == id {
			return w.Rect, true
		}
	}
	return viz.Rect{}, false
}

func widgetIDs(a *App) []string {
	var ids []string
	for _, w := range a.State().Screen.Widgets {
		ids = append(ids, w.ID)
	}
	return ids
}

func TestLinkMenuOneWayLatencyAndLoss(t *testing.T) {
	a := newApp(t, 3, 1280, 800)
	a.clock.SetPaused(true)
	var c hostClock
	lk, _ := a.Layout().Link(0, 2)
	p := lk.Seg.At(0.3)
	press(a, &c, p, p, 0)
	if a.State().Menu != "link:1-3" {
		t.Fatalf("clicking link A–C opened %q", a.State().Menu)
	}
	for _, id := range []string{"link.ij", "link.latency:200-400", "link.loss:0.2"} {
		if err := a.Click(id); err != nil {
			t.Fatalf("%s: %v", id, err)
		}
	}
	w := a.World()
	if w.Link(1, 3).Up || !w.Link(3, 1).Up {
		t.Error("cutting A→C one way did not leave exactly C→A up")
	}
	if l := w.Link(1, 3); l.LatencyMinUs != 200_000 || l.LatencyMaxUs != 400_000 || l.Loss != 0.2 {
		t.Errorf("link A→C is %+v, want 200–400 ms and 20%% loss", l)
	}
	f := a.Frame()
	var v frame.LinkView
	for _, x := range f.Links {
		if x.ID == (viz.LinkID{I: 0, J: 2}) {
			v = x
		}
	}
	if v.State != frame.LinkOneWay || v.Up != [2]bool{false, true} || !v.Lossy || !v.Slow || !strings.Contains(v.Label.Text, "20% loss") {
		t.Errorf("link A–C is drawn %+v, want one-way, lossy and slow with its figures", v)
	}
	if err := a.Click("link.ij"); err != nil {
		t.Fatal(err)
	}
	if !w.Link(1, 3).Up {
		t.Error("the one-way control did not restore A→C the second time")
	}
}

func TestMessageInspectAndDrop(t *testing.T) {
	a := newApp(t, 3, 1280, 800)
	var c hostClock
	untilLeader(t, a, &c)
	a.clock.SetPaused(true)
	f := a.Frame()
	var m frame.MsgView
	for _, x := range f.Messages {
		if x.Fall == 0 {
			m = x
			break
		}
	}
	if m.ID == 0 {
		for i := 0; i < 50 && m.ID == 0; i++ {
			a.Command(viz.CmdStep)
			for _, x := range a.Frame().Messages {
				if x.Fall == 0 {
					m = x
					break
				}
			}
		}
	}
	if m.ID == 0 {
		t.Fatal("no message in flight to click")
	}
	press(a, &c, m.Pos, m.Pos, 0)
	if a.State().Menu != "message:"+words.Utoa(m.ID) {
		t.Fatalf("clicking message %d opened %q", m.ID, a.State().Menu)
	}
	if err := a.Click("msg.drop"); err != nil {
		t.Fatal(err)
	}
	if x := lastAction(t, a); x.Do != raftcore.DoDrop || x.ID != m.ID {
		t.Fatalf("drop recorded %v, want drop of %d", x, m.ID)
	}
	falling := false
	for _, x := range a.Frame().Messages {
		if x.ID == m.ID && x.Fall == 0 {
			t.Error("the dropped message is still drawn on the wire")
		}
		if x.ID == m.ID && x.Fall > 0 {
			falling = true
		}
	}
	if !falling {
		t.Error("the dropped message does not fall away")
	}
}

func TestMessagesAreDrawnWhereTheyAreOnTheWire(t *testing.T) {
	a := newApp(t, 5, 1280, 800)
	var c hostClock
	untilLeader(t, a, &c)
	w := a.World()
	f := a.Frame()
	now := w.Now()
	byID := map[uint64]raftcore.Message{}
	for _, m := range w.InFlight() {
		byID[m.ID] = m
	}
	checked := 0
	for _, v := range f.Messages {
		if v.Fall > 0 {
			continue
		}
		m, ok := byID[v.ID]
		if !ok {
			t.Fatalf("message %d is drawn but not in flight", v.ID)
		}
		lk, _ := a.Layout().Link(int(m.From)-1, int(m.To)-1)
		lane := lk.Lane(int(m.From)-1, int(m.To)-1)
		frac := float64(now-m.SendUs) / float64(m.DeliverUs-m.SendUs)
		want := lane.At(frac)
		if v.Pos.Dist(want) > 1e-6 {
			t.Errorf("message %d is drawn at %v, want %v (%.2f of the way from %d to %d)", v.ID, v.Pos, want, frac, m.From, m.To)
		}
		checked++
	}
	if checked == 0 {
		t.Fatal("no message was drawn")
	}
}

func TestSnapshotJSON(t *testing.T) {
	a := newApp(t, 5, 1280, 800)
	var c hostClock
	untilLeader(t, a, &c)
	a.Key("c")
	data, err := a.SnapshotJSON()
	if err != nil {
		t.Fatal(err)
	}
	var s map[string]any
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatalf("snapshot is not JSON: %v", err)
	}
	for _, k := range []string{"now_ms", "paused", "speed", "machines", "links", "in_flight", "ops", "violations", "contract", "answers", "marks", "screen", "trace_hash", "actions"} {
		if _, ok := s[k]; !ok {
			t.Errorf("snapshot has no %q", k)
		}
	}
	var snap Snapshot
	if err := json.Unmarshal(data, &snap); err != nil {
		t.Fatal(err)
	}
	if len(snap.Machines) != 5 || len(snap.Links) != 20 {
		t.Errorf("%d machines and %d links, want 5 and 20", len(snap.Machines), len(snap.Links))
	}
	if snap.Leader == 0 || snap.Machines[snap.Leader-1].Role != "leader" {
		t.Errorf("leader %d, machines %+v", snap.Leader, snap.Machines)
	}
	if len(snap.Ops) != 1 || snap.Ops[0].Kind != "write" {
		t.Errorf("ops %+v, want the one write", snap.Ops)
	}
	for _, m := range snap.Machines {
		if m.R <= 0 || m.X <= 0 || m.Y <= 0 {
			t.Errorf("machine %d has no place on screen: %+v", m.ID, m)
		}
	}
	if _, ok := widgetRect(a, "cmd:play-pause"); !ok {
		t.Error("the snapshot lists no play button")
	}
}

func TestCmdBridge(t *testing.T) {
	a := newApp(t, 3, 1280, 800)
	for _, tc := range []struct {
		name string
		args []string
		err  string
	}{
		{"speed", []string{"1/10x"}, ""},
		{"speed", []string{"11"}, "not a speed from 0.01 to 10"},
		{"select", []string{"2"}, ""},
		{"select", []string{"7"}, "use 1 to 3"},
		{"nodes", []string{"7"}, ""},
		{"nodes", []string{"12"}, "nodes: use 1 to 9"},
		{"protocol", []string{"failover"}, ""},
		{"protocol", []string{"paxos"}, "protocol"},
		{"option", []string{"prevote", "maybe"}, "not on or off"},
		{"panel", []string{"Safety"}, ""},
		{"seek", []string{"-3"}, "not a time"},
		{"fly", nil, "is not a command"},
		{"key", []string{"z"}, "does nothing"},
		{"click", []string{"nope"}, "no control"},
	} {
		_, err := a.Cmd(tc.name, tc.args...)
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%s %v: %v", tc.name, tc.args, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s %v gave %v, want an error with %q", tc.name, tc.args, err, tc.err)
		}
	}
	s := a.State()
	if s.Nodes != 7 || s.Protocol != "failover" || s.SpeedLabel != "1/10x" {
		t.Errorf("after the commands: %d machines, %s, speed %s", s.Nodes, s.Protocol, s.SpeedLabel)
	}
	if err := a.Act([]byte(`{"do":"crash","node":9}`)); err == nil || !strings.Contains(err.Error(), "node: 9 is out of range") {
		t.Errorf("a bad action gave %v, want the field named", err)
	}
	if err := a.Act([]byte(`{"do":"crash","nod":1}`)); err == nil || !strings.Contains(err.Error(), "nod") {
		t.Errorf("an unknown field gave %v, want it named", err)
	}
	if err := a.Act([]byte(`{"do":"crash","node":1}`)); err != nil || a.World().Status(1) != raftcore.StatusCrashed {
		t.Errorf("a good action: %v, status %v", err, a.World().Status(1))
	}
}

func TestStepAndStepBack(t *testing.T) {
	a := newApp(t, 3, 1280, 800)
	var c hostClock
	untilLeader(t, a, &c)
	a.Command(viz.CmdPlayPause)
	before := a.World().TraceCount()
	a.Command(viz.CmdStep)
	after, hash := a.World().TraceCount(), a.World().TraceHash()
	if after <= before {
		t.Fatal("a step changed nothing visible")
	}
	a.Command(viz.CmdStepBack)
	if got := a.World().TraceCount(); got > before {
		t.Errorf("after a step and a step back the trace has %d events, want at most the %d before the step", got, before)
	}
	// Stepping forward again replays exactly the same change.
	for a.World().TraceCount() < after {
		if err := a.Command(viz.CmdStep); err != nil {
			t.Fatal(err)
		}
	}
	if a.World().TraceCount() != after || a.World().TraceHash() != hash {
		t.Errorf("stepping again reached %d events, hash %x; want %d, %x", a.World().TraceCount(), a.World().TraceHash(), after, hash)
	}
	if !a.Paused() {
		t.Error("stepping should leave the app paused")
	}
}

func TestShareLinkReopensTheSameRun(t *testing.T) {
	a := newApp(t, 3, 1280, 800)
	var c hostClock
	untilLeader(t, a, &c)
	a.Key("c")
	c.run(a, time.Second)
	link := a.ShareLink()
	_, payload, ok := strings.Cut(link, "link=")
	if !ok {
		t.Fatalf("link %q has no payload", link)
	}
	p := viz.DefaultParams()
	p.Link = payload
	b, err := New(Options{Params: p, Width: 1280, Height: 800})
	if err != nil {
		t.Fatal(err)
	}
	if b.World().TraceHash() != a.World().TraceHash() || b.World().Now() != a.World().Now() {
		t.Errorf("the link opened at %v with hash %x, want %v and %x", b.World().Now(), b.World().TraceHash(), a.World().Now(), a.World().TraceHash())
	}
	if !b.Paused() {
		t.Error("a shared run should open paused at its moment")
	}
	p.Link = "not-a-link"
	c2, err := New(Options{Params: p, Width: 1280, Height: 800})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(c2.State().Banner, "link") {
		t.Errorf("a bad link left the banner %q, want it to say the link could not be opened", c2.State().Banner)
	}
}

func TestImportAndExportSchedule(t *testing.T) {
	a := newApp(t, 3, 1280, 800)
	var c hostClock
	untilLeader(t, a, &c)
	a.Key("c")
	c.run(a, 500*time.Millisecond)
	data, err := a.ExportSchedule()
	if err != nil {
		t.Fatal(err)
	}
	b := newApp(t, 5, 1280, 800)
	if err := b.ImportSchedule(data); err != nil {
		t.Fatal(err)
	}
	if b.World().TraceHash() != a.World().TraceHash() || b.World().Size() != 3 {
		t.Error("the imported run differs from the exported one")
	}
	if err := b.ImportSchedule([]byte(`{"seed":1,"until_ms":10,"actions":[{"do":"crash","node":0}]}`)); err == nil || !strings.Contains(err.Error(), "actions[0]") {
		t.Errorf("a bad schedule gave %v, want the action named", err)
	}
	if b.World().Size() != 3 {
		t.Error("a failed import replaced the run")
	}
	trace, err := a.ExportTrace()
	if err != nil || len(trace) == 0 || !strings.Contains(string(trace), `"kind"`) {
		t.Errorf("trace export: %v, %d bytes", err, len(trace))
	}
}

func TestActingInThePastForksAndTheOldRunComesBack(t *testing.T) {
	a := newApp(t, 3, 1280, 800)
	var c hostClock
	untilLeader(t, a, &c)
	c.run(a, time.Second)
	head := a.World().Now()
	headHash := a.World().TraceHash()
	a.Cmd("pause")
	a.Cmd("seek", "500")
	if a.World().Now() != 500_000 {
		t.Fatalf("seek to 500 ms reached %v", a.World().Now())
	}
	if _, ok := widgetRect(a, "timeline.ghost"); ok {
		t.Fatal("an other-run button before any fork")
	}
	if err := a.Act([]byte(`{"do":"crash","node":1}`)); err != nil {
		t.Fatal(err)
	}
	if a.session.HeadUs() != 500_000 {
		t.Errorf("after acting at 500 ms the head is %v: the future should be dropped", a.session.HeadUs())
	}
	r, ok := widgetRect(a, "timeline.ghost")
	if !ok {
		t.Fatal("no button to go back to the abandoned run")
	}
	press(a, &c, r.Center(), r.Center(), 0)
	a.session.GoTo(head)
	if a.World().TraceHash() != headHash {
		t.Error("the run brought back is not the one left")
	}
}

// TestShareLinkKeepsTheSpeed: a link opens at the speed the reader chose,
// the default of the parameters (1x) included, which a page without a speed
// would otherwise replace by DefaultSpeed.
func TestShareLinkKeepsTheSpeed(t *testing.T) {
	for _, speed := range []float64{1, 0.25, 4} {
		a := newApp(t, 3, 1280, 800)
		require.NoError(t, a.Do(command.SetSpeed{Speed: speed}))
		link := a.ShareLink()
		_, query, _ := strings.Cut(link, "?")
		params, problems := viz.ParseQuery(query, nil)
		require.Empty(t, problems)
		b, err := New(Options{Params: params, Width: 1280, Height: 800,
			SpeedGiven: SpeedChosen(strings.Split(query, "&"))})
		require.NoError(t, err)
		assert.Equal(t, speed, b.Speed(), "the link %s", link)
	}
}

// TestLatencyIsWrittenOnce: a link slowed to one latency reads "400 ms"
// on the stage and in its menu, not "400–400 ms".
func TestLatencyIsWrittenOnce(t *testing.T) {
	a := newApp(t, 3, 1280, 800)
	require.NoError(t, a.Do(command.Act{Action: raftcore.Action{Do: raftcore.DoLatency, From: 1, To: 2, LatencyMs: []float64{400, 400}}}))
	var labels []string
	for _, l := range a.Frame().Links {
		if l.Label.Text != "" {
			labels = append(labels, l.Label.Text)
		}
	}
	assert.Equal(t, []string{"400 ms"}, labels)
	assert.Equal(t, "20–40 ms", words.Latency(20_000, 40_000))
}

// openBugLink opens, in an app of the given size, a share link of three
// machines running with bug, one second in.
func openBugLink(t *testing.T, bug raftcore.Bug, embed bool, w, h float64) *App {
	t.Helper()
	cfg := raftcore.DefaultConfig()
	cfg.Nodes = 3
	cfg.Bugs = bug
	payload, err := timeline.EncodeLink(timeline.Link{Config: cfg, PosUs: int64(time.Second / time.Microsecond)})
	if err != nil {
		t.Fatal(err)
	}
	p := viz.DefaultParams()
	p.Link, p.Embed = payload, embed
	a, err := New(Options{Params: p, Width: w, Height: h})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestALinkThatBreaksRaftOnPurposeSaysSo(t *testing.T) {
	a := openBugLink(t, raftcore.BugVoteTwice, false, 1280, 800)
	if a.World().Config().Bugs != raftcore.BugVoteTwice {
		t.Fatalf("the link opened with bugs %v, want vote-twice", a.World().Config().Bugs)
	}
	if b := a.State().Banner; !strings.Contains(b, "on purpose") || !strings.Contains(b, "vote-twice") {
		t.Errorf("a link carrying vote-twice opened with the banner %q, want it to say Raft is broken on purpose and how", b)
	}
}

// TestAnEmbeddedRunShowsTheWholeWarning: embedded in a column of a page,
// the warning is wrapped in the caption, not cut on its title line.
func TestAnEmbeddedRunShowsTheWholeWarning(t *testing.T) {
	a := openBugLink(t, raftcore.BugReadWithoutConfirm, true, 720, 450)
	f := a.Frame()
	if f.Caption == nil {
		t.Fatal("no caption in an embedded run")
	}
	var words []string
	for _, l := range append([]frame.TextItem{f.Caption.Title}, f.Caption.Lines...) {
		words = append(words, l.Text)
	}
	if all := strings.Join(words, " "); !strings.Contains(all, "read-without-confirm") || !strings.Contains(all, "not Raft.") {
		t.Errorf("the caption says %q, want the whole warning", all)
	}
	assert.Empty(t, f.Overflows(a.measure), "words cut")
}

// TestTheReadBugsCounterexampleOpensMarkedStale opens the explorer's
// shortest run for read-without-confirm (docs/examples/read-without-confirm.json)
// from a share link. Every action in it happens at time 0; the client panel
// still knows the write was acknowledged before the read was sent, and marks
// the read stale.
func TestTheReadBugsCounterexampleOpensMarkedStale(t *testing.T) {
	a, s := openExampleLink(t, "read-without-confirm.json")
	w, err := s.Run()
	require.NoError(t, err)
	require.Equal(t, w.TraceHash(), a.World().TraceHash())
	text := panelText(t, a, "Client requests")
	assert.Contains(t, text, "#2 ")
	assert.Contains(t, text, "stale: missed #1", "the read is marked: %s", text)
}

// TestABrokenRunStillSaysSoAfterTheBanner: the banner that warns of a
// deliberate bug gives way to the next note, but the caption of an
// embedded run (column or strip) and the free-play panel keep naming the
// bug, and no word of it is cut.
func TestABrokenRunStillSaysSoAfterTheBanner(t *testing.T) {
	for _, size := range []struct {
		embed bool
		w, h  float64
	}{{true, 720, 450}, {true, 600, 450}, {true, 400, 700}, {true, 350, 560}, {false, 1280, 800}} {
		a := openBugLink(t, raftcore.BugVoteTwice, size.embed, size.w, size.h)
		require.NoError(t, a.Command(viz.CmdPrevEvent))
		f := a.Frame()
		assert.NotContains(t, a.State().Banner, "on purpose", "%vx%v: the step's note should have replaced the banner", size.w, size.h)
		var words []string
		if f.Caption != nil {
			for _, l := range append([]frame.TextItem{f.Caption.Title}, f.Caption.Lines...) {
				words = append(words, l.Text)
			}
		}
		for _, p := range f.Panels {
			for _, l := range p.Lines {
				words = append(words, l.Text)
			}
		}
		all := strings.Join(words, " ")
		assert.Contains(t, all, "Broken on purpose: vote-twice.", "%vx%v shows %q", size.w, size.h, all)
		assert.Empty(t, f.Overflows(a.measure), "%vx%v: words cut", size.w, size.h)
	}
}
