//go:build browser

package e2e

import (
	"testing"

	"raftlab/viz/app"
)

// TestAppZonesTakeADragAndAMenu opens the figure failure-domains in the
// full app and, with real mouse events, drags a machine onto another
// zone and loses a whole zone from the menu its label opens: each is one
// recorded action, and the snapshot shows its effect.
func TestAppZonesTakeADragAndAMenu(t *testing.T) {
	b := newBrowser(t, 1280, 800)
	b.openApp("scenario=failure-domains&speed=1")
	appCmd(b, "pause")
	s := waitState(b, "the app to pause", func(s app.Snapshot) bool { return s.Paused })
	if s.Layout != "zones" || len(s.Screen.Zones) != 3 {
		t.Fatalf("layout %q with %d zones, want the three zones of the figure", s.Layout, len(s.Screen.Zones))
	}
	lastIs := func(s app.Snapshot, do string) bool {
		return len(s.Actions) > 0 && string(s.Actions[len(s.Actions)-1].Do) == do
	}

	from, to := center(machine(s, 2)), s.Screen.Zones[2].Center()
	b.drag(from.X, from.Y, to.X, to.Y, 15)
	s = waitState(b, "etcd-2 to move to zone-c", func(s app.Snapshot) bool { return lastIs(s, "move") })
	if x := s.Actions[len(s.Actions)-1]; x.Node != 2 || x.Zone != "zone-c" {
		t.Fatalf("the drag recorded %+v, want etcd-2 moved to zone-c", x)
	}
	if p := center(machine(s, 2)); !s.Screen.Zones[2].Contains(p) {
		t.Errorf("etcd-2 is drawn at %v, outside zone-c %v", p, s.Screen.Zones[2])
	}

	// The label strip runs along the top of a zone.
	z := s.Screen.Zones[0]
	b.click(z.X+40, z.Y+12)
	s = waitState(b, "zone-a's menu", func(s app.Snapshot) bool { return s.Menu == "zone:1" })
	clickWidget(b, s, "zone.crash")
	s = waitState(b, "zone-a to be lost", func(s app.Snapshot) bool { return lastIs(s, "zone-crash") })
	if st := machine(s, 1).Status; st != "crashed" {
		t.Errorf("etcd-1, in zone-a, is %s after its zone was lost", st)
	}
	if st := machine(s, 3).Status; st != "up" {
		t.Errorf("etcd-3, in zone-c, is %s after zone-a was lost", st)
	}
	requireNotBlank(t, b.screenshot("zone-lost"))
	noExceptions(t, b)
}
