package main

import (
	"testing"

	"raftlab/raftcore"
)

// TestScenarioOpsCarryReadVerdicts: in cap-reads the local read made on the
// minority side is the one stale read, and names the majority's write it
// missed; every other answered read is linearizable; writes and unanswered
// reads carry no verdict.
func TestScenarioOpsCarryReadVerdicts(t *testing.T) {
	s := scenarioOut(t, mustRun(t, exitOK, "", "run", "-scenario", "cap-reads"))
	stale := 0
	for _, op := range s.Ops {
		answered := op.Kind == raftcore.DoRead && op.Result == raftcore.OpOK
		switch {
		case !answered && (op.Verdict != "" || op.Missed != 0):
			t.Errorf("op %d (%s, %s) has verdict %q", op.ID, op.Kind, op.Result, op.Verdict)
		case answered && op.Verdict == "stale":
			stale++
			missed := s.Ops[op.Missed-1]
			if op.Mode != raftcore.ReadLocal || missed.Kind != raftcore.DoWrite || missed.Value != "replicas=4" || *missed.CompleteMs >= op.InvokeMs {
				t.Errorf("stale read %+v names %+v", op, missed)
			}
		case answered && op.Verdict != "linearizable":
			t.Errorf("read %d has verdict %q", op.ID, op.Verdict)
		}
	}
	if stale != 1 {
		t.Errorf("%d stale reads, want the minority's local read alone", stale)
	}
}
