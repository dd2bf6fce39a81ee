package app

import (
	"raftlab/raftcore"
	"raftlab/viz"
	"raftlab/viz/app/stage"
	"raftlab/viz/words"
)

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
	said := []string{"Crashed", "Paused"}
	for _, r := range roles {
		said = append(said, words.Capital(a.voice().RoleWord(r)))
	}
	for _, w := range said {
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

// touchLayout lays the stage out again when what it depends on changed:
// the canvas, the machines and their words, the toolbar, the panel in
// front, an embedded figure's words, and the zones the cluster is drawn
// in (the world's failure domains, or the sides of a clean partition).
func (a *App) touchLayout() {
	if a.session == nil {
		return
	}
	w := a.World()
	in := stage.Input{W: a.stage.W(), H: a.stage.H(), Names: a.machineNames(), Buttons: a.toolbarCommands(),
		Panels: !a.params.Embed, Tab: a.view.Tab(), Figure: a.figure(), Measure: a.measure}
	in.Caption, in.Short = a.captionWord()
	if w.HasZones() {
		in.WorldZones = make([]int, w.Size())
		for i := range in.WorldZones {
			in.WorldZones[i] = w.ZoneOf(nodeID(i))
		}
		in.ZoneCount = len(w.Config().Zones)
	} else {
		in.Sides = a.session.Sides()
	}
	// An embedded app keeps room for its words: a column on the right of
	// a wide canvas, else a strip at the bottom.
	switch {
	case a.figure():
		g := a.figureGeom()
		in.W, in.H = g.Stage.W, g.Stage.H
	case a.params.Embed:
		if cw := a.captionColumn(); cw > 0 {
			in.W -= cw
		} else {
			in.H = max(in.H-a.captionHeight(), min(in.H, 200))
		}
	}
	if a.stage.Fit(in) {
		a.changed()
	}
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
	if a.stage.W() < 560 {
		return []viz.Command{viz.CmdPlayPause, viz.CmdStepBack, viz.CmdStep, viz.CmdClientWrite, viz.CmdHeal, viz.CmdResumeAll, viz.CmdHelp}
	}
	return viz.DefaultToolbar()
}

// embedCommands are the few buttons an embedded figure keeps: time, a
// client write and healing; the figure's own controls sit in its caption.
func (a *App) embedCommands() []viz.Command {
	return []viz.Command{viz.CmdPlayPause, viz.CmdStepBack, viz.CmdStep, viz.CmdClientWrite, viz.CmdHeal, viz.CmdHelp}
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

// moveToZone moves machine i to side z of a partition (z may be the empty
// zone, making a new side).
func (a *App) moveToZone(i, z int) error {
	if a.stage.Mode() == stage.ZonesWorld {
		return a.moveToWorldZone(i, z)
	}
	if a.stage.Mode() != stage.ZonesPartition {
		return nil
	}
	groups := make([][]int, max(len(a.stage.Sides()), z+1))
	for g := range a.stage.Sides() {
		for _, x := range a.stage.Sides()[g] {
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
		a.note(words.Action(*a.cfg(), x))
	}
	return nil
}
