package timeline

import (
	"errors"
	"fmt"
	"math"

	"raftlab/raftcore"
)

// Opening a run.
//
// Opening a link or a schedule replays its run from the start, taking
// checkpoints and marks on the way, which takes time in proportion to the
// run: an hour of nine machines is over a million trace events. An Opening
// does that a piece at a time, so that a host with a screen can draw how
// far it has got between pieces, and stop if the reader gives up. Every
// check that needs no replay is done before the first piece.

// ErrOpenCanceled is the error of an opening its progress callback
// stopped.
var ErrOpenCanceled = errors.New("opening the run was canceled")

// OpenStepMoments is a good number of moments for one Step when nothing
// else must happen in between: a few milliseconds' work natively.
const OpenStepMoments = 20_000

// Opening is a run being opened: a timeline being built by replaying the
// run's actions from the start, then positioned at the moment to show.
type Opening struct {
	t *Timeline
	// log is the actions in the order they are played, order where each
	// came from in the list given (for errors), and endUs how far the run
	// goes.
	log   []raftcore.Action
	order []int
	endUs int64
	// show is where to leave the timeline once the run is replayed; nil
	// leaves it at the end.
	show *Position
	link Link
	// wrap turns an error of the replay into the one to report.
	wrap func(error) error
	done bool
	err  error
}

// StartOpening begins opening a share link: it reads the link and checks
// everything DecodeLink checks without replaying (the format, the data,
// the configuration, every action in order, the moment, the scenario and
// the cost, see LinkFreeTicks), and replays nothing. Whether the messages
// the link's actions name are in flight is checked by the replay: Step
// then fails with DecodeLink's error.
func StartOpening(link string) (*Opening, error) {
	l, err := readLink(link)
	if err != nil {
		return nil, err
	}
	o, err := StartOpenLink(l)
	if err != nil {
		return nil, err
	}
	o.wrap = func(err error) error { return fmt.Errorf("the link's run is not valid: %v", err) }
	return o, nil
}

// StartOpenLink begins opening a decoded link (DecodeLink, or one made by
// Timeline.Link), to be shown at its moment.
func StartOpenLink(l Link) (*Opening, error) {
	if err := l.Validate(); err != nil {
		return nil, err
	}
	o, err := startOpening(l.Config, l.Actions, l.end())
	if err != nil {
		return nil, err
	}
	o.link = l
	show := Position{l.PosEvents, l.PosUs, allActions}
	if l.PosActions != nil {
		show.Actions = *l.PosActions
	}
	if l.PosEvents == 0 {
		show.Events = math.MaxUint64
	}
	o.show = &show
	return o, nil
}

// StartImport begins opening schedule JSON (the format of `raftsim run -f`
// and of WriteSchedule), to be shown at its until_ms. Errors name the
// field at fault, as raftcore.ParseSchedule does; Step's the action that
// could not be played.
func StartImport(data []byte) (*Opening, error) {
	s, err := raftcore.ParseSchedule(data)
	if err != nil {
		return nil, err
	}
	return startOpening(s.Config(), s.Actions, int64(math.Round(s.UntilMs*1000)))
}

// startOpening prepares to replay actions in a new timeline of cfg, as a
// schedule run plays them (in time order, stable for equal times, each
// after its recorded number of events), and on to endUs.
func startOpening(cfg raftcore.Config, actions []raftcore.Action, endUs int64) (*Opening, error) {
	t, err := New(cfg)
	if err != nil {
		return nil, err
	}
	o := &Opening{t: t, wrap: func(err error) error { return err }}
	o.log, o.order = sortedLog(actions)
	for _, a := range o.log {
		endUs = max(endUs, a.AtUs())
	}
	o.endUs = clampTime(endUs)
	return o, nil
}

// WithOptions has the timeline being opened keep its worlds as opt says
// (its trace and client history limits, its checkpoints) instead of
// Options' defaults. It comes before the first Step: the run is then
// replayed the same, in worlds that keep less.
func (o *Opening) WithOptions(opt Options) (*Opening, error) {
	if w := o.t.World(); w.Processed() > 0 || len(w.Actions()) > 0 {
		return nil, fmt.Errorf("timeline: options are set before the opening replays anything")
	}
	t, err := NewWithOptions(o.t.cfg, opt)
	if err != nil {
		return nil, err
	}
	o.t = t
	return o, nil
}

// Link is the link being opened (the zero Link for a schedule).
func (o *Opening) Link() Link { return o.link }

// Step replays up to moments more moments of the run (events handled and
// actions applied; at least one) and reports whether the opening is over:
// the timeline is ready, or the run failed. Once over, Result says which.
func (o *Opening) Step(moments int) bool {
	if o.done {
		return true
	}
	t := o.t
	left := max(moments, 1)
	stopped, err := replayTo(t.cur, o.log, Position{math.MaxUint64, o.endUs, allActions}, func(m moment) bool {
		t.observe(m)
		left--
		return left == 0
	})
	switch {
	case err != nil:
		o.finish(o.wrap(remapActionError(err, o.order)))
	case !stopped:
		o.finish(o.settle())
	}
	return o.done
}

// settle makes the replayed run the timeline's history and moves to the
// moment to show.
func (o *Opening) settle() error {
	t := o.t
	t.br.log = append([]raftcore.Action(nil), t.cur.Actions()...)
	t.br.head = t.Pos()
	if len(t.br.log) != len(o.log) {
		return fmt.Errorf("actions: only %d of %d actions could be played before %s", len(t.br.log), len(o.log), clockWords(MaxTimeUs))
	}
	if o.show != nil {
		t.SeekTo(*o.show)
	}
	return nil
}

func (o *Opening) finish(err error) {
	o.done, o.err = true, err
	if err != nil {
		o.t = nil
	}
}

// Progress is the fraction of the run replayed so far, from 0 to 1: the
// virtual time reached over the run's end. It is 1 only once the opening
// is over.
func (o *Opening) Progress() float64 {
	switch {
	case o.done:
		return 1
	case o.endUs <= 0:
		return 0
	}
	return min(float64(o.t.cur.Now())/float64(o.endUs), 0.999)
}

// Result is the opened timeline, or the error that ended the opening. It
// is nil, nil while the opening goes on.
func (o *Opening) Result() (*Timeline, error) {
	if !o.done {
		return nil, nil
	}
	return o.t, o.err
}

// Run steps the opening to its end, calling progress (if not nil) with
// the fraction done after each piece; when progress returns false, the
// opening stops with ErrOpenCanceled.
func (o *Opening) Run(progress func(done float64) bool) (*Timeline, error) {
	for !o.Step(OpenStepMoments) {
		if progress != nil && !progress(o.Progress()) {
			o.finish(ErrOpenCanceled)
		}
	}
	return o.Result()
}
