package app

import (
	"strings"

	"raftlab/raftcore"
	"raftlab/viz"
)

// zoneMode says what the zones of a zone layout stand for.
type zoneMode uint8

const (
	zonesNone      zoneMode = iota // a ring
	zonesPartition                 // the sides of a clean network partition
	zonesWorld                     // the world's failure domains (raftcore zones)
)

// layoutKey is everything the layout depends on; the layout is recomputed
// only when it changes.
type layoutKey struct {
	w, h    float64
	n       int
	panels  bool
	active  viz.PanelKind
	zones   string
	count   int
	buttons string
	words   string // names and caption word
}

// dropShort is an empty zone's label when the long one does not fit.
const dropShort = "Drop here"

// captionWord is the widest word a machine's first line under its disc
// may say (a role of the protocol, or Crashed or Paused), and the widest
// of their short forms.
func (a *App) captionWord() (word, short string) {
	roles := []raftcore.Role{raftcore.RoleFollower, raftcore.RoleCandidate, raftcore.RoleLeader}
	switch a.cfg().Protocol {
	case raftcore.ProtocolNaiveCopy:
		roles = []raftcore.Role{raftcore.RoleReplica}
	case raftcore.ProtocolFailover:
		roles = []raftcore.Role{raftcore.RoleLeader, raftcore.RoleFollower}
	default:
		if a.cfg().PreVote {
			roles = append(roles, raftcore.RolePreCandidate)
		}
	}
	words := []string{"Crashed", "Paused"}
	for _, r := range roles {
		words = append(words, capital(a.roleWord(r)))
	}
	for _, w := range words {
		if a.measure(w, sizeSmall) > a.measure(word, sizeSmall) {
			word = w
		}
		if s := shortWord(w); a.measure(s, sizeSmall) > a.measure(short, sizeSmall) {
			short = s
		}
	}
	return word, short
}

// shortLetters is how many letters a role word keeps in its short form.
const shortLetters = 8

// shortWord is the short form of a role word that is too wide for the
// room under a crowded machine: its first letters and a full stop
// ("Pre-cand."). Short words are their own short form.
func shortWord(w string) string {
	r := []rune(w)
	if len(r) <= shortLetters+1 {
		return w
	}
	return string(r[:shortLetters]) + "."
}

// fitRole is the role line that fits room at size: the line itself, else
// the short form of its role word, else nothing (the machine's shape and
// colour still say its role), so that no word runs into a neighbour.
func (a *App) fitRole(line string, room, size float64) string {
	if a.measure(line, size) <= room+1e-6 {
		return line
	}
	if s := shortWord(line); a.measure(s, size) <= room+1e-6 {
		return s
	}
	return ""
}

// touchLayout recomputes the layout when its inputs changed. The cluster
// is a ring, or zones: one per side when the network is cleanly split (so
// a partition is seen at a glance), or the scenario's failure domains.
func (a *App) touchLayout() {
	if a.session == nil {
		return
	}
	n := a.World().Size()
	a.zones, a.groups, a.zoneFor = nil, nil, zonesNone
	count := 0
	if w := a.World(); w.HasZones() {
		a.zones, a.zoneFor = make([]int, n), zonesWorld
		for i := range a.zones {
			a.zones[i] = w.ZoneOf(nodeID(i))
		}
		count = len(w.Config().Zones)
	} else if gs := cleanPartition(a.World()); len(gs) >= 2 && len(gs) <= viz.MaxZones {
		gs = keepSides(gs, a.zoneMemo)
		a.groups, a.zoneFor = gs, zonesPartition
		a.zones = make([]int, n)
		for z, g := range gs {
			for _, i := range g {
				a.zones[i] = z
			}
		}
		// An empty zone to drop a machine in makes a further split one
		// gesture; on a narrow canvas only where it leaves every word its
		// room (see below).
		count = min(len(gs)+1, viz.MaxZones)
		if a.figure() && a.w < 600 {
			// A figure on a phone has a small stage and its own story:
			// no room for a zone that waits for a drop.
			count = len(gs)
		}
	}
	a.zoneMemo = nil
	if a.zoneFor == zonesPartition {
		a.zoneMemo = a.zones
	}
	buttons := a.toolbarCommands()
	// An embedded app keeps room for its words: a column on the right of
	// a wide canvas, else a strip at the bottom.
	w, h := a.w, a.h
	switch {
	case a.figure():
		g := a.figureGeom()
		w, h = g.stage.W, g.stage.H
	case a.params.Embed:
		if cw := a.captionColumn(); cw > 0 {
			w = a.w - cw
		} else {
			h = max(a.h-a.captionHeight(), min(a.h, 200))
		}
	}
	names := make([]string, n)
	for i := range names {
		names[i] = a.cfg().Name(nodeID(i))
	}
	caption, short := a.captionWord()
	key := layoutKey{w: w, h: h, n: n, panels: !a.params.Embed, active: a.view.Tab(), count: count, buttons: commandsKey(buttons),
		words: strings.Join(names, "\x00") + "\x00" + caption}
	for _, z := range a.zones {
		key.zones += string(rune('0' + z))
	}
	if key == a.layKey {
		return
	}
	a.layKey = key
	o := viz.LayoutOptions{Width: w, Height: h, Nodes: n, Panels: key.panels, Active: a.view.Tab(), Buttons: buttons,
		Names: names, Caption: caption, Short: short, Drop: dropShort, Count: "9 of 9", Measure: a.measure}
	if a.zones != nil {
		o.Zones, o.ZoneCount = a.zones, count
	}
	a.lay = viz.ComputeLayout(o)
	if a.zoneFor == zonesPartition && count > len(a.groups) && a.w < 600 && (!a.lay.WordsFit || a.lay.CaptionShort) {
		// On a phone the drop zone gives way to the words.
		o.ZoneCount = len(a.groups)
		if l := viz.ComputeLayout(o); l.WordsFit && (!a.lay.WordsFit || !l.CaptionShort) {
			a.lay = l
		}
	}
	if a.figure() {
		// A figure's controls take the toolbar's and the timeline's
		// strips; it has no speed slider and no timeline.
		a.figBars = [2]viz.Rect{a.lay.Toolbar, a.lay.Timeline}
		a.lay.Speed, a.lay.Timeline = viz.Rect{}, viz.Rect{}
	}
	a.changed()
}

