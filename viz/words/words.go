// Package words writes the words raftlab's screen shows a reader, from
// the typed facts the world and its timeline give: machines' roles,
// messages, client operations and their outcomes, actions, timeline marks
// and contract clauses, and the numbers in them.
//
// A Voice says how the screen speaks: a protocol's own words (Raft's
// terms, votes and leaders; the failover's authority), or the plain words
// of the figures placed before the book introduces Raft, where machines
// are active, waiting or in charge and their histories hold writes.
package words

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"raftlab/internal/linearize"
	"raftlab/raftcore"
	"raftlab/raftcore/timeline"
)

// Voice is how the screen speaks of a world.
type Voice struct {
	// Cfg is the world's configuration: its protocol and machines' names.
	Cfg *raftcore.Config
	// Plain: the figure comes before the book introduces Raft, and speaks
	// no word of Raft's mechanism.
	Plain bool
	// Touch: the reader's hand is a finger, not a mouse and keys.
	Touch bool
}

// ForHand is the words for the reader's hand: touch for a finger, mouse
// for a mouse and keyboard. Hints that name a key or a click say what to
// tap instead on a touch screen.
func (v Voice) ForHand(mouse, touch string) string {
	if v.Touch {
		return touch
	}
	return mouse
}

// Itoa writes a whole number.
func Itoa(n int) string { return strconv.Itoa(n) }

func Utoa(v uint64) string { return strconv.FormatUint(v, 10) }

// Ms writes a duration in microseconds as milliseconds or seconds.
func Ms(us int64) string {
	switch {
	case us < 0:
		return "-" + Ms(-us)
	case us < 10_000:
		return strconv.FormatFloat(float64(us)/1000, 'f', 1, 64) + " ms"
	case us < 1_000_000:
		return strconv.FormatInt((us+500)/1000, 10) + " ms"
	case us < 100_000_000:
		return strconv.FormatFloat(float64(us)/1e6, 'f', 2, 64) + " s"
	}
	return strconv.FormatFloat(float64(us)/1e6, 'f', 0, 64) + " s"
}

// Clock writes a virtual time as seconds with milliseconds.
func Clock(us int64) string {
	return strconv.FormatFloat(float64(us)/1e6, 'f', 3, 64) + " s"
}

func Percent(p float64) string {
	return strconv.FormatFloat(math.Round(p*1000)/10, 'g', 3, 64) + "%"
}

func Factor(f float64) string {
	return strconv.FormatFloat(f, 'g', 3, 64) + "x"
}

// protocolRole is what a machine's role is called under its protocol.
func protocolRole(p raftcore.Protocol, r raftcore.Role) string {
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

// RoleWord is what a machine's role is called on screen: under its
// protocol, or in plain words.
func (v Voice) RoleWord(r raftcore.Role) string {
	if !v.Plain {
		return protocolRole(v.Cfg.Protocol, r)
	}
	switch r {
	case raftcore.RoleLeader:
		return "in charge"
	case raftcore.RoleCandidate:
		return "taking over"
	case raftcore.RolePreCandidate:
		return "asking"
	}
	return "active"
}

// TermSuffix is " (term N)" where terms are shown.
func (v Voice) TermSuffix(term uint64) string {
	if v.Plain {
		return ""
	}
	return raftTermSuffix(*v.Cfg, term)
}

// Capital upper-cases the first letter of s.
func Capital(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}

// Action says in a few words what an action did: the timeline's
// words for it (the same the timeline's marks use), or for a client
// request, what the client asked.
func Action(cfg raftcore.Config, a raftcore.Action) string {
	node := cfg.Name(raftcore.NodeID(a.Node))
	switch a.Do {
	case raftcore.DoWrite:
		return "Client asked " + node + " to write " + a.Key + " = " + a.Value
	case raftcore.DoDelete:
		return "Client asked " + node + " to delete " + a.Key
	case raftcore.DoRead:
		return "Client asked " + node + " to read " + a.Key + " (" + string(a.Mode) + ")"
	case raftcore.DoControl:
		how := "a plain write"
		if a.Cas {
			how = "a swap on the revision read"
		}
		return "A controller asks " + node + " for " + a.Key + ", thinks " + Ms(int64(a.ThinkMs*1000)) + ", writes " + a.Change + " with " + how
	}
	return Capital(timeline.ActionWords(cfg, a))
}

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

// OpLine says what became of a client operation, in a protocol's words.
func OpLine(cfg raftcore.Config, op raftcore.Op) string {
	node := cfg.Name(op.Node)
	var what string
	if op.Controller != 0 {
		what = "controller " + strconv.Itoa(op.Controller) + ": "
	}
	switch op.Kind {
	case raftcore.DoWrite:
		what += "write " + op.Key + " = " + op.Value
		if op.Cas {
			what += " if at rev " + Utoa(op.IfRev)
		}
	case raftcore.DoDelete:
		what += "delete " + op.Key
	default:
		what += "read " + op.Key
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
				return what + ": " + op.ReadValue + " (rev " + Utoa(op.ReadRev) + ")"
			}
			return what + ": not found"
		}
		if op.Kind == raftcore.DoWrite {
			return what + ": done, rev " + Utoa(op.Index)
		}
		return what + ": done"
	case raftcore.OpConflict:
		return what + ": swap failed, found rev " + Utoa(op.FoundRev)
	case raftcore.OpTimeout:
		return what + ": no answer"
	}
	if op.Refusal != raftcore.RefusedNone {
		return what + ": refused (" + op.Reason + ")"
	}
	return what + ": refused"
}

