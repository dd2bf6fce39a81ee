package scene

import (
	"raftlab/raftcore"
	"raftlab/viz/frame"
)

// opMark is the mark and tone of a client operation's outcome: done,
// waiting, or failed (timed out or refused).
func opMark(op raftcore.Op) (string, frame.Tone) {
	switch op.Result {
	case raftcore.OpPending:
		return "…", frame.ToneWarn
	case raftcore.OpTimeout, raftcore.OpRefused:
		return "✗", frame.ToneBad
	case raftcore.OpConflict:
		// The swap did its job: it refused to overwrite a newer revision.
		return "✗", frame.ToneWarn
	}
	return "✓", frame.ToneGood
}

// clauseMark is the mark and tone of a contract clause: holds, not yet
// (the cluster has not caught up), or broken.
func clauseMark(cl raftcore.Clause) (string, frame.Tone) {
	switch cl.State {
	case raftcore.ClauseNotYet:
		return "…", frame.ToneWarn
	case raftcore.ClauseBroken:
		return "✗", frame.ToneBad
	}
	return "✓", frame.ToneGood
}
