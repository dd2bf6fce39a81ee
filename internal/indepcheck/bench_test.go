package indepcheck

import (
	"testing"

	"raftlab/raftcore"
)

// BenchmarkRandomRun measures what the independent checker costs: one op
// is one random run of the shape TestRandomRunsPassTheIndependentChecker
// uses (seeds 1 to 90, so every size from 1 to 9 ten times), either only
// played (check=none) or played, replayed and checked (check=independent,
// porcupine included). check=porcupine times porcupine's half of the check
// alone, on runs played beforehand, to show its share.
func BenchmarkRandomRun(b *testing.B) {
	b.Run("check=none", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			seed := int64(1 + i%90)
			raftcore.RandomRun(seed, runOptions(seed))
		}
	})
	b.Run("check=independent", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			seed := int64(1 + i%90)
			if _, err := CheckRandomRun(seed, runOptions(seed), 16); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("check=porcupine", func(b *testing.B) {
		var played []*raftcore.World
		for seed := int64(1); seed <= 90; seed++ {
			played = append(played, raftcore.RandomRun(seed, runOptions(seed)))
		}
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			w := played[i%90]
			c := New(w)
			c.checkLinearizable(w.Ops())
			if len(c.Violations()) > 0 {
				b.Fatal(c.Violations())
			}
		}
	})
}
