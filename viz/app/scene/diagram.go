package scene

import (
	"slices"
	"strings"

	"raftlab/raftcore"
	"raftlab/viz"
	"raftlab/viz/frame"
	"raftlab/viz/words"
)

// roleEdge is a transition of the diagram.
type roleEdge struct {
	from, to raftcore.Role
}

// roleDiagram lays the diagram out at x, y in width w and returns it with
// its height. With PreVote off there is no pre-candidate box.
func (b *Builder) roleDiagram(x, y, w float64) (*frame.DiagramView, float64) {
	roles, edges := b.diagramRoles()
	latest, who := b.lastRoleChange()
	d := &frame.DiagramView{}
	n := float64(len(roles))
	gap := roleGap
	if (w-gap*(n-1))/n < 50 {
		gap = roleGapNarrow // a phone's panel: room for the names
	}
	bw := (w - gap*(n-1)) / n
	names := b.roleNames(roles, bw-6)
	bh := 40.0
	for _, nm := range names {
		if nm[1] != "" {
			bh = 52 // a name on two lines
		}
	}
	top := y + 24 // room for the forward labels and the loop
	boxOf := map[raftcore.Role]viz.Rect{}
	for i, r := range roles {
		boxOf[r] = viz.XYWH(x+float64(i)*(bw+gap), top, bw, bh)
	}
	b.roleBoxes(d, roles, names, boxOf, latest)
	backDepth := b.roleArrows(d, edges, boxOf, gap, latest)
	h := top - y + bh + backDepth + 2
	if latest != nil {
		h = b.roleChangeNote(d, latest, who, x, y, w, h)
	}
	return d, h
}

// diagramRoles are the diagram's boxes, in order, and its arrows: with
// PreVote off, no pre-candidate and none of its arrows.
func (b *Builder) diagramRoles() ([]raftcore.Role, []roleEdge) {
	roles := []raftcore.Role{raftcore.RoleFollower, raftcore.RolePreCandidate, raftcore.RoleCandidate, raftcore.RoleLeader}
	edges := []roleEdge{
		{raftcore.RoleFollower, raftcore.RolePreCandidate},
		{raftcore.RolePreCandidate, raftcore.RoleCandidate},
		{raftcore.RoleCandidate, raftcore.RoleLeader},
		{raftcore.RolePreCandidate, raftcore.RoleFollower},
		{raftcore.RoleCandidate, raftcore.RoleFollower},
		{raftcore.RoleLeader, raftcore.RoleFollower},
		{raftcore.RoleCandidate, raftcore.RoleCandidate},
	}
	if !b.World().Settings().PreVote {
		roles = []raftcore.Role{raftcore.RoleFollower, raftcore.RoleCandidate, raftcore.RoleLeader}
		edges = append([]roleEdge{{raftcore.RoleFollower, raftcore.RoleCandidate}}, edges[2:]...)
		edges = append(edges[:2], edges[3:]...) // no pre-candidate giving up
	}
	return roles, edges
}

// roleNames are the boxes' names, each on one line where it fits in
// width room and otherwise broken after a hyphen or at a space
// ("Pre-" over "candidate" in a phone's panel), so that no name runs out
// of its box across the arrows between the boxes.
func (b *Builder) roleNames(roles []raftcore.Role, room float64) [][2]string {
	out := make([][2]string, len(roles))
	for i, r := range roles {
		name := words.Capital(b.Voice().RoleWord(r))
		out[i][0] = name
		if b.Measure(name, roleNameSize) <= room {
			continue
		}
		if cut := strings.LastIndexAny(name, "- "); cut > 0 {
			out[i] = [2]string{strings.TrimSpace(name[:cut+1]), name[cut+1:]}
		}
	}
	return out
}

