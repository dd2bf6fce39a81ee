// Command desktop runs raftlab in a window.
//
// Its parameters are the web app's URL parameters written as flags, so a
// figure opens the same way in both:
//
//	raftlab-desktop scenario=majority speed=1/10 theme=dark
//	raftlab-desktop -nodes 3 -protocol failover -autoplay
//	raftlab-desktop -link <share link: the whole address, or its link= part>
//	raftlab-desktop -f run.json     (open an exported run)
//
// Bad values are reported on stderr and in the window, and the default is
// used instead. Exported files are written to the current directory, and
// copied links are printed on stdout.
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/hajimehoshi/ebiten/v2"

	"raftlab/raftcore/timeline"
	"raftlab/viz"
	"raftlab/viz/app"
	"raftlab/viz/app/session"
	"raftlab/viz/draw"
	"raftlab/viz/frame"
)

const usage = `usage: raftlab-desktop [-f run.json] [-size WxH] [-base URL] [-stats] [-shot out.png] [param=value ...]

-shot saves the third frame as a PNG and quits.
-stats prints frame timings each second, and the app's state as JSON
after the first frame and whenever it changed.

Parameters (also as -param value or --param=value):
  scenario, nodes, protocol, seed, speed, prevote, checkquorum,
  autoplay, embed, theme, t, link
`

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "raftlab:", err)
		os.Exit(1)
	}
}

// ownFlags takes the flags that are not app parameters out of args.
func ownFlags(args []string) (file, size, base, shot string, stats bool, rest []string, err error) {
	base = "http://127.0.0.1:8080/"
	for i := 0; i < len(args); i++ {
		key := strings.TrimLeft(args[i], "-")
		name, val, has := strings.Cut(key, "=")
		switch name {
		case "stats":
			stats = true
		case "f", "size", "base", "shot":
			if !has {
				if i+1 >= len(args) {
					return "", "", "", "", false, nil, fmt.Errorf("-%s needs a value\n%s", name, usage)
				}
				i++
				val = args[i]
			}
			switch name {
			case "f":
				file = val
			case "shot":
				shot = val
			case "size":
				size = val
			default:
				base = val
			}
		case "h", "help":
			fmt.Print(usage)
			os.Exit(0)
		default:
			rest = append(rest, args[i])
		}
	}
	return file, size, base, shot, stats, rest, nil
}

func run(args []string) error {
	file, size, base, shot, stats, rest, err := ownFlags(args)
	if err != nil {
		return err
	}
	cat := session.BuiltinScenarios()
	params, problems := viz.ParseArgs(rest, cat.Check)
	for _, p := range problems {
		fmt.Fprintln(os.Stderr, "raftlab:", p.Message)
	}
	msgs, missing := app.SortProblems(problems)
	if params.Link != "" {
		// The app says so in the window and opens the default run instead;
		// the terminal hears of it too, as of any other bad parameter. The
		// link is checked, not replayed: the app replays it once.
		if _, err := timeline.StartOpening(params.Link); err != nil {
			fmt.Fprintln(os.Stderr, "raftlab: -link:", err)
		}
	}
	w, h := 1280, 800
	if size != "" {
		if _, err := fmt.Sscanf(size, "%dx%d", &w, &h); err != nil || w < 200 || h < 200 {
			return fmt.Errorf("-size %q: want WIDTHxHEIGHT, at least 200x200, such as 1280x800", size)
		}
	}
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
