package app

import (
	"fmt"
	"strconv"
	"strings"

	"raftlab/raftcore"
	"raftlab/viz"
	"raftlab/viz/app/command"
	"raftlab/viz/frame"
	"raftlab/viz/words"
)

// A world with zones (raftcore.Config.Zones) is drawn as one box per
// zone with its machines inside. A machine dragged onto another zone
// moves there (a recorded "move"); a tap on a zone's label opens its
// menu, where the whole zone is lost or cut off with one press.

// zoneHint tells the reader of a world with zones the gestures it takes.
const (
	zoneHint      = "Drag a machine onto another zone to move it; click a zone's name to lose it or cut it off."
	zoneHintTouch = "Drag a machine onto another zone to move it; tap a zone's name to lose it or cut it off."
)

// zoneState is what has happened to a zone as a whole.
type zoneState struct {
	lost    bool // every machine in it is crashed
	cut     bool // every link across its border is down, both ways
	crashed int  // machines in it that are crashed
}

// zoneStateOf reads zone z's state from the world.
func (a *App) zoneStateOf(z int) zoneState {
	w := a.World()
	members := w.ZoneMembers(z)
	var s zoneState
	for _, m := range members {
		if w.Status(m) == raftcore.StatusCrashed {
			s.crashed++
		}
	}
	s.lost = len(members) > 0 && s.crashed == len(members)
	border := 0
	s.cut = true
	for _, m := range members {
		for x := 1; x <= w.Size(); x++ {
			o := raftcore.NodeID(x)
			if w.ZoneOf(o) == z {
				continue
			}
			border++
			if w.Link(m, o).Up || w.Link(o, m).Up {
				s.cut = false
			}
		}
	}
	s.cut = s.cut && border > 0
	return s
}

// worldZoneLabel is the label of a zone of the world: its name, how many
// machines it holds and whether it is lost or cut off, in the longest
// wording that fits.
func (a *App) worldZoneLabel(z viz.Zone, members []int, x, y float64) (frame.TextItem, frame.Tone) {
	name := z.Name
	if z.Index < len(a.cfg().Zones) {
		name = a.cfg().Zones[z.Index].Name
	}
	st := a.zoneStateOf(z.Index)
	tone, state := frame.ToneMuted, ""
	switch {
	case st.lost:
		tone, state = frame.ToneBad, "lost"
	case st.cut:
		tone, state = frame.ToneWarn, "cut off"
	}
	n := a.World().Size()
	counted := name + " · " + words.Itoa(len(members)) + " of " + words.Itoa(n)
	options := []string{counted, name}
	if state != "" {
		options = []string{counted + ", " + state, name + ", " + state, name}
	}
	text := options[len(options)-1]
	for _, t := range options {
		if a.measure(t, sizeSmall) <= z.Label.W-8 {
			text = t
			break
		}
	}
	return frame.TextItem{Text: text, X: x, Y: y, Size: sizeSmall, Tone: tone, Bold: true}, tone
}

// zoneMenu writes zone z's menu: lose it or bring it back, cut it off or
// reconnect it.
func (a *App) zoneMenu(wr *writer, z int, labelW float64) (string, viz.Point, bool) {
	w := a.World()
	if z < 0 || z >= len(a.cfg().Zones) || z >= len(a.lay().Zones) {
		return "", viz.Point{}, false
	}
	name := a.cfg().Zones[z].Name
	members := w.ZoneMembers(z)
	st := a.zoneStateOf(z)
	about := "No machines."
	if len(members) > 0 {
		names := make([]string, len(members))
		for i, m := range members {
			names[i] = a.cfg().Name(m)
		}
		about = words.Capital(words.Count(len(members), "machine", "machines")) + ": " + strings.Join(names, ", ") + "."
	}
	wr.text(about, sizeSmall, frame.ToneMuted, false)
	wr.gap(2)
	do := func(verb string) string { return "zone " + strconv.Itoa(z+1) + " " + verb }
	var power []frame.Widget
	if len(members) > st.crashed {
		power = append(power, button("zone.crash", "Lose it", do("crash")))
	}
	if st.crashed > 0 {
		power = append(power, button("zone.restart", "Bring it back", do("restart")))
	}
	if len(power) > 0 {
		wr.row("Whole zone", labelW, power...)
	}
	if st.cut {
		wr.row("Network", labelW, button("zone.heal", "Reconnect", do("heal")))
	} else {
		wr.row("Network", labelW, button("zone.cut", "Cut off", do("cut")))
	}
	wr.text("Drag a machine onto another zone to move it there.", sizeSmall, frame.ToneMuted, false)
	lb := a.lay().Zones[z].Label
	title := name
	if !strings.Contains(strings.ToLower(name), "zone") {
		title = "Zone " + name
	}
	return title, viz.Point{X: lb.X + lb.W/2 - a.lay().NodeRadius - 12, Y: lb.Bottom()}, true
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
