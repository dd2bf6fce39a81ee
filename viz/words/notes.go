package words

import (
	"fmt"
	"strconv"
	"strings"

	"raftlab/raftcore"
)

// The notes the banner shows, and the words that name a run's setup.

// NoLeaderYet explains the wait for the first election; it goes away as
// soon as a machine leads. NoLeaderYetTouch says it to a finger, which
// has no t key.
const (
	NoLeaderYet      = "No machine leads yet: each waits out its own random election timeout (the ring around it). Press t to let one run out clearly first."
	NoLeaderYetTouch = "No machine leads yet: each waits out its own random election timeout (the ring around it). Tap a machine and choose Time out now to make it run out first."
)

// Banner is a note as the reader's hand reads it.
func (v Voice) Banner(text string) string {
	if text == NoLeaderYet {
		return v.ForHand(NoLeaderYet, NoLeaderYetTouch)
	}
	return text
}

// Setup names a free-play world: its size, its protocol and Raft's
// options.
func Setup(cfg *raftcore.Config) string {
	s := fmt.Sprintf("%d machines, %s", cfg.Nodes, cfg.Protocol)
	if cfg.Protocol == raftcore.ProtocolRaft {
		var opts []string
		if cfg.PreVote {
			opts = append(opts, "PreVote")
		}
		if cfg.CheckQuorum {
			opts = append(opts, "CheckQuorum")
		}
		if len(opts) > 0 {
			s += " with " + strings.Join(opts, " and ")
		}
	}
	return s + "."
}

// Broken tells the reader that the run opened breaks Raft on purpose, and
// how; BrokenShort says it where the setup is described.
func Broken(names []string) string {
	return "This run breaks Raft on purpose (" + strings.Join(names, ", ") +
		"): what goes wrong here is that bug, not Raft."
}

// BrokenShort is Broken in a few words.
func BrokenShort(names []string) string {
	return "Broken on purpose: " + strings.Join(names, ", ") + "."
}

// The notes an action leaves in the banner.

// Note is what an action did, as a note: the action in words, as a
// sentence.
func Note(cfg raftcore.Config, a raftcore.Action) string { return Action(cfg, a) + "." }

// Moved is the note a machine moved to another zone leaves.
func Moved(cfg raftcore.Config, a raftcore.Action) string {
	return Action(cfg, a) + ": its links to that zone are short now, the others long."
}

// CutNote is the note a stroke across links leaves: the links it cut, or
// restored, named from the actions it took.
func CutNote(cfg raftcore.Config, acts []raftcore.Action) string {
	verb := "Cut"
	if len(acts) > 0 && acts[0].Do == raftcore.DoRestore {
		verb = "Restored"
	}
	names := make([]string, len(acts))
	for k, x := range acts {
		names[k] = MachineName(cfg, raftcore.NodeID(x.From)) + "–" + MachineName(cfg, raftcore.NodeID(x.To))
	}
	return verb + " " + strings.Join(names, ", ") + "."
}

// Isolated is the note a machine cut off from every other leaves.
func Isolated(name string) string {
	return name + " is cut off from every other machine. Drag it back, or press heal, to reconnect it."
}

// Reconnected is the note a machine connected again leaves.
func Reconnected(name string) string { return name + " is connected again." }

// Notes that need no facts.
const (
	NetworkWhole  = "Every machine is on one side again: the network is whole."
	LinkCopied    = "Link copied. It replays this run up to now."
	NothingDue    = "Nothing more happens: no events are due."
	RunStart      = "This is the start of the run."
	NothingBefore = "Nothing notable happened before this."
	NothingNext   = "Nothing notable happened in the next minute."
	AllRunning    = "Every machine is already running."
	BackOnRun     = "Back on the run you had left; the one you made is kept in its place."
	FigureStart   = "This is where the figure starts."
	LabOpens      = "The full lab opens in a new tab, at this moment of this run."
	TookOver      = "You have the controls now: the figure no longer plays itself."
)

// NoTimer says that no running machine has a timer that can run out.
func (v Voice) NoTimer() string {
	if v.Plain() {
		return "No running machine is waiting on a timer that can run out."
	}
	return "No running machine has an election timer that can run out."
}

// SplitNeedsRaft says that a split vote needs Raft's elections, which the
// protocol running has not.
func (v Voice) SplitNeedsRaft() string {
	if v.Plain() {
		return "No machine here asks the others to take its place: there is nothing to split."
	}
	return "Split votes need elections: switch the protocol to raft."
}

// Forked adds to the note an action left (own, "" for none) that acting
// at atUs, in the past, started a new run.
func Forked(own string, atUs int64) string {
	return strings.TrimSpace(own + " Acting at " + Clock(atUs) +
		" started a new run from there; the run you left is kept on the timeline.")
}

