package timeline

import (
	"fmt"
	"math"

	"raftlab/raftcore"
)

// Position is a moment of a run: the number of events handled, the virtual
// time in microseconds and the number of actions applied. Several events
// can share an instant, and several actions can be taken between two
// events, so time alone does not name a moment.
//
// The world at a position has handled exactly Events events, its clock
// reads AtUs and it has applied the first Actions actions of the log.
type Position struct {
	Events  uint64 `json:"events"`
	AtUs    int64  `json:"at_us"`
	Actions int    `json:"actions"`
}

// Targets of replay may leave parts open: atEventTime as AtUs means "at the
// time of the event reached", and allActions as Actions means "every action
// recorded up to that moment".
const (
	atEventTime = math.MaxInt64
	allActions  = math.MaxInt
)

// Less orders positions along one run.
func (p Position) Less(q Position) bool {
	if p.Events != q.Events {
		return p.Events < q.Events
	}
	if p.AtUs != q.AtUs {
		return p.AtUs < q.AtUs
	}
	return p.Actions < q.Actions
}

// within reports whether a world at p can move forward to q.
func (p Position) within(q Position) bool {
	return p.Events <= q.Events && p.AtUs <= q.AtUs && p.Actions <= q.Actions
}

func posOf(w *raftcore.World) Position { return Position{w.Processed(), w.Now(), len(w.Actions())} }

// moment is what replay just did: handled one event or applied one action.
type moment uint8

const (
	stepMoment moment = iota
	actionMoment
)

// replayTo moves w forward along log until it reaches target, handling
// events and applying the log's actions exactly where they were taken.
// Actions w has already applied are the log's first len(w.Actions()).
//
// The order of steps and actions mirrors World.Play (advanceTo): an action
// is applied once the recorded number of events has been handled, or once
// no event is due before its time. That makes replaying a recorded log
// reproduce the recorded world, and replaying a hand-written log reproduce
// what Schedule.Run would do with it.
//
// after, if not nil, is called after every moment; returning true stops the
// replay there. replayTo reports whether it was stopped.
func replayTo(w *raftcore.World, log []raftcore.Action, target Position, after func(moment) bool) (bool, error) {
	for {
		reached := w.Processed() >= target.Events
		limit := target.AtUs
		if reached && limit == atEventTime {
			limit = w.Now()
		}
		k := len(w.Actions())
		for ; k < len(log) && k < target.Actions && due(w, log[k], limit); k++ {
			if err := applyLogged(w, log, k); err != nil {
				return false, err
			}
			if after != nil && after(actionMoment) {
				return true, nil
			}
		}
		if reached {
			break
		}
		if k < len(log) && k >= target.Actions && due(w, log[k], target.AtUs) {
			break // the target lies before this action
		}
		next, ok := w.NextEventAt()
		if !ok || next > target.AtUs {
			break
		}
		w.Step()
		if after != nil && after(stepMoment) {
			return true, nil
		}
	}
	// Let time pass up to the target, unless an event or a recorded action
	// comes before it.
	if t := target.AtUs; t != atEventTime && t > w.Now() {
		next, ok := w.NextEventAt()
		k := len(w.Actions())
		if (!ok || next > t) && (k >= len(log) || log[k].AtUs() >= t) {
			w.RunUntil(t)
		}
	}
	return false, nil
}

// due reports whether action a is to be applied before the next event, no
// later than limit.
func due(w *raftcore.World, a raftcore.Action, limit int64) bool {
	at := a.AtUs()
	if at > limit {
		return false
	}
	if a.AfterEvents > 0 && w.Processed() >= a.AfterEvents {
		return true
	}
	next, ok := w.NextEventAt()
	return !ok || next > at
}

// ActionError is an action of a log that could not be applied. Index
// counts from 0 in the log as given.
type ActionError struct {
	Index  int
	Action raftcore.Action
	Err    error
}

func (e *ActionError) Error() string {
	return fmt.Sprintf("actions[%d] (%s at %gms): %v", e.Index, e.Action.Do, e.Action.AtMs, e.Err)
}

func (e *ActionError) Unwrap() error { return e.Err }

// applyLogged applies log[k] to w at its recorded time.
func applyLogged(w *raftcore.World, log []raftcore.Action, k int) error {
	a := log[k]
	if err := a.ValidateFor(w.Config()); err != nil {
		return &ActionError{k, a, err}
	}
	// A drop is the one action whose validity depends on the run: the
	// message must still be on the wire. Play only sets the clock before
	// applying it, which changes nothing in flight.
	if a.Do == raftcore.DoDrop && !inFlight(w, a.ID) {
		return &ActionError{k, a, fmt.Errorf("id: message %d is not in flight", a.ID)}
	}
	// Play moves the clock to the action's time (when no event is due
	// before it) and applies it: the same code path as a schedule run.
	if err := w.Play(log[k : k+1]); err != nil {
		return &ActionError{k, a, err}
	}
	return nil
}

func inFlight(w *raftcore.World, id uint64) bool {
	for _, m := range w.InFlight() {
		if m.ID == id {
			return true
		}
	}
	return false
}
