package svg

import (
	"bytes"
	"encoding/xml"
	"io"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"raftlab/viz"
	"raftlab/viz/fonts"
	"raftlab/viz/frame"
)

func ti(s string, x, y float64) frame.TextItem {
	return frame.TextItem{Text: s, X: x, Y: y, Size: 12, Tone: frame.ToneText}
}

func wd(id, label string, kind frame.WidgetKind, x, y float64) frame.Widget {
	return frame.Widget{ID: id, Label: label, Kind: kind, Rect: viz.XYWH(x, y, 80, 24), Enabled: true, Icon: "play"}
}

func testNode(shape frame.Shape, x float64) frame.NodeView {
	return frame.NodeView{Center: viz.Pt(x, 100), R: 22, Name: frame.TextItem{Text: "A", X: x, Y: 100, Size: 14, Center: true},
		Shape: shape, Tone: frame.ToneLeader, Timer: 0.4, TimerTone: frame.ToneWarn, Pulse: 0.5, Highlight: true,
		Lines:  [2]frame.TextItem{ti("Leader", x, 130), ti("term 3", x, 145)},
		Badges: []frame.TextItem{{Text: "slow", X: x + 30, Y: 80, Size: 10, Tone: frame.ToneWarn}},
		Votes:  []frame.VoteDot{{Pos: viz.Pt(x+20, 90), Granted: true}, {Pos: viz.Pt(x-20, 90)}},
	}
}

func testLink(state frame.LinkState, y float64) frame.LinkView {
	s := viz.Segment{A: viz.Pt(40, y), B: viz.Pt(300, y+20)}
	return frame.LinkView{Seg: s, Lanes: [2]viz.Segment{s, viz.Segment{A: viz.Pt(40, y+6), B: viz.Pt(300, y+26)}}, Up: [2]bool{true, false}, State: state}
}

