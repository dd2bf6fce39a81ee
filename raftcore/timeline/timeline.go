package timeline

import (
	"errors"
	"fmt"
	"math"
	"sort"

	"raftlab/raftcore"
)

// Options tune a timeline. Zero fields take the defaults.
type Options struct {
	// CheckpointEvents is the spacing of the newest checkpoints, in events.
	CheckpointEvents int
	// DenseCheckpoints is how many of the newest checkpoints are kept at
	// that spacing.
	DenseCheckpoints int
	// SpacedCheckpoints bounds the older checkpoints, kept evenly spaced.
	SpacedCheckpoints int
	// CheckpointBytes bounds the memory checkpoints take (estimated).
	CheckpointBytes int64
	// MaxMarks bounds the marks kept (at least 16).
	MaxMarks int
	// TraceLimit is the number of newest trace events each world keeps in
	// memory. Marks are exact whatever it is; it only costs memory.
	TraceLimit int
	// HistoryLimit is the number of newest answered client operations
	// each world keeps in memory (raftcore.Config.HistoryLimit); 0, the
	// default, keeps them all. The run and its safety checks are the same
	// whatever it is.
	HistoryLimit int
}

// The defaults. A five-machine cluster handles about 240 events per
// virtual second under steady client writes, so the dense checkpoints are
// about 17 virtual seconds apart, and a ten-minute run keeps about 36
// checkpoints, its older ones 4096 events apart. Denser checkpoints would
// make running live slower (each is a full clone) without making seeks
// faster: what bounds a seek is the older ones' spacing. A checkpoint
// shares the action log and the answered client operations with the
// world (World.Keep), so 48 spaced ones hold less than 24 did before they
// shared them. BENCHMARKS.md ("Timeline", and "Snapshots and log
// compaction") has the figures they were chosen from; checkpoint.go
// explains the rule.
const (
	DefaultCheckpointEvents  = 4096
	DefaultDenseCheckpoints  = 4
	DefaultSpacedCheckpoints = 48
	DefaultCheckpointBytes   = 128 << 20
	DefaultMaxMarks          = 2000
	DefaultTraceLimit        = 1024
)

func (o Options) withDefaults() Options {
	if o.CheckpointEvents <= 0 {
		o.CheckpointEvents = DefaultCheckpointEvents
	}
	if o.DenseCheckpoints <= 0 {
		o.DenseCheckpoints = DefaultDenseCheckpoints
	}
	if o.SpacedCheckpoints <= 0 {
		o.SpacedCheckpoints = DefaultSpacedCheckpoints
	}
	if o.CheckpointBytes <= 0 {
		o.CheckpointBytes = DefaultCheckpointBytes
	}
	if o.MaxMarks <= 0 {
		o.MaxMarks = DefaultMaxMarks
	}
	o.MaxMarks = max(o.MaxMarks, 16)
	if o.TraceLimit <= 0 {
		o.TraceLimit = DefaultTraceLimit
	}
	return o
}

func (o Options) rule() checkpointRule {
	return checkpointRule{every: uint64(o.CheckpointEvents), dense: uint64(o.DenseCheckpoints), spaced: o.SpacedCheckpoints, budget: o.CheckpointBytes}
}

// MaxTimeUs is the furthest virtual time a timeline goes to: a schedule's
// limit (raftcore.MaxUntilMs).
const MaxTimeUs = raftcore.MaxUntilMs * 1000

// NextNotableHorizonUs is how far past the head NextNotable runs the world
// looking for something notable.
const NextNotableHorizonUs = 60_000_000

// Timeline is a run's history: the base Config, the authoritative action
// log, the world shown now, checkpoints, marks and, after acting in the
// past, the abandoned future as a ghost branch.
//
// Every method leaves the world shown exactly as the run was at Pos(). The
// methods that move only replay recorded history; only Advance,
// StepForward, Seek and SeekEvent past the head, NextNotable and Act make
// new history. A Timeline is not safe for concurrent use.
type Timeline struct {
	cfg   raftcore.Config // as given
	wcfg  raftcore.Config // for the worlds: bounded trace
	opt   Options
	cur   *raftcore.World
	br    branch
	ghost *branch
	// near are transient clones near the moment last stepped back to.
	near []checkpoint
}

