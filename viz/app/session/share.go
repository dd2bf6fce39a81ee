package session

import (
	"time"

	"bytes"
	"fmt"
	"maps"
	"slices"

	"raftlab/raftcore/timeline"
)

// ExportSchedule writes the whole run as a schedule (the format of raftsim
// run -f), to its furthest moment even when the reader has stepped back,
// as the share link keeps it: replaying it reproduces the run's last world
// exactly.
func (s *Session) ExportSchedule() ([]byte, error) {
	var buf bytes.Buffer
	err := s.hist.tl.WriteWholeSchedule(&buf)
	return buf.Bytes(), err
}

// ExportTrace writes every trace event of the run up to now, one JSON
// object a line.
func (s *Session) ExportTrace() ([]byte, error) {
	var buf bytes.Buffer
	err := s.hist.tl.WriteTrace(&buf)
	return buf.Bytes(), err
}

// LinkPayload is the run up to its head, and the moment shown, as the
// payload of a share link: with the scenario played and its knobs, so
// that opening it plays the same figure.
func (s *Session) LinkPayload() (string, error) {
	id, knobs := "", map[string]string(nil)
	if s.scen != nil {
		id, knobs = s.scen.ID(), s.scen.Knobs()
	}
	return timeline.EncodeLink(s.hist.tl.Link(id, knobs))
}

// OpenLink is the session of the run a share link holds, shown at its
// moment, with its scenario from the catalog.
func OpenLink(payload string, c Catalog, readBudget time.Duration) (*Session, error) {
	l, err := timeline.DecodeLink(payload)
	if err != nil {
		return nil, err
	}
	tl, err := timeline.OpenLink(l)
	if err != nil {
		return nil, err
	}
	var scen *Scenario
	if l.Scenario != "" {
		if scen, err = c.Get(l.Scenario); err != nil {
			return nil, err
		}
		// Sorted, so that knobs that depend on one another are set in the
		// same order every time.
		for _, name := range slices.Sorted(maps.Keys(l.Knobs)) {
			if scen, err = scen.With(name, l.Knobs[name]); err != nil {
				return nil, fmt.Errorf("the link's setting for %s: %v", l.Scenario, err)
			}
		}
	}
	return Adopt(tl, scen, readBudget), nil
}

// OpenRun is the session of a schedule file: its world, replayed to its
// end.
func OpenRun(data []byte, readBudget time.Duration) (*Session, error) {
	tl, err := timeline.ImportSchedule(data)
	if err != nil {
		return nil, err
	}
	return Adopt(tl, nil, readBudget), nil
}
