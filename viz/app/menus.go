package app

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

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

// widgetAt is the id of the app control under p, topmost first.
func (a *App) widgetAt(p viz.Point) string {
	f := a.Frame()
	if f.Help != nil {
		return ""
	}
	if f.Menu != nil {
		for _, r := range f.Menu.Rows {
			for _, w := range r.Widgets {
				if w.Enabled && w.Rect.Contains(p) {
					return w.ID
				}
			}
		}
		if f.Menu.Rect.Contains(p) {
			return ""
		}
	}
	if f.Banner != nil && f.Banner.Close.Rect.Contains(p) {
		return idBannerClose
	}
	if f.Caption != nil {
		for _, r := range f.Caption.Rows {
			for _, w := range r.Widgets {
				if w.Enabled && w.Rect.Contains(p) {
					return w.ID
				}
			}
		}
	}
	for _, pv := range f.Panels {
		if !pv.Clip.Contains(p) && !pv.Folded {
			continue
		}
		for _, w := range pv.Widgets {
			if w.Enabled && w.Rect.Contains(p) {
				return w.ID
			}
		}
	}
	for _, w := range f.Tabs {
		if w.Rect.Contains(p) {
			return w.ID
		}
	}
	for _, w := range f.Toolbar {
		if w.Enabled && w.Rect.Contains(p) {
			return w.ID
		}
	}
	if b := f.Timeline.Button; b != nil && b.Rect.Contains(p) {
		return b.ID
	}
	return ""
}

// panelAt is the visible panel that holds p.
func (a *App) panelAt(p viz.Point) (viz.PanelKind, bool) {
	a.Frame()
	for _, pn := range a.panelRects {
		if pn.rect.Contains(p) {
			return pn.kind, true
		}
	}
	return 0, false
}

// Click presses the control with the given id, as a tap on it would.
func (a *App) Click(id string) error { return a.click(id) }

// click carries out a control by id. Menu items act on what the open menu
// is about.
func (a *App) click(id string) error {
	err := a.doClick(id)
	if err != nil {
		a.say(err.Error(), ToneBad, 6*time.Second)
	}
	a.changed()
	return err
}

func (a *App) doClick(id string) error {
	name, arg, _ := strings.Cut(id, ":")
	if strings.HasPrefix(id, cmdPrefix) {
		for c := viz.CmdPlayPause; c <= viz.CmdHelp; c++ {
			if c.String() == arg {
				return a.Command(c)
			}
		}
		return fmt.Errorf("click: no command %q", arg)
	}
	if strings.HasPrefix(id, tabPrefix) {
		for _, k := range viz.PanelKinds() {
			if k.Title() == arg {
				a.setTab(k)
				return nil
			}
		}
		return fmt.Errorf("click: no panel %q", arg)
	}
	switch {
	case id == idMenu:
		a.openMenu(menuState{kind: menuMain})
		return nil
	case id == "scenarios":
		a.openMenu(menuState{kind: menuScenarios})
		return nil
	case id == idBannerClose:
		a.banner = banner{}
		return nil
	case name == "open":
		for _, k := range viz.PanelKinds() {
			if k.Title() == arg {
				a.opened = k
				return nil
			}
		}
		return fmt.Errorf("click: no panel %q", arg)
	case id == "rules":
		a.showRules = !a.showRules
		return nil
	case id == "timeline.ghost":
		if !a.hist.tl.ReturnToGhost() {
			return fmt.Errorf("click %s: there is no other run to go back to", id)
		}
		a.paused = true
		a.afterWorldMoved()
		a.note("Back on the run you had left; the one you made is kept in its place.")
		return nil
	case name == "scenario":
		a.menu = menuState{}
		return a.SetScenario(arg)
	case id == "scenario.restart":
		return a.Reset()
	case id == "scenario.autoplay":
		if a.scen == nil {
			return fmt.Errorf("click %s: no scenario is playing", id)
		}
		if a.scen.autoplay {
			a.scen.autoplay = false
			return nil
		}
		// The script plays from the start.
		if err := a.restartScenario(); err != nil {
			return err
		}
		a.scen.autoplay, a.paused = true, false
		return nil
	case name == "knob":
		k, v, _ := strings.Cut(arg, "=")
		return a.setKnob(k, v)
	case strings.HasPrefix(id, "node."):
		return a.nodeItem(strings.TrimPrefix(name, "node."), arg)
	case strings.HasPrefix(id, "link."):
		return a.linkItem(strings.TrimPrefix(name, "link."), arg)
	case id == "msg.drop":
		m := a.menu.msg
		a.menu = menuState{}
		if err := a.act(raftcore.Action{Do: raftcore.DoDrop, ID: m}); err != nil {
			return fmt.Errorf("that message has already arrived")
		}
		a.note("Message #" + utoa(m) + " dropped: it falls away and never arrives.")
		return nil
	}
	return a.setupItem(name, arg, id)
}

