package timeline

import (
	"bufio"
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"raftlab/raftcore"
)

func TestExportedScheduleReproducesThePosition(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 20))
	tl := mustNew(t, testConfig(), smallOpts)
	liveRun(t, tl, r, 20)
	for _, us := range []int64{tl.Head().AtUs, 0, 7_654_321, 15_000_000} {
		if us == tl.Head().AtUs {
			tl.Advance(1) // end the head's instant, as a schedule does
			us = tl.Pos().AtUs
		}
		tl.SeekTime(us)
		var buf bytes.Buffer
		if err := tl.WriteSchedule(&buf); err != nil {
			t.Fatal(err)
		}
		s, err := raftcore.ParseSchedule(buf.Bytes())
		if err != nil {
			t.Fatalf("exported schedule does not parse: %v", err)
		}
		if s.UntilMs*1000 != float64(us) {
			t.Fatalf("until_ms %g at %d µs", s.UntilMs, us)
		}
		w, err := s.Run()
		if err != nil {
			t.Fatal(err)
		}
		sameWorld(t, "schedule run", w, snapOf(tl.World()))
	}
}

func TestWriteTraceHasEveryEvent(t *testing.T) {
	tl := mustNew(t, testConfig(), Options{TraceLimit: 16})
	liveRun(t, tl, rand.New(rand.NewPCG(21, 22)), 10)
	tl.SeekTime(6_000_000)
	var buf bytes.Buffer
	if err := tl.WriteTrace(&buf); err != nil {
		t.Fatal(err)
	}
	var all []raftcore.TraceEvent
	sc := bufio.NewScanner(&buf)
	for sc.Scan() {
		var e struct {
			raftcore.TraceEvent
			Kind string `json:"kind"`
		}
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("line %d: %v: %s", len(all)+1, err, sc.Text())
		}
		if e.Seq != uint64(len(all)+1) {
			t.Fatalf("line %d has seq %d", len(all)+1, e.Seq)
		}
		all = append(all, e.TraceEvent)
	}
	w := tl.World()
	if uint64(len(all)) != w.TraceCount() {
		t.Fatalf("%d lines, the run has %d trace events", len(all), w.TraceCount())
	}
	kept := w.Trace()
	for i, e := range kept {
		got := all[len(all)-len(kept)+i]
		got.Kind = e.Kind // read back by name above
		if got != e {
			t.Fatalf("event %d: wrote %+v, world has %+v", e.Seq, got, e)
		}
	}
}

