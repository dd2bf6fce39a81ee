package scenarios

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"raftlab/raftcore"
)

// The figure failure-domains, from "Distributed systems fundamentals".
//
// Members sit in zones that fail as a whole. The figure loses each zone in
// turn and writes while it is gone: a placement survives when the members
// outside any one zone are still a majority. It also writes with every
// zone up, to show the price: a placement that survives a zone's loss has
// no majority inside one zone, so every write waits for a reply from
// another zone.

// The placements offered: members per zone, the leader's zone first.
var placements = []string{"1-1-1", "2-2-1", "2-1", "3-1-1"}

// Latency inside a zone and between zones, one way, in milliseconds: a
// zone is a building, zones are some way apart.
const (
	inZoneMinMs, inZoneMaxMs       = 5, 10
	crossZoneMinMs, crossZoneMaxMs = 40, 60
)

// Timing of the autoplay: each zone is lost for a while, a write is made
// while it is gone, and the zone comes back before the next one goes.
const (
	zoneLossStartMs = 3000
	zoneLossEveryMs = 9000
	zoneWriteAfter  = 4000 // time for the rest to elect a leader
	zoneBackAfter   = 6500 // after the write has had its answer
	zoneClientMs    = 2000 // the client's patience, shorter than a loss
)

var zoneNames = []string{"zone-a", "zone-b", "zone-c"}

var failureDomains = def{id: "failure-domains",
	knobs: []Knob{{Name: "placement", Label: "Members per zone", Values: placements, Default: placements[0]}},
	build: func(k values) *Scenario {
		counts := placementCounts(k.get("placement"))
		cfg := zoneConfig(counts)
		n := cfg.Nodes
		var sc script
		sc.at(300, act(raftcore.DoTimeout, 1))
		sc.at(2000, write(1, keyWeb, "replicas=1"))
		for z := range counts {
			t := zoneLossStartMs + float64(z*zoneLossEveryMs)
			sc.at(t, zoneAct(raftcore.DoZoneCrash, z))
			sc.at(t+zoneWriteAfter, write(firstOutside(cfg, z), keyWeb, fmt.Sprintf("replicas=%d", z+2)))
			sc.at(t+zoneBackAfter, zoneAct(raftcore.DoZoneRestart, z))
		}
		until := zoneLossStartMs + float64(len(counts)*zoneLossEveryMs)
		s := &Scenario{
			Title:   "Failure domains",
			Chapter: chapterFundamentals,
			Prompt:  "Place the members in zones, then lose one zone at a time: which placements keep writing, and at what cost?",
			Base:    cfg,
			Script:  sc, UntilMs: until,
			UI: UI{Focus: PanelClient, OpenMs: 1500, Panels: []Panel{PanelClient, PanelLogs}, Key: keyWeb, Highlight: []id{1}},
		}
		s.Steps = []Step{{
			Text: fmt.Sprintf("%s%s; a zone fails as a whole. Predict: which zone can this cluster lose and still take writes?",
				capital(count(n, "member", "members")), placementWords(counts)),
			Claims: claims(machines(n), allActive(), placedAsSaid(counts)),
		}, {
			Text: "A write with every zone up.",
			When: func(v *View) bool { _, ok := healthyWrite(v.W); return ok },
			Live: func(v *View) string {
				op, _ := healthyWrite(v.W)
				if crossZoneFloor(v.W, op) {
					return fmt.Sprintf("With every zone up a write took %s: no zone holds a majority, so each write waits for a member in another zone to answer.", ms(op.LatencyUs(0)))
				}
				return fmt.Sprintf("With every zone up a write took %s: a majority sits in the leader's zone, so the write never had to leave it.", ms(op.LatencyUs(0)))
			},
			Claims: claims(that("the write committed", func(v *View) bool {
				op, _ := healthyWrite(v.W)
				return op.Result == raftcore.OpOK
			}), that("the write waited for another zone exactly when no zone holds a majority", func(v *View) bool {
				op, _ := healthyWrite(v.W)
				return crossZoneFloor(v.W, op) == (op.LatencyUs(0) >= 2*crossZoneMinMs*1000)
			})),
		}}
		for z := range counts {
			s.Steps = append(s.Steps, zoneLossStep(z))
		}
		s.Expect = func(w *raftcore.World) error {
			op, ok := healthyWrite(w)
			if !ok || op.Result != raftcore.OpOK {
				return errors.New("no write committed with every zone up")
			}
			spread := 2*counts[0] <= n
			if crossZoneFloor(w, op) != spread {
				return fmt.Errorf("placement %s: the healthy write's fastest majority crossed zones=%v, want %v", k.get("placement"), !spread, spread)
			}
			if spread && op.LatencyUs(0) < 2*crossZoneMinMs*1000 {
				return fmt.Errorf("the write took %s, less than a round trip between zones", ms(op.LatencyUs(0)))
			}
			if !spread && op.LatencyUs(0) >= 2*crossZoneMinMs*1000 {
				return fmt.Errorf("the write took %s though a majority sits in the leader's zone", ms(op.LatencyUs(0)))
			}
			for z, c := range counts {
				op, ok := zoneLossWrite(w, z)
				if !ok {
					return fmt.Errorf("no write finished while %s was lost", zoneNames[z])
				}
				if got, want := op.Result == raftcore.OpOK, 2*(n-c) > n; got != want {
					return fmt.Errorf("with %s lost (%d of %d left) the write %s", zoneNames[z], n-c, n, outcome(op))
				}
			}
			if v := w.Violations(); len(v) > 0 {
				return fmt.Errorf("safety broke: %v", v[0])
			}
			return nil
		}
		s.final = func(v *View) string { return zoneSummary(v.W) }
		return s
	}}

