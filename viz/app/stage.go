package app

import (
	"raftlab/raftcore"
	"raftlab/viz/app/stage"
	"raftlab/viz/words"
)

// touchLayout lays the stage out again when what it depends on changed:
// the canvas, the machines and their words, the toolbar, the panel in
// front, an embedded figure's words, and the zones the cluster is drawn
// in (the world's failure domains, or the sides of a clean partition).
func (a *App) touchLayout() {
	if a.session != nil && a.stage.Fit(a.builder.StageInput(a.parts())) {
		a.changed()
	}
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
