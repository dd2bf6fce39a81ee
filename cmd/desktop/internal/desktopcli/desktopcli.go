// Package desktopcli reads the desktop program's command line: its own
// flags (-f, -size, -base, -stats, -shot, -h), the app's parameters, and a
// whole share address given as an argument.
//
// It imports no graphics library. Ebiten opens its window system in a
// package init, which panics on a machine with no display before main
// runs; the launcher (cmd/desktop) therefore reads the command line with
// this package alone, answers -h and reports mistakes anywhere, and only
// then starts the window program (cmd/desktop/window), which reads the
// same command line again.
package desktopcli

import (
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"

	"raftlab/raftcore/timeline"
	"raftlab/viz"
	"raftlab/viz/app/session"
)

// Usage is what -h prints.
const Usage = `usage: raftlab-desktop [-f run.json] [-size WxH] [-base URL] [-stats] [-shot out.png] [param=value ...] [share address]

-f opens an exported run.
-size is the window's size (default 1280x800).
-base is the lab's web address, put before the share links it prints.
-shot saves the third frame as a PNG and quits.
-stats prints frame timings each second, and the app's state as JSON
after the first frame and whenever it changed.

Parameters (also as -param value or --param=value):
  scenario, nodes, protocol, seed, speed, prevote, checkquorum,
  autoplay, embed, theme, t, link, present

A whole address of the web app (http://host/?link=... or ?scenario=...)
may be given as an argument: its parameters are read as if given here.
`

// DefaultBase is the lab's address when -base is not given.
const DefaultBase = "http://127.0.0.1:8080/"

// Args is a command line read.
type Args struct {
	Help          bool
	File, Shot    string
	Base          string
	Stats         bool
	Width, Height int
	// Params are the app's parameters as viz.ParseArgs reads them, an
	// address's parameters among them as key=value.
	Params []string
}

// Parse reads args (without the program's name). An error names the
// argument at fault; a parameter's own value is checked later, by
// viz.ParseArgs, which reports it without stopping the program.
func Parse(args []string) (Args, error) {
	a := Args{Base: DefaultBase, Width: 1280, Height: 800}
	baseGiven := false
	for i := 0; i < len(args); i++ {
		arg := args[i]
		name, val, has := strings.Cut(strings.TrimLeft(arg, "-"), "=")
		if !strings.HasPrefix(arg, "-") && isAddress(arg) {
			pairs, base, err := addressParams(arg)
			if err != nil {
				return Args{}, err
			}
			a.Params = append(a.Params, pairs...)
			if base != "" && !baseGiven {
				a.Base = base
			}
			continue
		}
		switch name {
		case "h", "help":
			a.Help = true
			continue
		case "stats":
			a.Stats = true
			continue
		case "f", "size", "base", "shot", "link":
		default:
			a.Params = append(a.Params, arg)
			continue
		}
		if !has {
			if i+1 >= len(args) {
				return Args{}, fmt.Errorf("-%s needs a value", name)
			}
			i++
			val = args[i]
		}
		switch name {
		case "f":
			a.File = val
		case "shot":
			a.Shot = val
		case "size":
			if _, err := fmt.Sscanf(val, "%dx%d", &a.Width, &a.Height); err != nil || a.Width < 200 || a.Height < 200 {
				return Args{}, fmt.Errorf("-size %q: want WIDTHxHEIGHT, at least 200x200, such as 1280x800", val)
			}
		case "base":
			a.Base, baseGiven = val, true
		case "link":
			// A whole address holds "=" and "&": it is the link's value
			// as it is, which the app reads whole.
			a.Params = append(a.Params, "link="+val)
		}
	}
	return a, nil
}

// Argv writes a back as a command line that Parse reads to the same Args.
func (a Args) Argv() []string {
	out := []string{"-size", fmt.Sprintf("%dx%d", a.Width, a.Height), "-base", a.Base}
	if a.Help {
		out = append(out, "-h")
	}
	if a.File != "" {
		out = append(out, "-f", a.File)
	}
	if a.Shot != "" {
		out = append(out, "-shot", a.Shot)
	}
	if a.Stats {
		out = append(out, "-stats")
	}
	return append(out, a.Params...)
}

// isAddress reports whether arg is a web address of the app (http or
// https) or its query alone ("?link=...").
func isAddress(arg string) bool {
	return strings.HasPrefix(arg, "?") || strings.HasPrefix(arg, "http://") || strings.HasPrefix(arg, "https://")
}

// addressParams turns a web address of the app into parameters, in the
// order the address gives them, and the address without its query as the
// lab's base ("" for a query alone).
func addressParams(addr string) (pairs []string, base string, err error) {
	u, err := url.Parse(addr)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return nil, "", fmt.Errorf("%q is not a web address: %v", addr, err)
	}
	if u.RawQuery == "" {
		return nil, "", fmt.Errorf("%q has no parameters: want the lab's address with ?link=... or other parameters after it", addr)
	}
	for _, part := range strings.Split(u.RawQuery, "&") {
		if part == "" {
			continue
		}
		k, v, _ := strings.Cut(part, "=")
		key, err1 := url.QueryUnescape(k)
		val, err2 := url.QueryUnescape(v)
		if err := errors.Join(err1, err2); err != nil {
			return nil, "", fmt.Errorf("%q: parameter %q: %v", addr, part, err)
		}
		pairs = append(pairs, key+"="+val)
	}
	if u.Host != "" {
		u.RawQuery, u.Fragment = "", ""
		base = u.String()
	}
	return pairs, base, nil
}

// AppParams reads the app's parameters, writing each problem to w as the
// program reports it (the window shows them too, and uses the default
// instead), and checks a share link without replaying it.
func (a Args) AppParams(w io.Writer, cat session.Catalog) (viz.Params, []viz.ParamProblem) {
	params, problems := viz.ParseArgs(a.Params, cat.Check)
	for _, p := range problems {
		fmt.Fprintln(w, "raftlab:", p.Message)
	}
	if params.Link != "" {
		if _, err := timeline.StartOpening(params.Link); err != nil {
			fmt.Fprintln(w, "raftlab: -link:", err)
		}
	}
	return params, problems
}
