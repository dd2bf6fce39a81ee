// Command desktop runs raftlab in a window.
//
// Its parameters are the web app's URL parameters written as flags, so a
// figure opens the same way in both:
//
//	raftlab-desktop scenario=majority speed=1/10 theme=dark
//	raftlab-desktop -nodes 3 -protocol failover -autoplay
//	raftlab-desktop 'http://127.0.0.1:8080/?link=...'   (a whole share address)
//	raftlab-desktop -link <share link: the whole address, or its link= part>
//	raftlab-desktop -f run.json     (open an exported run)
//
// This is the launcher: it reads the command line, answers -h, and
// reports a bad flag or parameter with no window and no display needed;
// then it hands the process over to the window program, installed beside
// it as raftlab-desktop-window (cmd/desktop/window), with the command line
// it read. The window program links Ebiten, whose package init opens the
// window system and panics where there is none; this one links no
// graphics (a test holds it to that).
package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"

	"raftlab/cmd/desktop/internal/desktopcli"
	"raftlab/viz/app/session"
)

// windowProgram is the name of the window program, and windowEnv the
// variable that names another one.
const (
	windowProgram = "raftlab-desktop-window"
	windowEnv     = "RAFTLAB_WINDOW_BIN"
)

func main() {
	cl, err := desktopcli.Parse(os.Args[1:])
	if err != nil {
		fmt.Fprintf(os.Stderr, "raftlab: %v\n(raftlab-desktop -h lists the flags)\n", err)
		os.Exit(2)
	}
	if cl.Help {
		fmt.Print(desktopcli.Usage)
		return
	}
	if !hasDisplay() {
		// The window program would say the same things and then fail to
		// open: say them here, and why there is no window.
		cl.AppParams(os.Stderr, session.BuiltinScenarios())
		fmt.Fprintln(os.Stderr, "raftlab: no display to open a window on: DISPLAY (or WAYLAND_DISPLAY) is not set")
		os.Exit(1)
	}
	bin, err := findWindow()
	if err != nil {
		fmt.Fprintln(os.Stderr, "raftlab:", err)
		os.Exit(1)
	}
	if err := handOver(bin, append([]string{bin}, cl.Argv()...)); err != nil {
		fmt.Fprintf(os.Stderr, "raftlab: starting %s: %v\n", bin, err)
		os.Exit(1)
	}
}

// hasDisplay reports whether a window can be opened: on X11 and Wayland
// systems a display is named in the environment; elsewhere there is one.
func hasDisplay() bool {
	switch runtime.GOOS {
	case "windows", "darwin", "ios", "android", "js":
		return true
	}
	return os.Getenv("DISPLAY") != "" || os.Getenv("WAYLAND_DISPLAY") != ""
}

// findWindow finds the window program: named by $RAFTLAB_WINDOW_BIN, next
// to this program (as `make desktop` builds them), or on the PATH.
func findWindow() (string, error) {
	if p := os.Getenv(windowEnv); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("%s=%s: %v", windowEnv, p, err)
		}
		return p, nil
	}
	name := windowProgram
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	self, err := os.Executable()
	if err == nil {
		if real, err := filepath.EvalSymlinks(self); err == nil {
			self = real
		}
		p := filepath.Join(filepath.Dir(self), name)
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	if p, err := exec.LookPath(name); err == nil {
		return p, nil
	} else if !errors.Is(err, exec.ErrNotFound) {
		return "", err
	}
	return "", fmt.Errorf("the window program %s is neither beside %s nor on the PATH (make desktop builds both; %s names another)", name, self, windowEnv)
}
