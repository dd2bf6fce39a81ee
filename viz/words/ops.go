package words

import (
	"strconv"

	"raftlab/internal/linearize"
	"raftlab/raftcore"
)

// The words for client operations: what was asked, what became of it,
// and what the linearizability check made of a read. The client panel's
// lines and the timeline's client marks say an operation in the same
// words.

// plainRefusal says in plain words why Raft refused a client, where
// Raft's words for it would name leaders or elections.
func plainRefusal(r raftcore.Refusal) (string, bool) {
	switch r {
	case raftcore.RefusedNoLeader:
		return "no machine known to be in charge", true
	case raftcore.RefusedElection:
		return "a machine is taking over", true
	}
	return "", false
}

// PlainOp is op with its Reason in plain words where the screen speaks
// them.
func (v Voice) PlainOp(op raftcore.Op) raftcore.Op {
	if r, ok := plainRefusal(op.Refusal); ok && v.Plain {
		op.Reason = r
	}
	return op
}

// OpLine says what became of a client operation, in plain words where the
// screen speaks them.
func (v Voice) OpLine(op raftcore.Op) string {
	return OpLine(*v.Cfg, v.PlainOp(op))
}

// OpLine says what became of a client operation, in a protocol's words:
// "write k = v at A: done, rev 3".
func OpLine(cfg raftcore.Config, op raftcore.Op) string {
	what := opAsked(op) + " at " + cfg.Name(op.Node)
	if op.Controller != 0 {
		what = opClient(op) + ": " + what
	}
	return what + ": " + opOutcome(op)
}

// opAsked is what a client asked for: "write k = v if at rev 2",
// "delete k", "read k (lease)".
func opAsked(op raftcore.Op) string {
	switch op.Kind {
	case raftcore.DoWrite:
		s := "write " + op.Key + " = " + op.Value
		if op.Cas {
			s += " if at rev " + Utoa(op.IfRev)
		}
		return s
	case raftcore.DoDelete:
		return "delete " + op.Key
	}
	s := "read " + op.Key
	if op.Mode != "" {
		s += " (" + string(op.Mode) + ")"
	}
	return s
}

// opClient names who asked: a client, or one of the controllers.
func opClient(op raftcore.Op) string {
	if op.Controller != 0 {
		return "controller " + strconv.Itoa(op.Controller)
	}
	return "a client"
}

// opOutcome is what became of op: "waiting", "done, rev 3", "not found",
// "refused (no leader known)"...; a refusal is told in op.Reason's words.
func opOutcome(op raftcore.Op) string {
	switch op.Result {
	case raftcore.OpPending:
		return "waiting"
	case raftcore.OpOK:
		switch {
		case op.Kind == raftcore.DoRead && op.ReadFound:
			return op.ReadValue + " (rev " + Utoa(op.ReadRev) + ")"
		case op.Kind == raftcore.DoRead:
			return "not found"
		case op.Kind == raftcore.DoWrite:
			return "done, rev " + Utoa(op.Index)
		}
		return "done"
	case raftcore.OpConflict:
		return "swap failed, found rev " + Utoa(op.FoundRev)
	case raftcore.OpTimeout:
		return "no answer"
	}
	if op.Refusal != raftcore.RefusedNone {
		return "refused (" + op.Reason + ")"
	}
	return "refused"
}

// opAsks says that a client asks for op, as a client mark does: "a
// client asks A to write k = v".
func opAsks(cfg raftcore.Config, op raftcore.Op) string {
	return opClient(op) + " asks " + cfg.Name(op.Node) + " to " + opAsked(op)
}

// opAnswered says what became of op and how long it took, as a client
// mark does: the client panel's line and the wait.
func opAnswered(cfg raftcore.Config, op raftcore.Op) string {
	return OpLine(cfg, op) + ", after " + elapsed(op.CompleteUs-op.InvokeUs)
}

// Verdict says what the linearizability check made of a read.
func Verdict(v linearize.ReadVerdict) string {
	switch v.Verdict {
	case linearize.Stale:
		if v.Missed > 0 {
			return "stale: missed #" + strconv.Itoa(v.Missed)
		}
		return "stale"
	case linearize.Unknown:
		return "not judged: the check ran out of time"
	}
	return string(v.Verdict)
}