// everyKind is a frame with at least one of every part a frame can hold,
// and how to take each out again.
func everyKind() (*frame.Frame, map[string]func(f *frame.Frame)) {
	crashed := testNode(frame.ShapeCircle, 260)
	crashed.Crashed = true
	paused := testNode(frame.ShapeDiamond, 330)
	paused.Paused, paused.Dashed = true, true
	lossy := testLink(frame.LinkUp, 60)
	lossy.Lossy, lossy.Label = true, ti("20% loss", 150, 60)
	faint := testLink(frame.LinkCut, 220)
	faint.Faint = true
	f := &frame.Frame{W: 800, H: 600, Theme: frame.ThemeDark,
		Zones: []frame.ZoneView{{Rect: viz.XYWH(10, 10, 300, 200), Label: ti("majority side", 20, 20), Tone: frame.ToneGood}},
		Links: []frame.LinkView{testLink(frame.LinkUp, 40), lossy, testLink(frame.LinkCut, 120), testLink(frame.LinkOneWay, 170), faint},
		Messages: []frame.MsgView{
			{Pos: viz.Pt(100, 50), R: 5, Tone: frame.ToneVote},
			{Pos: viz.Pt(120, 50), R: 5, Tone: frame.ToneAppend, Hollow: true, Reject: true, Selected: true, Label: ti("no", 120, 60)},
			{Pos: viz.Pt(140, 50), R: 5, Tone: frame.ToneClient, Fall: 0.5},
		},
		Nodes: []frame.NodeView{testNode(frame.ShapeSquare, 120), testNode(frame.ShapeCircle, 190), crashed, paused},
		Logs: frame.LogsView{Header: []frame.TextItem{ti("1", 420, 300)}, Before: ti("3 more", 380, 300), After: ti("2 more", 600, 300),
			Key: wd("legend", "Key", frame.WidgetButton, 640, 300),
			Rows: []frame.LogRow{{Name: ti("A", 0, 0), Label: viz.XYWH(380, 320, 30, 16), Strip: viz.XYWH(415, 320, 200, 16),
				Tone: frame.ToneLeader, CommitX: 450, AppliedX: 450, MatchX: 470, NextX: 480, Faded: true, Selected: true,
				Cells: []frame.LogCell{{Rect: viz.XYWH(420, 320, 16, 16), Term: 1, Color: 1, Committed: true, Text: "1"},
					{Rect: viz.XYWH(440, 320, 16, 16), Term: 2, Color: 2, Text: "2", Conflict: true}}}}},
		Panels: []frame.PanelView{
			{Rect: viz.XYWH(500, 10, 280, 200), Title: ti("Client requests", 510, 20), Clip: viz.XYWH(500, 40, 280, 160), More: true,
				Lines:   []frame.TextItem{ti("#1 write x=1", 510, 50)},
				Widgets: []frame.Widget{wd("write", "Write", frame.WidgetButton, 510, 80), wd("toggle", "prevote", frame.WidgetToggle, 600, 80)},
				Diagram: &frame.DiagramView{Boxes: []frame.DiagramBox{{Rect: viz.XYWH(510, 120, 60, 30), Label: ti("Leader", 515, 125), Tone: frame.ToneLeader, Hot: true}},
					Arrows: []frame.DiagramArrow{{Path: []viz.Point{viz.Pt(580, 130), viz.Pt(640, 130)}, Label: ti("wins", 590, 115)}}, Last: ti("last: won", 510, 170)}},
			{Rect: viz.XYWH(500, 220, 280, 30), Title: ti("Checker", 510, 225), Folded: true},
		},
		Tabs:     []frame.Widget{wd("tab", "Logs", frame.WidgetTab, 10, 560)},
		Toolbar:  []frame.Widget{wd("icon", "", frame.WidgetIcon, 100, 560), wd("chip", "Raft", frame.WidgetChip, 200, 560)},
		Speed:    frame.SliderView{Rect: viz.XYWH(300, 560, 120, 24), Track: viz.XYWH(310, 570, 100, 4), Frac: 0.5, Label: ti("1x", 300, 545)},
		Timeline: frame.TimelineView{Rect: viz.XYWH(0, 520, 800, 30), Track: viz.XYWH(60, 530, 680, 8), Head: 0.8, Now: 0.5, Left: ti("0 s", 5, 525), Right: ti("8 s", 750, 525), Marks: []frame.MarkView{{X: 100, Tone: frame.ToneBad, Major: true}}, Buttons: []frame.Widget{wd("live", "Live", frame.WidgetButton, 700, 490)}},
		Stroke:   []viz.Point{viz.Pt(10, 10), viz.Pt(50, 60), viz.Pt(90, 80)},
		Ghost:    &frame.GhostView{Node: 0, Pos: viz.Pt(300, 300), R: 20, WouldIsolate: true},
		Status:   ti("term 3, leader A", 600, 5),
		Replay:   &frame.ReplayView{Stage: viz.XYWH(10, 10, 480, 500), Rect: viz.XYWH(20, 480, 100, 20), Text: ti("replaying", 30, 482)},
		Caption:  &frame.MenuView{Rect: viz.XYWH(500, 260, 280, 120), Title: ti("When majority disappears", 510, 265), Lines: []frame.TextItem{ti("Two of five are cut off.", 510, 285)}, Rows: []frame.MenuRow{{Label: ti("members", 510, 320), Widgets: []frame.Widget{wd("play", "Play next step", frame.WidgetButton, 580, 320)}}}},
		Menu:     &frame.MenuView{Rect: viz.XYWH(100, 300, 200, 80), Title: ti("Machine C", 110, 305), Rows: []frame.MenuRow{{Widgets: []frame.Widget{wd("crash", "Crash", frame.WidgetButton, 110, 330)}}}},
		Help:     &frame.HelpView{Rect: viz.XYWH(200, 100, 300, 200), Title: ti("Help", 210, 110), Lines: []frame.TextItem{ti("Drag across a link to cut it.", 210, 130)}},
		Legend:   &frame.LegendView{Rect: viz.XYWH(400, 380, 200, 120), Title: ti("Key", 410, 385), CloseIcon: viz.XYWH(570, 385, 20, 20), Rows: []frame.LegendRow{{Lines: []frame.TextItem{ti("a vote", 450, 410)}, Nodes: []frame.NodeView{testNode(frame.ShapeCircle, 420)}, Msgs: []frame.MsgView{{Pos: viz.Pt(420, 440), R: 5, Tone: frame.ToneVote}}}}},
		Banner:   &frame.BannerView{Rect: viz.XYWH(100, 10, 300, 40), Lines: []frame.TextItem{ti("Link cut.", 110, 20)}, Tone: frame.ToneBad, Close: wd("close", "", frame.WidgetButton, 370, 15)},
		Tooltip:  &frame.TooltipView{Rect: viz.XYWH(50, 400, 150, 30), Lines: []frame.TextItem{ti("a heartbeat", 55, 405)}},
	}
	remove := map[string]func(f *frame.Frame){
		"zones": func(f *frame.Frame) { f.Zones = nil }, "messages": func(f *frame.Frame) { f.Messages = nil },
		"panels": func(f *frame.Frame) { f.Panels = nil }, "tabs": func(f *frame.Frame) { f.Tabs = nil },
		"toolbar": func(f *frame.Frame) { f.Toolbar = nil }, "speed": func(f *frame.Frame) { f.Speed = frame.SliderView{} },
		"timeline": func(f *frame.Frame) { f.Timeline = frame.TimelineView{} }, "stroke": func(f *frame.Frame) { f.Stroke = nil },
		"ghost": func(f *frame.Frame) { f.Ghost = nil }, "status": func(f *frame.Frame) { f.Status = frame.TextItem{} },
		"replay": func(f *frame.Frame) { f.Replay = nil }, "caption": func(f *frame.Frame) { f.Caption = nil },
		"menu": func(f *frame.Frame) { f.Menu = nil }, "help": func(f *frame.Frame) { f.Help = nil },
		"legend": func(f *frame.Frame) { f.Legend = nil }, "banner": func(f *frame.Frame) { f.Banner = nil },
		"tooltip": func(f *frame.Frame) { f.Tooltip = nil }, "log rows": func(f *frame.Frame) { f.Logs.Rows = nil },
		"log header": func(f *frame.Frame) { f.Logs.Header = nil }, "log key": func(f *frame.Frame) { f.Logs.Key = frame.Widget{} },
		"diagram":      func(f *frame.Frame) { f.Panels[0].Diagram = nil },
		"folded panel": func(f *frame.Frame) { f.Panels = f.Panels[:1] },
	}
	for i, name := range []string{"link up", "lossy link", "cut link", "one-way link", "faint cut"} {
		remove[name] = func(f *frame.Frame) { f.Links = append(f.Links[:i:i], f.Links[i+1:]...) }
	}
	for i, name := range []string{"leader square", "follower circle", "crashed machine", "paused pre-candidate"} {
		remove[name] = func(f *frame.Frame) { f.Nodes = append(f.Nodes[:i:i], f.Nodes[i+1:]...) }
	}
	for i, name := range []string{"vote message", "rejected answer", "dropped message"} {
		remove[name] = func(f *frame.Frame) { f.Messages = append(f.Messages[:i:i], f.Messages[i+1:]...) }
	}
	return f, remove
}

