package scene

import (
	"math"
	"slices"

	"raftlab/internal/linearize"
	"raftlab/raftcore"
	"raftlab/viz"
	"raftlab/viz/frame"
	"raftlab/viz/words"
)

// firstViolation is the first recorded violation of rule.
func firstViolation(w *raftcore.World, rule raftcore.Rule) (raftcore.Violation, bool) {
	for _, v := range w.Violations() {
		if v.Rule == rule {
			return v, true
		}
	}
	return raftcore.Violation{}, false
}

// minTabSize is the smallest text a tab's label shrinks to.
const minTabSize = 9.0

func (b *Builder) buildPanels() {
	f := &b.frame
	f.Panels = f.Panels[:0]
	f.Tabs = f.Tabs[:0]
	// One size for every tab, the largest at which each label fits its
	// tab: narrow tabs (a figure at column width) get smaller words rather
	// than clipped ones.
	size := SizeSmall + 1
	for _, t := range b.lay().Tabs {
		size = math.Min(size, math.Max(b.fitSize(b.tabLabel(t.Kind), SizeSmall+1, t.Rect.W-6), minTabSize))
	}
	for _, t := range b.lay().Tabs {
		f.Tabs = append(f.Tabs, frame.Widget{ID: TabPrefix + t.Kind.Title(), Kind: frame.WidgetTab, Rect: t.Rect, Label: b.tabLabel(t.Kind), On: t.Active, Enabled: true, Size: size,
			Do: "panel " + t.Kind.Title()})
	}
	var kinds []viz.PanelKind
	var rects []viz.Rect
	for _, p := range b.lay().Panels {
		if p.Visible && !p.Rect.Empty() {
			kinds = append(kinds, p.Kind)
			rects = append(rects, p.Rect)
		}
	}
	// Lay each panel's content out once, at the origin; it is moved into
	// place (and scrolled) afterwards.
	contents := make([]*writer, len(kinds))
	for i, k := range kinds {
		contents[i] = b.newWriter(0, 0, rects[i].W-2*panelPad)
		b.panelContent(k, contents[i])
	}
	if !b.lay().Tabbed && len(rects) > 1 {
		rects = b.fitPanels(kinds, contents, rects)
	}
	for i, k := range kinds {
		f.Panels = append(f.Panels, b.placePanel(k, rects[i], contents[i]))
	}
}

// Panel padding and the height of a stacked panel's title.
const (
	panelPad    = 8.0
	panelHeader = 6 + SizeTitle*1.35 + 1 + 4
)

// fitPanels shares the column of stacked panels out by content: a panel
// with little to say takes little room, and the rest goes to those that
// need it. The layout's equal split is the starting point: the column is
// the same.
func (b *Builder) fitPanels(kinds []viz.PanelKind, contents []*writer, rects []viz.Rect) []viz.Rect {
	col := rects[0]
	for _, r := range rects[1:] {
		col.H = r.Bottom() - col.Y
	}
	gap := rects[1].Y - rects[0].Bottom()
	n := len(rects)
	avail := col.H - gap*float64(n-1)
	s := &panelShares{want: make([]float64, n), got: make([]float64, n), fixed: make([]bool, n),
		left: avail, open: n, minH: panelHeader + 2*LineHeight(SizeBody) + panelPad}
	for i, wr := range contents {
		s.want[i] = panelHeader + wr.height() + panelPad
	}
	// The scenario's own words come first: what to try, the step, what
	// just happened and its buttons.
	for i, k := range kinds {
		if k == viz.PanelScenario && b.scen() != nil {
			s.give(i, min(max(s.want[i], s.minH), avail*0.5))
		}
	}
	if b.scen() != nil {
		b.shareByScenario(s, kinds)
	}
	s.waterFill()
	// Room to spare goes to the client list, which grows.
	sum := 0.0
	for _, g := range s.got {
		sum += g
	}
	if extra := avail - sum; extra > 0 {
		s.got[n-1] += extra
	}
	return stackPanels(col, s.got, gap)
}

// panelShares is the column's height being shared out among its panels:
// what each wants, what each has got once fixed, and what is left to the
// open ones, none of which gets less than minH.
type panelShares struct {
	want, got  []float64
	fixed      []bool
	left, minH float64
	open       int
}

// give fixes panel i at height h.
func (s *panelShares) give(i int, h float64) {
	s.got[i], s.fixed[i] = h, true
	s.left -= s.got[i]
	s.open--
}

