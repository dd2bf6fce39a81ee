package scene

import (
	"math"
	"strconv"
	"strings"

	"raftlab/raftcore"
	"raftlab/viz"
	"raftlab/viz/app/command"
	"raftlab/viz/app/view"
	"raftlab/viz/frame"
	"raftlab/viz/words"
)

// menuWidth is how wide a menu of kind k is on this canvas.
func (b *Builder) menuWidth(k view.MenuKind) float64 {
	w := 360.0
	if k == view.MenuMain || k == view.MenuScenarios {
		w = 460
	}
	return math.Min(w, b.Stage.W()-16)
}

// buildMenu lays menu m out, or returns nil when it is about something
// no longer there.
func (b *Builder) buildMenu(m view.Menu) *frame.MenuView {
	if m.Kind == view.MenuNone {
		return nil
	}
	mw := b.menuWidth(m.Kind)
	pad := 10.0
	wr := b.newWriter(pad, pad+LineHeight(SizeTitle)+4, mw-2*pad)
	title, anchor, ok := b.menuContent(wr, m)
	if !ok {
		return nil
	}
	h := wr.y + pad/2
	x, y := b.menuOrigin(m.Kind, anchor, mw, h)
	mv := &frame.MenuView{Rect: viz.XYWH(x, y, mw, h)}
	mv.Title = frame.TextItem{Text: title, X: x + pad, Y: y + pad, Size: SizeTitle, Tone: frame.ToneText, Bold: true}
	shift := func(t frame.TextItem) frame.TextItem { t.X += x; t.Y += y; return t }
	for _, l := range wr.lines {
		mv.Lines = append(mv.Lines, shift(l))
	}
	for _, r := range wr.rows {
		row := frame.MenuRow{Label: shift(r.Label)}
		for _, wd := range r.Widgets {
			wd.Rect.X += x
			wd.Rect.Y += y
			row.Widgets = append(row.Widgets, wd)
		}
		mv.Rows = append(mv.Rows, row)
	}
	return mv
}

// menuContent writes menu m's lines and rows into wr and returns its
// title and the point it stands beside; ok is false when what it is
// about is no longer there.
func (b *Builder) menuContent(wr *writer, m view.Menu) (title string, anchor viz.Point, ok bool) {
	labelW := 78.0
	anchor = viz.Point{X: b.Stage.W() / 2, Y: b.Stage.H() / 3}
	switch m.Kind {
	case view.MenuNode:
		i := m.Node
		if box, ok := b.workerBox(i); ok {
			return b.workerMenu(wr, box, labelW), box.Rect.Center(), true
		}
		if i < 0 || i >= b.World().Size() || i >= len(b.lay().Nodes) {
			return "", anchor, false
		}
		anchor = b.lay().Nodes[i].Center
		title = b.nodeMenu(wr, i, labelW)
	case view.MenuLink:
		lk, ok := b.lay().Link(m.Link.I, m.Link.J)
		if n := b.World().Size(); !ok || m.Link.I < 0 || m.Link.J < 0 || m.Link.I >= n || m.Link.J >= n {
			return "", anchor, false
		}
		anchor = lk.Seg.At(0.5)
		title = b.linkMenu(wr, m.Link, labelW)
	case view.MenuMsg:
		return b.msgMenu(wr, m.Msg)
	case view.MenuMain:
		title = words.SetupMenu
		b.mainMenu(wr, labelW+18)
		anchor = viz.Point{X: 0, Y: b.lay().Toolbar.Bottom()}
		for _, t := range b.frame.Toolbar {
			if t.ID == IDMenu {
				anchor = viz.Point{X: t.Rect.X, Y: t.Rect.Bottom()}
			}
		}
	case view.MenuZone:
		return b.zoneMenu(wr, m.Zone, labelW)
	case view.MenuScenarios:
		title = words.BookScenarios
		b.scenarioMenu(wr)
		anchor = viz.Point{X: 0, Y: b.lay().Toolbar.Bottom()}
	}
	return title, anchor, true
}

// menuOrigin is the top-left corner of a menu of kind k, mw by h: beside
// its anchor, or under it for the toolbar's menus, inside the canvas; on
// a sheet, along the bottom.
func (b *Builder) menuOrigin(k view.MenuKind, anchor viz.Point, mw, h float64) (x, y float64) {
	x = anchor.X + b.lay().NodeRadius + 12
	if k == view.MenuMain || k == view.MenuScenarios {
		x = anchor.X
	}
	if x+mw > b.Stage.W()-4 {
		x = anchor.X - b.lay().NodeRadius - 12 - mw
	}
	x = math.Min(math.Max(x, 4), math.Max(b.Stage.W()-mw-4, 4))
	y = anchor.Y - h/2
	if k == view.MenuMain || k == view.MenuScenarios {
		y = anchor.Y + 4
	}
	y = math.Min(math.Max(y, b.lay().Toolbar.Bottom()+4), math.Max(b.Stage.H()-h-4, 4))
	if b.Stage.Sheet() {
		x = (b.Stage.W() - mw) / 2
		y = math.Max(b.Stage.H()-h-4, b.lay().Toolbar.Bottom()+4)
		if len(b.lay().Tabs) > 0 {
			y = math.Max(math.Min(b.lay().Tabs[0].Rect.Y, b.Stage.H()-h-4), b.lay().Toolbar.Bottom()+4)
		}
	}
	return x, y
}

