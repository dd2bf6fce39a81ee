package timeline

import (
	"fmt"
	"strconv"
	"strings"

	"raftlab/raftcore"
)

// MarkKind says what a notable moment was.
type MarkKind uint8

// The kinds of notable moments, least important first: when there are too
// many marks, the least important kinds are merged first.
const (
	MarkCommit    MarkKind = iota // a leader committed new entries
	MarkClient                    // a client request was sent or answered
	MarkFault                     // the network or a machine was changed by hand
	MarkElection                  // a machine won an election (or took over as authority)
	MarkViolation                 // the checker found a broken rule
	numMarkKinds
)

var markKindNames = [...]string{"commit", "client", "fault", "election", "violation"}

// markPlurals name several merged marks of a kind.
var markPlurals = [...]string{"commits", "client requests and answers", "changes to the network or machines", "elections won", "broken rules"}

func (k MarkKind) String() string {
	if k < numMarkKinds {
		return markKindNames[k]
	}
	return "mark(" + strconv.Itoa(int(k)) + ")"
}

// MarshalText lets JSON show the kind by name.
func (k MarkKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// Mark is a notable moment on the timeline, with a line of plain words for
// hover text, in Raft's words, and what that line says as typed fields, for
// readers that say it in words of their own. When a run has more notable
// moments than the timeline keeps, neighbouring marks of a kind are merged:
// Count says how many moments the mark stands for, from At to End, and the
// typed fields are those of the first.
type Mark struct {
	Kind MarkKind `json:"kind"`
	// At is the moment right after the (first) event: seeking there shows
	// what it did.
	At  Position `json:"at"`
	End Position `json:"end"`
	// Node is the machine concerned, or raftcore.None.
	Node  raftcore.NodeID `json:"node,omitempty"`
	Count int             `json:"count"`
	Text  string          `json:"text"`
	// Term is the term a machine won an election for (MarkElection).
	Term uint64 `json:"term,omitempty"`
	// Index is the entry a leader committed the log up to (MarkCommit).
	Index uint64 `json:"index,omitempty"`
	// Op is the client operation asked for or answered (MarkClient), and
	// Answer says the mark is its answer rather than its asking. Op is as
	// it stood when the mark was made, which for an answer is its end:
	// Op.Refusal says why it was refused.
	Op     *raftcore.Op `json:"op,omitempty"`
	Answer bool         `json:"answer,omitempty"`
	// Action is the change made by hand (MarkFault); Action.Do is its verb.
	Action *raftcore.Action `json:"action,omitempty"`
	// Rule is the rule broken (MarkViolation).
	Rule raftcore.Rule `json:"rule,omitempty"`
	// seq and endSeq are the trace sequence numbers of the first and last
	// event merged into the mark.
	seq, endSeq uint64
}

// classify says whether trace event e, just recorded by w, is notable.
// act is the action e belongs to when e is a fault event.
func classify(w *raftcore.World, e raftcore.TraceEvent, act *raftcore.Action) (Mark, bool) {
	switch e.Kind {
	case raftcore.TraceRole, raftcore.TraceCommit, raftcore.TraceOpInvoke, raftcore.TraceOpComplete, raftcore.TraceFault, raftcore.TraceViolation:
	default:
		return Mark{}, false // most events: messages sent and delivered
	}
	cfg := w.Config()
	m := Mark{At: posOf(w), Node: e.Node, Count: 1, seq: e.Seq, endSeq: e.Seq}
	m.End = m.At
	name := cfg.Name(e.Node)
	switch e.Kind {
	case raftcore.TraceRole:
		if e.ToRole != raftcore.RoleLeader {
			return Mark{}, false
		}
		m.Kind, m.Term = MarkElection, e.Term
		if cfg.Protocol == raftcore.ProtocolFailover {
			m.Text = name + " took over as an authority"
		} else {
			m.Text = fmt.Sprintf("%s won the election for term %d", name, e.Term)
		}
	case raftcore.TraceCommit:
		// Followers learn the commit index from the leader; only the
		// leader's advance is news.
		if w.Node(e.Node).Role() != raftcore.RoleLeader {
			return Mark{}, false
		}
		m.Kind, m.Index = MarkCommit, e.Index
		m.Text = fmt.Sprintf("leader %s committed the log up to entry %d", name, e.Index)
	case raftcore.TraceOpInvoke:
		op, ok := w.Op(e.Op)
		if !ok {
			return Mark{}, false
		}
		m.Kind, m.Op = MarkClient, &op
		m.Text = AskWords(cfg, op)
	case raftcore.TraceOpComplete:
		op, ok := w.Op(e.Op)
		if !ok {
			return Mark{}, false
		}
		m.Kind, m.Op, m.Answer = MarkClient, &op, true
		m.Text = AnswerWords(cfg, op)
	case raftcore.TraceFault:
		if act == nil {
			return Mark{}, false
		}
		switch act.Do {
		case raftcore.DoWrite, raftcore.DoDelete, raftcore.DoRead, raftcore.DoControl:
			// The op-invoke event that follows tells it better (a
			// controller's first read).
			return Mark{}, false
		}
		a := *act
		m.Kind, m.Action = MarkFault, &a
		m.Text = ActionWords(cfg, a)
	case raftcore.TraceViolation:
		m.Kind, m.Rule = MarkViolation, e.Rule()
		m.Text = "rule broken (" + string(e.Rule()) + "): " + e.Text
	default:
		return Mark{}, false
	}
	return m, true
}

func opWords(op raftcore.Op) string {
	switch op.Kind {
	case raftcore.DoWrite:
		if op.Cas {
			return "write " + op.Key + "=" + op.Value + " if at rev " + strconv.FormatUint(op.IfRev, 10)
		}
		return "write " + op.Key + "=" + op.Value
	case raftcore.DoDelete:
		return "delete " + op.Key
	}
	return "read " + op.Key + " (" + string(op.Mode) + ")"
}

// AskWords says that a client asks for op, as a client mark does.
func AskWords(cfg raftcore.Config, op raftcore.Op) string {
	return clientWords(op) + " asks " + cfg.Name(op.Node) + " to " + opWords(op)
}

// clientWords names who asked: a client, or one of the controllers.
func clientWords(op raftcore.Op) string {
	if op.Controller != 0 {
		return "controller " + strconv.Itoa(op.Controller)
	}
	return "a client"
}

// AnswerWords says what became of op, as a client mark does; a refusal is
// told in op.Reason's words.
func AnswerWords(cfg raftcore.Config, op raftcore.Op) string {
	s := opWords(op) + " at " + cfg.Name(op.Node) + ": "
	if op.Controller != 0 {
		s = clientWords(op) + "'s " + s
	}
	wait := durationWords(op.CompleteUs - op.InvokeUs)
	switch op.Result {
	case raftcore.OpOK:
		if op.Kind == raftcore.DoRead {
			if op.ReadFound {
				s += "read " + op.ReadValue + " (rev " + strconv.FormatUint(op.ReadRev, 10) + ") "
			} else {
				s += "not found "
			}
			return s + "after " + wait
		}
		return s + "done, rev " + strconv.FormatUint(op.Index, 10) + ", after " + wait
	case raftcore.OpConflict:
		return s + "swap failed, the key was at rev " + strconv.FormatUint(op.FoundRev, 10) + ", after " + wait
	case raftcore.OpTimeout:
		return s + "no answer after " + wait
	}
	return s + "refused after " + wait + " (" + op.Reason + ")"
}

// ActionWords describes a fault or network change in plain words, as the
// timeline's marks do (for example "network split into A B | C").
func ActionWords(cfg raftcore.Config, a raftcore.Action) string {
	name := func(id int) string { return cfg.Name(raftcore.NodeID(id)) }
	link := func() string {
		if a.From == 0 && a.To == 0 {
			return "every link"
		}
		if a.OneWay {
			return "the link " + name(a.From) + "→" + name(a.To)
		}
		return "the link " + name(a.From) + "–" + name(a.To)
	}
	switch a.Do {
	case raftcore.DoPartition:
		return "network split into " + groupWords(cfg, a.Groups)
	case raftcore.DoHeal:
		return "network healed: every link works again"
	case raftcore.DoCut:
		return link() + " was cut"
	case raftcore.DoRestore:
		return link() + " works again"
	case raftcore.DoLatency:
		return fmt.Sprintf("latency on %s set to %g–%g ms", link(), a.LatencyMs[0], a.LatencyMs[1])
	case raftcore.DoLoss:
		return fmt.Sprintf("%s now loses %s of messages", link(), percent(*a.Loss))
	case raftcore.DoDuplicate:
		return fmt.Sprintf("%s now duplicates %s of messages", link(), percent(*a.Duplicate))
	case raftcore.DoDrop:
		return fmt.Sprintf("message %d was dropped by hand", a.ID)
	case raftcore.DoDeliver:
		return fmt.Sprintf("message %d was delivered at once", a.ID)
	case raftcore.DoRepeat:
		return fmt.Sprintf("message %d was sent a second time", a.ID)
	case raftcore.DoPause:
		return name(a.Node) + " was paused"
	case raftcore.DoResume:
		return name(a.Node) + " was resumed"
	case raftcore.DoCrash:
		return name(a.Node) + " crashed"
	case raftcore.DoRestart:
		return name(a.Node) + " restarted"
	case raftcore.DoSlow:
		return fmt.Sprintf("%s now takes %g ms per message", name(a.Node), a.MsPerMessage)
	case raftcore.DoDrift:
		return fmt.Sprintf("%s's clock now runs at %g× real time", name(a.Node), a.Rate)
	case raftcore.DoTimeout:
		return name(a.Node) + "'s election timer was made to fire"
	case raftcore.DoTimer:
		return fmt.Sprintf("%s's election timer was set to run out in %g ms", name(a.Node), a.Ms)
	case raftcore.DoZoneCut:
		return "zone " + a.Zone + " was cut off from the other zones"
	case raftcore.DoZoneHeal:
		return "zone " + a.Zone + " is connected again"
	case raftcore.DoZoneCrash:
		return "zone " + a.Zone + " was lost: every machine in it crashed"
	case raftcore.DoZoneRestart:
		return "zone " + a.Zone + " came back: its machines restarted"
	case raftcore.DoMove:
		return name(a.Node) + " was moved to zone " + a.Zone
	case raftcore.DoHeartbeat:
		return name(a.Node) + "'s heartbeat timer was made to fire"
	}
	return a.String()
}

// groupWords writes partition groups as "A B | C", with machines named in
// no group each on their own, as World.Apply treats them.
func groupWords(cfg raftcore.Config, groups [][]int) string {
	seen := make([]bool, cfg.Nodes+1)
	var parts []string
	add := func(ids []int) {
		names := make([]string, len(ids))
		for i, id := range ids {
			names[i] = cfg.Name(raftcore.NodeID(id))
			seen[id] = true
		}
		parts = append(parts, strings.Join(names, " "))
	}
	for _, g := range groups {
		if len(g) > 0 {
			add(g)
		}
	}
	for id := 1; id <= cfg.Nodes; id++ {
		if !seen[id] {
			add([]int{id})
		}
	}
	return strings.Join(parts, " | ")
}

func percent(p float64) string { return strconv.FormatFloat(p*100, 'g', 3, 64) + "%" }

// durationWords writes a span of virtual time for hover text.
func durationWords(us int64) string {
	if us < 1_000_000 {
		return strconv.FormatInt((us+500)/1000, 10) + " ms"
	}
	return strconv.FormatFloat(float64(us)/1e6, 'f', 1, 64) + " s"
}

// clockWords writes a virtual time for hover text.
func clockWords(us int64) string {
	return strconv.FormatFloat(float64(us)/1e6, 'f', 1, 64) + " s"
}

// Span says when a merged mark's moments were, as in "from 1.5 s to 3.0 s".
func (m Mark) Span() string {
	return "from " + clockWords(m.At.AtUs) + " to " + clockWords(m.End.AtUs)
}

// mergeMarks keeps marks at most max long (max >= numMarkKinds) by merging
// neighbouring marks of a kind, least important kinds first, until a
// quarter of the room is free again (so merging is rare).
func mergeMarks(marks []Mark, max int) []Mark {
	if len(marks) <= max {
		return marks
	}
	target := max * 3 / 4
	for len(marks) > target {
		before := len(marks)
		for k := MarkKind(0); k < numMarkKinds && len(marks) > target; k++ {
			marks = mergeKind(marks, k)
		}
		if len(marks) == before {
			break // one mark of each kind at most: nothing left to merge
		}
	}
	return marks
}

// mergeKind merges the marks of kind k pairwise, in order, halving them.
func mergeKind(marks []Mark, k MarkKind) []Mark {
	out := marks[:0]
	open := -1 // index in out of a mark of kind k waiting for a partner
	for _, m := range marks {
		if m.Kind != k {
			out = append(out, m)
			continue
		}
		if open < 0 {
			out = append(out, m)
			open = len(out) - 1
			continue
		}
		p := &out[open]
		p.End, p.endSeq = m.End, m.endSeq
		p.Count += m.Count
		if p.Node != m.Node {
			p.Node = raftcore.None
		}
		p.Text = fmt.Sprintf("%d %s %s", p.Count, markPlurals[k], p.Span())
		open = -1
	}
	clear(marks[len(out):])
	return out
}
