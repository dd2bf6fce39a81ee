package scene

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"raftlab/raftcore"
	"raftlab/viz"
	"raftlab/viz/app/stage"
	"raftlab/viz/app/view"
	"raftlab/viz/frame"
	"raftlab/viz/words"
)

// Text sizes in logical pixels.
const (
	SizeSmall = 11.0
	SizeBody  = 13.0
	SizeTitle = 14.0
)

// fallRealUs is how long, in real time, a dropped message takes to fall
// away; the fall runs in virtual time so that it freezes with the world.
const fallRealUs = 700_000

// pulseUs is how long a heartbeat ring spreads from its leader, in virtual
// time.
const pulseUs = 90_000

// Build describes the frame the parts show, as of the app's version: the
// frame is the builder's own, reused from one build to the next (the
// caller must not keep it across builds). The parts are only read.
func (b *Builder) Build(p Parts, version uint64) *frame.Frame {
	b.Parts = p
	f := &b.frame
	f.W, f.H, f.Theme, f.Embed, f.Version = b.Stage.W(), b.Stage.H(), b.View.Theme(), b.Params.Embed, version
	f.Zoom = b.Zoom
	b.recent()
	b.scratch.deploy = b.World().DeploymentControllers()
	b.buildZones()
	b.buildTray()
	b.buildNodes()
	b.buildWorkers()
	// Messages before links: a link under the pointer is hot unless a
	// message on it is, and this frame's messages say where they are.
	b.buildMessages()
	b.watchDots()
	b.buildLinks()
	b.buildLogs()
	b.buildToolbar()
	b.buildTimeline()
	b.buildReplay()
	b.buildPanels()
	b.buildOverlays()
	return f
}

// recent scans the newest trace events, back only as far as the longest
// animation reaches.
func (b *Builder) recent() {
	w := b.World()
	n := w.Size()
	r := &b.scratch.recent
	r.beat = r.beat[:0]
	for i := 0; i < n; i++ {
		r.beat = append(r.beat, -1)
	}
	r.drops = r.drops[:0]
	now := w.Now()
	fall := b.fallUs()
	horizon := now - max(fall, pulseUs)
	tr := w.Trace()
	for k := len(tr) - 1; k >= 0; k-- {
		e := &tr[k]
		if e.AtUs < horizon {
			break
		}
		switch e.Kind {
		case raftcore.TraceSend:
			if i := int(e.Node) - 1; i >= 0 && i < n && r.beat[i] < 0 && now-e.AtUs <= pulseUs && e.MsgType == raftcore.MsgHeartbeat {
				r.beat[i] = e.AtUs
			}
		case raftcore.TraceDrop:
			if now-e.AtUs <= fall {
				r.drops = append(r.drops, *e)
			}
		case raftcore.TraceDeliver:
			// A request its receiver ignored falls where it arrived.
			if e.Cause == raftcore.CauseLeaderAlive && now-e.AtUs <= fall {
				r.drops = append(r.drops, *e)
			}
		}
	}
}

// fallUs is how long a fall lasts in virtual time at the current speed.
func (b *Builder) fallUs() int64 {
	return max(int64(fallRealUs*b.Clock.Speed()), 5_000)
}

func (b *Builder) buildZones() {
	f := &b.frame
	f.Zones = f.Zones[:0]
	if len(b.lay().Zones) == 0 {
		return
	}
	w := b.World()
	n := w.Size()
	hot := -1
	if g := b.dragGesture(); g != nil && g.Zone >= 0 {
		hot = g.Zone
	}
	for _, z := range b.lay().Zones {
		var members []int
		for i, zi := range b.Stage.Zones() {
			if zi == z.Index {
				members = append(members, i)
			}
		}
		zv := frame.ZoneView{Rect: z.Rect, Tone: frame.ToneMuted, Empty: len(members) == 0, Hot: z.Index == hot}
		lx, ly := z.Label.X+4, z.Label.Y+max((z.Label.H-SizeSmall)/2-1, 0)
		switch {
		case b.Stage.Mode() == stage.ZonesWorld:
			zv.Label, zv.Tone = b.worldZoneLabel(z, members, lx, ly)
		case zv.Empty:
			text := words.DropToSplit
			if b.Measure(text, SizeSmall) > z.Label.W-8 {
				text = words.DropHere
			}
			zv.Label = frame.TextItem{Text: text, X: lx, Y: ly, Size: SizeSmall, Tone: frame.ToneMuted}
		default:
			// The side's colour says what its label does: whether it
			// holds a majority, where the screen may say so.
			if b.Voice().SaysMajority() {
				zv.Tone = frame.ToneWarn
				if 2*len(members) > n {
					zv.Tone = frame.ToneGood
				}
			}
			// The longest wording that fits the zone's label.
			text := ""
			for _, t := range b.Voice().SideLabels(z.Index+1, len(members), n) {
				text = t
				if b.Measure(t, SizeSmall) <= z.Label.W-8 {
					break
				}
			}
			zv.Label = frame.TextItem{Text: text, X: lx, Y: ly, Size: SizeSmall, Tone: zv.Tone, Bold: true}
		}
		f.Zones = append(f.Zones, zv)
	}
}

