package explore

import (
	"fmt"
	"slices"
	"strconv"

	"raftlab/raftcore"
)

// Result is what a search found.
type Result struct {
	Bounds Bounds `json:"bounds"`
	// States is the number of distinct states reached, the start
	// included; Transitions the number of actions tried.
	States      int `json:"states"`
	Transitions int `json:"transitions"`
	// Levels counts the states first reached at each depth (Levels[0] is
	// the start).
	Levels []int `json:"levels"`
	// Exhausted is true when every state within the bounds was reached:
	// no rule broken and no MaxStates stop.
	Exhausted bool `json:"exhausted"`
	// Counterexample is the shortest path found to a broken rule, if any.
	Counterexample *Counterexample `json:"counterexample,omitempty"`
}

// Counterexample is a shortest path from the start to a broken rule.
type Counterexample struct {
	// Violations are the broken rules in the path's last state: the
	// world's own checker's, or else the one this package's state check
	// found.
	Violations []raftcore.Violation `json:"violations"`
	// Schedule replays the path: raftsim run -f, or a share link.
	Schedule raftcore.Schedule `json:"schedule"`
}

// Steps is the number of actions along the path, those that built the
// start state of ExploreFrom included.
func (c *Counterexample) Steps() int { return len(c.Schedule.Actions) }

// step is one state reached, kept as the action that reached it from a
// state of the level before, so that a level of millions of states costs
// sixteen bytes each rather than a whole world each. The world of a state
// is rebuilt when it is expanded (see path).
type step struct {
	// arg is, in its low 56 bits, the message a deliver, drop or repeat
	// names; for any other action the machine, for a read its mode's code
	// above it, and for a membership action the machine asked and the new
	// voters of a joint change above it (memberArg). Its top byte counts
	// the membership actions along the path, this step included.
	arg    uint64
	parent int32 // index in the level before
	verb   uint8 // the action's verb, as its place in raftcore.Verbs
	writes uint8 // writes made along the path, this step included
	reads  uint8 // reads made along the path, this step included
	faults uint8 // faults taken along the path, this step included
}

// reconfShift places the count of membership actions in step.arg.
const reconfShift = 56

// reconfigs is the number of membership actions along the step's path.
func (s step) reconfigs() int { return int(s.arg >> reconfShift) }

// stepArg packs what a step keeps of action a besides its verb.
func stepArg(a raftcore.Action) uint64 {
	switch a.Do {
	case raftcore.DoDeliver, raftcore.DoDrop, raftcore.DoRepeat:
		return a.ID
	case raftcore.DoRead:
		return uint64(a.Node) | uint64(readModeCode(a.Mode))<<8
	}
	if isMember(a.Do) {
		return memberArg(a)
	}
	return uint64(a.Node)
}

// action is the raftcore action the step took.
func (s step) action() raftcore.Action {
	a := raftcore.Action{Do: raftcore.Verbs[s.verb]}
	arg := s.arg &^ (0xff << reconfShift)
	switch a.Do {
	case raftcore.DoDeliver, raftcore.DoDrop, raftcore.DoRepeat:
		a.ID = arg
		return a
	case raftcore.DoWrite:
		a.Key, a.Value = writeKey, writeValue(int(s.writes))
	case raftcore.DoRead:
		a.Key, a.Mode = writeKey, readModes[arg>>8-1]
	}
	if isMember(a.Do) {
		return memberAction(a.Do, arg)
	}
	a.Node = int(arg & 0xff)
	return a
}

// Every write sets one key, each to a value of its own, so that two writes
// applied in different orders leave different states, and a read of that
// key tells which write it saw.
const writeKey = "x"

func writeValue(n int) string { return "v" + strconv.Itoa(n) }

