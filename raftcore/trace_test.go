package raftcore

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// roleMoves are the role changes each cause may explain, from the Raft
// paper's Figure 4 (with PreVote from §9.6 of Ongaro's thesis and
// CheckQuorum from etcd) and failover's promotion.
var roleMoves = map[Cause][][2]Role{
	CauseElectionTimeout: campaignMoves,
	CauseForcedTimeout:   append([][2]Role{{RoleFollower, RoleLeader}}, campaignMoves...),
	CauseWonPreVote:      {{RolePreCandidate, RoleCandidate}},
	CauseWonElection:     {{RoleCandidate, RoleLeader}},
	CauseLostElection:    {{RoleCandidate, RoleFollower}, {RolePreCandidate, RoleFollower}},
	CauseLeaderOfTerm:    {{RoleCandidate, RoleFollower}, {RolePreCandidate, RoleFollower}},
	// "If RPC request or response contains term T > currentTerm: set
	// currentTerm = T, convert to follower (§5.1)": whatever the role.
	CauseLeaderOfHigherTerm: stepDowns,
	CauseHigherTerm:         stepDowns,
	CauseCheckQuorum:        {{RoleLeader, RoleFollower}},
	CauseAuthoritySilent:    {{RoleFollower, RoleLeader}},
}

// campaignMoves are the ways to stand for election: "If election timeout
// elapses without receiving AppendEntries RPC from current leader or
// granting vote to candidate: convert to candidate", and a candidate whose
// election times out starts a new one.
var campaignMoves = [][2]Role{
	{RoleFollower, RolePreCandidate}, {RoleFollower, RoleCandidate},
	{RolePreCandidate, RolePreCandidate}, {RoleCandidate, RoleCandidate}, {RoleCandidate, RolePreCandidate},
}

var stepDowns = [][2]Role{{RoleLeader, RoleFollower}, {RoleCandidate, RoleFollower}, {RolePreCandidate, RoleFollower}}

// roleWatch follows each machine's role through the trace's role events
// alone and checks each against the machine itself.
type roleWatch struct {
	t     *testing.T
	roles []Role
	terms []uint64
	seen  uint64
	// causes counts the role events seen per cause.
	causes map[Cause]int
}

func newRoleWatch(t *testing.T, w *World) *roleWatch {
	rw := &roleWatch{t: t, roles: make([]Role, w.Size()+1), terms: make([]uint64, w.Size()+1), causes: map[Cause]int{}}
	for i := 1; i <= w.Size(); i++ {
		rw.roles[i] = w.Node(NodeID(i)).Role()
	}
	rw.check(w, nil)
	return rw
}

// check reads the events since the last check, which followed action a
// (or an event when a is nil), and compares the roles they say with the
// machines' roles now.
func (rw *roleWatch) check(w *World, a *Action) {
	t := rw.t
	t.Helper()
	after, by := "an event", None
	if a != nil {
		after = a.String()
		if a.Do == DoTimeout || a.Do == DoRestart {
			by = NodeID(a.Node)
		}
	}
	first := true // the first role event of machine by
	evs := w.Trace()
	require.LessOrEqual(t, int(w.TraceCount()), len(evs), "the trace must be kept in full")
	for _, e := range evs[rw.seen:] {
		switch e.Kind {
		case TraceTerm:
			rw.terms[e.Node] = e.Term
		case TraceRole:
			rw.causes[e.Cause]++
			// A forced timeout and a restart are actions: only they give
			// those causes, and they give them to the machine acted on.
			want := e.Cause
			switch {
			case e.Node == by && first:
				want = map[Verb]Cause{DoTimeout: CauseForcedTimeout, DoRestart: CauseStart}[a.Do]
				first = false
			case e.Cause == CauseForcedTimeout || e.Cause == CauseStart && w.Processed() > 0:
				want = CauseNone
			}
			require.Equal(t, want.String(), e.Cause.String(), "n%d at event %d after %s", e.Node, e.Seq, after)
			require.Equal(t, e.FromRole.String()+"->"+e.ToRole.String()+": "+e.Cause.String(), e.Text, "event %d after %s", e.Seq, after)
			if e.Cause == CauseStart {
				// A machine (re)starting is a fresh follower, whatever
				// it was when it crashed.
				require.Equal(t, [2]Role{RoleFollower, RoleFollower}, [2]Role{e.FromRole, e.ToRole}, "event %d after %s", e.Seq, after)
			} else {
				require.Equal(t, rw.roles[e.Node].String(), e.FromRole.String(), "n%d's role change at event %d after %s leaves a role it was not in", e.Node, e.Seq, after)
				require.Contains(t, roleMoves[e.Cause], [2]Role{e.FromRole, e.ToRole}, "n%d: %s", e.Node, e.Text)
			}
			if e.Cause == CauseHigherTerm || e.Cause == CauseLeaderOfHigherTerm {
				require.Greater(t, e.Term, rw.terms[e.Node], "n%d stepped down for a higher term at event %d", e.Node, e.Seq)
			}
			rw.roles[e.Node] = e.ToRole
		}
	}
	rw.seen = w.TraceCount()
	for i := 1; i <= w.Size(); i++ {
		require.Equal(t, w.Node(NodeID(i)).Role().String(), rw.roles[i].String(), "n%d's role after %s, as its role events tell it", i, after)
	}
}

