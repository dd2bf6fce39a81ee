//go:build desktop

package e2e

import (
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// waitExit waits up to timeout for the app to exit and returns how it ended; it fails
// the test if the app is still running then.
func (a *desktopApp) waitExit(timeout time.Duration) error {
	a.t.Helper()
	select {
	case <-a.exited:
		return a.waitErr
	case <-time.After(timeout):
		a.t.Fatalf("the desktop app still runs %v later; output:\n%s", timeout, a.output.String())
		return nil
	}
}

// noCrashOutput fails the test if the app's output shows a panic or a Go runtime error.
func noCrashOutput(t *testing.T, a *desktopApp) {
	t.Helper()
	out := a.output.String()
	for _, bad := range []string{"panic:", "fatal error:", "goroutine "} {
		if strings.Contains(out, bad) {
			t.Errorf("the app's output contains %q:\n%s", bad, out)
		}
	}
}

// TestDesktopShotSavesAFrameAndQuits runs the desktop app with -shot, which saves the
// third frame it draws as a PNG and ends the game: the process must exit with status 0
// and leave a picture of the requested size that is not blank.
func TestDesktopShotSavesAFrameAndQuits(t *testing.T) {
	shot := filepath.Join(t.TempDir(), "frame.png")
	app := startDesktop(t, "-size", "1024x640", "-shot", shot, "nodes=5", "seed=2", "speed=1")
	if err := app.waitExit(desktopStartTimeout); err != nil {
		t.Fatalf("the app exited with %v after -shot; output:\n%s", err, app.output.String())
	}
	noCrashOutput(t, app)
	f, err := os.Open(shot)
	if err != nil {
		t.Fatalf("-shot wrote no picture: %v", err)
	}
	defer f.Close()
	cfg, err := png.DecodeConfig(f)
	if err != nil {
		t.Fatalf("the -shot picture is not a PNG: %v", err)
	}
	// A display with a device scale factor above 1 gives a larger picture of the same shape.
	if cfg.Width < 1024 || cfg.Width*640 != cfg.Height*1024 {
		t.Errorf("the -shot picture is %d×%d, want 1024×640 or a multiple", cfg.Width, cfg.Height)
	}
	requireNotBlank(t, shot)
	kept := filepath.Join(screenshotDir(t, "desktop"), shotName(nextShot(t), "shot-flag"))
	if data, err := os.ReadFile(shot); err == nil {
		os.WriteFile(kept, data, 0o644)
	}
}

// TestDesktopQuitsOnSIGTERM starts the app, waits until it has drawn, and checks that
// SIGTERM (what a session manager or `kill` sends) ends it promptly and without a crash.
func TestDesktopQuitsOnSIGTERM(t *testing.T) {
	app := startDesktop(t, "nodes=3", "speed=10")
	requireNotBlank(t, app.waitDrawn("running"))
	app.running()
	if err := app.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatalf("sending SIGTERM: %v", err)
	}
	err := app.waitExit(5 * time.Second)
	t.Logf("after SIGTERM the app ended with: %v", err)
	noCrashOutput(t, app)
}
