package command

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"raftlab/raftcore"
	"raftlab/viz"
)

// Context is what parsing needs to know of the app as it is: a line names
// a machine by its name or its number, and the sliders' notches ("speed
// faster", "seek later") move from where they stand.
type Context struct {
	// Names are the machines' names, by layout index.
	Names []string
	// Speed is virtual seconds per real second now.
	Speed float64
	// NowUs is the virtual time shown, HeadUs the furthest time reached,
	// TickUs one tick: the timeline's notch is a twentieth of the run, at
	// least a tick.
	NowUs, HeadUs, TickUs int64
	// Open says a menu or the help is open, which Escape closes.
	Open bool
}

// Parse turns one line ("crash B", "knob split 4/1") into the intent it
// asks for, or an error that says what is wrong and how to write it.
func Parse(c Context, line string) (Intent, error) {
	name, rest, _ := strings.Cut(strings.TrimSpace(line), " ")
	return run(c, name, strings.TrimSpace(rest), strings.Fields(rest))
}

// ParseArgs is Parse for a command and its arguments given apart, as the
// page's cmd(name, ...args) gives them.
func ParseArgs(c Context, name string, args ...string) (Intent, error) {
	return run(c, name, strings.Join(args, " "), args)
}

// ParseProse is Parse for the directives of a book's prose, which may use
// only the commands marked Prose: a link in a paragraph moves the story
// and acts on the world, and never opens menus, files or other runs.
func ParseProse(c Context, line string) (Intent, error) {
	name, _, _ := strings.Cut(strings.TrimSpace(line), " ")
	if cmd, ok := find(name); ok && !cmd.Prose {
		return nil, fmt.Errorf("%q: %s is not a directive a page's text may use; use one of: %s", line, cmd.Name, proseNames())
	}
	if strings.TrimSpace(line) == "" {
		return nil, fmt.Errorf("empty directive; use one of: %s", proseNames())
	}
	in, err := Parse(c, line)
	if err != nil {
		return nil, fmt.Errorf("%q: %w", line, err)
	}
	return in, nil
}

// KeyLine is the command line a key runs, and false for a key that does
// nothing. Escape closes what is open; the other keys run their bound
// toolbar command.
func KeyLine(c Context, key string) (string, bool) {
	if strings.EqualFold(key, "escape") {
		return "dismiss", c.Open
	}
	cmd, ok := viz.CommandForKey(key)
	if !ok {
		return "", false
	}
	return ToolbarLine(cmd), true
}

// ToolbarLine is the command line of a toolbar command: its stable name
// ("play-pause", "step-back"), but for the client write, which the table
// calls write, as a page or prose says it.
func ToolbarLine(c viz.Command) string {
	if c == viz.CmdClientWrite {
		return "write"
	}
	return c.String()
}

func run(c Context, name, rest string, fields []string) (Intent, error) {
	if name == "" {
		return nil, fmt.Errorf("empty command; use one of %s", strings.Join(Names(), ", "))
	}
	cmd, ok := find(name)
	if !ok {
		return nil, fmt.Errorf("%q is not a command; use one of %s", name, strings.Join(Names(), ", "))
	}
	return cmd.parse(&c, args{cmd: cmd, rest: rest, fields: fields})
}

// args are a command's arguments, with the helpers that read them and say
// what is wrong in the command's own terms.
type args struct {
	cmd    *Command
	rest   string // the line after the command's name, as written
	fields []string
}

func (a args) n() int { return len(a.fields) }

func (a args) at(i int) string {
	if i < len(a.fields) {
		return a.fields[i]
	}
	return ""
}

// usage is the error for arguments that do not fit the command.
func (a args) usage() error {
	if a.cmd.Args == "" {
		return fmt.Errorf("%s takes nothing", a.cmd.Name)
	}
	return fmt.Errorf("%s: usage: %s %s", a.cmd.Name, a.cmd.Name, a.cmd.Args)
}

// want checks that there are between lo and hi arguments.
func (a args) want(lo, hi int) error {
	if a.n() < lo || a.n() > hi {
		return a.usage()
	}
	return nil
}

