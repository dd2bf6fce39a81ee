package linearize

import (
	"testing"

	"raftlab/raftcore"
)

// tenMinutes is the client history of a ten-minute random fault run (seed
// 1, five machines): partitions, crashes, pauses, drift, and the reads and
// writes a reader makes, on five keys.
func tenMinutes(b *testing.B) []raftcore.Op {
	b.Helper()
	return raftcore.RandomRun(1, raftcore.RandomOptions{Nodes: 5, UntilMs: 600_000}).Ops()
}

// reportSize says how big the history was (after the timed loop, which
// would clear it).
func reportSize(b *testing.B, ops []raftcore.Op) {
	reads := 0
	for _, op := range ops {
		if op.Kind == raftcore.DoRead {
			reads++
		}
	}
	b.ReportMetric(float64(len(ops)), "ops")
	b.ReportMetric(float64(reads), "reads")
}

// BenchmarkCheckTenMinutes is porcupine's check of a ten-minute run's whole
// history, three ways: from scratch (what raftsim does once per run), and
// through a Cache as the app's client panel calls it on every frame, when
// nothing changed and when one key gained an operation.
func BenchmarkCheckTenMinutes(b *testing.B) {
	b.Run("check=full", func(b *testing.B) {
		ops := tenMinutes(b)
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if r := Check(ops); len(r.Reads) == 0 {
				b.Fatal("no reads judged")
			}
		}
		reportSize(b, ops)
	})
	b.Run("check=cache-unchanged", func(b *testing.B) {
		ops := tenMinutes(b)
		var c Cache
		c.Check(ops)
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			c.Check(ops)
		}
		reportSize(b, ops)
	})
	b.Run("check=cache-one-new-op", func(b *testing.B) {
		ops := tenMinutes(b)
		var c Cache
		b.ResetTimer()
		// Each call differs from the one before by the last operation,
		// so its key is searched again and the others come from the
		// cache.
		for i := 0; i < b.N; i++ {
			c.Check(ops[:len(ops)-i%2])
		}
		reportSize(b, ops)
	})
}
