package main

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"raftlab/raftcore"
	"raftlab/viz"
	"raftlab/viz/app"
)

// TestAppExportReplaysInRaftsim: a run made by a reader in the app (keys,
// a cut link, a crash, writes), exported with "Export run", is a schedule
// that `raftsim run -f` replays to the very same trace, event for event.
func TestAppExportReplaysInRaftsim(t *testing.T) {
	p := viz.DefaultParams()
	p.Nodes, p.Seed, p.Speed = 5, 11, 1
	a, err := app.New(app.Options{Params: p, Width: 1280, Height: 800, SpeedGiven: true})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Duration(0)
	run := func(d time.Duration) {
		for end := now + d; now < end; now += time.Second / 60 {
			a.Update(now)
		}
	}
	run(3 * time.Second)
	for _, step := range []func() error{
		func() error { a.Key("c"); return nil },
		func() error { return a.Command(viz.CmdSpreadTimers) },
		func() error { return a.Act([]byte(`{"do":"cut","from":1,"to":2}`)) },
		func() error { a.Key("c"); return nil },
		func() error { return a.Command(viz.CmdRestartLeader) },
		func() error { a.Key("c"); return nil },
		func() error { return a.Act([]byte(`{"do":"heal"}`)) },
	} {
		if err := step(); err != nil {
			t.Fatal(err)
		}
		run(700 * time.Millisecond)
	}
	if len(a.World().Actions()) < 6 {
		t.Fatalf("the app recorded only %d actions", len(a.World().Actions()))
	}
	t.Logf("%d actions over %v of virtual time, %d trace events", len(a.World().Actions()), time.Duration(a.World().Now())*time.Microsecond, a.World().TraceCount())
	data, err := a.ExportSchedule()
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "raftlab-run.json")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	s := summary(t, mustRun(t, exitOK, "", "run", "-f", file))
	w := a.World()
	if want := raftcore.HashString(w.TraceHash()); s.TraceHash != want || s.TraceEvents != w.TraceCount() {
		t.Fatalf("raftsim replays the app's export to trace %s (%d events); the app shows %s (%d events)",
			s.TraceHash, s.TraceEvents, want, w.TraceCount())
	}
}
