package app

import (
	"fmt"

	"raftlab/viz"
	"raftlab/viz/app/command"
	"raftlab/viz/frame"
	"raftlab/viz/words"
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
	// Do is what Enter on it does, and Less and More what the left and
	// right arrows do to a slider: lines of the command table.
	Do   string `json:"do,omitempty"`
	Less string `json:"less,omitempty"`
	More string `json:"more,omitempty"`
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
		cs = append(cs, Control{ID: w.ID, Label: label, Rect: w.Rect, Group: group, On: w.On, Do: w.Do})
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
		cs = append(cs, Control{ID: "speed", Label: words.SpeedControl(viz.FormatSpeed(a.clock.Speed())), Rect: r, Slider: true, Less: "speed slower", More: "speed faster"})
	}
	for _, w := range f.Tabs {
		widget(w, "tabs")
	}
	w := a.World()
	for _, n := range f.Nodes {
		id := nodeID(n.Index)
		label := a.voice().MachineControl(a.cfg().Name(id), w.Node(id).Role(), w.Status(id), w.Node(id).Term())
		r := viz.XYWH(n.Center.X-n.R, n.Center.Y-n.R, 2*n.R, 2*n.R)
		cs = append(cs, Control{ID: "machine:" + command.Machine(n.Index), Label: label, Rect: r, Group: "machines", Do: "open machine " + command.Machine(n.Index)})
	}
	for _, l := range f.Links {
		mid := l.Seg.At(0.5)
		label := words.LinkControl(a.cfg().Name(nodeID(l.ID.I)), a.cfg().Name(nodeID(l.ID.J)), l.Up[0], l.Up[1])
		link := command.Link(l.ID, false, false)
		cs = append(cs, Control{ID: "link:" + link, Label: label,
			Rect: viz.XYWH(mid.X-10, mid.Y-10, 20, 20), Group: "links", Do: "open link " + link})
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
		cs = append(cs, Control{ID: "timeline", Label: words.TimelineControl(a.World().Now(), a.session.HeadUs(), a.secondsClock()),
			Rect: f.Timeline.Rect, Slider: true, Less: "seek earlier", More: "seek later"})
	}
	for _, w := range f.Timeline.Buttons {
		widget(w, "")
	}
	if f.Banner != nil {
		widget(f.Banner.Close, "")
	}
	return cs
}

// Press does what pressing control id does (pressIntent).
func (a *App) Press(id string) error {
	in, err := a.pressIntent(id)
	if err != nil || in == nil {
		return err
	}
	return a.Do(in)
}

// pressIntent is what pressing control id asks for: the control's own
// line of the command table (a machine's or a link's opens its menu), or,
// for a control in a menu one press away, what a click on it would. A
// slider asks for nothing: the arrow keys move it.
func (a *App) pressIntent(id string) (command.Intent, error) {
	for _, c := range a.Controls() {
		if c.ID == id {
			if c.Slider {
				return nil, nil
			}
			return command.Parse(a.commandContext(), c.Do)
		}
	}
	return a.clickIntent(id)
}

// Nudge moves a slider one notch (nudgeIntent).
func (a *App) Nudge(id string, dir int) error {
	in, err := a.nudgeIntent(id, dir)
	if err != nil {
		return err
	}
	return a.Do(in)
}

// nudgeIntent is what moving slider id a notch asks for: dir > 0 right
// (faster, later), < 0 left, by the slider's own lines of the command
// table.
func (a *App) nudgeIntent(id string, dir int) (command.Intent, error) {
	for _, c := range a.Controls() {
		if c.ID == id && c.Slider {
			line := c.More
			if dir < 0 {
				line = c.Less
			}
			return command.Parse(a.commandContext(), line)
		}
	}
	return nil, fmt.Errorf("nudge: %q is not a slider; use speed or timeline", id)
}