// speedAndClockRows writes machine i's Speed row (how long it takes per
// message) and Clock row (its clock's rate), members' and workers' alike:
// each a choice of value whose id ends in the value.
func (b *Builder) speedAndClockRows(wr *writer, i int, labelW float64) {
	w, id, m := b.World(), nodeID(i), command.Machine(i)
	pick := func(v raftcore.Verb, value float64, label string, cur float64) frame.Widget {
		n := command.Number(value)
		return chip("node."+string(v)+":"+n, label, value == cur, string(v)+" "+m+" "+n)
	}
	slow := func(ms float64) frame.Widget { return pick(raftcore.DoSlow, ms, words.SlowChoice(ms), w.Slow(id)) }
	wr.row(words.RowSpeed, labelW, slow(1), slow(20), slow(200))
	drift := func(rate float64) frame.Widget {
		return pick(raftcore.DoDrift, rate, words.DriftChoice(rate), w.Drift(id))
	}
	wr.row(words.RowClock, labelW, drift(0.5), drift(1), drift(2))
}

func (b *Builder) nodeMenu(wr *writer, i int, labelW float64) string {
	w := b.World()
	id := nodeID(i)
	nd := w.Node(id)
	st := w.Status(id)
	title := words.Machine(b.cfg().Name(id))
	wr.text(b.Voice().MachineLine(nd.Role(), st, nd.Term()), SizeSmall, frame.ToneMuted, false)
	wr.gap(2)
	m := command.Machine(i)
	verb := func(v raftcore.Verb, label string) frame.Widget {
		return button("node."+string(v), label, string(v)+" "+m)
	}
	wr.row(words.RowRun, labelW, runButtons(st, verb)...)
	b.speedAndClockRows(wr, i, labelW)
	if b.cfg().Protocol != raftcore.ProtocolNaiveCopy {
		wr.row(b.Voice().TimeoutRow(), labelW, verb(raftcore.DoTimeout, b.Voice().TimeoutButton()))
	}
	wr.row(words.RowClient, labelW, verb(raftcore.DoWrite, words.WriteHere))
	read := func(mode raftcore.ReadMode, label string) frame.Widget {
		return button("node.read:"+string(mode), label, "read "+m+" "+string(mode))
	}
	mode := func(m raftcore.ReadMode) frame.Widget { return read(m, words.ReadChoice(m)) }
	switch {
	case b.cfg().Protocol == raftcore.ProtocolRaft && b.Plain():
		// A lease is Raft's mechanism, which the chapter keeps hidden.
		plain := func(m raftcore.ReadMode) frame.Widget { return read(m, words.PlainReadChoice(m)) }
		wr.row(words.RowRead, labelW, plain(raftcore.ReadLinearizable), plain(raftcore.ReadLocal))
	case b.cfg().Protocol == raftcore.ProtocolRaft:
		wr.row(words.RowRead, labelW, mode(raftcore.ReadLinearizable), mode(raftcore.ReadLease), mode(raftcore.ReadLocal))
	default:
		wr.row(words.RowRead, labelW, read(raftcore.ReadLocal, words.ReadPlain))
	}
	if b.Session.Isolated(i) {
		wr.row(words.RowNetwork, labelW, button("node.reconnect", words.Reconnect, "reconnect "+m))
	} else if w.Size() > 1 {
		wr.row(words.RowNetwork, labelW, button("node.isolate", words.CutOff, "isolate "+m))
	}
	b.kubeMenuRow(wr, i, labelW)
	b.memberMenu(wr, i, labelW)
	return title
}

// runButtons are the buttons that change how a machine in state st runs:
// pause or resume it, crash or restart it.
func runButtons(st raftcore.Status, verb func(raftcore.Verb, string) frame.Widget) []frame.Widget {
	switch st {
	case raftcore.StatusUp:
		return []frame.Widget{verb(raftcore.DoPause, words.Pause), verb(raftcore.DoCrash, words.Crash)}
	case raftcore.StatusPaused:
		return []frame.Widget{verb(raftcore.DoResume, words.Resume), verb(raftcore.DoCrash, words.Crash)}
	case raftcore.StatusCrashed:
		return []frame.Widget{verb(raftcore.DoRestart, words.Restart)}
	}
	return []frame.Widget{}
}

