package timeline

import (
	"strconv"

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
	MarkRestore                   // a machine replaced its log and state with a snapshot its leader sent
	MarkElection                  // a machine won an election (or took over as authority)
	MarkViolation                 // the checker found a broken rule
	numMarkKinds
)

var markKindNames = [...]string{"commit", "client", "fault", "restore", "election", "violation"}

func (k MarkKind) String() string {
	if k < numMarkKinds {
		return markKindNames[k]
	}
	return "mark(" + strconv.Itoa(int(k)) + ")"
}

// MarshalText lets JSON show the kind by name.
func (k MarkKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// Mark is a notable moment on the timeline, told as typed facts: what
// kind of moment it was, when, the machine concerned and what happened to
// it, so that a reader (the app's words, in package viz/words) can say it
// in words. When a run has more notable moments than the timeline keeps,
// neighbouring marks of a kind are merged: Count says how many moments the
// mark stands for, from At to End, and the typed fields are those of the
// first.
type Mark struct {
	Kind MarkKind `json:"kind"`
	// At is the moment right after the (first) event: seeking there shows
	// what it did.
	At  Position `json:"at"`
	End Position `json:"end"`
	// Node is the machine concerned, or raftcore.None.
	Node  raftcore.NodeID `json:"node,omitempty"`
	Count int             `json:"count"`
	// Term is the term a machine won an election for (MarkElection).
	Term uint64 `json:"term,omitempty"`
	// Index is the entry a leader committed the log up to (MarkCommit),
	// or the last entry of the snapshot a machine restored (MarkRestore).
	Index uint64 `json:"index,omitempty"`
	// Op is the client operation asked for or answered (MarkClient), and
	// Answer says the mark is its answer rather than its asking. Op is as
	// it stood when the mark was made, which for an answer is its end:
	// Op.Refusal says why it was refused.
	Op     *raftcore.Op `json:"op,omitempty"`
	Answer bool         `json:"answer,omitempty"`
	// Action is the change made by hand (MarkFault); Action.Do is its verb.
	Action *raftcore.Action `json:"action,omitempty"`
	// Rule is the rule broken (MarkViolation), and Why the checker's
	// explanation, as its trace event gives it.
	Rule raftcore.Rule `json:"rule,omitempty"`
	Why  string        `json:"why,omitempty"`
	// seq and endSeq are the trace sequence numbers of the first and last
	// event merged into the mark.
	seq, endSeq uint64
}

// classify says whether trace event e, just recorded by w, is notable.
// act is the action e belongs to when e is a fault event.
func classify(w *raftcore.World, e raftcore.TraceEvent, act *raftcore.Action) (Mark, bool) {
	switch e.Kind {
	case raftcore.TraceRole, raftcore.TraceCommit, raftcore.TraceOpInvoke, raftcore.TraceOpComplete, raftcore.TraceFault, raftcore.TraceViolation,
		raftcore.TraceRestore:
	default:
		return Mark{}, false // most events: messages sent and delivered
	}
	m := Mark{At: posOf(w), Node: e.Node, Count: 1, seq: e.Seq, endSeq: e.Seq}
	m.End = m.At
	switch e.Kind {
	case raftcore.TraceRole:
		if e.ToRole != raftcore.RoleLeader {
			return Mark{}, false
		}
		m.Kind, m.Term = MarkElection, e.Term
	case raftcore.TraceCommit:
		// Followers learn the commit index from the leader; only the
		// leader's advance is news.
		if w.Node(e.Node).Role() != raftcore.RoleLeader {
			return Mark{}, false
		}
		m.Kind, m.Index = MarkCommit, e.Index
	case raftcore.TraceOpInvoke:
		op, ok := w.Op(e.Op)
		if !ok {
			return Mark{}, false
		}
		m.Kind, m.Op = MarkClient, &op
	case raftcore.TraceOpComplete:
		op, ok := w.Op(e.Op)
		if !ok {
			return Mark{}, false
		}
		m.Kind, m.Op, m.Answer = MarkClient, &op, true
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
	case raftcore.TraceViolation:
		m.Kind, m.Rule, m.Why = MarkViolation, e.Rule(), e.Text
	case raftcore.TraceRestore:
		m.Kind, m.Index = MarkRestore, e.Index
	default:
		return Mark{}, false
	}
	return m, true
}

// clockWords writes a virtual time for errors and logs.
func clockWords(us int64) string {
	return strconv.FormatFloat(float64(us)/1e6, 'f', 1, 64) + " s"
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
		open = -1
	}
	clear(marks[len(out):])
	return out
}
