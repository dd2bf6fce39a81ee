package app

import (
	"raftlab/viz"
	"raftlab/viz/app/view"
)

func (a *App) openMenu(m view.Menu) {
	a.view.OpenMenu(m)
	a.changed()
}

// menuRect is where the open menu is drawn.
func (a *App) menuRect() (viz.Rect, bool) {
	f := a.Frame()
	if f.Menu == nil {
		return viz.Rect{}, false
	}
	return f.Menu.Rect, true
}
