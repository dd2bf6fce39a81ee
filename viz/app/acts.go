package app

import (
	"fmt"
	"raftlab/raftcore"
	"raftlab/viz"
	"raftlab/viz/app/command"
	"raftlab/viz/app/stage"
	"raftlab/viz/words"
)

// A world with zones (raftcore.Config.Zones) is drawn as one box per
// zone with its machines inside. A machine dragged onto another zone
// moves there (a recorded "move"); a tap on a zone's label opens its
// menu, where the whole zone is lost or cut off with one press.

// actOnMachine carries out an item of a machine's menu.
func (a *App) actOnMachine(in command.ActOnMachine) error {
	worker := a.cfg().IsWorker(raftcore.NodeID(in.Node + 1))
	if in.Node < 0 || in.Node >= a.World().Size() && !worker {
		return fmt.Errorf("there is no machine %d", in.Node+1)
	}
	x := raftcore.Action{Do: in.Verb, Node: in.Node + 1}
	if worker && !workerVerb(in.Verb) {
		return fmt.Errorf("a worker's menu cannot %s", in.Verb)
	}
	switch in.Verb {
	case raftcore.DoPause, raftcore.DoResume, raftcore.DoCrash, raftcore.DoRestart, raftcore.DoTimeout:
	case raftcore.DoSlow:
		x.MsPerMessage = in.Value
	case raftcore.DoDrift:
		x.Rate = in.Value
	case raftcore.DoWrite:
		return a.act(a.nextWrite(in.Node))
	case raftcore.DoRead:
		x.Key, x.Mode = a.session.QuestionKey(), in.Mode
		if x.Mode == "" {
			x.Mode = a.view.ReadMode()
		}
		return a.act(x)
	default:
		return fmt.Errorf("a machine's menu cannot %s", in.Verb)
	}
	if err := a.act(x); err != nil {
		return err
	}
	a.note(a.voice().Note(x))
	return nil
}

// workerVerb reports whether a worker machine's menu offers v: a worker
// runs no Raft, so it has no timeout, no client of the lab's and no
// Raft messages; it can crash and restart, pause and resume, be slow to
// handle the answers its kubelet gets, and its clock can drift.
func workerVerb(v raftcore.Verb) bool {
	switch v {
	case raftcore.DoPause, raftcore.DoResume, raftcore.DoCrash, raftcore.DoRestart, raftcore.DoSlow, raftcore.DoDrift:
		return true
	}
	return false
}

// actOnLink carries out an item of a link's menu.
func (a *App) actOnLink(in command.ActOnLink) error {
	x := raftcore.Action{Do: in.Verb, From: in.Link.I + 1, To: in.Link.J + 1}
	switch in.Verb {
	case raftcore.DoCut, raftcore.DoRestore:
		x.OneWay = in.OneWay
		if in.OneWay && in.Back {
			x.From, x.To = x.To, x.From
		}
	case raftcore.DoLatency:
		x.LatencyMs = []float64{in.LatencyMs[0], in.LatencyMs[1]}
	case raftcore.DoLoss:
		loss := in.Loss
		x.Loss = &loss
	default:
		return fmt.Errorf("a link's menu cannot %s", in.Verb)
	}
	if err := a.act(x); err != nil {
		return err
	}
	a.note(a.voice().Note(x))
	return nil
}

// cutLinks cuts the crossed links, or restores them when the first one
// crossed was already cut: drawing across a cut link heals it.
func (a *App) cutLinks(ids []viz.LinkID) error {
	if len(ids) == 0 {
		return nil
	}
	w := a.World()
	first := ids[0]
	restore := !w.Link(nodeID(first.I), nodeID(first.J)).Up || !w.Link(nodeID(first.J), nodeID(first.I)).Up
	var xs []raftcore.Action
	for _, id := range ids {
		up := w.Link(nodeID(id.I), nodeID(id.J)).Up && w.Link(nodeID(id.J), nodeID(id.I)).Up
		switch {
		case restore && !up:
			xs = append(xs, raftcore.Action{Do: raftcore.DoRestore, From: id.I + 1, To: id.J + 1})
		case !restore && up:
			xs = append(xs, raftcore.Action{Do: raftcore.DoCut, From: id.I + 1, To: id.J + 1})
		}
	}
	if err := a.actAll(xs); err != nil {
		return err
	}
	if len(xs) > 0 {
		a.note(words.CutNote(*a.cfg(), xs))
	}
	return nil
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
	if i < 0 || i >= n {
		return fmt.Errorf("isolate: there is no member %d: cut a worker machine's links instead", i+1)
	}
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
	a.note(words.Isolated(name))
	return nil
}

// reconnect restores every link of machine i.
func (a *App) reconnect(i int) error {
	w := a.World()
	if i < 0 || i >= w.Size() {
		return fmt.Errorf("reconnect: there is no member %d: restore a worker machine's links instead", i+1)
	}
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
	a.note(words.Reconnected(a.cfg().Name(nodeID(i))))
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
		a.note(words.NetworkWhole)
	} else {
		a.note(a.voice().Action(x))
	}
	return nil
}

// moveToWorldZone moves machine i to zone z of the world.
func (a *App) moveToWorldZone(i, z int) error {
	w := a.World()
	if i < 0 || i >= w.Size() || z < 0 || z >= len(a.cfg().Zones) {
		return fmt.Errorf("there is no machine %d or zone %d", i+1, z+1)
	}
	if w.ZoneOf(nodeID(i)) == z {
		return nil
	}
	x := raftcore.Action{Do: raftcore.DoMove, Node: i + 1, Zone: a.cfg().Zones[z].Name}
	if err := a.act(x); err != nil {
		return err
	}
	a.note(words.Moved(*a.cfg(), x))
	return nil
}

// actOnZone carries out an item of a zone's menu.
func (a *App) actOnZone(in command.ActOnZone) error {
	if in.Zone < 0 || in.Zone >= len(a.cfg().Zones) {
		return fmt.Errorf("there is no zone %d", in.Zone+1)
	}
	switch in.Verb {
	case raftcore.DoZoneCrash, raftcore.DoZoneRestart, raftcore.DoZoneCut, raftcore.DoZoneHeal:
	default:
		return fmt.Errorf("a zone's menu cannot %s", in.Verb)
	}
	x := raftcore.Action{Do: in.Verb, Zone: a.cfg().Zones[in.Zone].Name}
	if err := a.act(x); err != nil {
		return err
	}
	a.note(a.voice().Note(x))
	return nil
}
