//go:build desktop

package e2e

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

const (
	// envDesktopBin names a prebuilt desktop binary to test instead of building ./cmd/desktop.
	envDesktopBin = "RAFTLAB_DESKTOP_BIN"

	// Upper bounds for waits; a healthy app is far quicker. Nothing is measured against them.
	desktopStartTimeout = 60 * time.Second
	desktopBuildTimeout = 10 * time.Minute
	// inputPause is the time between a press and a release sent with xdotool: several
	// frames at 60 frames per second, so that Ebiten's once-per-frame input polling sees both.
	inputPause = 100 * time.Millisecond
)

var (
	desktopOnce sync.Once
	desktopPath string
	desktopErr  string // build output when the build failed
	desktopSkip string // reason to skip, when there is nothing to build
)

// desktopBinary returns the desktop app: $RAFTLAB_DESKTOP_BIN if set, else ./cmd/desktop
// built (once per test binary) into <repo>/bin/raftlab-desktop, as `make desktop` does.
func desktopBinary(t testing.TB) string {
	t.Helper()
	if p := os.Getenv(envDesktopBin); p != "" {
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("%s=%s: %v", envDesktopBin, p, err)
		}
		return p
	}
	root := repoRoot(t)
	desktopOnce.Do(func() {
		srcs, _ := filepath.Glob(filepath.Join(root, "cmd", "desktop", "*.go"))
		if len(srcs) == 0 {
			desktopSkip = "./cmd/desktop has no Go files yet"
			return
		}
		out := filepath.Join(root, "bin", "raftlab-desktop")
		ctx, cancel := context.WithTimeout(context.Background(), desktopBuildTimeout)
		defer cancel()
		// The launcher and, beside it, the window program it hands over to.
		for _, b := range [][2]string{{out, "./cmd/desktop"}, {out + "-window", "./cmd/desktop/window"}} {
			cmd := exec.CommandContext(ctx, "go", "build", "-o", b[0], b[1])
			cmd.Dir = root
			cmd.Env = append(os.Environ(), "CGO_ENABLED=1")
			if o, err := cmd.CombinedOutput(); err != nil {
				desktopErr = fmt.Sprintf("go build %s: %v\n%s", b[1], err, o)
				return
			}
		}
		desktopPath = out
	})
	if desktopSkip != "" {
		requireOrSkip(t, desktopSkip)
	}
	if desktopErr != "" {
		t.Fatal(desktopErr)
	}
	return desktopPath
}

// requireDisplay returns $DISPLAY, or skips (fails under CI) when it is not set.
func requireDisplay(t testing.TB) string {
	t.Helper()
	d := os.Getenv("DISPLAY")
	if d == "" {
		requireOrSkip(t, "DISPLAY is not set: run under scripts/with-xvfb.sh (make e2e-desktop does)")
	}
	return d
}

// desktopApp is a running desktop binary on the X display of $DISPLAY.
type desktopApp struct {
	t       testing.TB
	cmd     *exec.Cmd
	display string
	output  *syncBuffer // stdout and stderr together
	exited  chan struct{}
	waitErr error // set before exited is closed
	shots   string
	window  string // X window id, found on first use
}

// startDesktop starts the desktop app (see desktopBinary) with args on $DISPLAY. The
// process is stopped when the test ends, and its output is logged if the test failed.
func startDesktop(t testing.TB, args ...string) *desktopApp {
	t.Helper()
	display := requireDisplay(t)
	bin := desktopBinary(t)
	a := &desktopApp{t: t, display: display, output: &syncBuffer{}, exited: make(chan struct{})}
	a.cmd = exec.Command(bin, args...)
	a.cmd.Env = append(os.Environ(), "DISPLAY="+display)
	a.cmd.Stdout = a.output
	a.cmd.Stderr = a.output
	if err := a.cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", bin, err)
	}
	go func() {
		a.waitErr = a.cmd.Wait()
		close(a.exited)
	}()
	t.Cleanup(func() {
		a.stop()
		if t.Failed() {
			t.Logf("output of %s:\n%s", filepath.Base(bin), a.output.String())
		}
	})
	return a
}

// stop ends the process: SIGTERM, then SIGKILL if it is still there after 5 s.
func (a *desktopApp) stop() {
	select {
	case <-a.exited:
		return
	default:
	}
	a.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-a.exited:
	case <-time.After(5 * time.Second):
		a.cmd.Process.Kill()
		<-a.exited
	}
}

// running fails the test if the process has exited.
func (a *desktopApp) running() {
	a.t.Helper()
	select {
	case <-a.exited:
		a.t.Fatalf("the desktop app exited (%v); output:\n%s", a.waitErr, a.output.String())
	default:
	}
}