// dragGesture is the node drag under way, if any.
func (b *Builder) dragGesture() *viz.Gesture {
	node, pos, ok := b.Rec.Dragged()
	if !ok {
		return nil
	}
	g := viz.Gesture{Kind: viz.GestureNodeDrag, Node: node, Pos: pos, Zone: -1}
	if len(b.lay().Zones) > 0 {
		if z := b.lay().ZoneAt(pos); z >= 0 && z != b.lay().Nodes[node].Zone {
			g.Zone = z
		}
	} else if len(b.lay().Nodes) > 1 && pos.Dist(b.lay().Ring.C)-b.lay().Ring.R > math.Max(1.5*b.lay().NodeRadius, 24) {
		g.WouldIsolate = true
	}
	return &g
}

// roleLook is the tone and shape of a role.
func roleLook(p raftcore.Protocol, r raftcore.Role) (frame.Tone, frame.Shape, bool) {
	switch r {
	case raftcore.RolePreCandidate:
		return frame.TonePreCandidate, frame.ShapeDiamond, true
	case raftcore.RoleCandidate:
		return frame.ToneCandidate, frame.ShapeDiamond, false
	case raftcore.RoleLeader:
		return frame.ToneLeader, frame.ShapeSquare, false
	case raftcore.RoleReplica:
		return frame.ToneReplica, frame.ShapeCircle, false
	}
	return frame.ToneFollower, frame.ShapeCircle, false
}

// lookRole is the role machine id is drawn in: its own while it runs or
// is paused (a paused machine still believes it), a follower's plain look
// while it is crashed. A crash keeps only what a machine persisted (its
// term, vote, log and commit index, as etcd keeps them); its role, the
// leader it knew and the votes it had received are gone, and it restarts
// as a follower.
func (b *Builder) lookRole(id raftcore.NodeID) raftcore.Role {
	if b.World().Status(id) == raftcore.StatusCrashed {
		return raftcore.RoleFollower
	}
	return b.World().Node(id).Role()
}

// buildNodes draws every machine, and the ghost of one being dragged.
func (b *Builder) buildNodes() {
	f := &b.frame
	n := b.World().Size()
	f.Nodes = f.Nodes[:0]
	ghost := b.dragGesture()
	f.Ghost = nil
	if ghost != nil {
		f.Ghost = &frame.GhostView{Node: ghost.Node, Pos: ghost.Pos, R: b.lay().NodeRadius, WouldIsolate: ghost.WouldIsolate, Zone: ghost.Zone}
	}
	parts := b.memberParts()
	for i := 0; i < n && i < len(b.lay().Nodes); i++ {
		v := b.nodeView(i, ghost)
		b.memberLook(&v, i, parts)
		if i < len(parts) && parts[i] != words.MemberVoter && parts[i] != words.MemberSpare {
			v.Badges = b.appendBadge(v.Badges, i, words.MemberTag(parts[i]), frame.ToneAccent)
		}
		f.Nodes = append(f.Nodes, v)
	}
}

// nodeView is machine i as its disc shows it: its shape and tone, its
// name, the words under it, its timer ring, pulse, badges and the votes
// it holds; hidden while ghost drags it.
func (b *Builder) nodeView(i int, ghost *viz.Gesture) frame.NodeView {
	w := b.World()
	R := b.lay().NodeRadius
	id := nodeID(i)
	nd := w.Node(id)
	st := w.Status(id)
	c := b.lay().Nodes[i].Center
	tone, shape, dashed := roleLook(b.cfg().Protocol, b.lookRole(id))
	v := frame.NodeView{Index: i, Center: c, R: R, Shape: shape, Dashed: dashed, Tone: tone,
		Crashed: st == raftcore.StatusCrashed, Paused: st == raftcore.StatusPaused, Slow: w.Slow(id), Drift: w.Drift(id), Selected: i == b.View.Selected(),
		Hidden: ghost != nil && ghost.Node == i}
	name := b.discName(b.cfg().Name(id), b.lay().LabelSize, 2*R-6)
	v.Name = frame.TextItem{Text: name, X: c.X, Y: c.Y, Size: b.fitSize(name, b.lay().LabelSize, 2*R-6), Tone: frame.ToneText, Bold: true, Center: true}
	role := words.Capital(b.Voice().RoleWord(nd.Role()))
	switch st {
	case raftcore.StatusCrashed:
		v.Tone, role = frame.ToneDown, words.Crashed
	case raftcore.StatusPaused:
		v.Tone, role = frame.TonePaused, words.Paused
	}
	v.Highlight = b.scen() != nil && b.scen().Highlighted(id)
	b.nodeCaption(&v, i, nd, st, role)
	b.nodeTimer(&v, nd, st)
	if i < len(b.scratch.recent.beat) && b.scratch.recent.beat[i] >= 0 && st == raftcore.StatusUp {
		v.Pulse = math.Max(float64(w.Now()-b.scratch.recent.beat[i])/pulseUs, 0.01)
	}
	v.Badges = b.nodeBadges(v.Badges[:0], i, c, R)
	v.Votes = b.nodeVotes(v.Votes[:0], i, nd, st)
	return v
}