// roleBoxes draws a box at boxOf[r] for each role r, named (names, one
// line or two), with the machines in it; the one latest entered glows.
// Text still too wide for a box is drawn smaller.
func (b *Builder) roleBoxes(d *frame.DiagramView, roles []raftcore.Role, names [][2]string, boxOf map[raftcore.Role]viz.Rect, latest *raftcore.RoleChange) {
	members := b.roleMembers()
	for i, r := range roles {
		rect := boxOf[r]
		bw := rect.W
		cx := rect.X + bw/2
		tone, shape, dashed := roleLook(b.cfg().Protocol, r)
		box := frame.DiagramBox{Rect: rect, Tone: tone, Shape: shape, Dashed: dashed, Hot: latest != nil && latest.To == r}
		line := func(text string, y, size float64, bold bool) frame.TextItem {
			for size > labelSize && b.Measure(text, size) > bw-4 {
				size--
			}
			return frame.TextItem{Text: text, X: cx, Y: y, Size: size, Tone: frame.ToneText, Bold: bold, Center: true}
		}
		box.Label = line(names[i][0], rect.Y+12, roleNameSize, true)
		whoY := rect.Y + 28
		if names[i][1] != "" {
			box.Label2 = line(names[i][1], rect.Y+24, roleNameSize, true)
			whoY = rect.Y + 40
		}
		who := members[r]
		if b.Measure(who, SizeSmall) > bw-6 {
			who = words.Machines(strings.Count(who, " ") + 1)
		}
		box.Members = line(who, whoY, SizeSmall, false)
		d.Boxes = append(d.Boxes, box)
	}
}

// roleArrows draws an arrow for each edge between the boxes: a loop over
// a box, forward between neighbours, or back to the follower under the
// boxes (gap apart), one below the other, each label under its own line (never across
// it), clear of the lines further out: those cross its band only where
// they go down from their box and where they come up into the follower's.
// The one latest followed glows. It returns how deep the arrows reach
// under the boxes.
func (b *Builder) roleArrows(d *frame.DiagramView, edges []roleEdge, boxOf map[raftcore.Role]viz.Rect, gap float64, latest *raftcore.RoleChange) float64 {
	backs := backEdges(edges)
	rowH := LineHeight(labelSize) + 3
	endX := func(k int) float64 { f := boxOf[raftcore.RoleFollower]; return f.X + f.W*0.5 + 6 + 8*float64(k) }
	for _, e := range edges {
		f, t := boxOf[e.from], boxOf[e.to]
		hot := latest != nil && latest.From == e.from && latest.To == e.to
		var path []viz.Point
		var label frame.TextItem
		text := words.RoleEdge(e.from, e.to)
		switch k := slices.Index(backs, e); {
		case e.from == e.to:
			path, label = b.loop(f, gap, edges, boxOf)
			label.Text = text
		case k < 0:
			// Forward, between neighbours, across the upper half.
			ay := f.Y + f.H*0.3
			path = []viz.Point{{X: f.Right(), Y: ay}, {X: t.X, Y: ay}}
			label = frame.TextItem{Text: text, X: (f.Right() + t.X) / 2, Y: f.Y - 6, Size: labelSize, Tone: frame.ToneMuted, Center: true}
		default:
			// Back to the follower, under the boxes.
			by := f.Bottom() + 8 + rowH*float64(k)
			ex := endX(k)
			path = []viz.Point{{X: f.X + f.W*0.5, Y: f.Bottom()}, {X: f.X + f.W*0.5, Y: by}, {X: ex, Y: by}, {X: ex, Y: t.Bottom()}}
			label = frame.TextItem{Text: text, X: endX(len(backs)-1) + 5, Y: by + 2, Size: labelSize, Tone: frame.ToneMuted}
		}
		if hot {
			label.Tone, label.Bold = frame.ToneAccent, true
		}
		d.Arrows = append(d.Arrows, frame.DiagramArrow{Path: path, Label: label, Hot: hot})
	}
	return 8.0 + rowH*float64(len(backs))
}

// roleChangeNote writes under the diagram, h below y, which machine
// (who) last changed role and why, on one line where it fits in width w,
// and returns the diagram's height with it.
func (b *Builder) roleChangeNote(d *frame.DiagramView, latest *raftcore.RoleChange, who string, x, y, w, h float64) float64 {
	text := b.Voice().RoleChange(who, latest.From, latest.To)
	why := words.Why(latest.Cause)
	if why != "" && b.Measure(text+" "+why, SizeSmall) <= w {
		text, why = text+" "+why, ""
	}
	d.Last = frame.TextItem{Text: text, X: x, Y: y + h, Size: SizeSmall, Tone: frame.ToneAccent}
	h += LineHeight(SizeSmall)
	if why != "" {
		d.Why = frame.TextItem{Text: why, X: x, Y: y + h, Size: SizeSmall, Tone: frame.ToneAccent}
		h += LineHeight(SizeSmall)
	}
	return h
}

