package words

import (
	"fmt"
	"strconv"
	"strings"

	"raftlab/raftcore"
)

// The words of the menus: a machine's, a link's, a message's, a zone's,
// the setup menu and the list of figures. Choices whose label is the name
// the reader would type (a protocol, a theme, a number of machines) show
// that name as it is.

// The setup menu's title, as its button in the toolbar says it, and the
// same for the button's icon.
const (
	SetupMenu     = "Scenarios & setup"
	SetupMenuIcon = "Scenarios and setup"
)

// The labels of the menus' rows.
const (
	RowRun         = "Run"
	RowSpeed       = "Speed"
	RowClock       = "Clock"
	RowClient      = "Client"
	RowRead        = "Read here"
	RowNetwork     = "Network"
	RowBothWays    = "Both ways"
	RowOneWay      = "One way"
	RowLatency     = "Latency"
	RowLoss        = "Loss"
	RowScenario    = "Scenario"
	RowMachines    = "Machines"
	RowProtocol    = "Protocol"
	RowRaftOptions = "Raft options"
	RowElection    = "Election timeout"
	RowSnapshots   = "Snapshot every"
	RowTheme       = "Theme"
	RowShare       = "Share"
	RowSlides      = "For slides"
	RowPanelShot   = "Panel, PNG"
	RowWholeZone   = "Whole zone"
)

// The labels of the menus' buttons.
const (
	Pause       = "Pause"
	Resume      = "Resume"
	Crash       = "Crash"
	Restart     = "Restart"
	WriteHere   = "Write here"
	ReadPlain   = "read"
	CutOff      = "Cut off"
	Reconnect   = "Reconnect"
	Cut         = "Cut"
	Restore     = "Restore"
	DropIt      = "Drop it"
	PreVote     = "PreVote"
	CheckQuorum = "CheckQuorum"
	// CommitOldTerm is the toggle of the bug that commits an older
	// term's entry by counting replicas (the paper's Figure 8), among the
	// Raft options: it says it breaks Raft on purpose.
	CommitOldTerm = "Bug: commit old term"
	CopyLink      = "Copy link"
	ExportRun     = "Export run"
	ExportTrace   = "Export trace"
	SavePicture   = "Save picture"
	StagePNG      = "Stage, PNG"
	StageSVG      = "Stage, SVG"
	WholeSVG      = "All, SVG"
	StageFrames   = "Last 3 s, SVG frames"
	StageGIF      = "Last 3 s, GIF"
	ImportRun     = "Import run"
	NewSeed       = "New seed"
	LoseZone      = "Lose it"
	BringBack     = "Bring it back"
)

// MachineLine says what a machine is and how it runs, under its menu's
// title: "Leader, up (term 3)".
func (v Voice) MachineLine(r raftcore.Role, st raftcore.Status, term uint64) string {
	return Capital(v.RoleStatus(r, st)) + v.TermSuffix(term)
}

// RoleStatus is a machine's role and how it runs: "leader, up". A crashed
// machine has no role (it lost it with its memory): just "crashed".
func (v Voice) RoleStatus(r raftcore.Role, st raftcore.Status) string {
	if st == raftcore.StatusCrashed {
		return Status(st)
	}
	return v.RoleWord(r) + ", " + Status(st)
}

// TimeoutRow and TimeoutButton label the row and the button of a
// machine's menu that make its election timer run out now.
func (v Voice) TimeoutRow() string {
	if v.Plain() {
		return "Waiting"
	}
	return "Election"
}

// TimeoutButton: see TimeoutRow.
func (v Voice) TimeoutButton() string {
	if v.Plain() {
		return v.inCharge("Stop waiting, take over", "Stop waiting now")
	}
	return "Time out now"
}

// SlowChoice labels a choice of how long a machine takes over each
// message, in milliseconds.
func SlowChoice(ms float64) string {
	switch ms {
	case 1:
		return "normal"
	case 20:
		return "slow"
	case 200:
		return "very slow"
	}
	return strconv.FormatFloat(ms, 'g', -1, 64) + " ms"
}

// DriftChoice labels a choice of the rate a machine's clock runs at.
func DriftChoice(rate float64) string {
	switch rate {
	case 0.5:
		return "half speed"
	case 1:
		return "exact"
	case 2:
		return "double"
	}
	return Factor(rate)
}

// ReadChoice labels a choice of how a read is served.
func ReadChoice(m raftcore.ReadMode) string {
	switch m {
	case raftcore.ReadLinearizable:
		return "linearizable"
	case raftcore.ReadLease:
		return "lease"
	case raftcore.ReadLocal:
		return "local"
	}
	return string(m)
}

// PlainReadChoice labels a choice of how a read is served in the
// chapter's words: from the history the machines agreed on, or from the
// machine's own copy.
func PlainReadChoice(m raftcore.ReadMode) string {
	if m == raftcore.ReadLocal {
		return "own copy"
	}
	return "agreed history"
}

