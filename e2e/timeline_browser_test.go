//go:build browser

package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"raftlab/raftcore"
	"raftlab/viz"
	"raftlab/viz/app"
)

// The tests in this file cover the setup menu's "Share" row in the browser: saving a
// picture, exporting the run and its trace, and opening a run from a file, through the
// file picker and by dropping a file on the page. The buttons are pressed with real mouse
// events; files go through Chromium's own download and file-chooser machinery, which the
// DevTools protocol lets a test take the place of the reader in.

// pageEvents records the page's downloads and file-chooser requests as the DevTools
// protocol reports them.
type pageEvents struct {
	b   *browser
	dir string // where downloads land, each under its GUID

	mu       sync.Mutex
	names    map[string]string // download GUID → the file name the page suggested
	done     []string          // GUIDs of completed downloads, in order
	failed   []string          // suggested names of cancelled downloads
	choosers chan cdp.BackendNodeID
}

// watchPage sends downloads to a fresh directory and intercepts file choosers, so that
// the test sees what a reader would save and answers what a reader would be asked.
func watchPage(b *browser) *pageEvents {
	b.t.Helper()
	ev := &pageEvents{b: b, dir: b.t.TempDir(), names: map[string]string{}, choosers: make(chan cdp.BackendNodeID, 8)}
	err := chromedp.Listen(b.ctx, func(e any) {
		ev.mu.Lock()
		defer ev.mu.Unlock()
		switch e := e.(type) {
		case *cdpbrowser.EventDownloadWillBegin:
			ev.names[e.GUID] = e.SuggestedFilename
		case *cdpbrowser.EventDownloadProgress:
			switch e.State {
			case cdpbrowser.DownloadProgressStateCompleted:
				ev.done = append(ev.done, e.GUID)
			case cdpbrowser.DownloadProgressStateCanceled:
				ev.failed = append(ev.failed, ev.names[e.GUID])
			}
		case *page.EventFileChooserOpened:
			select {
			case ev.choosers <- e.BackendNodeID:
			default: // more choosers than a test opens; the test fails waiting for its own
			}
		}
	})
	if err != nil {
		b.t.Fatalf("listening to the page: %v", err)
	}
	ctx, cancel := context.WithTimeout(b.ctx, waitTimeout)
	defer cancel()
	if _, err := chromedp.Call(ctx, cdpbrowser.SetDownloadBehavior, cdpbrowser.SetDownloadBehaviorParams{
		Behavior: cdpbrowser.SetDownloadBehaviorBehaviorAllowAndName, DownloadPath: ev.dir, EventsEnabled: new(true),
		// The tab's own browser context, in the Chromium the tests share.
		BrowserContextID: chromedp.FromContext(b.ctx).BrowserContextID,
	}); err != nil {
		b.t.Fatalf("Browser.setDownloadBehavior: %v", err)
	}
	if _, err := chromedp.Call(ctx, page.SetInterceptFileChooserDialog, page.SetInterceptFileChooserDialogParams{Enabled: true}); err != nil {
		b.t.Fatalf("Page.setInterceptFileChooserDialog: %v", err)
	}
	return ev
}

// downloads returns how many downloads have completed.
func (ev *pageEvents) downloads() int {
	ev.mu.Lock()
	defer ev.mu.Unlock()
	return len(ev.done)
}

