package app

import (
	"fmt"
	"strconv"
	"strings"

	"raftlab/viz"
	"raftlab/viz/frame"
)

// The canvas cannot take the keyboard's focus control by control, so the
// page lays a transparent button over each of the app's controls, the
// machines and the links, in the order Controls gives them; the browser
// moves the focus with Tab and draws its ring around the one focused.
// Enter presses it (Press), the arrow keys move along its group or nudge
// a slider (Nudge). Each does an intent through Do, as a pointer would.

// Control is something on the canvas the keyboard can reach.
type Control struct {
	// ID names it for Press and Nudge: a widget's id, "machine:N" or
	// "link:I-J" (machines counted from 1), "speed" or "timeline".
	ID    string   `json:"id"`
	Label string   `json:"label"`
	Rect  viz.Rect `json:"rect"`
	// Group is the set the arrow keys move within: "toolbar", "machines",
	// "links", "menu" (the open menu's controls), "caption", or "" for a
	// control the arrows leave alone.
	Group string `json:"group"`
	// Slider: the arrow keys change its value rather than move on.
	Slider bool `json:"slider,omitempty"`
	On     bool `json:"on,omitempty"`
}

// Controls lists what the keyboard can reach now, in reading order: the
// open menu first (it takes the focus when it opens), the toolbar, the
// machines, the links, the panels, the figure's caption, the timeline.
func (a *App) Controls() []Control {
	f := a.Frame()
	var cs []Control
	widget := func(w frame.Widget, group string) {
		if !w.Enabled || w.Rect.W <= 0 || w.Rect.H <= 0 {
			return
		}
		label := w.Label
		if label == "" {
			label = w.ID
		}
		cs = append(cs, Control{ID: w.ID, Label: label, Rect: w.Rect, Group: group, On: w.On})
	}
	if f.Menu != nil {
		for w := range f.Menu.Widgets() {
			widget(w, "menu")
		}
	}
	for _, w := range f.Toolbar {
		widget(w, "toolbar")
	}
	if r := f.Speed.Rect; r.W > 0 && r.H > 0 {
		cs = append(cs, Control{ID: "speed", Label: "Speed " + viz.FormatSpeed(a.speed), Rect: r, Slider: true})
	}
	for _, w := range f.Tabs {
		widget(w, "tabs")
	}
	w := a.World()
	for _, n := range f.Nodes {
		id := nodeID(n.Index)
		label := "Machine " + a.cfg.Name(id) + ", " + a.roleWord(w.Node(id).Role()) + ", " + w.Status(id).String() + a.termSuffix(w.Node(id).Term())
		r := viz.XYWH(n.Center.X-n.R, n.Center.Y-n.R, 2*n.R, 2*n.R)
		cs = append(cs, Control{ID: "machine:" + strconv.Itoa(n.Index+1), Label: label, Rect: r, Group: "machines"})
	}
	for _, l := range f.Links {
		mid := l.Seg.At(0.5)
		state := "up"
		switch l.State {
		case frame.LinkCut:
			state = "cut"
		case frame.LinkOneWay:
			state = "cut one way"
		}
		label := "Link " + a.cfg.Name(nodeID(l.ID.I)) + "–" + a.cfg.Name(nodeID(l.ID.J)) + ", " + state
		cs = append(cs, Control{ID: "link:" + strconv.Itoa(l.ID.I+1) + "-" + strconv.Itoa(l.ID.J+1), Label: label,
			Rect: viz.XYWH(mid.X-10, mid.Y-10, 20, 20), Group: "links"})
	}
	for _, p := range f.Panels {
		for _, w := range p.Widgets {
			widget(w, "")
		}
	}
	if f.Logs.Key.ID != "" {
		widget(f.Logs.Key, "")
	}
	if f.Legend != nil {
		widget(f.Legend.Close, "")
	}
	if f.Caption != nil {
		for w := range f.Caption.Widgets() {
			widget(w, "caption")
		}
	}
	if r := f.Timeline.Track; r.W > 0 && r.H > 0 {
		cs = append(cs, Control{ID: "timeline", Label: "Time " + fmtClock(a.World().Now()) + " of " + fmtClock(a.hist.HeadUs()),
			Rect: f.Timeline.Rect, Slider: true})
	}
	for _, w := range f.Timeline.Buttons {
		widget(w, "")
	}
	if f.Banner != nil {
		widget(f.Banner.Close, "")
	}
	return cs
}

// Press does what pressing control id does: opens a machine's or a
// link's menu, or presses a widget (as Click).
func (a *App) Press(id string) error {
	kind, rest, _ := strings.Cut(id, ":")
	switch kind {
	case "machine":
		n, err := strconv.Atoi(rest)
		if err != nil || n < 1 || n > a.World().Size() {
			return fmt.Errorf("press: %q is not a machine", id)
		}
		return a.Do(OpenMachine{Node: n - 1})
	case "link":
		x, y, _ := strings.Cut(rest, "-")
		i, ei := strconv.Atoi(x)
		j, ej := strconv.Atoi(y)
		n := a.World().Size()
		if ei != nil || ej != nil || i < 1 || j < 1 || i > n || j > n || i == j {
			return fmt.Errorf("press: %q is not a link", id)
		}
		return a.Do(OpenLink{Link: viz.LinkID{I: min(i, j) - 1, J: max(i, j) - 1}})
	case "speed", "timeline":
		return nil // a slider is moved with the arrow keys
	}
	return a.Click(id)
}

// Nudge moves a slider one notch: dir > 0 right (faster, later), < 0
// left.
func (a *App) Nudge(id string, dir int) error {
	step := 1
	if dir < 0 {
		step = -1
	}
	switch id {
	case "speed":
		return a.Do(SetSpeed{Speed: viz.StepSpeed(a.speed, step)})
	case "timeline":
		// A twentieth of the run, so that twenty presses cross it.
		head := a.hist.HeadUs()
		at := a.hist.NowUs() + int64(step)*max(head/20, int64(a.cfg.TickMs)*1000)
		return a.Do(Seek{AtUs: min(max(at, 0), head)})
	}
	return fmt.Errorf("nudge: %q is not a slider; use speed or timeline", id)
}
