package app

import (
	"raftlab/viz"
	"raftlab/viz/app/command"
	"raftlab/viz/app/scene"
	"raftlab/viz/app/stage"
	"raftlab/viz/app/view"
	"raftlab/viz/frame"
)

// Pointer takes one pointer event from the host.
func (a *App) Pointer(ev viz.PointerEvent) {
	ev.Pos = a.logical(ev.Pos)
	if ev.Touch != a.stage.Touch() {
		a.SetTouch(ev.Touch)
	}
	a.setHover(ev.Pos, !ev.Touch)
	if ev.Action == viz.PointerDown {
		if k := a.hoverKey(); k != a.view.Quiet() {
			a.view.SetQuiet(k)
			a.changed()
		}
	}
	p := &a.input.press
	if p.active && ev.ID == p.id {
		a.pressEvent(ev)
		return
	}
	if ev.Action == viz.PointerDown && !a.input.rec.Active() {
		if a.view.Help() {
			// Any press closes the help; it does nothing else.
			a.try(command.ShowHelp{On: false})
			*p = pointerState{active: true, id: ev.ID, panel: -1}
			return
		}
		if w, ok := a.widgetAt(ev.Pos); ok {
			*p = pointerState{active: true, id: ev.ID, widget: w.ID, panel: -1, start: ev.Pos}
			a.changed()
			return
		}
		if a.view.Menu().Kind != view.MenuNone {
			if r, ok := a.menuRect(); ok && r.Contains(ev.Pos) {
				// Presses on a menu's text do nothing.
				*p = pointerState{active: true, id: ev.ID, panel: -1}
				return
			}
			a.try(command.Dismiss{})
		}
		if k, ok := a.panelAt(ev.Pos); ok {
			*p = pointerState{active: true, id: ev.ID, panel: int(k), start: ev.Pos, startVal: a.view.Scroll(k)}
			return
		}
		if a.lay().Logs.Contains(ev.Pos) {
			*p = pointerState{active: true, id: ev.ID, panel: -1, logs: true, start: ev.Pos, startVal: float64(a.view.LogBack())}
			return
		}
	}
	g := a.input.rec.Feed(a.lay(), scene.Dots(a.Frame(), nil), ev)
	a.gesture(g)
	if a.input.rec.Active() || g.Kind != viz.GestureNone {
		a.changed()
	}
}

// pressEvent continues a press on one of the app's own controls.
func (a *App) pressEvent(ev viz.PointerEvent) {
	p := &a.input.press
	switch ev.Action {
	case viz.PointerMove:
		d := ev.Pos.Sub(p.start)
		if d.Len() > a.pressSlop(ev.Touch) {
			p.moved = true
		}
		if !p.moved {
			// A fingertip wobbles during a tap: it neither scrolls nor
			// stops the tap until it leaves the slop.
			return
		}
		switch {
		case p.panel >= 0:
			a.try(command.ScrollPanel{Panel: viz.PanelKind(p.panel), Px: p.startVal - d.Y})
		case p.logs:
			if cw := scene.LogCellWidth(a.lay()); cw > 0 {
				a.try(command.ScrollLogs{Back: uint64(max(p.startVal+d.X/cw, 0))})
			}
		}
	case viz.PointerUp:
		id := p.widget
		tap := !p.moved
		logs := p.logs
		*p = pointerState{}
		a.changed()
		if id != "" {
			// A press on a control runs its line if it ends there.
			if w, ok := a.widgetAt(ev.Pos); ok && w.ID == id {
				a.tryLine(w.Do)
			}
		} else if logs && tap {
			if row := scene.LogRowAt(a.lay(), ev.Pos); row >= 0 {
				a.try(command.Select{Node: row})
			}
		}
	case viz.PointerCancel:
		*p = pointerState{}
		a.changed()
	}
}

// pressSlop is how far a press on a control, a panel or the logs may
// wander and still tap rather than scroll: for a finger, the gesture
// recognizer's touch slop.
func (a *App) pressSlop(touch bool) float64 {
	if touch {
		return a.input.rec.Slop(true)
	}
	return 6
}

// Hover tells the app where the mouse is while no button is down, for
// hover text.
func (a *App) Hover(p viz.Point) { a.setHover(a.logical(p), true) }

func (a *App) setHover(p viz.Point, ok bool) {
	if hp, hok := a.view.Hover(); p == hp && ok == hok {
		return
	}
	before := a.hoverKey()
	a.view.SetHover(p, ok)
	after := a.hoverKey()
	if after != a.view.Quiet() && !a.input.press.active && !a.input.rec.Active() {
		a.view.SetQuiet(view.HoverTarget{})
	}
	if after != before {
		a.changed()
	}
}

// Wheel scrolls whatever is under p: a panel, the logs, the speed.
func (a *App) Wheel(p viz.Point, dx, dy float64) {
	p = a.logical(p)
	if k, ok := a.panelAt(p); ok {
		a.try(command.ScrollPanel{Panel: k, Px: a.view.Scroll(k) - dy*24})
		return
	}
	if a.lay().Logs.Contains(p) {
		d := dy
		if dx != 0 {
			d = -dx
		}
		back := uint64(0)
		switch {
		case d > 0:
			back = a.view.LogBack() + 2
		case d < 0 && a.view.LogBack() >= 2:
			back = a.view.LogBack() - 2
		}
		a.try(command.ScrollLogs{Back: back})
		return
	}
	if a.lay().Speed.Contains(p) && dy != 0 {
		step := 1
		if dy < 0 {
			step = -1
		}
		if s := viz.StepSpeed(a.clock.Speed(), step); s != a.clock.Speed() {
			a.try(command.SetSpeed{Speed: s})
		}
	}
}

