// Command window is the desktop program's window: raftlab drawn with
// Ebiten. The launcher (cmd/desktop, installed as raftlab-desktop) reads
// the command line first and starts this program, installed beside it as
// raftlab-desktop-window, with the same command line (see package
// internal/desktopcli); Ebiten opens the window system in a package init,
// before main, and panics where there is none.
//
// Bad values are reported on stderr and in the window, and the default is
// used instead. Exported files are written to the current directory, and
// copied links are printed on stdout.
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/hajimehoshi/ebiten/v2"

	"raftlab/cmd/desktop/internal/desktopcli"
	"raftlab/viz/app"
	"raftlab/viz/app/session"
	"raftlab/viz/draw"
	"raftlab/viz/frame"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "raftlab:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	cl, err := desktopcli.Parse(args)
	if err != nil {
		return err
	}
	if cl.Help {
		fmt.Print(desktopcli.Usage)
		return nil
	}
	file, base, shot, stats, rest := cl.File, cl.Base, cl.Shot, cl.Stats, cl.Params
	w, h := cl.Width, cl.Height
	cat := session.BuiltinScenarios()
	// A bad link or parameter is told in the terminal and in the window,
	// which opens the default instead.
	params, problems := cl.AppParams(os.Stderr, cat)
	msgs, missing := app.SortProblems(problems)
	a, err := app.New(app.Options{
		Params: params, SpeedGiven: app.SpeedChosen(rest), Problems: msgs, MissingFigure: missing,
		Width: float64(w), Height: float64(h), Measure: draw.Measure, Scenarios: cat, BaseURL: base,
	})
	if err != nil {
		return err
	}
	if file != "" {
		data, err := os.ReadFile(file)
		if err != nil {
			return err
		}
		if err := a.ImportSchedule(data); err != nil {
			return fmt.Errorf("%s: %v", file, err)
		}
	}
	o := draw.Options{
		OnEffect:    func(e frame.Effect) { effect(a, e) },
		OnFirstDraw: func() { fmt.Println("raftlab: ready") },
		ShotFile:    shot,
	}
	if stats {
		// The app's state, as the web page's snapshot() gives it, each time
		// it changed: what the window shows, for scripts and tests.
		printed, shown := uint64(0), false
		snapshot := func() {
			if v := a.Version(); !shown || v != printed {
				if data, err := a.SnapshotJSON(); err == nil {
					printed, shown = v, true
					fmt.Printf("raftlab: snapshot %s\n", data)
				}
			}
		}
		o.OnFirstDraw = func() {
			fmt.Println("raftlab: ready")
			snapshot()
		}
		o.OnSecond = func(t draw.Timing, s frame.Stats) {
			fmt.Printf("raftlab: stats updates=%d draws=%d skipped=%d build=%dus paint=%dus update=%dus calls=%d fps=%.0f tps=%.0f\n",
				s.Updates, s.Draws, s.Skipped, t.BuildUs, t.PaintUs, t.UpdateUs, t.Calls, ebiten.ActualFPS(), ebiten.ActualTPS())
			snapshot()
		}
	}
	g := draw.New(a, o)
	ebiten.SetWindowTitle("raftlab")
	ebiten.SetWindowSize(w, h)
	ebiten.SetWindowResizingMode(ebiten.WindowResizingModeEnabled)
	return draw.Run(g)
}

// effect carries out what the app asks of the desktop: links go to
// stdout, files to the current directory.
func effect(a *app.App, e frame.Effect) {
	switch e.Kind {
	case frame.EffectCopy:
		fmt.Println("raftlab: link:", e.Text)
		a.Notify("The link is printed in the terminal that started raftlab.")
	case frame.EffectSave:
		path, err := filepath.Abs(e.Name)
		if err == nil {
			err = os.WriteFile(path, e.Data, 0o644)
		}
		if err != nil {
			a.Notify("Could not save " + e.Name + ": " + err.Error())
			return
		}
		fmt.Println("raftlab: saved", path)
		a.Notify("Saved " + path)
	case frame.EffectOpen:
		a.Notify("To open a run on the desktop, start raftlab with -f run.json.")
	case frame.EffectVisit:
		fmt.Println("raftlab: the full lab at this moment:", e.Text)
		a.Notify("The link to the full lab is printed in the terminal that started raftlab.")
	}
}
