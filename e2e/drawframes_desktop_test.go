//go:build desktop

package e2e

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"raftlab/viz"
	"raftlab/viz/app"
	"raftlab/viz/app/command"
	"raftlab/viz/app/poster"
	"raftlab/viz/app/session"
	"raftlab/viz/fonts"
	"raftlab/viz/frame"
)

// The painter's tests (viz/draw) paint frames, not the app: the app
// changes shape often, and painting is the same for any frame. The frames
// they paint were built once by the app, here, and stored under
// viz/draw/testdata. To make them again (after the app's look changed, or
// to add a scene):
//
//	RAFTLAB_REMAKE_DRAW_FRAMES=1 go test -tags desktop -run TestRemakeDrawFrames ./e2e/
//
// Without the variable the test builds them all the same, into a
// directory of its own, so that the way to remake them keeps working as
// the app changes.
//
// Text is measured with the font's own numbers (fonts.Measure), which give
// the widths Ebiten's shaper gives (viz/draw's TestMeasureWithoutEbitenMatches),
// so that this needs no display.
const envRemakeDrawFrames = "RAFTLAB_REMAKE_DRAW_FRAMES"

// drawFrames is a file of frames for viz/draw's tests. A frame is stored
// as its fields, each field's JSON once in Parts however many frames show
// it: from one frame to the next most fields do not change, so a run of a
// hundred frames takes little more room than one.
type drawFrames struct {
	Parts   []json.RawMessage
	Entries []drawEntry
	seen    map[string]int
}

// drawEntry is one stored frame and what a test needs to know about the
// app that built it.
type drawEntry struct {
	Name  string
	Frame map[string]int // field name: index in Parts
	// Regions are parts of the layout (toolbar, cluster, logs, timeline).
	Regions map[string]viz.Rect `json:",omitempty"`
	// Leader, Follower and Crashed are machines by number (from 1).
	Leader, Follower, Crashed int     `json:",omitempty"`
	RingR                     float64 `json:",omitempty"`
}

// add stores f under name. Coordinates are kept to a hundredth of a
// pixel, which no test tells apart, so that the files stay small.
func (d *drawFrames) add(t *testing.T, name string, f *frame.Frame) *drawEntry {
	t.Helper()
	raw, err := json.Marshal(f)
	if err != nil {
		t.Fatalf("%s: the frame does not encode: %v", name, err)
	}
	var fields map[string]any
	if err := json.Unmarshal(raw, &fields); err != nil {
		t.Fatal(err)
	}
	if d.seen == nil {
		d.seen = map[string]int{}
	}
	e := drawEntry{Name: name, Frame: map[string]int{}}
	// In the fields' order, so that the same frames make the same file.
	for _, k := range slices.Sorted(maps.Keys(fields)) {
		part, err := json.Marshal(hundredths(fields[k]))
		if err != nil {
			t.Fatal(err)
		}
		i, ok := d.seen[k+string(part)]
		if !ok {
			i = len(d.Parts)
			d.seen[k+string(part)] = i
			d.Parts = append(d.Parts, part)
		}
		e.Frame[k] = i
	}
	d.Entries = append(d.Entries, e)
	return &d.Entries[len(d.Entries)-1]
}

// hundredths rounds every number in a decoded JSON value to 0.01.
func hundredths(v any) any {
	switch x := v.(type) {
	case float64:
		return math.Round(x*100) / 100
	case map[string]any:
		for k, e := range x {
			x[k] = hundredths(e)
		}
	case []any:
		for i, e := range x {
			x[i] = hundredths(e)
		}
	}
	return v
}

// drawDataDir is where the frames go: viz/draw/testdata when remaking
// them, else a directory of the test's own.
func drawDataDir(t *testing.T) string {
	if os.Getenv(envRemakeDrawFrames) == "" {
		return t.TempDir()
	}
	return filepath.Join(repoRoot(t), "viz", "draw", "testdata")
}

