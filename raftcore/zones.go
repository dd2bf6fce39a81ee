package raftcore

import (
	"fmt"
	"strings"
)

// Zones are failure domains: a machine sits in one zone, and a zone can be
// lost or cut off as a whole, the way a data centre loses power or its
// uplink. Links inside a zone keep the network's default latency; links
// between zones take Config.CrossZoneLatencyMs, so spreading members over
// zones costs commit latency.

// Zone is one failure domain and the machines placed in it.
type Zone struct {
	Name  string `json:"name"`
	Nodes []int  `json:"nodes"`
}

// MinZones and MaxZones bound how many zones a world has when it has any.
const (
	MinZones = 2
	MaxZones = 3
)

// maxZoneName bounds a zone's name, which is drawn on the stage.
const maxZoneName = 16

// validateZones checks the zones of c: 2 to 3 zones with distinct names,
// every machine in exactly one, and cross-zone latency no faster than
// in-zone latency.
func (c Config) validateZones() error {
	if len(c.Zones) == 0 {
		if c.CrossZoneLatencyMs != nil {
			return fmt.Errorf("cross_zone_latency_ms: set without zones; add \"zones\" or leave it out")
		}
		return nil
	}
	if len(c.Zones) < MinZones || len(c.Zones) > MaxZones {
		return fmt.Errorf("zones: %d zones given; use %d to %d", len(c.Zones), MinZones, MaxZones)
	}
	zoneOf := make([]int, c.Nodes+1)
	for zi, z := range c.Zones {
		switch {
		case z.Name == "":
			return fmt.Errorf("zones[%d].name: missing; give each zone a name, e.g. \"east\"", zi)
		case len(z.Name) > maxZoneName || strings.ContainsAny(z.Name, " \t\n"):
			return fmt.Errorf("zones[%d].name: %q must be one word of at most %d characters", zi, z.Name, maxZoneName)
		}
		for zj := 0; zj < zi; zj++ {
			if c.Zones[zj].Name == z.Name {
				return fmt.Errorf("zones[%d].name: %q is also the name of zones[%d]", zi, z.Name, zj)
			}
		}
		for _, id := range z.Nodes {
			if id < 1 || id > c.Nodes {
				return fmt.Errorf("zones[%d].nodes: machine %d is out of range: use 1 to %d", zi, id, c.Nodes)
			}
			if zoneOf[id] != 0 {
				return fmt.Errorf("zones[%d].nodes: machine %d is already in zone %q; a machine sits in one zone", zi, id, c.Zones[zoneOf[id]-1].Name)
			}
			zoneOf[id] = zi + 1
		}
	}
	for id := 1; id <= c.Nodes; id++ {
		if zoneOf[id] == 0 {
			return fmt.Errorf("zones: machine %d is in no zone; with zones every machine sits in one", id)
		}
	}
	if l := c.CrossZoneLatencyMs; l != nil {
		switch {
		case len(l) != 2 || l[0] < 0 || l[1] < l[0] || l[1] > 60000:
			return fmt.Errorf("cross_zone_latency_ms: want [min, max] with 0 <= min <= max <= 60000, got %v", l)
		case l[0] < c.LatencyMinMs || l[1] < c.LatencyMaxMs:
			return fmt.Errorf("cross_zone_latency_ms: [%g, %g] is faster than the in-zone latency [%g, %g]; links between zones are the long ones", l[0], l[1], c.LatencyMinMs, c.LatencyMaxMs)
		}
	}
	return nil
}

// ZoneIndex is the index of the zone named name in c.Zones, or -1.
func (c Config) ZoneIndex(name string) int {
	for i, z := range c.Zones {
		if z.Name == name {
			return i
		}
	}
	return -1
}

// zoneNames lists c's zones for error messages.
func (c Config) zoneNames() string {
	names := make([]string, len(c.Zones))
	for i, z := range c.Zones {
		names[i] = z.Name
	}
	return strings.Join(names, ", ")
}

// validateZoneAction checks that a zone action names a zone of c.
func (a Action) validateZoneAction(c Config) error {
	if !a.Do.zoneVerb() {
		return nil
	}
	if len(c.Zones) == 0 {
		return fmt.Errorf("zone: %s needs zones, and this world has none; add \"zones\" to the schedule", a.Do)
	}
	if c.ZoneIndex(a.Zone) < 0 {
		return fmt.Errorf("zone: unknown zone %q; the zones are %s", a.Zone, c.zoneNames())
	}
	return nil
}