// shareByScenario keeps the panels a scenario does not ask for to their
// title, unless the reader opened one, and serves the ones it asks for
// in its order of importance, each leaving the rest at least a couple of
// lines.
func (b *Builder) shareByScenario(s *panelShares, kinds []viz.PanelKind) {
	wanted := panelKinds(b.scen())
	if b.View.Opened() >= 0 && !slices.Contains(wanted, b.View.Opened()) {
		wanted = append([]viz.PanelKind{b.View.Opened()}, wanted...)
	}
	small := panelHeader + panelPad/2
	for i, k := range kinds {
		if k != viz.PanelScenario && !slices.Contains(wanted, k) {
			s.give(i, min(s.want[i], small))
		}
	}
	for _, k := range wanted {
		i := slices.Index(kinds, k)
		if i < 0 || s.fixed[i] {
			continue
		}
		s.give(i, max(min(s.want[i], s.left-s.minH*float64(s.open-1)), s.minH))
	}
}

// waterFill gives the panels that want less than a fair share what they
// want; the others split what is left.
func (s *panelShares) waterFill() {
	for changed := true; changed && s.open > 0; {
		changed = false
		share := s.left / float64(s.open)
		for i := range s.want {
			if !s.fixed[i] && max(s.want[i], s.minH) <= share {
				s.give(i, max(s.want[i], s.minH))
				changed = true
			}
		}
	}
	for i := range s.got {
		if !s.fixed[i] {
			s.got[i] = s.left / float64(s.open)
		}
	}
}

// stackPanels stands panels of heights got one under the other down
// column col, gap apart.
func stackPanels(col viz.Rect, got []float64, gap float64) []viz.Rect {
	out := make([]viz.Rect, len(got))
	y := col.Y
	for i := range out {
		out[i] = viz.XYWH(col.X, y, col.W, got[i])
		y += got[i] + gap
	}
	return out
}

// tabLabel is a tab's title, with a warning when its panel has news the
// reader should not miss.
func (b *Builder) tabLabel(k viz.PanelKind) string {
	if k == viz.PanelSafety && b.World().ViolationCount("") > 0 {
		return words.WithNews(k.Title())
	}
	return k.Title()
}

// placePanel puts content laid out at the origin into panel rectangle r,
// scrolled.
func (b *Builder) placePanel(k viz.PanelKind, r viz.Rect, content *writer) frame.PanelView {
	pv := frame.PanelView{Kind: k, Rect: r}
	pv.Title = frame.TextItem{Text: b.panelTitle(k), X: r.X + panelPad, Y: r.Y + 6, Size: SizeTitle, Tone: frame.ToneText, Bold: true}
	body := viz.XYWH(r.X+panelPad, r.Y+panelHeader, r.W-2*panelPad, r.H-panelHeader-panelPad/2)
	if b.lay().Tabbed {
		// The tab already names the panel.
		pv.Title = frame.TextItem{}
		body = viz.XYWH(r.X+panelPad, r.Y+panelPad, r.W-2*panelPad, r.H-1.5*panelPad)
	}
	pv.Clip = body
	if body.H < LineHeight(SizeBody) && !b.lay().Tabbed {
		// Folded to its title: a press on it opens it.
		pv.Folded = true
		pv.Widgets = []frame.Widget{{ID: "open:" + k.Title(), Kind: frame.WidgetFold, Rect: r, Label: words.ShowPanel, Enabled: true, Do: "unfold " + k.Title()}}
		return pv
	}
	// Keep the scroll within the content.
	h := content.height()
	scroll := min(b.View.Scroll(k), max(h-body.H, 0))
	dx, dy := body.X, body.Y-scroll
	pv.More = h-scroll > body.H+1
	pv.Lines = make([]frame.TextItem, len(content.lines))
	for i, l := range content.lines {
		l.X += dx
		l.Y += dy
		pv.Lines[i] = l
	}
	pv.Widgets = make([]frame.Widget, len(content.widgets))
	for i, w := range content.widgets {
		w.Rect.X += dx
		w.Rect.Y += dy
		pv.Widgets[i] = w
	}
	if d := content.diagram; d != nil {
		pv.Diagram = d.Moved(dx, dy)
	}
	if len(content.gauges) > 0 {
		pv.Gauges = make([]frame.Gauge, len(content.gauges))
		for i, g := range content.gauges {
			g.Rect.X += dx
			g.Rect.Y += dy
			pv.Gauges[i] = g
		}
	}
	if b.Still {
		keepWhole(&pv, content.paras)
	}
	return pv
}

