package app

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"raftlab/raftcore"
	"raftlab/raftcore/timeline"
	"raftlab/scenarios"
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

// plain reports whether the screen speaks the plain words of a figure
// shown before the book introduces Raft (scenarios.WordsPlain): machines
// are active, silent or in charge, their histories hold writes, and there
// are no leaders, terms or votes, even when Raft runs underneath.
func (a *App) plain() bool {
	return a.scen != nil && a.scen.s.UI.Words == scenarios.WordsPlain
}

// roleWord is what a machine's role is called on screen: under its
// protocol, or in plain words.
func (a *App) roleWord(r raftcore.Role) string {
	if !a.plain() {
		return roleWord(a.cfg.Protocol, r)
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

// termSuffix is " (term N)" where terms are shown.
func (a *App) termSuffix(term uint64) string {
	if a.plain() {
		return ""
	}
	return termSuffix(a.cfg, term)
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

// plainReasons say in plain words why Raft refused a client.
var plainReasons = map[string]string{
	"no leader known":          "no machine known to be in charge",
	"an election is under way": "a machine is taking over",
}

// opLine says what became of a client operation, in plain words where the
// screen speaks them.
func (a *App) opLine(op raftcore.Op) string {
	if r, ok := plainReasons[op.Reason]; ok && a.plain() {
		op.Reason = r
	}
	return opLine(a.cfg, op)
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
func (a *App) msgLabel(m *raftcore.Message) string {
	if !a.plain() {
		return msgLabel(m)
	}
	tag := msgLabel(m)
	if plain, ok := plainTags[tag]; ok {
		return plain
	}
	if n, ok := strings.CutPrefix(tag, "append "); ok {
		return "copy " + n
	}
	return tag
}

// plainTags say message tags with Raft's words plainly.
var plainTags = map[string]string{
	"pre-vote?": "back me?", "pre-vote yes": "yes", "pre-vote no": "no",
	"vote?": "back me?", "vote yes": "yes", "vote no": "no",
	"append": "update", "append ok": "copied", "append no": "mismatch",
}

// msgLabel is the short tag drawn beside a message dot, in Raft's words.
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
func (a *App) msgSentence(m *raftcore.Message) string {
	if !a.plain() {
		return msgSentence(a.cfg, m)
	}
	from, to := a.cfg.Name(m.From), a.cfg.Name(m.To)
	switch m.Type {
	case raftcore.MsgPreVote:
		return from + " asks " + to + " whether it would back " + from + " taking charge: a trial, which changes nothing yet."
	case raftcore.MsgVote:
		return from + " asks " + to + " to back it taking charge; its history ends at entry " + utoa(m.Index) + "."
	case raftcore.MsgPreVoteResp, raftcore.MsgVoteResp:
		verb := " backs "
		if m.Reject {
			verb = " will not back "
		}
		return from + verb + to + "."
	case raftcore.MsgApp:
		if len(m.Entries) == 0 {
			return from + ", in charge, tells " + to + " that entries up to " + utoa(m.Commit) + " are committed."
		}
		return fmt.Sprintf("%s, in charge, sends %s %s after entry %d; committed up to %d.",
			from, to, count(len(m.Entries), "entry", "entries"), m.Index, m.Commit)
	case raftcore.MsgHeartbeat:
		return from + " tells " + to + " it is still in charge."
	case raftcore.MsgProp:
		return from + " forwards a client's write to " + to + ", which it believes is in charge."
	}
	return msgSentence(a.cfg, m)
}

// count is n and a noun, singular or plural.
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// msgSentence explains a message in full, in Raft's words.
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

// inChargeWords is what the status line says, in plain words, of machine
// l in charge (or of none, for l < 0).
func (a *App) inChargeWords(l int) string {
	if l < 0 {
		return " · no machine in charge"
	}
	return " · " + a.cfg.Name(nodeID(l)) + " in charge"
}

// plainLine2 is the second line under a Raft machine, in plain words: whom
// it follows, or that it asks to take over.
func (a *App) plainLine2(nd *raftcore.Node) string {
	switch {
	case nd.Role() == raftcore.RoleLeader:
		return "orders the writes"
	case nd.Role() == raftcore.RoleCandidate || nd.Role() == raftcore.RolePreCandidate:
		return "asks the others"
	case nd.Lead() != raftcore.None:
		return "follows " + a.cfg.Name(nd.Lead())
	}
	return "no one in charge"
}

// plainMarkWords say a timeline mark's Raft words plainly.
var plainMarkWords = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`^(.+) won the election for term \d+$`), "$1 took charge"},
	{regexp.MustCompile(`^leader (.+) committed the log up to entry (\d+)$`), "$1, in charge, committed up to entry $2"},
	{regexp.MustCompile(`^(.+)'s election timer was made to fire$`), "$1 was made to stop waiting and take over"},
	{regexp.MustCompile(`^(.+)'s election timer was set to run out in (.+)$`), "$1 was set to stop waiting in $2"},
	{regexp.MustCompile(`\((no leader known)\)$`), "(" + plainReasons["no leader known"] + ")"},
	{regexp.MustCompile(`\((an election is under way)\)$`), "(" + plainReasons["an election is under way"] + ")"},
}

// plainClauseWords say the contract's Raft words plainly.
var plainClauseWords = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`; a leader will send it the rest\b`), "; the machine in charge will send it the rest"},
	{regexp.MustCompile(`^(From index \d+, .+ holds .+) of term \d+ (that .+); none is committed, so Raft will keep only one branch\.$`),
		"$1 $2; none is committed, so only one branch will be kept."},
}

// clauseText is what the contract says of a clause, in plain words where
// the screen speaks them.
func (a *App) clauseText(cl raftcore.Clause) string {
	if !a.plain() {
		return cl.Text
	}
	for _, p := range plainClauseWords {
		if p.re.MatchString(cl.Text) {
			return p.re.ReplaceAllString(cl.Text, p.with)
		}
	}
	return cl.Text
}

// plainMarks puts the timeline's marks in plain words where the screen
// speaks them.
func (a *App) plainMarks() {
	if !a.plain() {
		return
	}
	marks := a.frame.Timeline.Marks
	for i := range marks {
		for _, p := range plainMarkWords {
			if p.re.MatchString(marks[i].Text) {
				marks[i].Text = p.re.ReplaceAllString(marks[i].Text, p.with)
				break
			}
		}
	}
}

// ruleText is a safety rule's words: plain ones, where the screen speaks
// them and the rule has them.
func (a *App) ruleText(words, plain string) string {
	if a.plain() && plain != "" {
		return plain
	}
	return words
}
