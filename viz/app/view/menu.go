package view

import (
	"strconv"

	"raftlab/viz"
)

// MenuKind is what a menu is about.
type MenuKind uint8

// The kinds of menu.
const (
	MenuNone MenuKind = iota
	MenuNode
	MenuLink
	MenuMsg
	MenuMain
	MenuScenarios
	MenuZone
)

var menuNames = [...]string{"", "node", "link", "message", "setup", "scenarios", "zone"}

// Menu is the open popover and what it is about: machine Node, Link,
// message Msg or Zone.
type Menu struct {
	Kind MenuKind
	Node int
	Link viz.LinkID
	Msg  uint64
	Zone int
}

// String names the menu as the page's snapshot does ("node:2", "setup").
func (m Menu) String() string {
	switch m.Kind {
	case MenuNode:
		return "node:" + strconv.Itoa(m.Node+1)
	case MenuLink:
		return "link:" + strconv.Itoa(m.Link.I+1) + "-" + strconv.Itoa(m.Link.J+1)
	case MenuMsg:
		return "message:" + strconv.FormatUint(m.Msg, 10)
	case MenuZone:
		return "zone:" + strconv.Itoa(m.Zone+1)
	}
	return menuNames[m.Kind]
}

// Open reports whether a menu is open.
func (m Menu) Open() bool { return m.Kind != MenuNone }