func (a *App) nodeItem(what, arg string) error {
	if a.menu.kind != menuNode {
		if a.selected < 0 {
			return fmt.Errorf("click node.%s: no machine is selected", what)
		}
		a.menu = menuState{kind: menuNode, node: a.selected}
	}
	i := a.menu.node
	node := i + 1
	name := a.cfg.Name(nodeID(i))
	switch what {
	case "pause", "resume", "crash", "restart", "timeout":
		x := raftcore.Action{Do: raftcore.Verb(what), Node: node}
		if err := a.act(x); err != nil {
			return err
		}
		a.note(describeAction(a.cfg, x) + ".")
	case "slow", "drift":
		f, err := strconv.ParseFloat(arg, 64)
		if err != nil {
			return fmt.Errorf("click node.%s: %q is not a number", what, arg)
		}
		x := raftcore.Action{Do: raftcore.DoSlow, Node: node, MsPerMessage: f}
		if what == "drift" {
			x = raftcore.Action{Do: raftcore.DoDrift, Node: node, Rate: f}
		}
		if err := a.act(x); err != nil {
			return err
		}
		a.note(describeAction(a.cfg, x) + ".")
	case "write":
		return a.act(a.nextWrite(i))
	case "read":
		mode := arg
		if mode == "" {
			mode = string(a.readMode)
		}
		if err := a.act(raftcore.Action{Do: raftcore.DoRead, Node: node, Key: a.questionKey(), Mode: raftcore.ReadMode(mode)}); err != nil {
			return err
		}
	case "isolate":
		a.menu = menuState{}
		return a.isolate(i)
	case "reconnect":
		a.menu = menuState{}
		return a.reconnect(i)
	default:
		return fmt.Errorf("click: no machine action %q for %s", what, name)
	}
	return nil
}

func (a *App) linkItem(what, arg string) error {
	if a.menu.kind != menuLink {
		return fmt.Errorf("click link.%s: no link is open", what)
	}
	l := a.menu.link
	i, j := l.I+1, l.J+1
	w := a.World()
	var x raftcore.Action
	switch what {
	case "cut", "restore":
		x = raftcore.Action{Do: raftcore.Verb(what), From: i, To: j}
	case "ij", "ji":
		from, to := i, j
		if what == "ji" {
			from, to = j, i
		}
		do := raftcore.DoCut
		if !w.Link(raftcore.NodeID(from), raftcore.NodeID(to)).Up {
			do = raftcore.DoRestore
		}
		x = raftcore.Action{Do: do, From: from, To: to, OneWay: true}
	case "latency":
		lo, hi, ok := strings.Cut(arg, "-")
		a1, e1 := strconv.ParseFloat(lo, 64)
		a2, e2 := strconv.ParseFloat(hi, 64)
		if !ok || e1 != nil || e2 != nil {
			return fmt.Errorf("click link.latency: want min-max in ms, got %q", arg)
		}
		x = raftcore.Action{Do: raftcore.DoLatency, From: i, To: j, LatencyMs: []float64{a1, a2}}
	case "loss":
		p, err := strconv.ParseFloat(arg, 64)
		if err != nil {
			return fmt.Errorf("click link.loss: %q is not a number", arg)
		}
		x = raftcore.Action{Do: raftcore.DoLoss, From: i, To: j, Loss: &p}
	default:
		return fmt.Errorf("click: no link action %q", what)
	}
	if err := a.act(x); err != nil {
		return err
	}
	a.note(describeAction(a.cfg, x) + ".")
	return nil
}