// replayWatched replays the run of w0 on a fresh world one event at a
// time, checking the role events after every event and every action.
func replayWatched(t *testing.T, w0 *World) *roleWatch {
	w := MustWorld(w0.Config())
	rw := newRoleWatch(t, w)
	step := func(until int64, events uint64) {
		for events == 0 || w.Processed() < events {
			next, ok := w.NextEventAt()
			if !ok || next > until {
				break
			}
			w.Step()
			rw.check(w, nil)
		}
		if events == 0 {
			w.RunUntil(until)
		} else if until > w.now {
			// As Play does: the action is taken after exactly that many
			// events, before any other due at its time.
			w.now = until
		}
	}
	for _, a := range w0.Actions() {
		step(a.AtUs(), a.AfterEvents)
		mustApply(t, w, a)
		rw.check(w, &a)
	}
	step(w0.Now(), 0)
	require.Equal(t, HashString(w0.TraceHash()), HashString(w.TraceHash()), "the replay took another path")
	return rw
}

// TestRoleEventsTellEachTransition checks every role event of random fault
// runs against the machine that made it: FromRole is the role it was in,
// ToRole the one it is in after, and Cause one that can explain that move.
func TestRoleEventsTellEachTransition(t *testing.T) {
	causes := map[Cause]int{}
	for seed := int64(1); seed <= 12; seed++ {
		rw := replayWatched(t, RandomRun(seed, RandomOptions{UntilMs: 8000}))
		for c, n := range rw.causes {
			causes[c] += n
		}
	}
	// Every cause Raft can give turns up in these runs.
	for _, c := range []Cause{CauseStart, CauseElectionTimeout, CauseForcedTimeout, CauseWonPreVote, CauseWonElection,
		CauseLostElection, CauseLeaderOfTerm, CauseLeaderOfHigherTerm, CauseHigherTerm, CauseCheckQuorum} {
		assert.Positive(t, causes[c], "no role change for %q in the runs", c)
	}
}

// TestFailoverRoleCauses: a follower that stops hearing the authority
// promotes itself, and so does one forced to time out.
func TestFailoverRoleCauses(t *testing.T) {
	w := newTestWorld(t, func(c *Config) { c.Protocol = ProtocolFailover; c.Nodes = 3 })
	rw := newRoleWatch(t, w)
	w.RunFor(500_000)
	mustApply(t, w, Action{Do: DoTimeout, Node: 2})
	rw.check(w, &Action{Do: DoTimeout, Node: 2})
	require.Equal(t, 1, rw.causes[CauseForcedTimeout])
	mustApply(t, w, Action{Do: DoPause, Node: 1})
	mustApply(t, w, Action{Do: DoPause, Node: 2})
	w.RunFor(5_000_000)
	rw.check(w, nil)
	require.Equal(t, 1, rw.causes[CauseAuthoritySilent], "n3 promoted itself once")
	require.Equal(t, RoleLeader, w.Node(3).Role())
}