// branch is one line of history.
type branch struct {
	log     []raftcore.Action // every action, up to the head
	head    Position          // the furthest moment reached
	cps     []checkpoint      // sorted; cps[0] is the start
	sparse  uint              // older checkpoints are 2^sparse*S events apart
	marks   []Mark
	scanned uint64 // trace events looked at for marks
	// fork is where it parts from the other branch, if there is one, and
	// forkActions how many actions the two share.
	fork        Position
	forkActions int
}

// New starts a timeline at the beginning of a run of cfg.
func New(cfg raftcore.Config) (*Timeline, error) { return NewWithOptions(cfg, Options{}) }

// NewWithOptions is New with tuning options.
func NewWithOptions(cfg raftcore.Config, o Options) (*Timeline, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	t := &Timeline{cfg: cfg, opt: o.withDefaults()}
	t.cfg.Names = append([]string(nil), cfg.Names...)
	t.wcfg = t.cfg
	t.wcfg.TraceLimit = t.opt.TraceLimit
	t.wcfg.HistoryLimit = t.opt.HistoryLimit
	w, err := raftcore.NewWorld(t.wcfg)
	if err != nil {
		return nil, err
	}
	t.cur = w
	t.br.cps = []checkpoint{{pos: posOf(w), w: w.Keep(), bytes: worldBytes(w)}}
	t.observe(actionMoment)
	return t, nil
}

// sortedLog orders actions as World.Play does (by time, stable) and says
// where each came from.
func sortedLog(actions []raftcore.Action) (log []raftcore.Action, order []int) {
	order = make([]int, len(actions))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return actions[order[a]].AtMs < actions[order[b]].AtMs })
	log = make([]raftcore.Action, len(actions))
	for i, j := range order {
		log[i] = actions[j]
	}
	return log, order
}

// remapActionError makes an ActionError's index count in the original
// order of a sorted log.
func remapActionError(err error, order []int) error {
	var ae *ActionError
	if errors.As(err, &ae) {
		ae.Index = order[ae.Index]
	}
	return err
}

// Config is the configuration the run was started with.
func (t *Timeline) Config() raftcore.Config { return t.cfg }

// World is the world at the current position. Treat it as read-only: change
// the run through Act.
func (t *Timeline) World() *raftcore.World { return t.cur }

// Pos is the current position.
func (t *Timeline) Pos() Position { return posOf(t.cur) }

// Head is the furthest position reached on this branch.
func (t *Timeline) Head() Position { return t.br.head }

// AtHead reports whether the current position is the head, where acting
// adds to the run rather than forking it.
func (t *Timeline) AtHead() bool { return !t.Pos().Less(t.br.head) }

// Actions returns the authoritative action log up to the head (including
// actions after the current position). The slice is the timeline's own:
// do not change it.
func (t *Timeline) Actions() []raftcore.Action { return t.br.log }

// Checkpoints is the number of world clones kept (both branches and the
// transient ones).
func (t *Timeline) Checkpoints() int {
	n := len(t.br.cps) + len(t.near)
	if t.ghost != nil {
		for _, c := range t.ghost.cps {
			if t.br.fork.Less(c.pos) {
				n++
			}
		}
	}
	return n
}

// Marks returns the notable moments of this branch up to the head, in
// order: at most Options.MaxMarks, merged where there were more. The slice
// is the timeline's own: do not change it.
func (t *Timeline) Marks() []Mark { return t.br.marks }

// observe is called after every moment the world shown goes through: it
// turns new trace events into marks and takes checkpoints, both only in
// history not seen before.
func (t *Timeline) observe(m moment) bool {
	w := t.cur
	if w.TraceCount() > t.br.scanned {
		for _, mk := range notable(w, t.br.scanned) {
			t.br.marks = append(t.br.marks, mk)
		}
		t.br.marks = mergeMarks(t.br.marks, t.opt.MaxMarks)
		t.br.scanned = w.TraceCount()
	}
	every := uint64(t.opt.CheckpointEvents)
	if p := w.Processed(); m == stepMoment && p%every == 0 && p > t.br.cps[len(t.br.cps)-1].pos.Events {
		t.br.cps = append(t.br.cps, checkpoint{pos: posOf(w), w: w.Keep(), bytes: worldBytes(w)})
		t.br.cps = thinCheckpoints(t.br.cps, t.opt.rule(), &t.br.sparse)
	}
	return false
}

