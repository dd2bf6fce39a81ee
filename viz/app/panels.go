package app

import (
	"math"
	"slices"
	"strconv"

	"raftlab/internal/linearize"
	"raftlab/raftcore"
	"raftlab/viz"
	"raftlab/viz/frame"
	"raftlab/viz/words"
)

// ruleWords says each safety rule in a few plain words; Plain, where set,
// says it without Raft's words, for the figures before the book
// introduces Raft.
var ruleWords = []struct {
	Rule  raftcore.Rule
	Words string
	Plain string
}{
	{raftcore.RuleElectionSafety, "At most one leader per term", "At most one machine is put in charge at each handover"},
	{raftcore.RuleLeaderAppendOnly, "A leader never rewrites its own log", "The machine in charge never rewrites its own history"},
	{raftcore.RuleLogMatching, "Logs that agree at an entry agree on all before it", ""},
	{raftcore.RuleLeaderCompleteness, "A leader holds every committed entry", "The machine in charge holds every committed entry"},
	{raftcore.RuleStateMachineSafety, "No two machines apply different entries at one index", ""},
	{raftcore.RuleMajority, "Only what a majority holds is committed", ""},
	{raftcore.RuleSingleAuthority, "Only one machine decides at a time", ""},
	{raftcore.RuleStaleRead, "Reads see every write finished before them", ""},
	{raftcore.RuleTermMonotonic, "Terms never go back", "Handovers are never undone"},
	{raftcore.RuleCommitMonotonic, "Commits are never taken back", ""},
	{raftcore.RuleCommitWithinLog, "Nothing is committed beyond the log", ""},
	{raftcore.RuleOneVote, "One vote per machine per term", "Each machine backs one machine per handover"},
	{raftcore.RuleStateDigest, "Each state matches its applied log", ""},
	{raftcore.RuleCommitCurrentTerm, "A leader commits by counting only its own term's entries", "The machine in charge commits only by counting entries it took itself"},
}

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

func (a *App) buildPanels() {
	f := &a.frame
	f.Panels = f.Panels[:0]
	f.Tabs = f.Tabs[:0]
	// One size for every tab, the largest at which each label fits its
	// tab: narrow tabs (a figure at column width) get smaller words rather
	// than clipped ones.
	size := sizeSmall + 1
	for _, t := range a.lay().Tabs {
		size = math.Min(size, math.Max(a.fitSize(a.tabLabel(t.Kind), sizeSmall+1, t.Rect.W-6), minTabSize))
	}
	for _, t := range a.lay().Tabs {
		f.Tabs = append(f.Tabs, frame.Widget{ID: tabPrefix + t.Kind.Title(), Kind: frame.WidgetTab, Rect: t.Rect, Label: a.tabLabel(t.Kind), On: t.Active, Enabled: true, Size: size,
			Do: "panel " + t.Kind.Title()})
	}
	var kinds []viz.PanelKind
	var rects []viz.Rect
	for _, p := range a.lay().Panels {
		if p.Visible && !p.Rect.Empty() {
			kinds = append(kinds, p.Kind)
			rects = append(rects, p.Rect)
		}
	}
	// Lay each panel's content out once, at the origin; it is moved into
	// place (and scrolled) afterwards.
	contents := make([]*writer, len(kinds))
	for i, k := range kinds {
		contents[i] = a.newWriter(0, 0, rects[i].W-2*panelPad)
		a.panelContent(k, contents[i])
	}
	if !a.lay().Tabbed && len(rects) > 1 {
		rects = a.fitPanels(kinds, contents, rects)
	}
	a.panelRects = a.panelRects[:0]
	for i, k := range kinds {
		f.Panels = append(f.Panels, a.placePanel(k, rects[i], contents[i]))
		a.panelRects = append(a.panelRects, panelRect{k, rects[i]})
	}
}

type panelRect struct {
	kind viz.PanelKind
	rect viz.Rect
}

// Panel padding and the height of a stacked panel's title.
const (
	panelPad    = 8.0
	panelHeader = 6 + sizeTitle*1.35 + 1 + 4
)

