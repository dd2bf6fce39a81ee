package app

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"raftlab/raftcore"
	"raftlab/viz"
	"raftlab/viz/app/command"
	"raftlab/viz/frame"
	"raftlab/viz/words"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// nodeLease is the node-lease example's schedule: three members, three
// worker machines, one of which crashes while another is cut off.
func nodeLease(t *testing.T) []byte { return example(t, "node-lease") }

// example is the schedule docs/examples/name.json.
func example(t *testing.T, name string) []byte {
	t.Helper()
	js, err := os.ReadFile("../../docs/examples/" + name + ".json")
	require.NoError(t, err)
	return js
}

// workersApp opens the run of schedule js at w x h.
func workersApp(t *testing.T, js []byte, w, h float64, embed bool) *App {
	t.Helper()
	p := viz.DefaultParams()
	p.Embed = embed
	a, err := New(Options{Params: p, Width: w, Height: h, SpeedGiven: true})
	require.NoError(t, err)
	require.NoError(t, a.Do(command.OpenRun{JSON: string(js)}))
	a.clock.SetPaused(true)
	require.NoError(t, a.Do(command.CloseBanner{}))
	return a
}

// TestWorkerFramesAreReadable opens the node-lease example on a laptop
// and in a 720x450 and a 350x560 figure and builds its frames at moments
// before, during and after its worker's crash and partition: every word
// stays on the canvas.
func TestWorkerFramesAreReadable(t *testing.T) {
	for _, sz := range []struct {
		w, h  float64
		embed bool
	}{{1280, 800, false}, {720, 450, true}, {350, 560, true}} {
		a := workersApp(t, nodeLease(t), sz.w, sz.h, sz.embed)
		kubeMsgs := 0
		for _, at := range []int64{1_000_000, 20_000_000, 31_000_000, 60_000_000, 121_000_000, 150_000_000} {
			require.NoError(t, a.Do(command.Seek{AtUs: at}))
			f := a.Frame()
			where := fmt.Sprintf("%vx%v at %dus", sz.w, sz.h, at)
			checkWorkerFrame(t, where, a, f, 3, 3)
			for _, m := range f.Messages {
				if m.From >= 3 || m.To >= 3 {
					kubeMsgs++
				}
			}
		}
		assert.Positive(t, kubeMsgs, "%vx%v: messages between workers and members are drawn", sz.w, sz.h)
	}
}

// TestMostWorkersFit: five members and ten workers fit on a laptop and in
// a 720x450 and a 350x560 figure, with a worker crashed, one paused and
// one cut off.
func TestMostWorkersFit(t *testing.T) {
	js := []byte(`{"nodes":5,"workers":10,"seed":2,"kube":{"pods":6},"until_ms":40000,"actions":[
		{"at_ms":10000,"do":"crash","node":7},{"at_ms":10000,"do":"pause","node":15},
		{"at_ms":12000,"do":"partition","groups":[[1,2,3,4,5,6,7,8,9,10,11,12,13,14],[15]]}]}`)
	for _, sz := range []struct {
		w, h  float64
		embed bool
	}{{1280, 800, false}, {720, 450, true}, {350, 560, true}, {390, 844, false}} {
		a := workersApp(t, js, sz.w, sz.h, sz.embed)
		for _, at := range []int64{2_000_000, 20_000_000, 40_000_000} {
			require.NoError(t, a.Do(command.Seek{AtUs: at}))
			f := a.Frame()
			checkWorkerFrame(t, fmt.Sprintf("%vx%v at %dus", sz.w, sz.h, at), a, f, 5, 10)
			if at == 40_000_000 {
				assert.True(t, f.Workers.Boxes[9].Paused, "%vx%v: worker-10 is paused", sz.w, sz.h)
				assert.NotEmpty(t, f.Workers.Boxes[9].Lines[0].Text, "%vx%v: the paused worker-10's condition", sz.w, sz.h)
			}
		}
	}
}