// keepWhole trims a still panel to what fits its body whole: from the
// first paragraph (or control) that would run out of the body on, nothing
// is shown, and no "more below" either, which nobody could scroll to.
func keepWhole(pv *frame.PanelView, paras []int) {
	bottom := pv.Clip.Bottom()
	cut := math.Inf(1)
	for i, l := range pv.Lines {
		if l.Y+LineHeight(l.Size)-1 > bottom {
			start := 0
			for _, p := range paras {
				if p <= i {
					start = p
				}
			}
			cut = min(cut, pv.Lines[start].Y)
			break
		}
	}
	for _, w := range pv.Widgets {
		if w.Rect.Bottom() > bottom {
			cut = min(cut, w.Rect.Y)
		}
	}
	lines := pv.Lines[:0]
	for _, l := range pv.Lines {
		if l.Y < cut-0.5 {
			lines = append(lines, l)
		}
	}
	widgets := pv.Widgets[:0]
	for _, w := range pv.Widgets {
		if w.Rect.Y < cut-0.5 {
			widgets = append(widgets, w)
		}
	}
	gauges := pv.Gauges[:0]
	for _, g := range pv.Gauges {
		if g.Rect.Y < cut-0.5 {
			gauges = append(gauges, g)
		}
	}
	pv.Lines, pv.Widgets, pv.Gauges, pv.More = lines, widgets, gauges, false
}

func (b *Builder) panelContent(k viz.PanelKind, wr *writer) {
	switch k {
	case viz.PanelScenario:
		b.scenarioPanel(wr)
	case viz.PanelQuestion:
		b.questionPanel(wr)
	case viz.PanelNode:
		b.nodePanel(wr)
	case viz.PanelSafety:
		b.safetyPanel(wr)
	case viz.PanelClient:
		b.clientPanel(wr)
	}
}

func (b *Builder) panelTitle(k viz.PanelKind) string {
	switch k {
	case viz.PanelScenario:
		if b.scen() != nil {
			return b.scen().Spec().Title
		}
		return words.TitleFreePlay
	case viz.PanelQuestion:
		return words.TitleQuestion
	case viz.PanelNode:
		if t, ok := b.timingTitle(); ok {
			return t
		}
		if b.cfg().Protocol == raftcore.ProtocolRaft && !b.Plain() {
			return words.TitleRoles
		}
		if b.View.Selected() >= 0 {
			return words.Machine(b.cfg().Name(nodeID(b.View.Selected())))
		}
		return words.TitleMachine
	case viz.PanelSafety:
		if b.informersFocus() {
			return words.InformersTitle
		}
		return words.TitleSafety
	case viz.PanelClient:
		return words.TitleClient
	}
	return k.Title()
}

func (b *Builder) scenarioPanel(wr *writer) {
	if b.scen() != nil {
		b.scenarioPanelOf(b.scen(), wr)
		return
	}
	wr.text(words.Setup(b.setupNow()), SizeBody, frame.ToneText, true)
	b.writeBroken(wr, SizeBody)
	wr.text(b.Voice().FreePlayHint(), SizeBody-1, frame.ToneText, false)
	wr.gap(4)
	if b.Catalog.Len() > 0 {
		wr.buttons(0, button("scenarios", words.BookScenarios, "open scenarios"), button(IDMenu, words.SetupButton, "open setup"))
	} else {
		wr.buttons(0, button(IDMenu, words.SetupButton, "open setup"))
	}
}

// questionKey is the key the question panel asks about.
func (b *Builder) questionKey() string { return b.Session.QuestionKey() }

