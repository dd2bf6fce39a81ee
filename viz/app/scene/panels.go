package scene

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
	want := make([]float64, n)
	for i, wr := range contents {
		want[i] = panelHeader + wr.height() + panelPad
	}
	minH := panelHeader + 2*LineHeight(SizeBody) + panelPad
	got := make([]float64, n)
	left, open := avail, n
	fixed := make([]bool, n)
	// The scenario's own words come first: what to try, the step, what
	// just happened and its buttons.
	for i, k := range kinds {
		if k == viz.PanelScenario && b.scen() != nil {
			got[i], fixed[i] = min(max(want[i], minH), avail*0.5), true
			left -= got[i]
			open--
		}
	}
	// Panels a scenario does not ask for keep to their title, unless the
	// reader opened one.
	if b.scen() != nil {
		wanted := panelKinds(b.scen())
		if b.View.Opened() >= 0 && !slices.Contains(wanted, b.View.Opened()) {
			wanted = append([]viz.PanelKind{b.View.Opened()}, wanted...)
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
func (b *Builder) tabLabel(k viz.PanelKind) string {
	if k == viz.PanelSafety && b.World().ViolationCount("") > 0 {
		return "Safety ✗"
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
		pv.Widgets = []frame.Widget{{ID: "open:" + k.Title(), Kind: frame.WidgetFold, Rect: r, Label: "Show", Enabled: true, Do: "unfold " + k.Title()}}
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
	return pv
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
		return "Free play"
	case viz.PanelQuestion:
		return "Ask every machine"
	case viz.PanelNode:
		if t, ok := b.timingTitle(); ok {
			return t
		}
		if b.cfg().Protocol == raftcore.ProtocolRaft && !b.Plain() {
			return "Roles"
		}
		if b.View.Selected() >= 0 {
			return "Machine " + b.cfg().Name(nodeID(b.View.Selected()))
		}
		return "Machine"
	case viz.PanelSafety:
		return "Safety"
	case viz.PanelClient:
		return "Client requests"
	}
	return k.Title()
}

func (b *Builder) scenarioPanel(wr *writer) {
	if b.scen() != nil {
		b.scenarioPanelOf(b.scen(), wr)
		return
	}
	wr.text(words.Setup(b.cfg()), SizeBody, frame.ToneText, true)
	b.writeBroken(wr, SizeBody)
	hint := "Drag across links to cut them, drag a machine out of the circle to cut it off, click anything for more. Press ? for every key."
	if b.Stage.Touch() {
		hint = "Swipe across links to cut them, drag a machine out of the circle to cut it off, tap anything for more."
	}
	wr.text(hint, SizeBody-1, frame.ToneText, false)
	wr.gap(4)
	if len(b.Catalog.List()) > 0 {
		wr.buttons(0, button("scenarios", "Scenarios from the book", "open scenarios"), button(IDMenu, "Setup", "open setup"))
	} else {
		wr.buttons(0, button(IDMenu, "Setup", "open setup"))
	}
}

// questionKey is the key the question panel asks about.
func (b *Builder) questionKey() string { return b.Session.QuestionKey() }

func (b *Builder) questionPanel(wr *writer) {
	key := b.questionKey()
	wr.text("Does "+key+" exist? Each machine answers from its own copy.", SizeBody, frame.ToneText, false)
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
			wr.item("✗", frame.ToneWarn, "All "+words.Itoa(up)+" machines answer NO.", SizeBody, frame.ToneText)
		default:
			for v := range values {
				wr.item("✓", frame.ToneGood, "All "+words.Itoa(up)+" machines answer YES: "+v+".", SizeBody, frame.ToneText)
			}
		}
		return
	}
	for _, ans := range answers {
		switch {
		case !ans.Answered:
			wr.item("–", frame.ToneMuted, ans.Name+": "+ans.Text, SizeBody-1, frame.ToneMuted)
		case ans.Exists:
			wr.item("✓", frame.ToneGood, ans.Name+": "+ans.Text, SizeBody-1, frame.ToneText)
		default:
			wr.item("✗", frame.ToneWarn, ans.Name+": "+ans.Text, SizeBody-1, frame.ToneText)
		}
	}
	wr.gap(2)
	switch {
	case up == 0:
	case yes > 0 && yes < up:
		wr.text("They disagree. None of them is lying: each reports what it has seen.", SizeBody, frame.ToneWarn, true)
	case len(values) > 1:
		wr.text("They all say yes, but not with the same value.", SizeBody, frame.ToneWarn, true)
	default:
		wr.text("The machines that can answer agree.", SizeBody, frame.ToneGood, true)
	}
}

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
	if raft && !timing {
		d, h := b.roleDiagram(wr.x, wr.y, wr.w)
		wr.diagram = d
		wr.y += h + 4
	}
	if b.View.Selected() < 0 || b.View.Selected() >= b.World().Size() {
		wr.text(b.Voice().ForHand("Click", "Tap")+" a machine to see everything it believes.", SizeBody, frame.ToneMuted, false)
		return
	}
	wr.text("Machine "+b.cfg().Name(nodeID(b.View.Selected())), SizeBody, frame.ToneText, true)
	w := b.World()
	id := nodeID(b.View.Selected())
	nd := w.Node(id)
	st := w.Status(id)
	kv := func(k, v string, tone frame.Tone) { wr.pair(k, v, tone, 92) }
	kv("role", b.Voice().RoleWord(nd.Role()), frame.ToneText)
	state := st.String()
	if s := w.Slow(id); s > 1 {
		state += ", " + words.Factor(s) + " slower"
	}
	if d := w.Drift(id); d != 1 {
		state += ", clock at " + words.Factor(d)
	}
	if q := w.Backlog(id); q > 0 {
		state += ", " + strconv.Itoa(q) + " messages queued"
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
			vote = b.cfg().Name(v)
		}
		kv("voted for", vote, frame.ToneText)
	}
	lead := "nobody"
	if l := nd.Lead(); l != raftcore.None {
		lead = b.cfg().Name(l)
	}
	if b.Plain() {
		kv("in charge", lead, frame.ToneText)
	} else {
		kv("leader", lead, frame.ToneText)
	}
	kv("log", "last index "+words.Utoa(nd.LastIndex())+", committed "+words.Utoa(nd.Commit())+", applied "+words.Utoa(nd.Applied()), frame.ToneText)
	if el, to := nd.ElectionTimer(); to > 0 && nd.Role() != raftcore.RoleLeader && b.cfg().Protocol != raftcore.ProtocolNaiveCopy {
		kv("timer", strconv.Itoa(el)+" of "+strconv.Itoa(to)+" ticks", frame.ToneText)
	}
	if v, ok := nd.KV().Get(b.questionKey()); ok {
		kv(b.questionKey(), v.Value+" (index "+words.Utoa(v.ModIndex)+")", frame.ToneText)
	}
	if n := nd.KV().Len(); n > 0 {
		kv("keys", strconv.Itoa(n)+" stored", frame.ToneText)
	}
	if nd.Role() == raftcore.RoleLeader && b.cfg().Protocol == raftcore.ProtocolRaft {
		wr.gap(4)
		if b.Plain() {
			wr.text("What it knows of the others", SizeBody, frame.ToneText, true)
		} else {
			wr.text("What it knows of each follower", SizeBody, frame.ToneText, true)
		}
		for j := 1; j <= w.Size(); j++ {
			if raftcore.NodeID(j) == id {
				continue
			}
			pr, ok := nd.Progress(raftcore.NodeID(j))
			if !ok {
				continue
			}
			s := b.cfg().Name(raftcore.NodeID(j)) + ": match " + words.Utoa(pr.Match) + ", next " + words.Utoa(pr.Next) + ", " + pr.State.String()
			tone := frame.ToneText
			if !pr.RecentActive {
				s += ", not heard lately"
				tone = frame.ToneWarn
			}
			wr.item("•", frame.ToneAccent, s, SizeBody-1, tone)
		}
	}
	if last := nd.LastIndex(); last > 0 {
		wr.gap(4)
		wr.text("Newest entries", SizeBody, frame.ToneText, true)
		for i := last; i >= 1 && i+5 > last; i-- {
			e := nd.Entry(i)
			s := words.Utoa(i) + ": " + e.Data.String()
			if b.cfg().Protocol == raftcore.ProtocolRaft {
				s = words.Utoa(i) + b.Voice().TermSuffix(e.Term) + ": " + e.Data.String()
			}
			mark, tone := "✓", frame.ToneGood
			if i > nd.Commit() {
				mark, tone = "…", frame.ToneWarn
			}
			wr.item(mark, tone, s, SizeBody-1, frame.ToneText)
		}
	}
}

