package scene

import (
	"slices"

	"raftlab/raftcore"
	"raftlab/viz/frame"
	"raftlab/viz/words"
)

// The cluster's configuration on screen. Every machine holds its own
// configuration; the stage shows the leader's (the running machine that
// leads in the highest term), or, with no leader, the newest any machine
// has put in force. Each machine's part in it (voter, learner, spare, or
// while joint, in the old voters, the new or both) is said by a tag over
// its disc and its caption; the spares wait in a tray apart from the
// ring; the machine panel lists the voters and where each majority
// stands.

// ShownMembership is the configuration the stage shows for world w, and
// the leader whose progress says who holds the newest entry (None when
// no machine leads). ok is false where the protocol has no
// configuration: every machine is then a voter.
func ShownMembership(w *raftcore.World) (m raftcore.Membership, leader raftcore.NodeID, ok bool) {
	if w.Config().Protocol != raftcore.ProtocolRaft {
		return raftcore.Membership{}, raftcore.None, false
	}
	var term uint64
	newest := raftcore.None
	for id := raftcore.NodeID(1); int(id) <= w.Size(); id++ {
		nd := w.Node(id)
		if w.Status(id) == raftcore.StatusUp && nd.Role() == raftcore.RoleLeader && (leader == raftcore.None || nd.Term() > term) {
			leader, term = id, nd.Term()
		}
		if newest == raftcore.None || nd.ConfIndex() > w.Node(newest).ConfIndex() {
			newest = id
		}
	}
	if leader != raftcore.None {
		return w.Node(leader).Membership(), leader, true
	}
	return w.Node(newest).Membership(), raftcore.None, true
}

// PartOf is machine id's part in configuration m.
func PartOf(m raftcore.Membership, id raftcore.NodeID) words.Member {
	in, out := slices.Contains(m.Voters, id), slices.Contains(m.Outgoing, id)
	switch {
	case m.Joint() && in && out:
		return words.MemberBoth
	case m.Joint() && in:
		return words.MemberNew
	case m.Joint() && out:
		return words.MemberOld
	case in:
		return words.MemberVoter
	case slices.Contains(m.Learners, id):
		return words.MemberLearner
	}
	return words.MemberSpare
}

// memberParts is each machine's part in the configuration shown, by
// layout index; nil where every machine is a voter and the configuration
// never changed, which the screen then leaves unsaid.
func (b *Builder) memberParts() []words.Member {
	w := b.World()
	m, _, ok := ShownMembership(w)
	if !ok || (m.Index == 0 && len(m.Voters) == w.Size()) {
		return nil
	}
	parts := make([]words.Member, w.Size())
	for i := range parts {
		parts[i] = PartOf(m, nodeID(i))
	}
	return parts
}

// spares marks the spare machines for the layout's tray, or nil when
// there are none.
func (b *Builder) spares() []bool {
	parts := b.memberParts()
	if !slices.Contains(parts, words.MemberSpare) {
		return nil
	}
	out := make([]bool, len(parts))
	for i, p := range parts {
		out[i] = p == words.MemberSpare
	}
	return out
}

// memberLook changes machine i's disc for its part in the cluster: a
// spare is drawn quiet and says it is not in the cluster, a learner says
// so in place of its role; every part but a plain voter gets a tag.
func (b *Builder) memberLook(v *frame.NodeView, i int, parts []words.Member) {
	if i >= len(parts) {
		return
	}
	p := parts[i]
	v.Member = words.MemberTag(p)
	if p == words.MemberSpare || p == words.MemberLearner {
		// It never stands for election: its timer is no threat.
		v.Timer = -1
	}
	switch p {
	case words.MemberSpare:
		if !v.Crashed && !v.Paused {
			v.Tone = frame.ToneMuted
		}
		v.Lines[0].Text = b.fitRole(words.SpareRole, b.lay().Nodes[i].Caption.W, v.Lines[0].Size)
		v.Lines[1].Text = ""
		if b.Measure(words.NotInCluster, v.Lines[1].Size) <= b.lay().Nodes[i].Caption.W {
			v.Lines[1].Text = words.NotInCluster
		}
	case words.MemberLearner:
		if !v.Crashed && !v.Paused {
			v.Lines[0].Text = b.fitRole(words.LearnerRole, b.lay().Nodes[i].Caption.W, v.Lines[0].Size)
		}
	}
}

// majorities are the sets of voters of configuration m (the old and the
// new while joint, old first) and how many of each hold the newest
// entry: as leader's progress has it, or with no leader, as each
// machine's own log has it against the longest.
func majorities(w *raftcore.World, m raftcore.Membership, leader raftcore.NodeID) (sets []words.Majority, newest uint64) {
	held := func(id raftcore.NodeID) uint64 { return w.Node(id).LastIndex() }
	if leader != raftcore.None {
		ld := w.Node(leader)
		newest = ld.LastIndex()
		held = func(id raftcore.NodeID) uint64 {
			if id == leader {
				return ld.LastIndex()
			}
			if pr, ok := ld.Progress(id); ok {
				return pr.Match
			}
			return 0
		}
	} else {
		for _, id := range append(slices.Clone(m.Voters), m.Outgoing...) {
			newest = max(newest, w.Node(id).LastIndex())
		}
	}
	count := func(ids []raftcore.NodeID) words.Majority {
		mj := words.Majority{Voters: ids, Need: len(ids)/2 + 1}
		for _, id := range ids {
			if held(id) >= newest {
				mj.Have++
			}
		}
		return mj
	}
	if m.Joint() {
		sets = append(sets, count(m.Outgoing))
	}
	return append(sets, count(m.Voters)), newest
}