// MsgLabel is the short tag drawn beside a message dot, in plain words
// where the screen speaks them.
func (v Voice) MsgLabel(m *raftcore.Message) string {
	// say picks Raft's words or the plain ones.
	say := func(raft, plain string) string {
		if v.Plain {
			return plain
		}
		return raft
	}
	switch m.Type {
	case raftcore.MsgPreVote:
		return say("pre-vote?", "back me?")
	case raftcore.MsgPreVoteResp:
		if m.Reject {
			return say("pre-vote no", "no")
		}
		return say("pre-vote yes", "yes")
	case raftcore.MsgVote:
		return say("vote?", "back me?")
	case raftcore.MsgVoteResp:
		if m.Reject {
			return say("vote no", "no")
		}
		return say("vote yes", "yes")
	case raftcore.MsgApp:
		if len(m.Entries) == 0 {
			return say("append", "update")
		}
		return say("append ", "copy ") + strconv.Itoa(len(m.Entries))
	case raftcore.MsgAppResp:
		if m.Reject {
			return say("append no", "mismatch")
		}
		return say("append ok", "copied")
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

// MsgSentence explains a message in full, for the inspector.
func (v Voice) MsgSentence(m *raftcore.Message) string {
	if !v.Plain {
		return raftMsgSentence(*v.Cfg, m)
	}
	from, to := v.Cfg.Name(m.From), v.Cfg.Name(m.To)
	switch m.Type {
	case raftcore.MsgPreVote:
		return from + " asks " + to + " whether it would back " + from + " taking charge: a trial, which changes nothing yet."
	case raftcore.MsgVote:
		return from + " asks " + to + " to back it taking charge; its history ends at entry " + Utoa(m.Index) + "."
	case raftcore.MsgPreVoteResp, raftcore.MsgVoteResp:
		verb := " backs "
		if m.Reject {
			verb = " will not back "
		}
		return from + verb + to + "."
	case raftcore.MsgApp:
		if len(m.Entries) == 0 {
			return from + ", in charge, tells " + to + " that entries up to " + Utoa(m.Commit) + " are committed."
		}
		return fmt.Sprintf("%s, in charge, sends %s %s after entry %d; committed up to %d.",
			from, to, Count(len(m.Entries), "entry", "entries"), m.Index, m.Commit)
	case raftcore.MsgHeartbeat:
		return from + " tells " + to + " it is still in charge."
	case raftcore.MsgProp:
		return from + " forwards a client's write to " + to + ", which it believes is in charge."
	}
	return raftMsgSentence(*v.Cfg, m)
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

// Count is n and a noun, singular or plural.
func Count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
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
			return to + " is refused by " + from + "."
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
			return from + " tells " + to + " its log does not match at index " + Utoa(m.Index) + "; it suggests trying from " + Utoa(m.RejectHint) + "."
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
	}
	return from + " → " + to + ": " + m.Type.String()
}

// raftTermSuffix is " (term N)" under Raft, where terms mean something.
func raftTermSuffix(cfg raftcore.Config, term uint64) string {
	if cfg.Protocol != raftcore.ProtocolRaft || term == 0 {
		return ""
	}
	return " (term " + Utoa(term) + ")"
}

// Latency writes a link's latency range in whole milliseconds, as one
// number when the range is a single value ("400 ms", not "400–400 ms").
func Latency(minUs, maxUs int64) string {
	lo, hi := strconv.FormatInt(minUs/1000, 10), strconv.FormatInt(maxUs/1000, 10)
	if lo == hi {
		return lo + " ms"
	}
	return lo + "–" + hi + " ms"
}

// InChargeWords is what the status line says, in plain words, of machine
// l in charge (or of none, for l < 0).
func (v Voice) InChargeWords(l int) string {
	if l < 0 {
		return " · no machine in charge"
	}
	return " · " + v.Cfg.Name(raftcore.NodeID(l+1)) + " in charge"
}

// PlainLine2 is the second line under a Raft machine, in plain words: whom
// it follows, or that it asks to take over.
func (v Voice) PlainLine2(nd *raftcore.Node) string {
	switch {
	case nd.Role() == raftcore.RoleLeader:
		return "orders the writes"
	case nd.Role() == raftcore.RoleCandidate || nd.Role() == raftcore.RolePreCandidate:
		return "asks the others"
	case nd.Lead() != raftcore.None:
		return "follows " + v.Cfg.Name(nd.Lead())
	}
	return "no one in charge"
}

// MarkText is what a timeline mark says: the timeline's words, or plain
// ones where the screen speaks them, told from the mark's facts.
func (v Voice) MarkText(m timeline.Mark) string {
	if !v.Plain {
		return m.Text
	}
	if m.Count > 1 {
		if m.Kind == timeline.MarkElection && v.Cfg.Protocol == raftcore.ProtocolRaft {
			return strconv.Itoa(m.Count) + " times a machine took charge " + m.Span()
		}
		return m.Text
	}
	name := v.Cfg.Name(m.Node)
	switch m.Kind {
	case timeline.MarkElection:
		if v.Cfg.Protocol == raftcore.ProtocolRaft {
			return name + " took charge"
		}
	case timeline.MarkCommit:
		return name + ", in charge, committed up to entry " + Utoa(m.Index)
	case timeline.MarkClient:
		if m.Op != nil && m.Answer {
			return timeline.AnswerWords(*v.Cfg, v.PlainOp(*m.Op))
		}
	case timeline.MarkFault:
		if m.Action == nil {
			break
		}
		who := v.Cfg.Name(raftcore.NodeID(m.Action.Node))
		switch m.Action.Do {
		case raftcore.DoTimeout:
			return who + " was made to stop waiting and take over"
		case raftcore.DoTimer:
			return fmt.Sprintf("%s was set to stop waiting in %g ms", who, m.Action.Ms)
		}
	}
	return m.Text
}

// ClauseText is what the contract says of a clause, in plain words where
// the screen speaks them, told from the clause's facts.
func (v Voice) ClauseText(cl raftcore.Clause) string {
	if !v.Plain {
		return cl.Text
	}
	switch cl.Fact {
	case raftcore.FactBehind:
		name := v.Cfg.Name(cl.Node)
		var s string
		switch {
		case cl.Holds && cl.Committed == 1:
			s = name + " already holds the committed entry; the machine in charge will tell it the entry is final"
		case cl.Holds:
			s = fmt.Sprintf("%s already holds all %d committed entries; the machine in charge will tell it they are final", name, cl.Committed)
		default:
			s = fmt.Sprintf("%s knows %d of %d committed entries; the machine in charge will send it the rest", name, cl.Has, cl.Committed)
		}
		if cl.Behind > 1 {
			s += " (" + Count(cl.Behind, "machine is", "machines are") + " behind)"
		}
		return s + "."
	case raftcore.FactBranch:
		verb := "differ"
		if cl.Entries == 1 {
			verb = "differs"
		}
		return fmt.Sprintf("From index %d, %s holds %s that %s from %s's; none is committed, so only one branch will be kept.",
			cl.Index, v.Cfg.Name(cl.Node), Count(cl.Entries, "entry", "entries"), verb, v.Cfg.Name(cl.Other))
	}
	return cl.Text
}

// RuleText is a safety rule's words: plain ones, where the screen speaks
// them and the rule has them.
func (v Voice) RuleText(words, plain string) string {
	if v.Plain && plain != "" {
		return plain
	}
	return words
}

// Plural is one for n of 1, many otherwise.
func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// NoLeaderYet explains the wait for the first election; it goes away as
// soon as a machine leads. NoLeaderYetTouch says it to a finger, which
// has no t key.
const (
	NoLeaderYet      = "No machine leads yet: each waits out its own random election timeout (the ring around it). Press t to let one run out clearly first."
	NoLeaderYetTouch = "No machine leads yet: each waits out its own random election timeout (the ring around it). Tap a machine and choose Time out now to make it run out first."
)

// Banner is a note as the reader's hand reads it.
func (v Voice) Banner(text string) string {
	if text == NoLeaderYet {
		return v.ForHand(NoLeaderYet, NoLeaderYetTouch)
	}
	return text
}

// Setup names a free-play world: its size, its protocol and Raft's
// options.
func Setup(cfg *raftcore.Config) string {
	s := fmt.Sprintf("%d machines, %s", cfg.Nodes, cfg.Protocol)
	if cfg.Protocol == raftcore.ProtocolRaft {
		var opts []string
		if cfg.PreVote {
			opts = append(opts, "PreVote")
		}
		if cfg.CheckQuorum {
			opts = append(opts, "CheckQuorum")
		}
		if len(opts) > 0 {
			s += " with " + strings.Join(opts, " and ")
		}
	}
	return s + "."
}

// Broken tells the reader that the run opened breaks Raft on purpose, and
// how; BrokenShort says it where the setup is described.
func Broken(names []string) string {
	return "This run breaks Raft on purpose (" + strings.Join(names, ", ") +
		"): what goes wrong here is that bug, not Raft."
}

// BrokenShort is Broken in a few words.
func BrokenShort(names []string) string {
	return "Broken on purpose: " + strings.Join(names, ", ") + "."
}

// Opening says how far a long link's run has been replayed.
func Opening(done float64) string {
	return "Opening the link: " + strconv.Itoa(int(done*100)) + "% of its run replayed. Do anything to stop."
}