// waitDownload waits for the download after the first `after` ones to complete, checks
// that the page named it name, keeps a copy next to the screenshots and returns its bytes.
func (ev *pageEvents) waitDownload(after int, name string) []byte {
	t := ev.b.t
	t.Helper()
	deadline := time.Now().Add(waitTimeout)
	for {
		ev.mu.Lock()
		var guid, got string
		if len(ev.done) > after {
			guid = ev.done[after]
			got = ev.names[guid]
		}
		failed := append([]string(nil), ev.failed...)
		ev.mu.Unlock()
		if len(failed) > 0 {
			t.Fatalf("the browser cancelled downloads: %q", failed)
		}
		if guid != "" {
			if got != name {
				t.Fatalf("the page saved %q, want %q", got, name)
			}
			data, err := os.ReadFile(filepath.Join(ev.dir, guid))
			if err != nil {
				t.Fatalf("reading the download %s: %v", name, err)
			}
			keep := filepath.Join(screenshotDir(t, "browser"), fmt.Sprintf("%02d-download-%s", nextShot(t), name))
			if err := os.WriteFile(keep, data, 0o644); err != nil {
				t.Fatal(err)
			}
			return data
		}
		if time.Now().After(deadline) {
			t.Fatalf("no download of %s completed within %v", name, waitTimeout)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// answerChooser waits for the page to open a file chooser and picks path in it, as a
// reader choosing a file in the dialog does.
func (ev *pageEvents) answerChooser(path string) {
	t := ev.b.t
	t.Helper()
	var node cdp.BackendNodeID
	select {
	case node = <-ev.choosers:
	case <-time.After(waitTimeout):
		t.Fatalf("the page opened no file chooser within %v", waitTimeout)
	}
	if node == 0 {
		t.Fatal("the file chooser does not belong to an <input type=file>, so no file can be given to it")
	}
	ctx, cancel := context.WithTimeout(ev.b.ctx, waitTimeout)
	defer cancel()
	if _, err := chromedp.Call(ctx, dom.SetFileInputFiles, dom.SetFileInputFilesParams{Files: []string{path}, BackendNodeID: node}); err != nil {
		t.Fatalf("DOM.setFileInputFiles: %v", err)
	}
}

// dropFile drops a file named name holding text in the middle of the page, as a reader
// dragging it from their file manager does: the DevTools protocol's drag events carry a
// real file, so the page receives a drop event whose DataTransfer holds a File (and
// Ebiten's own drop handler on the canvas sees a real file-system entry).
func dropFile(b *browser, name, text string) {
	b.t.Helper()
	path := filepath.Join(b.t.TempDir(), name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		b.t.Fatal(err)
	}
	s := appState(b)
	x, y := s.Screen.Width/2, s.Screen.Height/2
	data := &input.DragData{Items: []*input.DragDataItem{}, Files: []string{path}, DragOperationsMask: 1} // 1: copy
	ctx, cancel := context.WithTimeout(b.ctx, waitTimeout)
	defer cancel()
	for _, typ := range []input.DispatchDragEventType{input.DispatchDragEventTypeDragEnter, input.DispatchDragEventTypeDragOver, input.DispatchDragEventTypeDrop} {
		if _, err := chromedp.Call(ctx, input.DispatchDragEvent, input.DispatchDragEventParams{Type: typ, X: x, Y: y, Data: data}); err != nil {
			b.t.Fatalf("Input.dispatchDragEvent %s with %s: %v", typ, name, err)
		}
	}
}

// openShareMenu opens the setup menu with the toolbar's menu button, unless it is open,
// and returns the snapshot with the menu's controls.
func openShareMenu(b *browser) app.Snapshot {
	b.t.Helper()
	s := appState(b)
	if s.Menu == "setup" {
		return s
	}
	clickWidget(b, s, "menu")
	return waitState(b, "the setup menu", func(s app.Snapshot) bool {
		_, ok := widgetRect(s, "share.png")
		return s.Menu == "setup" && ok
	})
}

// pauseWithButton pauses the run with the toolbar's play button.
func pauseWithButton(b *browser) app.Snapshot {
	b.t.Helper()
	s := appState(b)
	if !s.Paused {
		clickWidget(b, s, "cmd:"+viz.CmdPlayPause.String())
	}
	return waitState(b, "the run to pause", func(s app.Snapshot) bool { return s.Paused })
}

// replayFile runs a schedule as `raftsim run -f` does and returns the world at its end.
func replayFile(t *testing.T, what string, data []byte) (raftcore.Schedule, *raftcore.World) {
	t.Helper()
	s, err := raftcore.ParseSchedule(data)
	if err != nil {
		t.Fatalf("%s is not a schedule raftsim accepts: %v", what, err)
	}
	w, err := s.Run()
	if err != nil {
		t.Fatalf("replaying %s: %v", what, err)
	}
	return s, w
}

// decodePNG decodes a PNG or fails the test.
func decodePNG(t *testing.T, what string, data []byte) image.Image {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s is not a PNG: %v", what, err)
	}
	return img
}

// discColor is the colour that covers most of the ring between 0.5 and 0.85 of a
// machine's radius around its centre: the disc's fill, clear of the words on it. scale
// turns the snapshot's CSS pixels into the image's pixels.
func discColor(img image.Image, m app.MachineState, scale float64) [3]uint8 {
	counts := map[[3]uint8]int{}
	var best [3]uint8
	for _, f := range []float64{0.5, 0.6, 0.7, 0.8, 0.85} {
		for deg := 0; deg < 360; deg += 6 {
			a := float64(deg) * math.Pi / 180
			x := int(math.Round((m.X + math.Cos(a)*f*m.R) * scale))
			y := int(math.Round((m.Y + math.Sin(a)*f*m.R) * scale))
			r, g, bl, _ := img.At(x, y).RGBA()
			k := [3]uint8{uint8(r >> 8), uint8(g >> 8), uint8(bl >> 8)}
			counts[k]++
			if counts[k] > counts[best] {
				best = k
			}
		}
	}
	return best
}

// sameShare is the share of pixels of a and b (same size) whose channels all differ by
// at most tol.
func sameShare(a, b image.Image, tol uint32) float64 {
	r := a.Bounds()
	same := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			r1, g1, b1, _ := a.At(x, y).RGBA()
			r2, g2, b2, _ := b.At(x-r.Min.X+b.Bounds().Min.X, y-r.Min.Y+b.Bounds().Min.Y).RGBA()
			if absDiff(r1>>8, r2>>8) <= tol && absDiff(g1>>8, g2>>8) <= tol && absDiff(b1>>8, b2>>8) <= tol {
				same++
			}
		}
	}
	return float64(same) / float64(r.Dx()*r.Dy())
}

