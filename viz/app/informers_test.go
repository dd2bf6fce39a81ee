package app

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"raftlab/raftcore"
	"raftlab/viz/app/command"
	"raftlab/viz/frame"
	"raftlab/viz/words"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// reconcileExample is docs/examples/reconcile.json: a deployment controller
// on etcd-1 through the API server on etcd-2, without idempotence; its
// watch is cut just after it created a ReplicaSet, and a reconcile
// repeated from its stale cache creates a second one before it re-lists.
func reconcileExample(t *testing.T) []byte { return example(t, "reconcile") }

// panelWords is every panel's words, wrapped lines joined again.
func panelWords(a *App) string { return panelsJoined(a, " ") }

// TestInformersPanel follows the reconcile example in the Safety panel:
// the informer watching from the revision after its list; its watch cut,
// with the ReplicaSet the store holds missing from its cache; the second
// ReplicaSet counted as created twice; and, after the re-list, the cache
// holding every object at the store's revision. A run without deployment
// controllers has no informers.
func TestInformersPanel(t *testing.T) {
	a := workersApp(t, reconcileExample(t), 1280, 800, false)
	at := func(us int64) string {
		require.NoError(t, a.Do(command.Seek{AtUs: us}))
		a.Frame()
		return panelWords(a)
	}
	text := at(3_120_000)
	assert.Contains(t, text, words.InformersTitle)
	assert.Contains(t, text, words.ControllerLine(1, "etcd-1", false))
	assert.Contains(t, text, "Listed at rev 2 · watching from rev 3")
	assert.Contains(t, text, "deployment/web · rev 2")

	text = at(3_350_000)
	assert.Contains(t, text, "Watch cut (cut by hand) · re-listing in 0.6 s (backoff)")
	assert.Contains(t, text, "replicaset/web-gpz4v · store rev 3, not in the cache")
	assert.Contains(t, text, words.ReconcileChecks(0, 0))

	text = at(3_700_000)
	assert.Contains(t, text, words.ReconcileChecks(1, 0), "the repeat created a second ReplicaSet")

	text = at(8_000_000)
	assert.Contains(t, text, "Listed at rev 4 · watching from rev 5")
	for _, line := range []string{"deployment/web · rev 2", "replicaset/web-gpz4v · rev 3", "replicaset/web-cj89r · rev 4"} {
		assert.Contains(t, text, line)
	}
	assert.NotContains(t, text, "not in the cache")
	assert.Contains(t, text, "Reconciles 3 · created 2 · already there 0")
	assert.Contains(t, text, words.CacheHeading("etcd-2"))

	plain := newApp(t, 3, 1280, 800)
	plain.Frame()
	assert.NotContains(t, panelWords(plain), words.InformersTitle)
}

// TestInformerButtons: the informers' buttons are command lines, each a
// recorded action: apply the Deployment, cut the watch (the informer then
// waits to re-list), reconcile again, and idempotence on.
func TestInformerButtons(t *testing.T) {
	a := workersApp(t, reconcileExample(t), 1280, 800, false)
	require.NoError(t, a.Do(command.Seek{AtUs: 8_000_000}))
	f := a.Frame()
	do := map[string]string{}
	for _, p := range f.Panels {
		for _, w := range p.Widgets {
			if strings.HasPrefix(w.ID, "informers.") {
				do[w.ID] = w.Do
			}
		}
	}
	require.Len(t, do, 5, "%v", do)
	before := len(a.World().Actions())
	require.NoError(t, a.tryLine(do["informers.cut"]))
	assert.Equal(t, raftcore.InformerWaiting, a.World().DeploymentControllers()[0].Informer.State)
	require.NoError(t, a.tryLine(do["informers.idempotent:on"]))
	assert.True(t, a.World().Settings().Idempotent)
	require.NoError(t, a.tryLine(do["informers.apply"]))
	require.NoError(t, a.tryLine(do["informers.reconcile"]))
	acts := a.World().Actions()[before:]
	var verbs []raftcore.Verb
	for _, x := range acts {
		verbs = append(verbs, x.Do)
	}
	assert.Equal(t, []raftcore.Verb{raftcore.DoWatchCut, raftcore.DoSet, raftcore.DoWrite, raftcore.DoReconcile}, verbs)
	assert.Equal(t, "deployments/web", acts[2].Key)
	a.clock.SetPaused(false)
	var c0 hostClock
	c0.run(a, 3*time.Second)
	c := a.World().DeploymentControllers()[0]
	assert.Equal(t, raftcore.InformerWatching, c.Informer.State, "re-listed after the cut")
	assert.Equal(t, 2, c.Informer.Relists)
	assert.Equal(t, 1, a.World().ReconcileCounts().Duplicates, "with idempotence on, nothing more was created twice")
}