// Explore searches the space within b, starting from a fresh world of
// b.Nodes machines with the given bugs switched on, breadth first. It
// stops at the first broken rule, which is then reached by a shortest path.
// An error means the bounds are invalid; a broken rule is not an error.
func Explore(b Bounds, bugs raftcore.Bug) (Result, error) {
	if err := b.Validate(); err != nil {
		return Result{}, err
	}
	cfg := Config(b.Nodes, bugs)
	cfg.Members = b.Members
	if b.SnapshotCount != 0 {
		cfg.SnapshotCount, cfg.CatchUpEntries = b.SnapshotCount, 0
	}
	start, err := raftcore.NewWorld(cfg)
	if err != nil {
		return Result{}, err
	}
	return ExploreFrom(start, b)
}

// ExploreFrom is Explore from a given state, such as the end of a
// schedule: a cluster with a leader already elected, to search deeper
// around it than a search from the start could. The world's own
// configuration (bugs included) holds; b.Nodes must be its size. Writes
// and faults are counted from the start state on, and a counterexample's
// schedule holds the actions that led to the start state too. The start
// world is not changed.
func ExploreFrom(start *raftcore.World, b Bounds) (Result, error) {
	if err := b.Validate(); err != nil {
		return Result{}, err
	}
	if start.Size() != b.Nodes {
		return Result{}, fmt.Errorf("nodes: %d given, but the start state has %d machines", b.Nodes, start.Size())
	}
	if w := start.Config().Workers; w != 0 {
		// Kubelets and their controller run on timers of seconds, which a
		// search that stands the clock still never reaches.
		return Result{}, fmt.Errorf("workers: the start state has %d worker machines; explore searches etcd members only", w)
	}
	m := start.Config().Members
	if m == 0 {
		m = start.Size()
	}
	if b.Members != 0 && b.Members != m {
		return Result{}, fmt.Errorf("members: %d given, but the start state began with %d voters", b.Members, m)
	}
	s := searcher{b: b, seen: newKeySet(), root: start.Clone()}
	return s.run(), nil
}

type searcher struct {
	b      Bounds
	seen   *keySet
	res    Result
	root   *raftcore.World
	levels [][]step // levels[d] holds the states first reached at depth d (d >= 1)
	path   path
	trial  []raftcore.Action // reused buffer of choices
}

func (s *searcher) run() Result {
	s.res.Bounds = s.b
	s.res.Levels = []int{1}
	s.res.States = 1
	s.seen.add(stateKey(s.root, step{}, s.b))
	if s.found(s.root, 0) {
		return s.res
	}
	s.levels = [][]step{{{parent: -1}}} // the start, at depth 0
	s.path = path{s: s}
	for depth := 1; depth <= s.b.Depth; depth++ {
		prev := s.levels[depth-1]
		var next []step
		for i := range prev {
			w := s.path.world(depth-1, int32(i))
			var stop bool
			if next, stop = s.expand(w, prev[i], int32(i), next); stop {
				return s.res
			}
		}
		if len(next) == 0 {
			break
		}
		s.res.Levels = append(s.res.Levels, len(next))
		s.levels = append(s.levels, next)
	}
	s.res.Exhausted = true
	return s.res
}

// expand tries every choice from the state st (at index at of its level),
// whose world is w, and adds the new states to next. It reports whether the
// search is over.
func (s *searcher) expand(w *raftcore.World, st step, at int32, next []step) ([]step, bool) {
	s.trial = choices(w, s.b, st, s.trial[:0])
	for _, a := range s.trial {
		c := w.Clone()
		if err := c.Apply(a); err != nil {
			// A choice is made only from what the state offers; an error
			// here is a fault in this package, not in the world explored.
			panic(fmt.Sprintf("explore: %s refused: %v", a, err))
		}
		s.res.Transitions++
		reconf := uint64(st.reconfigs())
		if isMember(a.Do) {
			reconf++
		}
		child := step{parent: at, verb: uint8(slices.Index(raftcore.Verbs, a.Do)), arg: stepArg(a) | reconf<<reconfShift,
			writes: st.writes, reads: st.reads, faults: st.faults}
		switch a.Do {
		case raftcore.DoWrite:
			child.writes++
		case raftcore.DoRead:
			child.reads++
		case raftcore.DoDrop, raftcore.DoRepeat, raftcore.DoCrash:
			child.faults++
		}
		if !s.seen.add(stateKey(c, child, s.b)) {
			continue
		}
		s.res.States++
		if s.found(c, w.TraceCount()) {
			return next, true
		}
		if v, bad := checkCommits(w, c); bad {
			s.res.Counterexample = &Counterexample{Violations: []raftcore.Violation{v}, Schedule: c.Schedule()}
			return next, true
		}
		if s.b.MaxStates > 0 && s.res.States >= s.b.MaxStates {
			return next, true
		}
		next = append(next, child)
	}
	return next, false
}