// setupItem handles the setup menu: cluster size, protocol, options,
// theme and sharing.
func (a *App) setupItem(name, arg, id string) error {
	p := a.params
	switch name {
	case "nodes":
		n, err := strconv.Atoi(arg)
		if err != nil || n < 1 || n > viz.MaxNodes {
			return fmt.Errorf("nodes: use 1 to %d", viz.MaxNodes)
		}
		p.Nodes = n
	case "protocol":
		if _, err := raftcore.ParseProtocol(arg); err != nil {
			return fmt.Errorf("protocol: %v", err)
		}
		p.Protocol = arg
	case "prevote":
		p.PreVote = !p.PreVote
	case "checkquorum":
		p.CheckQuorum = !p.CheckQuorum
	case "election":
		t, err := strconv.Atoi(arg)
		if err != nil || t < 2 || t > 100 {
			return fmt.Errorf("election: use 2 to 100 ticks")
		}
		a.cfg.ElectionTicks = t
	case "theme":
		if arg != string(ThemeLight) && arg != string(ThemeDark) {
			return fmt.Errorf("theme: use light or dark")
		}
		a.theme = Theme(arg)
		a.params.Theme = arg
		return nil
	case "reset":
		return a.Reset()
	case "reseed":
		a.params.Seed++
		return a.Reset()
	case "share.link":
		a.effects = append(a.effects, Effect{Kind: EffectCopy, Text: a.ShareLink()})
		a.note("Link copied. It replays this run up to now.")
		return nil
	case "share.schedule":
		data, err := a.ExportSchedule()
		if err != nil {
			return err
		}
		a.effects = append(a.effects, Effect{Kind: EffectSave, Name: "raftlab-run.json", Data: data})
		return nil
	case "share.trace":
		data, err := a.ExportTrace()
		if err != nil {
			return err
		}
		a.effects = append(a.effects, Effect{Kind: EffectSave, Name: "raftlab-trace.json", Data: data})
		return nil
	case "share.png":
		a.menu = menuState{}
		a.effects = append(a.effects, Effect{Kind: EffectScreenshot, Name: "raftlab.png"})
		return nil
	case "share.import":
		a.effects = append(a.effects, Effect{Kind: EffectOpen})
		return nil
	default:
		return fmt.Errorf("click: no control %q", id)
	}
	if name != "election" {
		p.Scenario = ""
		a.params = p
	}
	return a.Reset()
}

// SetScenario starts scenario id ("" for free play).
func (a *App) SetScenario(id string) error {
	old := a.params.Scenario
	a.params.Scenario = id
	if err := a.start(); err != nil {
		a.params.Scenario = old
		_ = a.start()
		return err
	}
	a.paused = false
	if id == "" {
		a.note("Free play: " + a.describeSetup())
	}
	return nil
}

