package raftcore

// Election counters, read from the typed trace: how often machines stood
// for election, how often leadership changed hands, how long the cluster
// went without a leader and how long it took to replace a leader that
// crashed. They are what an operator tuning the election timeout watches:
// a timeout too short for the network makes elections that nothing needed,
// one too long leaves the cluster leaderless for longer after a crash.

// ElectionStats are the counters over one stretch of a run.
type ElectionStats struct {
	// PreVotes counts pre-vote rounds started (machines that became
	// pre-candidates); with PreVote on, most false alarms stop there.
	PreVotes int `json:"prevotes"`
	// Elections counts real elections started: machines that became
	// candidates, each raising its term.
	Elections int `json:"elections"`
	// Leaders counts machines that won an election; LeaderChanges counts
	// those that took over from an earlier leader (all but the run's
	// first).
	Leaders       int `json:"leaders"`
	LeaderChanges int `json:"leader_changes"`
	// LeaderlessUs is the time, within the stretch, when no running
	// machine was a leader.
	LeaderlessUs int64 `json:"leaderless_us"`
	// FailoversUs lists, for each leader that crashed within the stretch,
	// how long it took until another machine became leader; a crash not
	// yet followed by a new leader is left out.
	FailoversUs []int64 `json:"failovers_us"`
}

// ElectionCounter follows a run's trace events, one at a time, and keeps
// what ElectionStats needs. A host that keeps only the newest events (the
// app) feeds it each event once, as it comes.
type ElectionCounter struct {
	n       int
	leading []bool
	// status follows the machines as the faults change them, with the
	// rules World.Apply uses: pausing a crashed machine does nothing.
	status    []Status
	prevotes  []int64 // when each pre-vote round started
	elections []int64 // when each election started
	won       []int64 // when each leader took office
	// gaps are the stretches with no leader, [start, end); the last is
	// open (end -1) while it lasts.
	gaps []interval
	// crashes are leaders' crashes and, once known, when a successor
	// took office (-1 until then).
	crashes []interval
}

type interval struct{ from, to int64 }

// NewElectionCounter starts counting for a world of n machines, which
// starts with no leader.
func NewElectionCounter(n int) *ElectionCounter {
	return &ElectionCounter{n: n, leading: make([]bool, n+1), status: make([]Status, n+1), gaps: []interval{{0, -1}}}
}

func (c *ElectionCounter) leaders() int {
	k := 0
	for id := 1; id <= c.n; id++ {
		if c.leading[id] && c.status[id] == StatusUp {
			k++
		}
	}
	return k
}

// Observe takes the next trace event into account. Events must come in
// trace order.
func (c *ElectionCounter) Observe(e TraceEvent) {
	if e.Node < 1 || int(e.Node) > c.n {
		return
	}
	before := c.leaders()
	switch e.Kind {
	case TraceRole:
		c.leading[e.Node] = e.ToRole == RoleLeader
		switch e.ToRole {
		case RolePreCandidate:
			c.prevotes = append(c.prevotes, e.AtUs)
		case RoleCandidate:
			c.elections = append(c.elections, e.AtUs)
		case RoleLeader:
			c.won = append(c.won, e.AtUs)
			for i := range c.crashes {
				if c.crashes[i].to < 0 {
					c.crashes[i].to = e.AtUs
				}
			}
		}
	case TraceFault:
		st := &c.status[e.Node]
		switch v := e.Verb(); {
		case v == DoCrash:
			if c.leading[e.Node] && *st == StatusUp {
				c.crashes = append(c.crashes, interval{e.AtUs, -1})
			}
			*st, c.leading[e.Node] = StatusCrashed, false
		case v == DoPause && *st == StatusUp:
			*st = StatusPaused
		case v == DoResume && *st == StatusPaused, v == DoRestart && *st == StatusCrashed:
			*st = StatusUp
		}
	default:
		return
	}
	switch after := c.leaders(); {
	case before > 0 && after == 0:
		c.gaps = append(c.gaps, interval{e.AtUs, -1})
	case before == 0 && after > 0:
		c.gaps[len(c.gaps)-1].to = e.AtUs
	}
}

// RewindTo takes the counter back to world w, an earlier moment of the run
// it has followed (a reader stepped back in time): what happened after it
// is forgotten and who leads is read from w, so that counting can carry on
// along another future without counting the abandoned one.
func (c *ElectionCounter) RewindTo(w *World) {
	now := w.Now()
	upTo := func(ts []int64) []int64 {
		i := len(ts)
		for i > 0 && ts[i-1] > now {
			i--
		}
		return ts[:i]
	}
	c.prevotes, c.elections, c.won = upTo(c.prevotes), upTo(c.elections), upTo(c.won)
	for len(c.crashes) > 0 && c.crashes[len(c.crashes)-1].from > now {
		c.crashes = c.crashes[:len(c.crashes)-1]
	}
	for i := range c.crashes {
		if c.crashes[i].to > now {
			c.crashes[i].to = -1
		}
	}
	for id := 1; id <= c.n; id++ {
		c.status[id] = w.Status(NodeID(id))
		c.leading[id] = c.status[id] != StatusCrashed && w.Node(NodeID(id)).Role() == RoleLeader
	}
	for len(c.gaps) > 1 && c.gaps[len(c.gaps)-1].from > now {
		c.gaps = c.gaps[:len(c.gaps)-1]
	}
	last := &c.gaps[len(c.gaps)-1]
	switch {
	case c.leaders() == 0 && (last.to < 0 || last.to > now):
		last.to = -1
	case c.leaders() == 0:
		c.gaps = append(c.gaps, interval{now, -1})
	case last.to < 0 || last.to > now:
		last.to = now
	}
}

// Stats are the counters for the stretch [fromUs, toUs] of the run seen so
// far.
func (c *ElectionCounter) Stats(fromUs, toUs int64) ElectionStats {
	in := func(at int64) bool { return at >= fromUs && at <= toUs }
	s := ElectionStats{FailoversUs: []int64{}}
	for _, at := range c.prevotes {
		if in(at) {
			s.PreVotes++
		}
	}
	for _, at := range c.elections {
		if in(at) {
			s.Elections++
		}
	}
	for i, at := range c.won {
		if in(at) {
			s.Leaders++
			if i > 0 {
				s.LeaderChanges++
			}
		}
	}
	for _, g := range c.gaps {
		end := g.to
		if end < 0 {
			end = toUs
		}
		if lo, hi := max(g.from, fromUs), min(end, toUs); hi > lo {
			s.LeaderlessUs += hi - lo
		}
	}
	for _, f := range c.crashes {
		if in(f.from) && f.to >= 0 && f.to <= toUs {
			s.FailoversUs = append(s.FailoversUs, f.to-f.from)
		}
	}
	return s
}

// ElectionStats counts over the trace kept in memory (all of it unless
// Config.TraceLimit trimmed it) for the stretch from fromUs to now.
func (w *World) ElectionStats(fromUs int64) ElectionStats {
	c := NewElectionCounter(w.cfg.Nodes)
	for _, e := range w.trace.events {
		c.Observe(e)
	}
	return c.Stats(fromUs, w.now)
}