// TestShortWorkerBoxesShowTheCondition: on a 350x560 page (panels below
// the stage) ten workers' boxes have room for one line, which holds each
// one's number and condition, the paused and crashed ones' too.
func TestShortWorkerBoxesShowTheCondition(t *testing.T) {
	js := []byte(`{"nodes":5,"workers":10,"seed":2,"kube":{"pods":6},"until_ms":40000,"actions":[
		{"at_ms":10000,"do":"crash","node":7},{"at_ms":10000,"do":"pause","node":15}]}`)
	a := workersApp(t, js, 350, 560, false)
	f := a.Frame()
	require.Len(t, f.Workers.Boxes, 10)
	for i, b := range f.Workers.Boxes {
		assert.Equal(t, fmt.Sprint(i+1), b.Name.Text)
		assert.Contains(t, []string{words.NodeReady, words.NodeNotReady}, b.Lines[0].Text, "worker %d", i+1)
		assert.True(t, b.Rect.Inset(-1).ContainsRect(textBox(a, b.Lines[0])), "worker %d", i+1)
	}
	assert.True(t, f.Workers.Boxes[9].Paused)
	assert.True(t, f.Workers.Boxes[1].Crashed)
}

// checkWorkerFrame checks a frame of a world with n members and k
// workers: each worker has its box, name and condition, inside the
// canvas, clear of the other boxes and of the members' discs, and every
// word the cluster shows is inside the canvas.
func checkWorkerFrame(t *testing.T, where string, a *App, f *frame.Frame, n, k int) {
	t.Helper()
	canvas := viz.XYWH(0, 0, f.W, f.H)
	l := a.Layout()
	require.Len(t, f.Workers.Boxes, k, where)
	require.Len(t, f.Workers.Links, n*k, where)
	var texts []frame.TextItem
	for i, b := range f.Workers.Boxes {
		assert.Equal(t, n+i, b.Index, where)
		assert.True(t, canvas.ContainsRect(b.Rect), "%s: worker %d's box %v leaves the canvas", where, i, b.Rect)
		assert.NotEmpty(t, b.Name.Text, "%s: worker %d has no name", where, i)
		cond, _, _ := strings.Cut(b.Lines[0].Text, " · ")
		assert.Contains(t, []string{words.NodeReady, words.NodeNotReady}, cond, "%s: worker %d's condition", where, i)
		for _, o := range f.Workers.Boxes[i+1:] {
			assert.False(t, b.Rect.Overlaps(o.Rect), "%s: worker boxes %v and %v overlap", where, b.Rect, o.Rect)
		}
		for j := range l.Nodes {
			c := l.NodeCircle(j)
			px := min(max(c.C.X, b.Rect.X), b.Rect.Right())
			py := min(max(c.C.Y, b.Rect.Y), b.Rect.Bottom())
			assert.False(t, c.C.Dist(viz.Pt(px, py)) < c.R, "%s: worker %d's box overlaps machine %d", where, i, j)
		}
		for _, tx := range append([]frame.TextItem{b.Name}, b.Lines[:]...) {
			if tx.Text != "" {
				assert.True(t, b.Rect.Inset(-1).ContainsRect(textBox(a, tx)), "%s: %q leaves worker %d's box", where, tx.Text, i)
			}
		}
		texts = append(texts, b.Name, b.Lines[0], b.Lines[1])
		assert.False(t, b.Rect.Overlaps(f.Logs.Key.Rect), "%s: the logs' key %v lies on worker %d", where, f.Logs.Key.Rect, i)
		if lb := f.Workers.Label; lb.Text != "" {
			assert.False(t, b.Rect.Overlaps(textBox(a, lb)), "%s: the band's label lies on worker %d", where, i)
		}
	}
	texts = append(texts, f.Workers.Label, f.Workers.Control)
	for _, n := range f.Nodes {
		texts = append(texts, n.Name, n.Lines[0], n.Lines[1])
		texts = append(texts, n.Badges...)
	}
	for _, m := range f.Messages {
		texts = append(texts, m.Label)
	}
	for _, tx := range texts {
		if tx.Text != "" && !canvas.ContainsRect(textBox(a, tx)) {
			t.Errorf("%s: %q %v leaves the canvas", where, tx.Text, textBox(a, tx))
		}
	}
	checkFrameWords(t, where, a, f)
}

// panelOfKind is the words of panel kind k as the frame shows it, and
// its title ("" when it is not shown).
func panelOfKind(a *App, k viz.PanelKind) (title, text string) {
	for _, p := range a.State().Screen.Panels {
		if p.Kind == k.Title() {
			return p.Title, strings.Join(p.Text, "\n")
		}
	}
	return "", ""
}

// leaseGauges are the Node panel's gauges.
func leaseGauges(a *App) []frame.Gauge {
	for _, p := range a.Frame().Panels {
		if p.Kind == viz.PanelNode {
			return p.Gauges
		}
	}
	return nil
}

