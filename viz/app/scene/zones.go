package scene

import (
	"strconv"

	"raftlab/raftcore"
	"raftlab/viz"
	"raftlab/viz/frame"
	"raftlab/viz/words"
)

// A world with zones (raftcore.Config.Zones) is drawn as one box per
// zone with its machines inside. A machine dragged onto another zone
// moves there (a recorded "move"); a tap on a zone's label opens its
// menu, where the whole zone is lost or cut off with one press.

// zoneState is what has happened to a zone as a whole.
type zoneState struct {
	lost    bool // every machine in it is crashed
	cut     bool // every link across its border is down, both ways
	crashed int  // machines in it that are crashed
}

// zoneStateOf reads zone z's state from the world.
func (b *Builder) zoneStateOf(z int) zoneState {
	w := b.World()
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
func (b *Builder) worldZoneLabel(z viz.Zone, members []int, x, y float64) (frame.TextItem, frame.Tone) {
	name := z.Name
	if z.Index < len(b.cfg().Zones) {
		name = b.cfg().Zones[z.Index].Name
	}
	st := b.zoneStateOf(z.Index)
	tone := frame.ToneMuted
	switch {
	case st.lost:
		tone = frame.ToneBad
	case st.cut:
		tone = frame.ToneWarn
	}
	options := words.ZoneLabels(name, len(members), b.World().Size(), st.lost, st.cut)
	text := options[len(options)-1]
	for _, t := range options {
		if b.Measure(t, SizeSmall) <= z.Label.W-8 {
			text = t
			break
		}
	}
	return frame.TextItem{Text: text, X: x, Y: y, Size: SizeSmall, Tone: tone, Bold: true}, tone
}

// zoneMenu writes zone z's menu: lose it or bring it back, cut it off or
// reconnect it.
func (b *Builder) zoneMenu(wr *writer, z int, labelW float64) (string, viz.Point, bool) {
	w := b.World()
	if z < 0 || z >= len(b.cfg().Zones) || z >= len(b.lay().Zones) {
		return "", viz.Point{}, false
	}
	name := b.cfg().Zones[z].Name
	members := w.ZoneMembers(z)
	st := b.zoneStateOf(z)
	names := make([]string, len(members))
	for i, m := range members {
		names[i] = b.cfg().Name(m)
	}
	wr.text(words.ZoneMembers(names), SizeSmall, frame.ToneMuted, false)
	wr.gap(2)
	do := func(verb string) string { return "zone " + strconv.Itoa(z+1) + " " + verb }
	var power []frame.Widget
	if len(members) > st.crashed {
		power = append(power, button("zone.crash", words.LoseZone, do("crash")))
	}
	if st.crashed > 0 {
		power = append(power, button("zone.restart", words.BringBack, do("restart")))
	}
	if len(power) > 0 {
		wr.row(words.RowWholeZone, labelW, power...)
	}
	if st.cut {
		wr.row(words.RowNetwork, labelW, button("zone.heal", words.Reconnect, do("heal")))
	} else {
		wr.row(words.RowNetwork, labelW, button("zone.cut", words.CutOff, do("cut")))
	}
	wr.text(words.ZoneMoveHint, SizeSmall, frame.ToneMuted, false)
	lb := b.lay().Zones[z].Label
	return words.ZoneTitle(name), viz.Point{X: lb.X + lb.W/2 - b.lay().NodeRadius - 12, Y: lb.Bottom()}, true
}
