package app

import (
	"fmt"
	"iter"
	"raftlab/viz/app/command"
	"raftlab/viz/app/view"
	"raftlab/viz/frame"
	"time"
)

// Click presses the control named id, as a tap on it would: it does the
// intent the control carries, and says in the banner what went wrong.
//
// The control may be on screen or in a menu the reader could open now
// with one press: the setup menu, the list of scenarios, the selected
// machine's menu.
func (a *App) Click(id string) error {
	in, err := a.clickIntent(id)
	if err != nil {
		a.say(err.Error(), frame.ToneBad, 6*time.Second)
		return err
	}
	return a.try(in)
}

// clickIntent is what the control named id asks for: its line of the
// command table, read.
func (a *App) clickIntent(id string) (command.Intent, error) {
	w, err := a.control(id)
	if err != nil {
		return nil, err
	}
	return command.Parse(a.commandContext(), w.Do)
}

// control finds the control named id: on screen first, then in the menus
// one press away.
func (a *App) control(id string) (frame.Widget, error) {
	find := func(ws iter.Seq[frame.Widget]) (frame.Widget, bool) {
		for w := range ws {
			if w.ID == id && w.Enabled {
				return w, true
			}
		}
		return frame.Widget{}, false
	}
	if w, ok := find(a.Frame().Widgets()); ok {
		return w, nil
	}
	closed := []view.Menu{{Kind: view.MenuMain}, {Kind: view.MenuScenarios}}
	if a.view.Selected() >= 0 {
		closed = append(closed, view.Menu{Kind: view.MenuNode, Node: a.view.Selected()})
	}
	for _, m := range closed {
		if mv := a.builder.Menu(a.parts(), m); mv != nil {
			if w, ok := find(mv.Widgets()); ok {
				return w, nil
			}
		}
	}
	return frame.Widget{}, fmt.Errorf("click: no control %q", id)
}
