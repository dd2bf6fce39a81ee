// Package view is what the reader has chosen on screen: the machine
// selected, the menu open, the panel in front and how far each is
// scrolled, the help and the key, where the mouse hovers, the note in the
// banner, the theme. It outlives the world shown (a new run keeps the
// theme and the tab) and forgets what was about the old world when asked.
package view

import (
	"time"

	"raftlab/raftcore"
	"raftlab/viz"
	"raftlab/viz/frame"
)

// Banner is a note across the top of the screen.
type Banner struct {
	Text string
	Tone frame.Tone
	// Until is the real time it goes; 0 keeps it until replaced or closed.
	Until time.Duration
}

// HoverTarget names what the mouse is over, so that hover text changes
// (and the frame is built again) only when the target does.
type HoverTarget struct {
	Kind   string // "widget", "menu", "mark", "entry", "snap", "node", "link", "msg" or "" for nothing
	A, B   int
	ID     uint64
	Widget string
}

// View owns the reader's choices on screen.
type View struct {
	theme    frame.Theme
	selected int // machine index, -1 for none
	menu     Menu
	tab      viz.PanelKind
	scroll   [viz.NumPanels]float64 // per panel, in pixels
	logBack  uint64                 // log entries scrolled back from the newest
	help     bool
	legend   bool // the key to the marks is open
	hover    viz.Point
	hoverOK  bool
	// quiet is what the pointer pressed: its hover text stays hidden until
	// the pointer leaves it, so that the text does not cover the menu or
	// the change the press just made.
	quiet  HoverTarget
	banner Banner
	// missingFigure is the unknown figure id the list of figures says it
	// could not find, until the list closes.
	missingFigure string
	showRules     bool          // the safety panel lists the rules that hold too
	opened        viz.PanelKind // a panel the reader unfolded (-1: none)
	readMode      raftcore.ReadMode
}

// New is the view of a fresh app in a theme.
func New(theme frame.Theme) *View {
	return &View{theme: theme, selected: -1, opened: -1, readMode: raftcore.ReadLinearizable}
}

// ForgetWorld forgets what the reader had chosen about the world shown:
// a new world has other machines, messages and logs.
func (v *View) ForgetWorld() {
	v.selected, v.menu, v.logBack, v.opened = -1, Menu{}, 0, -1
	v.scroll = [viz.NumPanels]float64{}
}

// Theme is the palette.
func (v *View) Theme() frame.Theme { return v.theme }

// SetTheme changes the palette.
func (v *View) SetTheme(t frame.Theme) { v.theme = t }

// Selected is the selected machine's index, or -1.
func (v *View) Selected() int { return v.selected }

// Select selects machine i (-1: none); resetNodeScroll starts the machine
// panel at its top, where it is always in view (not behind a tab).
func (v *View) Select(i int, resetNodeScroll bool) {
	v.selected = i
	if i >= 0 && resetNodeScroll {
		v.scroll[viz.PanelNode] = 0
	}
}

// Menu is the open menu.
func (v *View) Menu() Menu { return v.menu }

// OpenMenu opens menu m, or closes it when it is open already; either way
// the help closes.
func (v *View) OpenMenu(m Menu) {
	if v.menu == m {
		m = Menu{}
	}
	v.menu, v.help = m, false
}

// CloseMenu closes the open menu.
func (v *View) CloseMenu() { v.menu = Menu{} }

// Dismiss closes the open menu, the help and the key.
func (v *View) Dismiss() { v.menu, v.help, v.legend = Menu{}, false, false }

// Tab is the panel in front.
func (v *View) Tab() viz.PanelKind { return v.tab }

// SetTab brings panel k to the front; it reports whether that changed.
func (v *View) SetTab(k viz.PanelKind) bool {
	changed := v.tab != k
	v.tab = k
	return changed
}

// Scroll is how far panel k is scrolled, in pixels.
func (v *View) Scroll(k viz.PanelKind) float64 { return v.scroll[k] }

// ScrollTo scrolls panel k to px from its top, at most most.
func (v *View) ScrollTo(k viz.PanelKind, px, most float64) {
	v.scroll[k] = max(min(px, most), 0)
}

// LogBack is how many entries the logs are scrolled back from the newest.
func (v *View) LogBack() uint64 { return v.logBack }

// ScrollLogs scrolls the logs back entries from the newest, at most most.
func (v *View) ScrollLogs(back, most uint64) { v.logBack = min(back, most) }

// Help reports whether the help is shown.
func (v *View) Help() bool { return v.help }

// SetHelp shows or hides the help; the help covers any menu.
func (v *View) SetHelp(on bool) {
	v.help = on
	if on {
		v.menu = Menu{}
	}
}

// Legend reports whether the key to the marks is open.
func (v *View) Legend() bool { return v.legend }

// SetLegend opens or closes the key to the marks.
func (v *View) SetLegend(on bool) { v.legend = on }

// Hover is where the mouse is, and false while no mouse hovers (a finger
// on a touch screen).
func (v *View) Hover() (viz.Point, bool) { return v.hover, v.hoverOK }

// SetHover moves the hover point.
func (v *View) SetHover(p viz.Point, ok bool) { v.hover, v.hoverOK = p, ok }

// Quiet is the target whose hover text stays hidden.
func (v *View) Quiet() HoverTarget { return v.quiet }

// SetQuiet hides the hover text of target t until the pointer leaves it.
func (v *View) SetQuiet(t HoverTarget) { v.quiet = t }

// Banner is the note in the banner.
func (v *View) Banner() Banner { return v.banner }

// Say shows text in the banner in tone until real time until (0 keeps it).
func (v *View) Say(text string, tone frame.Tone, until time.Duration) {
	v.banner = Banner{Text: text, Tone: tone, Until: until}
}

// CloseBanner hides the note.
func (v *View) CloseBanner() { v.banner = Banner{} }

// Expire hides a note whose time ran out by real time now; it reports
// whether it did.
func (v *View) Expire(now time.Duration) bool {
	if v.banner.Until > 0 && now >= v.banner.Until {
		v.banner = Banner{}
		return true
	}
	return false
}

// MissingFigure is the figure the list of figures says it could not find.
func (v *View) MissingFigure() string { return v.missingFigure }

// SetMissingFigure says figure id could not be found ("": no longer).
func (v *View) SetMissingFigure(id string) { v.missingFigure = id }

// ShowRules reports whether the safety panel lists the rules that hold.
func (v *View) ShowRules() bool { return v.showRules }

// SetShowRules lists every rule (on) or the broken ones only.
func (v *View) SetShowRules(on bool) { v.showRules = on }

// Opened is the panel the reader unfolded, or -1.
func (v *View) Opened() viz.PanelKind { return v.opened }

// Unfold opens panel k folded to its title.
func (v *View) Unfold(k viz.PanelKind) { v.opened = k }

// ReadMode is how the lab's reads are served unless a read says.
func (v *View) ReadMode() raftcore.ReadMode { return v.readMode }