func (b *Builder) linkMenu(wr *writer, l viz.LinkID, labelW float64) string {
	w := b.World()
	ni, nj := b.cfg().Name(nodeID(l.I)), b.cfg().Name(nodeID(l.J))
	ij, ji := w.Link(nodeID(l.I), nodeID(l.J)), w.Link(nodeID(l.J), nodeID(l.I))
	wr.text(words.LinkDirection(ni, nj, ij), SizeSmall, frame.ToneMuted, false)
	wr.text(words.LinkDirection(nj, ni, ji), SizeSmall, frame.ToneMuted, false)
	wr.gap(2)
	wr.row(words.RowBothWays, labelW, button("link.cut", words.Cut, "cut "+command.Link(l, false, false)),
		button("link.restore", words.Restore, "heal "+command.Link(l, false, false)))
	oneWay := func(id, from, to string, k raftcore.Link, back bool) frame.Widget {
		if k.Up {
			return button(id, words.CutOneWay(from, to), "cut "+command.Link(l, true, back))
		}
		return button(id, words.RestoreOneWay(from, to), "heal "+command.Link(l, true, back))
	}
	wr.row(words.RowOneWay, labelW, oneWay("link.ij", ni, nj, ij, false), oneWay("link.ji", nj, ni, ji, true))
	lat := ij.LatencyMinUs
	latency := func(lo, hi float64) frame.Widget {
		id := "link.latency:" + strconv.FormatFloat(lo, 'g', -1, 64) + "-" + strconv.FormatFloat(hi, 'g', -1, 64)
		return chip(id, words.LatencyChoice(lo, hi), lat == int64(lo*1000), "latency "+command.Link(l, false, false)+" "+command.Number(lo)+" "+command.Number(hi))
	}
	wr.row(words.RowLatency, labelW, latency(20, 40), latency(200, 400), latency(1000, 2000))
	loss := func(p float64) frame.Widget {
		return chip("link.loss:"+strconv.FormatFloat(p, 'g', -1, 64), words.LossChoice(p), ij.Loss == p, "loss "+command.Link(l, false, false)+" "+command.Number(p))
	}
	wr.row(words.RowLoss, labelW, loss(0), loss(0.2), loss(0.5))
	return words.LinkTitle(ni, nj)
}

func (b *Builder) msgMenu(wr *writer, id uint64) (string, viz.Point, bool) {
	w := b.World()
	for _, m := range w.InFlight() {
		if m.ID != id {
			continue
		}
		pos := viz.Point{X: b.Stage.W() / 2, Y: b.Stage.H() / 2}
		for _, d := range b.scratch.dots {
			if uint64(d.ID) == m.ID {
				pos = d.Pos
			}
		}
		wr.text(b.Voice().MsgSentence(&m), SizeBody, frame.ToneText, false)
		wr.gap(2)
		wr.text(words.SentArrives(m.SendUs, m.DeliverUs), SizeSmall, frame.ToneMuted, false)
		if m.Lost {
			wr.text(words.WillBeLost, SizeSmall, frame.ToneWarn, false)
		}
		for k, e := range m.Entries {
			if k == 4 {
				wr.text(words.AndMore(len(m.Entries)-4), SizeSmall, frame.ToneMuted, false)
				break
			}
			wr.text(b.Voice().MessageEntry(e), SizeSmall, frame.ToneText, false)
		}
		wr.gap(4)
		wr.row("", 0, button("msg.drop", words.DropIt, "drop "+words.Utoa(m.ID)))
		return b.Voice().MessageTitle(&m), pos, true
	}
	return "", viz.Point{}, false
}

