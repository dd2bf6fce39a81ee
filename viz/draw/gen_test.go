//go:build desktop

package draw

import (
	"raftlab/viz"
	"raftlab/viz/frame"
)

// frameGen builds frames out of bytes, for the fuzz test: each decision
// takes the next byte (zero once they run out), so that a small change to
// the input is a small change to the frames, which is what lets a fuzzer
// home in on a failure. The frames hold everything a Frame can show, in
// small numbers on a small canvas, laid anywhere: cards overlap cards,
// menus and help cover panels, text sits on lines.
type frameGen struct {
	data []byte
	at   int
	w, h float64
}

func (g *frameGen) byte() byte {
	if g.at >= len(g.data) {
		return 0
	}
	b := g.data[g.at]
	g.at++
	return b
}

// intn is a number in 0..n-1.
func (g *frameGen) intn(n int) int { return int(g.byte()) % n }

// chance is true for about share of the bytes.
func (g *frameGen) chance(share float64) bool { return float64(g.byte()) < share*256 }

// between is a number in lo..hi, in 256 steps.
func (g *frameGen) between(lo, hi float64) float64 { return lo + (hi-lo)*float64(g.byte())/255 }

func (g *frameGen) point() viz.Point { return viz.Pt(g.between(-10, g.w+10), g.between(-10, g.h+10)) }

func (g *frameGen) rect(minW, maxW, minH, maxH float64) viz.Rect {
	w, h := g.between(minW, maxW), g.between(minH, maxH)
	return viz.XYWH(g.between(-w/2, g.w-w/2), g.between(-h/2, g.h-h/2), w, h)
}

func (g *frameGen) tone() frame.Tone { return frame.Tone(g.intn(int(frame.NumTones))) }

// genWords are what the app writes, numbers with them, and marks the font
// has, a little of each.
var genWords = []string{"term", "3", "leader", "A", "B", "✓", "8.416 s", "votes", "→", "#12 write", "replicas=3",
	"committed", "(67 ms)", "← 36 earlier", "Follower · term 12", "?", "×10", "W,A"}

func (g *frameGen) words() string {
	s := genWords[g.intn(len(genWords))]
	for range g.intn(3) {
		s += " " + genWords[g.intn(len(genWords))]
	}
	return s
}

// text is a label at p, or anywhere.
func (g *frameGen) text() frame.TextItem {
	return g.textAt(g.point())
}

func (g *frameGen) textAt(p viz.Point) frame.TextItem {
	t := frame.TextItem{X: p.X, Y: p.Y, Size: g.between(8, 18), Tone: g.tone(), Bold: g.chance(0.3), Center: g.chance(0.5)}
	if !g.chance(0.1) {
		t.Text = g.words()
	}
	return t
}

func (g *frameGen) texts(most int) []frame.TextItem {
	out := make([]frame.TextItem, g.intn(most+1))
	for i := range out {
		out[i] = g.text()
	}
	return out
}

// frame builds a frame for a w×h canvas.
func (g *frameGen) frame(w, h float64) *frame.Frame {
	g.w, g.h = w, h
	f := &frame.Frame{W: w, H: h, Theme: frame.ThemeLight}
	if g.chance(0.3) {
		f.Theme = frame.ThemeDark
	}
	for range g.intn(3) {
		f.Zones = append(f.Zones, frame.ZoneView{Rect: g.rect(40, 200, 40, 160), Label: g.text(), Sub: g.text(),
			Tone: g.tone(), Empty: g.chance(0.3), Hot: g.chance(0.2)})
	}
	f.Nodes = g.nodes()
	f.Links = g.links(f.Nodes)
	for range g.intn(12) {
		f.Messages = append(f.Messages, g.message())
	}
	f.Logs = g.logs()
	for range g.intn(4) {
		f.Panels = append(f.Panels, g.panel())
	}
	g.chrome(f)
	g.overlays(f)
	return f
}

func (g *frameGen) nodes() []frame.NodeView {
	out := make([]frame.NodeView, g.intn(6))
	for i := range out {
		c := g.point()
		n := frame.NodeView{Index: i, Center: c, R: g.between(6, 24), Shape: frame.Shape(g.intn(3)), Dashed: g.chance(0.3),
			Tone: g.tone(), Crashed: g.chance(0.2), Paused: g.chance(0.2), Timer: g.between(-0.5, 1.2),
			TimerTone: g.tone(), Pulse: g.between(-0.2, 1), Selected: g.chance(0.2), Highlight: g.chance(0.2),
			Hidden: g.chance(0.1)}
		n.Name = g.textAt(c)
		n.Lines = [2]frame.TextItem{g.textAt(c.Add(viz.Pt(0, n.R+8))), g.textAt(c.Add(viz.Pt(0, n.R+20)))}
		n.Badges = g.texts(2)
		for range g.intn(3) {
			n.Votes = append(n.Votes, frame.VoteDot{Pos: c.Add(viz.Pt(g.between(-n.R, n.R), -n.R)), Granted: g.chance(0.5)})
		}
		out[i] = n
	}
	return out
}