// machine is argument i read as a machine: its name (any case) or its
// number from 1. It returns the layout index.
func (a args) machine(c *Context, i int) (int, error) {
	name := a.at(i)
	for k, n := range c.Names {
		if strings.EqualFold(n, name) || name == strconv.Itoa(k+1) {
			return k, nil
		}
	}
	return 0, fmt.Errorf("%s: no machine %q: there are %s", a.cmd.Name, name, strings.Join(c.Names, ", "))
}

// link is argument i read as a link: two machines joined by a dash (both
// ways, "A-C") or by an arrow (one way, "A->C" or "A→C"). It returns the
// link with its lower index first, whether one way only, and whether that
// way runs from the higher index to the lower.
func (a args) link(c *Context, i int) (l viz.LinkID, oneWay, back bool, err error) {
	s := strings.NewReplacer("→", "->", "–", "-").Replace(a.at(i))
	x, y, oneWay := strings.Cut(s, "->")
	if !oneWay {
		var ok bool
		if x, y, ok = strings.Cut(s, "-"); !ok {
			return l, false, false, fmt.Errorf("%s: %q is not a link: write two machines joined by a dash, as in A-C, or by an arrow for one way, as in A->C", a.cmd.Name, a.at(i))
		}
	}
	from, err := args{cmd: a.cmd, fields: []string{x}}.machine(c, 0)
	if err != nil {
		return l, false, false, err
	}
	to, err := args{cmd: a.cmd, fields: []string{y}}.machine(c, 0)
	if err != nil {
		return l, false, false, err
	}
	if from == to {
		return l, false, false, fmt.Errorf("%s: %q joins a machine to itself", a.cmd.Name, a.at(i))
	}
	return viz.LinkID{I: min(from, to), J: max(from, to)}, oneWay, oneWay && from > to, nil
}

// number is argument i read as a number of what (for the error).
func (a args) number(i int, what string) (float64, error) {
	v, err := strconv.ParseFloat(a.at(i), 64)
	if err != nil {
		return 0, fmt.Errorf("%s: %q is not %s", a.cmd.Name, a.at(i), what)
	}
	return v, nil
}

// whole is argument i read as a whole number; a word that is no number
// gives -1, for the intent's own check to refuse with the range it takes.
func (a args) whole(i int) int {
	n, err := strconv.Atoi(a.at(i))
	if err != nil {
		return -1
	}
	return n
}

// onOff is argument i read as on or off; with no argument, def.
func (a args) onOff(i int, def bool) (bool, error) {
	if i >= a.n() {
		return def, nil
	}
	switch strings.ToLower(a.at(i)) {
	case "1", "on", "true", "yes":
		return true, nil
	case "0", "off", "false", "no":
		return false, nil
	}
	return false, fmt.Errorf("%s: %q is not on or off", a.cmd.Name, a.at(i))
}

// panel is argument i read as a panel's title, in any case.
func (a args) panel(i int) (viz.PanelKind, error) {
	var titles []string
	for _, k := range viz.PanelKinds() {
		if strings.EqualFold(k.Title(), a.at(i)) {
			return k, nil
		}
		titles = append(titles, k.Title())
	}
	return 0, fmt.Errorf("%s: %q is not a panel; use %s", a.cmd.Name, a.at(i), strings.Join(titles, ", "))
}

// Number writes a number as a line takes it back: exactly.
func Number(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// Machine writes machine index i as a line names it: by number.
func Machine(i int) string { return strconv.Itoa(i + 1) }

// Link writes a link as a line names it, by number: both ways ("1-3"), or
// one way from I to J, or from J to I when back ("3->1").
func Link(l viz.LinkID, oneWay, back bool) string {
	if !oneWay {
		return Machine(l.I) + "-" + Machine(l.J)
	}
	if back {
		return Machine(l.J) + "->" + Machine(l.I)
	}
	return Machine(l.I) + "->" + Machine(l.J)
}

// parseAction reads one action from JSON, strictly: unknown fields are
// errors that name the field.
func parseAction(data []byte) (raftcore.Action, error) {
	var x raftcore.Action
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&x); err != nil {
		return x, fmt.Errorf("action: %v", err)
	}
	if dec.More() {
		return x, fmt.Errorf("action: more than one JSON value")
	}
	return x, nil
}