// TestLeasesPanelShowsEachWorkersLease: with worker machines the Node
// panel is the node Leases panel: each worker's condition, kubelet and
// Pods, a gauge of how long the controller has gone without seeing its
// Lease renewed against the grace period, the controller's zone state
// and the checks' counts. The crashed worker's gauge runs full and it is
// NotReady once its grace period has passed. The Safety panel no longer
// lists them, and a run without workers has no such panel.
func TestLeasesPanelShowsEachWorkersLease(t *testing.T) {
	a := workersApp(t, nodeLease(t), 1280, 800, false)
	require.NoError(t, a.Do(command.Seek{AtUs: 20_000_000}))
	a.Frame()
	title, text := panelOfKind(a, viz.PanelNode)
	assert.Equal(t, words.LeasesTitle, title)
	for _, n := range []string{"worker-1", "worker-2", "worker-3"} {
		assert.Contains(t, text, n+"\n")
	}
	assert.Equal(t, 3, strings.Count(text, words.NodeReady+" · kubelet up · web-"), "each worker's condition, kubelet and Pod")
	assert.Contains(t, text, words.LeaseZone("Normal"))
	assert.Contains(t, text, "spurious NotReady 0 · slow NotReady 0")
	gs := leaseGauges(a)
	require.Len(t, gs, 3)
	for i, g := range gs {
		age, ok := a.World().KubeLeaseAge(raftcore.NodeID(4 + i))
		require.True(t, ok)
		assert.InDelta(t, float64(age)/50e6, g.Fill, 1e-9, "worker %d's gauge", i+1)
		assert.Equal(t, frame.ToneGood, g.Tone, "worker %d renews", i+1)
	}
	_, safety := panelOfKind(a, viz.PanelSafety)
	assert.NotContains(t, safety, words.LeasesTitle)

	require.NoError(t, a.Do(command.Seek{AtUs: 110_000_000}))
	a.Frame()
	_, text = panelOfKind(a, viz.PanelNode)
	assert.Contains(t, text, words.NodeNotReady+" · kubelet crashed · no Pods")
	gs = leaseGauges(a)
	assert.Greater(t, gs[0].Fill, 1.0, "the crashed worker's gauge")
	assert.Equal(t, frame.ToneBad, gs[0].Tone)

	plain := newApp(t, 3, 1280, 800)
	plain.Frame()
	assert.NotContains(t, allPanels(plain), words.LeasesTitle)
	assert.Empty(t, leaseGauges(plain))
}

// TestWorkerMenu: a tap on a worker's box opens its menu (no member is
// selected), which offers crash or restart, pause or resume, its speed
// per message and its clock's rate; each is a recorded action on the worker, and a verb a
// worker has no use for (a Raft timeout) is refused.
func TestWorkerMenu(t *testing.T) {
	a := workersApp(t, nodeLease(t), 1280, 800, false)
	a.Frame()
	box := a.lay().Workers[2]
	h := a.lay().HitTest(box.Rect.Center(), nil, viz.HitOptions{})
	require.Equal(t, viz.HitNode, h.Kind)
	require.Equal(t, 5, h.Node)
	in := a.tapIntent(h)
	require.Equal(t, command.OpenMachine{Node: 5}, in)
	require.NoError(t, a.Do(in))
	f := a.Frame()
	require.NotNil(t, f.Menu, "the worker's menu")
	assert.Equal(t, words.Worker("worker-3"), f.Menu.Title.Text)
	assert.Equal(t, -1, a.view.Selected())
	var ids []string
	for _, r := range f.Menu.Rows {
		for _, w := range r.Widgets {
			ids = append(ids, w.ID)
		}
	}
	assert.Equal(t, []string{"node.pause", "node.crash", "node.slow:1", "node.slow:20", "node.slow:200", "node.drift:0.5", "node.drift:1", "node.drift:2"}, ids)

	before := len(a.World().Actions())
	// The menu's buttons are command lines, as a reader may type them.
	lines := map[string]string{}
	for _, r := range f.Menu.Rows {
		for _, w := range r.Widgets {
			lines[w.ID] = w.Do
		}
	}
	require.NoError(t, a.tryLine(lines["node.slow:200"]), lines["node.slow:200"])
	assert.Equal(t, 200.0, a.World().Slow(6))
	f = a.Frame()
	for _, r := range f.Menu.Rows {
		for _, w := range r.Widgets {
			if w.ID == "node.slow:200" {
				assert.True(t, w.On, "the chosen speed is shown chosen")
			}
		}
	}
	require.NoError(t, a.tryLine(lines["node.crash"]), lines["node.crash"])
	assert.Equal(t, raftcore.StatusCrashed, a.World().Status(6))
	require.NoError(t, a.Do(command.ActOnMachine{Node: 5, Verb: raftcore.DoDrift, Value: 2}))
	assert.Equal(t, 2.0, a.World().Drift(6))
	assert.Len(t, a.World().Actions(), before+3, "recorded")
	assert.Error(t, a.Do(command.ActOnMachine{Node: 5, Verb: raftcore.DoTimeout}))
	assert.Error(t, a.tryLine("timeout worker-3"))
	assert.Error(t, a.tryLine("isolate worker-3"))
	assert.Error(t, a.tryLine("select worker-3"))
	require.NoError(t, a.tryLine("resume worker-1"), "a worker by its node name")
	f = a.Frame()
	assert.True(t, f.Workers.Boxes[2].Crashed)
	checkWorkerFrame(t, "after the crash", a, f, 3, 3)
}