// fitPanels shares the column of stacked panels out by content: a panel
// with little to say takes little room, and the rest goes to those that
// need it. The layout's equal split is the starting point: the column is
// the same.
func (a *App) fitPanels(kinds []viz.PanelKind, contents []*writer, rects []viz.Rect) []viz.Rect {
	col := rects[0]
	for _, r := range rects[1:] {
		col.H = r.Bottom() - col.Y
	}
	gap := rects[1].Y - rects[0].Bottom()
	n := len(rects)
	avail := col.H - gap*float64(n-1)
	want := make([]float64, n)
	for i, wr := range contents {
		want[i] = panelHeader + wr.height() + panelPad
	}
	minH := panelHeader + 2*lineHeight(sizeBody) + panelPad
	got := make([]float64, n)
	left, open := avail, n
	fixed := make([]bool, n)
	// The scenario's own words come first: what to try, the step, what
	// just happened and its buttons.
	for i, k := range kinds {
		if k == viz.PanelScenario && a.scen() != nil {
			got[i], fixed[i] = min(max(want[i], minH), avail*0.5), true
			left -= got[i]
			open--
		}
	}
	// Panels a scenario does not ask for keep to their title, unless the
	// reader opened one.
	if a.scen() != nil {
		wanted := panelKinds(a.scen())
		if a.view.Opened() >= 0 && !slices.Contains(wanted, a.view.Opened()) {
			wanted = append([]viz.PanelKind{a.view.Opened()}, wanted...)
		}
		small := panelHeader + panelPad/2
		for i, k := range kinds {
			if k != viz.PanelScenario && !slices.Contains(wanted, k) {
				got[i], fixed[i] = min(want[i], small), true
				left -= got[i]
				open--
			}
		}
		// The ones it asks for are served in its order of importance,
		// each leaving the rest at least a couple of lines.
		for _, k := range wanted {
			i := slices.Index(kinds, k)
			if i < 0 || fixed[i] {
				continue
			}
			got[i] = max(min(want[i], left-minH*float64(open-1)), minH)
			fixed[i] = true
			left -= got[i]
			open--
		}
	}
	// Water-filling: panels that want less than a fair share get what
	// they want; the others split what is left.
	for changed := true; changed && open > 0; {
		changed = false
		share := left / float64(open)
		for i := range want {
			if !fixed[i] && max(want[i], minH) <= share {
				got[i], fixed[i] = max(want[i], minH), true
				left -= got[i]
				open--
				changed = true
			}
		}
	}
	for i := range got {
		if !fixed[i] {
			got[i] = left / float64(open)
		}
	}
	// Room to spare goes to the client list, which grows.
	sum := 0.0
	for _, g := range got {
		sum += g
	}
	if extra := avail - sum; extra > 0 {
		got[n-1] += extra
	}
	out := make([]viz.Rect, n)
	y := col.Y
	for i := range out {
		out[i] = viz.XYWH(col.X, y, col.W, got[i])
		y += got[i] + gap
	}
	return out
}

// tabLabel is a tab's title, with a warning when its panel has news the
// reader should not miss.
func (a *App) tabLabel(k viz.PanelKind) string {
	if k == viz.PanelSafety && a.World().ViolationCount("") > 0 {
		return "Safety ✗"
	}
	return k.Title()
}

// placePanel puts content laid out at the origin into panel rectangle r,
// scrolled.
func (a *App) placePanel(k viz.PanelKind, r viz.Rect, content *writer) frame.PanelView {
	pv := frame.PanelView{Kind: k, Rect: r}
	pv.Title = frame.TextItem{Text: a.panelTitle(k), X: r.X + panelPad, Y: r.Y + 6, Size: sizeTitle, Tone: frame.ToneText, Bold: true}
	body := viz.XYWH(r.X+panelPad, r.Y+panelHeader, r.W-2*panelPad, r.H-panelHeader-panelPad/2)
	if a.lay().Tabbed {
		// The tab already names the panel.
		pv.Title = frame.TextItem{}
		body = viz.XYWH(r.X+panelPad, r.Y+panelPad, r.W-2*panelPad, r.H-1.5*panelPad)
	}
	pv.Clip = body
	if body.H < lineHeight(sizeBody) && !a.lay().Tabbed {
		// Folded to its title: a press on it opens it.
		pv.Folded = true
		pv.Widgets = []frame.Widget{{ID: "open:" + k.Title(), Kind: frame.WidgetFold, Rect: r, Label: "Show", Enabled: true, Do: "unfold " + k.Title()}}
		return pv
	}
	// Keep the scroll within the content.
	h := content.height()
	scroll := min(a.view.Scroll(k), max(h-body.H, 0))
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
	return pv
}

func (a *App) panelContent(k viz.PanelKind, wr *writer) {
	switch k {
	case viz.PanelScenario:
		a.scenarioPanel(wr)
	case viz.PanelQuestion:
		a.questionPanel(wr)
	case viz.PanelNode:
		a.nodePanel(wr)
	case viz.PanelSafety:
		a.safetyPanel(wr)
	case viz.PanelClient:
		a.clientPanel(wr)
	}
}