// nodeCaption writes the two lines under machine i's disc: its role
// word (with its term under Raft, where it fits) and a second line, each
// shrunk or dropped to fit the room the layout gives it.
func (b *Builder) nodeCaption(v *frame.NodeView, i int, nd *raftcore.Node, st raftcore.Status, role string) {
	// The layout gives each machine room for words under its disc, clear
	// of its neighbours: the lines shrink to what fits there.
	lineSize := b.lay().CaptionSize
	c := v.Center
	line2 := b.nodeLine2(nd, st)
	kube, _ := b.kubeRole(nd.ID)
	capt := b.lay().Nodes[i].Caption
	room, rows := capt.W, b.lay().CaptionLines(i)
	if b.cfg().Protocol == raftcore.ProtocolRaft && !b.Plain() {
		full := words.WithTerm(role, nd.Term())
		switch {
		case b.Measure(full, lineSize) <= room && b.Measure(line2, lineSize) <= room:
			role = full
		case b.Measure(full, lineSize) <= room:
			role, line2 = full, ""
		case kube == "":
			line2 = words.Term(nd.Term())
		}
	}
	if short := b.nodeLine2Short(nd); b.Measure(line2, lineSize) > room && short != "" {
		line2 = short
	}
	if b.Measure(line2, lineSize) > room || rows < 2 {
		line2 = ""
	}
	// The layout makes room for the role wherever it can; where it
	// cannot (nine machines on a small phone) the role word shortens
	// or goes rather than run into a neighbour.
	// Smaller words first, down to minCaptionSize, on a small stage.
	size := math.Max(b.fitSize(role, lineSize, room), minCaptionSize)
	role = b.fitRole(role, room, size)
	if b.Measure(line2, size) > room {
		line2 = ""
	}
	y := capt.Y
	if capt.Empty() {
		y = c.Y + v.R + 7
	}
	lineH := lineSize * viz.CaptionLineHeight
	v.Lines[0] = frame.TextItem{Text: role, X: c.X, Y: y + lineH/2, Size: size, Tone: frame.ToneText, Center: true}
	v.Lines[1] = frame.TextItem{Text: line2, X: c.X, Y: y + lineH*1.5, Size: size, Tone: frame.ToneMuted, Center: true}
}

// nodeTimer sets how far a machine's timer has run, as a share of its
// ring, or -1 for none: a crashed machine, the leader and the naive copy
// protocol have none.
func (b *Builder) nodeTimer(v *frame.NodeView, nd *raftcore.Node, st raftcore.Status) {
	v.Timer = -1
	if st != raftcore.StatusCrashed && b.cfg().Protocol != raftcore.ProtocolNaiveCopy && nd.Role() != raftcore.RoleLeader {
		el, to := nd.ElectionTimer()
		if to > 0 {
			v.Timer = math.Min(float64(el)/float64(to), 1)
		}
		v.TimerTone = frame.ToneMuted
		if v.Timer > 0.75 {
			v.TimerTone = frame.ToneWarn
		}
	}
}

// nodeVotes appends to out the dots inside a running candidate, machine
// i, one toward each machine that has answered it, granted or not.
func (b *Builder) nodeVotes(out []frame.VoteDot, i int, nd *raftcore.Node, st raftcore.Status) []frame.VoteDot {
	if (nd.Role() != raftcore.RoleCandidate && nd.Role() != raftcore.RolePreCandidate) || st != raftcore.StatusUp {
		return out
	}
	c, R := b.lay().Nodes[i].Center, b.lay().NodeRadius
	for j := 0; j < b.World().Size(); j++ {
		if j == i {
			continue
		}
		vote := nd.VoteFrom(nodeID(j))
		if vote == 0 {
			continue
		}
		d := b.lay().Nodes[j].Center.Sub(c).Unit()
		out = append(out, frame.VoteDot{Pos: c.Add(d.Mul(R * 0.78)), Granted: vote > 0})
	}
	return out
}

