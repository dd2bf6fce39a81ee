package app

import (
	"fmt"
	"iter"
	"time"

	"raftlab/viz"
	"raftlab/viz/app/command"
	"raftlab/viz/app/view"
	"raftlab/viz/frame"
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
		if mv := a.buildMenu(m); mv != nil {
			if w, ok := find(mv.Widgets()); ok {
				return w, nil
			}
		}
	}
	return frame.Widget{}, fmt.Errorf("click: no control %q", id)
}

// widgetAt is the app control under p, topmost first.
// keySlop is how far around the key's button a press still hits it.
const keySlop = 5.0

func (a *App) widgetAt(p viz.Point) (frame.Widget, bool) {
	f := a.Frame()
	if f.Help != nil {
		return frame.Widget{}, false
	}
	if f.Menu != nil {
		for w := range f.Menu.Widgets() {
			if w.Enabled && w.Rect.Contains(p) {
				return w, true
			}
		}
		if f.Menu.Rect.Contains(p) {
			return frame.Widget{}, false
		}
	}
	if f.Legend != nil && f.Legend.Close.Rect.Contains(p) {
		return f.Legend.Close, true
	}
	// The key's button is drawn small, to sit over the log rows without
	// hiding them; it answers a few pixels around it, for a fingertip.
	if f.Logs.Key.ID != "" && f.Logs.Key.Rect.Inset(-keySlop).Contains(p) {
		return f.Logs.Key, true
	}
	if f.Banner != nil && f.Banner.Close.Rect.Contains(p) {
		return f.Banner.Close, true
	}
	if f.Caption != nil {
		for w := range f.Caption.Widgets() {
			if w.Enabled && w.Rect.Contains(p) {
				return w, true
			}
		}
	}
	for _, pv := range f.Panels {
		if !pv.Clip.Contains(p) && !pv.Folded {
			continue
		}
		for _, w := range pv.Widgets {
			if w.Enabled && w.Rect.Contains(p) {
				return w, true
			}
		}
	}
	for _, w := range f.Tabs {
		if w.Rect.Contains(p) {
			return w, true
		}
	}
	for _, w := range f.Toolbar {
		if w.Enabled && w.Rect.Contains(p) {
			return w, true
		}
	}
	for _, b := range f.Timeline.Buttons {
		if b.Rect.Contains(p) {
			return b, true
		}
	}
	return frame.Widget{}, false
}

// panelAt is the visible panel that holds p.
func (a *App) panelAt(p viz.Point) (viz.PanelKind, bool) {
	a.Frame()
	for _, pn := range a.panelRects {
		if pn.rect.Contains(p) {
			return pn.kind, true
		}
	}
	return 0, false
}
