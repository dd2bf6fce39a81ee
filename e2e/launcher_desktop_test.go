//go:build desktop

package e2e

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"

	"raftlab/raftcore"
	"raftlab/raftcore/timeline"
)

// runWithoutDisplay runs the desktop program with args and with no DISPLAY or
// WAYLAND_DISPLAY in its environment; it returns stdout, stderr and the exit
// status.
func runWithoutDisplay(t *testing.T, args ...string) (stdout, stderr string, status int) {
	t.Helper()
	bin := desktopBinary(t)
	cmd := exec.Command(bin, args...)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "DISPLAY=") && !strings.HasPrefix(kv, "WAYLAND_DISPLAY=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("running %s: %v", bin, err)
	}
	if exit != nil {
		status = exit.ExitCode()
	}
	if s := errOut.String(); strings.Contains(s, "panic") || strings.Contains(s, "glfw") || strings.Contains(s, "goroutine") {
		t.Fatalf("%s %q panicked with no display:\n%s", bin, args, s)
	}
	return out.String(), errOut.String(), status
}

// TestDesktopHelpWithoutDisplay: with no display, -h prints the usage on stdout and exits
// 0, a bad flag gets a message naming it and exit status 2, and a bad parameter is
// told and followed by why no window opens, exit status 1; never Ebiten's panic at init.
func TestDesktopHelpWithoutDisplay(t *testing.T) {
	for _, h := range []string{"-h", "--help", "-help"} {
		out, errOut, status := runWithoutDisplay(t, h)
		if status != 0 || !strings.HasPrefix(out, "usage: raftlab-desktop") || errOut != "" {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit 0 with the usage on stdout", h, status, out, errOut)
		}
	}
	_, errOut, status := runWithoutDisplay(t, "-size", "3")
	if status != 2 || !strings.Contains(errOut, `-size "3"`) {
		t.Errorf("-size 3: exit %d, stderr %q; want exit 2 naming -size", status, errOut)
	}
	_, errOut, status = runWithoutDisplay(t, "-shot")
	if status != 2 || !strings.Contains(errOut, "-shot needs a value") {
		t.Errorf("-shot alone: exit %d, stderr %q; want exit 2 saying it needs a value", status, errOut)
	}
	_, errOut, status = runWithoutDisplay(t, "nodes=12", "http://127.0.0.1:8080/?speed=3&link=zz")
	for _, want := range []string{"nodes=12", "link", "no display"} {
		if status != 1 || !strings.Contains(errOut, want) {
			t.Errorf("bad parameters with no display: exit %d, stderr %q; want exit 1 and %q said", status, errOut, want)
		}
	}
}

// TestDesktopOpensWholeShareAddress gives the desktop program the whole address a share
// link is (not -link, not its link= part): it opens that run at that moment.
func TestDesktopOpensWholeShareAddress(t *testing.T) {
	tl := sharedRun(t)
	payload, err := timeline.EncodeLink(tl.Link("", nil))
	if err != nil {
		t.Fatal(err)
	}
	r := runDesktopToEnd(t, "-size", "1024x640", "http://127.0.0.1:8080/?theme=dark&link="+payload)
	if r.err != nil || strings.Contains(r.stderr, "raftlab:") {
		t.Fatalf("the app ended with %v; stderr:\n%s", r.err, r.stderr)
	}
	s, w := r.snaps[0], tl.World()
	if want := raftcore.HashString(w.TraceHash()); s.TraceHash != want || s.NowMs != float64(w.Now())/1000 {
		t.Errorf("the app shows trace %s at %g ms; the link's run is %s at %g ms", s.TraceHash, s.NowMs, want, float64(w.Now())/1000)
	}
	if s.Theme != "dark" {
		t.Errorf("the address's theme=dark was not read: theme %q", s.Theme)
	}
	keepShot(t, r, "whole address")
}
