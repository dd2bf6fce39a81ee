package app

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"raftlab/raftcore"
	"raftlab/viz"
	"raftlab/viz/app/command"
	"raftlab/viz/app/view"
	"raftlab/viz/frame"
)

// zonedApp opens, at size w x h, a paused run of n machines named etcd-N
// placed in zones by placement (machine i+1 in zone placement[i]).
func zonedApp(t *testing.T, w, h float64, embed bool, placement []int, zones int) *App {
	t.Helper()
	n := len(placement)
	s := raftcore.Schedule{Nodes: n, Seed: 1, UntilMs: 0, Actions: []raftcore.Action{}}
	for z := 0; z < zones; z++ {
		s.Zones = append(s.Zones, raftcore.Zone{Name: "zone-" + string(rune('a'+z)), Nodes: []int{}})
	}
	for i, z := range placement {
		s.Names = append(s.Names, fmt.Sprintf("etcd-%d", i+1))
		s.Zones[z].Nodes = append(s.Zones[z].Nodes, i+1)
	}
	s.Options = &raftcore.ScheduleOptions{LatencyMs: []float64{5, 10}, CrossZoneLatencyMs: []float64{40, 60}}
	js, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	p := viz.DefaultParams()
	p.Embed = embed
	a, err := New(Options{Params: p, Width: w, Height: h, SpeedGiven: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Do(command.OpenRun{JSON: string(js)}); err != nil {
		t.Fatalf("opening %s: %v", js, err)
	}
	a.clock.SetPaused(true)
	// The note that a run was opened is not what these tests look at.
	if err := a.Do(command.CloseBanner{}); err != nil {
		t.Fatal(err)
	}
	return a
}

// placementsFor lists ways to place n machines in k zones: spread as
// evenly as can be, and with a majority in the first zone and the rest
// spread over the others (the two kinds the failure-domains figure
// compares).
func placementsFor(n, k int) [][]int {
	even := make([]int, n)
	heavy := make([]int, n)
	q := n/2 + 1
	for i := range even {
		even[i] = i * k / n
		if i >= q {
			heavy[i] = 1 + (i-q)*(k-1)/max(n-q, 1)
		}
	}
	return [][]int{even, heavy}
}

// TestZoneFramesAreReadable draws worlds with 3 to 9 machines in 2 and 3
// zones on a laptop, in a 720x450 and a 350x560 figure and on a phone:
// each zone is a box holding its machines, its label fits inside it, and
// no machine's words overlap another's or leave the stage.
func TestZoneFramesAreReadable(t *testing.T) {
	for _, sz := range []struct {
		w, h  float64
		embed bool
	}{{1280, 800, false}, {720, 450, true}, {350, 560, true}, {390, 844, false}} {
		for n := 3; n <= 9; n++ {
			for k := 2; k <= 3; k++ {
				for _, pl := range placementsFor(n, k) {
					a := zonedApp(t, sz.w, sz.h, sz.embed, pl, k)
					where := fmt.Sprintf("%vx%v n=%d placement %v", sz.w, sz.h, n, pl)
					if s := a.State(); s.Layout != "zones" {
						t.Fatalf("%s: layout %q, want zones", where, s.Layout)
					}
					f := a.Frame()
					l := a.Layout()
					if len(f.Zones) != k {
						t.Fatalf("%s: %d zones drawn, want %d", where, len(f.Zones), k)
					}
					for i := range l.Nodes {
						c := l.NodeCircle(i)
						disc := viz.XYWH(c.C.X-c.R, c.C.Y-c.R, 2*c.R, 2*c.R)
						if z := pl[i]; !l.Zones[z].Rect.ContainsRect(disc) {
							t.Errorf("%s: machine %d is not inside its zone %d", where, i+1, z)
						}
					}
					for z, zv := range f.Zones {
						if !strings.HasPrefix(zv.Label.Text, "zone-"+string(rune('a'+z))) {
							t.Errorf("%s: zone %d is labelled %q", where, z, zv.Label.Text)
						}
						if b := a.measure(zv.Label.Text, zv.Label.Size); zv.Label.X < zv.Rect.X || zv.Label.X+b > zv.Rect.Right() {
							t.Errorf("%s: label %q (%v wide at x=%v) leaves its zone %v", where, zv.Label.Text, b, zv.Label.X, zv.Rect)
						}
					}
					checkFrameWords(t, where, a, f)
					for _, lk := range f.Links {
						if lk.Label.Text == "" {
							continue
						}
						for i, nv := range f.Nodes {
							for _, ln := range nv.Lines {
								if ln.Text != "" && textBox(a, lk.Label).Overlaps(textBox(a, ln)) {
									t.Errorf("%s: the label %q of link %v covers %q of machine %d", where, lk.Label.Text, lk.ID, ln.Text, i+1)
								}
							}
						}
					}
				}
			}
		}
	}
}

// TestZoneGesturesRecordZoneActions: dragging a machine onto another zone
// records a move; a tap on a zone's label opens its menu, whose buttons
// lose the whole zone, bring it back, cut it off and reconnect it, each
// one recorded action that the label then reports.
func TestZoneGesturesRecordZoneActions(t *testing.T) {
	a := zonedApp(t, 1280, 800, false, []int{0, 0, 1, 1, 2}, 3)
	var c hostClock
	l := a.Layout()
	press(a, &c, l.Nodes[1].Center, l.Zones[2].Body.Center(), 10)
	if x := lastAction(t, a); x.Do != raftcore.DoMove || x.Node != 2 || x.Zone != "zone-c" {
		t.Fatalf("dragging etcd-2 onto zone-c recorded %v", x)
	}
	if a.World().ZoneOf(2) != 2 || a.Layout().Nodes[1].Zone != 2 {
		t.Fatal("etcd-2 is not drawn in zone-c after the move")
	}
	if got := a.World().Link(2, 5).LatencyMaxUs; got != 10_000 {
		t.Fatalf("etcd-2 and etcd-5 share a zone, but their link takes up to %d us", got)
	}

	l = a.Layout()
	tapZone := func(z int) {
		lb := l.Zones[z].Label
		h := l.HitTest(lb.Center(), nil, viz.HitOptions{})
		if h.Kind != viz.HitZone || h.Zone != z {
			t.Fatalf("the label of zone %d hits %v", z, h)
		}
		if err := a.Do(a.tapIntent(h)); err != nil {
			t.Fatal(err)
		}
	}
	tapZone(0)
	if a.view.Menu().Kind != view.MenuZone || a.Frame().Menu == nil || a.Frame().Menu.Title.Text != "zone-a" {
		t.Fatalf("tapping zone-a's label opened %v", a.view.Menu())
	}
	click := func(id string) raftcore.Action {
		t.Helper()
		if err := a.Click(id); err != nil {
			t.Fatalf("click %s: %v (controls %v)", id, err, widgetIDs(a))
		}
		return lastAction(t, a)
	}
	if x := click("zone.crash"); x.Do != raftcore.DoZoneCrash || x.Zone != "zone-a" {
		t.Fatalf("Lose it recorded %v", x)
	}
	if a.World().Status(1) != raftcore.StatusCrashed {
		t.Fatal("etcd-1 is still up after its zone was lost")
	}
	if lab := a.Frame().Zones[0].Label; !strings.Contains(lab.Text, "lost") || lab.Tone != frame.ToneBad {
		t.Fatalf("zone-a's label after its loss: %+v", lab)
	}
	tapZone(0)
	if x := click("zone.restart"); x.Do != raftcore.DoZoneRestart {
		t.Fatalf("Bring it back recorded %v", x)
	}
	tapZone(1)
	if x := click("zone.cut"); x.Do != raftcore.DoZoneCut || x.Zone != "zone-b" {
		t.Fatalf("Cut off recorded %v", x)
	}
	if lab := a.Frame().Zones[1].Label; !strings.Contains(lab.Text, "cut off") {
		t.Fatalf("zone-b's label after the cut: %q", lab.Text)
	}
	tapZone(1)
	if x := click("zone.heal"); x.Do != raftcore.DoZoneHeal {
		t.Fatalf("Reconnect recorded %v", x)
	}
	if !a.World().Link(3, 1).Up {
		t.Fatal("zone-b is still cut off after Reconnect")
	}
}
