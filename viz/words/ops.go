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

// Refusal says why a machine refused a client's operation, at the rung
// of words given: the chapter's where Raft's would name leaders or
// elections.
func Refusal(r raftcore.Refusal, level Level) string {
	v := Voice{Level: level}
	switch r {
	case raftcore.RefusedNoLeader:
		if v.Plain() {
			return v.inCharge("no machine known to be in charge", "no machine known to take the writes")
		}
		return "no leader known"
	case raftcore.RefusedElection:
		if v.Plain() {
			return v.inCharge("a machine is taking over", "the machines are settling which takes the writes")
		}
		return "an election is under way"
	case raftcore.RefusedNoAuthority:
		return "no authority known"
	case raftcore.RefusedLeaseNoCheckQuorum:
		return "lease reads need CheckQuorum, which is off"
	case raftcore.RefusedMachineDown:
		return "the machine is down"
	case raftcore.RefusedInboxFull:
		return "the machine's inbox is full"
	case raftcore.RefusedCrashed:
		return "the machine crashed"
	case raftcore.RefusedTransfer:
		if v.Plain() {
			return v.inCharge("the machine in charge is handing over to another", "the machine taking the writes is handing them to another")
		}
		return "the leader is handing leadership to another machine"
	}
	return r.String()
}

// OpLine says what became of a client operation, in plain words where the
// screen speaks them.
func (v Voice) OpLine(op raftcore.Op) string { return opLine(*v.Cfg, op, v.Level) }

// OpLine says what became of a client operation, in a protocol's words:
// "write k = v at A: done, rev 3".
func OpLine(cfg raftcore.Config, op raftcore.Op) string { return opLine(cfg, op, LevelRaft) }

func opLine(cfg raftcore.Config, op raftcore.Op, level Level) string {
	what := opAsked(op, level) + " at " + cfg.Name(op.Node)
	if op.Cluster {
		what = opAsked(op, level) + " to the cluster, at " + cfg.Name(op.Node)
	}
	if op.Controller != 0 || op.Informer != 0 {
		what = opClient(cfg, op) + ": " + what
	}
	return what + ": " + opOutcome(op, level)
}

// opAsked is what a client asked for: "write k = v if at rev 2",
// "delete k", "read k by lease". How a read is served is said as a manner
// ("locally", "linearizably"), apart from the check's verdict on what it
// returned ("fresh", "stale"). The chapter's figures do not name the ways
// a read is served: a read there goes through the history, or, where a
// machine answers alone, comes from its own copy.
func opAsked(op raftcore.Op, level Level) string {
	switch {
	case op.List:
		// An informer's list: a linearizable read of every object
		// under its prefixes.
		return "list deployments and replicasets"
	case op.Informer != 0 && op.Cas && op.IfRev == 0:
		return "create " + op.Key + " if absent"
	}
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
	if level != LevelRaft {
		if op.Mode == raftcore.ReadLocal {
			s += " from its own copy"
		}
		return s
	}
	switch op.Mode {
	case "":
	case raftcore.ReadLinearizable:
		s += " linearizably"
	case raftcore.ReadLocal:
		s += " locally"
	case raftcore.ReadLease:
		s += " by lease"
	default:
		s += " (" + string(op.Mode) + ")"
	}
	return s
}

// opClient names who asked: a client, or one of the controllers, by the
// name the configuration gives it.
func opClient(cfg raftcore.Config, op raftcore.Op) string {
	if op.Controller != 0 {
		return cfg.ControllerName(op.Controller)
	}
	if op.Informer != 0 {
		return "deployment controller " + Itoa(op.Informer)
	}
	return "a client"
}

// opOutcome is what became of op: "waiting", "done, rev 3", "not found",
// "refused (no leader known)"...
func opOutcome(op raftcore.Op, level Level) string {
	switch op.Result {
	case raftcore.OpPending:
		return "waiting"
	case raftcore.OpOK:
		switch {
		case op.List:
			return "listed at rev " + Utoa(op.ReadAt)
		case op.Kind == raftcore.DoRead && op.ReadFound:
			return op.ReadValue + " (rev " + Utoa(op.ReadRev) + ")"
		case op.Kind == raftcore.DoRead:
			return "not found"
		case op.Kind == raftcore.DoWrite:
			return "done, rev " + Utoa(op.Index)
		}
		return "done"
	case raftcore.OpConflict:
		if op.Informer != 0 && op.IfRev == 0 {
			return "already exists (rev " + Utoa(op.FoundRev) + ")"
		}
		return "swap failed, found rev " + Utoa(op.FoundRev)
	case raftcore.OpTimeout:
		return "no answer"
	}
	if op.Refusal != raftcore.RefusedNone {
		return "refused (" + Refusal(op.Refusal, level) + ")"
	}
	return "refused"
}

// opAsks says that a client asks for op, as a client mark does: "a
// client asks A to write k = v".
func opAsks(cfg raftcore.Config, op raftcore.Op, level Level) string {
	return opClient(cfg, op) + " asks " + cfg.Name(op.Node) + " to " + opAsked(op, level)
}

// opAnswered says what became of op and how long it took, as a client
// mark does: the client panel's line and the wait.
func opAnswered(cfg raftcore.Config, op raftcore.Op, level Level) string {
	return opLine(cfg, op, level) + ", after " + elapsed(op.CompleteUs-op.InvokeUs)
}

// Verdict says what the linearizability check made of a read: "fresh" for
// a read that saw every write acknowledged before it began, in words
// that cannot be mistaken for how the read was served.
func Verdict(v linearize.ReadVerdict) string {
	switch v.Verdict {
	case linearize.Stale:
		if v.Missed > 0 {
			return "stale: missed #" + strconv.Itoa(v.Missed)
		}
		return "stale"
	case linearize.Unknown:
		return "not judged: the check ran out of time"
	case linearize.Linearizable:
		return "fresh"
	case linearize.Unanswered:
		return "unanswered"
	}
	return string(v.Verdict)
}
