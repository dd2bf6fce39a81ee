//go:build desktop

package e2e

import (
	"bytes"
	"compress/flate"
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"hash/crc32"
	"math"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"raftlab/raftcore"
	"raftlab/raftcore/timeline"
	"raftlab/viz/app"
)

// The tests in this file open share links in the desktop app. They read what the window
// shows from the app's snapshot, which -stats prints as a "raftlab: snapshot {...}"
// line, and end by themselves with -shot.

// desktopRun is the outcome of one run of the desktop app to its end.
type desktopRun struct {
	stdout, stderr string
	err            error // how the process ended
	shot           string
	snaps          []app.Snapshot
}

// runDesktopToEnd runs the desktop app with args plus -stats and -shot in an empty
// working directory (where the app saves files) and waits for it to exit.
func runDesktopToEnd(t *testing.T, args ...string) desktopRun {
	t.Helper()
	display := requireDisplay(t)
	bin := desktopBinary(t)
	dir := t.TempDir()
	r := desktopRun{shot: filepath.Join(dir, "shot.png")}
	ctx, cancel := context.WithTimeout(context.Background(), desktopStartTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, append(args, "-stats", "-shot", r.shot)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "DISPLAY="+display)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	r.err = cmd.Run()
	r.stdout, r.stderr = stdout.String(), stderr.String()
	if ctx.Err() != nil {
		t.Fatalf("the desktop app was still running after %v with -shot; stdout:\n%s\nstderr:\n%s", desktopStartTimeout, r.stdout, r.stderr)
	}
	for _, line := range strings.Split(r.stdout, "\n") {
		data, ok := strings.CutPrefix(line, "raftlab: snapshot ")
		if !ok {
			continue
		}
		var s app.Snapshot
		if err := json.Unmarshal([]byte(data), &s); err != nil {
			t.Fatalf("a snapshot line is not a snapshot: %v\n%.300s", err, data)
		}
		r.snaps = append(r.snaps, s)
	}
	if len(r.snaps) == 0 {
		t.Fatalf("-stats printed no snapshot (exit: %v); stdout:\n%s\nstderr:\n%s", r.err, r.stdout, r.stderr)
	}
	return r
}

// keepShot checks the -shot picture and copies it next to the test's screenshots.
func keepShot(t *testing.T, r desktopRun, name string) {
	t.Helper()
	data, err := os.ReadFile(r.shot)
	if err != nil {
		t.Fatalf("-shot wrote no picture: %v", err)
	}
	kept := filepath.Join(screenshotDir(t, "desktop"), shotName(nextShot(t), name))
	if err := os.WriteFile(kept, data, 0o644); err != nil {
		t.Fatal(err)
	}
	requireNotBlank(t, kept)
}

// sharedRun is a run with a crash and a client write, positioned a second before its
// end, as a reader who stepped back before copying the link leaves it.
func sharedRun(t *testing.T) *timeline.Timeline {
	t.Helper()
	cfg := raftcore.DefaultConfig()
	cfg.Nodes, cfg.Seed = 5, 7
	tl, err := timeline.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	tl.Advance(3_000_000)
	if err := tl.Act(raftcore.Action{Do: raftcore.DoCrash, Node: 2}); err != nil {
		t.Fatal(err)
	}
	tl.Advance(500_000)
	if err := tl.Act(raftcore.Action{Do: raftcore.DoWrite, Node: 1, Key: "deployments/web", Value: "replicas=3"}); err != nil {
		t.Fatal(err)
	}
	tl.Advance(1_500_000)
	tl.SeekTime(4_000_000)
	if tl.AtHead() {
		t.Fatal("the timeline is at its head after seeking back a second")
	}
	return tl
}

