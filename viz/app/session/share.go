package session

import (
	"bytes"
	"fmt"
	"maps"
	"slices"
	"time"

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

// Opening is a share link's run being replayed a piece at a time, so
// that a long one can show how far it has got (timeline.Opening).
type Opening struct {
	op     *timeline.Opening
	cat    Catalog
	budget time.Duration
}

// StartLink begins opening the run a share link holds: a link that is bad
// or asks for too much is refused here, before anything is replayed.
func StartLink(payload string, c Catalog, readBudget time.Duration) (*Opening, error) {
	op, err := timeline.StartOpening(payload)
	if err == nil {
		op, err = op.WithOptions(openOptions)
	}
	if err != nil {
		return nil, err
	}
	if id := op.Link().Scenario; id != "" {
		if _, err := c.Get(id); err != nil {
			return nil, err
		}
	}
	return &Opening{op: op, cat: c, budget: readBudget}, nil
}

// Step replays up to moments more moments; it reports whether the opening
// is over (Session then says how).
func (o *Opening) Step(moments int) bool { return o.op.Step(moments) }

// Progress is the share of the run replayed, from 0 to 1.
func (o *Opening) Progress() float64 { return o.op.Progress() }

// Session is the opened run's session, shown at the link's moment with
// its scenario and knobs, once Step has said the opening is over.
func (o *Opening) Session() (*Session, error) {
	tl, err := o.op.Result()
	if err != nil {
		return nil, err
	}
	if tl == nil {
		return nil, fmt.Errorf("the link is still being opened")
	}
	l := o.op.Link()
	var scen *Scenario
	if l.Scenario != "" {
		if scen, err = o.cat.Get(l.Scenario); err != nil {
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
	if l.PosUs == 0 && l.PosEvents == 0 && l.PosActions == nil {
		// A link that names no moment, as the explorer's counterexamples
		// are, opens where the run first broke a rule: that is what it is
		// for.
		firstBroken(tl)
	}
	return Adopt(tl, scen, o.budget), nil
}

// openOptions are the timeline's options for a run opened from a link or
// a schedule file: its defaults, with the client history bounded as a
// run made here is (HistoryLimit).
var openOptions = timeline.Options{HistoryLimit: HistoryLimit}

// firstBroken shows tl at the first moment a rule broke, if one did.
func firstBroken(tl *timeline.Timeline) {
	for _, m := range tl.Marks() {
		if m.Kind == timeline.MarkViolation {
			tl.SeekTo(m.At)
			return
		}
	}
}

// OpenRun is the session of a schedule file: its world, replayed to its
// end.
func OpenRun(data []byte, readBudget time.Duration) (*Session, error) {
	o, err := timeline.StartImport(data)
	if err == nil {
		o, err = o.WithOptions(openOptions)
	}
	if err != nil {
		return nil, err
	}
	tl, err := o.Run(nil)
	if err != nil {
		return nil, err
	}
	return Adopt(tl, nil, readBudget), nil
}