func (b *Builder) safetyPanel(wr *writer) {
	w := b.World()
	if c := w.Contract(); len(c) > 0 {
		// Where a figure has room for the five clauses only if those that
		// hold go by name, the reason is given only where a clause breaks,
		// and the clauses need no heading over them.
		compact := b.Figure() && wr.compact
		if !compact {
			wr.text("The shared-history contract", SizeBody, frame.ToneText, true)
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
	total := w.ViolationCount("")
	if total == 0 {
		wr.text("All "+words.Itoa(len(ruleWords))+" safety rules hold, checked after every event.", SizeBody, frame.ToneGood, true)
	} else {
		wr.text(words.Itoa(total)+" broken rule(s) found:", SizeBody, frame.ToneBad, true)
	}
	for _, r := range ruleWords {
		n := w.ViolationCount(r.Rule)
		if n == 0 {
			if b.View.ShowRules() {
				wr.item("✓", frame.ToneGood, b.Voice().RuleText(r.Words, r.Plain), SizeBody-1, frame.ToneMuted)
			}
			continue
		}
		text := b.Voice().RuleText(r.Words, r.Plain)
		if v, ok := firstViolation(w, r.Rule); ok {
			text += ": " + v.Text
		}
		wr.item("✗", frame.ToneBad, text, SizeBody-1, frame.ToneText)
	}
	b.lostUpdates(wr, 3)
	label := "Show every rule"
	if b.View.ShowRules() {
		label = "Show broken rules only"
	}
	wr.gap(2)
	rules := "rules all"
	if b.View.ShowRules() {
		rules = "rules broken"
	}
	wr.buttons(0, button("rules", label, rules))
}

func (b *Builder) clientPanel(wr *writer) {
	w := b.World()
	ops := w.Ops()
	if len(ops) == 0 {
		// A figure's toolbar has no keys to learn: its requests come from
		// playing it, or from a machine's menu.
		hint := b.Voice().ForHand("No requests yet. Press c, or click a machine and choose Write here.",
			"No requests yet. Tap a machine and choose Write here.")
		if b.Figure() {
			hint = b.Voice().ForHand("No requests yet. Play the figure, or click a machine and choose Write here.",
				"No requests yet. Play the figure, or tap a machine and choose Write here.")
		}
		wr.text(hint, SizeBody, frame.ToneMuted, false)
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
	verdicts := b.Session.Reads(ops)
	tally := strconv.Itoa(ok) + " done, " + strconv.Itoa(pending) + " waiting, " + strconv.Itoa(failed) + " failed"
	if swaps > 0 {
		tally += ", " + words.Count(swaps, "swap", "swaps") + " refused"
	}
	if n := len(verdicts.Stale()); n > 0 {
		tally += ", " + words.Count(n, "stale read", "stale reads")
	}
	wr.text(tally, SizeBody, frame.ToneText, true)
	b.lostUpdates(wr, 1)
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
		s := "#" + strconv.Itoa(op.ID) + " " + b.Voice().OpLine(op) + " (" + lat + ")"
		if v, ok := verdicts.Verdict(op.ID); ok && v.Verdict != linearize.Unanswered {
			s += ", " + words.Verdict(v)
			if v.Verdict == linearize.Stale {
				mark, tone = "!", frame.ToneWarn
			}
		}
		wr.item(mark, tone, s, SizeBody-1, frame.ToneText)
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
func (b *Builder) lostUpdates(wr *writer, max int) {
	w := b.World()
	n := w.LostUpdates()
	if n == 0 {
		return
	}
	wr.gap(4)
	wr.text(words.Capital(words.Count(n, "lost update", "lost updates"))+", which no rule of Raft forbids: a write replaced a change it never read.", SizeBody, frame.ToneWarn, true)
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
		wr.item("!", frame.ToneWarn, "#"+strconv.Itoa(f.Op)+who+" was computed from rev "+words.Utoa(f.ReadRev)+" but replaced "+lost, SizeBody-1, frame.ToneText)
	}
	wr.gap(4)
}

// PanelContent is what panel k of the parts says, laid out at the origin
// in width w, whether the panel is shown or not and however far it is
// scrolled: for a reader of every word the app can show.
func (b *Builder) PanelContent(p Parts, k viz.PanelKind, w float64) frame.PanelView {
	b.Parts = p
	wr := b.newWriter(0, 0, w)
	b.panelContent(k, wr)
	return frame.PanelView{Kind: k, Lines: wr.lines, Widgets: wr.widgets, Diagram: wr.diagram}
}