// placementCounts reads a placement ("2-2-1") as members per zone.
func placementCounts(p string) []int {
	var out []int
	for _, f := range strings.Split(p, "-") {
		c, _ := strconv.Atoi(f)
		out = append(out, c)
	}
	return out
}

// zoneConfig is a world of etcd members placed counts[z] to zone z, the
// lowest ids in the first zone.
func zoneConfig(counts []int) raftcore.Config {
	n := 0
	for _, c := range counts {
		n += c
	}
	cfg := config(raft, etcdNames(n))
	cfg.LatencyMinMs, cfg.LatencyMaxMs = inZoneMinMs, inZoneMaxMs
	cfg.CrossZoneLatencyMs = []float64{crossZoneMinMs, crossZoneMaxMs}
	cfg.ClientTimeoutMs = zoneClientMs
	next := 1
	for z, c := range counts {
		zone := raftcore.Zone{Name: zoneNames[z], Nodes: []int{}}
		for range c {
			zone.Nodes = append(zone.Nodes, next)
			next++
		}
		cfg.Zones = append(cfg.Zones, zone)
	}
	return cfg
}

func zoneAct(do raftcore.Verb, z int) raftcore.Action {
	return raftcore.Action{Do: do, Zone: zoneNames[z]}
}

// firstOutside is the lowest machine not in zone z.
func firstOutside(cfg raftcore.Config, z int) int {
	for id := 1; id <= cfg.Nodes; id++ {
		if !slices.Contains(cfg.Zones[z].Nodes, id) {
			return id
		}
	}
	return 1
}

// placementWords says where the members sit, to follow "5 members":
// ", one in each of 3 zones" or " placed 2, 2 and 1 in 3 zones".
func placementWords(counts []int) string {
	parts := make([]string, len(counts))
	ones := true
	for i, c := range counts {
		parts[i] = strconv.Itoa(c)
		ones = ones && c == 1
	}
	if ones {
		return fmt.Sprintf(", one in each of %d zones", len(counts))
	}
	return fmt.Sprintf(" placed %s and %s in %d zones", strings.Join(parts[:len(parts)-1], ", "), parts[len(parts)-1], len(counts))
}

// placedAsSaid: the zones hold counts members each, as the words say.
//
//go:noinline
func placedAsSaid(counts []int) claim {
	return func(v *View) error {
		zs := v.W.Zones()
		if len(zs) != len(counts) {
			return fmt.Errorf("the words speak of %d zones; there are %d", len(counts), len(zs))
		}
		for z, c := range counts {
			if len(zs[z].Nodes) != c {
				return fmt.Errorf("the words put %d members in %s; it holds %d", c, zs[z].Name, len(zs[z].Nodes))
			}
		}
		return nil
	}
}

// outOfReach lists the machines a write could not reach: crashed, paused
// or on the other side of a cut when it was made.
func outOfReach(w *raftcore.World, op raftcore.Op) []id {
	var out []id
	for _, n := range all(w) {
		if !slices.Contains(op.Side, n) {
			out = append(out, n)
		}
	}
	return out
}

