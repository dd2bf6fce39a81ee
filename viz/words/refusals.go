package words

import "raftlab/raftcore"

// The words for why a machine refused a vote or turned down an append:
// the short tag after a refusal's label, and the sentence in full.

// rejectTag is the reason a refusal's label ends with, after a colon; none
// when the message carries no reason.
func (v Voice) rejectTag(m *raftcore.Message) string {
	say := func(raft, plain string) string {
		if v.Plain() {
			return ": " + plain
		}
		return ": " + raft
	}
	switch m.Why {
	case raftcore.RejectLowerTerm:
		return say("old term", "out of date")
	case raftcore.RejectAlreadyVoted:
		return say("voted", "backs another")
	case raftcore.RejectHasLeader:
		return say("has leader", v.inCharge("has one in charge", "hears another"))
	case raftcore.RejectLogBehind:
		return say("log behind", "history behind")
	case raftcore.RejectLogMismatch:
		return say("no match at "+Utoa(m.Index), "gap at "+Utoa(m.Index))
	}
	return ""
}

// voteRefusal explains in Raft's words why from refused to its vote or
// pre-vote.
func voteRefusal(from, to string, m *raftcore.Message) string {
	what := " its vote"
	if m.Type == raftcore.MsgPreVoteResp {
		what = " its pre-vote"
	}
	refuses := from + " refuses " + to + what
	switch m.Why {
	case raftcore.RejectLowerTerm:
		return refuses + ": " + to + " asked for a term older than " + from + "'s term " + Utoa(m.Term) + "."
	case raftcore.RejectAlreadyVoted:
		return refuses + ": it already voted for another candidate in term " + Utoa(m.Term) + ", and a machine votes once per term."
	case raftcore.RejectHasLeader:
		return refuses + ": it already follows a leader in term " + Utoa(m.Term) + ", so there is no one to elect."
	case raftcore.RejectLogBehind:
		return refuses + ": " + to + "'s log is not as up to date as " + from + "'s (its last entry's term is lower, or the same with fewer entries): as leader it could lack entries already committed."
	}
	return to + " is refused by " + from + "."
}

// plainRefusal is why a machine will not back another, in the chapter's
// words, after a colon; none when the message carries no reason.
func (v Voice) plainRefusal(m *raftcore.Message) string {
	switch m.Why {
	case raftcore.RejectLowerTerm, raftcore.RejectLogBehind:
		return ": the other's history is out of date"
	case raftcore.RejectAlreadyVoted:
		return ": it already backs another this round"
	case raftcore.RejectHasLeader:
		return ": it already hears " + v.inCharge("one in charge", "another taking the writes")
	}
	return ""
}

// Ignored is the tag beside a vote or pre-vote request its receiver
// ignored on arrival because it still hears a live leader (CheckQuorum's
// lease): no answer is sent, so the tag is the only place that says why.
func (v Voice) Ignored(t raftcore.MsgType) string {
	if v.Plain() {
		return "ignored: " + v.inCharge("one in charge is alive", "it hears another")
	}
	if t == raftcore.MsgPreVote {
		return "pre-vote ignored: leader alive"
	}
	return "vote ignored: leader alive"
}
