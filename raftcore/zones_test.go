package raftcore

import (
	"encoding/json"
	"strings"
	"testing"
)

// zoned is DefaultConfig with n machines placed in zones by placement
// (placement[i] is the zone index of machine i+1), 2-5 ms inside a zone
// and 20-30 ms between zones.
func zoned(n int, names []string, placement ...int) Config {
	c := DefaultConfig()
	c.Nodes = n
	c.LatencyMinMs, c.LatencyMaxMs = 2, 5
	c.CrossZoneLatencyMs = []float64{20, 30}
	c.Zones = make([]Zone, len(names))
	for i, name := range names {
		c.Zones[i] = Zone{Name: name, Nodes: []int{}}
	}
	for i, z := range placement {
		c.Zones[z].Nodes = append(c.Zones[z].Nodes, i+1)
	}
	return c
}

var zoneNames3 = []string{"a", "b", "c"}

func TestZoneConfigErrorsSayWhatAndWhere(t *testing.T) {
	cases := []struct {
		name string
		mut  func(*Config)
		want string
	}{
		{"one zone", func(c *Config) { c.Zones = c.Zones[:1] }, "zones: 1 zones given; use 2 to 3"},
		{"four zones", func(c *Config) { c.Zones = append(c.Zones, Zone{Name: "d"}) }, "zones: 4 zones given"},
		{"no name", func(c *Config) { c.Zones[1].Name = "" }, "zones[1].name: missing"},
		{"two words", func(c *Config) { c.Zones[1].Name = "us east" }, `zones[1].name: "us east" must be one word`},
		{"same name", func(c *Config) { c.Zones[2].Name = "a" }, `zones[2].name: "a" is also the name of zones[0]`},
		{"unknown machine", func(c *Config) { c.Zones[0].Nodes = append(c.Zones[0].Nodes, 7) }, "zones[0].nodes: machine 7 is out of range: use 1 to 5"},
		{"in two zones", func(c *Config) { c.Zones[2].Nodes = append(c.Zones[2].Nodes, 1) }, `zones[2].nodes: machine 1 is already in zone "a"`},
		{"in no zone", func(c *Config) { c.Zones[2].Nodes = nil }, "zones: machine 5 is in no zone"},
		{"cross faster", func(c *Config) { c.CrossZoneLatencyMs = []float64{1, 2} }, "cross_zone_latency_ms: [1, 2] is faster than the in-zone latency [2, 5]"},
		{"cross not a range", func(c *Config) { c.CrossZoneLatencyMs = []float64{30} }, "cross_zone_latency_ms: want [min, max]"},
		{"cross without zones", func(c *Config) { c.Zones = nil }, "cross_zone_latency_ms: set without zones"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := zoned(5, zoneNames3, 0, 0, 1, 1, 2)
			tc.mut(&c)
			err := c.Validate()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want an error containing %q", err, tc.want)
			}
		})
	}
	if err := zoned(5, zoneNames3, 0, 0, 1, 1, 2).Validate(); err != nil {
		t.Fatalf("a good placement: %v", err)
	}
}

func TestZoneActionErrorsNameTheZone(t *testing.T) {
	cfg := zoned(3, zoneNames3, 0, 1, 2)
	cases := []struct {
		a    Action
		cfg  Config
		want string
	}{
		{Action{Do: DoZoneCut, Zone: "x"}, cfg, `zone: unknown zone "x"; the zones are a, b, c`},
		{Action{Do: DoZoneCrash}, cfg, "zone: zone-crash needs a zone's name"},
		{Action{Do: DoMove, Node: 1}, cfg, "zone: move needs the name of the zone"},
		{Action{Do: DoMove, Node: 4, Zone: "a"}, cfg, "node: 4 is out of range"},
		{Action{Do: DoZoneHeal, Zone: "a"}, DefaultConfig(), "zone: zone-heal needs zones, and this world has none"},
	}
	for _, tc := range cases {
		err := tc.a.ValidateFor(tc.cfg)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: got %v, want %q", tc.a, err, tc.want)
		}
	}
	// In a schedule the error also says which action.
	_, err := ParseSchedule([]byte(`{"nodes":3,"seed":1,"until_ms":100,
		"zones":[{"name":"a","nodes":[1]},{"name":"b","nodes":[2,3]}],
		"actions":[{"at_ms":0,"do":"zone-cut","zone":"c"}]}`))
	if err == nil || !strings.Contains(err.Error(), `actions[0].zone: unknown zone "c"; the zones are a, b`) {
		t.Fatalf("schedule with an unknown zone: %v", err)
	}
	_, err = ParseSchedule([]byte(`{"nodes":3,"seed":1,"until_ms":100,"zones":[{"name":"a","nodes":[1]},{"name":"b","nodes":[2]}],"actions":[]}`))
	if err == nil || !strings.HasPrefix(err.Error(), "zones: machine 3 is in no zone") {
		t.Fatalf("schedule with a machine in no zone: %v", err)
	}
	_, err = ParseSchedule([]byte(`{"nodes":3,"seed":1,"until_ms":100,"zones":[{"name":"a","nodes":[1,2,3]},{"name":"b","nodes":[]}],"options":{"cross_zone_latency_ms":[1,2]},"actions":[]}`))
	if err == nil || !strings.HasPrefix(err.Error(), "options.cross_zone_latency_ms:") {
		t.Fatalf("schedule with cross-zone latency below in-zone: %v", err)
	}
}

