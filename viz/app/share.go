package app

import (
	"fmt"
	"strconv"

	"raftlab/viz"
	"raftlab/viz/app/command"
	"raftlab/viz/app/session"
	"raftlab/viz/frame"
	"raftlab/viz/words"
)

// ExportSchedule writes the whole run as a schedule (the format of raftsim
// run -f), to its furthest moment: replaying it reproduces the run's last
// world exactly.
func (a *App) ExportSchedule() ([]byte, error) { return a.session.ExportSchedule() }

// ExportTrace writes every trace event of the run up to now, one JSON
// object a line.
func (a *App) ExportTrace() ([]byte, error) { return a.session.ExportTrace() }

// ShareLink is a URL that opens this run at this moment.
func (a *App) ShareLink() string { return a.linkFor(a.params) }

// linkFor is the share link with settings p.
func (a *App) linkFor(p viz.Params) string {
	payload, err := a.session.LinkPayload()
	if err != nil {
		return a.opts.BaseURL
	}
	p.Link, p.T, p.Scenario, p.Autoplay, p.Origins = "", 0, "", false, ""
	p.Speed = a.clock.Speed()
	q := p.Encode()
	if p.Speed == viz.DefaultParams().Speed {
		// Encode leaves a default out, but a page opened without a speed
		// starts at DefaultSpeed: say it, so the run plays at the pace
		// the reader chose.
		q = joinQuery(q, "speed="+strconv.FormatFloat(p.Speed, 'g', -1, 64))
	}
	return a.opts.BaseURL + "?" + joinQuery(q, "link="+payload)
}

// openLink opens the run a share link holds, at its moment, paused.
func (a *App) openLink(payload string) error {
	s, err := session.OpenLink(payload, a.opts.Scenarios, readCheckBudget)
	if err != nil {
		return err
	}
	a.adopt(s)
	return nil
}

// ImportSchedule opens a schedule file: its world, replayed up to its end.
func (a *App) ImportSchedule(data []byte) error { return a.Do(command.OpenRun{JSON: string(data)}) }

func (a *App) openRun(data []byte) error {
	s, err := session.OpenRun(data, readCheckBudget)
	if err != nil {
		return err
	}
	a.adopt(s)
	if a.cfg().Bugs != 0 {
		return nil // adopt's warning stays
	}
	a.note(fmt.Sprintf("Opened a run of %s with %d actions.", words.Clock(a.World().Now()), len(s.Timeline().Actions())))
	return nil
}

// adopt makes s, a run opened from a link or a file, the run shown,
// paused at its position.
func (a *App) adopt(s *session.Session) {
	cfg := s.Config()
	a.params.Nodes, a.params.Protocol, a.params.Seed = cfg.Nodes, string(cfg.Protocol), cfg.Seed
	a.params.PreVote, a.params.CheckQuorum = cfg.PreVote, cfg.CheckQuorum
	a.params.Scenario = ""
	if r := s.Scenario(); r != nil {
		a.params.Scenario = r.ID()
	}
	a.replaceSession(s)
	a.clock.SetPaused(true)
	if names := cfg.Bugs.Names(); len(names) > 0 {
		// A counterexample from `raftsim explore` runs a broken variant:
		// without a word the reader would take the broken rule for Raft's.
		a.say(words.Broken(names), frame.ToneBad, 0)
	}
}

// joinQuery joins two parts of a URL query.
func joinQuery(q, part string) string {
	if q == "" {
		return part
	}
	return q + "&" + part
}