// TestInformerFramesAreReadable builds the reconcile example's frames on a
// laptop and in 720x450 and 350x560 figures, before, during and after the
// cut: the panel's words stay in its rectangle, and watch events on their
// way are drawn between the API server's member and the controller's.
func TestInformerFramesAreReadable(t *testing.T) {
	for _, sz := range []struct {
		w, h  float64
		embed bool
	}{{1280, 800, false}, {720, 450, true}, {350, 560, true}} {
		a := workersApp(t, reconcileExample(t), sz.w, sz.h, sz.embed)
		for _, at := range []int64{3_120_000, 3_300_000, 3_700_000, 8_000_000} {
			require.NoError(t, a.Do(command.Seek{AtUs: at}))
			f := a.Frame()
			where := fmt.Sprintf("%vx%v at %dus", sz.w, sz.h, at)
			checkFrameWords(t, where, a, f)
			for _, p := range f.Panels {
				for _, ln := range p.Lines {
					if ln.Text != "" && ln.Y >= p.Clip.Y && ln.Y+ln.Size <= p.Clip.Bottom() {
						box := textBox(a, frame.TextItem{Text: ln.Text, X: ln.X + a.measure(ln.Text, ln.Size)/2, Y: ln.Y + ln.Size/2, Size: ln.Size})
						assert.True(t, p.Rect.Inset(-1).ContainsRect(box), "%s: %q %v leaves its panel %v", where, ln.Text, box, p.Rect)
					}
				}
			}
		}
	}
	js := `{"nodes":3,"seed":1,"names":["etcd-1","etcd-2","etcd-3"],"until_ms":3000,"actions":[
		{"at_ms":300,"do":"timeout","node":1},{"at_ms":500,"do":"deploy-controller","node":3,"to":2},
		{"at_ms":500,"do":"latency","from":2,"to":3,"latency_ms":[300,300]},
		{"at_ms":1000,"do":"write","key":"deployments/web","value":"replicas=3 image=web:1"}]}`
	a := workersApp(t, []byte(js), 1280, 800, false)
	var watch []frame.MsgView
	for at := int64(1_000_000); at < 3_000_000 && len(watch) == 0; at += 50_000 {
		require.NoError(t, a.Do(command.Seek{AtUs: at}))
		for _, m := range a.Frame().Messages {
			if m.ID == 0 && m.From == 1 && m.To == 2 {
				watch = append(watch, m)
			}
		}
	}
	require.NotEmpty(t, watch, "a watch event on its way from etcd-2 to etcd-3")
	assert.True(t, strings.HasPrefix(watch[0].Label.Text, words.WatchEventTag), watch[0].Label.Text)
}

// TestInformerRequestsInTheClientPanel: an informer's list and its
// controller's create-if-absent say what they are in the client panel,
// not as a read of a prefix that found nothing and a swap.
func TestInformerRequestsInTheClientPanel(t *testing.T) {
	a := workersApp(t, reconcileExample(t), 1280, 800, false)
	require.NoError(t, a.Do(command.Seek{AtUs: 8_000_000}))
	a.Frame()
	text := panelWords(a)
	assert.Contains(t, text, "deployment controller 1: list deployments and replicasets at etcd-2: listed at rev 2")
	assert.Contains(t, text, "deployment controller 1: create replicasets/web-gpz4v if absent at etcd-2: done, rev 3")
	assert.NotContains(t, text, "read deployments/ ")
}

// TestStageSaysWhereTheControllerRuns: under its disc, the member that runs
// a deployment controller says so, and so does the one whose API server it
// talks to; the third member keeps its vote, and a world without
// controllers says neither.
func TestStageSaysWhereTheControllerRuns(t *testing.T) {
	a := workersApp(t, reconcileExample(t), 1280, 800, false)
	require.NoError(t, a.Do(command.Seek{AtUs: 8_000_000}))
	f := a.Frame()
	ctl, _ := words.KubeRole(true, false)
	api, _ := words.KubeRole(false, true)
	assert.Equal(t, ctl, f.Nodes[0].Lines[1].Text)
	assert.Equal(t, api, f.Nodes[1].Lines[1].Text)
	assert.NotContains(t, []string{ctl, api}, f.Nodes[2].Lines[1].Text)

	plain := newApp(t, 3, 1280, 800)
	for _, n := range plain.Frame().Nodes {
		assert.NotContains(t, []string{ctl, api}, n.Lines[1].Text)
	}
}