// healthyWrite is the first finished write made with every member in
// reach.
func healthyWrite(w *raftcore.World) (raftcore.Op, bool) {
	for _, op := range w.Ops() {
		if isWrite(op) && op.Done() && len(outOfReach(w, op)) == 0 {
			return op, true
		}
	}
	return raftcore.Op{}, false
}

// zoneLossWrite is the first finished write made while exactly the
// members of zone z were out of reach.
func zoneLossWrite(w *raftcore.World, z int) (raftcore.Op, bool) {
	members := w.ZoneMembers(z)
	for _, op := range w.Ops() {
		if isWrite(op) && op.Done() && len(members) > 0 && slices.Equal(outOfReach(w, op), members) {
			return op, true
		}
	}
	return raftcore.Op{}, false
}

// crossZoneFloor reports whether the fastest majority op's machine could
// reach, as the links were when it was made, includes a link between
// zones: the write's floor is then a round trip between zones.
func crossZoneFloor(w *raftcore.World, op raftcore.Op) bool {
	rts := slices.Clone(op.RoundTripMinUs)
	slices.Sort(rts)
	q := quorum(w.Size())
	return q <= len(rts) && rts[q-1] >= 2*crossZoneMinMs*1000
}

// zoneLossStep is the beat where zone z is lost and a write is tried.
func zoneLossStep(z int) Step {
	return Step{
		Text: fmt.Sprintf("Losing %s: a write is tried without it.", zoneNames[z]),
		When: func(v *View) bool { _, ok := zoneLossWrite(v.W, z); return ok },
		Live: func(v *View) string {
			op, _ := zoneLossWrite(v.W, z)
			n, lost := v.W.Size(), len(v.W.ZoneMembers(z))
			left := n - lost
			if op.Result == raftcore.OpOK {
				return fmt.Sprintf("Losing %s took %s with it. The %d left are a majority of %d: they carry on, and the write committed in %s.",
					zoneNames[z], count(lost, "member", "members"), left, n, ms(op.LatencyUs(0)))
			}
			return fmt.Sprintf("Losing %s took %s with it. The %d left are not a majority of %d: the write failed, and writes stay stopped until the zone is back.",
				zoneNames[z], count(lost, "member", "members"), left, n)
		},
		Claims: claims(that("the zone's members are out of reach", func(v *View) bool {
			for _, m := range v.W.ZoneMembers(z) {
				if isUp(v.W, m) {
					return false
				}
			}
			return true
		}), that("the write committed exactly when the members left are a majority", func(v *View) bool {
			op, _ := zoneLossWrite(v.W, z)
			left := v.W.Size() - len(v.W.ZoneMembers(z))
			return (op.Result == raftcore.OpOK) == (2*left > v.W.Size())
		})),
	}
}

// zoneSummary is the closing line: the price of a write with every zone
// up, and which zones the cluster survived losing.
func zoneSummary(w *raftcore.World) string {
	op, ok := healthyWrite(w)
	if !ok {
		return "No write has finished with every zone up yet."
	}
	var b strings.Builder
	fmt.Fprintf(&b, "With every zone up a write took %s", ms(op.LatencyUs(0)))
	if crossZoneFloor(w, op) {
		b.WriteString(" (a round trip between zones)")
	} else {
		b.WriteString(" (inside one zone)")
	}
	var survived, stopped []string
	for z, zone := range w.Zones() {
		if loss, ok := zoneLossWrite(w, z); ok {
			if loss.Result == raftcore.OpOK {
				survived = append(survived, zone.Name)
			} else {
				stopped = append(stopped, zone.Name)
			}
		}
	}
	switch {
	case len(survived) > 0 && len(survived) == len(w.Zones()):
		b.WriteString("; writes went on whichever zone was lost")
	case len(survived) > 0:
		fmt.Fprintf(&b, "; writes went on without %s", strings.Join(survived, " or "))
	}
	if len(stopped) > 0 {
		fmt.Fprintf(&b, "; losing %s stopped them", strings.Join(stopped, " or "))
	}
	b.WriteString(". ")
	if len(stopped) == 0 && len(survived) == len(w.Zones()) {
		b.WriteString("No zone holds a majority: that is what survives, and what costs the round trip.")
	} else if len(stopped) > 0 {
		b.WriteString("One zone holds a majority: fast writes, but that zone takes the cluster down with it.")
	}
	return b.String()
}