func commandsKey(cs []viz.Command) string {
	b := make([]byte, len(cs))
	for i, c := range cs {
		b[i] = byte('a' + int(c))
	}
	return string(b)
}

// toolbarCommands are the toolbar's buttons. A narrow screen keeps the
// ones a finger needs and leaves room for the menu button; the keys still
// do the rest.
func (a *App) toolbarCommands() []viz.Command {
	if a.figure() {
		return []viz.Command{}
	}
	if a.params.Embed {
		return a.embedCommands()
	}
	if a.w < 560 {
		return []viz.Command{viz.CmdPlayPause, viz.CmdStepBack, viz.CmdStep, viz.CmdClientWrite, viz.CmdHeal, viz.CmdResumeAll, viz.CmdHelp}
	}
	return viz.DefaultToolbar()
}

// embedCommands are the few buttons an embedded figure keeps: time, a
// client write and healing; the figure's own controls sit in its caption.
func (a *App) embedCommands() []viz.Command {
	return []viz.Command{viz.CmdPlayPause, viz.CmdStepBack, viz.CmdStep, viz.CmdClientWrite, viz.CmdHeal, viz.CmdHelp}
}

// cleanPartition returns the sides of the network when it is cleanly
// split: within a side every link is up both ways and between sides every
// link is down both ways. Sides hold layout indexes and come in the order
// of their first machine. Anything else (one-way cuts, single links)
// gives nil.
func cleanPartition(w *raftcore.World) [][]int {
	n := w.Size()
	side := make([]int, n)
	for i := range side {
		side[i] = -1
	}
	var groups [][]int
	for i := 0; i < n; i++ {
		if side[i] >= 0 {
			continue
		}
		g := len(groups)
		side[i] = g
		members := []int{i}
		for j := i + 1; j < n; j++ {
			if side[j] < 0 && w.Link(nodeID(i), nodeID(j)).Up && w.Link(nodeID(j), nodeID(i)).Up {
				side[j] = g
				members = append(members, j)
			}
		}
		groups = append(groups, members)
	}
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if i != j && w.Link(nodeID(i), nodeID(j)).Up != (side[i] == side[j]) {
				return nil
			}
		}
	}
	if len(groups) < 2 {
		return nil
	}
	return groups
}

