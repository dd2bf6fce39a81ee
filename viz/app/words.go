package app

import (
	"fmt"
	"math"
	"strconv"

	"raftlab/raftcore"
	"raftlab/raftcore/timeline"
)

// The words the app shows for machines, actions and operations. Every
// sentence a reader sees is built here or in panels.go.

func utoa(v uint64) string { return strconv.FormatUint(v, 10) }

// fmtMs writes a duration in microseconds as milliseconds or seconds.
func fmtMs(us int64) string {
	switch {
	case us < 0:
		return "-" + fmtMs(-us)
	case us < 10_000:
		return strconv.FormatFloat(float64(us)/1000, 'f', 1, 64) + " ms"
	case us < 1_000_000:
		return strconv.FormatInt((us+500)/1000, 10) + " ms"
	case us < 100_000_000:
		return strconv.FormatFloat(float64(us)/1e6, 'f', 2, 64) + " s"
	}
	return strconv.FormatFloat(float64(us)/1e6, 'f', 0, 64) + " s"
}

// fmtClock writes a virtual time as seconds with milliseconds.
func fmtClock(us int64) string {
	return strconv.FormatFloat(float64(us)/1e6, 'f', 3, 64) + " s"
}

func fmtPercent(p float64) string {
	return strconv.FormatFloat(math.Round(p*1000)/10, 'g', 3, 64) + "%"
}

func fmtFactor(f float64) string {
	return strconv.FormatFloat(f, 'g', 3, 64) + "x"
}

// nodeNames are the display names of a free-play cluster, as the book
// calls its machines.
func nodeNames(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = string(rune('A' + i))
	}
	return out
}

// roleWord is what a machine's role is called under its protocol.
func roleWord(p raftcore.Protocol, r raftcore.Role) string {
	if p == raftcore.ProtocolFailover {
		if r == raftcore.RoleLeader {
			return "authority"
		}
		return "follower"
	}
	switch r {
	case raftcore.RoleFollower:
		return "follower"
	case raftcore.RolePreCandidate:
		return "pre-candidate"
	case raftcore.RoleCandidate:
		return "candidate"
	case raftcore.RoleLeader:
		return "leader"
	case raftcore.RoleReplica:
		return "replica"
	}
	return r.String()
}

// capital upper-cases the first letter of s.
func capital(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}

// describeAction says in a few words what an action did: the timeline's
// words for it (the same the timeline's marks use), or for a client
// request, what the client asked.
func describeAction(cfg raftcore.Config, a raftcore.Action) string {
	node := cfg.Name(raftcore.NodeID(a.Node))
	switch a.Do {
	case raftcore.DoWrite:
		return "Client asked " + node + " to write " + a.Key + " = " + a.Value
	case raftcore.DoDelete:
		return "Client asked " + node + " to delete " + a.Key
	case raftcore.DoRead:
		return "Client asked " + node + " to read " + a.Key + " (" + string(a.Mode) + ")"
	}
	return capital(timeline.ActionWords(cfg, a))
}

// opMark is the mark and tone of a client operation's outcome: done,
// waiting, or failed (timed out or refused).
func opMark(op raftcore.Op) (string, Tone) {
	switch op.Result {
	case raftcore.OpPending:
		return "…", ToneWarn
	case raftcore.OpTimeout, raftcore.OpRefused:
		return "✗", ToneBad
	}
	return "✓", ToneGood
}

// clauseMark is the mark and tone of a contract clause: holds, not yet
// (the cluster has not caught up), or broken.
func clauseMark(cl raftcore.Clause) (string, Tone) {
	switch cl.State {
	case raftcore.ClauseNotYet:
		return "…", ToneWarn
	case raftcore.ClauseBroken:
		return "✗", ToneBad
	}
	return "✓", ToneGood
}

// opLine says what became of a client operation.
func opLine(cfg raftcore.Config, op raftcore.Op) string {
	node := cfg.Name(op.Node)
	var what string
	switch op.Kind {
	case raftcore.DoWrite:
		what = "write " + op.Key + " = " + op.Value
	case raftcore.DoDelete:
		what = "delete " + op.Key
	default:
		what = "read " + op.Key
		if op.Mode != "" {
			what += " (" + string(op.Mode) + ")"
		}
	}
	what += " at " + node
	switch op.Result {
	case raftcore.OpPending:
		return what + ": waiting"
	case raftcore.OpOK:
		if op.Kind == raftcore.DoRead {
			if op.ReadFound {
				return what + ": " + op.ReadValue
			}
			return what + ": not found"
		}
		return what + ": done"
	case raftcore.OpTimeout:
		return what + ": no answer"
	}
	if op.Reason != "" {
		return what + ": refused (" + op.Reason + ")"
	}
	return what + ": refused"
}