// discName is a machine's name as its disc shows it: whole if it fits
// room at size 8 or more, else its end after the last dash ("3" for
// etcd-3), which the log rows, with more room, spell out.
func (b *Builder) discName(name string, size, room float64) string {
	if b.Measure(name, b.fitSize(name, size, room)) <= room {
		return name
	}
	if i := strings.LastIndexByte(name, '-'); i >= 0 && i < len(name)-1 {
		return name[i+1:]
	}
	return name
}

// minCaptionSize is the smallest text the words under a machine shrink to
// before they shorten or go.
const minCaptionSize = 8.5

// fitSize is size, made smaller if need be (to no less than 8) for text
// to be at most room wide.
func (b *Builder) fitSize(text string, size, room float64) float64 {
	if w := b.Measure(text, size); w > room && w > 0 {
		return math.Max(math.Floor(size*room/w*4)/4, 8)
	}
	return size
}

// nodeLine2 is the second line under a machine: its vote and the leader
// it knows, or what it holds; in the clock figure, a leader's lease.
// nodeLine2Short is a narrower second line for a machine with little room
// under it, or "" where the line has no shorter form.
func (b *Builder) nodeLine2Short(nd *raftcore.Node) string {
	if _, short := b.kubeRole(nd.ID); short != "" {
		return short
	}
	if b.cfg().Protocol == raftcore.ProtocolNaiveCopy {
		return words.HeldShort(nd.LastIndex())
	}
	return ""
}

func (b *Builder) nodeLine2(nd *raftcore.Node, st raftcore.Status) string {
	if st == raftcore.StatusCrashed {
		return b.crashedLine2(nd)
	}
	if kube, _ := b.kubeRole(nd.ID); kube != "" {
		return kube
	}
	if b.Plain() && b.cfg().Protocol == raftcore.ProtocolRaft {
		return b.Voice().PlainLine2(nd)
	}
	lead := ""
	if l := nd.Lead(); l != raftcore.None {
		lead = b.cfg().Name(l)
	}
	switch b.cfg().Protocol {
	case raftcore.ProtocolNaiveCopy:
		return words.Held(nd.LastIndex())
	case raftcore.ProtocolFailover:
		return words.FailoverLine(nd.Role() == raftcore.RoleLeader, lead)
	}
	vote := ""
	if v := nd.Vote(); v != raftcore.None {
		vote = b.cfg().Name(v)
	}
	vote = words.Vote(vote)
	switch {
	case nd.Role() == raftcore.RoleLeader:
		if lease, ok := b.leaseWords(nd.ID); ok {
			return lease
		}
		return vote
	case nd.Role() == raftcore.RoleCandidate || nd.Role() == raftcore.RolePreCandidate:
		yes := 0
		for j := 1; j <= b.cfg().Nodes; j++ {
			if nd.VoteFrom(raftcore.NodeID(j)) > 0 {
				yes++
			}
		}
		return words.VotesNeeded(yes, votersNeeded(nd))
	}
	return words.WithLeader(vote, lead)
}

// crashedLine2 is the second line under a crashed machine: under Raft the
// vote it persisted, nothing of the leader it knew or the votes it had
// received, which the crash took; nothing under the other protocols,
// whose line speaks only of who leads now.
func (b *Builder) crashedLine2(nd *raftcore.Node) string {
	switch {
	case b.cfg().Protocol == raftcore.ProtocolNaiveCopy:
		return words.Held(nd.LastIndex())
	case b.cfg().Protocol != raftcore.ProtocolRaft || b.Plain():
		return ""
	}
	vote := ""
	if v := nd.Vote(); v != raftcore.None {
		vote = b.cfg().Name(v)
	}
	return words.Vote(vote)
}

