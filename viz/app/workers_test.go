package app

import (
	"fmt"
	"os"
	"strings"
	"testing"

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

// TestSafetyPanelShowsLeases: the node-lease example's Safety panel lists
// each worker's Lease (its condition, last renewal and Pods), the
// controller's zone state and the checks' counts; the crashed worker is
// NotReady once its grace period has passed, and a run without workers
// has no such list.
func TestSafetyPanelShowsLeases(t *testing.T) {
	a := workersApp(t, nodeLease(t), 1280, 800, false)
	require.NoError(t, a.Do(command.Seek{AtUs: 20_000_000}))
	a.Frame()
	text := allPanels(a)
	assert.Contains(t, text, words.LeasesTitle)
	for _, n := range []string{"worker-1", "worker-2", "worker-3"} {
		assert.Contains(t, text, n+" · "+words.NodeReady+" · renewed at ")
	}
	assert.Contains(t, text, words.LeaseZone("Normal"))
	assert.Contains(t, text, "Spurious NotReady: 0 · slow NotReady: 0")
	require.NoError(t, a.Do(command.Seek{AtUs: 110_000_000}))
	a.Frame()
	assert.Contains(t, allPanels(a), "worker-1 · "+words.NodeNotReady)

	plain := newApp(t, 3, 1280, 800)
	plain.Frame()
	assert.NotContains(t, allPanels(plain), words.LeasesTitle)
}

// TestWorkerMenu: a tap on a worker's box opens its menu (no member is
// selected), which offers crash or restart, pause or resume and its
// clock's rate; each is a recorded action on the worker, and a verb a
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
	assert.Equal(t, []string{"node.pause", "node.crash", "node.drift:0.5", "node.drift:1", "node.drift:2"}, ids)

	before := len(a.World().Actions())
	// The menu's buttons are command lines, as a reader may type them.
	var crash string
	for _, r := range f.Menu.Rows {
		for _, w := range r.Widgets {
			if w.ID == "node.crash" {
				crash = w.Do
			}
		}
	}
	require.NoError(t, a.tryLine(crash), crash)
	assert.Equal(t, raftcore.StatusCrashed, a.World().Status(6))
	require.NoError(t, a.Do(command.ActOnMachine{Node: 5, Verb: raftcore.DoDrift, Value: 2}))
	assert.Equal(t, 2.0, a.World().Drift(6))
	assert.Len(t, a.World().Actions(), before+2, "recorded")
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