// msgLabel is the short tag drawn beside a message dot.
func msgLabel(m *raftcore.Message) string {
	switch m.Type {
	case raftcore.MsgPreVote:
		return "pre-vote?"
	case raftcore.MsgPreVoteResp:
		if m.Reject {
			return "pre-vote no"
		}
		return "pre-vote yes"
	case raftcore.MsgVote:
		return "vote?"
	case raftcore.MsgVoteResp:
		if m.Reject {
			return "vote no"
		}
		return "vote yes"
	case raftcore.MsgApp:
		if len(m.Entries) == 0 {
			return "append"
		}
		return "append " + strconv.Itoa(len(m.Entries))
	case raftcore.MsgAppResp:
		if m.Reject {
			return "append no"
		}
		return "append ok"
	case raftcore.MsgHeartbeat:
		return "heartbeat"
	case raftcore.MsgHeartbeatResp:
		return "heartbeat ok"
	case raftcore.MsgProp:
		return "forward write"
	case raftcore.MsgReadIndex:
		return "read index?"
	case raftcore.MsgReadIndexResp:
		return "read index"
	case raftcore.MsgCopy:
		return "copy"
	case raftcore.MsgClient:
		return "client"
	}
	return m.Type.String()
}

// msgSentence explains a message in full, for the inspector.
func msgSentence(cfg raftcore.Config, m *raftcore.Message) string {
	from, to := cfg.Name(m.From), cfg.Name(m.To)
	switch m.Type {
	case raftcore.MsgPreVote:
		return from + " asks " + to + ": would you vote for me in term " + utoa(m.Term) + "? (a trial round; no term changes yet)"
	case raftcore.MsgVote:
		return from + " asks " + to + " for its vote in term " + utoa(m.Term) + "; its log ends at index " + utoa(m.Index) + ", term " + utoa(m.LogTerm) + "."
	case raftcore.MsgPreVoteResp, raftcore.MsgVoteResp:
		if m.Reject {
			return to + " is refused by " + from + "."
		}
		return from + " grants " + to + " its vote."
	case raftcore.MsgApp:
		if len(m.Entries) == 0 {
			return from + " (leader, term " + utoa(m.Term) + ") tells " + to + " that entries up to " + utoa(m.Commit) + " are committed."
		}
		return fmt.Sprintf("%s (leader, term %d) sends %s %d entries after index %d (term %d); committed up to %d.",
			from, m.Term, to, len(m.Entries), m.Index, m.LogTerm, m.Commit)
	case raftcore.MsgAppResp:
		if m.Reject {
			return from + " tells " + to + " its log does not match at index " + utoa(m.Index) + "; it suggests trying from " + utoa(m.RejectHint) + "."
		}
		return from + " tells " + to + " its log matches up to index " + utoa(m.Index) + "."
	case raftcore.MsgHeartbeat:
		return from + " (leader, term " + utoa(m.Term) + ") tells " + to + " it is still leading."
	case raftcore.MsgHeartbeatResp:
		return from + " answers " + to + "'s heartbeat."
	case raftcore.MsgProp:
		return from + " forwards a client's write to " + to + ", which it believes leads."
	case raftcore.MsgReadIndex:
		return from + " asks " + to + " how far it must apply before it may answer a read."
	case raftcore.MsgReadIndexResp:
		return from + " tells " + to + " to answer the read once it has applied index " + utoa(m.Index) + "."
	case raftcore.MsgCopy:
		return from + " sends " + to + " a copy of a write it accepted. Nothing orders or acknowledges it."
	}
	return from + " → " + to + ": " + m.Type.String()
}

// termSuffix is " (term N)" under Raft, where terms mean something.
func termSuffix(cfg raftcore.Config, term uint64) string {
	if cfg.Protocol != raftcore.ProtocolRaft || term == 0 {
		return ""
	}
	return " (term " + utoa(term) + ")"
}

// fmtLatency writes a link's latency range in whole milliseconds, as one
// number when the range is a single value ("400 ms", not "400–400 ms").
func fmtLatency(minUs, maxUs int64) string {
	lo, hi := strconv.FormatInt(minUs/1000, 10), strconv.FormatInt(maxUs/1000, 10)
	if lo == hi {
		return lo + " ms"
	}
	return lo + "–" + hi + " ms"
}