// TestDropCauses makes each kind of drop happen and checks that the drop
// event names its cause and the message it lost, as that message's send
// event does.
func TestDropCauses(t *testing.T) {
	loss := 1.0
	for _, tc := range []struct {
		name  string
		cause Cause
		cfg   func(*Config)
		// do acts on a world whose leader is lead and returns the id of
		// the message it dropped by hand, if any.
		do func(t *testing.T, w *World, lead, f NodeID) uint64
	}{
		{"cut before sending", DropLinkCut, nil, func(t *testing.T, w *World, lead, f NodeID) uint64 {
			mustApply(t, w, Action{Do: DoCut, From: int(lead), To: int(f)})
			w.RunFor(500_000)
			return 0
		}},
		{"cut in flight", DropLinkCut, nil, func(t *testing.T, w *World, lead, f NodeID) uint64 {
			m := inFlightFrom(t, w, lead)
			mustApply(t, w, Action{Do: DoCut, From: int(m.From), To: int(m.To), OneWay: true})
			w.RunFor(500_000)
			return 0
		}},
		{"lost", DropLost, nil, func(t *testing.T, w *World, lead, f NodeID) uint64 {
			mustApply(t, w, Action{Do: DoLoss, From: int(lead), To: int(f), Loss: &loss})
			w.RunFor(500_000)
			return 0
		}},
		{"by hand", DropByHand, nil, func(t *testing.T, w *World, lead, f NodeID) uint64 {
			m := inFlightFrom(t, w, lead)
			mustApply(t, w, Action{Do: DoDrop, ID: m.ID})
			w.RunFor(500_000)
			return m.ID
		}},
		{"sent to a crashed machine", DropMachineDown, nil, func(t *testing.T, w *World, lead, f NodeID) uint64 {
			mustApply(t, w, Action{Do: DoCrash, Node: int(f)})
			w.RunFor(500_000)
			return 0
		}},
		{"waiting at a machine that crashed", DropMachineDown, nil, func(t *testing.T, w *World, lead, f NodeID) uint64 {
			mustApply(t, w, Action{Do: DoSlow, Node: int(f), MsPerMessage: 300})
			w.RunFor(1_000_000)
			require.Positive(t, w.Backlog(f))
			mustApply(t, w, Action{Do: DoCrash, Node: int(f)})
			return 0
		}},
		{"inbox full", DropInboxFull, func(c *Config) { c.InboxLimit = 2 }, func(t *testing.T, w *World, lead, f NodeID) uint64 {
			mustApply(t, w, Action{Do: DoPause, Node: int(f)})
			w.RunFor(1_000_000)
			return 0
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newTestWorld(t, tc.cfg)
			lead := waitSettled(t, w, 10_000)
			from := w.TraceCount()
			byHand := tc.do(t, w, lead, followerOf(w, lead))
			sends := map[uint64]TraceEvent{}
			var drops []TraceEvent
			for _, e := range w.Trace() {
				switch {
				case e.Kind == TraceSend:
					sends[e.Msg] = e
				case e.Kind == TraceDrop && e.Seq > from:
					drops = append(drops, e)
				}
			}
			require.NotEmpty(t, drops, "nothing was dropped")
			for _, d := range drops {
				require.Equal(t, tc.cause.String(), d.Cause.String(), "drop of message %d", d.Msg)
				require.Equal(t, tc.cause.String(), d.Text, "the text is the cause in words")
				s, ok := sends[d.Msg]
				require.True(t, ok, "message %d was never sent", d.Msg)
				assert.Equal(t, [3]any{s.Node, s.Peer, s.MsgType}, [3]any{d.Node, d.Peer, d.MsgType}, "drop of message %d", d.Msg)
			}
			if byHand != 0 {
				require.Len(t, drops, 1)
				require.Equal(t, byHand, drops[0].Msg)
			}
		})
	}
}