// LinkTitle names the link between a and b, as its menu's title.
func LinkTitle(a, b string) string { return "Link " + a + " – " + b }

// OneWayLink is the direction from → to of a link.
func OneWayLink(from, to string) string { return from + "→" + to }

// LinkDirection says how one direction of a link carries messages: cut,
// or its delay and loss.
func LinkDirection(from, to string, k raftcore.Link) string {
	s := OneWayLink(from, to) + ": "
	if !k.Up {
		return s + "cut"
	}
	s += Latency(k.LatencyMinUs, k.LatencyMaxUs)
	if k.Loss > 0 {
		s += ", " + Percent(k.Loss) + " lost"
	}
	return s
}

// CutOneWay and RestoreOneWay label the buttons that cut or restore one
// direction of a link.
func CutOneWay(from, to string) string { return Cut + " " + OneWayLink(from, to) }

// RestoreOneWay: see CutOneWay.
func RestoreOneWay(from, to string) string { return Restore + " " + OneWayLink(from, to) }

// LatencyChoice labels a choice of a link's delay, lo to hi milliseconds.
func LatencyChoice(lo, hi float64) string {
	g := func(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
	if lo >= 1000 {
		return g(lo/1000) + "–" + g(hi/1000) + " s"
	}
	return g(lo) + "–" + g(hi) + " ms"
}

// LossChoice labels a choice of the share of a link's messages lost.
func LossChoice(p float64) string {
	if p == 0 {
		return "none"
	}
	return Percent(p)
}

// MessageTitle names a message in flight, as its menu's title: "Vote? #12:
// A → B".
func (v Voice) MessageTitle(m *raftcore.Message) string {
	return Capital(v.MsgLabel(m)) + " #" + Utoa(m.ID) + ": " + MachineName(*v.Cfg, m.From) + " → " + MachineName(*v.Cfg, m.To)
}

// SentArrives says when a message was sent and when it arrives.
func SentArrives(sendUs, deliverUs int64) string {
	return "Sent at " + Clock(sendUs) + ", arrives at " + Clock(deliverUs) + "."
}

// WillBeLost says that the network will lose a message.
const WillBeLost = "The network will lose it on the way."

// MessageEntry is an entry a message carries: "entry 4 (term 2): k=v".
func (v Voice) MessageEntry(e raftcore.Entry) string {
	return "entry " + Utoa(e.Index) + v.TermSuffix(e.Term) + ": " + Entry(e.Data)
}

// AndMore says that n more were left out.
func AndMore(n int) string { return "… and " + Itoa(n) + " more" }

// Choose labels a button that opens a list to choose from, showing the
// choice made: "Free play …".
func Choose(current string) string { return current + " …" }

// ElectionSpan labels a choice of election timeout: ticks of tickMs, and
// the range a timeout is drawn from, twice as long at most ("1–2 s").
func ElectionSpan(ticks, tickMs int) string {
	sec := func(ms int) string { return strconv.FormatFloat(float64(ms)/1000, 'g', 3, 64) }
	return sec(ticks*tickMs) + "–" + sec(2*ticks*tickMs) + " s"
}

// SnapshotEvery labels a choice of snapshot count: "off" for none, else
// how many applied entries a machine takes a snapshot after.
func SnapshotEvery(count int) string {
	if count == 0 {
		return "off"
	}
	return Itoa(count) + " entries"
}

// NoSuchFigure says that the figure the page asked for does not exist.
func NoSuchFigure(id string) string {
	return fmt.Sprintf("There is no figure called %q. Pick one:", id)
}

// ZoneTitle names a zone, as its menu's title: its name, with "Zone"
// before it unless it says so.
func ZoneTitle(name string) string {
	if strings.Contains(strings.ToLower(name), "zone") {
		return name
	}
	return "Zone " + name
}

// ZoneMembers names the machines in a zone.
func ZoneMembers(names []string) string {
	if len(names) == 0 {
		return "No machines."
	}
	return Capital(Count(len(names), "machine", "machines")) + ": " + strings.Join(names, ", ") + "."
}

// ZoneMoveHint tells how to move a machine to another zone.
const ZoneMoveHint = "Drag a machine onto another zone to move it there."

// FramesPage is the page that plays the frames of a zip of save-frames in a browser, one
// after another, again and again: a format for the count of frames (%d)
// and the time between them in milliseconds (%g). Its title is the
// only word a reader sees.
const FramesPage = `<!doctype html>
<meta charset="utf-8">
<title>raftlab</title>
<style>body{margin:0}img{display:block;max-width:100%%}</style>
<img id="frame" src="raftlab-frame-000.svg" alt="">
<script>
const count = %d, ms = %g, img = document.getElementById("frame");
let i = 0;
setInterval(() => {
  i = (i + 1) %% count;
  img.src = "raftlab-frame-" + String(i).padStart(3, "0") + ".svg";
}, ms);
</script>
`