// nodeBadges are the small tags over a machine's disc. A tag wider than
// the machine's zone (a phone's side of a partition) takes its short form,
// and a machine alone on its side of a partition has no "cut off" tag: the
// side's box already shows it, and a third tag would climb over the box's
// label.
func (b *Builder) nodeBadges(out []frame.TextItem, i int, c viz.Point, R float64) []frame.TextItem {
	w := b.World()
	id := nodeID(i)
	var texts, short [6]string
	var tones [6]frame.Tone
	k := 0
	if text, sh, ok := staleReadBadge(w, id); ok {
		texts[k], short[k], tones[k] = text, sh, frame.ToneBad
		k++
	}
	if text, tone, ok := b.cacheBadge(id); ok {
		texts[k], tones[k] = text, tone
		k++
	}
	if s := w.Slow(id); s > 1 {
		texts[k], tones[k] = words.SlowTag(s), frame.ToneWarn
		k++
	}
	if text, sh, tone, ok := clockBadge(w, id); ok {
		texts[k], short[k], tones[k] = text, sh, tone
		k++
	}
	if q := w.Backlog(id); q > 0 {
		texts[k], tones[k] = words.QueuedTag(q), frame.ToneWarn
		k++
	}
	if b.Session.Isolated(i) && !b.aloneOnSide(i) {
		texts[k], tones[k] = words.CutOffTag, frame.ToneBad
		k++
	}
	zone := b.zoneRect(i)
	// Each badge is drawn as a pill its text's size plus 6 high (see
	// viz/paint): a step of that and a pixel keeps stacked pills apart.
	const size = SizeSmall - 1
	y := c.Y - R - 5 - SizeSmall
	step := size + 7
	for j := 0; j < k; j++ {
		text := texts[j]
		if short[j] != "" && zone.W > 0 && b.Measure(text, size)+12 > zone.W {
			text = short[j]
		}
		x := b.badgeX(i, c.X, b.Measure(text, size))
		out = append(out, frame.TextItem{Text: text, X: x, Y: y - float64(k-1-j)*step + SizeSmall/2, Size: size, Tone: tones[j], Center: true, Bold: true})
	}
	return out
}

// aloneOnSide reports whether machine i is the only one on its side of a
// partition drawn as sides.
func (b *Builder) aloneOnSide(i int) bool {
	if b.Stage.Mode() != stage.ZonesPartition {
		return false
	}
	nodes := b.lay().Nodes
	if i >= len(nodes) || nodes[i].Zone < 0 {
		return false
	}
	for j, nd := range nodes {
		if j != i && nd.Zone == nodes[i].Zone {
			return false
		}
	}
	return true
}

// appendBadge adds one more badge over machine i's disc, above those it
// has.
func (b *Builder) appendBadge(out []frame.TextItem, i int, text string, tone frame.Tone) []frame.TextItem {
	c, R := b.lay().Nodes[i].Center, b.lay().NodeRadius
	y := c.Y - R - 5 - SizeSmall + SizeSmall/2
	for _, bd := range out {
		y = min(y, bd.Y-(SizeSmall+3))
	}
	x := b.badgeX(i, c.X, b.Measure(text, SizeSmall-1))
	return append(out, frame.TextItem{Text: text, X: x, Y: y, Size: SizeSmall - 1, Tone: tone, Center: true, Bold: true})
}

// badgeX centres a badge of text width tw over machine i's disc at x,
// moved in as far as it takes to stay inside the machine's zone (or,
// where the zone is narrower than the badge, the cluster's area or the
// canvas): a badge wider than the disc, over a machine near an
// edge, would otherwise be cut by it.
func (b *Builder) badgeX(i int, x, tw float64) float64 {
	half := tw/2 + 6 // the pill's padding
	for _, area := range []viz.Rect{b.zoneRect(i), b.lay().Cluster, b.lay().Canvas} {
		if area.W >= 2*half {
			return min(max(x, area.X+half), area.Right()-half)
		}
	}
	return x
}

// zoneRect is the region of machine i's zone, or no region outside a
// zone layout.
func (b *Builder) zoneRect(i int) viz.Rect {
	if nodes := b.lay().Nodes; i < len(nodes) && nodes[i].Zone >= 0 && nodes[i].Zone < len(b.lay().Zones) {
		return b.lay().Zones[nodes[i].Zone].Rect
	}
	return viz.Rect{}
}

func (b *Builder) buildLinks() {
	f := &b.frame
	f.Links = f.Links[:0]
	cfg := b.cfg()
	var crossed []viz.LinkID
	if b.Rec.Active() {
		crossed = b.Rec.Crossed()
	}
	hover := viz.Hit{Kind: viz.HitNone}
	if hp, ok := b.View.Hover(); ok && !b.Rec.Active() {
		hover = b.lay().HitTest(hp, b.scratch.dots, viz.HitOptions{Touch: b.Stage.Touch()})
	}
	defMin, defMax := int64(cfg.LatencyMinMs*1000), int64(cfg.LatencyMaxMs*1000)
	for _, lk := range b.lay().Links {
		v, ij, ji := b.linkView(lk)
		loss := math.Max(ij.Loss, ji.Loss)
		v.Lossy = loss > 0
		slowMin, slowMax := max(ij.LatencyMinUs, ji.LatencyMinUs), max(ij.LatencyMaxUs, ji.LatencyMaxUs)
		v.Slow = slowMin != defMin || slowMax != defMax
		if label := words.LinkLabel(loss, slowMin, slowMax, v.Slow); label != "" && v.State != frame.LinkCut {
			mid := lk.Seg.At(0.5)
			off := lk.Seg.B.Sub(lk.Seg.A).Unit().Perp().Mul(10)
			v.Label = frame.TextItem{Text: label, X: mid.X + off.X, Y: mid.Y + off.Y, Size: SizeSmall - 1, Tone: frame.ToneWarn, Center: true}
		}
		v.Faint = v.State == frame.LinkCut && b.Stage.Mode() == stage.ZonesPartition
		v.Hot = hover.Kind == viz.HitLink && hover.Link == lk.LinkID
		for _, c := range crossed {
			if c == lk.LinkID {
				v.Hot = true
			}
		}
		f.Links = append(f.Links, v)
	}
	b.thinLinkLabels()
}