func (b *Builder) mainMenu(wr *writer, labelW float64) {
	scen := words.TitleFreePlay
	if b.scen() != nil {
		scen = b.scen().Spec().Title
	}
	if b.Catalog.Len() > 0 {
		wr.row(words.RowScenario, labelW, button("scenarios", words.Choose(scen), "open scenarios"))
	}
	var nodes []frame.Widget
	for n := 1; n <= viz.MaxNodes; n++ {
		nodes = append(nodes, chip("nodes:"+strconv.Itoa(n), strconv.Itoa(n), b.cfg().Nodes == n, "nodes "+strconv.Itoa(n)))
	}
	wr.row(words.RowMachines, labelW, nodes...)
	b.sparesRow(wr, labelW)
	var protos []frame.Widget
	for _, pr := range viz.Protocols() {
		protos = append(protos, chip("protocol:"+pr, pr, string(b.cfg().Protocol) == pr, "protocol "+pr))
	}
	wr.row(words.RowProtocol, labelW, protos...)
	if b.cfg().Protocol == raftcore.ProtocolRaft {
		// A setting changed here holds from the moment shown on, in this
		// run (a recorded "set"); Start again begins a new run with it.
		now := b.World().Settings()
		wr.row(words.RowRaftOptions, labelW,
			frame.Widget{ID: "prevote", Kind: frame.WidgetToggle, Label: words.PreVote, On: now.PreVote, Enabled: true, Do: onOff("set prevote", !now.PreVote)},
			frame.Widget{ID: "checkquorum", Kind: frame.WidgetToggle, Label: words.CheckQuorum, On: now.CheckQuorum, Enabled: true, Do: onOff("set checkquorum", !now.CheckQuorum)},
			// The bug of the paper's Figure 8, on the same row: the menu
			// must fit a 450-pixel figure.
			frame.Widget{ID: "bug.commit-old-term", Kind: frame.WidgetToggle, Label: words.CommitOldTerm, On: now.Bugs&raftcore.BugCommitOldTerm != 0, Enabled: true,
				Do: onOff("set "+raftcore.BugCommitOldTerm.Names()[0], now.Bugs&raftcore.BugCommitOldTerm == 0)})
	}
	et := b.cfg().ElectionTicks
	election := func(t int) frame.Widget {
		return chip("election:"+strconv.Itoa(t), words.ElectionSpan(t, b.cfg().TickMs), et == t, "election "+strconv.Itoa(t))
	}
	wr.row(words.RowElection, labelW, election(5), election(10), election(20))
	if b.cfg().Protocol == raftcore.ProtocolRaft {
		// Like the election timeout, a new run: a machine's log is
		// compacted as it goes, and a changed count would leave the
		// snapshots taken so far out of step with it.
		sc := b.cfg().SnapshotCount
		snaps := func(name string) frame.Widget {
			c, _ := command.SnapshotChoice(name)
			return chip("snapshots:"+name, words.SnapshotEvery(c.Count), sc == c.Count, "snapshots "+name)
		}
		wr.row(words.RowSnapshots, labelW, snaps("off"), snaps("small"), snaps("default"))
	}
	theme := func(t frame.Theme) frame.Widget {
		return chip("theme:"+string(t), string(t), b.View.Theme() == t, "theme "+string(t))
	}
	wr.row(words.RowTheme, labelW, theme(frame.ThemeLight), theme(frame.ThemeDark))
	wr.row(words.RowShare, labelW, button("share.link", words.CopyLink, "copy-link"), button("share.schedule", words.ExportRun, "save-run"),
		button("share.trace", words.ExportTrace, "save-trace"), button("share.png", words.SavePicture, "save-picture"), button("share.import", words.ImportRun, "choose-run"))
	wr.row(words.RowSlides, labelW, button("slides.stage.png", words.StagePNG, "save-picture stage png"),
		button("slides.stage.svg", words.StageSVG, "save-picture stage svg"), button("slides.all.svg", words.WholeSVG, "save-picture all svg"),
		button("slides.frames", words.StageFrames, "save-frames"), button("slides.gif", words.StageGIF, "save-frames gif"))
	var panels []frame.Widget
	for _, pv := range b.lay().Panels {
		if pv.Visible && !pv.Rect.Empty() {
			t := pv.Kind.Title()
			panels = append(panels, button("slides.panel."+strings.ToLower(t), b.panelTitle(pv.Kind), "save-picture "+t+" png"))
		}
	}
	if len(panels) > 0 {
		wr.row(words.RowPanelShot, labelW, panels...)
	}
	wr.row(words.RowRun, labelW, button("reset", words.StartAgain, "reset"), button("reseed", words.NewSeed, "reseed"))
}

func (b *Builder) scenarioMenu(wr *writer) {
	if b.View.MissingFigure() != "" {
		wr.text(words.NoSuchFigure(b.View.MissingFigure()), SizeBody, frame.ToneBad, false)
		wr.y += 4
	}
	ws := []frame.Widget{chip("scenario:", words.TitleFreePlay, b.scen() == nil, "scenario")}
	for _, s := range b.Catalog.List() {
		ws = append(ws, chip("scenario:"+s.ID, s.Title, b.scen() != nil && b.scen().ID() == s.ID, "scenario "+s.ID))
	}
	before := len(wr.widgets)
	wr.buttons(0, ws...)
	wr.rows = append(wr.rows, frame.MenuRow{Widgets: wr.widgets[before:]})
}

// Menu lays menu m of the parts out, open or not (a control in a menu
// one press away can be found in it), or returns nil when it is about
// something no longer there.
func (b *Builder) Menu(p Parts, m view.Menu) *frame.MenuView {
	b.Parts = p
	return b.buildMenu(m)
}
