package indepcheck

import (
	"fmt"

	"raftlab/internal/linearize"
	"raftlab/raftcore"
)

// linearizeBudget bounds each porcupine search of a run's history, so a
// run's check ends even on a history porcupine finds hard. A search that
// runs out of it is reported, never passed.
const linearizeBudget = linearize.DefaultBudget

// checkLinearizable judges the client history with porcupine, through
// internal/linearize: a second judgement of the reads, from the history
// alone (when each operation was sent and answered, and what it returned),
// where Finish's first one reads the committed log. Writes and ReadIndex and
// lease reads are judged; a local read promises nothing, so it is left out.
//
// A ReadIndex read porcupine calls stale is a violation. A stale lease read
// is stale by design, and counted with the ones Finish found, when a leader
// of a later term than the one that served it had been elected by the time
// it was answered; any other stale lease read is a violation. So is a
// compare-and-swap whose answer no order of the history allows.
func (c *Checker) checkLinearizable(ops []raftcore.Op) {
	var judged []raftcore.Op
	for _, op := range ops {
		if op.Kind == raftcore.DoRead && op.Mode == raftcore.ReadLocal {
			continue
		}
		judged = append(judged, op)
	}
	res := linearize.CheckWithin(judged, linearizeBudget)
	for _, v := range res.Swaps {
		switch v.Verdict {
		case linearize.Stale:
			op, _ := c.w.Op(v.Op)
			c.report(fmt.Sprint(v.Op), "linearizability", "compare-and-swap %d of %s expecting revision %d answered %s, which no order of the history allows (porcupine; the write it missed: %d)", v.Op, op.Key, op.IfRev, op.Result, v.Missed)
		case linearize.Unknown:
			c.report(fmt.Sprint(v.Op), "linearizability", "porcupine ran out of its %v budget on compare-and-swap %d: the history was not judged", linearizeBudget, v.Op)
		}
	}
	for _, v := range res.Reads {
		op, ok := c.w.Op(v.Op)
		if !ok {
			c.report(fmt.Sprint(v.Op), "linearizability", "porcupine judged read %d, which the history does not hold", v.Op)
			continue
		}
		switch v.Verdict {
		case linearize.Stale:
			if op.Mode == raftcore.ReadLease && c.deposedBy(op) {
				c.staleByDesign[op.ID] = true
				continue
			}
			c.report(fmt.Sprint(op.ID), "linearizability", "%s read %d of %s returned %q (found %v), which no order of the history allows (porcupine; the write it missed: %d)", op.Mode, op.ID, op.Key, op.ReadValue, op.ReadFound, v.Missed)
		case linearize.Unknown:
			c.report(fmt.Sprint(op.ID), "linearizability", "porcupine ran out of its %v budget on read %d of %s: the history was not judged", linearizeBudget, op.ID, op.Key)
		}
	}
}
