package words

import (
	"fmt"
	"strconv"

	"raftlab/raftcore"
)

// The words for messages: the tag beside a message's dot, and the
// sentence that explains it in full.

// MsgLabel is the short tag drawn beside a message dot, in plain words
// where the screen speaks them.
func (v Voice) MsgLabel(m *raftcore.Message) string {
	// say picks Raft's words or the plain ones.
	say := func(raft, plain string) string {
		if v.Plain() {
			return plain
		}
		return raft
	}
	switch m.Type {
	case raftcore.MsgPreVote:
		return say("pre-vote?", "back me?")
	case raftcore.MsgPreVoteResp:
		if m.Reject {
			return say("pre-vote no", "no") + v.rejectTag(m)
		}
		return say("pre-vote yes", "yes")
	case raftcore.MsgVote:
		return say("vote?", "back me?")
	case raftcore.MsgVoteResp:
		if m.Reject {
			return say("vote no", "no") + v.rejectTag(m)
		}
		return say("vote yes", "yes")
	case raftcore.MsgApp:
		if len(m.Entries) == 0 {
			return say("append", "update")
		}
		return say("append ", "copy ") + strconv.Itoa(len(m.Entries))
	case raftcore.MsgAppResp:
		switch {
		case m.Reject:
			return say("append no", "mismatch") + v.rejectTag(m)
		case m.Why == raftcore.RejectLowerTerm:
			return say("newer term "+Utoa(m.Term), "out of date")
		}
		return say("append ok", "copied")
	case raftcore.MsgHeartbeat:
		return say("heartbeat", "still here")
	case raftcore.MsgHeartbeatResp:
		return say("heartbeat ok", "heard")
	case raftcore.MsgProp:
		return "forward write"
	case raftcore.MsgReadIndex:
		return say("read index?", "read?")
	case raftcore.MsgReadIndexResp:
		return say("read index", "read ok")
	case raftcore.MsgCopy:
		return "copy"
	case raftcore.MsgClient:
		return "client"
	case raftcore.MsgSnap:
		return say("snapshot", "whole state")
	case raftcore.MsgKube, raftcore.MsgKubeResp:
		return kubeMsgTag(m)
	}
	return m.Type.String()
}

// MsgSentence explains a message in full, for the inspector.
func (v Voice) MsgSentence(m *raftcore.Message) string {
	if m.Type == raftcore.MsgKube || m.Type == raftcore.MsgKubeResp {
		return kubeMsgSentence(*v.Cfg, m)
	}
	if !v.Plain() {
		return raftMsgSentence(*v.Cfg, m)
	}
	from, to := v.Cfg.Name(m.From), v.Cfg.Name(m.To)
	taking := v.inCharge("taking charge", "taking the writes")
	switch m.Type {
	case raftcore.MsgPreVote:
		return from + " asks " + to + " whether it would back " + from + " " + taking + ": a trial, which changes nothing yet."
	case raftcore.MsgVote:
		return from + " asks " + to + " to back it " + taking + "; its history ends at entry " + Utoa(m.Index) + "."
	case raftcore.MsgPreVoteResp, raftcore.MsgVoteResp:
		if m.Reject {
			return from + " will not back " + to + v.plainRefusal(m) + "."
		}
		return from + " backs " + to + "."
	case raftcore.MsgApp:
		from += v.inCharge(", in charge,", ", which takes the writes,")
		if len(m.Entries) == 0 {
			return from + " tells " + to + " that entries up to " + Utoa(m.Commit) + " are committed."
		}
		return fmt.Sprintf("%s sends %s %s after entry %d; committed up to %d.",
			from, to, Count(len(m.Entries), "entry", "entries"), m.Index, m.Commit)
	case raftcore.MsgAppResp:
		if m.Reject {
			return from + " has no entry matching " + to + "'s entry " + Utoa(m.Index) + ", so it takes nothing; " + to + " will try from earlier."
		}
		if m.Why == raftcore.RejectLowerTerm {
			return from + " tells " + to + " that it is out of date: " + to + " no longer " + v.inCharge("is in charge", "takes the writes") + "."
		}
	case raftcore.MsgHeartbeat:
		return from + " tells " + to + " it " + v.inCharge("is still in charge", "still takes the writes") + "."
	case raftcore.MsgHeartbeatResp:
		return from + " tells " + to + " it still hears it."
	case raftcore.MsgProp:
		return from + " forwards a client's write to " + to + ", which it believes " + v.inCharge("is in charge", "takes the writes") + "."
	case raftcore.MsgReadIndex:
		return from + " asks " + to + " how far it must carry out the history before it may answer a read."
	case raftcore.MsgReadIndexResp:
		return from + " tells " + to + " to answer the read once it has carried out entry " + Utoa(m.Index) + "."
	case raftcore.MsgSnap:
		return from + " sends " + to + " its whole state as of entry " + Utoa(m.Snapshot.Index) + ", since it no longer keeps the entries " + to + " lacks."
	}
	return raftMsgSentence(*v.Cfg, m)
}