// inFlightFrom is a message from machine id on its way.
func inFlightFrom(t *testing.T, w *World, id NodeID) Message {
	t.Helper()
	for i := 0; i < 1000; i++ {
		for _, m := range w.InFlight() {
			if m.From == id {
				return m
			}
		}
		w.Step()
	}
	t.Fatalf("n%d sends nothing", id)
	return Message{}
}

// TestEventsNameTheirMessagesActionsRulesAndVerbs checks the typed fields
// of the other kinds against what they describe: the message in flight,
// the action applied, the client's operation and the violation found.
func TestEventsNameTheirMessagesActionsRulesAndVerbs(t *testing.T) {
	// Failover breaks Single Authority when the authority only paused.
	w := newTestWorld(t, func(c *Config) { c.Protocol = ProtocolFailover; c.Nodes = 3 })
	w.RunFor(500_000)
	mustApply(t, w, Action{Do: DoWrite, Node: 2, Key: "x", Value: "1"})
	mustApply(t, w, Action{Do: DoPause, Node: 1})
	w.RunFor(4_000_000)
	mustApply(t, w, Action{Do: DoResume, Node: 1})
	mustApply(t, w, Action{Do: DoRead, Node: 3, Key: "x", Mode: ReadLocal})
	w.RunFor(10_000)
	require.NotEmpty(t, w.Violations())

	sends := map[uint64]TraceEvent{}
	var faults, invokes, violations []TraceEvent
	for _, e := range w.Trace() {
		switch e.Kind {
		case TraceSend:
			sends[e.Msg] = e
		case TraceDeliver:
			s, ok := sends[e.Msg]
			if !ok {
				// A client's request reaches its machine unsent.
				require.Equal(t, MsgClient, e.MsgType, "message %d delivered unsent", e.Msg)
				continue
			}
			require.Equal(t, s.MsgType, e.MsgType, "message %d delivered as another type", e.Msg)
			require.Equal(t, [2]NodeID{s.Node, s.Peer}, [2]NodeID{e.Peer, e.Node})
		case TraceFault:
			faults = append(faults, e)
		case TraceOpInvoke:
			invokes = append(invokes, e)
		case TraceViolation:
			violations = append(violations, e)
		}
	}
	for _, m := range w.InFlight() {
		require.Equal(t, m.Type, sends[m.ID].MsgType, "message %d in flight", m.ID)
	}
	require.Len(t, faults, len(w.Actions()))
	for i, a := range w.Actions() {
		assert.Equal(t, a.Do, faults[i].Verb())
	}
	require.Len(t, invokes, len(w.Ops()))
	for i, op := range w.Ops() {
		assert.Equal(t, op.Kind, invokes[i].Verb())
	}
	require.Len(t, violations, len(w.Violations()))
	for i, v := range w.Violations() {
		assert.Equal(t, v.Rule, violations[i].Rule())
		assert.Equal(t, v.Text, violations[i].Text, "the text is the sentence alone")
	}
}