// path rebuilds the world of a state from the start by replaying the
// actions that reached it. It keeps the worlds along the last path it
// rebuilt: states are expanded level by level in the order they were
// found, so consecutive states share most of their path (siblings share
// all of it but the last step), and only the part that differs is
// replayed.
type path struct {
	s      *searcher
	at     []int32           // at[d]: index of the state kept for depth d
	worlds []*raftcore.World // worlds[d]: its world
	anc    []int32           // reused buffer of ancestors
}

// world returns the world of state i of level depth. It must be treated as
// read-only: it is kept for the states that follow.
func (p *path) world(depth int, i int32) *raftcore.World {
	if depth == 0 {
		return p.s.root
	}
	// The ancestors of the state, from depth 1 down to it.
	p.anc = p.anc[:0]
	for d, j := depth, i; d >= 1; d-- {
		p.anc = append(p.anc, j)
		j = p.s.levels[d][j].parent
	}
	slices.Reverse(p.anc)
	for len(p.at) < depth {
		p.at = append(p.at, -1)
		p.worlds = append(p.worlds, nil)
	}
	same := 0
	for same < depth && p.at[same] == p.anc[same] {
		same++
	}
	for d := same; d < depth; d++ {
		from := p.s.root
		if d > 0 {
			from = p.worlds[d-1]
		}
		w := from.Clone()
		st := p.s.levels[d+1][p.anc[d]]
		if err := w.Apply(st.action()); err != nil {
			panic(fmt.Sprintf("explore: replaying %s: %v", st.action(), err))
		}
		p.at[d], p.worlds[d] = p.anc[d], w
	}
	return p.worlds[depth-1]
}

// found reports, and records as the counterexample, a broken rule in w,
// judging the reads answered after trace event since.
func (s *searcher) found(w *raftcore.World, since uint64) bool {
	vs := withoutStaleReads(w.Violations())
	if len(vs) == 0 {
		v, bad := checkState(w)
		if !bad {
			v, bad = checkReads(w, since)
		}
		if !bad {
			return false
		}
		vs = []raftcore.Violation{v}
	}
	s.res.Counterexample = &Counterexample{Violations: vs, Schedule: w.Schedule()}
	return true
}

// withoutStaleReads leaves out the world checker's stale-read verdicts.
// That checker holds every stale lease read to the rule, a deposed
// leader's too, which is stale by design; the read rule here (reads.go)
// judges every read answered, with that classification, instead.
func withoutStaleReads(vs []raftcore.Violation) []raftcore.Violation {
	if !slices.ContainsFunc(vs, isStaleRead) {
		return vs // the usual case: nothing to copy
	}
	var keep []raftcore.Violation
	for _, v := range vs {
		if !isStaleRead(v) {
			keep = append(keep, v)
		}
	}
	return keep
}

func isStaleRead(v raftcore.Violation) bool { return v.Rule == raftcore.RuleStaleRead }

