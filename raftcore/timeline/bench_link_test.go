package timeline

import (
	"encoding/json"
	"strconv"
	"testing"

	"raftlab/raftcore"
)

// hourLinks are share links to hour-long runs of nine machines, written as
// JSON and packed by hand (not by EncodeLink, which may refuse them), so
// that the same links can be opened by any version of the package:
//
//   - quiet: etcd's configuration, nothing happens;
//   - slow: every machine takes 10 s a message from the third second on, so
//     backlogs grow all hour;
//   - costliest: the most a link is let ask for (599,400 machine ticks), with
//     clocks running 1.85 times fast, every message sent twice (the
//     costliest per tick) and a write every 90 s;
//   - 1ms-drop: ticks every millisecond, a hundred times the work, and a
//     drop at the end that only a replay could refuse.
func hourLinks(tb testing.TB) map[string]string {
	const hourMs = 3_600_000
	link := func(s raftcore.Schedule, posUs int64) string {
		run, err := json.Marshal(s)
		if err != nil {
			tb.Fatal(err)
		}
		data := `{"run":` + string(run) + `,"pos_us":` + strconv.FormatInt(posUs, 10) + `}`
		return pack("1", []byte(data), uint64(len(data)))
	}
	quiet := raftcore.Schedule{Nodes: 9, Seed: 1, UntilMs: hourMs, Actions: []raftcore.Action{}}
	slow := quiet
	slow.Actions = nil
	costly := quiet
	costly.Actions = nil
	twice := 1.0
	costly.Actions = append(costly.Actions, raftcore.Action{Do: raftcore.DoDuplicate, Duplicate: &twice})
	for id := 1; id <= 9; id++ {
		slow.Actions = append(slow.Actions, raftcore.Action{AtMs: 3000, Do: raftcore.DoSlow, Node: id, MsPerMessage: 10000})
		costly.Actions = append(costly.Actions, raftcore.Action{Do: raftcore.DoDrift, Node: id, Rate: 1.85})
	}
	for i := 1; i <= 40; i++ {
		costly.Actions = append(costly.Actions, raftcore.Action{AtMs: float64(90_000 * i), Do: raftcore.DoWrite, Node: 1 + i%9, Key: "deployments/web", Value: "replicas=" + strconv.Itoa(i%10)})
	}
	tick := 1
	drop := quiet
	drop.Options = &raftcore.ScheduleOptions{TickMs: &tick}
	drop.Actions = []raftcore.Action{{AtMs: hourMs - 1000, Do: raftcore.DoDrop, ID: 424242}}
	return map[string]string{
		"quiet":     link(quiet, hourMs*1000),
		"slow":      link(slow, hourMs*1000),
		"costliest": link(costly, hourMs*1000),
		"1ms-drop":  link(drop, 0),
	}
}

// BenchmarkOpenHourLink decodes and opens links to hour-long runs of nine
// machines: what a reader pays for a link, the longest a link can hold.
// "refused" is 1 when DecodeLink refuses the link; "events" is the trace
// events of the world opened at its moment.
func BenchmarkOpenHourLink(b *testing.B) {
	links := hourLinks(b)
	for _, name := range []string{"quiet", "slow", "costliest", "1ms-drop"} {
		b.Run("link="+name, func(b *testing.B) {
			s := links[name]
			refused, events := 0.0, 0.0
			for i := 0; i < b.N; i++ {
				l, err := DecodeLink(s)
				if err != nil {
					refused = 1
					continue
				}
				tl, err := OpenLink(l)
				if err != nil {
					b.Fatal(err)
				}
				events = float64(tl.World().TraceCount())
			}
			b.ReportMetric(refused, "refused")
			b.ReportMetric(events, "events")
			b.ReportMetric(float64(len(s)), "link-chars")
		})
	}
}
