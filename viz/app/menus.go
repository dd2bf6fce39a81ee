package app

import (
	"fmt"
	"math"
	"strconv"

	"raftlab/raftcore"
	"raftlab/viz"
)

type menuKind uint8

const (
	menuNone menuKind = iota
	menuNode
	menuLink
	menuMsg
	menuMain
	menuScenarios
)

var menuNames = [...]string{"", "node", "link", "message", "setup", "scenarios"}

// menuState is the open popover and what it is about.
type menuState struct {
	kind menuKind
	node int
	link viz.LinkID
	msg  uint64
}

func (m menuState) String() string {
	switch m.kind {
	case menuNode:
		return "node:" + strconv.Itoa(m.node+1)
	case menuLink:
		return fmt.Sprintf("link:%d-%d", m.link.I+1, m.link.J+1)
	case menuMsg:
		return "message:" + utoa(m.msg)
	}
	return menuNames[m.kind]
}

func (a *App) openMenu(m menuState) {
	if a.menu == m {
		a.menu = menuState{}
	} else {
		a.menu = m
	}
	a.help = false
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

// menuWidth is how wide menus are on this canvas.
func (a *App) menuWidth() float64 {
	w := 360.0
	if a.menu.kind == menuMain || a.menu.kind == menuScenarios {
		w = 460
	}
	return math.Min(w, a.w-16)
}

// sheet reports whether menus open as a sheet over the panels rather than
// beside what they are about: on a narrow canvas a popover would hide the
// cluster the reader is changing.
func (a *App) sheet() bool { return a.lay.Tabbed && a.lay.Orientation == viz.Portrait }

func (a *App) buildMenu() *MenuView {
	if a.menu.kind == menuNone {
		return nil
	}
	w := a.World()
	mw := a.menuWidth()
	pad := 10.0
	wr := a.newWriter(pad, pad+lineHeight(sizeTitle)+4, mw-2*pad)
	var title string
	labelW := 78.0
	anchor := viz.Point{X: a.w / 2, Y: a.h / 3}
	switch a.menu.kind {
	case menuNode:
		i := a.menu.node
		if i >= w.Size() {
			a.menu = menuState{}
			return nil
		}
		anchor = a.lay.Nodes[i].Center
		title = a.nodeMenu(wr, i, labelW)
	case menuLink:
		title = a.linkMenu(wr, labelW)
		if lk, ok := a.lay.Link(a.menu.link.I, a.menu.link.J); ok {
			anchor = lk.Seg.At(0.5)
		}
	case menuMsg:
		var ok bool
		title, anchor, ok = a.msgMenu(wr)
		if !ok {
			a.menu = menuState{}
			return nil
		}
	case menuMain:
		title = "Scenarios & setup"
		a.mainMenu(wr, labelW+18)
		anchor = viz.Point{X: 0, Y: a.lay.Toolbar.Bottom()}
		for _, t := range a.frame.Toolbar {
			if t.ID == idMenu {
				anchor = viz.Point{X: t.Rect.X, Y: t.Rect.Bottom()}
			}
		}
	case menuScenarios:
		title = "Scenarios from the book"
		a.scenarioMenu(wr)
		anchor = viz.Point{X: 0, Y: a.lay.Toolbar.Bottom()}
	}
	h := wr.y + pad/2
	// Place it beside its anchor, inside the canvas.
	x := anchor.X + a.lay.NodeRadius + 12
	if a.menu.kind == menuMain || a.menu.kind == menuScenarios {
		x = anchor.X
	}
	if x+mw > a.w-4 {
		x = anchor.X - a.lay.NodeRadius - 12 - mw
	}
	x = math.Min(math.Max(x, 4), math.Max(a.w-mw-4, 4))
	y := anchor.Y - h/2
	if a.menu.kind == menuMain || a.menu.kind == menuScenarios {
		y = anchor.Y + 4
	}
	y = math.Min(math.Max(y, a.lay.Toolbar.Bottom()+4), math.Max(a.h-h-4, 4))
	if a.sheet() {
		x = (a.w - mw) / 2
		y = math.Max(a.h-h-4, a.lay.Toolbar.Bottom()+4)
		if len(a.lay.Tabs) > 0 {
			y = math.Max(math.Min(a.lay.Tabs[0].Rect.Y, a.h-h-4), a.lay.Toolbar.Bottom()+4)
		}
	}
	mv := &MenuView{Rect: viz.XYWH(x, y, mw, h)}
	mv.Title = TextItem{Text: title, X: x + pad, Y: y + pad, Size: sizeTitle, Tone: ToneText, Bold: true}
	shift := func(t TextItem) TextItem { t.X += x; t.Y += y; return t }
	for _, l := range wr.lines {
		mv.Lines = append(mv.Lines, shift(l))
	}
	for _, r := range wr.rows {
		row := MenuRow{Label: shift(r.Label)}
		for _, wd := range r.Widgets {
			wd.Rect.X += x
			wd.Rect.Y += y
			row.Widgets = append(row.Widgets, wd)
		}
		mv.Rows = append(mv.Rows, row)
	}
	return mv
}

func (a *App) nodeMenu(wr *writer, i int, labelW float64) string {
	w := a.World()
	id := nodeID(i)
	nd := w.Node(id)
	st := w.Status(id)
	title := "Machine " + a.cfg.Name(id)
	wr.text(capital(roleWord(a.cfg.Protocol, nd.Role()))+", "+st.String()+termSuffix(a.cfg, nd.Term()), sizeSmall, ToneMuted, false)
	wr.gap(2)
	run := []Widget{}
	switch st {
	case raftcore.StatusUp:
		run = append(run, button("node.pause", "Pause"), button("node.crash", "Crash"))
	case raftcore.StatusPaused:
		run = append(run, button("node.resume", "Resume"), button("node.crash", "Crash"))
	case raftcore.StatusCrashed:
		run = append(run, button("node.restart", "Restart"))
	}
	wr.row("Run", labelW, run...)
	slow := w.Slow(id)
	wr.row("Speed", labelW, chip("node.slow:1", "normal", slow == 1), chip("node.slow:20", "slow", slow == 20), chip("node.slow:200", "very slow", slow == 200))
	drift := w.Drift(id)
	wr.row("Clock", labelW, chip("node.drift:0.5", "half speed", drift == 0.5), chip("node.drift:1", "exact", drift == 1), chip("node.drift:2", "double", drift == 2))
	if a.cfg.Protocol != raftcore.ProtocolNaiveCopy {
		wr.row("Election", labelW, button("node.timeout", "Time out now"))
	}
	wr.row("Client", labelW, button("node.write", "Write here"))
	if a.cfg.Protocol == raftcore.ProtocolRaft {
		wr.row("Read here", labelW, button("node.read:linearizable", "linearizable"), button("node.read:lease", "lease"), button("node.read:local", "local"))
	} else {
		wr.row("Read here", labelW, button("node.read:local", "read"))
	}
	if a.isolated(i) {
		wr.row("Network", labelW, button("node.reconnect", "Reconnect"))
	} else if w.Size() > 1 {
		wr.row("Network", labelW, button("node.isolate", "Cut off"))
	}
	return title
}

func (a *App) linkMenu(wr *writer, labelW float64) string {
	w := a.World()
	l := a.menu.link
	ni, nj := a.cfg.Name(nodeID(l.I)), a.cfg.Name(nodeID(l.J))
	ij, ji := w.Link(nodeID(l.I), nodeID(l.J)), w.Link(nodeID(l.J), nodeID(l.I))
	dir := func(from, to string, k raftcore.Link) string {
		if !k.Up {
			return from + "→" + to + ": cut"
		}
		s := from + "→" + to + ": " + strconv.FormatInt(k.LatencyMinUs/1000, 10) + "–" + strconv.FormatInt(k.LatencyMaxUs/1000, 10) + " ms"
		if k.Loss > 0 {
			s += ", " + fmtPercent(k.Loss) + " lost"
		}
		return s
	}
	wr.text(dir(ni, nj, ij), sizeSmall, ToneMuted, false)
	wr.text(dir(nj, ni, ji), sizeSmall, ToneMuted, false)
	wr.gap(2)
	wr.row("Both ways", labelW, button("link.cut", "Cut"), button("link.restore", "Restore"))
	oneWay := func(id, from, to string, k raftcore.Link) Widget {
		if k.Up {
			return button(id, "Cut "+from+"→"+to)
		}
		return button(id, "Restore "+from+"→"+to)
	}
	wr.row("One way", labelW, oneWay("link.ij", ni, nj, ij), oneWay("link.ji", nj, ni, ji))
	lat := ij.LatencyMinUs
	wr.row("Latency", labelW,
		chip("link.latency:20-40", "20–40 ms", lat == 20000),
		chip("link.latency:200-400", "200–400 ms", lat == 200000),
		chip("link.latency:1000-2000", "1–2 s", lat == 1000000))
	loss := ij.Loss
	wr.row("Loss", labelW, chip("link.loss:0", "none", loss == 0), chip("link.loss:0.2", "20%", loss == 0.2), chip("link.loss:0.5", "50%", loss == 0.5))
	return "Link " + ni + " – " + nj
}

func (a *App) msgMenu(wr *writer) (string, viz.Point, bool) {
	w := a.World()
	for _, m := range w.InFlight() {
		if m.ID != a.menu.msg {
			continue
		}
		pos := viz.Point{X: a.w / 2, Y: a.h / 2}
		for _, d := range a.cache.dots {
			if uint64(d.ID) == m.ID {
				pos = d.Pos
			}
		}
		wr.text(msgSentence(a.cfg, &m), sizeBody, ToneText, false)
		wr.gap(2)
		wr.text("Sent at "+fmtClock(m.SendUs)+", arrives at "+fmtClock(m.DeliverUs)+".", sizeSmall, ToneMuted, false)
		if m.Lost {
			wr.text("The network will lose it on the way.", sizeSmall, ToneWarn, false)
		}
		for k, e := range m.Entries {
			if k == 4 {
				wr.text("… and "+strconv.Itoa(len(m.Entries)-4)+" more", sizeSmall, ToneMuted, false)
				break
			}
			wr.text("entry "+utoa(e.Index)+" (term "+utoa(e.Term)+"): "+e.Data.String(), sizeSmall, ToneText, false)
		}
		wr.gap(4)
		wr.row("", 0, button("msg.drop", "Drop it"))
		return capital(msgLabel(&m)) + " #" + utoa(m.ID) + ": " + a.cfg.Name(m.From) + " → " + a.cfg.Name(m.To), pos, true
	}
	return "", viz.Point{}, false
}

func (a *App) mainMenu(wr *writer, labelW float64) {
	p := a.params
	scen := "Free play"
	if a.scen != nil {
		scen = a.scen.title
	}
	if len(a.opts.Scenarios.list) > 0 {
		wr.row("Scenario", labelW, button("scenarios", scen+" …"))
	}
	var nodes []Widget
	for n := 1; n <= viz.MaxNodes; n++ {
		nodes = append(nodes, chip("nodes:"+strconv.Itoa(n), strconv.Itoa(n), a.cfg.Nodes == n))
	}
	wr.row("Machines", labelW, nodes...)
	var protos []Widget
	for _, pr := range viz.Protocols() {
		protos = append(protos, chip("protocol:"+pr, pr, string(a.cfg.Protocol) == pr))
	}
	wr.row("Protocol", labelW, protos...)
	if a.cfg.Protocol == raftcore.ProtocolRaft {
		wr.row("Raft options", labelW, Widget{ID: "prevote", Kind: WidgetToggle, Label: "PreVote", On: p.PreVote, Enabled: true},
			Widget{ID: "checkquorum", Kind: WidgetToggle, Label: "CheckQuorum", On: p.CheckQuorum, Enabled: true})
	}
	et := a.cfg.ElectionTicks
	tick := a.cfg.TickMs
	span := func(t int) string {
		sec := func(ms int) string { return strconv.FormatFloat(float64(ms)/1000, 'g', 3, 64) }
		return sec(t*tick) + "–" + sec(2*t*tick) + " s"
	}
	wr.row("Election timeout", labelW, chip("election:5", span(5), et == 5), chip("election:10", span(10), et == 10), chip("election:20", span(20), et == 20))
	wr.row("Theme", labelW, chip("theme:light", "light", a.theme == ThemeLight), chip("theme:dark", "dark", a.theme == ThemeDark))
	wr.row("Share", labelW, button("share.link", "Copy link"), button("share.schedule", "Export run"), button("share.trace", "Export trace"), button("share.png", "Save picture"), button("share.import", "Import run"))
	wr.row("Run", labelW, button("reset", "Start again"), button("reseed", "New seed"))
}

func (a *App) scenarioMenu(wr *writer) {
	ws := []Widget{chip("scenario:", "Free play", a.scen == nil)}
	for _, s := range a.opts.Scenarios.list {
		ws = append(ws, chip("scenario:"+s.ID, s.Title, a.scen != nil && a.scen.id == s.ID))
	}
	before := len(wr.widgets)
	wr.buttons(0, ws...)
	wr.rows = append(wr.rows, MenuRow{Widgets: wr.widgets[before:]})
}