func absDiff(a, b uint32) uint32 {
	if a > b {
		return a - b
	}
	return b - a
}

// playAndPause opens the app, lets it elect a leader, sends client writes with the
// keyboard and pauses with the play button: a run with a few moments worth sharing.
func playAndPause(t *testing.T, b *browser) app.Snapshot {
	t.Helper()
	b.openApp("nodes=5&seed=3&speed=10")
	waitState(b, "a leader", func(s app.Snapshot) bool { return s.Leader > 0 })
	b.pressKey("c")
	b.pressKey("c")
	waitState(b, "the writes to commit", func(s app.Snapshot) bool {
		return s.Leader > 0 && machine(s, s.Leader).Commit >= 3
	})
	s := pauseWithButton(b)
	if s.NowMs != s.HeadMs || !s.Live {
		t.Fatalf("paused at %.3f ms with the head at %.3f ms (live %v): want the app at the head of its run", s.NowMs, s.HeadMs, s.Live)
	}
	return s
}

// TestTimelineSavePictureAndExports presses "Save picture", "Export run" and "Export
// trace" in the setup menu and checks the files the browser saves: a PNG of the view at
// the canvas's size in device pixels, a schedule that replays to the very world shown,
// and the trace of that world as JSON lines.
func TestTimelineSavePictureAndExports(t *testing.T) {
	b := newBrowser(t, 1280, 800)
	ev := watchPage(b)
	before := playAndPause(t, b)

	// Save picture: the menu closes and the next frame is saved.
	s := openShareMenu(b)
	n := ev.downloads()
	clickWidget(b, s, "share.png")
	pic := ev.waitDownload(n, "raftlab.png")
	img := decodePNG(t, "the saved picture", pic)
	canvas := evalJS[[2]int](b, `(function () { var c = document.querySelector("canvas"); return [c.width, c.height]; })()`)
	dpr := evalJS[float64](b, `window.devicePixelRatio`)
	if got := [2]int{img.Bounds().Dx(), img.Bounds().Dy()}; got != canvas {
		t.Errorf("the picture is %dx%d, the canvas %dx%d device pixels", got[0], got[1], canvas[0], canvas[1])
	}
	share, colors, err := pixelStats(img)
	if err != nil {
		t.Fatal(err)
	}
	if share > 0.9 || colors < 50 {
		t.Errorf("the picture looks empty: one colour covers %.1f%% of it, %d colours in all", share*100, colors)
	}
	s = waitState(b, "the menu to close for the picture", func(s app.Snapshot) bool { return s.Menu == "" })
	if s.TraceHash != before.TraceHash {
		t.Errorf("saving a picture moved the run: trace %s, was %s", s.TraceHash, before.TraceHash)
	}
	// The picture is the view: the leader's disc has the leader's colour, which no
	// follower's disc has, and every follower's disc has the same colour.
	scale := float64(img.Bounds().Dx()) / s.Screen.Width
	if math.Abs(scale-dpr) > 0.01 {
		t.Errorf("the picture has %.3f pixels per CSS pixel, the page's device pixel ratio is %g", scale, dpr)
	}
	lead := discColor(img, machine(s, s.Leader), scale)
	var follower [3]uint8
	for _, m := range s.Machines {
		if m.ID == s.Leader || m.Role != "follower" {
			continue
		}
		c := discColor(img, m, scale)
		if c == lead {
			t.Errorf("follower %s's disc has the leader's colour %v in the picture", m.Name, c)
		}
		if follower != ([3]uint8{}) && c != follower {
			t.Errorf("follower %s's disc is %v, another follower's %v", m.Name, c, follower)
		}
		follower = c
	}
	if follower == ([3]uint8{}) {
		t.Errorf("no follower in the picture's world: %+v", s.Machines)
	}
	// And it is what the page shows: a screenshot of the page now is the same picture,
	// pixel for pixel (the browser encoded it: see viz/draw's pngOf), but for anything
	// that changed under the pointer since.
	shot := b.screenshot("after-save-picture")
	data, err := os.ReadFile(shot)
	if err != nil {
		t.Fatal(err)
	}
	if page := decodePNG(t, "the page screenshot", data); page.Bounds().Size() == img.Bounds().Size() {
		if same := sameShare(img, page, 0); same < 0.97 {
			t.Errorf("only %.1f%% of the saved picture matches the page", same*100)
		}
	} else {
		t.Logf("the page screenshot is %v, the picture %v: not compared pixel by pixel", page.Bounds().Size(), img.Bounds().Size())
	}

	// Export run: a schedule that raftsim replays to the same world.
	s = openShareMenu(b)
	n = ev.downloads()
	clickWidget(b, s, "share.schedule")
	run := ev.waitDownload(n, "raftlab-run.json")
	sched, w := replayFile(t, "raftlab-run.json", run)
	s = appState(b)
	if got := raftcore.HashString(w.TraceHash()); got != s.TraceHash || w.TraceCount() != s.TraceCount {
		t.Errorf("raftlab-run.json replays to trace %s (%d events), the app shows %s (%d events)", got, w.TraceCount(), s.TraceHash, s.TraceCount)
	}
	if float64(w.Now())/1000 != s.NowMs || sched.UntilMs != s.HeadMs {
		t.Errorf("raftlab-run.json ends at %g ms and replays to %d µs; the app is at %g ms, its head at %g ms", sched.UntilMs, w.Now(), s.NowMs, s.HeadMs)
	}
	if sched.Nodes != s.Nodes || sched.Seed != s.Seed || len(sched.Actions) != len(s.Actions) {
		t.Errorf("raftlab-run.json has %d machines, seed %d, %d actions; the app %d, %d, %d",
			sched.Nodes, sched.Seed, len(sched.Actions), s.Nodes, s.Seed, len(s.Actions))
	}
	writes := 0
	for _, a := range sched.Actions {
		if a.Do == raftcore.DoWrite {
			writes++
		}
	}
	if writes < 2 {
		t.Errorf("raftlab-run.json has %d writes, want the 2 sent with the keyboard: %+v", writes, sched.Actions)
	}

	// Export trace: every event of the run, one JSON object a line, ending with the
	// events the replayed world keeps.
	n = ev.downloads()
	clickWidget(b, s, "share.trace")
	trace := ev.waitDownload(n, "raftlab-trace.json")
	var lines []string
	sc := bufio.NewScanner(bytes.NewReader(trace))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("reading raftlab-trace.json: %v", err)
	}
	if uint64(len(lines)) != s.TraceCount {
		t.Errorf("raftlab-trace.json has %d lines, the run %d trace events", len(lines), s.TraceCount)
	}
	for i, l := range lines {
		var e struct {
			Seq  uint64 `json:"seq"`
			Kind string `json:"kind"`
		}
		if err := json.Unmarshal([]byte(l), &e); err != nil || e.Kind == "" {
			t.Fatalf("raftlab-trace.json line %d is not a trace event (%v):\n%s", i+1, err, l)
		}
		if e.Seq != uint64(i+1) {
			t.Fatalf("raftlab-trace.json line %d has seq %d: events are missing or out of order", i+1, e.Seq)
		}
	}
	kept := w.Trace()
	if len(kept) == 0 || len(kept) > len(lines) {
		t.Fatalf("the replayed world keeps %d events, the file has %d lines", len(kept), len(lines))
	}
	for i, e := range kept {
		want, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		if got := lines[len(lines)-len(kept)+i]; got != string(want) {
			t.Fatalf("raftlab-trace.json line %d is\n%s\nthe replayed run's event is\n%s", len(lines)-len(kept)+i+1, got, want)
		}
	}
	noExceptions(t, b)
}