// TestCutWorkerLink: a cut across a link between a member and a worker
// (the stroke's gesture names it as it names the members' links) is a
// recorded cut the worker's link then shows, and a second one restores it.
func TestCutWorkerLink(t *testing.T) {
	a := workersApp(t, nodeLease(t), 1280, 800, false)
	a.Frame()
	id := viz.LinkID{I: 0, J: 3}
	require.NoError(t, a.Do(command.CutLinks{Links: []viz.LinkID{id}}))
	assert.False(t, a.World().Link(1, 4).Up)
	assert.False(t, a.World().Link(4, 1).Up)
	f := a.Frame()
	for _, l := range f.Workers.Links {
		want := frame.LinkUp
		if l.ID == id {
			want = frame.LinkCut
		}
		assert.Equal(t, want, l.State, "%v", l.ID)
	}
	require.NoError(t, a.Do(command.CutLinks{Links: []viz.LinkID{id}}))
	assert.True(t, a.World().Link(1, 4).Up)
}

// TestKubeletCallsAreTold: the tag and the sentence of a kubelet's
// message say which call it is, a Lease renewal or a listing of its Pods,
// and whether the answer went through; both calls and both answers are
// seen in the node-lease example's first minute.
func TestKubeletCallsAreTold(t *testing.T) {
	a := workersApp(t, nodeLease(t), 1280, 800, false)
	v := a.voice()
	seen := map[string]bool{}
	for at := int64(0); at < 25_000_000; at += 20_000 {
		require.NoError(t, a.Do(command.Seek{AtUs: at}))
		for _, m := range a.World().InFlight() {
			if m.Type != raftcore.MsgKube && m.Type != raftcore.MsgKubeResp {
				continue
			}
			tag, say := v.MsgLabel(&m), v.MsgSentence(&m)
			seen[tag] = true
			use, _ := m.KubeCall()
			switch use {
			case raftcore.KubeRenew:
				assert.Contains(t, []string{words.RenewTag, words.RenewedTag, words.RenewFailedTag}, tag)
				assert.Contains(t, say, "Lease")
				assert.NotContains(t, say, "Pods")
			case raftcore.KubeListPods:
				assert.Contains(t, []string{words.ListPodsTag, words.PodsListedTag, words.ListFailedTag}, tag)
				assert.Contains(t, say, "Pods")
				assert.NotContains(t, say, "Lease")
			default:
				t.Fatalf("a kubelet's message %v carries no call", m.Type)
			}
		}
	}
	for _, tag := range []string{words.RenewTag, words.RenewedTag, words.ListPodsTag, words.PodsListedTag} {
		assert.True(t, seen[tag], "no message tagged %q", tag)
	}
}