// waitOutput waits until the app's output contains s.
func (a *desktopApp) waitOutput(s string, timeout time.Duration) {
	a.t.Helper()
	deadline := time.Now().Add(timeout)
	for !strings.Contains(a.output.String(), s) {
		a.running()
		if time.Now().After(deadline) {
			a.t.Fatalf("no %q in the app's output after %v; output:\n%s", s, timeout, a.output.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// waitWindow waits until the app has a mapped X window and returns its id.
func (a *desktopApp) waitWindow() string {
	a.t.Helper()
	if a.window != "" {
		return a.window
	}
	deadline := time.Now().Add(desktopStartTimeout)
	for {
		a.running()
		// xdotool search exits 1 when it finds nothing yet.
		out, _ := a.xdotoolCmd("search", "--onlyvisible", "--pid", strconv.Itoa(a.cmd.Process.Pid)).Output()
		if ids := strings.Fields(string(out)); len(ids) > 0 {
			a.window = ids[len(ids)-1]
			return a.window
		}
		if time.Now().After(deadline) {
			a.t.Fatalf("the desktop app opened no window within %v; output:\n%s", desktopStartTimeout, a.output.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// windowGeometry returns the position and size of the app's window on the screen.
func (a *desktopApp) windowGeometry() (x, y, w, h int) {
	a.t.Helper()
	win := a.waitWindow()
	out, err := a.xdotoolCmd("getwindowgeometry", "--shell", win).Output()
	if err != nil {
		a.t.Fatalf("xdotool getwindowgeometry: %v", err)
	}
	vals := map[string]int{}
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), "=")
		if n, err := strconv.Atoi(v); ok && err == nil {
			vals[k] = n
		}
	}
	return vals["X"], vals["Y"], vals["WIDTH"], vals["HEIGHT"]
}

// capture writes a PNG of the whole X screen to path with ImageMagick's import.
func (a *desktopApp) capture(path string) {
	a.t.Helper()
	imp := requireTool(a.t, "import", "imagemagick")
	cmd := exec.Command(imp, "-display", a.display, "-window", "root", path)
	if out, err := cmd.CombinedOutput(); err != nil {
		a.t.Fatalf("import -window root: %v\n%s", err, out)
	}
}

// screenshot saves a PNG of the screen under artifacts/screenshots/desktop/<test>/ and
// returns its path.
func (a *desktopApp) screenshot(name string) string {
	a.t.Helper()
	if a.shots == "" {
		a.shots = screenshotDir(a.t, "desktop")
	}
	p := filepath.Join(a.shots, shotName(nextShot(a.t), name))
	a.capture(p)
	return p
}

// waitDrawn waits until the screen is no longer blank (the app drew its first frame),
// saves that screenshot under name and returns its path.
func (a *desktopApp) waitDrawn(name string) string {
	a.t.Helper()
	a.waitWindow()
	tmp := filepath.Join(a.t.TempDir(), "probe.png")
	deadline := time.Now().Add(desktopStartTimeout)
	for {
		a.running()
		a.capture(tmp)
		share, _, err := imageStats(tmp)
		if err != nil {
			a.t.Fatal(err)
		}
		if share <= blankShare {
			return a.screenshot(name)
		}
		if time.Now().After(deadline) {
			p := a.screenshot(name + "-blank")
			a.t.Fatalf("the screen stayed blank for %v (see %s); output:\n%s", desktopStartTimeout, p, a.output.String())
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// xdotoolCmd prepares an xdotool command on the app's display.
func (a *desktopApp) xdotoolCmd(args ...string) *exec.Cmd {
	a.t.Helper()
	bin := requireTool(a.t, "xdotool", "xdotool")
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "DISPLAY="+a.display)
	return cmd
}

// xdotool runs xdotool with args and fails the test on error.
func (a *desktopApp) xdotool(args ...string) {
	a.t.Helper()
	if out, err := a.xdotoolCmd(args...).CombinedOutput(); err != nil {
		a.t.Fatalf("xdotool %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// mouseMove moves the pointer to (x, y) relative to the app's window.
func (a *desktopApp) mouseMove(x, y int) {
	a.t.Helper()
	a.xdotool("mousemove", "--window", a.waitWindow(), strconv.Itoa(x), strconv.Itoa(y))
}

// click moves to (x, y) relative to the app's window, presses the left button, waits a
// few frames and releases it.
func (a *desktopApp) click(x, y int) {
	a.t.Helper()
	a.mouseMove(x, y)
	a.xdotool("mousedown", "1")
	time.Sleep(inputPause)
	a.xdotool("mouseup", "1")
	time.Sleep(inputPause)
}

// drag presses at (x0, y0), moves to (x1, y1) in steps a frame or more apart, and releases;
// coordinates are relative to the app's window.
func (a *desktopApp) drag(x0, y0, x1, y1, steps int) {
	a.t.Helper()
	if steps < 1 {
		steps = 1
	}
	a.mouseMove(x0, y0)
	a.xdotool("mousedown", "1")
	time.Sleep(inputPause)
	for i := 1; i <= steps; i++ {
		a.mouseMove(x0+(x1-x0)*i/steps, y0+(y1-y0)*i/steps)
		time.Sleep(inputPause / 4)
	}
	time.Sleep(inputPause)
	a.xdotool("mouseup", "1")
	time.Sleep(inputPause)
}

// pressKey presses and releases a key given by its X keysym name, such as "space",
// "Left" or "a", a few frames apart, with the app's window focused.
func (a *desktopApp) pressKey(keysym string) {
	a.t.Helper()
	a.xdotool("windowfocus", "--sync", a.waitWindow())
	a.xdotool("keydown", keysym)
	time.Sleep(inputPause)
	a.xdotool("keyup", keysym)
	time.Sleep(inputPause)
}
