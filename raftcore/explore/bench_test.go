package explore

import (
	"testing"
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