// linkView is a link as its state in each direction draws it, with the
// world's state of its two directions.
func (b *Builder) linkView(lk viz.Link) (v frame.LinkView, ij, ji raftcore.Link) {
	w := b.World()
	ij, ji = w.Link(nodeID(lk.I), nodeID(lk.J)), w.Link(nodeID(lk.J), nodeID(lk.I))
	v = frame.LinkView{ID: lk.LinkID, Seg: lk.Seg, Lanes: lk.Lanes, Up: [2]bool{ij.Up, ji.Up}}
	switch {
	case ij.Up && ji.Up:
		v.State = frame.LinkUp
	case !ij.Up && !ji.Up:
		v.State = frame.LinkCut
	default:
		v.State = frame.LinkOneWay
	}
	return v, ij, ji
}

// thinLinkLabels keeps only the link labels a reader can read: a label
// that would lie over one already kept, over a machine or over the words
// under it, is dropped.
// Slowing every link of nine machines would otherwise stack 36 labels in
// the middle of the ring, unreadable and costly to draw; the link under
// the pointer keeps its label whatever it covers, and comes first.
func (b *Builder) thinLinkLabels() {
	f := &b.frame
	kept := b.scratch.recent.labels[:0]
	box := func(t frame.TextItem) viz.Rect {
		w, h := b.Measure(t.Text, t.Size)+6, t.Size+4
		return viz.XYWH(t.X-w/2, t.Y-h/2, w, h)
	}
	for pass := 0; pass < 2; pass++ {
		for i := range f.Links {
			l := &f.Links[i]
			if l.Label.Text == "" || l.Hot != (pass == 0) {
				continue
			}
			r := box(l.Label)
			clear := l.Hot
			if !clear {
				clear = true
				for _, k := range kept {
					if r.Overlaps(k) {
						clear = false
						break
					}
				}
				for _, n := range f.Nodes {
					if clear && r.Inset(-n.R).Contains(n.Center) {
						clear = false
					}
					for _, t := range n.Lines {
						if clear && t.Text != "" && r.Overlaps(box(t)) {
							clear = false
						}
					}
				}
			}
			if clear {
				kept = append(kept, r)
			} else {
				l.Label = frame.TextItem{}
			}
		}
	}
	b.scratch.recent.labels = kept
	// A link's label says why its messages are slow or lost: a
	// message's tag that would sit on it gives way.
	for i := range f.Messages {
		m := &f.Messages[i]
		if m.Label.Text == "" || m.Selected {
			continue
		}
		for _, k := range kept {
			if box(m.Label).Overlaps(k) {
				m.Label = frame.TextItem{}
				break
			}
		}
	}
}

// msgSpacing is how far apart, in message radii, the dots of one lane
// are drawn: a dot's width apart.
const msgSpacing = 3.0

// msgSpot is a message on the wire and where on its lane its dot goes.
type msgSpot struct {
	k        int // index in the wire
	from, to int
	lane     int
	frac     float64 // how far along, 0 at the sender
	pos      viz.Point
	seg      viz.Segment
}

// msgSpots places the messages on the wire on their lanes, lane by lane
// and, in each, from the one nearest its end; client requests, which
// have no lane, are left out.
func (b *Builder) msgSpots(msgs []raftcore.Message, now int64) []msgSpot {
	spots := b.scratch.spots[:0]
	for k := range msgs {
		m := &msgs[k]
		if m.Type == raftcore.MsgClient || m.DeliverUs <= m.SendUs {
			continue
		}
		from, to := int(m.From)-1, int(m.To)-1
		lk, ok := b.lay().Link(from, to)
		if !ok {
			continue
		}
		frac := float64(now-m.SendUs) / float64(m.DeliverUs-m.SendUs)
		frac = math.Min(math.Max(frac, 0), 1)
		seg := lk.Lane(from, to)
		spots = append(spots, msgSpot{k: k, from: from, to: to, lane: laneKey(from, to), frac: frac, pos: seg.At(frac), seg: seg})
	}
	slices.SortStableFunc(spots, func(a, c msgSpot) int {
		if a.lane != c.lane {
			return cmp.Compare(a.lane, c.lane)
		}
		return cmp.Compare(c.frac, a.frac)
	})
	b.scratch.spots = spots
	return spots
}