// TestDesktopOpensShareLink starts the desktop app with -link and the payload of a share
// link made in-process, and checks that the window shows that run at that moment,
// paused: the same trace, the same time, the same end.
func TestDesktopOpensShareLink(t *testing.T) {
	tl := sharedRun(t)
	payload, err := timeline.EncodeLink(tl.Link("", nil))
	if err != nil {
		t.Fatal(err)
	}
	w := tl.World()
	r := runDesktopToEnd(t, "-size", "1024x640", "-link", payload)
	if r.err != nil {
		t.Fatalf("the app ended with %v; stderr:\n%s", r.err, r.stderr)
	}
	if strings.Contains(r.stderr, "link") {
		t.Errorf("the app complains about a good link:\n%s", r.stderr)
	}
	s := r.snaps[0]
	if want := raftcore.HashString(w.TraceHash()); s.TraceHash != want || s.TraceCount != w.TraceCount() {
		t.Errorf("the app shows trace %s (%d events), the link's run at its moment is %s (%d events)", s.TraceHash, s.TraceCount, want, w.TraceCount())
	}
	if s.NowMs != float64(w.Now())/1000 || s.HeadMs != float64(tl.Head().AtUs)/1000 || s.Live {
		t.Errorf("the app is at %g ms of %g ms (live %v); the link's moment is %g ms of %g ms", s.NowMs, s.HeadMs, s.Live, float64(w.Now())/1000, float64(tl.Head().AtUs)/1000)
	}
	if !s.Paused {
		t.Error("a shared run opens running; want it paused at the shared moment")
	}
	if s.Nodes != 5 || s.Seed != 7 || len(s.Actions) != len(w.Actions()) {
		t.Errorf("the app runs %d machines, seed %d, %d actions taken; the link has 5, 7 and %d", s.Nodes, s.Seed, len(s.Actions), len(w.Actions()))
	}
	if m := s.Machines[1]; m.ID != 2 || m.Status != "crashed" {
		t.Errorf("machine %d is %q at the link's moment, want machine 2 crashed", m.ID, m.Status)
	}
	if s.Banner != "" {
		t.Errorf("the app says %q on opening a good link", s.Banner)
	}
	// Paused, the run stays where the link put it for every frame drawn.
	for _, later := range r.snaps[1:] {
		if later.TraceHash != s.TraceHash || later.NowMs != s.NowMs {
			t.Errorf("the paused run moved to %s at %g ms", later.TraceHash, later.NowMs)
		}
	}
	keepShot(t, r, "link-opened")
}

// linkOf packs JSON into a share-link payload by the format timeline documents (CRC-32
// and length, deflate, base64url), without its checks: a link a damaged or hostile page
// could hand out.
func linkOf(t *testing.T, payload string) string {
	t.Helper()
	var buf bytes.Buffer
	buf.Write(binary.BigEndian.AppendUint32(nil, crc32.ChecksumIEEE([]byte(payload))))
	buf.Write(binary.AppendUvarint(nil, uint64(len(payload))))
	fw, err := flate.NewWriter(&buf, flate.BestCompression)
	if err != nil {
		t.Fatal(err)
	}
	fw.Write([]byte(payload))
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
	return "1." + base64.RawURLEncoding.EncodeToString(buf.Bytes())
}

// TestDesktopBadLinkFallsBack starts the desktop app with links it cannot open: one cut
// short in copying and one whose run names a machine the cluster lacks. The app must say
// what is wrong on stderr and in the window, and open the default run instead.
func TestDesktopBadLinkFallsBack(t *testing.T) {
	good, err := timeline.EncodeLink(sharedRun(t).Link("", nil))
	if err != nil {
		t.Fatal(err)
	}
	badNode := linkOf(t, `{"run": {"nodes": 3, "seed": 1, "until_ms": 2000, "actions": [{"at_ms": 500, "do": "crash", "node": 4}]}, "pos_us": 1000000}`)
	if _, err := timeline.DecodeLink(badNode); err == nil {
		t.Fatal("a link with a crash of machine 4 of 3 decodes; it should not")
	}
	cases := []struct {
		name, link string
		words      []string // the complaint must contain each
	}{
		{"cut-short", good[:len(good)*2/3], []string{"cut short"}},
		{"machine-4-of-3", badNode, []string{"actions[0].node", "4"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := runDesktopToEnd(t, "-size", "1024x640", "-link", c.link)
			if r.err != nil {
				var exit *exec.ExitError
				if !errors.As(r.err, &exit) {
					t.Fatalf("the app did not run: %v", r.err)
				}
				t.Fatalf("the app exited with %v on a bad link; want the default run and a message. stderr:\n%s", r.err, r.stderr)
			}
			out := &syncBuffer{}
			out.Write([]byte(r.stdout + r.stderr))
			noCrashOutput(t, &desktopApp{t: t, output: out})
			s := r.snaps[0]
			for _, w := range c.words {
				if !strings.Contains(r.stderr, "-link") || !strings.Contains(r.stderr, w) {
					t.Errorf("stderr does not name -link and %q:\n%s", w, r.stderr)
				}
				if !strings.Contains(s.Banner, w) {
					t.Errorf("the window says %q, which does not name %q", s.Banner, w)
				}
			}
			for _, l := range strings.Split(r.stderr, "\n") {
				if strings.HasPrefix(l, "raftlab:") {
					t.Log(l)
				}
			}
			// The default run: five machines from the start, no actions, running.
			if s.Nodes != 5 || len(s.Actions) != 0 || s.NowMs > 1000 || s.Paused {
				t.Errorf("after a bad link the app shows %d machines, %d actions, at %g ms (paused %v); want the default run from its start",
					s.Nodes, len(s.Actions), s.NowMs, s.Paused)
			}
			keepShot(t, r, "bad-link")
		})
	}
}