func (a *App) panelTitle(k viz.PanelKind) string {
	switch k {
	case viz.PanelScenario:
		if a.scen() != nil {
			return a.scen().Spec().Title
		}
		return "Free play"
	case viz.PanelQuestion:
		return "Ask every machine"
	case viz.PanelNode:
		if t, ok := a.timingTitle(); ok {
			return t
		}
		if a.cfg().Protocol == raftcore.ProtocolRaft && !a.plain() {
			return "Roles"
		}
		if a.view.Selected() >= 0 {
			return "Machine " + a.cfg().Name(nodeID(a.view.Selected()))
		}
		return "Machine"
	case viz.PanelSafety:
		return "Safety"
	case viz.PanelClient:
		return "Client requests"
	}
	return k.Title()
}

func (a *App) scenarioPanel(wr *writer) {
	if a.scen() != nil {
		a.scenarioPanelOf(a.scen(), wr)
		return
	}
	wr.text(a.describeSetup(), sizeBody, frame.ToneText, true)
	a.writeBroken(wr, sizeBody)
	hint := "Drag across links to cut them, drag a machine out of the circle to cut it off, click anything for more. Press ? for every key."
	if a.stage.Touch() {
		hint = "Swipe across links to cut them, drag a machine out of the circle to cut it off, tap anything for more."
	}
	wr.text(hint, sizeBody-1, frame.ToneText, false)
	wr.gap(4)
	if len(a.opts.Scenarios.List()) > 0 {
		wr.buttons(0, button("scenarios", "Scenarios from the book", "open scenarios"), button(idMenu, "Setup", "open setup"))
	} else {
		wr.buttons(0, button(idMenu, "Setup", "open setup"))
	}
}

// questionKey is the key the question panel asks about.
func (a *App) questionKey() string {
	if a.scen() != nil && a.scen().Spec().UI.Key != "" {
		return a.scen().Spec().UI.Key
	}
	return ClientKey
}

func (a *App) questionPanel(wr *writer) {
	key := a.questionKey()
	wr.text("Does "+key+" exist? Each machine answers from its own copy.", sizeBody, frame.ToneText, false)
	wr.gap(2)
	answers := a.World().Ask(key)
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
			wr.item("✗", frame.ToneWarn, "All "+words.Itoa(up)+" machines answer NO.", sizeBody, frame.ToneText)
		default:
			for v := range values {
				wr.item("✓", frame.ToneGood, "All "+words.Itoa(up)+" machines answer YES: "+v+".", sizeBody, frame.ToneText)
			}
		}
		return
	}
	for _, ans := range answers {
		switch {
		case !ans.Answered:
			wr.item("–", frame.ToneMuted, ans.Name+": "+ans.Text, sizeBody-1, frame.ToneMuted)
		case ans.Exists:
			wr.item("✓", frame.ToneGood, ans.Name+": "+ans.Text, sizeBody-1, frame.ToneText)
		default:
			wr.item("✗", frame.ToneWarn, ans.Name+": "+ans.Text, sizeBody-1, frame.ToneText)
		}
	}
	wr.gap(2)
	switch {
	case up == 0:
	case yes > 0 && yes < up:
		wr.text("They disagree. None of them is lying: each reports what it has seen.", sizeBody, frame.ToneWarn, true)
	case len(values) > 1:
		wr.text("They all say yes, but not with the same value.", sizeBody, frame.ToneWarn, true)
	default:
		wr.text("The machines that can answer agree.", sizeBody, frame.ToneGood, true)
	}
}