// configSection writes the configuration on screen into the machine
// panel: its voters and, while joint, both sets with where each majority
// stands; its learners and spares; the entry that made it. It writes
// nothing where the configuration never changed and every machine votes.
func (b *Builder) configSection(wr *writer) {
	if b.memberParts() == nil || b.Plain() {
		return
	}
	w := b.World()
	m, leader, _ := ShownMembership(w)
	wr.text(words.ConfigTitle(m.Joint()), SizeBody, frame.ToneText, true)
	sets, newest := majorities(w, m, leader)
	for k, mj := range sets {
		which := ""
		if m.Joint() {
			which = [2]string{"old", "new"}[k]
		}
		mark, tone := "✓", frame.ToneGood
		if !mj.Holds() {
			mark, tone = "…", frame.ToneWarn
		}
		wr.item(mark, tone, words.MajorityLine(*b.cfg(), which, mj, newest), SizeBody-1, frame.ToneText)
	}
	var learners, spares []raftcore.NodeID
	for i, p := range b.memberParts() {
		switch p {
		case words.MemberLearner:
			learners = append(learners, nodeID(i))
		case words.MemberSpare:
			spares = append(spares, nodeID(i))
		}
	}
	for _, s := range []string{words.ConfigLearners(*b.cfg(), learners), words.ConfigSpares(*b.cfg(), spares), words.ConfigSince(m.Index)} {
		if s != "" {
			wr.text(s, SizeSmall, frame.ToneMuted, false)
		}
	}
	wr.gap(6)
}

// buildTray adds the tray of spare machines to the frame's zones: a
// strip with its title, lit while a dragged machine would be added or
// removed by dropping it now.
func (b *Builder) buildTray() {
	t := b.lay().Tray
	if t.Empty() {
		return
	}
	zv := frame.ZoneView{Rect: t, Tone: frame.ToneMuted}
	if g := b.dragGesture(); g != nil && b.lay().TrayDrop(g.Node, g.Pos) != 0 {
		zv.Hot = true
	}
	hint := words.TrayAddHint
	if g := b.dragGesture(); g != nil && g.Node < len(b.lay().Nodes) && !b.lay().Nodes[g.Node].Spare {
		hint = words.TrayEmptyHint
	}
	title := words.TrayTitle + ": " + hint
	if b.Measure(title, SizeSmall) > t.W-8 {
		title = words.TrayTitle
	}
	zv.Label = frame.TextItem{Text: title, X: t.X + 4, Y: t.Y + 3, Size: SizeSmall, Tone: frame.ToneMuted, Bold: true}
	b.frame.Zones = append(b.frame.Zones, zv)
}

// votersNeeded is how many votes machine nd needs to win: a majority of
// the voters of its own configuration (of the new voters while joint).
func votersNeeded(nd *raftcore.Node) int {
	return len(nd.Membership().Voters)/2 + 1
}

// memberMenu writes a machine's rows for changing the cluster: a spare
// is added as a learner or a voter, a learner promoted, a member
// removed, and the leader hands leadership to another voter.
func (b *Builder) memberMenu(wr *writer, i int, labelW float64) {
	if b.cfg().Protocol != raftcore.ProtocolRaft || b.Plain() {
		return
	}
	w := b.World()
	m, leader, _ := ShownMembership(w)
	id := nodeID(i)
	name := b.cfg().Name(id)
	ask := func(v raftcore.Verb, label string) frame.Widget {
		return button("node."+string(v), label, string(v)+" "+name)
	}
	switch PartOf(m, id) {
	case words.MemberSpare:
		wr.row(words.RowCluster, labelW, ask(raftcore.DoAddLearner, words.AddAsLearner), ask(raftcore.DoAdd, words.AddAsVoter))
	case words.MemberLearner:
		wr.row(words.RowCluster, labelW, ask(raftcore.DoPromote, words.PromoteToVoter), ask(raftcore.DoRemove, words.RemoveFromIt))
	default:
		wr.row(words.RowCluster, labelW, ask(raftcore.DoRemove, words.RemoveFromIt))
	}
	if id != leader {
		return
	}
	var to []frame.Widget
	for _, v := range append(slices.Clone(m.Voters), m.Outgoing...) {
		if v != id && !slices.ContainsFunc(to, func(x frame.Widget) bool { return x.Label == b.cfg().Name(v) }) {
			to = append(to, button("node.transfer-leader:"+b.cfg().Name(v), b.cfg().Name(v), string(raftcore.DoTransferLeader)+" "+b.cfg().Name(v)))
		}
	}
	if len(to) > 0 {
		wr.row(words.RowLeadership, labelW, to...)
	}
}

// sparesRow is the setup menu's choice of how many machines start
// outside the cluster, under Raft.
func (b *Builder) sparesRow(wr *writer, labelW float64) {
	if b.cfg().Protocol != raftcore.ProtocolRaft {
		return
	}
	n := b.cfg().Nodes
	spares := 0
	if b.cfg().Members > 0 {
		spares = n - b.cfg().Members
	}
	var ws []frame.Widget
	for k := 0; k <= 3 && k < n; k++ {
		members := n - k
		if k == 0 {
			members = 0
		}
		ws = append(ws, chip("members:"+words.Itoa(members), words.SpareCount(k), spares == k, "members "+words.Itoa(members)))
	}
	wr.row(words.RowSpares, labelW, ws...)
}
