package raftcore

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
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
	// TraceConf is a change of configuration applied, refused or asked
	// for in vain.
	TraceConf
	// TraceSnapshot is a machine saving its state machine at Index and
	// compacting its log; TraceRestore a machine replacing its log and
	// state machine with a snapshot it was sent, ending at Index.
	TraceSnapshot
	TraceRestore
	// TraceKube is something Kubernetes did: a node marked NotReady or
	// Ready, a Pod evicted, started or stopped, a zone's state, a finding
	// of the kube checks (kubecheck.go).
	TraceKube
	// TraceInformer is a deployment controller's informer or reconcile
	// loop acting (Node its machine, Peer its API server), or a finding
	// of the reconcile checks.
	TraceInformer
)

var traceKindNames = [...]string{
	"send", "deliver", "drop", "role", "term", "vote", "append", "truncate",
	"commit", "apply", "op-invoke", "op-complete", "fault", "violation", "conf",
	"snapshot", "restore", "kube", "informer",
}

func (k TraceKind) String() string {
	if int(k) < len(traceKindNames) {
		return traceKindNames[k]
	}
	return "trace(" + strconv.Itoa(int(k)) + ")"
}

// MarshalText lets JSON show the kind by name.
func (k TraceKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// UnmarshalText reads a kind by name, so a trace file decodes back.
func (k *TraceKind) UnmarshalText(b []byte) error {
	return parseName(k, "trace kind", traceKindNames[:], b)
}

// Cause says why a message was dropped or why a machine changed role. Its
// String is the words the trace's text uses; readers switch on the value.
type Cause uint8

const (
	// CauseNone is the zero value: the event has no cause.
	CauseNone Cause = iota

	// Why the network or a machine dropped a message.
	DropLinkCut     // the link was down when it was sent or when it arrived
	DropLost        // the link's loss rate took it
	DropByHand      // the reader dropped it in flight
	DropMachineDown // its receiver had crashed
	DropInboxFull   // its receiver was paused and its inbox full

	// Why a machine changed role.
	CauseStart              // it started or restarted, as a follower
	CauseElectionTimeout    // its election timer ran out
	CauseForcedTimeout      // a "timeout" action made it stand
	CauseWonPreVote         // a majority would vote for it (§9.6 of Ongaro's thesis)
	CauseWonElection        // a majority voted for it (§5.2)
	CauseLostElection       // too many voted against it for a majority to remain
	CauseLeaderOfTerm       // a candidate heard from the leader of its own term (§5.2)
	CauseLeaderOfHigherTerm // it heard from a leader of a higher term (§5.1)
	CauseHigherTerm         // another message carried a higher term (§5.1)
	CauseCheckQuorum        // a leader heard from no majority within an election timeout
	CauseAuthoritySilent    // failover: it heard nothing from the authority in time
	CauseTransfer           // its leader handed leadership to it (TimeoutNow)
	CauseRemoved            // a leader applied its own removal from the voters

	// Why a machine ignored a message delivered to it.
	CauseLeaderAlive // a vote request of a higher term, within a live leader's lease (RejectLeaderAlive)
)

var causeNames = [...]string{
	"", "link cut", "lost", "dropped by hand", "machine down", "inbox full",
	"start", "election timeout", "forced timeout", "won the pre-vote", "won the election",
	"lost the election", "heard the leader of its term", "heard a leader of a higher term",
	"saw a higher term", "lost contact with a majority", "authority went silent",
	"leadership handed over", "removed from the voters",
	"ignored: a leader is alive",
}

func (c Cause) String() string {
	if int(c) < len(causeNames) {
		return causeNames[c]
	}
	return "cause(" + strconv.Itoa(int(c)) + ")"
}

// MarshalText lets JSON show the cause in words.
func (c Cause) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// UnmarshalText reads a cause in words.
func (c *Cause) UnmarshalText(b []byte) error { return parseName(c, "cause", causeNames[:], b) }

// MarshalText lets trace JSON name roles.
func (r Role) MarshalText() ([]byte, error) { return []byte(r.String()), nil }

// UnmarshalText reads a role by name.
func (r *Role) UnmarshalText(b []byte) error { return parseName(r, "role", roleNames[:], b) }

// MarshalText lets trace JSON name message types.
func (t MsgType) MarshalText() ([]byte, error) { return []byte(t.String()), nil }

// UnmarshalText reads a message type by name.
func (t *MsgType) UnmarshalText(b []byte) error {
	return parseName(t, "message type", msgTypeNames[:], b)
}

// parseName sets *v to the index of text in names.
func parseName[T ~uint8](v *T, what string, names []string, text []byte) error {
	for i, n := range names {
		if n == string(text) && n != "" {
			*v = T(i)
			return nil
		}
	}
	return fmt.Errorf("unknown %s %q", what, text)
}

// TraceEvent is one thing that happened. Fields that do not apply are zero.
//
// Text says what happened for people. The typed fields say it for code:
// readers switch on them and never parse Text. Each belongs to some kinds:
//
//   - send, deliver, drop: MsgType
//   - drop: Cause, one of the Drop constants
//   - role: FromRole, ToRole and Cause, why the machine changed role
//   - deliver: Cause, when the machine ignored the message (CauseLeaderAlive)
//   - fault: Verb(), the action; op-invoke: Verb(), the client's verb
//   - violation: Rule(), with Text the sentence explaining it
type TraceEvent struct {
	Seq  uint64    `json:"seq"`
	AtUs int64     `json:"at_us"`
	Kind TraceKind `json:"kind"`
	// The one-byte fields sit beside Kind, where they take no more room.
	FromRole Role    `json:"from_role"`
	ToRole   Role    `json:"to_role"`
	Cause    Cause   `json:"cause,omitempty"`
	MsgType  MsgType `json:"msg_type"`
	// rule and verb are Rule() and Verb(), kept as their place in allRules
	// and Verbs (0 for none) so that they too fit beside Kind: every event
	// would otherwise carry two empty strings that only a few ever use.
	rule, verb uint8
	Node       NodeID `json:"node,omitempty"`
	Peer       NodeID `json:"peer,omitempty"`
	Term       uint64 `json:"term,omitempty"`
	Index      uint64 `json:"index,omitempty"`
	Msg        uint64 `json:"msg,omitempty"`
	Op         int    `json:"op,omitempty"`
	Text       string `json:"text,omitempty"`
}

// MarshalJSON writes the typed fields after the text, and only for the
// kinds they belong to: a follower and a PreVote are zero values, so
// omitempty alone would leave them out.
func (e TraceEvent) MarshalJSON() ([]byte, error) {
	type plain TraceEvent // the same fields without this method
	out := struct {
		plain
		Cause    Cause    `json:"cause,omitempty"`
		FromRole *Role    `json:"from_role,omitempty"`
		ToRole   *Role    `json:"to_role,omitempty"`
		MsgType  *MsgType `json:"msg_type,omitempty"`
		Rule     Rule     `json:"rule,omitempty"`
		Verb     Verb     `json:"verb,omitempty"`
	}{plain: plain(e), Cause: e.Cause, Rule: e.Rule(), Verb: e.Verb()}
	switch e.Kind {
	case TraceRole:
		out.FromRole, out.ToRole = &e.FromRole, &e.ToRole
	case TraceSend, TraceDeliver, TraceDrop:
		out.MsgType = &e.MsgType
	}
	// The caller's encoder decides whether to escape <, > and &; escaped
	// here they would stay escaped.
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// UnmarshalJSON reads an event as MarshalJSON writes it.
func (e *TraceEvent) UnmarshalJSON(data []byte) error {
	type plain TraceEvent // the same fields without this method
	in := struct {
		*plain
		Rule Rule `json:"rule"`
		Verb Verb `json:"verb"`
	}{plain: (*plain)(e)}
	if err := json.Unmarshal(data, &in); err != nil {
		return err
	}
	e.rule, e.verb = ruleCode(in.Rule), verbCode(in.Verb)
	if in.Rule != "" && e.rule == 0 {
		return fmt.Errorf("unknown rule %q", in.Rule)
	}
	if in.Verb != "" && e.verb == 0 {
		return fmt.Errorf("unknown verb %q", in.Verb)
	}
	return nil
}

// Rule is the safety rule a violation event reports ("" on other kinds).
func (e TraceEvent) Rule() Rule {
	if e.rule == 0 || int(e.rule) > len(allRules) {
		return ""
	}
	return allRules[e.rule-1]
}

// Verb is the action of a fault event and the client's verb of an
// op-invoke event ("" on other kinds).
func (e TraceEvent) Verb() Verb {
	if e.verb == 0 || int(e.verb) > len(Verbs) {
		return ""
	}
	return Verbs[e.verb-1]
}

// ruleCode and verbCode are a rule's and a verb's place in allRules and
// Verbs, counted from 1; 0 for one that is not there.
func ruleCode(r Rule) uint8 { return uint8(slices.Index(allRules, r) + 1) }
func verbCode(v Verb) uint8 { return uint8(slices.Index(Verbs, v) + 1) }

func (e TraceEvent) String() string {
	text := e.Text
	if e.rule != 0 {
		text = string(e.Rule()) + ": " + text
	}
	return fmt.Sprintf("%d.%03dms %s n%d p%d t%d i%d m%d op%d %s", e.AtUs/1000, e.AtUs%1000, e.Kind, e.Node, e.Peer, e.Term, e.Index, e.Msg, e.Op, text)
}

// trace keeps recent events, a hash of all of them and the counters a
// summary reads from all of them, and hands each event to a sink, if one
// is set, as it is recorded. Nothing else in a world needs the events
// once recorded, so a world with a limit holds the same memory however
// long it runs.
type trace struct {
	events    []TraceEvent
	count     uint64
	hash      uint64
	limit     int
	elections electionTally
	// sink, when set, is handed every event as it is recorded (StreamTrace).
	sink func(TraceEvent)
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
	h = fnvUint(h, uint64(e.FromRole)|uint64(e.ToRole)<<8|uint64(e.Cause)<<16|uint64(e.MsgType)<<24)
	h = fnvString(h, string(e.Rule()))
	h = fnvString(h, string(e.Verb()))
	t.hash = h
	t.elections.observe(e)
	if t.sink != nil {
		t.sink(e)
	}
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

// clone copies the trace for a clone of its world, without the sink: the
// copy's future is not the stream's.
func (t trace) clone() trace {
	t.events = append([]TraceEvent(nil), t.events...)
	t.elections = t.elections.clone()
	t.sink = nil
	return t
}

// StreamTrace hands sink every trace event of the world: at once those
// recorded so far, then each as it is recorded, in order. From then on the
// world keeps only its newest keep events in memory (0 keeps all), since
// the sink sees them all: a run's memory no longer grows with its length.
// The trace hash and the summary's counters still cover every event.
//
// Call it on a new world, which still holds every event it recorded; it
// fails once the world has dropped some (Config.TraceLimit). A nil sink
// only bounds the events kept. Clones do not stream. The sink must not
// change the world.
func (w *World) StreamTrace(keep int, sink func(TraceEvent)) error {
	t := &w.trace
	if keep < 0 {
		return fmt.Errorf("trace: keep %d events: must not be negative", keep)
	}
	if dropped := t.count - uint64(len(t.events)); dropped > 0 {
		return fmt.Errorf("trace: the world has already dropped %d of its %d events; stream it before running", dropped, t.count)
	}
	for _, e := range t.events {
		if sink != nil {
			sink(e)
		}
	}
	t.sink, t.limit = sink, keep
	return nil
}

// HashString formats a trace hash the way summaries show it.
func HashString(h uint64) string { return fmt.Sprintf("%016x", h) }