func (a *App) nodePanel(wr *writer) {
	// A timing panel takes the diagram's place: the figure is about
	// times, and the panel is short. A machine clicked still shows below.
	timing := a.timingSection(wr)
	if timing && (a.figure() || a.view.Selected() < 0) {
		return
	}
	if timing {
		wr.gap(6)
	}
	raft := a.cfg().Protocol == raftcore.ProtocolRaft && !a.plain()
	if raft && !timing {
		d, h := a.roleDiagram(wr.x, wr.y, wr.w)
		wr.diagram = d
		wr.y += h + 4
	}
	if a.view.Selected() < 0 || a.view.Selected() >= a.World().Size() {
		wr.text(a.voice().ForHand("Click", "Tap")+" a machine to see everything it believes.", sizeBody, frame.ToneMuted, false)
		return
	}
	wr.text("Machine "+a.cfg().Name(nodeID(a.view.Selected())), sizeBody, frame.ToneText, true)
	w := a.World()
	id := nodeID(a.view.Selected())
	nd := w.Node(id)
	st := w.Status(id)
	kv := func(k, v string, tone frame.Tone) { wr.pair(k, v, tone, 92) }
	kv("role", a.voice().RoleWord(nd.Role()), frame.ToneText)
	state := st.String()
	if s := w.Slow(id); s > 1 {
		state += ", " + words.Factor(s) + " slower"
	}
	if d := w.Drift(id); d != 1 {
		state += ", clock at " + words.Factor(d)
	}
	if b := w.Backlog(id); b > 0 {
		state += ", " + strconv.Itoa(b) + " messages queued"
	}
	stateTone := frame.ToneText
	if st != raftcore.StatusUp {
		stateTone = frame.ToneWarn
	}
	kv("running", state, stateTone)
	if raft {
		kv("term", words.Utoa(nd.Term()), frame.ToneText)
		vote := "nobody"
		if v := nd.Vote(); v != raftcore.None {
			vote = a.cfg().Name(v)
		}
		kv("voted for", vote, frame.ToneText)
	}
	lead := "nobody"
	if l := nd.Lead(); l != raftcore.None {
		lead = a.cfg().Name(l)
	}
	if a.plain() {
		kv("in charge", lead, frame.ToneText)
	} else {
		kv("leader", lead, frame.ToneText)
	}
	kv("log", "last index "+words.Utoa(nd.LastIndex())+", committed "+words.Utoa(nd.Commit())+", applied "+words.Utoa(nd.Applied()), frame.ToneText)
	if el, to := nd.ElectionTimer(); to > 0 && nd.Role() != raftcore.RoleLeader && a.cfg().Protocol != raftcore.ProtocolNaiveCopy {
		kv("timer", strconv.Itoa(el)+" of "+strconv.Itoa(to)+" ticks", frame.ToneText)
	}
	if v, ok := nd.KV().Get(a.questionKey()); ok {
		kv(a.questionKey(), v.Value+" (index "+words.Utoa(v.ModIndex)+")", frame.ToneText)
	}
	if n := nd.KV().Len(); n > 0 {
		kv("keys", strconv.Itoa(n)+" stored", frame.ToneText)
	}
	if nd.Role() == raftcore.RoleLeader && a.cfg().Protocol == raftcore.ProtocolRaft {
		wr.gap(4)
		if a.plain() {
			wr.text("What it knows of the others", sizeBody, frame.ToneText, true)
		} else {
			wr.text("What it knows of each follower", sizeBody, frame.ToneText, true)
		}
		for j := 1; j <= w.Size(); j++ {
			if raftcore.NodeID(j) == id {
				continue
			}
			pr, ok := nd.Progress(raftcore.NodeID(j))
			if !ok {
				continue
			}
			s := a.cfg().Name(raftcore.NodeID(j)) + ": match " + words.Utoa(pr.Match) + ", next " + words.Utoa(pr.Next) + ", " + pr.State.String()
			tone := frame.ToneText
			if !pr.RecentActive {
				s += ", not heard lately"
				tone = frame.ToneWarn
			}
			wr.item("•", frame.ToneAccent, s, sizeBody-1, tone)
		}
	}
	if last := nd.LastIndex(); last > 0 {
		wr.gap(4)
		wr.text("Newest entries", sizeBody, frame.ToneText, true)
		for i := last; i >= 1 && i+5 > last; i-- {
			e := nd.Entry(i)
			s := words.Utoa(i) + ": " + e.Data.String()
			if a.cfg().Protocol == raftcore.ProtocolRaft {
				s = words.Utoa(i) + a.voice().TermSuffix(e.Term) + ": " + e.Data.String()
			}
			mark, tone := "✓", frame.ToneGood
			if i > nd.Commit() {
				mark, tone = "…", frame.ToneWarn
			}
			wr.item(mark, tone, s, sizeBody-1, frame.ToneText)
		}
	}
}