// lastSnapshot returns the last snapshot the running app printed (-stats), if any.
func lastSnapshot(t *testing.T, a *desktopApp) (app.Snapshot, bool) {
	t.Helper()
	out := a.output.String()
	i := strings.LastIndex(out, "raftlab: snapshot ")
	if i < 0 {
		return app.Snapshot{}, false
	}
	line, _, complete := strings.Cut(out[i+len("raftlab: snapshot "):], "\n")
	if !complete {
		return app.Snapshot{}, false // still being written
	}
	var s app.Snapshot
	if err := json.Unmarshal([]byte(line), &s); err != nil {
		t.Fatalf("a snapshot line is not a snapshot: %v\n%.300s", err, line)
	}
	return s, true
}

// waitSnapshot waits until the app prints a snapshot for which ok holds.
func waitSnapshot(t *testing.T, a *desktopApp, what string, ok func(app.Snapshot) bool) app.Snapshot {
	t.Helper()
	deadline := time.Now().Add(desktopStartTimeout)
	for {
		a.running()
		if s, found := lastSnapshot(t, a); found && ok(s) {
			return s
		}
		if time.Now().After(deadline) {
			t.Fatalf("waiting for %s: no such snapshot within %v; output:\n%.3000s", what, desktopStartTimeout, a.output.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// clickControl clicks the middle of a control of the snapshot in the desktop window.
func clickControl(t *testing.T, a *desktopApp, s app.Snapshot, id string) {
	t.Helper()
	for _, w := range s.Screen.Widgets {
		if w.ID == id {
			c := w.Rect.Center()
			a.click(int(math.Round(c.X)), int(math.Round(c.Y)))
			return
		}
	}
	t.Fatalf("no control %q in the window", id)
}

// TestDesktopCopyLinkRoundTrip opens a share link in the desktop app, then copies the
// link again with the mouse, through the setup menu's "Copy link", which prints it in the
// terminal. That link must hold the same run at the same moment.
func TestDesktopCopyLinkRoundTrip(t *testing.T) {
	tl := sharedRun(t)
	payload, err := timeline.EncodeLink(tl.Link("", nil))
	if err != nil {
		t.Fatal(err)
	}
	a := startDesktop(t, "-size", "1024x640", "-link", payload, "-stats")
	a.waitWindow()
	s := waitSnapshot(t, a, "the first frame", func(app.Snapshot) bool { return true })
	if s.Screen.Width != 1024 {
		t.Fatalf("the app lays out %g px across, the window is 1024: clicks would miss", s.Screen.Width)
	}
	clickControl(t, a, s, "menu")
	s = waitSnapshot(t, a, "the setup menu", func(s app.Snapshot) bool { return s.Menu == "setup" })
	a.screenshot("setup-menu")
	clickControl(t, a, s, "share.link")
	a.waitOutput("raftlab: link: ", desktopStartTimeout)
	out := a.output.String()
	line, _, _ := strings.Cut(out[strings.Index(out, "raftlab: link: ")+len("raftlab: link: "):], "\n")
	u, err := url.Parse(strings.TrimSpace(line))
	if err != nil {
		t.Fatalf("the printed link %q is not a URL: %v", line, err)
	}
	l, err := timeline.DecodeLink(u.Query().Get("link"))
	if err != nil {
		t.Fatalf("the printed link %q does not decode: %v", line, err)
	}
	again, err := timeline.OpenLink(l)
	if err != nil {
		t.Fatal(err)
	}
	w, w2 := tl.World(), again.World()
	if w2.TraceHash() != w.TraceHash() || w2.Now() != w.Now() || again.Head() != tl.Head() {
		t.Errorf("the copied link opens trace %s at %d µs of %d µs, the original %s at %d µs of %d µs",
			raftcore.HashString(w2.TraceHash()), w2.Now(), again.Head().AtUs, raftcore.HashString(w.TraceHash()), w.Now(), tl.Head().AtUs)
	}
	s = waitSnapshot(t, a, "a note about the printed link", func(s app.Snapshot) bool { return s.Banner != "" })
	if !strings.Contains(s.Banner, "terminal") {
		t.Errorf("after copying, the window says %q; want it to say where the link went", s.Banner)
	}
	a.screenshot("link-copied")
}