func (g *frameGen) links(nodes []frame.NodeView) []frame.LinkView {
	var out []frame.LinkView
	for i := range nodes {
		for j := i + 1; j < len(nodes); j++ {
			if g.chance(0.4) {
				continue
			}
			a, b := nodes[i].Center, nodes[j].Center
			off := b.Sub(a).Unit().Perp().Mul(3)
			out = append(out, frame.LinkView{ID: viz.LinkID{I: i, J: j}, Seg: viz.Segment{A: a, B: b},
				Lanes: [2]viz.Segment{viz.Segment{A: a.Add(off), B: b.Add(off)}, viz.Segment{A: b.Sub(off), B: a.Sub(off)}},
				Up:    [2]bool{g.chance(0.7), g.chance(0.7)}, State: frame.LinkState(g.intn(3)), Lossy: g.chance(0.3),
				Slow: g.chance(0.3), Label: g.textAt(a.Add(b).Mul(0.5)), Hot: g.chance(0.2), Faint: g.chance(0.2)})
		}
	}
	return out
}

func (g *frameGen) message() frame.MsgView {
	m := frame.MsgView{ID: uint64(g.byte()), Pos: g.point(), R: g.between(2, 8), Tone: g.tone(), Hollow: g.chance(0.4),
		Reject: g.chance(0.2), Selected: g.chance(0.1)}
	if g.chance(0.2) {
		m.Fall = g.between(0, 1.2)
	}
	if g.chance(0.2) {
		m.Label = g.textAt(m.Pos)
	}
	return m
}

func (g *frameGen) logs() frame.LogsView {
	L := frame.LogsView{Rect: g.rect(100, 300, 30, 90), Header: g.texts(3), Before: g.text(), After: g.text()}
	for k := range g.intn(4) {
		y := L.Rect.Y + float64(k)*18
		r := frame.LogRow{Node: k, Name: g.text(), Label: viz.XYWH(L.Rect.X, y, 24, 14),
			Strip: viz.XYWH(L.Rect.X+28, y, L.Rect.W-28, 16), Tone: g.tone(), CommitX: g.between(-20, 200),
			AppliedX: g.between(-20, 200), MatchX: g.between(-20, 200), NextX: g.between(-20, 200),
			Faded: g.chance(0.2), Selected: g.chance(0.2)}
		for c := range g.intn(6) {
			r.Cells = append(r.Cells, frame.LogCell{Rect: viz.XYWH(r.Strip.X+float64(c)*22, y+1, 20, 14),
				Index: uint64(c + 1), Color: g.intn(8), Committed: g.chance(0.5), Text: genWords[g.intn(4)],
				Conflict: g.chance(0.2)})
		}
		L.Rows = append(L.Rows, r)
	}
	if g.chance(0.5) {
		L.Key = g.widget()
	}
	return L
}

// intent is what pressing a widget asks for: opaque to the painter, and
// sometimes a value that == cannot compare.
// do is a control's command line: painting must never look at it.
func (g *frameGen) do() string {
	if g.intn(4) == 0 {
		return ""
	}
	return genWords[g.intn(len(genWords))] + " " + genWords[g.intn(len(genWords))]
}

func (g *frameGen) widget() frame.Widget {
	icons := []string{"play", "pause", "step", "back", "prev", "next", "write", "heal", "resume", "help", "menu", "close", ""}
	return frame.Widget{ID: genWords[g.intn(len(genWords))], Do: g.do(), Kind: frame.WidgetKind(g.intn(6)),
		Rect: g.rect(10, 90, 10, 30), Label: g.words(), Icon: icons[g.intn(len(icons))], On: g.chance(0.4),
		Enabled: g.chance(0.8), Tone: g.tone(), Size: g.between(0, 14)}
}

func (g *frameGen) widgets(most int) []frame.Widget {
	out := make([]frame.Widget, g.intn(most+1))
	for i := range out {
		out[i] = g.widget()
	}
	return out
}