func TestZoneLatencyFollowsPlacementAndMoves(t *testing.T) {
	w := MustWorld(zoned(3, zoneNames3, 0, 0, 1))
	if l := w.Link(1, 2); l.LatencyMinUs != 2000 || l.LatencyMaxUs != 5000 {
		t.Fatalf("in-zone link 1->2: %+v", l)
	}
	if l := w.Link(3, 1); l.LatencyMinUs != 20000 || l.LatencyMaxUs != 30000 {
		t.Fatalf("cross-zone link 3->1: %+v", l)
	}
	mustApply(t, w, Action{Do: DoMove, Node: 2, Zone: "b"})
	if w.ZoneOf(2) != 1 {
		t.Fatalf("machine 2 is in zone %d after the move, want 1", w.ZoneOf(2))
	}
	if l := w.Link(1, 2); l.LatencyMinUs != 20000 {
		t.Fatalf("after the move 1->2 should cross zones: %+v", l)
	}
	if l := w.Link(2, 3); l.LatencyMaxUs != 5000 {
		t.Fatalf("after the move 2->3 should be in-zone: %+v", l)
	}
	got, _ := json.Marshal(w.Zones())
	if string(got) != `[{"name":"a","nodes":[1]},{"name":"b","nodes":[2,3]},{"name":"c","nodes":[]}]` {
		t.Fatalf("zones after the move: %s", got)
	}
	if w.Config().Zones[0].Nodes[1] != 2 {
		t.Fatalf("the configuration keeps the starting placement, got %+v", w.Config().Zones)
	}
}

func TestZoneCutAndHealTouchOnlyTheBorder(t *testing.T) {
	w := MustWorld(zoned(5, zoneNames3, 0, 0, 1, 1, 2))
	mustApply(t, w, Action{Do: DoCut, From: 3, To: 4})
	mustApply(t, w, Action{Do: DoZoneCut, Zone: "a"})
	for i := NodeID(1); i <= 5; i++ {
		for j := NodeID(1); j <= 5; j++ {
			if i == j {
				continue
			}
			cross := (i <= 2) != (j <= 2)
			inner34 := (i == 3 && j == 4) || (i == 4 && j == 3)
			if want := !cross && !inner34; w.Link(i, j).Up != want {
				t.Fatalf("after zone-cut a, link %d->%d up=%v, want %v", i, j, w.Link(i, j).Up, want)
			}
		}
	}
	if sides := w.Sides(); len(sides) != 2 || len(sides[0]) != 2 {
		t.Fatalf("after cutting zone a, want sides [1 2] and the rest, got %v", sides)
	}
	mustApply(t, w, Action{Do: DoZoneHeal, Zone: "a"})
	if !w.Link(1, 5).Up || !w.Link(5, 2).Up || w.Link(3, 4).Up {
		t.Fatal("zone-heal a should restore a's border and leave the 3-4 cut alone")
	}
}

// leaderAfter runs w for ms and returns its one running leader, or None.
func leaderAfter(t *testing.T, w *World, ms int64) NodeID {
	t.Helper()
	w.RunFor(ms * 1000)
	if ls := leaders(w); len(ls) == 1 {
		return ls[0]
	}
	return None
}

// TestPlacementSurvivesZoneLoss loses each zone in turn, in real runs, and
// checks that a write commits afterwards exactly when the machines left
// are a majority: 3 over 3 zones and 5 over 3 as 2/2/1 survive any zone;
// a majority in one zone does not survive losing that zone.
func TestPlacementSurvivesZoneLoss(t *testing.T) {
	placements := []struct {
		name      string
		placement []int
	}{
		{"3 as 1/1/1", []int{0, 1, 2}},
		{"5 as 2/2/1", []int{0, 0, 1, 1, 2}},
		{"3 as 2/1", []int{0, 0, 1}},
		{"5 as 3/1/1", []int{0, 0, 0, 1, 2}},
	}
	for _, p := range placements {
		n := len(p.placement)
		for _, verb := range []Verb{DoZoneCrash, DoZoneCut} {
			for zone := 0; zone < 3; zone++ {
				c := zoned(n, zoneNames3, p.placement...)
				if zone >= len(c.Zones) {
					continue
				}
				left := n - len(c.Zones[zone].Nodes)
				w := MustWorld(c)
				if leaderAfter(t, w, 5000) == None {
					t.Fatalf("%s: no leader before the loss", p.name)
				}
				mustApply(t, w, Action{Do: verb, Zone: zoneNames3[zone]})
				w.RunFor(5_000_000)
				// Write at a machine outside the lost zone.
				var writer NodeID
				for id := NodeID(1); int(id) <= n; id++ {
					if w.ZoneOf(id) != zone {
						writer = id
						break
					}
				}
				mustApply(t, w, Action{Do: DoWrite, Node: int(writer), Key: "k", Value: "v"})
				w.RunFor(6_000_000)
				ops := w.Ops()
				ok := ops[len(ops)-1].Result == OpOK
				if want := 2*left > n; ok != want {
					t.Errorf("%s, %s %s (%d of %d left): write committed=%v, want %v", p.name, verb, zoneNames3[zone], left, n, ok, want)
				}
				noViolations(t, w)
			}
		}
	}
}

