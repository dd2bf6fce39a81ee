package timeline

import (
	"math/rand/v2"
	"strconv"
	"sync"
	"testing"

	"raftlab/raftcore"
)

// The hour run: five machines with the default configuration (a snapshot
// every 100 applied entries, 20 entries kept) and a client write every
// 100 ms, to each machine in turn and to ten keys, for a virtual hour.
const hourRunUs = 3_600_000_000

var hourRun = sync.OnceValue(func() *Timeline {
	tl := mustNew(&testing.B{}, raftcore.DefaultConfig(), Options{})
	for i := 0; tl.Pos().AtUs < hourRunUs; i++ {
		tl.Advance(100_000)
		mustAct(&testing.B{}, tl, raftcore.Action{Do: raftcore.DoWrite, Node: 1 + i%5,
			Key: "deployments/app" + strconv.Itoa(i%10), Value: "replicas=" + strconv.Itoa(i%7)})
	}
	return tl
})

// BenchmarkSeekLastTenMinutesOfHour rewinds the hour run from its head to
// a random moment of its last ten virtual minutes, where machines have
// snapshotted and compacted many times over; it reports the checkpoints
// the timeline keeps and the events the run holds.
func BenchmarkSeekLastTenMinutesOfHour(b *testing.B) {
	tl := hourRun()
	head := tl.Head()
	r := rand.New(rand.NewPCG(1, 2))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		tl.SeekTo(head)
		us := head.AtUs - r.Int64N(600_000_000)
		b.StartTimer()
		tl.SeekTime(us)
	}
	b.StopTimer()
	b.ReportMetric(float64(tl.Checkpoints()), "checkpoints")
	b.ReportMetric(float64(head.Events), "events")
}