func (b *Builder) questionPanel(wr *writer) {
	key := b.questionKey()
	wr.text(words.Question(key), SizeBody, frame.ToneText, false)
	wr.gap(2)
	answers := b.World().Ask(key)
	yes, up := 0, 0
	values := map[string]bool{}
	for _, ans := range answers {
		if !ans.Answered {
			continue
		}
		up++
		if ans.Exists {
			yes++
			values[ans.Value] = true
		}
	}
	// When everyone agrees one line says it; otherwise each machine
	// answers for itself.
	if up == len(answers) && len(values) <= 1 && (yes == 0 || yes == up) {
		switch {
		case yes == 0:
			wr.item("✗", frame.ToneWarn, words.AllAnswer(up, false, ""), SizeBody, frame.ToneText)
		default:
			for v := range values {
				wr.item("✓", frame.ToneGood, words.AllAnswer(up, true, v), SizeBody, frame.ToneText)
			}
		}
		return
	}
	for _, ans := range answers {
		switch {
		case !ans.Answered:
			wr.item("–", frame.ToneMuted, words.Answer(ans), SizeBody-1, frame.ToneMuted)
		case ans.Exists:
			wr.item("✓", frame.ToneGood, words.Answer(ans), SizeBody-1, frame.ToneText)
		default:
			wr.item("✗", frame.ToneWarn, words.Answer(ans), SizeBody-1, frame.ToneText)
		}
	}
	wr.gap(2)
	switch {
	case up == 0:
	case yes > 0 && yes < up:
		wr.text(words.AnswersDisagree, SizeBody, frame.ToneWarn, true)
	case len(values) > 1:
		wr.text(words.AnswersDiffer, SizeBody, frame.ToneWarn, true)
	default:
		wr.text(words.AnswersAgree, SizeBody, frame.ToneGood, true)
	}
}

// nodePanel writes the panel about the selected machine: a timing
// section or the diagram of roles over it, then the machine's state, and
// under Raft the leader's view of its followers, and its newest entries.
func (b *Builder) nodePanel(wr *writer) {
	// A timing panel takes the diagram's place: the figure is about
	// times, and the panel is short. A machine clicked still shows below.
	timing := b.timingSection(wr)
	if timing && (b.Figure() || b.View.Selected() < 0) {
		return
	}
	if timing {
		wr.gap(6)
	}
	raft := b.cfg().Protocol == raftcore.ProtocolRaft && !b.Plain()
	if raft {
		// While the cluster's make-up differs from the start, it comes
		// first: which machines count, and where each majority stands.
		b.configSection(wr)
	}
	if raft && !timing {
		d, h := b.roleDiagram(wr.x, wr.y, wr.w)
		wr.diagram = d
		wr.y += h + 4
		for _, line := range b.pausedRoles() {
			wr.text(line, SizeSmall, frame.ToneMuted, false)
		}
	}

	if b.View.Selected() < 0 || b.View.Selected() >= b.World().Size() {
		wr.text(b.Voice().PickAMachine(), SizeBody, frame.ToneMuted, false)
		return
	}
	id := nodeID(b.View.Selected())
	wr.text(words.Machine(b.cfg().Name(id)), SizeBody, frame.ToneText, true)
	b.nodeState(wr, id, raft)
	nd := b.World().Node(id)
	if b.lookRole(id) == raftcore.RoleLeader && b.cfg().Protocol == raftcore.ProtocolRaft {
		b.followerProgress(wr, id)
	}
	if nd.LastIndex() > 0 {
		b.newestEntries(wr, nd)
	}
}

// nodeState writes machine id's state as pairs of label and value: its
// role, how it runs, its term and vote under Raft, whom it follows, its
// log, its timer and what it holds.
func (b *Builder) nodeState(wr *writer, id raftcore.NodeID, raft bool) {
	w := b.World()
	nd := w.Node(id)
	st := w.Status(id)
	kv := func(k, v string, tone frame.Tone) { wr.pair(k, v, tone, 92) }
	crashed := st == raftcore.StatusCrashed
	if crashed {
		// Only what the machine persisted is left: term, vote and log.
		kv(words.LabelRole, words.NoRoleCrashed, frame.ToneMuted)
	} else {
		kv(words.LabelRole, b.Voice().RoleWord(nd.Role()), frame.ToneText)
	}
	if parts := b.memberParts(); raft && int(id) <= len(parts) {
		kv(words.LabelPart, words.MemberWord(parts[id-1]), frame.ToneText)
	}
	stateTone := frame.ToneText
	if st != raftcore.StatusUp {
		stateTone = frame.ToneWarn
	}
	kv(words.LabelRunning, words.Running(st, w.Slow(id), w.Drift(id), w.Backlog(id)), stateTone)
	if raft {
		kv(words.LabelTerm, words.Utoa(nd.Term()), frame.ToneText)
		vote := words.Nobody
		if v := nd.Vote(); v != raftcore.None {
			vote = b.cfg().Name(v)
		}
		kv(words.LabelVote, vote, frame.ToneText)
	}
	if crashed {
		kv(words.LabelLog, words.PersistedLog(nd.LastIndex(), nd.Commit()), frame.ToneText)
		return
	}
	lead := words.Nobody
	if l := nd.Lead(); l != raftcore.None {
		lead = b.cfg().Name(l)
	}
	kv(b.Voice().LabelLead(), lead, frame.ToneText)
	kv(words.LabelLog, words.LogSummary(nd.LastIndex(), nd.Commit(), nd.Applied()), frame.ToneText)
	if el, to := nd.ElectionTimer(); to > 0 && nd.Role() != raftcore.RoleLeader && b.cfg().Protocol != raftcore.ProtocolNaiveCopy {
		kv(words.LabelTimer, words.Timer(el, to), frame.ToneText)
	}
	if v, ok := nd.KV().Get(b.questionKey()); ok {
		kv(b.questionKey(), words.KeyValue(v.Value, v.ModIndex), frame.ToneText)
	}
	if n := nd.KV().Len(); n > 0 {
		kv(words.LabelKeys, words.Keys(n), frame.ToneText)
	}
}

