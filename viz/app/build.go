package app

import (
	"math"
	"strconv"
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
	sizeSmall = 11.0
	sizeBody  = 13.0
	sizeTitle = 14.0
)

// fallRealUs is how long, in real time, a dropped message takes to fall
// away; the fall runs in virtual time so that it freezes with the world.
const fallRealUs = 700_000

// pulseUs is how long a heartbeat ring spreads from its leader, in virtual
// time.
const pulseUs = 90_000

// Frame returns the frame for the current state, building it only when
// something changed since the last call.
func (a *App) Frame() *frame.Frame {
	if a.built != a.version || a.frame.W != a.stage.W() || a.frame.H != a.stage.H() || a.stats.FrameBuilds == 0 {
		a.build()
	}
	return &a.frame
}

func (a *App) build() {
	a.stats.FrameBuilds++
	if a.figure() {
		// A figure's words may have grown (a note, the closing line):
		// the machines make room before anything is placed.
		a.touchLayout()
	}
	a.built = a.version
	f := &a.frame
	f.W, f.H, f.Theme, f.Embed, f.Version = a.stage.W(), a.stage.H(), a.view.Theme(), a.params.Embed, a.version
	a.recent()
	a.buildZones()
	a.buildNodes()
	a.buildLinks()
	a.buildMessages()
	a.buildLogs()
	a.buildToolbar()
	a.buildTimeline()
	a.buildReplay()
	a.buildPanels()
	a.buildOverlays()
}

// recent scans the newest trace events, back only as far as the longest
// animation reaches.
func (a *App) recent() {
	w := a.World()
	n := w.Size()
	r := &a.cache.recent
	r.beat = r.beat[:0]
	for i := 0; i < n; i++ {
		r.beat = append(r.beat, -1)
	}
	r.drops = r.drops[:0]
	now := w.Now()
	fall := a.fallUs()
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
		}
	}
}

// fallUs is how long a fall lasts in virtual time at the current speed.
func (a *App) fallUs() int64 {
	return max(int64(fallRealUs*a.clock.Speed()), 5_000)
}

func (a *App) buildZones() {
	f := &a.frame
	f.Zones = f.Zones[:0]
	if len(a.lay().Zones) == 0 {
		return
	}
	w := a.World()
	n := w.Size()
	hot := -1
	if g := a.dragGesture(); g != nil && g.Zone >= 0 {
		hot = g.Zone
	}
	for _, z := range a.lay().Zones {
		var members []int
		for i, zi := range a.stage.Zones() {
			if zi == z.Index {
				members = append(members, i)
			}
		}
		zv := frame.ZoneView{Rect: z.Rect, Tone: frame.ToneMuted, Empty: len(members) == 0, Hot: z.Index == hot}
		lx, ly := z.Label.X+4, z.Label.Y+max((z.Label.H-sizeSmall)/2-1, 0)
		switch {
		case a.stage.Mode() == stage.ZonesWorld:
			zv.Label, zv.Tone = a.worldZoneLabel(z, members, lx, ly)
		case zv.Empty:
			text := "Drop a machine here to split it off"
			if a.measure(text, sizeSmall) > z.Label.W-8 {
				text = stage.DropShort
			}
			zv.Label = frame.TextItem{Text: text, X: lx, Y: ly, Size: sizeSmall, Tone: frame.ToneMuted}
		default:
			count := strconv.Itoa(len(members)) + " of " + strconv.Itoa(n)
			verdict := ""
			if a.cfg().Protocol == raftcore.ProtocolRaft {
				verdict, zv.Tone = ", no majority", frame.ToneWarn
				if 2*len(members) > n {
					verdict, zv.Tone = ", a majority", frame.ToneGood
				}
			}
			// The longest wording that fits the zone's label.
			text := ""
			for _, t := range []string{"Side " + strconv.Itoa(z.Index+1) + ": " + count + verdict, count + verdict, count} {
				text = t
				if a.measure(t, sizeSmall) <= z.Label.W-8 {
					break
				}
			}
			zv.Label = frame.TextItem{Text: text, X: lx, Y: ly, Size: sizeSmall, Tone: zv.Tone, Bold: true}
		}
		f.Zones = append(f.Zones, zv)
	}
}