// loop is the arrow from box f back to itself, over it, with its label
// above: between the labels of the arrows coming in from the left and
// going out to the right, which reach over the box's corners.
func (b *Builder) loop(f viz.Rect, gap float64, edges []roleEdge, boxOf map[raftcore.Role]viz.Rect) ([]viz.Point, frame.TextItem) {
	lo, hi := f.X, f.Right()
	for _, e := range edges {
		if e.from == e.to {
			continue
		}
		half := b.Measure(words.RoleEdge(e.from, e.to), labelSize) / 2
		switch {
		case boxOf[e.to] == f && boxOf[e.from].Right() < f.X:
			lo = max(lo, f.X-gap/2+half+2)
		case boxOf[e.from] == f && boxOf[e.to].X > f.Right():
			hi = min(hi, f.Right()+gap/2-half-2)
		}
	}
	cx, r := (lo+hi)/2, min(7, (hi-lo)/2-1)
	if hi <= lo {
		cx, r = f.X+f.W*0.5, 7
	}
	path := []viz.Point{{X: cx - r, Y: f.Y}, {X: cx - r, Y: f.Y - 11}, {X: cx + r, Y: f.Y - 11}, {X: cx + r, Y: f.Y}}
	return path, frame.TextItem{X: cx, Y: f.Y - 19, Size: labelSize, Tone: frame.ToneMuted, Center: true}
}

// labelSize is the size of the arrows' labels, and roleGap the room
// between two boxes.
const (
	labelSize    = SizeSmall - 3
	roleNameSize = SizeSmall - 1
	roleGap      = 22.0
	// roleGapNarrow still leaves an arrowhead's length between two boxes.
	roleGapNarrow = 14.0
)

// backEdges are the edges back to a lower role (to the follower), in
// order: the first runs nearest the boxes.
func backEdges(edges []roleEdge) []roleEdge {
	var out []roleEdge
	for _, e := range edges {
		if e.from != e.to && e.to < e.from {
			out = append(out, e)
		}
	}
	return out
}

// roleMembers names the running machines in each role. A paused machine
// is in none: its role is a belief frozen when it stopped (pausedRoles).
func (b *Builder) roleMembers() map[raftcore.Role]string {
	w := b.World()
	out := map[raftcore.Role]string{}
	for i := 1; i <= w.Size(); i++ {
		id := raftcore.NodeID(i)
		if w.Status(id) != raftcore.StatusUp {
			continue
		}
		r := w.Node(id).Role()
		if out[r] != "" {
			out[r] += " "
		}
		out[r] += b.cfg().Name(id)
	}
	return out
}

// lastRoleChange is the latest role transition the trace still holds, and
// the name of the machine that made it.
func (b *Builder) lastRoleChange() (*raftcore.RoleChange, string) {
	tr := b.World().Trace()
	for k := len(tr) - 1; k >= 0; k-- {
		e := tr[k]
		// A machine starting as a follower follows no arrow of the diagram.
		if e.Kind != raftcore.TraceRole || e.FromRole == raftcore.RoleFollower && e.ToRole == raftcore.RoleFollower {
			continue
		}
		return &raftcore.RoleChange{From: e.FromRole, To: e.ToRole, Term: e.Term, Cause: e.Cause}, b.cfg().Name(e.Node)
	}
	return nil, ""
}

// pausedRoles says, for each paused machine, the role it still believes
// it has, as lines under the diagram.
func (b *Builder) pausedRoles() []string {
	w := b.World()
	var out []string
	for i := 1; i <= w.Size(); i++ {
		id := raftcore.NodeID(i)
		if w.Status(id) == raftcore.StatusPaused {
			n := w.Node(id)
			out = append(out, words.PausedInRole(b.cfg().Name(id), b.Voice().RoleWord(n.Role()), n.Term()))
		}
	}
	return out
}