func (a *App) safetyPanel(wr *writer) {
	w := a.World()
	if c := w.Contract(); len(c) > 0 {
		// Where a figure has room for the five clauses only if those that
		// hold go by name, the reason is given only where a clause breaks,
		// and the clauses need no heading over them.
		compact := a.figure() && wr.compact
		if !compact {
			wr.text("The shared-history contract", sizeBody, frame.ToneText, true)
		}
		for _, cl := range c {
			mark, tone := clauseMark(cl)
			text := cl.Title + ": " + a.voice().ClauseText(cl)
			if compact && cl.State == raftcore.ClauseHolding {
				text = cl.Title
			}
			wr.item(mark, tone, text, sizeBody-1, frame.ToneText)
		}
		wr.gap(6)
		if compact {
			return
		}
	}
	total := w.ViolationCount("")
	if total == 0 {
		wr.text("All "+words.Itoa(len(ruleWords))+" safety rules hold, checked after every event.", sizeBody, frame.ToneGood, true)
	} else {
		wr.text(words.Itoa(total)+" broken rule(s) found:", sizeBody, frame.ToneBad, true)
	}
	for _, r := range ruleWords {
		n := w.ViolationCount(r.Rule)
		if n == 0 {
			if a.view.ShowRules() {
				wr.item("✓", frame.ToneGood, a.voice().RuleText(r.Words, r.Plain), sizeBody-1, frame.ToneMuted)
			}
			continue
		}
		text := a.voice().RuleText(r.Words, r.Plain)
		if v, ok := firstViolation(w, r.Rule); ok {
			text += ": " + v.Text
		}
		wr.item("✗", frame.ToneBad, text, sizeBody-1, frame.ToneText)
	}
	a.lostUpdates(wr, 3)
	label := "Show every rule"
	if a.view.ShowRules() {
		label = "Show broken rules only"
	}
	wr.gap(2)
	rules := "rules all"
	if a.view.ShowRules() {
		rules = "rules broken"
	}
	wr.buttons(0, button("rules", label, rules))
}

func (a *App) clientPanel(wr *writer) {
	w := a.World()
	ops := w.Ops()
	if len(ops) == 0 {
		// A figure's toolbar has no keys to learn: its requests come from
		// playing it, or from a machine's menu.
		hint := a.voice().ForHand("No requests yet. Press c, or click a machine and choose Write here.",
			"No requests yet. Tap a machine and choose Write here.")
		if a.figure() {
			hint = a.voice().ForHand("No requests yet. Play the figure, or click a machine and choose Write here.",
				"No requests yet. Play the figure, or tap a machine and choose Write here.")
		}
		wr.text(hint, sizeBody, frame.ToneMuted, false)
		return
	}
	ok, failed, pending, swaps := 0, 0, 0, 0
	for _, op := range ops {
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
	verdicts := a.session.Reads(ops)
	tally := strconv.Itoa(ok) + " done, " + strconv.Itoa(pending) + " waiting, " + strconv.Itoa(failed) + " failed"
	if swaps > 0 {
		tally += ", " + words.Count(swaps, "swap", "swaps") + " refused"
	}
	if n := len(verdicts.Stale()); n > 0 {
		tally += ", " + words.Count(n, "stale read", "stale reads")
	}
	wr.text(tally, sizeBody, frame.ToneText, true)
	a.lostUpdates(wr, 1)
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
			lat = "sent at t = " + words.Clock(op.InvokeUs)
			if op.Kind != raftcore.DoRead {
				// How far the write has got: a majority of copies is
				// what it waits for.
				lat += ", held by " + strconv.Itoa(held[op.ID]) + " of " + strconv.Itoa(w.Size())
			}
		}
		s := "#" + strconv.Itoa(op.ID) + " " + a.voice().OpLine(op) + " (" + lat + ")"
		if v, ok := verdicts.Verdict(op.ID); ok && v.Verdict != linearize.Unanswered {
			s += ", " + words.Verdict(v)
			if v.Verdict == linearize.Stale {
				mark, tone = "!", frame.ToneWarn
			}
		}
		wr.item(mark, tone, s, sizeBody-1, frame.ToneText)
		shown++
	}
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
		for i := last; i >= 1 && i+holdersReach > last; i-- {
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
func (a *App) lostUpdates(wr *writer, max int) {
	w := a.World()
	n := w.LostUpdates()
	if n == 0 {
		return
	}
	wr.gap(4)
	wr.text(words.Capital(words.Count(n, "lost update", "lost updates"))+", which no rule of Raft forbids: a write replaced a change it never read.", sizeBody, frame.ToneWarn, true)
	for i, f := range w.Findings() {
		if i == max {
			break
		}
		who := ""
		if f.Controller != 0 {
			who = ", controller " + strconv.Itoa(f.Controller) + "'s write,"
		}
		lost := "rev " + words.Utoa(f.OverwroteRev)
		if f.LostValue != "" {
			lost += " (" + f.LostValue + ")"
		}
		wr.item("!", frame.ToneWarn, "#"+strconv.Itoa(f.Op)+who+" was computed from rev "+words.Utoa(f.ReadRev)+" but replaced "+lost, sizeBody-1, frame.ToneText)
	}
	wr.gap(4)
}
