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
	n    int
	lead leadership
	// prevotes, elections and won are when each pre-vote round and each
	// election started and when each leader took office.
	prevotes  []int64
	elections []int64
	won       []int64
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
	return &ElectionCounter{n: n, gaps: []interval{{0, -1}}}
}

// leadership follows who leads among the running machines as the trace
// goes, with the rules World.Apply uses for faults: pausing a crashed
// machine does nothing. Machines are counted up to MaxNodes, so that it
// needs no size and copies without allocating.
type leadership struct {
	leading [MaxNodes + 1]bool
	status  [MaxNodes + 1]Status
}

// electionNews is what one trace event meant for the election counters.
type electionNews struct {
	preVote, election, won bool
	// leaderCrashed: a running leader crashed.
	leaderCrashed bool
	// lost and regained: the cluster went from some running leader to
	// none, or from none to some.
	lost, regained bool
}

func (l *leadership) leaders() int {
	k := 0
	for id := range l.leading {
		if l.leading[id] && l.status[id] == StatusUp {
			k++
		}
	}
	return k
}

// observe takes event e into account and says what it meant.
func (l *leadership) observe(e TraceEvent) (news electionNews) {
	if (e.Kind != TraceRole && e.Kind != TraceFault) || e.Node < 1 || int(e.Node) > MaxNodes {
		return news
	}
	before := l.leaders()
	if e.Kind == TraceRole {
		l.leading[e.Node] = e.ToRole == RoleLeader
		news.preVote = e.ToRole == RolePreCandidate
		news.election = e.ToRole == RoleCandidate
		news.won = e.ToRole == RoleLeader
	} else {
		st := &l.status[e.Node]
		switch v := e.Verb(); {
		case v == DoCrash:
			news.leaderCrashed = l.leading[e.Node] && *st == StatusUp
			*st, l.leading[e.Node] = StatusCrashed, false
		case v == DoPause && *st == StatusUp:
			*st = StatusPaused
		case v == DoResume && *st == StatusPaused, v == DoRestart && *st == StatusCrashed:
			*st = StatusUp
		}
	}
	after := l.leaders()
	news.lost = before > 0 && after == 0
	news.regained = before == 0 && after > 0
	return news
}

// Observe takes the next trace event into account. Events must come in
// trace order.
func (c *ElectionCounter) Observe(e TraceEvent) {
	if int(e.Node) > c.n {
		return
	}
	news := c.lead.observe(e)
	at := e.AtUs
	switch {
	case news.preVote:
		c.prevotes = append(c.prevotes, at)
	case news.election:
		c.elections = append(c.elections, at)
	case news.won:
		c.won = append(c.won, at)
		for i := range c.crashes {
			if c.crashes[i].to < 0 {
				c.crashes[i].to = at
			}
		}
	case news.leaderCrashed:
		c.crashes = append(c.crashes, interval{at, -1})
	}
	switch {
	case news.lost:
		c.gaps = append(c.gaps, interval{at, -1})
	case news.regained:
		c.gaps[len(c.gaps)-1].to = at
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
		c.lead.status[id] = w.Status(NodeID(id))
		c.lead.leading[id] = c.lead.status[id] != StatusCrashed && w.Node(NodeID(id)).Role() == RoleLeader
	}
	for len(c.gaps) > 1 && c.gaps[len(c.gaps)-1].from > now {
		c.gaps = c.gaps[:len(c.gaps)-1]
	}
	last := &c.gaps[len(c.gaps)-1]
	switch {
	case c.lead.leaders() == 0 && (last.to < 0 || last.to > now):
		last.to = -1
	case c.lead.leaders() == 0:
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
// Config.TraceLimit trimmed it) for the stretch from fromUs to now. The
// whole run's counters, whatever the world kept, are in Summarize.
func (w *World) ElectionStats(fromUs int64) ElectionStats {
	c := NewElectionCounter(w.cfg.Nodes)
	for _, e := range w.trace.events {
		c.Observe(e)
	}
	return c.Stats(fromUs, w.now)
}

// electionTally is the whole run's election counters, kept up to date as
// each trace event is recorded, so that a summary has them however few
// events the world keeps. Unlike ElectionCounter it remembers no times,
// only totals: its size grows with the leaders that crashed, not with the
// run's length.
type electionTally struct {
	lead leadership
	// sum holds the counts, the leaderless time of the gaps that ended and
	// the failovers that ended.
	sum ElectionStats
	// gapFrom is when the current stretch without a leader began; -1
	// while some running machine leads. A run starts without a leader, so
	// the zero value is a new run's tally.
	gapFrom int64
	// crashed are the times of leaders' crashes not yet followed by a new
	// leader.
	crashed []int64
}

func (t *electionTally) observe(e TraceEvent) {
	news := t.lead.observe(e)
	at := e.AtUs
	switch {
	case news.preVote:
		t.sum.PreVotes++
	case news.election:
		t.sum.Elections++
	case news.won:
		if t.sum.Leaders > 0 {
			t.sum.LeaderChanges++
		}
		t.sum.Leaders++
		for _, from := range t.crashed {
			t.sum.FailoversUs = append(t.sum.FailoversUs, at-from)
		}
		// A new slice, not a reslice: a clone may share the old one.
		t.crashed = nil
	case news.leaderCrashed:
		t.crashed = append(t.crashed, at)
	}
	switch {
	case news.lost:
		t.gapFrom = at
	case news.regained:
		t.sum.LeaderlessUs += at - t.gapFrom
		t.gapFrom = -1
	}
}

// total is the counters from the start of the run to nowUs.
func (t *electionTally) total(nowUs int64) ElectionStats {
	s := t.sum
	s.FailoversUs = append([]int64{}, t.sum.FailoversUs...)
	if t.gapFrom >= 0 && nowUs > t.gapFrom {
		s.LeaderlessUs += nowUs - t.gapFrom
	}
	return s
}

// clone copies the tally; appending to a copy never writes into the other.
func (t electionTally) clone() electionTally {
	t.sum.FailoversUs = capped(t.sum.FailoversUs)
	t.crashed = capped(t.crashed)
	return t
}