// TestWorkerMenuFitsAPhone: a worker's menu, with its Speed row, lies
// inside a 350x560 figure and a 720x450 one, each word in it.
func TestWorkerMenuFitsAPhone(t *testing.T) {
	for _, sz := range [][2]float64{{350, 560}, {720, 450}} {
		a := workersApp(t, nodeLease(t), sz[0], sz[1], true)
		a.Frame()
		require.NoError(t, a.Do(command.OpenMachine{Node: 4}))
		f := a.Frame()
		require.NotNil(t, f.Menu)
		where := fmt.Sprintf("%vx%v", sz[0], sz[1])
		assert.True(t, viz.XYWH(0, 0, f.W, f.H).ContainsRect(f.Menu.Rect), "%s: the menu %v", where, f.Menu.Rect)
		checkFrameWords(t, where, a, f)
	}
}

// TestWorkersAreToldAndShown: a worker machine under the pointer has hover
// text (its condition, kubelet, Lease and Pods), the screen reader's
// description names each worker's condition and what cuts it off, and the
// page's snapshot lists the workers, their boxes and their links.
func TestWorkersAreToldAndShown(t *testing.T) {
	a := workersApp(t, nodeLease(t), 1280, 800, false)
	require.NoError(t, a.Do(command.Seek{AtUs: 110_000_000}))
	a.Frame()
	box := a.lay().Workers[0]
	a.Hover(box.Rect.Center())
	tip := a.Frame().Tooltip
	require.NotNil(t, tip, "hovering a worker shows hover text")
	var text []string
	for _, l := range tip.Lines {
		text = append(text, l.Text)
	}
	all := strings.Join(text, " ")
	assert.Contains(t, all, "worker-1: "+words.NodeNotReady+", kubelet crashed")
	assert.Contains(t, all, "Lease renewed at ")
	a.Hover(a.lay().Workers[2].Rect.Center())
	require.NotNil(t, a.Frame().Tooltip)
	assert.Contains(t, a.Frame().Tooltip.Lines[0].Text, "worker-3: "+words.NodeReady+", kubelet up")

	d := a.Describe()
	assert.Contains(t, d, "3 worker nodes: worker-1 NotReady, kubelet crashed; worker-2 NotReady, cut off from the control plane; worker-3 Ready.")
	assert.Contains(t, d, words.LeaseZone("Normal"))
	assert.NotContains(t, newApp(t, 3, 1280, 800).Describe(), "worker")

	s := a.State()
	require.Len(t, s.Workers, 3)
	assert.Equal(t, "worker-2", s.Workers[1].Name)
	assert.Equal(t, words.NodeNotReady, s.Workers[1].Condition)
	assert.Equal(t, a.lay().Workers[1].Rect, s.Workers[1].Rect)
	require.NotNil(t, s.Kube)
	assert.Equal(t, s.Kube.Counts, a.World().KubeCounts())
	cut := 0
	for _, l := range s.Links {
		if l.From == 5 || l.To == 5 {
			assert.False(t, l.Up, "%d→%d", l.From, l.To)
			cut++
		}
	}
	assert.Equal(t, 6, cut, "worker-2's links both ways to three members")
}

// TestClientPanelListsTheReadersRequests: with kubelets renewing, the
// Client panel lists only the reader's own requests and counts
// Kubernetes' on one line, whose counts are the world's.
func TestClientPanelListsTheReadersRequests(t *testing.T) {
	a := workersApp(t, nodeLease(t), 1280, 800, false)
	require.NoError(t, a.Do(command.Seek{AtUs: 40_000_000}))
	text := clientText(t, a)
	assert.Contains(t, text, "No requests yet", "no request of the reader's yet")
	assert.Contains(t, text, "Kubernetes' requests, not listed: ")
	assert.NotContains(t, text, "leases/", "no renewal is listed")
	renewals := 0
	for _, op := range a.World().Ops() {
		if op.Kube == raftcore.KubeRenew {
			renewals++
		}
	}
	assert.Contains(t, text, fmt.Sprintf("%d Lease renewals", renewals))

	require.NoError(t, a.Do(command.ActOnMachine{Node: 0, Verb: raftcore.DoWrite}))
	a.clock.SetPaused(false)
	var c hostClock
	c.run(a, 2*time.Second)
	text = clientText(t, a)
	assert.Contains(t, text, "#")
	assert.NotContains(t, text, "leases/")
	assert.Regexp(t, `^1 done, 0 waiting, 0 failed`, text, "the tally is the reader's")
}

