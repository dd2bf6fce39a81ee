package scene

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"raftlab/viz"
	"raftlab/viz/app/view"
	"raftlab/viz/frame"
)

// widget is an enabled control id at r.
func widget(id string, r viz.Rect) frame.Widget {
	return frame.Widget{ID: id, Rect: r, Enabled: true}
}

// stacked is a frame whose controls all lie over the point (50, 50), one
// of each kind WidgetAt looks at.
func stacked() *frame.Frame {
	r := viz.XYWH(40, 40, 20, 20)
	return &frame.Frame{
		Menu:     &frame.MenuView{Rect: viz.XYWH(0, 0, 100, 100), Rows: []frame.MenuRow{{Widgets: []frame.Widget{widget("menu.item", r)}}}},
		Legend:   &frame.LegendView{Close: widget("legend.close", r)},
		Logs:     frame.LogsView{Key: widget("legend", r)},
		Banner:   &frame.BannerView{Close: widget("banner.close", r)},
		Caption:  &frame.MenuView{Rows: []frame.MenuRow{{Widgets: []frame.Widget{widget("caption.item", r)}}}},
		Panels:   []frame.PanelView{{Clip: viz.XYWH(0, 0, 100, 100), Widgets: []frame.Widget{widget("panel.item", r)}}},
		Tabs:     []frame.Widget{widget("tab", r)},
		Toolbar:  []frame.Widget{widget("tool", r)},
		Timeline: frame.TimelineView{Buttons: []frame.Widget{widget("live", r)}},
	}
}

// A press hits the topmost control drawn under it: the open menu's, then
// the key's card, the key's button, the banner's, the caption's, the
// panels', the tabs, the toolbar and the timeline's buttons.
func TestWidgetAtFindsTheTopmostControl(t *testing.T) {
	f := stacked()
	p := viz.Point{X: 50, Y: 50}
	for _, want := range []string{"menu.item", "legend.close", "legend", "banner.close", "caption.item", "panel.item", "tab", "tool", "live"} {
		w, ok := WidgetAt(f, p)
		require.True(t, ok, "want %s", want)
		require.Equal(t, want, w.ID)
		// Take it away: the next one down is hit.
		switch want {
		case "menu.item":
			f.Menu = nil
		case "legend.close":
			f.Legend = nil
		case "legend":
			f.Logs.Key = frame.Widget{}
		case "banner.close":
			f.Banner = nil
		case "caption.item":
			f.Caption = nil
		case "panel.item":
			f.Panels = nil
		case "tab":
			f.Tabs = nil
		case "tool":
			f.Toolbar = nil
		}
	}
	f.Timeline.Buttons = nil
	_, ok := WidgetAt(f, p)
	require.False(t, ok)
}

// The help covers everything; an open menu swallows presses on itself;
// disabled controls are not pressed.
func TestWidgetAtRespectsWhatCoversAndWhatIsOff(t *testing.T) {
	p := viz.Point{X: 50, Y: 50}
	f := stacked()
	f.Help = &frame.HelpView{}
	_, ok := WidgetAt(f, p)
	assert.False(t, ok, "under the help")

	f = stacked()
	f.Menu.Rows = nil
	_, ok = WidgetAt(f, p)
	assert.False(t, ok, "on the menu, not on one of its controls")

	f = stacked()
	f.Menu = nil
	f.Legend, f.Logs.Key, f.Banner, f.Caption, f.Panels, f.Tabs = nil, frame.Widget{}, nil, nil, nil, nil
	f.Toolbar[0].Enabled = false
	w, ok := WidgetAt(f, p)
	require.True(t, ok)
	assert.Equal(t, "live", w.ID, "a disabled toolbar button is not pressed")
}

// The key's button is small; it answers a few pixels around it.
func TestTheKeysButtonAnswersAroundIt(t *testing.T) {
	f := &frame.Frame{Logs: frame.LogsView{Key: widget("legend", viz.XYWH(100, 100, 10, 10))}}
	for _, p := range []viz.Point{{X: 100 - KeySlop + 0.5, Y: 105}, {X: 105, Y: 110 + KeySlop - 0.5}} {
		w, ok := WidgetAt(f, p)
		assert.True(t, ok && w.ID == "legend", "at %v", p)
	}
	_, ok := WidgetAt(f, viz.Point{X: 100 - KeySlop - 1, Y: 105})
	assert.False(t, ok)
}

// A panel's controls scrolled out of its clip are not pressed there,
// unless the panel is folded to its title.
func TestAPanelsControlsAnswerOnlyWithinItsClip(t *testing.T) {
	p := viz.Point{X: 50, Y: 150}
	pv := frame.PanelView{Clip: viz.XYWH(0, 0, 100, 100), Widgets: []frame.Widget{widget("panel.item", viz.XYWH(40, 140, 20, 20))}}
	f := &frame.Frame{Panels: []frame.PanelView{pv}}
	_, ok := WidgetAt(f, p)
	assert.False(t, ok)
	f.Panels[0].Folded = true
	_, ok = WidgetAt(f, p)
	assert.True(t, ok)
}

func TestDotsAreTheMessagesOnTheWire(t *testing.T) {
	f := &frame.Frame{Messages: []frame.MsgView{{ID: 1, Pos: viz.Point{X: 1}}, {ID: 2, Fall: 0.3}, {ID: 3, Pos: viz.Point{Y: 3}}}}
	assert.Equal(t, []viz.MessageDot{{ID: 1, Pos: viz.Point{X: 1}}, {ID: 3, Pos: viz.Point{Y: 3}}}, Dots(f, nil))
}

// A timeline mark answers a few pixels either side of it, the nearest
// first; the timeline between marks is nothing.
func TestAMarkIsHoveredNearIt(t *testing.T) {
	lay := &viz.Layout{Timeline: viz.XYWH(0, 700, 1000, 40)}
	f := &frame.Frame{Timeline: frame.TimelineView{Marks: []frame.MarkView{{X: 100}, {X: 106}, {X: 300}}}}
	at := func(x float64) view.HoverTarget { return HoverAt(f, lay, viz.Point{X: x, Y: 720}, nil) }
	assert.Equal(t, view.HoverTarget{Kind: "mark", A: 0}, at(96))
	assert.Equal(t, view.HoverTarget{Kind: "mark", A: 1}, at(104))
	assert.Equal(t, view.HoverTarget{Kind: "mark", A: 2}, at(303))
	assert.Equal(t, view.HoverTarget{}, at(200))
}
