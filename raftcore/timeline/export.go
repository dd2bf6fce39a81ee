package timeline

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math"

	"raftlab/raftcore"
)

// Schedule writes the run up to the current position as a schedule whose
// until_ms is now: `raftsim run -f` (or Schedule.Run) reproduces this world
// with the same trace hash. A schedule ends at a time, not at an event: in
// the middle of an instant (after StepForward) it also handles the events
// left at that instant.
func (t *Timeline) Schedule() raftcore.Schedule { return t.cur.Schedule() }

// WholeSchedule is the whole run, to the furthest moment reached, as a
// schedule: what a share link holds, without the moment it opens at. After
// stepping back it still ends where the run does, so exporting the run and
// copying its link keep the same actions.
func (t *Timeline) WholeSchedule() raftcore.Schedule {
	s := t.cur.Schedule() // the configuration spelled out, as for raftsim
	s.Actions = append([]raftcore.Action{}, t.br.log...)
	s.UntilMs = float64(t.br.head.AtUs) / 1000
	return s
}

// WriteSchedule writes Schedule as indented JSON.
func (t *Timeline) WriteSchedule(w io.Writer) error { return writeJSON(w, t.Schedule()) }

// WriteWholeSchedule writes WholeSchedule as indented JSON.
func (t *Timeline) WriteWholeSchedule(w io.Writer) error { return writeJSON(w, t.WholeSchedule()) }

func writeJSON(w io.Writer, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(data, '\n'))
	return err
}

// WriteTrace writes every trace event of the run up to the current
// position as JSON lines, oldest first. The worlds of a timeline keep only
// recent events, so the run is replayed from the start in a world that
// streams each event to out as it is recorded (and keeps almost none).
func (t *Timeline) WriteTrace(out io.Writer) error {
	cfg := t.wcfg
	cfg.TraceLimit = 0 // a new world keeps its first events for the stream
	w := raftcore.MustWorld(cfg)
	bw := bufio.NewWriter(out)
	enc := json.NewEncoder(bw)
	var werr error
	if err := w.StreamTrace(streamTraceKeep, func(e raftcore.TraceEvent) {
		if werr == nil {
			werr = enc.Encode(e)
		}
	}); err != nil {
		return err
	}
	if _, err := replayTo(w, t.br.log, t.Pos(), func(moment) bool { return werr != nil }); err != nil {
		return err
	}
	if werr != nil {
		return werr
	}
	if w.TraceHash() != t.cur.TraceHash() {
		return fmt.Errorf("trace: the replayed run differs from the one shown (hash %s, want %s)", raftcore.HashString(w.TraceHash()), raftcore.HashString(t.cur.TraceHash()))
	}
	return bw.Flush()
}

// ImportSchedule builds a new timeline from schedule JSON (the format of
// `raftsim run -f` and of WriteSchedule), positioned at its until_ms.
// Errors name the field at fault, as raftcore.ParseSchedule does, or the
// action that could not be played. It touches no other timeline, so on
// error the caller keeps the one it has. StartImport does the same a piece
// at a time.
func ImportSchedule(data []byte) (*Timeline, error) {
	o, err := StartImport(data)
	if err != nil {
		return nil, err
	}
	return o.Run(nil)
}

// MaxSeekSeconds is the furthest a t= parameter may ask for: an hour, as
// links hold.
const MaxSeekSeconds = MaxLinkUs / 1e6

// SeekSeconds positions t at virtual second s, for a URL's t= parameter
// (a book pins a figure to a moment this way). Past the head the run goes
// on to that time.
func SeekSeconds(t *Timeline, s float64) error {
	if math.IsNaN(s) || math.IsInf(s, 0) || s < 0 || s > MaxSeekSeconds {
		return fmt.Errorf("t: %g is not a time from 0 to %g seconds", s, float64(MaxSeekSeconds))
	}
	t.SeekTime(int64(math.Round(s * 1e6)))
	return nil
}
