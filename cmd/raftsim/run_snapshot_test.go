package main

import (
	"fmt"
	"strings"
	"testing"
)

// TestSnapshotFlagsOverTheFile: -snapshot-count and -catch-up-entries
// change the run as the file's options would: a run of 40 writes with a
// snapshot every 10 applied entries records snapshots, and one with 0 takes
// none and ends with another trace.
func TestSnapshotFlagsOverTheFile(t *testing.T) {
	var acts []string
	for i := 0; i < 40; i++ {
		acts = append(acts, fmt.Sprintf(`{"at_ms":%d,"do":"write","node":1,"key":"k","value":"v%d"}`, 3000+100*i, i))
	}
	sched := `{"nodes":3,"seed":4,"until_ms":12000,"actions":[` + strings.Join(acts, ",") + `]}`
	withSnaps := summary(t, mustRun(t, exitOK, sched, "run", "-f", "-", "-snapshot-count", "10", "-catch-up-entries", "2"))
	fileSnaps := summary(t, mustRun(t, exitOK, strings.Replace(sched, `"until_ms"`, `"options":{"snapshot_count":10,"catch_up_entries":2},"until_ms"`, 1), "run", "-f", "-"))
	none := summary(t, mustRun(t, exitOK, sched, "run", "-f", "-", "-snapshot-count", "0"))
	if withSnaps.TraceHash != fileSnaps.TraceHash {
		t.Errorf("the flags and the file's options give different runs: %s and %s", withSnaps.TraceHash, fileSnaps.TraceHash)
	}
	if withSnaps.TraceHash == none.TraceHash {
		t.Errorf("snapshots every 10 entries left the run as it is without them")
	}
}