// keepSides orders the sides of a partition so that each stays in the
// zone most of its machines were in before (memo holds each machine's
// previous zone): a machine dragged to the right goes right, and the
// others stay put.
func keepSides(gs [][]int, memo []int) [][]int {
	if memo == nil {
		return gs
	}
	out := make([][]int, len(gs))
	// Larger sides choose first.
	order := make([]int, len(gs))
	for i := range order {
		order[i] = i
	}
	for i := 1; i < len(order); i++ {
		for j := i; j > 0 && len(gs[order[j]]) > len(gs[order[j-1]]); j-- {
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
	var left []int
	for _, g := range order {
		votes := make([]int, viz.MaxZones)
		for _, i := range gs[g] {
			if i < len(memo) && memo[i] >= 0 && memo[i] < len(votes) {
				votes[memo[i]]++
			}
		}
		best := -1
		for z, v := range votes {
			if v > 0 && z < len(out) && out[z] == nil && (best < 0 || v > votes[best]) {
				best = z
			}
		}
		if best < 0 {
			left = append(left, g)
			continue
		}
		out[best] = gs[g]
	}
	for _, g := range left {
		for z := range out {
			if out[z] == nil {
				out[z] = gs[g]
				break
			}
		}
	}
	return out
}

// partitionAction writes groups of layout indexes as a partition action,
// or a heal when there is only one group left.
func partitionAction(groups [][]int) raftcore.Action {
	var gs [][]int
	for _, g := range groups {
		if len(g) == 0 {
			continue
		}
		ids := make([]int, len(g))
		for k, i := range g {
			ids[k] = i + 1
		}
		gs = append(gs, ids)
	}
	if len(gs) < 2 {
		return raftcore.Action{Do: raftcore.DoHeal}
	}
	return raftcore.Action{Do: raftcore.DoPartition, Groups: gs}
}

// isolate cuts machine i off from every other machine. When the rest of
// the network is whole this is one partition action; otherwise each of
// its links is cut, so that other cuts stay as they are.
func (a *App) isolate(i int) error {
	w := a.World()
	n := w.Size()
	whole := true
	for x := 0; x < n && whole; x++ {
		for y := 0; y < n; y++ {
			if x != y && x != i && y != i && !w.Link(nodeID(x), nodeID(y)).Up {
				whole = false
				break
			}
		}
	}
	name := a.cfg().Name(nodeID(i))
	if whole {
		var rest []int
		for x := 0; x < n; x++ {
			if x != i {
				rest = append(rest, x)
			}
		}
		if err := a.act(partitionAction([][]int{rest, {i}})); err != nil {
			return err
		}
	} else {
		var xs []raftcore.Action
		for x := 0; x < n; x++ {
			if x != i && (w.Link(nodeID(i), nodeID(x)).Up || w.Link(nodeID(x), nodeID(i)).Up) {
				xs = append(xs, raftcore.Action{Do: raftcore.DoCut, From: i + 1, To: x + 1})
			}
		}
		if err := a.actAll(xs); err != nil {
			return err
		}
	}
	a.note(name + " is cut off from every other machine. Drag it back, or press heal, to reconnect it.")
	return nil
}

// reconnect restores every link of machine i.
func (a *App) reconnect(i int) error {
	w := a.World()
	var xs []raftcore.Action
	for x := 0; x < w.Size(); x++ {
		if x != i && (!w.Link(nodeID(i), nodeID(x)).Up || !w.Link(nodeID(x), nodeID(i)).Up) {
			xs = append(xs, raftcore.Action{Do: raftcore.DoRestore, From: i + 1, To: x + 1})
		}
	}
	if len(xs) == 0 {
		return nil
	}
	if err := a.actAll(xs); err != nil {
		return err
	}
	a.note(a.cfg().Name(nodeID(i)) + " is connected again.")
	return nil
}

// isolated reports whether machine i hears nobody and nobody hears it.
func (a *App) isolated(i int) bool {
	w := a.World()
	if w.Size() < 2 {
		return false
	}
	for x := 0; x < w.Size(); x++ {
		if x != i && (w.Link(nodeID(i), nodeID(x)).Up || w.Link(nodeID(x), nodeID(i)).Up) {
			return false
		}
	}
	return true
}

// moveToZone moves machine i to side z of a partition (z may be the empty
// zone, making a new side).
func (a *App) moveToZone(i, z int) error {
	if a.zoneFor == zonesWorld {
		return a.moveToWorldZone(i, z)
	}
	if a.zoneFor != zonesPartition {
		return nil
	}
	groups := make([][]int, max(len(a.groups), z+1))
	for g := range a.groups {
		for _, x := range a.groups[g] {
			if x != i {
				groups[g] = append(groups[g], x)
			}
		}
	}
	groups[z] = append(groups[z], i)
	x := partitionAction(groups)
	if err := a.act(x); err != nil {
		return err
	}
	if x.Do == raftcore.DoHeal {
		a.note("Every machine is on one side again: the network is whole.")
	} else {
		a.note(describeAction(*a.cfg(), x))
	}
	return nil
}