// laneKey orders the lanes: the members' among themselves as always,
// then those to and from worker machines (whose indices pass MaxNodes).
func laneKey(from, to int) int {
	if from < viz.MaxNodes && to < viz.MaxNodes {
		return from*viz.MaxNodes + to
	}
	const past = viz.MaxNodes * viz.MaxNodes
	return past + from*(viz.MaxNodes+viz.MaxWorkers) + to
}

// msgLanes are the messages' spots, a slice for each lane.
func (b *Builder) msgLanes(msgs []raftcore.Message, now int64) [][]msgSpot {
	spots := b.msgSpots(msgs, now)
	lanes := b.scratch.lanes[:0]
	for i := 0; i < len(spots); {
		j := i
		for j < len(spots) && spots[j].lane == spots[i].lane {
			j++
		}
		lanes = append(lanes, spots[i:j])
		i = j
	}
	b.scratch.lanes = lanes
	return lanes
}

// laneDots draws the messages of one lane, from the one nearest its end.
// A slow link carries a train of messages, and a dot drawn over the one
// ahead would only thicken the line: the lane shows dots a dot apart
// (and always the one the reader picked), and, where it leaves some out,
// says how many are on the way.
func (b *Builder) laneDots(msgs []raftcore.Message, lane []msgSpot, labels, beatLabels bool) {
	f := &b.frame
	r := b.lay().MessageRadius
	first, hidden := len(f.Messages), 0
	var last viz.Point
	for k, sp := range lane {
		m := &msgs[sp.k]
		picked := b.View.Menu().Kind == view.MenuMsg && b.View.Menu().Msg == m.ID
		if k > 0 && !picked && sp.pos.Sub(last).Len() < msgSpacing*r {
			hidden++
			continue
		}
		last = sp.pos
		v := frame.MsgView{ID: m.ID, From: sp.from, To: sp.to, Pos: sp.pos, R: r, Tone: msgTone(m.Type),
			Hollow: m.Type.IsResponse(), Reject: m.Reject, Selected: picked}
		beat := m.Type == raftcore.MsgHeartbeat || m.Type == raftcore.MsgHeartbeatResp
		if (labels && (!beat || beatLabels)) || v.Selected {
			v.Label = b.msgTag(b.Voice().MsgLabel(m), sp.pos, tagOffset(sp, r), v.Selected)
		}
		f.Messages = append(f.Messages, v)
		b.scratch.dots = append(b.scratch.dots, viz.MessageDot{ID: int64(m.ID), Pos: sp.pos})
	}
	if hidden == 0 {
		return
	}
	// The count goes by the dot nearest the middle of the lane, clear of
	// the machines at its ends.
	mid := lane[0].seg.At(0.5)
	best := first
	for i := first; i < len(f.Messages); i++ {
		if f.Messages[i].Pos.Sub(mid).Len() < f.Messages[best].Pos.Sub(mid).Len() {
			best = i
		}
	}
	if v := &f.Messages[best]; !v.Selected {
		v.Label = b.msgTag(words.OnTheWay(len(lane)), v.Pos, tagOffset(lane[0], r), false)
	}
}

// tagOffset is where a message's tag goes from its dot: to the side of
// its lane.
func tagOffset(sp msgSpot, r float64) viz.Point {
	return sp.seg.B.Sub(sp.seg.A).Unit().Perp().Mul(r + 7)
}

// msgTone is a message's colour by purpose.
func msgTone(t raftcore.MsgType) frame.Tone {
	switch t {
	case raftcore.MsgPreVote, raftcore.MsgPreVoteResp, raftcore.MsgVote, raftcore.MsgVoteResp:
		return frame.ToneVote
	case raftcore.MsgApp, raftcore.MsgAppResp, raftcore.MsgHeartbeat, raftcore.MsgHeartbeatResp:
		return frame.ToneAppend
	case raftcore.MsgCopy:
		return frame.ToneCopy
	case raftcore.MsgSnap:
		return frame.ToneSnap
	case raftcore.MsgKube, raftcore.MsgKubeResp:
		return frame.ToneAccent
	}
	return frame.ToneClient
}