// writeDrawData stores v as gzipped JSON in drawDataDir's name.
func writeDrawData(t *testing.T, name string, v any) {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	zw.Write(raw)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(drawDataDir(t), name)
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: %d bytes, %d bytes gzipped", path, len(raw), buf.Len())
}

// drawApp is an app at w×h with n machines, as the painter's tests had it.
func drawApp(t *testing.T, w, h float64, n int, scenario string, embed bool) *app.App {
	t.Helper()
	p := viz.DefaultParams()
	p.Nodes, p.Scenario, p.Embed = n, scenario, embed
	a, err := app.New(app.Options{Params: p, Width: w, Height: h, Measure: fonts.Measure, SpeedGiven: true,
		Scenarios: session.BuiltinScenarios()})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// advance runs the app for d of real time at 60 ticks a second.
func advance(a *app.App, now *time.Duration, d time.Duration) {
	for end := *now + d; *now < end; *now += time.Second / 60 {
		a.Update(*now)
	}
}

func untilLeader(t *testing.T, a *app.App, now *time.Duration) int {
	t.Helper()
	for i := 0; i < 300; i++ {
		if l := a.State().Leader; l > 0 {
			return l
		}
		advance(a, now, 100*time.Millisecond)
	}
	t.Fatal("no leader")
	return 0
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestRemakeDrawFrames builds viz/draw/testdata's frames, and writes them
// there when envRemakeDrawFrames is set.
func TestRemakeDrawFrames(t *testing.T) {
	t.Run("scenes", remakeScenes)
	t.Run("run", remakeRun)
	t.Run("busy", remakeBusy)
	t.Run("poster-texts", remakePosterTexts)
}

// remakeScenes stores single frames: machines in their roles, a cut link,
// the role shapes, and the states a reader meets on a desktop and a phone.
func remakeScenes(t *testing.T) {
	var d drawFrames
	for _, theme := range []string{"light", "dark"} {
		a := drawApp(t, 1280, 800, 5, "", false)
		var now time.Duration
		leader := untilLeader(t, a, &now)
		must(t, a.Do(command.SetTheme{Theme: frame.Theme(theme)}))
		a.Cmd("pause")
		follower := leader%5 + 1
		crashed := follower%5 + 1
		must(t, a.Act([]byte(fmt.Sprintf(`{"do":"crash","node":%d}`, crashed))))
		e := d.add(t, "roles-"+theme, a.Frame())
		e.Leader, e.Follower, e.Crashed = leader, follower, crashed
		e.Regions = map[string]viz.Rect{"cluster": a.Layout().Cluster}
		e.RingR = a.Layout().Ring.R
	}
	a := drawApp(t, 1280, 800, 3, "", false)
	var now time.Duration
	untilLeader(t, a, &now)
	a.Cmd("pause")
	must(t, a.Act([]byte(`{"do":"cut","from":1,"to":2}`)))
	d.add(t, "cut-link", a.Frame())

	a = drawApp(t, 800, 600, 3, "", false)
	now = 0
	leader := untilLeader(t, a, &now)
	a.Cmd("pause")
	d.add(t, "shapes", a.Frame()).Leader = leader

	for _, s := range readerScenes() {
		a := drawApp(t, s.w, s.h, s.nodes, s.scenario, s.embed)
		if s.theme != "" {
			must(t, a.Do(command.SetTheme{Theme: frame.Theme(s.theme)}))
		}
		var now time.Duration
		if a.State().Protocol == "raft" {
			untilLeader(t, a, &now)
		}
		s.setup(a)
		advance(a, &now, 400*time.Millisecond)
		if s.scenario != "" {
			advance(a, &now, 3*time.Second)
		}
		a.Cmd("pause")
		l := a.Layout()
		d.add(t, s.name, a.Frame()).Regions = map[string]viz.Rect{
			"toolbar": l.Toolbar, "cluster": l.Cluster, "logs": l.Logs, "timeline": l.Timeline}
	}
	writeDrawData(t, "scenes.json.gz", &d)
}

type readerScene struct {
	name     string
	w, h     float64
	theme    string
	nodes    int
	scenario string
	embed    bool
	setup    func(a *app.App)
}

// readerScenes are the states a reader meets, on a desktop and a phone.
func readerScenes() []readerScene {
	act := func(a *app.App, js ...string) {
		for _, s := range js {
			a.Act([]byte(s))
		}
	}
	return []readerScene{
		{name: "running", w: 1280, h: 800, nodes: 5, setup: func(a *app.App) {}},
		{name: "node-menu", w: 1280, h: 800, nodes: 5, setup: func(a *app.App) {
			a.Cmd("select", "2")
			a.Click("node.pause")
		}},
		{name: "partition", w: 1280, h: 800, nodes: 5, setup: func(a *app.App) {
			act(a, `{"do":"partition","groups":[[1,2,3],[4,5]]}`)
			a.Key("c")
		}},
		{name: "one-way-lossy", w: 1280, h: 800, nodes: 5, setup: func(a *app.App) {
			act(a, `{"do":"cut","from":1,"to":3,"oneway":true}`, `{"do":"loss","from":2,"to":4,"loss":0.3}`,
				`{"do":"latency","from":2,"to":5,"latency_ms":[300,500]}`, `{"do":"slow","node":4,"factor":20}`,
				`{"do":"drift","node":5,"factor":2}`)
		}},
		{name: "setup-menu", w: 1280, h: 800, nodes: 5, setup: func(a *app.App) { a.Click("menu") }},
		{name: "help", w: 1280, h: 800, nodes: 5, setup: func(a *app.App) { a.Key("?") }},
		{name: "nine", w: 1280, h: 800, nodes: 9, setup: func(a *app.App) {
			for i := 0; i < 30; i++ {
				a.Key("c")
			}
		}},
		{name: "dark", w: 1280, h: 800, nodes: 5, theme: "dark", setup: func(a *app.App) { a.Key("c") }},
		{name: "phone", w: 390, h: 844, nodes: 5, setup: func(a *app.App) { a.Key("c") }},
		{name: "phone-menu", w: 390, h: 844, nodes: 5, setup: func(a *app.App) {
			a.Cmd("select", "1")
			a.Click("node.crash")
		}},
		{name: "embed-majority", w: 720, h: 480, nodes: 5, scenario: "majority", embed: true, setup: func(a *app.App) {
			act(a, `{"do":"partition","groups":[[1,2,3],[4,5]]}`)
		}},
		{name: "scenario-roles", w: 1280, h: 800, nodes: 5, scenario: "roles", setup: func(a *app.App) {}},
		{name: "scenario-three-answers", w: 1280, h: 800, nodes: 3, scenario: "three-answers", setup: func(a *app.App) {
			a.Click("scenario.autoplay")
		}},
		{name: "phone-majority", w: 390, h: 844, nodes: 5, scenario: "majority", setup: func(a *app.App) {
			act(a, `{"do":"partition","groups":[[1,2,3],[4,5]]}`)
		}},
		{name: "naive-copy", w: 1280, h: 800, nodes: 3, setup: func(a *app.App) {
			a.Cmd("protocol", "naive-copy")
			act(a, `{"do":"partition","groups":[[1,2],[3]]}`,
				`{"do":"write","node":1,"key":"deployments/web","value":"replicas=3"}`,
				`{"do":"write","node":3,"key":"deployments/web","value":"replicas=1"}`)
		}},
	}
}

// remakeRun stores every frame of a run at 60 frames a second: playing,
// a write, the help over everything and closed again, the dark theme,
// and a resize.
func remakeRun(t *testing.T) {
	var d drawFrames
	a := drawApp(t, 1280, 800, 5, "", false)
	var now time.Duration
	untilLeader(t, a, &now)
	d.add(t, "first frame", a.Frame())
	frames := func(what string, n int) {
		for range n {
			advance(a, &now, time.Second/60)
			d.add(t, what, a.Frame())
		}
	}
	frames("the run playing", 60)
	a.Key("c")
	frames("after a write", 40)
	a.Key("?")
	frames("help open", 5)
	a.Key("Escape")
	frames("help closed", 10)
	must(t, a.Do(command.SetTheme{Theme: frame.ThemeDark}))
	frames("dark theme", 2)
	a.Resize(900, 700)
	frames("after a resize", 2)
	writeDrawData(t, "run.json.gz", &d)
}

// remakeBusy stores 16 consecutive frames of nine machines on a 1280×800
// canvas with links slowed to 2-3 s and steady client writes, with at
// least 300 messages on the wire: the busy cluster of the browser's
// BenchmarkAppBusyFrame, for viz/draw's BenchmarkBusyFrame.
func remakeBusy(t *testing.T) {
	a := drawApp(t, 1280, 800, 9, "", false)
	var now time.Duration
	// Election timeouts of 5-10 s keep one leader although heartbeats
	// take 2-3 s to arrive.
	must(t, a.Do(command.SetElection{Ticks: 50}))
	untilLeader(t, a, &now)
	must(t, a.Act([]byte(`{"do":"latency","latency_ms":[2000,3000]}`)))
	for i := 0; i < 400 && a.World().InFlightCount() < 300; i++ {
		a.Key("c")
		advance(a, &now, 50*time.Millisecond)
	}
	if n := a.World().InFlightCount(); n < 300 {
		t.Fatalf("only %d messages in flight, want 300", n)
	}
	var d drawFrames
	for range 16 {
		advance(a, &now, time.Second/60)
		d.add(t, "busy", a.Frame())
	}
	writeDrawData(t, "busy.json.gz", &d)
}

// remakePosterTexts stores every label a reader can see on the posters of
// every figure, at its opening and its key moment, at each size, with its
// text's size.
func remakePosterTexts(t *testing.T) {
	var texts []frame.TextItem
	for _, p := range poster.All() {
		if p.Theme != poster.Themes()[0] {
			continue // the same words as the default theme's
		}
		f, err := p.Frame()
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range frameTexts(f) {
			if x.Text != "" {
				texts = append(texts, frame.TextItem{Text: x.Text, Size: x.Size})
			}
		}
	}
	writeDrawData(t, "poster-texts.json.gz", texts)
}

// frameTexts lists every label of a frame a reader can see, with its size.
func frameTexts(f *frame.Frame) []frame.TextItem {
	var out []frame.TextItem
	add := func(ts ...frame.TextItem) { out = append(out, ts...) }
	widgets := func(ws ...frame.Widget) {
		for _, w := range ws {
			size := w.Size
			if size == 0 {
				size = 12
			}
			add(frame.TextItem{Text: w.Label, Size: size}, frame.TextItem{Text: "✓ " + w.Label, Size: size})
		}
	}
	for _, z := range f.Zones {
		add(z.Label, z.Sub)
	}
	for _, l := range f.Links {
		add(l.Label)
	}
	for _, n := range f.Nodes {
		add(n.Name)
		add(n.Lines[:]...)
		add(n.Badges...)
	}
	add(f.Logs.Header...)
	add(f.Logs.Before, f.Logs.After, f.Status)
	for _, p := range f.Panels {
		add(p.Title)
		add(p.Lines...)
		widgets(p.Widgets...)
	}
	widgets(f.Toolbar...)
	for _, m := range []*frame.MenuView{f.Caption, f.Menu} {
		if m == nil {
			continue
		}
		add(m.Title)
		add(m.Lines...)
		for _, r := range m.Rows {
			add(r.Label)
			widgets(r.Widgets...)
		}
	}
	return out
}