// replay moves the world shown forward to target along the log.
func (t *Timeline) replay(target Position, stop func(moment) bool) bool {
	after := t.observe
	if stop != nil {
		after = func(m moment) bool { t.observe(m); return stop(m) }
	}
	stopped, err := replayTo(t.cur, t.br.log, target, after)
	if err != nil {
		// The log was recorded by a world or checked when loaded, so it
		// replays; failing here means the simulation is not deterministic.
		panic("timeline: replaying the recorded run failed: " + err.Error())
	}
	if p := t.Pos(); t.br.head.Less(p) {
		t.br.head = p
	}
	return stopped
}

// moveTo makes the world shown the run at target: from the world shown if
// target is ahead of it, else from the latest checkpoint before target.
//
// Rebuilding the run at an event far from a checkpoint (as stepping back
// does) also keeps transient clones every S/8 events over the last S/2
// before the target, so that stepping back again replays at most S/8
// events.
func (t *Timeline) moveTo(target Position) {
	cp := checkpointBefore(t.br.cps, target)
	if n := checkpointBefore(append([]checkpoint{cp}, t.near...), target); cp.pos.Less(n.pos) {
		cp = n
	}
	here := t.Pos()
	// Going on from the world shown saves a clone unless a checkpoint is
	// much closer.
	every := uint64(t.opt.CheckpointEvents)
	if !here.within(target) || cp.pos.Events > here.Events+every {
		t.cur = cp.w.Clone()
	}
	step := max(every/8, 1)
	from := t.cur.Processed()
	if target.Events == math.MaxUint64 || target.Events-from <= 2*step {
		t.replay(target, nil)
		return
	}
	var near []checkpoint
	t.replay(target, func(m moment) bool {
		p := t.cur.Processed()
		if m == stepMoment && p%step == 0 && p+nearCheckpoints*step > target.Events && p < t.br.head.Events {
			near = append(near, checkpoint{pos: t.Pos(), w: t.cur.Keep()})
		}
		return false
	})
	if len(near) > 0 {
		t.near = near
	}
}

func clampTime(us int64) int64 { return min(max(us, 0), MaxTimeUs) }

// Advance runs the world shown for dtUs of virtual time: replaying the
// recorded run while behind the head, making new history past it.
func (t *Timeline) Advance(dtUs int64) {
	if dtUs <= 0 {
		return
	}
	t.replay(Position{math.MaxUint64, clampTime(t.cur.Now() + min(dtUs, MaxTimeUs)), allActions}, nil)
}

// StepForward handles one more event (and the actions recorded right
// after it). When no event is left, it applies the next recorded action
// instead, if any. It reports whether the world moved.
func (t *Timeline) StepForward() bool {
	before := t.Pos()
	acts := before.Actions
	if next, ok := t.cur.NextEventAt(); ok && next <= MaxTimeUs {
		t.replay(Position{before.Events + 1, atEventTime, allActions}, nil)
	} else if acts < len(t.br.log) {
		t.replay(Position{before.Events, t.br.log[acts].AtUs(), acts + 1}, nil)
	}
	return t.Pos() != before
}

// StepBack goes back one event: to the run right after event
// Processed()-1, rebuilt from the nearest checkpoint before it. It reports
// false at the start.
func (t *Timeline) StepBack() bool {
	n := t.cur.Processed()
	if n == 0 {
		if t.Pos() == (Position{}) {
			return false
		}
		t.SeekTo(Position{})
		return true
	}
	t.SeekEvent(n - 1)
	return true
}

// SeekTime shows the run at virtual time us: every event due by then
// handled and every action taken by then applied. Past the head the run
// goes on (up to MaxTimeUs).
func (t *Timeline) SeekTime(us int64) { t.moveTo(Position{math.MaxUint64, clampTime(us), allActions}) }

// SeekEvent shows the run right after its n-th event, with the actions
// taken at that same instant. Past the head the run goes on; if it runs
// out of events first, the world stays after the last one.
func (t *Timeline) SeekEvent(n uint64) { t.moveTo(Position{n, atEventTime, allActions}) }

