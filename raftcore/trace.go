package raftcore

import (
	"fmt"
	"strconv"
)

// TraceKind is the type of a trace event.
type TraceKind uint8

const (
	TraceSend TraceKind = iota
	TraceDeliver
	TraceDrop
	TraceRole
	TraceTerm
	TraceVote
	TraceAppend
	TraceTruncate
	TraceCommit
	TraceApply
	TraceOpInvoke
	TraceOpComplete
	TraceFault
	TraceViolation
)

var traceKindNames = [...]string{
	"send", "deliver", "drop", "role", "term", "vote", "append", "truncate",
	"commit", "apply", "op-invoke", "op-complete", "fault", "violation",
}

func (k TraceKind) String() string {
	if int(k) < len(traceKindNames) {
		return traceKindNames[k]
	}
	return "trace(" + strconv.Itoa(int(k)) + ")"
}

// MarshalText lets JSON show the kind by name.
func (k TraceKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// TraceEvent is one thing that happened. Fields that do not apply are zero.
type TraceEvent struct {
	Seq   uint64    `json:"seq"`
	AtUs  int64     `json:"at_us"`
	Kind  TraceKind `json:"kind"`
	Node  NodeID    `json:"node,omitempty"`
	Peer  NodeID    `json:"peer,omitempty"`
	Term  uint64    `json:"term,omitempty"`
	Index uint64    `json:"index,omitempty"`
	Msg   uint64    `json:"msg,omitempty"`
	Op    int       `json:"op,omitempty"`
	Text  string    `json:"text,omitempty"`
}

func (e TraceEvent) String() string {
	return fmt.Sprintf("%d.%03dms %s n%d p%d t%d i%d m%d op%d %s", e.AtUs/1000, e.AtUs%1000, e.Kind, e.Node, e.Peer, e.Term, e.Index, e.Msg, e.Op, e.Text)
}

// trace keeps recent events and a hash of all of them.
type trace struct {
	events []TraceEvent
	count  uint64
	hash   uint64
	limit  int
}

func (t *trace) add(e TraceEvent) {
	t.count++
	e.Seq = t.count
	h := t.hash ^ 0xcbf29ce484222325
	h = fnvUint(h, e.Seq)
	h = fnvUint(h, uint64(e.AtUs))
	h = fnvUint(h, uint64(e.Kind))
	h = fnvUint(h, uint64(e.Node))
	h = fnvUint(h, uint64(e.Peer))
	h = fnvUint(h, e.Term)
	h = fnvUint(h, e.Index)
	h = fnvUint(h, e.Msg)
	h = fnvUint(h, uint64(e.Op))
	h = fnvString(h, e.Text)
	t.hash = h
	if t.limit > 0 && len(t.events) >= t.limit {
		// Drop the older half at once so trimming costs O(1) per event on
		// average.
		keep := t.limit / 2
		copy(t.events, t.events[len(t.events)-keep:])
		t.events = t.events[:keep]
	}
	if len(t.events) == cap(t.events) {
		t.grow()
	}
	t.events = append(t.events, e)
}

// grow doubles the room for events. Left to append, a long slice grows by
// a quarter at a time, and a long trace would be copied over and over.
func (t *trace) grow() {
	n := max(128, 2*cap(t.events))
	if t.limit > 0 {
		n = min(n, t.limit)
	}
	grown := make([]TraceEvent, len(t.events), n)
	copy(grown, t.events)
	t.events = grown
}

func (t trace) clone() trace {
	t.events = append([]TraceEvent(nil), t.events...)
	return t
}

// HashString formats a trace hash the way summaries show it.
func HashString(h uint64) string { return fmt.Sprintf("%016x", h) }