// example reads a schedule from docs/examples and the world raftsim replays it to.
func example(t *testing.T, name string) (string, []byte, raftcore.Schedule, *raftcore.World) {
	t.Helper()
	path := filepath.Join(repoRoot(t), "docs", "examples", name)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s, w := replayFile(t, path, data)
	return path, data, s, w
}

// requireShows fails the test unless the app shows the run of schedule s, replayed to w,
// at its end and paused.
func requireShows(t *testing.T, got app.Snapshot, name string, s raftcore.Schedule, w *raftcore.World) {
	t.Helper()
	want := raftcore.HashString(w.TraceHash())
	if got.TraceHash != want || got.TraceCount != w.TraceCount() {
		t.Errorf("after opening %s the app shows trace %s (%d events), raftsim's replay gives %s (%d events)",
			name, got.TraceHash, got.TraceCount, want, w.TraceCount())
	}
	if got.Nodes != s.Nodes || len(got.Machines) != s.Nodes || got.Protocol != s.Protocol || got.Seed != s.Seed {
		t.Errorf("after opening %s the app runs %d machines (%d drawn), protocol %q, seed %d; the file has %d, %q, seed %d",
			name, got.Nodes, len(got.Machines), got.Protocol, got.Seed, s.Nodes, s.Protocol, s.Seed)
	}
	if len(got.Actions) != len(s.Actions) {
		t.Errorf("after opening %s the app's world took %d actions, the file has %d", name, len(got.Actions), len(s.Actions))
	}
	if got.NowMs != s.UntilMs || !got.Paused {
		t.Errorf("after opening %s the app is at %g ms (paused %v), want paused at the file's end, %g ms", name, got.NowMs, got.Paused, s.UntilMs)
	}
}

