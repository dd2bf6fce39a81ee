package app

import (
	"testing"
	"time"

	"raftlab/viz"
)

// TestHoverTextStaysOutOfTheWay: hovering a machine explains it, but once
// the reader clicks it the text hides (it would cover the menu the click
// opened), nothing outside an open menu shows hover text, and the text
// comes back when the pointer leaves and returns.
func TestHoverTextStaysOutOfTheWay(t *testing.T) {
	a := newApp(t, 3, 1280, 800)
	a.clock.SetPaused(true)
	var c hostClock
	c.run(a, 50*time.Millisecond)
	node := a.Layout().Nodes[0].Center
	other := a.Layout().Nodes[1].Center
	empty := viz.Point{X: 5, Y: a.Layout().Canvas.H / 2}

	a.Hover(node)
	if a.Frame().Tooltip == nil {
		t.Fatal("hovering a machine shows no hover text")
	}
	a.Pointer(viz.PointerEvent{Action: viz.PointerDown, Pos: node, Time: c.now})
	c.now += time.Second / 30
	a.Pointer(viz.PointerEvent{Action: viz.PointerUp, Pos: node, Time: c.now})
	f := a.Frame()
	if f.Menu == nil {
		t.Fatal("clicking a machine opened no menu")
	}
	if f.Tooltip != nil {
		t.Errorf("the clicked machine's hover text %v still shows over its menu", f.Tooltip.Lines)
	}
	a.Key("Escape")
	if a.Frame().Tooltip != nil {
		t.Error("hover text came back before the pointer left the clicked machine")
	}
	a.Hover(other)
	if a.Frame().Tooltip == nil {
		t.Error("moving to another machine shows no hover text")
	}
	// Open the first machine's menu again and point at the other one.
	a.Pointer(viz.PointerEvent{Action: viz.PointerDown, Pos: node, Time: c.now})
	c.now += time.Second / 30
	a.Pointer(viz.PointerEvent{Action: viz.PointerUp, Pos: node, Time: c.now})
	a.Hover(other)
	if f := a.Frame(); f.Menu == nil || f.Menu.Rect.Contains(other) {
		t.Fatal("the menu did not open, or covers the other machine")
	} else if f.Tooltip != nil {
		t.Errorf("with a menu open, another machine shows hover text %v", f.Tooltip.Lines)
	}
	a.Key("Escape")
	a.Hover(empty)
	a.Hover(node)
	if a.Frame().Tooltip == nil {
		t.Error("hover text did not come back after the pointer left the machine and returned")
	}
}