// TestMembersKeepTheirRoleLineBesideTenWorkers: five members and ten
// workers on a 350x560 page, embedded or not, and on a 390x844 phone:
// every member keeps its role line under its disc (the workers' boxes
// take one line each where three would not leave room for it), and each
// worker still shows its number and condition.
func TestMembersKeepTheirRoleLineBesideTenWorkers(t *testing.T) {
	js := []byte(`{"nodes":5,"workers":10,"seed":2,"kube":{"pods":6},"until_ms":40000,"actions":[]}`)
	for _, sz := range []struct {
		w, h  float64
		embed bool
	}{{350, 560, false}, {350, 560, true}, {390, 844, false}, {720, 450, false}} {
		a := workersApp(t, js, sz.w, sz.h, sz.embed)
		require.NoError(t, a.Do(command.Seek{AtUs: 20_000_000}))
		f := a.Frame()
		where := fmt.Sprintf("%vx%v embed=%v", sz.w, sz.h, sz.embed)
		require.Len(t, f.Nodes, 5)
		for i, n := range f.Nodes {
			assert.NotEmpty(t, n.Lines[0].Text, "%s: member %d has no role line", where, i+1)
		}
		checkWorkerFrame(t, where, a, f, 5, 10)
	}
}

// TestWorkersSitUnderThePartitionSides: in quorum-and-leases, once etcd
// is split into three sides, the worker boxes lie in one row under every
// side at 720x450 and 350x560 (on the phone the band runs under the log
// rows beside the sides too), clear of the log rows and of the members'
// discs, with their words inside their boxes.
func TestWorkersSitUnderThePartitionSides(t *testing.T) {
	for _, sz := range [][2]float64{{720, 450}, {350, 560}} {
		a := figureApp(t, "quorum-and-leases", sz[0], sz[1])
		var c hostClock
		for a.scen().Shown() < 1 {
			playToRest(t, a, &c, time.Minute)
		}
		f := a.Frame()
		where := fmt.Sprintf("%vx%v", sz[0], sz[1])
		s := a.State()
		require.Equal(t, "partition", s.Layout, where)
		require.Len(t, s.Sides, 3, where)
		l := a.lay()
		canvas := viz.XYWH(0, 0, f.W, f.H)
		for i, b := range f.Workers.Boxes {
			assert.True(t, canvas.ContainsRect(b.Rect), "%s: worker %d leaves the canvas", where, i+1)
			assert.Contains(t, []string{words.NodeReady, words.NodeNotReady}, b.Lines[0].Text, "%s: worker %d's condition", where, i+1)
			for _, tx := range []frame.TextItem{b.Name, b.Lines[0], b.Lines[1]} {
				if tx.Text != "" {
					assert.True(t, b.Rect.Inset(-1).ContainsRect(textBox(a, tx)), "%s: %q leaves worker %d's box", where, tx.Text, i+1)
				}
			}
			for j := range l.Nodes {
				c := l.NodeCircle(j)
				px := min(max(c.C.X, b.Rect.X), b.Rect.Right())
				py := min(max(c.C.Y, b.Rect.Y), b.Rect.Bottom())
				assert.False(t, c.C.Dist(viz.Pt(px, py)) < c.R, "%s: worker %d's box overlaps member %d", where, i+1, j+1)
			}
		}
		for _, wk := range l.Workers {
			assert.Equal(t, l.Workers[0].Rect.Y, wk.Rect.Y, "%s: the workers are in one row", where)
			assert.False(t, wk.Rect.Overlaps(l.Logs), "%s: worker %d lies on the log rows", where, wk.Index+1)
			for _, z := range l.Zones {
				assert.GreaterOrEqual(t, wk.Rect.Y, z.Rect.Bottom(), "%s: worker %d is not under side %d", where, wk.Index+1, z.Index+1)
			}
		}
	}
}

// TestWorkerBandStaysUnderTheClusterOnALaptop: on a wide stage with the log
// rows beside the cluster, the worker band stays under the cluster, so
// that the links to the workers do not cross the rows' room.
func TestWorkerBandStaysUnderTheClusterOnALaptop(t *testing.T) {
	js := []byte(`{"nodes":5,"workers":10,"seed":2,"kube":{"pods":6},"until_ms":40000,"actions":[]}`)
	a := workersApp(t, js, 1280, 800, false)
	a.Frame()
	l := a.lay()
	require.Greater(t, l.Logs.X, l.Cluster.Right(), "the rows are beside the cluster")
	assert.LessOrEqual(t, l.WorkerBand.Right(), l.Cluster.Right()+0.5, "the band %v reaches under the rows %v", l.WorkerBand, l.Logs)
}