// SeekTo shows the run at p, a position this timeline reported (Pos, Head
// or a mark). Other positions are reached as nearly as the run allows.
func (t *Timeline) SeekTo(p Position) {
	p.AtUs = clampTime(p.AtUs)
	t.moveTo(p)
}

// SeekFraction shows the run at fraction f (0..1) of the head's time, for a
// pointer on the timeline strip.
func (t *Timeline) SeekFraction(f float64) {
	if math.IsNaN(f) {
		return
	}
	f = min(max(f, 0), 1)
	t.SeekTime(int64(math.Round(f * float64(t.br.head.AtUs))))
}

// NextNotable moves forward to the next moment at which something notable
// happens (see MarkKind) and returns what. Past the head it runs the world
// on for up to NextNotableHorizonUs; if nothing notable happens by then it
// stays where it was and returns false.
func (t *Timeline) NextNotable() (Mark, bool) { return t.NextNotableBy(math.MaxInt64) }

// NextNotableBy is NextNotable looking no later than virtual time until:
// a caller with an action of its own due then (a figure's script) stops
// short of it, to take it first.
func (t *Timeline) NextNotableBy(until int64) (Mark, bool) {
	start := t.Pos()
	limit := min(clampTime(max(t.br.head.AtUs, start.AtUs)+NextNotableHorizonUs), until)
	if limit < start.AtUs {
		return Mark{}, false
	}
	var found []Mark
	lo := t.cur.TraceCount()
	t.replay(Position{math.MaxUint64, limit, allActions}, func(moment) bool {
		found = notable(t.cur, lo)
		lo = t.cur.TraceCount()
		return len(found) > 0
	})
	if len(found) == 0 {
		t.moveTo(start)
		return Mark{}, false
	}
	m := mostNotable(found)
	m.At, m.End = t.Pos(), t.Pos()
	return m, true
}

// PrevNotable moves back to the latest moment before the current one at
// which something notable happened and returns what; false at the start
// of a run with nothing notable before now.
func (t *Timeline) PrevNotable() (Mark, bool) {
	here := t.Pos()
	hi := here
	for {
		i := len(t.br.cps) - 1
		for i > 0 && !(t.br.cps[i].pos.within(hi) && t.br.cps[i].pos.Less(hi)) {
			i--
		}
		cp := t.br.cps[i]
		w := cp.w.Clone()
		var best Mark
		found := false
		lo := w.TraceCount()
		if _, err := replayTo(w, t.br.log, hi, func(moment) bool {
			if p := posOf(w); p.Less(here) {
				if ms := notable(w, lo); len(ms) > 0 {
					best, found = mostNotable(ms), true
					best.At, best.End = p, p
				}
			}
			lo = w.TraceCount()
			return false
		}); err != nil {
			panic("timeline: replaying the recorded run failed: " + err.Error())
		}
		if found {
			t.moveTo(best.At)
			return best, true
		}
		if i == 0 {
			return Mark{}, false
		}
		hi = cp.pos
	}
}

// ErrBeyondEnd is returned by Act at the end of virtual time.
var ErrBeyondEnd = errors.New("the run has reached the end of virtual time; no more actions can be taken")

// Act applies a at the current position (its AtMs and AfterEvents are
// replaced by the position's). At the head it extends the run. In the
// past it forks: the recorded future after this moment leaves the log and
// becomes the ghost branch (replacing any earlier ghost), which
// ReturnToGhost brings back. An invalid action changes nothing.
func (t *Timeline) Act(a raftcore.Action) error {
	w := t.cur
	if w.Now() >= MaxTimeUs {
		return ErrBeyondEnd
	}
	here := posOf(w)
	seq := w.TraceCount()
	applied := len(w.Actions())
	if err := w.Apply(a); err != nil {
		return err
	}
	if here.Less(t.br.head) {
		t.fork(here, seq, applied)
	}
	t.br.log = append(t.br.log, w.Actions()[applied])
	t.observe(actionMoment)
	if p := t.Pos(); t.br.head.Less(p) {
		t.br.head = p
	}
	return nil
}