// inCharge is the words given for a screen that speaks of a machine in
// charge, or the others for one that does not yet.
func (v Voice) inCharge(charge, copies string) string {
	if v.InCharge() {
		return charge
	}
	return copies
}

// raftMsgSentence explains a message in full, in Raft's words.
func raftMsgSentence(cfg raftcore.Config, m *raftcore.Message) string {
	from, to := cfg.Name(m.From), cfg.Name(m.To)
	switch m.Type {
	case raftcore.MsgPreVote:
		return from + " asks " + to + ": would you vote for me in term " + Utoa(m.Term) + "? (a trial round; no term changes yet)"
	case raftcore.MsgVote:
		return from + " asks " + to + " for its vote in term " + Utoa(m.Term) + "; its log ends at index " + Utoa(m.Index) + ", term " + Utoa(m.LogTerm) + "."
	case raftcore.MsgPreVoteResp, raftcore.MsgVoteResp:
		if m.Reject {
			return voteRefusal(from, to, m)
		}
		return from + " grants " + to + " its vote."
	case raftcore.MsgApp:
		if len(m.Entries) == 0 {
			return from + " (leader, term " + Utoa(m.Term) + ") tells " + to + " that entries up to " + Utoa(m.Commit) + " are committed."
		}
		return fmt.Sprintf("%s (leader, term %d) sends %s %d entries after index %d (term %d); committed up to %d.",
			from, m.Term, to, len(m.Entries), m.Index, m.LogTerm, m.Commit)
	case raftcore.MsgAppResp:
		if m.Reject {
			return from + " turns down " + to + "'s append: its log has no entry matching index " + Utoa(m.Index) + " of the leader's; it suggests trying from " + Utoa(m.RejectHint) + "."
		}
		if m.Why == raftcore.RejectLowerTerm {
			return from + " ignores " + to + "'s append, which is of an older term, and tells it of term " + Utoa(m.Term) + ": " + to + " is no longer leader."
		}
		return from + " tells " + to + " its log matches up to index " + Utoa(m.Index) + "."
	case raftcore.MsgHeartbeat:
		return from + " (leader, term " + Utoa(m.Term) + ") tells " + to + " it is still leading."
	case raftcore.MsgHeartbeatResp:
		return from + " answers " + to + "'s heartbeat."
	case raftcore.MsgProp:
		return from + " forwards a client's write to " + to + ", which it believes leads."
	case raftcore.MsgReadIndex:
		return from + " asks " + to + " how far it must apply before it may answer a read."
	case raftcore.MsgReadIndexResp:
		return from + " tells " + to + " to answer the read once it has applied index " + Utoa(m.Index) + "."
	case raftcore.MsgCopy:
		return from + " sends " + to + " a copy of a write it accepted. Nothing orders or acknowledges it."
	case raftcore.MsgTransferLeader:
		return from + " passes on to " + to + ", its leader, a request to hand leadership to " + cfg.Name(m.Origin) + "."
	case raftcore.MsgTimeoutNow:
		return from + " (leader, term " + Utoa(m.Term) + ") tells " + to + " to stand for election at once: it is handing leadership over."
	case raftcore.MsgSnap:
		return from + " (leader, term " + Utoa(m.Term) + ") sends " + to + " its snapshot, the state up to index " + Utoa(m.Snapshot.Index) + " (term " + Utoa(m.Snapshot.Term) + "), in place of the entries it has compacted away."
	}
	return from + " → " + to + ": " + m.Type.String()
}

// OnTheWay says how many messages are on the way along one direction of
// a link, where they are too many to draw each apart.
func OnTheWay(n int) string { return Itoa(n) + " on the way" }