func (g *frameGen) panel() frame.PanelView {
	r := g.rect(60, 220, 40, 200)
	p := frame.PanelView{Kind: viz.PanelKind(g.intn(5)), Rect: r, Title: g.textAt(viz.Pt(r.X+8, r.Y+6)),
		Clip: viz.XYWH(r.X+4, r.Y+g.between(0, 30), r.W-g.between(0, 12), r.H-g.between(0, 40)),
		More: g.chance(0.3), Folded: g.chance(0.15)}
	for k := range g.intn(8) {
		p.Lines = append(p.Lines, g.textAt(viz.Pt(r.X+g.between(0, 20), r.Y+float64(k)*14+g.between(-10, 30))))
	}
	p.Widgets = g.widgets(3)
	if g.chance(0.3) {
		d := &frame.DiagramView{Last: g.text(), Why: g.text()}
		for range g.intn(3) {
			d.Boxes = append(d.Boxes, frame.DiagramBox{Rect: g.rect(20, 60, 14, 30), Label: g.text(), Members: g.text(),
				Tone: g.tone(), Shape: frame.Shape(g.intn(3)), Dashed: g.chance(0.3), Hot: g.chance(0.3)})
		}
		for range g.intn(3) {
			d.Arrows = append(d.Arrows, frame.DiagramArrow{Path: []viz.Point{g.point(), g.point(), g.point()}[:1+g.intn(3)],
				Label: g.text(), Hot: g.chance(0.3)})
		}
		p.Diagram = d
	}
	return p
}

// chrome adds the controls: tabs, toolbar, status, speed, timeline, the
// stroke being drawn, a dragged machine and the replay tag.
func (g *frameGen) chrome(f *frame.Frame) {
	f.Tabs = g.widgets(2)
	f.Toolbar = g.widgets(3)
	f.Status = g.text()
	if g.chance(0.6) {
		f.Speed = frame.SliderView{Rect: g.rect(60, 120, 10, 20), Track: g.rect(50, 100, 4, 6), Frac: g.between(0, 1), Label: g.text()}
	}
	if g.chance(0.7) {
		t := frame.TimelineView{Rect: viz.XYWH(0, f.H-g.between(16, 40), f.W, 40), Head: g.between(0, 1), Now: g.between(0, 1),
			Left: g.text(), Right: g.text(), Buttons: g.widgets(1)}
		t.Track = viz.XYWH(20, t.Rect.Y+8, f.W-40, 8)
		for range g.intn(5) {
			t.Marks = append(t.Marks, frame.MarkView{X: g.between(20, f.W-20), Tone: g.tone(), Source: len(t.Marks), Major: g.chance(0.4)})
		}
		f.Timeline = t
	}
	for range g.intn(4) {
		f.Stroke = append(f.Stroke, g.point())
	}
	if len(f.Nodes) > 0 && g.chance(0.2) {
		f.Ghost = &frame.GhostView{Node: g.intn(len(f.Nodes)), Pos: g.point(), R: g.between(6, 20), WouldIsolate: g.chance(0.5)}
	}
	if g.chance(0.2) {
		f.Replay = &frame.ReplayView{Stage: g.rect(100, f.W, 80, f.H), Rect: g.rect(40, 90, 14, 22), Text: g.text()}
	}
}

// overlays adds what lies over the stage: the caption, a menu, the key to
// the marks, the help, a banner and a tooltip, each now and then.
func (g *frameGen) overlays(f *frame.Frame) {
	if g.chance(0.3) {
		f.Caption = g.menu()
	}
	if g.chance(0.3) {
		f.Menu = g.menu()
	}
	if g.chance(0.2) {
		l := &frame.LegendView{Rect: g.rect(80, 200, 60, 160), Title: g.text(), Close: g.widget(), CloseIcon: g.rect(8, 14, 8, 14)}
		for range g.intn(3) {
			nodes := g.nodes()
			row := frame.LegendRow{Sample: g.rect(20, 60, 10, 30), Lines: g.texts(2), Nodes: nodes[:min(1, len(nodes))]}
			if g.chance(0.4) {
				logs := g.logs()
				if len(logs.Rows) > 0 {
					row.Log = &logs.Rows[0]
				}
			}
			if g.chance(0.5) {
				row.Msgs = []frame.MsgView{g.message()}
			}
			l.Rows = append(l.Rows, row)
		}
		f.Legend = l
	}
	if g.chance(0.15) {
		f.Help = &frame.HelpView{Rect: g.rect(100, f.W, 80, f.H), Title: g.text(), Lines: g.texts(4)}
	}
	if g.chance(0.3) {
		f.Banner = &frame.BannerView{Rect: g.rect(80, 240, 20, 50), Lines: g.texts(2), Tone: g.tone(), Close: g.widget(),
			InToolbar: g.chance(0.3)}
	}
	if g.chance(0.2) {
		f.Tooltip = &frame.TooltipView{Rect: g.rect(40, 140, 14, 40), Lines: g.texts(2)}
	}
}

