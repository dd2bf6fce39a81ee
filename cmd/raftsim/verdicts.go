package main

import (
	"raftlab/internal/linearize"
	"raftlab/raftcore"
)

// judgeReads fills in the verdict of each answered read, and of each
// compare-and-swap whose client learned its outcome, in a summary of w:
// porcupine's linearizability check of the run's client history.
func judgeReads(sum *raftcore.Summary, w *raftcore.World) {
	res := linearize.Check(w.Ops())
	for i := range sum.Ops {
		v, ok := res.Verdict(sum.Ops[i].ID)
		if !ok || v.Verdict == linearize.Unanswered {
			continue
		}
		sum.Ops[i].Verdict = string(v.Verdict)
		sum.Ops[i].Missed = v.Missed
	}
}

// summarize is World.Summarize with every read judged.
func summarize(w *raftcore.World) raftcore.Summary {
	sum := w.Summarize()
	judgeReads(&sum, w)
	return sum
}