// buildOverlays builds the menu, help, banner and hover text.
func (a *App) buildOverlays() {
	f := &a.frame
	f.Caption = nil
	if a.params.Embed {
		f.Caption = a.buildCaption()
	}
	f.Menu = a.buildMenu()
	f.Help = nil
	if a.help {
		f.Help = a.buildHelp()
	}
	f.Banner = nil
	if !a.params.Embed {
		f.Banner = a.buildBanner()
	}
	f.Tooltip = a.buildTooltip()
	f.Stroke = f.Stroke[:0]
	if a.rec.Active() {
		f.Stroke = append(f.Stroke, a.rec.Stroke()...)
	}
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
		for _, d := range a.dots {
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

func (a *App) buildHelp() *HelpView {
	// One column if it fits, else two side by side, else smaller text.
	for _, try := range []struct {
		cols int
		size float64
	}{{1, sizeBody}, {2, sizeBody}, {2, sizeSmall}, {2, sizeSmall - 2}} {
		if hv := a.layoutHelp(try.cols, try.size); hv != nil {
			return hv
		}
	}
	return a.layoutHelpForce()
}

var gestureHelp = []string{
	"Drag across one or more links to cut them; drag across cut links to restore them.",
	"Drag a machine out of the circle to cut it off; drag it back to reconnect it. When the network is split, drag machines between the sides.",
	"Click a machine, a link or a moving message to change it. Drag the speed slider or the timeline below.",
}

// layoutHelp lays the help out in cols columns at text size size, or
// returns nil when it does not fit the canvas.
func (a *App) layoutHelp(cols int, size float64) *HelpView {
	hv := a.helpAt(cols, size)
	if hv.Rect.H > a.h-8 || hv.Rect.W > a.w-8 {
		return nil
	}
	return hv
}

// layoutHelpForce is the smallest help, whatever its height.
func (a *App) layoutHelpForce() *HelpView { return a.helpAt(2, sizeSmall-2) }

func (a *App) helpAt(cols int, size float64) *HelpView {
	pad := 14.0
	colW := math.Min(480, (a.w-8-2*pad-24*float64(cols-1))/float64(cols))
	top := pad + lineHeight(sizeTitle) + 6
	keys := a.newWriter(pad, top, colW)
	keyW := a.measure("Space", size) + 14
	for _, b := range viz.KeyBindings() {
		keys.lines = append(keys.lines, TextItem{Text: b.Label, X: keys.x, Y: keys.y, Size: size, Tone: ToneAccent, Bold: true})
		keys.indent(b.Desc, size, ToneText, false, keyW)
	}
	more := keys
	if cols == 2 {
		more = a.newWriter(pad+colW+24, top, colW)
	} else {
		more.gap(8)
	}
	for _, t := range gestureHelp {
		more.item("•", ToneAccent, t, size, ToneText)
	}
	more.gap(4)
	more.text("Press any key or click to close.", sizeSmall, ToneMuted, false)
	bw := pad*2 + colW
	h := keys.y + pad
	lines := keys.lines
	if cols == 2 {
		bw += colW + 24
		h = math.Max(h, more.y+pad)
		lines = append(lines, more.lines...)
	}
	x := (a.w - bw) / 2
	y := math.Max((a.h-h)/2, 4)
	hv := &HelpView{Rect: viz.XYWH(x, y, bw, h)}
	hv.Title = TextItem{Text: "Keys and gestures", X: x + pad, Y: y + pad, Size: sizeTitle, Tone: ToneText, Bold: true}
	for _, l := range lines {
		l.X += x
		l.Y += y
		hv.Lines = append(hv.Lines, l)
	}
	return hv
}

func (a *App) buildBanner() *BannerView {
	if a.banner.text == "" {
		return nil
	}
	// A short note takes the toolbar's free stretch (in place of the
	// status line), where it hides nothing.
	if slot := a.noteSlot; slot.W > 200 {
		size := sizeSmall + 1
		lines := a.wrap(a.banner.text, size, slot.W-40)
		if lh := lineHeight(size); len(lines) <= 2 && float64(len(lines))*lh <= slot.H {
			bv := &BannerView{Rect: slot, Tone: a.banner.tone, InToolbar: true}
			y := slot.Y + (slot.H-float64(len(lines))*lh)/2
			for i, l := range lines {
				bv.Lines = append(bv.Lines, TextItem{Text: l, X: slot.X + 10, Y: y + float64(i)*lh, Size: size, Tone: ToneText})
			}
			bv.Close = Widget{ID: idBannerClose, Kind: WidgetIcon, Icon: "close", Rect: viz.XYWH(slot.Right()-26, slot.Y+(slot.H-22)/2, 22, 22), Enabled: true, Label: "Dismiss"}
			a.frame.Status = TextItem{}
			return bv
		}
	}
	c := a.lay.Cluster
	bw := math.Min(c.W-16, 560)
	if bw < 120 {
		bw = math.Min(a.w-16, 560)
	}
	pad := 8.0
	close := 22.0
	wr := a.newWriter(pad, pad, bw-2*pad-close)
	wr.text(a.banner.text, sizeBody, ToneText, false)
	h := wr.y + pad - 2
	x := math.Max(c.X+(c.W-bw)/2, 4)
	r := a.quietSpot(viz.XYWH(x, 0, bw, h))
	if a.sheet() && len(a.lay.Tabs) > 0 {
		// On a phone the cluster has no room to spare: the note covers
		// the top of the panels instead.
		r = viz.XYWH(x, a.lay.Tabs[0].Rect.Y, bw, h)
	}
	bv := &BannerView{Rect: r, Tone: a.banner.tone}
	for _, l := range wr.lines {
		l.X += r.X
		l.Y += r.Y
		bv.Lines = append(bv.Lines, l)
	}
	bv.Close = Widget{ID: idBannerClose, Kind: WidgetIcon, Icon: "close", Rect: viz.XYWH(r.Right()-close-4, r.Y+4, close, close), Enabled: true, Label: "Dismiss"}
	return bv
}

// quietSpot places a box of r's size at the top or the bottom of the
// cluster, wherever it hides less of the machines and their words.
func (a *App) quietSpot(r viz.Rect) viz.Rect {
	c := a.lay.Cluster
	best, bestCost := r, math.Inf(1)
	for _, y := range []float64{c.Y + 4, c.Bottom() - r.H - 4} {
		try := viz.XYWH(r.X, y, r.W, r.H)
		cost := 0.0
		for _, n := range a.lay.Nodes {
			R := a.lay.NodeRadius
			// The disc, its badges above and its two lines below.
			around := viz.XYWH(n.Center.X-R-30, n.Center.Y-R-22, 2*R+60, 2*R+58)
			cost += overlapArea(try, around)
		}
		for _, z := range a.lay.Zones {
			cost += overlapArea(try, z.Label)
		}
		if cost < bestCost-1 {
			best, bestCost = try, cost
		}
	}
	return best
}

func overlapArea(a, b viz.Rect) float64 {
	w := math.Min(a.Right(), b.Right()) - math.Max(a.X, b.X)
	h := math.Min(a.Bottom(), b.Bottom()) - math.Max(a.Y, b.Y)
	if w <= 0 || h <= 0 {
		return 0
	}
	return w * h
}

// captionColumn is the width of an embedded figure's caption when it
// stands beside the figure (a wide canvas), or 0 when it goes below.
func (a *App) captionColumn() float64 {
	if a.w >= 640 && a.w >= 1.3*a.h {
		return math.Min(math.Max(a.w*0.3, 220), 320)
	}
	return 0
}

// captionHeight is the height of an embedded figure's caption strip: room
// for the longest thing the story says, so the figure above does not jump
// from step to step.
func (a *App) captionHeight() float64 {
	wr := a.captionContent()
	h := wr.y + 6
	if r := a.scen; r != nil {
		lines := len(a.wrap(r.s.Prompt, sizeBody, a.w-16))
		for _, st := range r.s.Steps {
			lines = max(lines, len(a.wrap(st.Text, sizeBody, a.w-16)))
		}
		shown := len(a.wrap(r.s.Prompt, sizeBody, a.w-16))
		if r.tr.Step() > 0 {
			shown = len(a.wrap(r.tr.StepText(), sizeBody, a.w-16))
		}
		if r.tr.Done() {
			shown = len(a.wrap(r.tr.Final(), sizeBody, a.w-16))
		}
		h += float64(max(lines-shown, 0)) * lineHeight(sizeBody)
	}
	return h
}

// captionContent lays an embedded figure's caption out at the origin, for
// the full width of the canvas.
func (a *App) captionContent() *writer {
	pad := 8.0
	width := a.w
	if cw := a.captionColumn(); cw > 0 {
		width = cw
	}
	wr := a.newWriter(pad, pad, width-2*pad)
	if r := a.scen; r != nil {
		text := r.s.Prompt
		if r.tr.Step() > 0 {
			text = r.tr.StepText()
		}
		if r.tr.Done() {
			text = r.tr.Final()
		}
		wr.y += lineHeight(sizeTitle)
		wr.text(text, sizeBody, ToneText, false)
		var ws []Widget
		for _, k := range r.s.Knobs {
			cur := r.s.Setting(k.Name)
			for _, v := range k.Values {
				ws = append(ws, chip("knob:"+k.Name+"="+v, v, v == cur))
			}
		}
		play := "Play it for me"
		if r.autoplay {
			play = "Stop playing"
		}
		ws = append(ws, button("scenario.autoplay", play), button("scenario.restart", "Start again"))
		wr.row("", 0, ws...)
		if a.captionColumn() > 0 {
			a.captionPanels(wr, r)
		}
	} else {
		wr.y += lineHeight(sizeTitle)
		wr.text("Drag across links to cut them; drag a machine out to cut it off; click anything for more.", sizeBody-1, ToneText, false)
	}
	return wr
}

// buildCaption is an embedded figure's caption: in a page, panels would
// crowd the figure, so its words and controls sit in a strip under the
// timeline. Notes that would go to the banner replace the words for a
// moment.
func (a *App) buildCaption() *MenuView {
	wr := a.captionContent()
	top := a.lay.Canvas.Bottom()
	title := a.describeSetup()
	if a.scen != nil {
		title = a.scen.title
	}
	r := viz.XYWH(0, top, a.w, a.h-top)
	if cw := a.captionColumn(); cw > 0 {
		r = viz.XYWH(a.w-cw, 0, cw, a.h)
	}
	mv := &MenuView{Rect: r, Title: TextItem{Text: title, X: r.X + 8, Y: r.Y + 8, Size: sizeTitle, Tone: ToneText, Bold: true}}
	if a.banner.text != "" {
		// The note takes the title's line.
		mv.Title = TextItem{Text: a.banner.text, X: r.X + 8, Y: r.Y + 8, Size: sizeBody, Tone: ToneAccent, Bold: true}
	}
	for _, l := range wr.lines {
		l.X += r.X
		l.Y += r.Y
		mv.Lines = append(mv.Lines, l)
	}
	for _, row := range wr.rows {
		out := MenuRow{Label: row.Label}
		out.Label.X += r.X
		out.Label.Y += r.Y
		for _, w := range row.Widgets {
			w.Rect.X += r.X
			w.Rect.Y += r.Y
			out.Widgets = append(out.Widgets, w)
		}
		mv.Rows = append(mv.Rows, out)
	}
	return mv
}

// captionPanels adds to a figure's caption column, in short, the panels
// its scenario asks for: the question's answers, the contract, the roles,
// the latest client requests.
func (a *App) captionPanels(wr *writer, r *scenarioRun) {
	w := a.World()
	for _, k := range r.panelKinds() {
		wr.gap(6)
		switch k {
		case viz.PanelQuestion:
			key := a.questionKey()
			wr.text("Does "+key+" exist?", sizeSmall, ToneText, true)
			for _, ans := range w.Ask(key) {
				mark, tone := "✗", ToneWarn
				switch {
				case !ans.Answered:
					mark, tone = "–", ToneMuted
				case ans.Exists:
					mark, tone = "✓", ToneGood
				}
				wr.item(mark, tone, ans.Name+": "+ans.Word(), sizeSmall, ToneText)
			}
		case viz.PanelSafety:
			wr.text("The shared-history contract", sizeSmall, ToneText, true)
			for _, cl := range w.Contract() {
				mark, tone := clauseMark(cl)
				wr.item(mark, tone, cl.Title, sizeSmall, ToneText)
			}
		case viz.PanelNode:
			wr.text("Roles", sizeSmall, ToneText, true)
			members := a.roleMembers()
			for _, role := range []raftcore.Role{raftcore.RoleLeader, raftcore.RoleCandidate, raftcore.RolePreCandidate, raftcore.RoleFollower} {
				if m := members[role]; m != "" {
					tone, _, _ := roleLook(a.cfg.Protocol, role)
					wr.item("•", tone, capital(roleWord(a.cfg.Protocol, role))+": "+m, sizeSmall, ToneText)
				}
			}
		case viz.PanelClient:
			ops := w.Ops()
			if len(ops) == 0 {
				continue
			}
			wr.text("Client requests", sizeSmall, ToneText, true)
			for i := len(ops) - 1; i >= 0 && i >= len(ops)-3; i-- {
				op := ops[i]
				mark, tone := opMark(op)
				wr.item(mark, tone, opLine(a.cfg, op), sizeSmall, ToneText)
			}
		}
	}
}