// followerProgress lists, for leader id, how far each other machine has
// come, in warning colours for those not heard from lately.
func (b *Builder) followerProgress(wr *writer, id raftcore.NodeID) {
	w := b.World()
	nd := w.Node(id)
	wr.gap(4)
	wr.text(b.Voice().FollowersHeading(), SizeBody, frame.ToneText, true)
	for j := 1; j <= w.Size(); j++ {
		if raftcore.NodeID(j) == id {
			continue
		}
		pr, ok := nd.Progress(raftcore.NodeID(j))
		if !ok {
			continue
		}
		tone := frame.ToneText
		if !pr.RecentActive {
			tone = frame.ToneWarn
		}
		wr.item("•", frame.ToneAccent, words.Progress(b.cfg().Name(raftcore.NodeID(j)), pr), SizeBody-1, tone)
	}
}

// newestEntries lists the last five entries of nd's log, newest first,
// each marked committed or waiting.
func (b *Builder) newestEntries(wr *writer, nd *raftcore.Node) {
	last := nd.LastIndex()
	wr.gap(4)
	wr.text(words.NewestEntries, SizeBody, frame.ToneText, true)
	for i := last; i >= nd.FirstIndex() && i+5 > last; i-- {
		s := b.Voice().EntryRow(nd.Entry(i))
		mark, tone := "✓", frame.ToneGood
		if i > nd.Commit() {
			mark, tone = "…", frame.ToneWarn
		}
		wr.item(mark, tone, s, SizeBody-1, frame.ToneText)
	}
}

func (b *Builder) safetyPanel(wr *writer) {
	w := b.World()
	compact := b.Figure() && wr.compact
	// A broken rule is the news: it comes first, where the clauses that
	// hold would otherwise push it below the fold.
	broken := w.ViolationCount("") > 0 && !compact
	if b.informers(wr) {
		if b.informersFocus() {
			return
		}
		wr.gap(6)
	}
	if broken {
		b.safetyRules(wr)
		wr.gap(6)
	}
	if c := w.Contract(); len(c) > 0 {
		// Where a figure has room for the five clauses only if those that
		// hold go by name, the reason is given only where a clause breaks,
		// and the clauses need no heading over them.
		if !compact {
			wr.text(words.ContractHeading, SizeBody, frame.ToneText, true)
		}
		for _, cl := range c {
			mark, tone := clauseMark(cl)
			text := words.ClauseTitle(cl.ID) + ": " + b.Voice().ClauseText(cl)
			if compact && cl.State == raftcore.ClauseHolding {
				text = words.ClauseTitle(cl.ID)
			}
			wr.item(mark, tone, text, SizeBody-1, frame.ToneText)
		}
		wr.gap(6)
		if compact {
			return
		}
	}
	if !broken {
		b.safetyRules(wr)
	}
}