// TestEveryPartIsDrawn: taking any one part out of a frame changes the
// document, so no kind of part is left undrawn.
func TestEveryPartIsDrawn(t *testing.T) {
	f, remove := everyKind()
	full := Paint(f, Options{Controls: true, NoFont: true})
	for name, rm := range remove {
		g, _ := everyKind()
		rm(g)
		assert.NotEqual(t, string(full), string(Paint(g, Options{Controls: true, NoFont: true})), "the frame's %s are not drawn", name)
	}
}

// TestControlsAreLeftOutOfPosters: without Controls no button, tab or
// slider is drawn; the chips and toggles that show settings are, and so
// is every word that is not a control's.
func TestControlsAreLeftOutOfPosters(t *testing.T) {
	f, _ := everyKind()
	texts := documentTexts(t, Paint(f, Options{}))
	words := map[string]bool{}
	for _, x := range texts {
		words[x.Text] = true
	}
	for _, label := range []string{"Play next step", "Write", "Logs", "Crash", "Live", "1x"} {
		assert.False(t, words[label], "a poster shows the control %q", label)
	}
	for _, label := range []string{"– prevote", "Raft"} {
		assert.True(t, words[label], "a poster leaves out the setting %q", label)
	}
	for _, s := range []string{"When majority disappears", "Two of five are cut off.", "majority side", "20% loss", "Leader", "term 3",
		"#1 write x=1", "Client requests", "last: won", "Help", "a heartbeat", "Link cut.", "replaying", "term 3, leader A"} {
		assert.True(t, words[s], "a poster leaves out the words %q", s)
	}
	withControls := documentTexts(t, Paint(f, Options{Controls: true}))
	assert.Greater(t, len(withControls), len(texts))
}

type docText struct {
	Text        string
	Size, Width float64
}

// documentTexts parses doc as XML, failing on anything not well formed,
// and returns its text elements.
func documentTexts(t *testing.T, doc []byte) []docText {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(doc))
	var out []docText
	var cur *docText
	depth, roots := 0, 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		require.NoError(t, err, "the document is not well-formed XML")
		switch e := tok.(type) {
		case xml.StartElement:
			if depth == 0 {
				roots++
				require.Equal(t, "svg", e.Name.Local)
				require.Equal(t, "http://www.w3.org/2000/svg", e.Name.Space)
			}
			depth++
			if e.Name.Local == "text" {
				cur = &docText{}
				for _, a := range e.Attr {
					v, _ := strconv.ParseFloat(a.Value, 64)
					switch a.Name.Local {
					case "font-size":
						cur.Size = v
					case "textLength":
						cur.Width = v
					}
				}
			}
		case xml.CharData:
			if cur != nil {
				cur.Text += string(e)
			}
		case xml.EndElement:
			depth--
			if e.Name.Local == "text" && cur != nil {
				out = append(out, *cur)
				cur = nil
			}
		}
	}
	require.Equal(t, 1, roots, "one root element")
	return out
}

// TestDocumentIsWellFormedWithTextAtMeasuredWidths: the document parses,
// and special characters in words are escaped and come back unchanged,
// each set at the width the app measured it at.
func TestDocumentIsWellFormedWithTextAtMeasuredWidths(t *testing.T) {
	f, _ := everyKind()
	f.Status = ti(`a <b> & "c" ≤ 3`, 600, 5)
	texts := documentTexts(t, Paint(f, Options{Title: `x & <y>`, Controls: true}))
	found := false
	for _, x := range texts {
		assert.InDelta(t, fonts.Measure(x.Text, x.Size), x.Width, 0.006, "%q", x.Text)
		found = found || x.Text == `a <b> & "c" ≤ 3`
	}
	assert.True(t, found, "the escaped words do not come back")
}

// TestSameFrameSameBytes: painting is deterministic.
func TestSameFrameSameBytes(t *testing.T) {
	f, _ := everyKind()
	a := Paint(f, Options{Controls: true})
	for i := 0; i < 3; i++ {
		g, _ := everyKind()
		require.Equal(t, a, Paint(g, Options{Controls: true}))
	}
}
