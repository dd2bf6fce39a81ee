package app

import (
	"fmt"

	"raftlab/raftcore"
	"raftlab/viz/app/command"
	"raftlab/viz/words"
)

// A world with zones (raftcore.Config.Zones) is drawn as one box per
// zone with its machines inside. A machine dragged onto another zone
// moves there (a recorded "move"); a tap on a zone's label opens its
// menu, where the whole zone is lost or cut off with one press.

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
	a.note(words.Action(*a.cfg(), x) + ".")
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
	a.note(words.Action(*a.cfg(), x) + ": its links to that zone are short now, the others long.")
	return nil
}