// safetyRules says whether the rules hold, and names each broken one with
// what broke it first.
func (b *Builder) safetyRules(wr *writer) {
	w := b.World()
	total := w.ViolationCount("")
	if total == 0 {
		wr.text(words.RulesHold(len(words.Rules())), SizeBody, frame.ToneGood, true)
	} else {
		wr.text(words.RulesBroken(total), SizeBody, frame.ToneBad, true)
	}
	for _, r := range words.Rules() {
		n := w.ViolationCount(r)
		if n == 0 {
			if b.View.ShowRules() {
				wr.item("✓", frame.ToneGood, b.Voice().RuleText(r), SizeBody-1, frame.ToneMuted)
			}
			continue
		}
		v, _ := firstViolation(w, r)
		wr.item("✗", frame.ToneBad, b.Voice().RuleBroken(r, v.Text), SizeBody-1, frame.ToneText)
	}
	b.lostUpdates(wr, 3)
	label := words.ShowRules(!b.View.ShowRules())
	wr.gap(2)
	rules := "rules all"
	if b.View.ShowRules() {
		rules = "rules broken"
	}
	wr.buttons(0, button("rules", label, rules))
}

func (b *Builder) clientPanel(wr *writer) {
	b.cacheSection(wr)
	w := b.World()
	ops := w.Ops()
	// Kubernetes' own requests (kubelets renewing Leases and listing
	// their Pods, the node lifecycle controller reading and writing) come
	// every few seconds from every worker: listed, they would bury the
	// reader's. They are counted on one line; the reader's are listed.
	own, kube := splitKubeOps(ops, w.ForgottenOps(), b.scratch.ownOps[:0])
	if len(own) < len(ops) { // the scratch, not the world's own list
		b.scratch.ownOps = own[:0]
	}
	kubeLine := ""
	if w.Config().Workers > 0 {
		kubeLine = words.KubeRequests(kube)
	}
	f := w.ForgottenOps()
	forgotten := f.Count
	for _, t := range f.Kube {
		forgotten -= t.Count
	}
	if len(own) == 0 && forgotten == 0 {
		if kubeLine != "" {
			wr.text(kubeLine, SizeBody-1, frame.ToneMuted, false)
		}
		// A figure's toolbar has no keys to learn: its requests come from
		// playing it, or from a machine's menu.
		wr.text(b.Voice().NoRequests(b.Figure()), SizeBody, frame.ToneMuted, false)
		return
	}
	// The tally is the whole run's: the history keeps only the newest
	// requests (session.HistoryLimit) and counts the ones it forgot.
	ok, failed, pending, swaps := f.OK, f.Timeout+f.Refused, 0, f.Conflict
	for _, t := range f.Kube {
		ok, failed, swaps = ok-t.OK, failed-t.Failed, swaps-t.Conflict
	}
	for _, op := range own {
		switch op.Result {
		case raftcore.OpOK:
			ok++
		case raftcore.OpPending:
			pending++
		case raftcore.OpConflict:
			swaps++
		default:
			failed++
		}
	}
	verdicts := b.Session.Reads(judgeable(w, ops))
	// A lost update first: it is what a run with controllers turns on,
	// and where the panel has little room (a figure on a phone) it must
	// not be what the room cuts.
	b.lostUpdates(wr, 1)
	wr.text(words.Tally(ok, pending, failed, swaps, len(verdicts.Stale())), SizeBody, frame.ToneText, true)
	if forgotten > 0 {
		wr.text(words.Forgotten(forgotten), SizeBody-1, frame.ToneMuted, false)
	}
	if kubeLine != "" {
		wr.text(kubeLine, SizeBody-1, frame.ToneMuted, false)
	}
	ops = own
	now := w.Now()
	held := heldBy(w, ops)
	shown := 0
	for k := len(ops) - 1; k >= 0 && shown < 40; k-- {
		op := ops[k]
		mark, tone := opMark(op)
		lat := words.Ms(op.LatencyUs(now))
		if op.Result == raftcore.OpPending {
			// When it was sent, beside the clock, rather than how long
			// it has waited: that would change the line every frame,
			// and the panel would be painted anew every frame with it.
			// How far a write has got: a majority of copies is what it
			// waits for.
			count := -1
			if op.Kind != raftcore.DoRead {
				count = held[op.ID]
			}
			lat = words.SentAt(op.InvokeUs, count, w.Size())
			if count == 0 && op.Appended != 0 {
				// Appended once and held nowhere now: overwritten.
				lat = b.Voice().Replaced(op.InvokeUs, op.Appended)
			}
		}
		v, ok := verdicts.Verdict(op.ID)
		judged := ok && v.Verdict != linearize.Unanswered
		if judged && v.Verdict == linearize.Stale {
			mark, tone = "!", frame.ToneWarn
		}
		wr.item(mark, tone, b.Voice().ClientRow(op, lat, v, judged), SizeBody-1, frame.ToneText)
		shown++
	}
}

