package app

import (
	"bytes"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"raftlab/raftcore/timeline"
	"raftlab/viz"
	"raftlab/viz/app/command"
	"raftlab/viz/frame"
)

// ExportSchedule writes the whole run as a schedule (the format of raftsim
// run -f), to its furthest moment even when the reader has stepped back, as
// the share link keeps it: replaying it reproduces the run's last world
// exactly.
func (a *App) ExportSchedule() ([]byte, error) {
	var buf bytes.Buffer
	err := a.hist.tl.WriteWholeSchedule(&buf)
	return buf.Bytes(), err
}

// ExportTrace writes every trace event of the run up to now, one JSON
// object a line.
func (a *App) ExportTrace() ([]byte, error) {
	var buf bytes.Buffer
	err := a.hist.tl.WriteTrace(&buf)
	return buf.Bytes(), err
}

// scenarioID is the id of the scenario played, or "".
func (a *App) scenarioID() string {
	if a.scen == nil {
		return ""
	}
	return a.scen.id
}

// scenarioKnobs is the played scenario's settings that differ from their
// defaults, by knob name (nil if none).
func (a *App) scenarioKnobs() map[string]string {
	if a.scen == nil {
		return nil
	}
	var m map[string]string
	for _, k := range a.scen.s.Knobs {
		if v := a.scen.s.Setting(k.Name); v != k.Default {
			if m == nil {
				m = map[string]string{}
			}
			m[k.Name] = v
		}
	}
	return m
}

// ShareLink is a URL that opens this run at this moment.
func (a *App) ShareLink() string { return a.linkFor(a.params) }

// linkFor is the share link with settings p.
func (a *App) linkFor(p viz.Params) string {
	payload, err := timeline.EncodeLink(a.hist.tl.Link(a.scenarioID(), a.scenarioKnobs()))
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
	l, err := timeline.DecodeLink(payload)
	if err != nil {
		return err
	}
	tl, err := timeline.OpenLink(l)
	if err != nil {
		return err
	}
	var scen *scenarioRun
	if l.Scenario != "" {
		if scen, err = a.opts.Scenarios.get(l.Scenario); err != nil {
			return err
		}
		// Sorted, so that knobs that depend on one another are set in
		// the same order every time.
		for _, name := range slices.Sorted(maps.Keys(l.Knobs)) {
			s, err := scen.s.With(name, l.Knobs[name])
			if err != nil {
				return fmt.Errorf("the link's setting for %s: %v", l.Scenario, err)
			}
			scen = newScenarioRun(s)
		}
	}
	a.adopt(tl, scen)
	return nil
}

// ImportSchedule opens a schedule file: its world, replayed up to its end.
func (a *App) ImportSchedule(data []byte) error { return a.Do(command.OpenRun{JSON: string(data)}) }

func (a *App) openRun(data []byte) error {
	tl, err := timeline.ImportSchedule(data)
	if err != nil {
		return err
	}
	a.adopt(tl, nil)
	if tl.Config().Bugs != 0 {
		return nil // adopt's warning stays
	}
	a.note(fmt.Sprintf("Opened a run of %s with %d actions.", fmtClock(tl.World().Now()), len(tl.Actions())))
	return nil
}

// adopt makes tl the run shown, paused at its position.
func (a *App) adopt(tl *timeline.Timeline, scen *scenarioRun) {
	cfg := tl.Config()
	a.cfg, a.hist, a.scen = cfg, &history{tl: tl}, scen
	a.params.Nodes, a.params.Protocol, a.params.Seed = cfg.Nodes, string(cfg.Protocol), cfg.Seed
	a.params.PreVote, a.params.CheckQuorum = cfg.PreVote, cfg.CheckQuorum
	a.params.Scenario = ""
	if scen != nil {
		a.params.Scenario = scen.id
		scen.observe(a)
		scen.shown = scen.latest()
	}
	a.resetView()
	a.clock.SetPaused(true)
	if names := cfg.Bugs.Names(); len(names) > 0 {
		// A counterexample from `raftsim explore` runs a broken variant:
		// without a word the reader would take the broken rule for Raft's.
		a.say(brokenOnPurpose(names), frame.ToneBad, 0)
	}
}

// writeBroken writes, where the setup is described, that the run breaks
// Raft on purpose and how, if it does: the banner that says so first gives
// way to the next note.
func (a *App) writeBroken(wr *writer, size float64) {
	if names := a.cfg.Bugs.Names(); len(names) > 0 {
		wr.text("Broken on purpose: "+strings.Join(names, ", ")+".", size, frame.ToneBad, true)
	}
}

// brokenOnPurpose tells the reader that the run opened breaks Raft on
// purpose, and how.
func brokenOnPurpose(names []string) string {
	return "This run breaks Raft on purpose (" + strings.Join(names, ", ") +
		"): what goes wrong here is that bug, not Raft."
}

// joinQuery joins two parts of a URL query.
func joinQuery(q, part string) string {
	if q == "" {
		return part
	}
	return q + "&" + part
}
