package kube

import "testing"

func TestBackoffDoublesToSevenSeconds(t *testing.T) {
	want := []int64{200_000, 400_000, 800_000, 1_600_000, 3_200_000, 6_400_000, 7_000_000, 7_000_000}
	for i, w := range want {
		if got := Backoff(i + 1); got != w {
			t.Errorf("Backoff(%d) = %d, want %d", i+1, got, w)
		}
	}
}

// The controller's grace period runs from when it saw the renewTime move,
// on its own clock, whatever the value written.
func TestHealthCountsFromWhatTheControllerSaw(t *testing.T) {
	var h Health
	h.Observe(true, 1_000_000_000, 5) // a kubelet clock far ahead
	if h.Expired(5+50, 50, false) || !h.Expired(5+51, 50, false) {
		t.Fatal("the grace period does not run from the controller's first look")
	}
	if h.Expired(5+51, 50, true) {
		t.Fatal("trusting the kubelet's clock should see a Lease from the future as fresh")
	}
	h.Observe(true, 1_000_000_000, 40) // unchanged: no new probe
	if !h.Expired(56, 50, false) {
		t.Fatal("an unchanged renewTime restarted the grace period")
	}
	h.Observe(true, 1_000_000_001, 60)
	if h.Expired(110, 50, false) {
		t.Fatal("a renewal did not restart the grace period")
	}
	h.Restart(200)
	if h.Expired(250, 50, false) {
		t.Fatal("Restart did not start the grace period afresh")
	}
}

func TestZoneStates(t *testing.T) {
	cases := []struct {
		ready, notReady int
		want            ZoneState
		evicts          bool
	}{
		{3, 0, ZoneNormal, true},
		{1, 2, ZoneNormal, true}, // two NotReady are never a disruption
		{1, 3, ZonePartialDisruption, false},
		{0, 3, ZoneFullDisruption, false},
		{5, 5, ZoneNormal, true}, // 50% is under the 55% threshold
		{4, 6, ZonePartialDisruption, false},
	}
	for _, c := range cases {
		got := ComputeZoneState(c.ready, c.notReady)
		if got != c.want || EvictionsAllowed(got, c.ready+c.notReady) != c.evicts {
			t.Errorf("%d ready, %d not: %v (evicts %v), want %v", c.ready, c.notReady, got, EvictionsAllowed(got, c.ready+c.notReady), c.want)
		}
	}
	if !EvictionsAllowed(ZonePartialDisruption, LargeClusterThreshold+1) {
		t.Error("a large partly disrupted zone stopped evicting")
	}
}