func TestImportSchedule(t *testing.T) {
	tl := mustNew(t, testConfig(), Options{})
	liveRun(t, tl, rand.New(rand.NewPCG(23, 24)), 15)
	tl.Advance(1)
	var buf bytes.Buffer
	if err := tl.WriteSchedule(&buf); err != nil {
		t.Fatal(err)
	}
	imported, err := ImportSchedule(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	sameWorld(t, "imported schedule", imported.World(), snapOf(tl.World()))
	if imported.Head() != tl.Pos() || len(imported.Actions()) != len(tl.Actions()) {
		t.Fatalf("imported head %v with %d actions", imported.Head(), len(imported.Actions()))
	}
	imported.SeekTime(3_000_000)
	tl.SeekTime(3_000_000)
	sameWorld(t, "imported schedule rewound", imported.World(), snapOf(tl.World()))

	// A hand-written schedule: actions out of order and without event counts.
	hand := `{"nodes":3,"seed":4,"until_ms":9000,"actions":[
		{"at_ms":6000,"do":"heal"},
		{"at_ms":3000,"do":"partition","groups":[[1],[2,3]]},
		{"at_ms":3000,"do":"write","node":2,"key":"a","value":"1"}]}`
	s, err := raftcore.ParseSchedule([]byte(hand))
	if err != nil {
		t.Fatal(err)
	}
	want, err := s.Run()
	if err != nil {
		t.Fatal(err)
	}
	got, err := ImportSchedule([]byte(hand))
	if err != nil {
		t.Fatal(err)
	}
	sameWorld(t, "hand-written schedule", got.World(), snapOf(want))
	if a := got.Actions(); a[0].Do != raftcore.DoPartition || a[1].Do != raftcore.DoWrite || a[2].Do != raftcore.DoHeal || a[2].AfterEvents == 0 {
		t.Fatalf("imported log: %+v", a)
	}

	before := snapOf(tl.World())
	for _, c := range []struct{ data, want string }{
		{``, "schedule is empty"},
		{`{"nodes":3,"until_ms":1000,"actions":[{"at_ms":5,"do":"crash","node":4}]}`, "actions[0].node: 4 is out of range"},
		{`{"until_ms":1000,"actions":[],"bogus":1}`, `unknown field "bogus"`},
		{`{"until_ms":1000,"actions":[{"at_ms":50,"do":"write","node":1,"key":"k"},{"at_ms":10,"do":"drop","id":77}]}`, "actions[1] (drop at 10ms): id: message 77 is not in flight"},
	} {
		if _, err := ImportSchedule([]byte(c.data)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ImportSchedule(%s): %v, want %q", c.data, err, c.want)
		}
	}
	sameWorld(t, "timeline after failed imports", tl.World(), before)
}

func TestSeekSeconds(t *testing.T) {
	tl := mustNew(t, testConfig(), Options{})
	if err := SeekSeconds(tl, 12.5); err != nil {
		t.Fatal(err)
	}
	if tl.Pos().AtUs != 12_500_000 || tl.Head() != tl.Pos() {
		t.Fatalf("t=12.5 reached %v, head %v", tl.Pos(), tl.Head())
	}
	w := raftcore.MustWorld(testConfig())
	w.RunUntil(12_500_000)
	sameWorld(t, "t=12.5", tl.World(), snapOf(w))
	if err := SeekSeconds(tl, 2); err != nil || tl.Pos().AtUs != 2_000_000 || tl.Head().AtUs != 12_500_000 {
		t.Fatalf("t=2: %v at %v head %v", err, tl.Pos(), tl.Head())
	}
	for _, s := range []float64{-1, 3601, math.NaN(), math.Inf(1)} {
		if err := SeekSeconds(tl, s); err == nil || !strings.HasPrefix(err.Error(), "t: ") {
			t.Errorf("SeekSeconds(%g): %v", s, err)
		}
	}
	if tl.Pos().AtUs != 2_000_000 {
		t.Fatal("a refused t moved the timeline")
	}
}

// TestWholeScheduleKeepsTheRunAfterSteppingBack: stepped back to any
// moment, the whole-run schedule still holds every action and ends where
// the run does, as the share link does, and replays to the run's last world.
func TestWholeScheduleKeepsTheRunAfterSteppingBack(t *testing.T) {
	tl := mustNew(t, testConfig(), smallOpts)
	liveRun(t, tl, rand.New(rand.NewPCG(23, 24)), 20)
	tl.Advance(1) // end the head's instant, as a schedule does
	end := snapOf(tl.World())
	head := tl.Head()
	for _, us := range []int64{0, 7_654_321, head.AtUs} {
		tl.SeekTime(us)
		var buf bytes.Buffer
		if err := tl.WriteWholeSchedule(&buf); err != nil {
			t.Fatal(err)
		}
		s, err := raftcore.ParseSchedule(buf.Bytes())
		if err != nil {
			t.Fatalf("at %d µs: the schedule does not parse: %v", us, err)
		}
		if int64(s.UntilMs*1000) != head.AtUs || len(s.Actions) != len(tl.Link("", nil).Actions) {
			t.Fatalf("at %d µs: until_ms %g with %d actions; want the run's end %d µs and the link's %d actions",
				us, s.UntilMs, len(s.Actions), head.AtUs, len(tl.Link("", nil).Actions))
		}
		w, err := s.Run()
		if err != nil {
			t.Fatal(err)
		}
		sameWorld(t, "whole schedule", w, end)
	}
}
