package scenarios

import (
	"slices"
	"strings"
	"testing"

	"raftlab/raftcore"
)

// TestFailureDomainsSurviveOnlyWithoutAMajorityZone plays every placement
// and loses each zone in turn: 1-1-1 and 2-2-1 keep writing whichever
// zone goes and pay a round trip between zones for every write; 2-1 and
// 3-1-1 write inside one zone and stop when that zone goes.
func TestFailureDomainsSurviveOnlyWithoutAMajorityZone(t *testing.T) {
	want := map[string]struct {
		survives []bool // per zone lost
		spread   bool
	}{
		"1-1-1": {[]bool{true, true, true}, true},
		"2-2-1": {[]bool{true, true, true}, true},
		"2-1":   {[]bool{false, true}, false},
		"3-1-1": {[]bool{false, true, true}, false},
	}
	base, err := Get("failure-domains")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range placements {
		s, err := base.With("placement", p)
		if err != nil {
			t.Fatal(err)
		}
		for seed := int64(1); seed <= 5; seed++ {
			w, r, err := s.Run(seed)
			if err != nil || r.Expect != nil {
				t.Fatalf("%s seed %d: %v %v", p, seed, err, r.Expect)
			}
			if len(w.Violations()) > 0 {
				t.Fatalf("%s seed %d: %v", p, seed, w.Violations())
			}
			wp := want[p]
			for z, ok := range wp.survives {
				op, found := zoneLossWrite(w, z)
				if !found || (op.Result == raftcore.OpOK) != ok {
					t.Fatalf("%s seed %d: losing %s, write found=%v %s; want committed=%v", p, seed, zoneNames[z], found, outcome(op), ok)
				}
			}
			op, _ := healthyWrite(w)
			lat := op.LatencyUs(0)
			if wp.spread && lat < 2*crossZoneMinMs*1000 || !wp.spread && lat >= 2*inZoneMaxMs*1000+10_000 {
				t.Fatalf("%s seed %d: the write with every zone up took %s", p, seed, ms(lat))
			}
			if survivedAll := !slices.Contains(wp.survives, false); survivedAll != strings.Contains(r.Final, "whichever zone was lost") {
				t.Fatalf("%s seed %d: closing line %q", p, seed, r.Final)
			}
		}
	}
}

// TestFailureDomainsExpectCatchesANoLoss: with the zones never lost, a
// placement with a majority in one zone keeps writing, and the figure's
// check must say it did not make its point.
func TestFailureDomainsExpectCatchesANoLoss(t *testing.T) {
	base, _ := Get("failure-domains")
	s, err := base.With("placement", "3-1-1")
	if err != nil {
		t.Fatal(err)
	}
	var kept []raftcore.Action
	for _, a := range s.Script {
		if a.Do != raftcore.DoZoneCrash && a.Do != raftcore.DoZoneRestart {
			kept = append(kept, a)
		}
	}
	s.Script = kept
	_, r, err := s.Run(1)
	if err != nil {
		t.Fatal(err)
	}
	if r.Expect == nil {
		t.Fatal("the check passed a run in which no zone was lost")
	}
}
