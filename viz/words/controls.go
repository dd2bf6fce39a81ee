package words

import (
	"strconv"
	"strings"

	"raftlab/raftcore"
)

// The words of the controls around the stage: the status line, the speed
// slider, the timeline and its buttons, the figure's bars, and the
// controls that close a note or the key.

// RunState is what the status line says of the run: its time, who leads
// (or how many authorities there are), and whether it is paused.
type RunState struct {
	NowUs  int64
	Paused bool
	// Leader is the machine that leads under Raft ("" for none), and Term
	// its term.
	Leader string
	Term   uint64
	// Authorities counts the machines acting as the failover's authority.
	Authorities int
	// Seconds: the run is told in seconds (a figure about leases), and
	// its clock reads to a tenth of one (ClockIn).
	Seconds bool
}

// StatusLine sums up the run in the toolbar.
func (v Voice) StatusLine(s RunState) string {
	line := "t = " + ClockIn(s.NowUs, s.Seconds)
	switch v.Cfg.Protocol {
	case raftcore.ProtocolRaft:
		switch {
		case v.Plain() && s.Leader == "":
			line += " · " + v.inCharge("no machine in charge", "no machine takes writes")
		case v.Plain():
			line += " · " + s.Leader + v.inCharge(" in charge", " takes the writes")
		case s.Leader != "":
			line += " · leader " + s.Leader + ", term " + Utoa(s.Term)
		default:
			line += " · no leader"
		}
	case raftcore.ProtocolFailover:
		switch s.Authorities {
		case 0:
			line += " · no authority"
		case 1:
			line += " · one authority"
		default:
			line += " · " + Itoa(s.Authorities) + " authorities"
		}
	}
	if s.Paused {
		line += " · paused"
	}
	return line
}

// Speed labels the speed slider: "speed 1/10x".
func Speed(formatted string) string { return "speed " + formatted }

// SpeedControl names the speed slider for a screen reader.
func SpeedControl(formatted string) string { return "Speed " + formatted }

// WidestSpeed is the widest label the speed slider may show, which its
// room is set by.
const WidestSpeed = "speed 1/100x"

// The timeline's labels: where the stage is in the run, and how long the
// run is (or that it is live); the widest of each sets their room.
const (
	Live         = "live"
	WidestNow    = "000.000 s"
	WidestLength = "of 000.000 s"
)

// OfLength says how long the run is: "of 12.500 s" (or, told in
// seconds, "of 112.5 s").
func OfLength(headUs int64, seconds bool) string { return "of " + ClockIn(headUs, seconds) }

// TimelineControl names the timeline for a screen reader: where it stands
// in the run.
func TimelineControl(nowUs, headUs int64, seconds bool) string {
	return "Time " + ClockIn(nowUs, seconds) + " of " + ClockIn(headUs, seconds)
}

// The timeline's buttons, in long and short forms: back to the live end
// while the stage replays the past, and back to the run left by acting in
// the past.
const (
	BackToLive  = "Back to live"
	LiveShort   = "Live"
	BackToOther = "Back to the other run"
	OtherShort  = "Other run"
)

// Replaying says that the stage shows the recorded past; ReplayingShort
// where the long form would cover a machine.
const (
	Replaying      = "Replaying the past"
	ReplayingShort = "Replaying"
)

// The figure's buttons, with their shorter forms where room is short.
const (
	PlayNextStep = "Play next step"
	NextStep     = "Next step"
	PlayOn       = "Play on"
	Play         = "Play"
	StepBack     = "Step back"
	Back         = "Back"
	OpenLab      = "Open in the full lab"
	FullLab      = "Full lab"
)

// FigureClock is a figure's status line with its clock in front, for a
// figure told in seconds, whose reader watches a lease's seconds run:
// "t = 73.4 s · Step 3 of 7 · playing", then shorter forms for a narrow
// bar, the last the clock alone.
func FigureClock(nowUs int64, status string) []string {
	t := "t = " + ClockIn(nowUs, true)
	step, _, _ := strings.Cut(status, " · ")
	return []string{t + " · " + status, t + " · " + step, t}
}

// FigureStatus says where a figure's story stands: step i of n (from 1),
// and whether it plays or has ended.
func FigureStatus(i, n int, playing, ended bool) string {
	s := "Step " + strconv.Itoa(i) + " of " + strconv.Itoa(n)
	switch {
	case playing:
		s += " · playing"
	case ended:
		s += " · the end"
	}
	return s
}

// CaptionHint tells the reader of an embedded free play the gestures it
// takes.
func (v Voice) CaptionHint() string {
	return v.ForHand("Drag across links to cut them; drag a machine out to cut it off; click anything for more.",
		"Swipe across links to cut them; drag a machine out to cut it off; tap anything for more.")
}

// Dismiss closes the note in the banner.
const Dismiss = "Dismiss"