// Key handles a key press by name; it reports whether the key did
// something. A key runs its line of the command table (command.KeyLine).
func (a *App) Key(name string) bool {
	in, ok := a.keyIntent(name)
	if ok {
		a.try(in)
	}
	return ok
}

// keyIntent is what a key asks for, and false for a key that does
// nothing.
func (a *App) keyIntent(name string) (command.Intent, bool) {
	line, ok := command.KeyLine(a.commandContext(), name)
	if !ok {
		return nil, false
	}
	in, err := command.Parse(a.commandContext(), line)
	return in, err == nil
}

// gesture carries out a recognized gesture.
func (a *App) gesture(g viz.Gesture) {
	if in := a.gestureIntent(g); in != nil {
		a.try(in)
	}
	if g.Kind == viz.GestureNodeDrag {
		a.changed()
	}
}

// gestureIntent is what a gesture asks for, or nil.
func (a *App) gestureIntent(g viz.Gesture) command.Intent {
	switch g.Kind {
	case viz.GestureTap, viz.GestureMenu:
		return a.tapIntent(g.Target)
	case viz.GestureCut:
		return command.CutLinks{Links: g.Links}
	case viz.GestureIsolate:
		return command.Isolate{Node: g.Node}
	case viz.GestureMoveZone:
		return command.MoveToZone{Node: g.Node, Zone: g.Zone}
	case viz.GestureJoin, viz.GestureLeave, viz.GestureOnto:
		if in := a.memberGesture(g); in != nil {
			return in
		}
		if g.Node >= 0 && a.session.Isolated(g.Node) && a.stage.Mode() != stage.ZonesWorld {
			return command.Reconnect{Node: g.Node}
		}
	case viz.GestureDragCancel:
		if g.Node >= 0 && a.session.Isolated(g.Node) && a.stage.Mode() != stage.ZonesWorld {
			return command.Reconnect{Node: g.Node}
		}
	case viz.GestureScrub:
		switch g.Target.Kind {
		case viz.HitSpeed, viz.HitTimeline:
			return a.tapIntent(g.Target)
		}
	}
	return nil
}

// tapIntent is what a click or tap on what the layout says is there asks
// for, or nil.
func (a *App) tapIntent(h viz.Hit) command.Intent {
	switch h.Kind {
	case viz.HitNode:
		return command.OpenMachine{Node: h.Node}
	case viz.HitLog:
		return command.Select{Node: h.Node}
	case viz.HitLink:
		return command.OpenLink{Link: h.Link}
	case viz.HitMessage:
		return command.OpenMessage{Msg: uint64(h.Msg)}
	case viz.HitSpeed:
		return command.SetSpeed{Speed: viz.SliderSpeed(h.Frac)}
	case viz.HitTimeline:
		return command.Seek{AtUs: int64(h.Frac * float64(a.session.HeadUs()))}
	case viz.HitZone:
		if a.stage.Mode() == stage.ZonesWorld && h.Zone >= 0 {
			return command.OpenZone{Zone: h.Zone}
		}
		fallthrough
	case viz.HitCluster, viz.HitNone:
		if a.view.Selected() >= 0 || a.view.Menu().Kind != view.MenuNone {
			return command.ClearSelection{}
		}
	}
	return nil
}

// Grabs reports whether a touch that starts at p is the app's to follow:
// it starts on something the reader drags (a machine, a link, a message,
// the speed or time slider, a panel that scrolls), or a menu, the key or
// the help is open, which takes every touch. Elsewhere, and on a control,
// a vertical swipe is the page's, which scrolls: a figure in a page must
// not trap the page's reader. (A tap is the app's either way.)
func (a *App) Grabs(p viz.Point) bool {
	p = a.logical(p)
	f := a.Frame()
	if f.Menu != nil || f.Help != nil || f.Legend != nil {
		return true
	}
	if _, ok := a.widgetAt(p); ok {
		return false
	}
	if a.scrolls(f, p) {
		return true
	}
	switch a.lay().HitTest(p, scene.Dots(f, nil), viz.HitOptions{Touch: true}).Kind {
	case viz.HitNode, viz.HitLink, viz.HitMessage, viz.HitSpeed, viz.HitTimeline:
		return true
	}
	return false
}

// TakesWheel reports whether a turn of the wheel at p is the app's: over
// the speed slider, or, while the reader has the app focused (clicked
// into, or reached with the keyboard), over a panel or the logs, which it
// scrolls. Otherwise the wheel scrolls the page.
func (a *App) TakesWheel(p viz.Point, focused bool) bool {
	p = a.logical(p)
	if a.lay().Speed.Contains(p) {
		return true
	}
	if !focused {
		return false
	}
	if a.lay().Logs.Contains(p) {
		return true
	}
	_, ok := a.panelAt(p)
	return ok
}

// scrolls reports whether p lies on a panel of f whose words go on past
// its bottom or have been scrolled: a swipe there scrolls the panel.
func (a *App) scrolls(f *frame.Frame, p viz.Point) bool {
	for _, pv := range f.Panels {
		if pv.Clip.Contains(p) && (pv.More || a.view.Scroll(pv.Kind) > 0) {
			return true
		}
	}
	return false
}