// dragGesture is the node drag under way, if any.
func (a *App) dragGesture() *viz.Gesture {
	node, pos, ok := a.rec.Dragged()
	if !ok {
		return nil
	}
	g := viz.Gesture{Kind: viz.GestureNodeDrag, Node: node, Pos: pos, Zone: -1}
	if len(a.lay().Zones) > 0 {
		if z := a.lay().ZoneAt(pos); z >= 0 && z != a.lay().Nodes[node].Zone {
			g.Zone = z
		}
	} else if len(a.lay().Nodes) > 1 && pos.Dist(a.lay().Ring.C)-a.lay().Ring.R > math.Max(1.5*a.lay().NodeRadius, 24) {
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

func (a *App) buildNodes() {
	f := &a.frame
	w := a.World()
	n := w.Size()
	f.Nodes = f.Nodes[:0]
	R := a.lay().NodeRadius
	ghost := a.dragGesture()
	f.Ghost = nil
	if ghost != nil {
		f.Ghost = &frame.GhostView{Node: ghost.Node, Pos: ghost.Pos, R: R, WouldIsolate: ghost.WouldIsolate, Zone: ghost.Zone}
	}
	// The layout gives each machine room for words under its disc, clear
	// of its neighbours: the lines shrink to what fits there.
	lineSize := a.lay().CaptionSize
	for i := 0; i < n && i < len(a.lay().Nodes); i++ {
		id := nodeID(i)
		nd := w.Node(id)
		st := w.Status(id)
		c := a.lay().Nodes[i].Center
		tone, shape, dashed := roleLook(a.cfg().Protocol, nd.Role())
		v := frame.NodeView{Index: i, Center: c, R: R, Shape: shape, Dashed: dashed, Tone: tone,
			Crashed: st == raftcore.StatusCrashed, Paused: st == raftcore.StatusPaused, Slow: w.Slow(id), Drift: w.Drift(id), Selected: i == a.view.Selected(),
			Hidden: ghost != nil && ghost.Node == i}
		name := a.discName(a.cfg().Name(id), a.lay().LabelSize, 2*R-6)
		v.Name = frame.TextItem{Text: name, X: c.X, Y: c.Y, Size: a.fitSize(name, a.lay().LabelSize, 2*R-6), Tone: frame.ToneText, Bold: true, Center: true}
		role := words.Capital(a.voice().RoleWord(nd.Role()))
		switch st {
		case raftcore.StatusCrashed:
			v.Tone, role = frame.ToneDown, "Crashed"
		case raftcore.StatusPaused:
			v.Tone, role = frame.TonePaused, "Paused"
		}
		v.Highlight = a.scen() != nil && a.scen().Highlighted(id)
		line2 := a.nodeLine2(nd, st)
		capt := a.lay().Nodes[i].Caption
		room, rows := capt.W, a.lay().CaptionLines(i)
		if a.cfg().Protocol == raftcore.ProtocolRaft && !a.plain() {
			full := role + " · term " + words.Utoa(nd.Term())
			switch {
			case a.measure(full, lineSize) <= room && a.measure(line2, lineSize) <= room:
				role = full
			case a.measure(full, lineSize) <= room:
				role, line2 = full, ""
			default:
				line2 = "term " + words.Utoa(nd.Term())
			}
		}
		if a.measure(line2, lineSize) > room || rows < 2 {
			line2 = ""
		}
		// The layout makes room for the role wherever it can; where it
		// cannot (nine machines on a small phone) the role word shortens
		// or goes rather than run into a neighbour.
		// Smaller words first, down to minCaptionSize, on a small stage.
		size := math.Max(a.fitSize(role, lineSize, room), minCaptionSize)
		role = a.fitRole(role, room, size)
		if a.measure(line2, size) > room {
			line2 = ""
		}
		y := capt.Y
		if capt.Empty() {
			y = c.Y + R + 7
		}
		lineH := lineSize * viz.CaptionLineHeight
		v.Lines[0] = frame.TextItem{Text: role, X: c.X, Y: y + lineH/2, Size: size, Tone: frame.ToneText, Center: true}
		v.Lines[1] = frame.TextItem{Text: line2, X: c.X, Y: y + lineH*1.5, Size: size, Tone: frame.ToneMuted, Center: true}
		v.Timer = -1
		if st != raftcore.StatusCrashed && a.cfg().Protocol != raftcore.ProtocolNaiveCopy && nd.Role() != raftcore.RoleLeader {
			el, to := nd.ElectionTimer()
			if to > 0 {
				v.Timer = math.Min(float64(el)/float64(to), 1)
			}
			v.TimerTone = frame.ToneMuted
			if v.Timer > 0.75 {
				v.TimerTone = frame.ToneWarn
			}
		}
		if i < len(a.cache.recent.beat) && a.cache.recent.beat[i] >= 0 && st == raftcore.StatusUp {
			v.Pulse = math.Max(float64(w.Now()-a.cache.recent.beat[i])/pulseUs, 0.01)
		}
		v.Badges = a.nodeBadges(v.Badges[:0], i, c, R)
		v.Votes = v.Votes[:0]
		if (nd.Role() == raftcore.RoleCandidate || nd.Role() == raftcore.RolePreCandidate) && st == raftcore.StatusUp {
			for j := 0; j < n; j++ {
				if j == i {
					continue
				}
				vote := nd.VoteFrom(nodeID(j))
				if vote == 0 {
					continue
				}
				d := a.lay().Nodes[j].Center.Sub(c).Unit()
				v.Votes = append(v.Votes, frame.VoteDot{Pos: c.Add(d.Mul(R * 0.78)), Granted: vote > 0})
			}
		}
		f.Nodes = append(f.Nodes, v)
	}
}

// keepOnStage is where to centre text of size size meant to be centred
// at x: there, or as near as keeps it on the stage.
func (a *App) keepOnStage(x float64, text string, size float64) float64 {
	half := a.measure(text, size)/2 + 2
	st := a.lay().Canvas
	return math.Max(st.X+half, math.Min(x, st.Right()-half))
}

// discName is a machine's name as its disc shows it: whole if it fits
// room at size 8 or more, else its end after the last dash ("3" for
// etcd-3), which the log rows, with more room, spell out.
func (a *App) discName(name string, size, room float64) string {
	if a.measure(name, a.fitSize(name, size, room)) <= room {
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
func (a *App) fitSize(text string, size, room float64) float64 {
	if w := a.measure(text, size); w > room && w > 0 {
		return math.Max(math.Floor(size*room/w*4)/4, 8)
	}
	return size
}

// nodeLine2 is the second line under a machine: its vote and the leader
// it knows, or what it holds; in the clock figure, a leader's lease.
func (a *App) nodeLine2(nd *raftcore.Node, st raftcore.Status) string {
	if a.plain() && a.cfg().Protocol == raftcore.ProtocolRaft {
		return a.voice().PlainLine2(nd)
	}
	switch a.cfg().Protocol {
	case raftcore.ProtocolNaiveCopy:
		if nd.LastIndex() == 1 {
			return "1 write held"
		}
		return strconv.FormatUint(nd.LastIndex(), 10) + " writes held"
	case raftcore.ProtocolFailover:
		if nd.Role() == raftcore.RoleLeader {
			return "orders every write"
		}
		if l := nd.Lead(); l != raftcore.None {
			return "follows " + a.cfg().Name(l)
		}
		return "no authority known"
	}
	vote := "no vote"
	if v := nd.Vote(); v != raftcore.None {
		vote = "voted " + a.cfg().Name(v)
	}
	switch {
	case nd.Role() == raftcore.RoleLeader:
		if lease, ok := a.leaseWords(nd.ID); ok {
			return lease
		}
		return vote
	case nd.Role() == raftcore.RoleCandidate || nd.Role() == raftcore.RolePreCandidate:
		yes := 0
		for j := 1; j <= a.cfg().Nodes; j++ {
			if nd.VoteFrom(raftcore.NodeID(j)) > 0 {
				yes++
			}
		}
		return strconv.Itoa(yes) + " of " + strconv.Itoa(a.cfg().Nodes/2+1) + " votes needed"
	case nd.Lead() != raftcore.None:
		return vote + " · leader " + a.cfg().Name(nd.Lead())
	}
	return vote + " · no leader"
}

// nodeBadges are the small tags over a machine's disc.
func (a *App) nodeBadges(out []frame.TextItem, i int, c viz.Point, R float64) []frame.TextItem {
	w := a.World()
	id := nodeID(i)
	var texts [4]string
	var tones [4]frame.Tone
	k := 0
	if s := w.Slow(id); s > 1 {
		texts[k], tones[k] = "slow "+words.Factor(s), frame.ToneWarn
		k++
	}
	if text, tone, ok := clockBadge(w, id); ok {
		texts[k], tones[k] = text, tone
		k++
	}
	if b := w.Backlog(id); b > 0 {
		texts[k], tones[k] = strconv.Itoa(b)+" queued", frame.ToneWarn
		k++
	}
	if a.session.Isolated(i) {
		texts[k], tones[k] = "cut off", frame.ToneBad
		k++
	}
	y := c.Y - R - 5 - sizeSmall
	for j := 0; j < k; j++ {
		out = append(out, frame.TextItem{Text: texts[j], X: c.X, Y: y - float64(k-1-j)*(sizeSmall+3) + sizeSmall/2, Size: sizeSmall - 1, Tone: tones[j], Center: true, Bold: true})
	}
	return out
}

func (a *App) buildLinks() {
	f := &a.frame
	w := a.World()
	f.Links = f.Links[:0]
	cfg := a.cfg()
	var crossed []viz.LinkID
	if a.rec.Active() {
		crossed = a.rec.Crossed()
	}
	hover := viz.Hit{Kind: viz.HitNone}
	if hp, ok := a.view.Hover(); ok && !a.rec.Active() {
		hover = a.lay().HitTest(hp, a.cache.dots, viz.HitOptions{Touch: a.stage.Touch()})
	}
	defMin, defMax := int64(cfg.LatencyMinMs*1000), int64(cfg.LatencyMaxMs*1000)
	for _, lk := range a.lay().Links {
		ij := w.Link(nodeID(lk.I), nodeID(lk.J))
		ji := w.Link(nodeID(lk.J), nodeID(lk.I))
		v := frame.LinkView{ID: lk.LinkID, Seg: lk.Seg, Lanes: lk.Lanes, Up: [2]bool{ij.Up, ji.Up}}
		switch {
		case ij.Up && ji.Up:
			v.State = frame.LinkUp
		case !ij.Up && !ji.Up:
			v.State = frame.LinkCut
		default:
			v.State = frame.LinkOneWay
		}
		loss := math.Max(ij.Loss, ji.Loss)
		v.Lossy = loss > 0
		slowMin, slowMax := max(ij.LatencyMinUs, ji.LatencyMinUs), max(ij.LatencyMaxUs, ji.LatencyMaxUs)
		v.Slow = slowMin != defMin || slowMax != defMax
		var label string
		if v.Lossy {
			label = words.Percent(loss) + " loss"
		}
		if v.Slow {
			if label != "" {
				label += ", "
			}
			label += words.Latency(slowMin, slowMax)
		}
		if label != "" && v.State != frame.LinkCut {
			mid := lk.Seg.At(0.5)
			off := lk.Seg.B.Sub(lk.Seg.A).Unit().Perp().Mul(10)
			v.Label = frame.TextItem{Text: label, X: mid.X + off.X, Y: mid.Y + off.Y, Size: sizeSmall - 1, Tone: frame.ToneWarn, Center: true}
		}
		v.Faint = v.State == frame.LinkCut && a.stage.Mode() == stage.ZonesPartition
		v.Hot = hover.Kind == viz.HitLink && hover.Link == lk.LinkID
		for _, c := range crossed {
			if c == lk.LinkID {
				v.Hot = true
			}
		}
		f.Links = append(f.Links, v)
	}
	a.thinLinkLabels()
}

// thinLinkLabels keeps only the link labels a reader can read: a label
// that would lie over one already kept, over a machine or over the words
// under it, is dropped.
// Slowing every link of nine machines would otherwise stack 36 labels in
// the middle of the ring, unreadable and costly to draw; the link under
// the pointer keeps its label whatever it covers, and comes first.
func (a *App) thinLinkLabels() {
	f := &a.frame
	kept := a.cache.recent.labels[:0]
	box := func(t frame.TextItem) viz.Rect {
		w, h := a.measure(t.Text, t.Size)+6, t.Size+4
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
	a.cache.recent.labels = kept
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
	}
	return frame.ToneClient
}

// msgTag places a message's tag beside its dot, on whichever side of its
// lane keeps it off the machines and their words; a tag with no clear side
// is left out (in busy moments it would sit on a machine's role or term),
// unless the reader picked the message.
func (a *App) msgTag(text string, pos, off viz.Point, picked bool) frame.TextItem {
	size := sizeSmall - 2
	w, h := a.measure(text, size), lineHeight(size)
	tag := frame.TextItem{Text: text, Size: size, Tone: frame.ToneMuted, Center: true}
	for _, side := range [2]float64{1, -1} {
		c := viz.Point{X: pos.X + side*off.X, Y: pos.Y + side*off.Y}
		if a.tagClear(viz.XYWH(c.X-w/2, c.Y-h/2, w, h)) {
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

// tagClear reports whether a message tag in box b stays off every
// machine's disc and the words under it.
func (a *App) tagClear(b viz.Rect) bool {
	for _, n := range a.lay().Nodes {
		disc := viz.XYWH(n.Center.X-a.lay().NodeRadius, n.Center.Y-a.lay().NodeRadius, 2*a.lay().NodeRadius, 2*a.lay().NodeRadius)
		if b.Overlaps(disc) || b.Overlaps(n.Caption) {
			return false
		}
	}
	return true
}

func (a *App) buildMessages() {
	f := &a.frame
	w := a.World()
	now := w.Now()
	f.Messages = f.Messages[:0]
	a.cache.dots = a.cache.dots[:0]
	a.cache.recent.wire = w.AppendInFlight(a.cache.recent.wire[:0])
	msgs := a.cache.recent.wire
	r := a.lay().MessageRadius
	// Labels while few messages fly; heartbeats, the most common and the
	// least telling, only while very few do.
	labels, beatLabels := len(msgs) <= 12, len(msgs) <= 6
	if a.lay().NodeRadius < 20 {
		// A small stage (a figure on a phone) has no room for tags on
		// every message: heartbeats go bare, and the rest only when few.
		labels, beatLabels = len(msgs) <= 4, false
	}
	for k := range msgs {
		m := &msgs[k]
		if m.Type == raftcore.MsgClient || m.DeliverUs <= m.SendUs {
			continue
		}
		from, to := int(m.From)-1, int(m.To)-1
		lk, ok := a.lay().Link(from, to)
		if !ok {
			continue
		}
		frac := float64(now-m.SendUs) / float64(m.DeliverUs-m.SendUs)
		frac = math.Min(math.Max(frac, 0), 1)
		pos := lk.Lane(from, to).At(frac)
		v := frame.MsgView{ID: m.ID, From: from, To: to, Pos: pos, R: r, Tone: msgTone(m.Type),
			Hollow: m.Type.IsResponse(), Reject: m.Reject, Selected: a.view.Menu().Kind == view.MenuMsg && a.view.Menu().Msg == m.ID}
		beat := m.Type == raftcore.MsgHeartbeat || m.Type == raftcore.MsgHeartbeatResp
		if (labels && (!beat || beatLabels)) || v.Selected {
			d := lk.Lane(from, to)
			off := d.B.Sub(d.A).Unit().Perp().Mul(r + 7)
			v.Label = a.msgTag(a.voice().MsgLabel(m), pos, off, v.Selected)
		}
		f.Messages = append(f.Messages, v)
		a.cache.dots = append(a.cache.dots, viz.MessageDot{ID: int64(m.ID), Pos: pos})
	}
	fall := a.fallUs()
	for _, e := range a.cache.recent.drops {
		from, to, send, deliver, ok := a.session.Path(e.Msg)
		if !ok {
			if e.Node == raftcore.None || e.Peer == raftcore.None {
				continue
			}
			// Cut at sending: it never left its sender.
			from, to, send, deliver = int(e.Node)-1, int(e.Peer)-1, e.AtUs, e.AtUs+1
		}
		lk, ok := a.lay().Link(from, to)
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