// fork ends the branch at here (trace count seq, applied actions) and keeps
// the old branch as the ghost.
func (t *Timeline) fork(here Position, seq uint64, applied int) {
	old := t.br
	old.fork, old.forkActions = here, applied
	t.ghost = &old
	t.near = nil

	nb := branch{head: here, fork: here, forkActions: applied, scanned: seq, sparse: old.sparse}
	nb.log = append([]raftcore.Action(nil), old.log[:applied]...)
	for _, c := range old.cps {
		if c.pos.within(here) {
			nb.cps = append(nb.cps, c)
		}
	}
	// Marks up to here stay. A merged mark that reaches past here stands
	// for moments of both branches: drop it and look at its stretch again,
	// for its kind only (marks of one kind never overlap).
	var cut [numMarkKinds]uint64
	for k := range cut {
		cut[k] = seq + 1
	}
	lo := seq + 1
	for _, m := range old.marks {
		if m.seq <= seq && m.endSeq > seq {
			cut[m.Kind] = m.seq
			lo = min(lo, m.seq)
		}
	}
	for _, m := range old.marks {
		if m.seq < cut[m.Kind] {
			nb.marks = append(nb.marks, m)
		}
	}
	t.br = nb
	if lo <= seq {
		t.rescanMarks(lo, here, seq, cut)
	}
}

// rescanMarks adds the marks of trace events lo..hi (ending at position
// to) whose sequence number is at least cut for their kind, by replaying
// that stretch from a checkpoint.
func (t *Timeline) rescanMarks(lo uint64, to Position, hi uint64, cut [numMarkKinds]uint64) {
	i := len(t.br.cps) - 1
	for i > 0 && t.br.cps[i].w.TraceCount() >= lo {
		i--
	}
	w := t.br.cps[i].w.Clone()
	seen := w.TraceCount()
	_, err := replayTo(w, t.br.log, to, func(moment) bool {
		for _, m := range notable(w, seen) {
			if m.seq >= cut[m.Kind] && m.seq <= hi {
				t.br.marks = append(t.br.marks, m)
			}
		}
		seen = w.TraceCount()
		return seen >= hi
	})
	if err != nil {
		panic("timeline: replaying the recorded run failed: " + err.Error())
	}
	sort.SliceStable(t.br.marks, func(a, b int) bool { return t.br.marks[a].seq < t.br.marks[b].seq })
	t.br.marks = mergeMarks(t.br.marks, t.opt.MaxMarks)
}

// Ghost describes the branch abandoned by the latest fork.
type Ghost struct {
	// Fork is where the two branches part.
	Fork Position
	// Head is the furthest position the ghost reached.
	Head Position
	// Actions are the ghost's actions after the fork.
	Actions []raftcore.Action
	// Marks are the ghost's notable moments after the fork.
	Marks []Mark
}

// Ghost returns the abandoned branch, if there is one.
func (t *Timeline) Ghost() (Ghost, bool) {
	g := t.ghost
	if g == nil {
		return Ghost{}, false
	}
	out := Ghost{Fork: g.fork, Head: g.head}
	out.Actions = g.log[g.forkActions:]
	for _, m := range g.marks {
		if g.fork.Less(m.At) {
			out.Marks = append(out.Marks, m)
		}
	}
	return out, true
}

// ReturnToGhost makes the ghost branch authoritative again and keeps the
// branch being left as the ghost, so the reader can go back and forth. The
// world shown moves to the same virtual time on the other branch (at most
// its head). It reports false when there is no ghost.
func (t *Timeline) ReturnToGhost() bool {
	if t.ghost == nil {
		return false
	}
	at := t.cur.Now()
	fork := t.ghost.fork
	left := t.br
	left.fork, left.forkActions = fork, t.ghost.forkActions
	t.br = *t.ghost
	t.ghost = &left
	t.near = nil
	t.cur = checkpointBefore(t.br.cps, fork).w.Clone()
	t.moveTo(Position{math.MaxUint64, min(at, t.br.head.AtUs), allActions})
	return true
}

// String describes the position for logs and test failures.
func (p Position) String() string {
	return fmt.Sprintf("event %d, action %d at %s", p.Events, p.Actions, clockWords(p.AtUs))
}