// zoneVerb reports whether v acts on a zone (and so needs Action.Zone).
func (v Verb) zoneVerb() bool {
	switch v {
	case DoZoneCut, DoZoneHeal, DoZoneCrash, DoZoneRestart, DoMove:
		return true
	}
	return false
}

// initZones places the machines in their configured zones and gives each
// link its in-zone or cross-zone latency.
func (w *World) initZones() {
	if len(w.cfg.Zones) == 0 {
		return
	}
	w.zoneOf = make([]int, w.cfg.Nodes+1)
	for zi, z := range w.cfg.Zones {
		for _, id := range z.Nodes {
			w.zoneOf[id] = zi
		}
	}
	for i := 1; i <= w.cfg.Nodes; i++ {
		w.setZoneLatency(i)
	}
}

// setZoneLatency gives every link of machine i the latency its and its
// peer's zones call for.
func (w *World) setZoneLatency(i int) {
	in := [2]int64{msToUs(w.cfg.LatencyMinMs), msToUs(w.cfg.LatencyMaxMs)}
	cross := in
	if l := w.cfg.CrossZoneLatencyMs; len(l) == 2 {
		cross = [2]int64{msToUs(l[0]), msToUs(l[1])}
	}
	for j := 1; j <= w.cfg.Nodes; j++ {
		if j == i {
			continue
		}
		lat := cross
		if w.zoneOf[i] == w.zoneOf[j] {
			lat = in
		}
		for _, l := range []*Link{&w.links[i][j], &w.links[j][i]} {
			l.LatencyMinUs, l.LatencyMaxUs = lat[0], lat[1]
		}
	}
}

// HasZones reports whether the world's machines are placed in zones.
func (w *World) HasZones() bool { return w.zoneOf != nil }

// ZoneOf is the index (into Config().Zones) of the zone machine id sits in
// now, or -1 in a world without zones.
func (w *World) ZoneOf(id NodeID) int {
	if w.zoneOf == nil {
		return -1
	}
	return w.zoneOf[id]
}

// Zones is the placement now: each configured zone with the machines in
// it, in id order. Machines move between zones with the "move" action.
func (w *World) Zones() []Zone {
	if w.zoneOf == nil {
		return nil
	}
	out := make([]Zone, len(w.cfg.Zones))
	for zi, z := range w.cfg.Zones {
		out[zi].Name = z.Name
		out[zi].Nodes = []int{}
	}
	for id := 1; id <= w.cfg.Nodes; id++ {
		z := w.zoneOf[id]
		out[z].Nodes = append(out[z].Nodes, id)
	}
	return out
}

// ZoneMembers lists the machines in zone z now, in id order.
func (w *World) ZoneMembers(z int) []NodeID {
	var out []NodeID
	for id := 1; id <= w.cfg.Nodes && w.zoneOf != nil; id++ {
		if w.zoneOf[id] == z {
			out = append(out, NodeID(id))
		}
	}
	return out
}

// applyZone performs a validated zone action.
func (w *World) applyZone(a Action) {
	z := w.cfg.ZoneIndex(a.Zone)
	switch a.Do {
	case DoZoneCut, DoZoneHeal:
		// Every link that crosses the zone's border, both ways; links
		// inside the zone and between other zones stay as they are.
		up := a.Do == DoZoneHeal
		for i := 1; i <= w.cfg.Nodes; i++ {
			for j := 1; j <= w.cfg.Nodes; j++ {
				if i != j && (w.zoneOf[i] == z) != (w.zoneOf[j] == z) {
					w.links[i][j].Up = up
				}
			}
		}
	case DoZoneCrash:
		for _, id := range w.ZoneMembers(z) {
			w.crash(id)
		}
	case DoZoneRestart:
		for _, id := range w.ZoneMembers(z) {
			w.restart(id)
		}
	case DoMove:
		w.zoneOf[a.Node] = z
		w.setZoneLatency(a.Node)
	}
}

// cloneZones copies zones deeply, so a world never shares its placement
// with the configuration it was built from.
func cloneZones(zs []Zone) []Zone {
	if zs == nil {
		return nil
	}
	out := make([]Zone, len(zs))
	for i, z := range zs {
		out[i] = Zone{Name: z.Name, Nodes: append([]int(nil), z.Nodes...)}
	}
	return out
}
