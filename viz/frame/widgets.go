package frame

import "iter"

// Widgets are the controls of the frame: the toolbar's, the tabs, the
// timeline's button, the key to the marks and its card, the panels', the
// caption's and the menu's, and the banner's close button.
func (f *Frame) Widgets() iter.Seq[Widget] {
	return func(yield func(Widget) bool) {
		each := func(ws []Widget) bool {
			for _, w := range ws {
				if !yield(w) {
					return false
				}
			}
			return true
		}
		if !each(f.Toolbar) || !each(f.Tabs) {
			return
		}
		if !each(f.Timeline.Buttons) {
			return
		}
		if f.Logs.Key.ID != "" && !yield(f.Logs.Key) {
			return
		}
		if f.Legend != nil && !yield(f.Legend.Close) {
			return
		}
		for _, p := range f.Panels {
			if !each(p.Widgets) {
				return
			}
		}
		for _, m := range []*MenuView{f.Caption, f.Menu} {
			if m != nil {
				for w := range m.Widgets() {
					if !yield(w) {
						return
					}
				}
			}
		}
		if f.Banner != nil {
			yield(f.Banner.Close)
		}
	}
}

// Widgets are the controls of a menu, row by row.
func (m *MenuView) Widgets() iter.Seq[Widget] {
	return func(yield func(Widget) bool) {
		for _, r := range m.Rows {
			for _, w := range r.Widgets {
				if !yield(w) {
					return
				}
			}
		}
	}
}
