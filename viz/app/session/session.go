// Package session is the run the app shows: the world's history (every
// moment can be shown again, and acting in the past forks it), the
// scenario being played with the tracker that follows its story, what the
// app remembers of this world between frames (where each message in
// flight travels, which client reads were judged), and what the screen
// reader was last told about it.
//
// A session is replaced whole when the world is: a reset, a new scenario,
// a share link or a schedule opened. Nothing of an old world can then
// survive into a new one by construction.
package session

import (
	"math"
	"time"

	"raftlab/internal/linearize"
	"raftlab/raftcore"
	"raftlab/raftcore/timeline"
)

// Session is one run and all that belongs to its world.
type Session struct {
	cfg   raftcore.Config
	hist  *history
	scen  *Scenario // nil in free play
	paths *paths
	reads linearize.Cache
	told  Told
	// fork is when the last action forked the run, until taken.
	fork struct {
		at int64
		ok bool
	}
}

// New starts a run of cfg, playing scen if not nil (scen's Config gives
// cfg for a scenario).
func New(cfg raftcore.Config, scen *Scenario, readBudget time.Duration) (*Session, error) {
	h, err := newHistory(cfg)
	if err != nil {
		return nil, err
	}
	s := &Session{cfg: cfg, hist: h, scen: scen, paths: newPaths(), reads: linearize.Cache{Budget: readBudget}, told: newTold()}
	if scen != nil {
		scen.begin(s.World())
	}
	return s, nil
}

// Adopt makes a session of a run opened from a link or a file, shown where
// tl stands; scen is the scenario it plays, if any.
func Adopt(tl *timeline.Timeline, scen *Scenario, readBudget time.Duration) *Session {
	s := &Session{cfg: tl.Config(), hist: &history{tl: tl}, scen: scen, paths: newPaths(), reads: linearize.Cache{Budget: readBudget}, told: newTold()}
	if scen != nil {
		scen.Observe(s.World())
		scen.shown = scen.Latest()
	}
	return s
}

// Config is the world's configuration (read only).
func (s *Session) Config() *raftcore.Config { return &s.cfg }

// World is the world shown now (read only: change it through Act).
func (s *Session) World() *raftcore.World { return s.hist.World() }

// Scenario is the scenario played, or nil in free play.
func (s *Session) Scenario() *Scenario { return s.scen }

// Timeline is the run's timeline (read only), for sharing and export.
func (s *Session) Timeline() *timeline.Timeline { return s.hist.tl }

// Told is what the screen reader was last told of this run.
func (s *Session) Told() *Told { return &s.told }

// Act applies one of the reader's actions (recorded, so replayable). When
// the world shown is in the past, acting forks the run there: forked says
// so, and at is the virtual time of the fork.
func (s *Session) Act(x raftcore.Action) (forked bool, at int64, err error) {
	forked, at = !s.hist.AtHead(), s.hist.NowUs()
	if err := s.hist.Act(x); err != nil {
		return false, 0, err
	}
	if forked {
		s.paths = s.paths.forked(at)
		s.fork.at, s.fork.ok = at, true
	}
	return forked, at, nil
}

// ReturnToOtherRun brings back the run left by acting in the past; it
// reports false when there is none.
func (s *Session) ReturnToOtherRun() bool {
	g, ok := s.hist.tl.Ghost()
	if !ok || !s.hist.tl.ReturnToGhost() {
		return false
	}
	s.paths = s.paths.forked(g.Fork.AtUs)
	return true
}

// HasOtherRun reports whether there is a run left by acting in the past.
func (s *Session) HasOtherRun() bool {
	_, ok := s.hist.tl.Ghost()
	return ok
}

// NowUs is the virtual time shown.
func (s *Session) NowUs() int64 { return s.hist.NowUs() }

// HeadUs is the furthest time reached on this branch.
func (s *Session) HeadUs() int64 { return s.hist.HeadUs() }

// AtHead reports whether the live end of the run is shown.
func (s *Session) AtHead() bool { return s.hist.AtHead() }

// GoTo shows the run at virtual time t.
func (s *Session) GoTo(t int64) { s.hist.GoTo(t) }

// Step runs until the next visible change; false when nothing is due.
//
// Playing a figure at the head, the figure's next scripted action is met
// where the figure's own play would take it: a step that would pass it
// takes it instead.
func (s *Session) Step() bool {
	x, ok := s.dueScript()
	if !ok {
		return s.hist.Step()
	}
	changed, stopped := s.hist.StepBy(x.AtUs())
	if !stopped {
		return changed
	}
	return s.takeScripted() || changed
}

// StepBack goes back to before the latest visible change; false at the
// start.
func (s *Session) StepBack() bool { return s.hist.StepBack() }

// PrevMark goes back to the previous notable moment.
func (s *Session) PrevMark() (timeline.Mark, bool) { return s.hist.PrevMark() }

// NextMark runs on to the next notable moment.
//
// Playing a figure at the head, it stops at the figure's next scripted
// action if nothing notable comes first, and takes it.
func (s *Session) NextMark() (timeline.Mark, bool) {
	x, ok := s.dueScript()
	if !ok {
		return s.hist.NextMark(math.MaxInt64)
	}
	if m, found := s.hist.NextMark(x.AtUs()); found {
		return m, true
	}
	// Nothing notable before the action: the search looked as far as it
	// and came back; go there, to the head, and take it.
	s.hist.RunUntil(x.AtUs())
	if !s.takeScripted() {
		return timeline.Mark{}, false
	}
	ms := s.hist.Marks()
	if len(ms) == 0 {
		return timeline.Mark{}, false
	}
	return ms[len(ms)-1], true
}

// Marks are the notable moments of this branch.
func (s *Session) Marks() []timeline.Mark { return s.hist.Marks() }

// Observed lets the scenario follow the world after it moved, and
// remembers the paths of the messages on the wire. It reports whether the
// story reached another step.
func (s *Session) Observed() (newStep bool) {
	s.paths.remember(s.World())
	if s.scen == nil {
		return false
	}
	return s.scen.Observe(s.World())
}

// Path is where message id travelled, while it was on the wire: from and
// to (layout indexes), sent and due at; false when it was never seen.
func (s *Session) Path(id uint64) (from, to int, sendUs, deliverUs int64, ok bool) {
	m, ok := s.paths.seen[id]
	return m.from, m.to, m.send, m.deliver, ok
}

// Reads judges the client reads among ops, searching again only the keys
// whose operations changed since it was last asked.
func (s *Session) Reads(ops []raftcore.Op) linearize.Result { return s.reads.Check(ops) }

// Leader is the index of the machine that leads in the highest term among
// running machines, or -1.
func (s *Session) Leader() int {
	w := s.World()
	best, term := -1, uint64(0)
	for i := 0; i < w.Size(); i++ {
		id := raftcore.NodeID(i + 1)
		n := w.Node(id)
		if w.Status(id) == raftcore.StatusUp && n.Role() == raftcore.RoleLeader && (best < 0 || n.Term() > term) {
			best, term = i, n.Term()
		}
	}
	return best
}

// TakeFork reports whether an action since the last call forked the run
// (it acted in the past), and at what virtual time; it forgets it.
func (s *Session) TakeFork() (atUs int64, forked bool) {
	at, ok := s.fork.at, s.fork.ok
	s.fork.ok = false
	return at, ok
}