func (g *frameGen) menu() *frame.MenuView {
	m := &frame.MenuView{Rect: g.rect(80, 220, 40, 180), Title: g.text(), Lines: g.texts(3)}
	for range g.intn(3) {
		m.Rows = append(m.Rows, frame.MenuRow{Label: g.text(), Widgets: g.widgets(2)})
	}
	return m
}

// change turns f into the next frame: the same with a few things changed,
// as from one frame of a run to the next, or now and then all of it.
func (g *frameGen) change(f *frame.Frame) {
	for range 1 + g.intn(3) {
		switch g.intn(14) {
		case 0:
			if len(f.Messages) > 0 {
				m := &f.Messages[g.intn(len(f.Messages))]
				m.Pos = m.Pos.Add(viz.Pt(g.between(-4, 4), g.between(-4, 4)))
			}
		case 1:
			if len(f.Nodes) > 0 {
				n := &f.Nodes[g.intn(len(f.Nodes))]
				n.Timer, n.Pulse = g.between(-0.5, 1.2), g.between(-0.2, 1)
			}
		case 2:
			f.Menu = nil
			if g.chance(0.5) {
				f.Menu = g.menu()
			}
		case 3:
			if len(f.Panels) > 0 {
				p := &f.Panels[g.intn(len(f.Panels))]
				p.Lines = append(p.Lines[:len(p.Lines):len(p.Lines)], g.textAt(viz.Pt(p.Rect.X+8, p.Rect.Y+g.between(0, p.Rect.H))))
			}
		case 4:
			f.Messages = append(f.Messages[:g.intn(len(f.Messages)+1):len(f.Messages)], g.message())
		case 5:
			f.Banner = nil
			if g.chance(0.5) {
				f.Banner = &frame.BannerView{Rect: g.rect(80, 240, 20, 50), Lines: g.texts(2), Tone: g.tone(), Close: g.widget()}
			}
		case 6:
			f.Theme = map[frame.Theme]frame.Theme{frame.ThemeLight: frame.ThemeDark, frame.ThemeDark: frame.ThemeLight}[f.Theme]
		case 7:
			if len(f.Panels) > 0 {
				p := &f.Panels[g.intn(len(f.Panels))]
				p.Widgets = append(p.Widgets[:0:0], p.Widgets...)
				if len(p.Widgets) > 0 {
					w := &p.Widgets[g.intn(len(p.Widgets))]
					w.Do, w.On = g.do(), !w.On
				}
			}
		case 8:
			if len(f.Panels) > 0 {
				p := &f.Panels[g.intn(len(f.Panels))]
				d := viz.Pt(g.between(-20, 20), g.between(-20, 20))
				p.Rect.X, p.Rect.Y, p.Clip.X, p.Clip.Y = p.Rect.X+d.X, p.Rect.Y+d.Y, p.Clip.X+d.X, p.Clip.Y+d.Y
			}
		case 9:
			f.Help = nil
			if g.chance(0.3) {
				f.Help = &frame.HelpView{Rect: g.rect(100, f.W, 80, f.H), Title: g.text(), Lines: g.texts(4)}
			}
		case 10:
			if len(f.Links) > 0 {
				l := &f.Links[g.intn(len(f.Links))]
				l.State, l.Hot, l.Slow = frame.LinkState(g.intn(3)), g.chance(0.3), g.chance(0.5)
			}
		case 11:
			f.Status = g.text()
			f.Timeline.Now = g.between(0, 1)
		case 12:
			// The same things drawn in another order: overlapping
			// cards or dots change which covers which.
			if n := len(f.Panels); n > 1 {
				i, j := g.intn(n), g.intn(n)
				f.Panels[i], f.Panels[j] = f.Panels[j], f.Panels[i]
			}
			if n := len(f.Messages); n > 1 {
				i, j := g.intn(n), g.intn(n)
				f.Messages[i], f.Messages[j] = f.Messages[j], f.Messages[i]
			}
		default:
			*f = *g.frame(f.W, f.H)
		}
	}
}