// Dropped is the note a message dropped by hand leaves.
func Dropped(id uint64) string {
	return "Message #" + Utoa(id) + " dropped: it falls away and never arrives."
}

// NoLeaderNow says that no machine leads, to a reader who asked to crash
// the leader.
func (v Voice) NoLeaderNow() string {
	return v.noneLeads("right now") + "."
}

// Restarted is the note a leader crashed and brought back leaves.
func (v Voice) Restarted(name string) string {
	if v.Plain() {
		return name + " crashed and restarted: it lost everything but the history it had saved."
	}
	return name + " crashed and restarted: it lost everything but its term, vote and log."
}

// StartedAgain is the note a figure started again leaves.
func StartedAgain(title string) string { return "Started again: " + title + "." }

// NewRun is the note a free play started again leaves.
func NewRun(cfg *raftcore.Config) string { return "New run: " + Setup(cfg) }

// FreePlay is the note going to free play leaves.
func FreePlay(cfg *raftcore.Config) string { return "Free play: " + Setup(cfg) }

// Opened is the note a schedule opened leaves: how long its run is and
// how many actions it holds.
func Opened(runUs int64, actions int) string {
	return fmt.Sprintf("Opened a run of %s with %d actions.", Clock(runUs), actions)
}

// LinkFailed says that a share link could not be opened, and why.
func LinkFailed(why string) string { return "The link could not be opened: " + why }

// Together says that two machines' election timers run out together in
// inUs, and what follows, in the screen's words.
func (v Voice) Together(a, b string, inUs int64) string {
	s := a + " and " + b + " time out together in " + Ms(inUs)
	switch {
	case v.Plain():
		s = a + " and " + b + " stop waiting together in " + Ms(inUs)
		if v.Cfg.Protocol != raftcore.ProtocolRaft {
			return s + ": both make themselves the authority."
		}
		return s + ": both ask the others at once, and the others may split between them."
	case v.Cfg.Protocol != raftcore.ProtocolRaft:
		return s + ": both take over."
	}
	return s + ": both stand in the same term, and their votes may split."
}

// LeaderKeepsTimers says that the leader's heartbeats keep every other
// timer from running out.
func (v Voice) LeaderKeepsTimers(leader string) string {
	if v.Plain() {
		return v.leads(leader, 0, "") + ": its messages keep restarting every other machine's wait. Crash it (r) to let them run out."
	}
	return leader + " leads: its heartbeats keep restarting every other timer. Crash it (r) to let them run out."
}

// OnlyTimer says that one machine's election timer alone can run out.
func (v Voice) OnlyTimer(name string) string {
	if v.Plain() {
		return "Only " + name + "'s wait can run out: there is nothing to line up."
	}
	return "Only " + name + "'s election timer can run out: there is nothing to line up."
}

// Spread is the note spreading the election timers leaves: first runs out
// in inUs; every other one lagUs or more later (lagUs < 0: there is no
// other), once the first's request has reached them (reached); or, with
// no other timer, whom the others hear (lead, "" for none).
func Spread(first string, inUs, lagUs int64, reached bool, lead string) string {
	s := first + "'s timer runs out first, in " + Ms(inUs)
	switch {
	case lagUs >= 0:
		s += "; every other one " + Ms(lagUs) + " or more later"
		if reached {
			s += ", once its request has reached them"
		}
	case lead != "":
		s += "; the others hear " + lead
	default:
		s += "; no other timer is running"
	}
	return s + "."
}

// CrashedLeader begins the note of a split vote staged after crashing the
// leader.
func CrashedLeader(name string) string {
	return "Crashed " + name + " and dropped its messages on the wire. "
}

// Opening says how far a long link's run has been replayed.
func Opening(done float64) string {
	return "Opening the link: " + strconv.Itoa(int(done*100)) + "% of its run replayed. Do anything to stop."
}

// OpeningStopped says a long link stopped opening because the reader acted.
const OpeningStopped = "Stopped opening the link."

// SettingName is a setting of raft as the setup names it: PreVote,
// CheckQuorum, or a rule broken on purpose, by the bug's name.
func SettingName(setting string) string {
	switch setting {
	case raftcore.SettingPreVote:
		return PreVote
	case raftcore.SettingCheckQuorum:
		return CheckQuorum
	case raftcore.SettingIdempotence:
		return Idempotence
	}
	return "the bug " + setting
}

// SettingChanged is the note a setting changed mid-run leaves: it holds
// from that moment on, in this run; starting again begins a new one.
func SettingChanged(setting string, on bool, atUs int64) string {
	state := "off"
	if on {
		state = "on"
	}
	who := "every machine"
	if setting == raftcore.SettingIdempotence {
		who = "every deployment controller"
	}
	return Capital(SettingName(setting)) + " is " + state + " from " + Clock(atUs) +
		" on, for " + who + "; the run keeps going from here. Start again for a new run."
}
