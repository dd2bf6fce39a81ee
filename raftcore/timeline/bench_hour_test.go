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
// the timeline keeps, the events the run holds, and the events a seek
// replayed from its checkpoint, on average and at most.
func BenchmarkSeekLastTenMinutesOfHour(b *testing.B) { seekLastTenMinutes(b, hourRun()) }

// seekLastTenMinutes seeks from tl's head to random moments of its last
// ten virtual minutes.
func seekLastTenMinutes(b *testing.B, tl *Timeline) {
	head := tl.Head()
	r := rand.New(rand.NewPCG(1, 2))
	var replayed, most uint64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		tl.SeekTo(head)
		us := head.AtUs - r.Int64N(600_000_000)
		b.StartTimer()
		tl.SeekTime(us)
		b.StopTimer()
		// The events replayed from the checkpoint the seek started at:
		// what a seek costs whatever the machine's load.
		from := checkpointBefore(tl.br.cps, tl.Pos()).pos.Events
		replayed += tl.Pos().Events - from
		most = max(most, tl.Pos().Events-from)
		b.StartTimer()
	}
	b.StopTimer()
	b.ReportMetric(float64(replayed)/float64(b.N), "replayed-avg")
	b.ReportMetric(float64(most), "replayed-max")
	b.ReportMetric(float64(tl.Checkpoints()), "checkpoints")
	b.ReportMetric(float64(head.Events), "events")
}

// The hour run with the writes made by one "load" action, to the cluster,
// and the newest 4096 answered operations kept in each world, as the app
// keeps them.
var hourLoadRun = sync.OnceValue(func() *Timeline {
	tl := mustNew(&testing.B{}, raftcore.DefaultConfig(), Options{HistoryLimit: 4096})
	mustAct(&testing.B{}, tl, raftcore.Action{Do: raftcore.DoLoad, Key: "deployments/app", Keys: 10, EveryMs: 100})
	tl.Advance(hourRunUs)
	return tl
})

// BenchmarkSeekLastTenMinutesOfHourLoad is BenchmarkSeekLastTenMinutesOfHour
// on the hour run made by a load action with a bounded history.
func BenchmarkSeekLastTenMinutesOfHourLoad(b *testing.B) {
	seekLastTenMinutes(b, hourLoadRun())
}