// TestTimelineImportRun opens schedules from files the way a reader does: one chosen in
// the file picker that "Import run" opens, then another dropped on the page. Each time
// the app must show exactly the world raftsim replays the file to. Then it drops broken
// files: the app must say what is wrong with each, naming the file and the fault, and
// keep the run it showed.
func TestTimelineImportRun(t *testing.T) {
	pickPath, _, pickSched, pickWorld := example(t, "partition-3-2.json")
	dropPath, dropData, dropSched, dropWorld := example(t, "stale-lease-read.json")
	if raftcore.HashString(pickWorld.TraceHash()) == raftcore.HashString(dropWorld.TraceHash()) {
		t.Fatalf("%s and %s replay to the same trace; the test needs two different runs", pickPath, dropPath)
	}

	b := newBrowser(t, 1280, 800)
	ev := watchPage(b)
	b.openApp("nodes=3&seed=9&speed=10")
	pauseWithButton(b)

	// The file picker, as "Import run" opens it.
	s := openShareMenu(b)
	clickWidget(b, s, "share.import")
	ev.answerChooser(pickPath)
	want := raftcore.HashString(pickWorld.TraceHash())
	got := waitState(b, "the chosen run to open", func(s app.Snapshot) bool { return s.TraceHash == want })
	requireShows(t, got, filepath.Base(pickPath), pickSched, pickWorld)
	requireNotBlank(t, b.screenshot("picked-"+filepath.Base(pickPath)))

	// A file dropped on the page.
	dropFile(b, filepath.Base(dropPath), string(dropData))
	want = raftcore.HashString(dropWorld.TraceHash())
	got = waitState(b, "the dropped run to open", func(s app.Snapshot) bool { return s.TraceHash == want })
	requireShows(t, got, filepath.Base(dropPath), dropSched, dropWorld)
	requireNotBlank(t, b.screenshot("dropped-"+filepath.Base(dropPath)))

	// Broken files leave the run as it was and say what is wrong.
	var bad map[string]any
	if err := json.Unmarshal(dropData, &bad); err != nil {
		t.Fatal(err)
	}
	actions := bad["actions"].([]any)
	actions[2].(map[string]any)["node"] = 9 // a write to machine 9 of 3
	badField, err := json.Marshal(bad)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raftcore.ParseSchedule(badField); err == nil {
		t.Fatal("the schedule with a write to machine 9 of 3 parses; it should not")
	}
	cases := []struct {
		file, text string
		words      []string // the message must contain each
	}{
		{"cut-short.json", string(dropData[:len(dropData)/2]), []string{"cut-short.json", "JSON"}},
		{"machine-9.json", string(badField), []string{"machine-9.json", "actions[2].node"}},
	}
	for _, c := range cases {
		before := appState(b)
		dropFile(b, c.file, c.text)
		got := waitState(b, "a message about "+c.file, func(s app.Snapshot) bool { return strings.Contains(s.Banner, c.file) })
		for _, w := range c.words {
			if !strings.Contains(got.Banner, w) {
				t.Errorf("the message about %s is %q; it does not name %q", c.file, got.Banner, w)
			}
		}
		// The message must say more than the file's name.
		if len(strings.TrimSpace(strings.Replace(got.Banner, c.file, "", 1))) < 10 {
			t.Errorf("the message about %s, %q, does not say what is wrong", c.file, got.Banner)
		}
		t.Logf("%s: %s", c.file, got.Banner)
		requireNotBlank(t, b.screenshot("bad-"+c.file))
		b.waitFrames(3)
		after := appState(b)
		if after.TraceHash != before.TraceHash || after.NowMs != before.NowMs || after.Nodes != before.Nodes || len(after.Actions) != len(before.Actions) {
			t.Errorf("dropping %s changed the run: trace %s at %g ms with %d machines and %d actions, was %s at %g ms with %d and %d",
				c.file, after.TraceHash, after.NowMs, after.Nodes, len(after.Actions), before.TraceHash, before.NowMs, before.Nodes, len(before.Actions))
		}
	}
	noExceptions(t, b)
}