// TestTraceJSON: a trace event written as JSON reads back the same, and
// the typed keys are there on the kinds they belong to even when their
// value is the zero one (a follower, a PreVote).
func TestTraceJSON(t *testing.T) {
	w := newTestWorld(t, nil)
	lead := waitSettled(t, w, 10_000)
	mustApply(t, w, Action{Do: DoCut, From: int(lead), To: int(followerOf(w, lead)), OneWay: true})
	w.RunFor(300_000)
	var lines []string
	for _, e := range w.Trace() {
		data, err := json.Marshal(e)
		require.NoError(t, err)
		var back TraceEvent
		require.NoError(t, json.Unmarshal(data, &back), "%s", data)
		require.Equal(t, e, back, "%s", data)
		lines = append(lines, string(data))
	}
	all := strings.Join(lines, "\n")
	for _, want := range []string{`"from_role":"follower","to_role":"follower"`, `"msg_type":"PreVote"`,
		`"cause":"won the election"`, `"msg_type":"Heartbeat"`, `"verb":"cut"`, `"cause":"link cut"`} {
		assert.Contains(t, all, want)
	}
	// Keys of other kinds stay out.
	for _, e := range w.Trace() {
		if e.Kind == TraceTerm {
			data, _ := json.Marshal(e)
			assert.NotContains(t, string(data), "role")
			assert.NotContains(t, string(data), "msg_type")
			break
		}
	}
	// The caller's encoder decides on escaping: raftsim's writes "->".
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	require.NoError(t, enc.Encode(w.Trace()[len(w.Trace())-1]))
	cut := TraceEvent{Kind: TraceFault, verb: verbCode(DoCut), Text: Action{Do: DoCut, From: 1, To: 2, OneWay: true}.String()}
	b.Reset()
	require.NoError(t, enc.Encode(cut))
	assert.Contains(t, b.String(), `"text":"0ms cut 1->2"`)

	for _, bad := range []struct{ line, err string }{
		{`{"kind":"role","cause":"bored"}`, `unknown cause "bored"`},
		{`{"kind":"role","from_role":"king"}`, `unknown role "king"`},
		{`{"kind":"send","msg_type":"Gossip"}`, `unknown message type "Gossip"`},
		{`{"kind":"gossip"}`, `unknown trace kind "gossip"`},
		{`{"kind":"violation","rule":"be-nice"}`, `unknown rule "be-nice"`},
		{`{"kind":"fault","verb":"explode"}`, `unknown verb "explode"`},
	} {
		var e TraceEvent
		err := json.Unmarshal([]byte(bad.line), &e)
		require.Error(t, err, bad.line)
		assert.Contains(t, err.Error(), bad.err)
	}
}

// TestCauseWords: every cause has words of its own, which read back.
func TestCauseWords(t *testing.T) {
	seen := map[string]Cause{}
	for c := CauseNone + 1; int(c) < len(causeNames); c++ {
		words := c.String()
		require.NotEmpty(t, words, "cause %d", c)
		require.NotContains(t, seen, words, "two causes say %q", words)
		seen[words] = c
		var back Cause
		require.NoError(t, back.UnmarshalText([]byte(words)))
		require.Equal(t, c, back)
	}
	require.Equal(t, "cause(200)", Cause(200).String())
}

// TestTraceHashCoversTypedFields: two events that differ only in a typed
// field hash differently, so the trace hash tells such runs apart.
func TestTraceHashCoversTypedFields(t *testing.T) {
	base := TraceEvent{Kind: TraceRole, Node: 1, Text: "same"}
	hash := func(e TraceEvent) uint64 {
		var tr trace
		tr.add(e)
		return tr.hash
	}
	for name, e := range map[string]TraceEvent{
		"from_role": {Kind: TraceRole, Node: 1, Text: "same", FromRole: RoleCandidate},
		"to_role":   {Kind: TraceRole, Node: 1, Text: "same", ToRole: RoleLeader},
		"cause":     {Kind: TraceRole, Node: 1, Text: "same", Cause: CauseWonElection},
		"msg_type":  {Kind: TraceRole, Node: 1, Text: "same", MsgType: MsgApp},
		"rule":      {Kind: TraceRole, Node: 1, Text: "same", rule: ruleCode(RuleElectionSafety)},
		"verb":      {Kind: TraceRole, Node: 1, Text: "same", verb: verbCode(DoCrash)},
	} {
		assert.NotEqual(t, hash(base), hash(e), name)
	}
}

// TestFaultTextSaysUnits: slow is milliseconds per message, drift a rate.
func TestFaultTextSaysUnits(t *testing.T) {
	assert.Equal(t, "10ms slow 2 50ms/msg", Action{AtMs: 10, Do: DoSlow, Node: 2, MsPerMessage: 50}.String())
	assert.Equal(t, "10ms drift 2 x0.5", Action{AtMs: 10, Do: DoDrift, Node: 2, Rate: 0.5}.String())
}
