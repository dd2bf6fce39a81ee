package explore

import (
	"strconv"
	"testing"

	"raftlab/raftcore"
)

// BenchmarkExplore searches a fixed space from a fresh three-machine world
// and reports distinct states per second and the size of the space.
func BenchmarkExplore(b *testing.B) {
	bounds := Bounds{Nodes: 3, Terms: 2, Writes: 1, Depth: 7, Faults: 1}
	states := 0
	b.ReportAllocs()
	for b.Loop() {
		res, err := Explore(bounds, 0)
		if err != nil || !res.Exhausted || res.Counterexample != nil {
			b.Fatalf("search did not exhaust its space cleanly: %v %+v", err, res.Counterexample)
		}
		states = res.States
	}
	b.ReportMetric(float64(states), "states")
	b.ReportMetric(float64(states)*float64(b.N)/b.Elapsed().Seconds(), "states/s")
}

// BenchmarkExploreReads searches around a deposed leader (the read bug's
// start, with correct Raft) within depth 5 and no faults, without reads
// and with one, so that the cost of the reads and of the read rule shows
// against the same start in the same run.
func BenchmarkExploreReads(b *testing.B) {
	for _, reads := range []int{0, 1} {
		b.Run("reads="+strconv.Itoa(reads), func(b *testing.B) {
			start := bugCase{from: leaderDeposed}.start(b)
			bounds := Bounds{Nodes: 3, Terms: 2, Writes: 1, Reads: reads, Depth: 5}
			benchSearch(b, start, bounds)
		})
	}
}

// BenchmarkExploreMembers searches around a just-elected leader of three
// voters with a spare machine (TestExhaustsAReconfigurationSpace's start
// and bounds), without membership actions and with one, so that the cost
// of the reconfiguration choices and of judging commits against the
// configuration in force shows against the same start in the same run.
func BenchmarkExploreMembers(b *testing.B) {
	for _, reconfigs := range []int{0, 1} {
		b.Run("reconfigs="+strconv.Itoa(reconfigs), func(b *testing.B) {
			cfg := Config(4, 0)
			cfg.Members = 3
			start := electedIn(b, cfg, false)
			bounds := reconfBounds
			bounds.Reconfigs = reconfigs
			benchSearch(b, start, bounds)
		})
	}
}

// benchSearch searches bounds from start b.N times and reports the size of
// the space and distinct states per second.
func benchSearch(b *testing.B, start *raftcore.World, bounds Bounds) {
	states := 0
	b.ReportAllocs()
	for b.Loop() {
		res, err := ExploreFrom(start, bounds)
		if err != nil || !res.Exhausted || res.Counterexample != nil {
			b.Fatalf("search did not exhaust its space cleanly: %v %+v", err, res.Counterexample)
		}
		states = res.States
	}
	b.ReportMetric(float64(states), "states")
	b.ReportMetric(float64(states)*float64(b.N)/b.Elapsed().Seconds(), "states/s")
}