// msgTag places a message's tag beside its dot, on whichever side of its
// lane keeps it off the machines and their words; a tag with no clear side
// is left out (in busy moments it would sit on a machine's role or term),
// unless the reader picked the message.
func (b *Builder) msgTag(text string, pos, off viz.Point, picked bool) frame.TextItem {
	size := SizeSmall - 2
	w, h := b.Measure(text, size), LineHeight(size)
	tag := frame.TextItem{Text: text, Size: size, Tone: frame.ToneMuted, Center: true}
	// A long tag to the side of a steep lane would reach back over its
	// dot: it goes as far out as its half width or height along the
	// offset needs, beyond the room the offset gave the dot.
	if n := off.Len(); n > 0 {
		u := off.Mul(1 / n)
		if need := math.Abs(u.X)*w/2 + math.Abs(u.Y)*h/2 + n - 7 + 2; need > n {
			off = u.Mul(need)
		}
	}
	for _, side := range [2]float64{1, -1} {
		c := viz.Point{X: pos.X + side*off.X, Y: pos.Y + side*off.Y}
		if b.tagClear(viz.XYWH(c.X-w/2, c.Y-h/2, w, h)) {
			tag.X, tag.Y = c.X, c.Y
			return tag
		}
	}
	if !picked {
		return frame.TextItem{}
	}
	tag.X, tag.Y = pos.X+off.X, pos.Y+off.Y
	return tag
}

// tagClear reports whether a message tag in box stays off every
// machine's disc and the words under it.
func (b *Builder) tagClear(box viz.Rect) bool {
	for _, n := range b.lay().Nodes {
		disc := viz.XYWH(n.Center.X-b.lay().NodeRadius, n.Center.Y-b.lay().NodeRadius, 2*b.lay().NodeRadius, 2*b.lay().NodeRadius)
		if box.Overlaps(disc) || box.Overlaps(n.Caption) {
			return false
		}
	}
	for _, wk := range b.lay().Workers {
		if box.Overlaps(wk.Rect) {
			return false
		}
	}
	return true
}

func (b *Builder) buildMessages() {
	f := &b.frame
	w := b.World()
	now := w.Now()
	f.Messages = f.Messages[:0]
	b.scratch.dots = b.scratch.dots[:0]
	b.scratch.recent.wire = w.AppendInFlight(b.scratch.recent.wire[:0])
	msgs := b.scratch.recent.wire
	r := b.lay().MessageRadius
	// Labels while few messages fly; heartbeats, the most common and the
	// least telling, only while very few do.
	labels, beatLabels := len(msgs) <= 12, len(msgs) <= 6
	if b.lay().NodeRadius < 20 {
		// A small stage (a figure on a phone) has no room for tags on
		// every message: heartbeats go bare, and the rest only when few.
		labels, beatLabels = len(msgs) <= 4, false
	}
	for _, lane := range b.msgLanes(msgs, now) {
		b.laneDots(msgs, lane, labels, beatLabels)
	}
	fall := b.fallUs()
	for _, e := range b.scratch.recent.drops {
		if e.Kind == raftcore.TraceDeliver {
			b.ignoredDot(e, r, fall)
			continue
		}
		from, to, send, deliver, ok := b.Session.Path(e.Msg)
		if !ok {
			if e.Node == raftcore.None || e.Peer == raftcore.None {
				continue
			}
			// Cut at sending: it never left its sender.
			from, to, send, deliver = int(e.Node)-1, int(e.Peer)-1, e.AtUs, e.AtUs+1
		}
		lk, ok := b.lay().Link(from, to)
		if !ok {
			continue
		}
		frac := float64(e.AtUs-send) / float64(max(deliver-send, 1))
		pos := lk.Lane(from, to).At(math.Min(math.Max(frac, 0), 1))
		v := frame.MsgView{ID: e.Msg, From: from, To: to, Pos: pos, R: r, Tone: frame.ToneBad,
			Fall: math.Max(float64(now-e.AtUs)/float64(fall), 0.01)}
		f.Messages = append(f.Messages, v)
	}
}

// ignoredDot draws a vote request its receiver ignored within a live
// leader's lease, falling at the receiver's end of the link, with the
// reason beside it: otherwise the request would just vanish on arrival.
func (b *Builder) ignoredDot(e raftcore.TraceEvent, r float64, fall int64) {
	from, to := int(e.Peer)-1, int(e.Node)-1
	lk, ok := b.lay().Link(from, to)
	if !ok {
		return
	}
	now := b.World().Now()
	lane := lk.Lane(from, to)
	pos := lane.At(1)
	v := frame.MsgView{ID: e.Msg, From: from, To: to, Pos: pos, R: r, Tone: frame.ToneBad,
		Fall: math.Max(float64(now-e.AtUs)/float64(fall), 0.01)}
	// The tag sits back along the link, clear of the receiver's disc.
	v.Label = b.msgTag(b.Voice().Ignored(e.MsgType), lane.At(0.7), lane.B.Sub(lane.A).Unit().Perp().Mul(r+7), false)
	b.frame.Messages = append(b.frame.Messages, v)
}