// splitKubeOps parts ops into the reader's own, appended to buf (a
// frame's scratch, so that a panel built every frame allocates nothing
// once it has grown), and the tally of those Kubernetes made, by use,
// the forgotten ones of f included.
func splitKubeOps(ops []raftcore.Op, f raftcore.ForgottenOps, buf []raftcore.Op) (own []raftcore.Op, kube [raftcore.KubeUses]words.KubeTally) {
	for k, t := range f.Kube {
		kube[k].OpTally, kube[k].Forgotten = t, t.Count
	}
	for k := range ops {
		op := &ops[k]
		if op.Kube == raftcore.KubeNone {
			continue
		}
		t := &kube[op.Kube]
		if op.Result == raftcore.OpPending {
			t.Waiting++
		}
		t.Add(op)
	}
	mine := len(ops)
	for _, t := range kube {
		mine -= t.Count - t.Forgotten
	}
	if mine == len(ops) {
		return ops, kube
	}
	own = buf
	for _, op := range ops {
		if op.Kube == raftcore.KubeNone {
			own = append(own, op)
		}
	}
	return own, kube
}

// judgeable is the part of ops whose reads can be judged: the operations
// on keys none of whose writes the history forgot. A read judged over a
// key's history with a write missing could be called stale for returning
// that write's value, so such keys are left out rather than misjudged;
// the world's own stale-read rule still covers them (raftcore's checker
// keeps what it needs of the forgotten writes).
func judgeable(w *raftcore.World, ops []raftcore.Op) []raftcore.Op {
	if w.ForgottenOps().Writes == 0 {
		return ops
	}
	out := make([]raftcore.Op, 0, len(ops))
	for _, op := range ops {
		if !w.ForgotWriteTo(op.Key) {
			out = append(out, op)
		}
	}
	return out
}

// holdersReach is how far back from the end of a log heldBy looks: a
// write still waiting sits near the end.
const holdersReach = 256

// heldBy counts, for each waiting write among ops, the machines whose log
// holds the entry it became (a crashed machine's disk counts). Each log's
// tail is read once, whatever the number of waiting writes: the panel is
// built every frame while the run moves.
func heldBy(w *raftcore.World, ops []raftcore.Op) map[int]int {
	held := map[int]int{}
	for _, op := range ops {
		if op.Result == raftcore.OpPending && op.Kind != raftcore.DoRead {
			held[op.ID] = 0
		}
	}
	if len(held) == 0 {
		return held
	}
	var counted []int
	for id := raftcore.NodeID(1); int(id) <= w.Size(); id++ {
		n := w.Node(id)
		last := n.LastIndex()
		counted = counted[:0]
		for i := last; i >= n.FirstIndex() && i+holdersReach > last; i-- {
			op := n.Entry(i).Data.OpID
			if _, waiting := held[op]; waiting && !slices.Contains(counted, op) {
				held[op]++
				counted = append(counted, op) // a duplicated entry counts once
			}
		}
	}
	return held
}

// lostUpdates tells of the run's lost updates, up to max of them, apart
// from the safety rules: every rule of Raft can hold while a controller's
// write replaces a change it never read.
func (b *Builder) lostUpdates(wr *writer, max int) {
	w := b.World()
	n := w.LostUpdates()
	if n == 0 {
		return
	}
	if wr.height() > 0 {
		wr.gap(4)
	}
	wr.text(words.LostUpdates(n), SizeBody, frame.ToneWarn, true)
	for i, f := range w.Findings() {
		if i == max {
			break
		}
		wr.item("!", frame.ToneWarn, words.LostUpdate(*b.cfg(), f), SizeBody-1, frame.ToneText)
	}
	wr.gap(4)
}

// PanelContent is what panel k of the parts says, laid out at the origin
// in width w, whether the panel is shown or not and however far it is
// scrolled: for a reader of every word the app can show.
func (b *Builder) PanelContent(p Parts, k viz.PanelKind, w float64) frame.PanelView {
	b.Parts = p
	b.scratch.deploy = b.World().DeploymentControllers()
	wr := b.newWriter(0, 0, w)
	b.panelContent(k, wr)
	return frame.PanelView{Kind: k, Lines: wr.lines, Widgets: wr.widgets, Diagram: wr.diagram, Gauges: wr.gauges}
}