// stateKey is the world's key with the budgets spent by st's path (the
// same machines with more writes, reads or faults left can still go
// further) and what the read rule needs of the clients (clientKey). The
// product with an odd constant (a bijection) spreads the budgets over the
// low bits that place a key in the key set.
func stateKey(w *raftcore.World, st step, b Bounds) uint64 {
	budgets := uint64(st.reconfigs())<<32 | uint64(st.writes)<<40 | uint64(st.reads)<<48 | uint64(st.faults)<<56
	return (w.StateKey() ^ clientKey(w, int(st.reads) < b.Reads) ^ budgets) * 0x9e3779b97f4a7c15
}

// choices lists, in a fixed order, every action the world can take in
// state st within the bounds.
func choices(w *raftcore.World, b Bounds, st step, out []raftcore.Action) []raftcore.Action {
	writes := int(st.writes)
	faultsLeft := int(st.faults) < b.Faults
	wire := w.InFlight()
	for _, m := range wire {
		out = append(out, raftcore.Action{Do: raftcore.DoDeliver, ID: m.ID})
		if faultsLeft {
			out = append(out,
				raftcore.Action{Do: raftcore.DoDrop, ID: m.ID},
				raftcore.Action{Do: raftcore.DoRepeat, ID: m.ID})
		}
	}
	for id := raftcore.NodeID(1); int(id) <= b.Nodes; id++ {
		if w.Status(id) == raftcore.StatusCrashed {
			out = append(out, raftcore.Action{Do: raftcore.DoRestart, Node: int(id)})
			continue
		}
		m := w.Node(id)
		switch m.Role() {
		case raftcore.RoleLeader:
			// A second round of heartbeats while one is still on its way
			// would only add copies of what is in flight (repeat does
			// that, as a fault).
			if !heartbeatInFlight(wire, id, m.Term()) {
				out = append(out, raftcore.Action{Do: raftcore.DoHeartbeat, Node: int(id)})
			}
		case raftcore.RoleFollower, raftcore.RoleCandidate:
			// A candidate moves to the next term; capping the term here
			// caps every term, since terms only spread from candidates.
			// A pre-candidate is not made to time out again: it would
			// ask the same machines the same question, which is what
			// repeat does.
			if m.Term() < uint64(b.Terms) {
				out = append(out, raftcore.Action{Do: raftcore.DoTimeout, Node: int(id)})
			}
		}
		if writes < b.Writes && m.Lead() != raftcore.None {
			// A machine that knows no leader refuses a write: nothing
			// would change but the budget, so it is not tried.
			out = append(out, raftcore.Action{Do: raftcore.DoWrite, Node: int(id), Key: writeKey, Value: writeValue(writes + 1)})
		}
		if int(st.reads) < b.Reads {
			out = readChoices(w, id, out)
		}
		if st.reconfigs() < b.Reconfigs {
			out = memberChoices(w, id, out)
		}
		if faultsLeft {
			out = append(out, raftcore.Action{Do: raftcore.DoCrash, Node: int(id)})
		}
	}
	return out
}

// readChoices adds the reads machine id can take: a linearizable read,
// and a lease read when CheckQuorum is on. A machine that would refuse a
// read at once (one that knows no leader, or is campaigning) is not asked:
// nothing would change but the budget.
func readChoices(w *raftcore.World, id raftcore.NodeID, out []raftcore.Action) []raftcore.Action {
	m := w.Node(id)
	if m.Role() != raftcore.RoleLeader && (m.Role() != raftcore.RoleFollower || m.Lead() == raftcore.None) {
		return out
	}
	for _, mode := range readModes {
		if mode == raftcore.ReadLease && !w.Config().CheckQuorum {
			continue
		}
		out = append(out, raftcore.Action{Do: raftcore.DoRead, Node: int(id), Key: writeKey, Mode: mode})
	}
	return out
}

// heartbeatInFlight reports whether a heartbeat of leader id's term is on
// its way.
func heartbeatInFlight(wire []raftcore.Message, id raftcore.NodeID, term uint64) bool {
	for _, m := range wire {
		if m.Type == raftcore.MsgHeartbeat && m.From == id && m.Term == term {
			return true
		}
	}
	return false
}