// zoneRunHash is the trace hash of the run in
// TestZoneRunsAreDeterministicAndReplay.
const zoneRunHash = 0x15a2db3d0077ac31

func TestZoneRunsAreDeterministicAndReplay(t *testing.T) {
	run := func() *World {
		w := MustWorld(zoned(5, zoneNames3, 0, 0, 1, 1, 2))
		w.RunFor(2_000_000)
		mustApply(t, w, Action{Do: DoWrite, Node: 1, Key: "k", Value: "1"})
		w.RunFor(500_000)
		mustApply(t, w, Action{Do: DoMove, Node: 2, Zone: "c"})
		mustApply(t, w, Action{Do: DoZoneCut, Zone: "b"})
		w.RunFor(1_000_000)
		mustApply(t, w, Action{Do: DoZoneCrash, Zone: "a"})
		w.RunFor(3_000_000)
		mustApply(t, w, Action{Do: DoZoneRestart, Zone: "a"})
		mustApply(t, w, Action{Do: DoZoneHeal, Zone: "b"})
		w.RunFor(3_000_000)
		return w
	}
	a, b := run(), run()
	if a.TraceHash() != b.TraceHash() {
		t.Fatalf("same zone actions, different traces: %x vs %x", a.TraceHash(), b.TraceHash())
	}
	// The same hash natively and under GOOS=js: zone latencies and
	// moves take no path that differs between platforms.
	if a.TraceHash() != zoneRunHash {
		t.Fatalf("the zone run's trace hash is %#x, want %#x (as on every platform)", a.TraceHash(), uint64(zoneRunHash))
	}
	js, err := json.Marshal(a.Schedule())
	if err != nil {
		t.Fatal(err)
	}
	s, err := ParseSchedule(js)
	if err != nil {
		t.Fatalf("the schedule of a zone run does not parse: %v\n%s", err, js)
	}
	r, err := s.Run()
	if err != nil {
		t.Fatal(err)
	}
	if r.TraceHash() != a.TraceHash() {
		t.Fatalf("replaying the schedule gives %x, the run gave %x", r.TraceHash(), a.TraceHash())
	}
	var faults []string
	for _, e := range a.Trace() {
		if e.Kind == TraceFault && e.Verb().zoneVerb() {
			faults = append(faults, e.Text)
		}
	}
	if got := strings.Join(faults, "; "); !strings.Contains(got, "move 2 to c") || !strings.Contains(got, "zone-crash a") {
		t.Fatalf("zone actions in the trace: %s", got)
	}
	noViolations(t, a)
}

func TestCloneKeepsItsOwnPlacement(t *testing.T) {
	w := MustWorld(zoned(3, zoneNames3, 0, 1, 2))
	c := w.Clone()
	mustApply(t, c, Action{Do: DoMove, Node: 1, Zone: "b"})
	if w.ZoneOf(1) != 0 || c.ZoneOf(1) != 1 {
		t.Fatalf("after moving machine 1 in the clone: original zone %d, clone zone %d", w.ZoneOf(1), c.ZoneOf(1))
	}
	if w.Link(1, 2).LatencyMinUs != 20000 {
		t.Fatal("the move in the clone changed the original's links")
	}
}

// TestZoneJSONErrorsNameTheZone: a misspelt or mistyped field inside a
// zone is reported at that zone.
func TestZoneJSONErrorsNameTheZone(t *testing.T) {
	cases := map[string]string{
		`{"nodes":2,"seed":1,"until_ms":1,"zones":[{"name":"a","nodes":[1]},{"name":"b","members":[2]}],"actions":[]}`: "zones[1]: unknown field \"members\"; known fields: name, nodes",
		`{"nodes":2,"seed":1,"until_ms":1,"zones":[{"name":"a","nodes":"1"},{"name":"b","nodes":[2]}],"actions":[]}`:   "zones[0].nodes: want an array",
	}
	for in, want := range cases {
		if _, err := ParseSchedule([]byte(in)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want %q", in, err, want)
		}
	}
}