// TestDescriptionNamesTheControllers: the description a screen reader
// reads says where each deployment controller runs, what its informer is
// doing and how much its cache holds, and how many ReplicaSets were created
// twice.
func TestDescriptionNamesTheControllers(t *testing.T) {
	a := workersApp(t, reconcileExample(t), 1280, 800, false)
	require.NoError(t, a.Do(command.Seek{AtUs: 3_350_000}))
	d := a.Describe()
	assert.Contains(t, d, "Deployment controller on etcd-1, through the API server on etcd-2: Watch cut (cut by hand)")
	assert.Contains(t, d, "1 object in its cache.")
	assert.NotContains(t, d, "created twice")
	require.NoError(t, a.Do(command.Seek{AtUs: 8_000_000}))
	d = a.Describe()
	assert.Contains(t, d, "Listed at rev 4 · watching from rev 5; 3 objects in its cache.")
	assert.Contains(t, d, "1 ReplicaSet created twice.")
	assert.NotContains(t, newApp(t, 3, 1280, 800).Describe(), "Deployment controller")
}

// TestFigureReaderCutsTheWatch: in the reconcile figure at column size,
// the reader's own "Cut watch" (a button of its informers panel) cuts the
// controller's watch, recorded like the script's actions, and the
// informer then waits to list again.
func TestFigureReaderCutsTheWatch(t *testing.T) {
	a := figureApp(t, "reconcile", 720, 450)
	var c hostClock
	for a.scen().Tracker().Step() < 1 {
		playToRest(t, a, &c, 60*time.Second)
	}
	cs := a.World().DeploymentControllers()
	require.Len(t, cs, 1)
	require.Equal(t, raftcore.InformerWatching, cs[0].Informer.State)
	before := len(a.World().Actions())
	a.Frame()
	require.NoError(t, a.Click("informers.cut"))
	assert.Len(t, a.World().Actions(), before+1)
	assert.Equal(t, raftcore.DoWatchCut, a.World().Actions()[before].Do)
	assert.Equal(t, raftcore.InformerWaiting, a.World().DeploymentControllers()[0].Informer.State)
}

// TestMachineMenuStartsAController: a member's menu in the free lab starts
// a deployment controller on it, talking to its own API server, as a
// recorded action; the informers then show, and the same member is not
// offered a second one.
func TestMachineMenuStartsAController(t *testing.T) {
	a := newApp(t, 3, 1280, 800)
	require.NoError(t, a.Do(command.OpenMachine{Node: 1}))
	do := menuDo(a.Frame(), "node.deploy-controller")
	require.Equal(t, "deploy-controller 2", do)
	require.NoError(t, a.tryLine(do))
	cs := a.World().DeploymentControllers()
	require.Len(t, cs, 1)
	assert.Equal(t, raftcore.NodeID(2), cs[0].Node)
	assert.Equal(t, raftcore.NodeID(2), cs[0].Server)
	a.Frame()
	assert.Contains(t, panelWords(a), words.ControllerLine(1, "B", false))
	require.NoError(t, a.Do(command.OpenMachine{Node: 1}))
	assert.Empty(t, menuDo(a.Frame(), "node.deploy-controller"), "a second controller on B")
}

// menuDo is the command line of the open menu's widget id ("" if none).
func menuDo(f *frame.Frame, id string) string {
	if f.Menu == nil {
		return ""
	}
	for _, r := range f.Menu.Rows {
		for _, w := range r.Widgets {
			if w.ID == id {
				return w.Do
			}
		}
	}
	return ""
}

// TestInformerPanelShowsACompactedWatch: etcd-2, the API server, is cut off
// from the leader while the leader compacts its log; when the link comes
// back it is sent a snapshot, so the changes its watch would have sent are
// gone, and the panel says the watch was refused as compacted (410 Gone)
// while the informer waits to list again.
func TestInformerPanelShowsACompactedWatch(t *testing.T) {
	js := `{"nodes":3,"seed":1,"names":["etcd-1","etcd-2","etcd-3"],"until_ms":6000,
		"options":{"snapshot_count":5,"catch_up_entries":2},"actions":[
		{"at_ms":300,"do":"timeout","node":1},{"at_ms":600,"do":"deploy-controller","node":3,"to":2},
		{"at_ms":1000,"do":"write","key":"deployments/web","value":"replicas=3 image=web:1"},
		{"at_ms":1500,"do":"cut","from":1,"to":2}`
	for i, k := range "abcdefgh" {
		js += fmt.Sprintf(`,{"at_ms":%d,"do":"write","node":1,"key":"%c","value":"1"}`, 1600+100*i, k)
	}
	js += `,{"at_ms":3000,"do":"heal"}]}`
	a := workersApp(t, []byte(js), 1280, 800, false)
	var cut int64
	for at := int64(3_000_000); at < 4_000_000; at += 20_000 {
		require.NoError(t, a.Do(command.Seek{AtUs: at}))
		if c := a.World().DeploymentControllers()[0]; c.Informer.LastCut == raftcore.CutCompacted {
			cut = at
			break
		}
	}
	require.NotZero(t, cut, "the watch was never cut as compacted")
	a.Frame()
	assert.Contains(t, panelWords(a), "Watch refused as compacted (410 Gone) · re-listing in")
}
