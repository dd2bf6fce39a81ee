package words

import (
	"strings"

	"raftlab/internal/linearize"
	"raftlab/raftcore"
)

// The words of the panels beside the machines: their titles, the free
// play and scenario panels, the question put to every machine, the
// selected machine, the contract and the client's requests.

// Panel titles and the labels of their buttons.
const (
	TitleFreePlay = "Free play"
	TitleQuestion = "Ask every machine"
	TitleRoles    = "Roles"
	TitleMachine  = "Machine"
	TitleSafety   = "Safety"
	TitleClient   = "Client requests"
	// ShowPanel opens a stacked panel folded to its title.
	ShowPanel = "Show"
	// BookScenarios opens the list of the book's figures; SetupButton the
	// setup menu; OtherScenarios the list, from a scenario.
	BookScenarios  = "Scenarios from the book"
	SetupButton    = "Setup"
	OtherScenarios = "Other scenarios"
	StartAgain     = "Start again"
	// WhatHappened heads a scenario's closing words.
	WhatHappened = "What just happened"
	// ContractHeading heads the contract's promises.
	ContractHeading = "The shared-history contract"
	// NewestEntries heads a machine's last entries.
	NewestEntries = "Newest entries"
	// Histories heads the machines' histories where they are a figure's
	// focus, and HistoriesKey says, under them, what a square is.
	Histories    = "Histories"
	HistoriesKey = "Each square is a write, in the order the machine took it. A red line under it: another machine holds a different write there."
)

// Machine names machine name: "Machine B".
func Machine(name string) string { return "Machine " + name }

// WithNews is a tab's title with a mark that its panel has news not to
// miss (a broken rule).
func WithNews(title string) string { return title + " ✗" }

// FreePlayHint tells the reader of free play the gestures it takes.
func (v Voice) FreePlayHint() string {
	return v.ForHand("Drag across links to cut them, drag a machine out of the circle to cut it off, click anything for more. Press ? for every key.",
		"Swipe across links to cut them, drag a machine out of the circle to cut it off, tap anything for more.")
}

// StepOf says which of n steps a story is at (i counted from 1).
func StepOf(i, n int) string { return "Step " + Itoa(i) + " of " + Itoa(n) }

// SeeItWith labels the button that plays a figure again with its knob
// (label) set to value.
func SeeItWith(label, value string) string {
	return "See it with " + strings.ToLower(label) + " " + value
}

// Autoplay labels the button that has the app play a scenario's script
// (or, while it plays, stops it).
func Autoplay(playing bool) string {
	if playing {
		return "Stop playing"
	}
	return "Play it for me"
}

// Question puts the question panel's question about key.
func Question(key string) string {
	return "Does " + key + " exist? Each machine answers from its own copy."
}

// AllAnswer says that all n machines answer the same: no, or yes with
// value.
func AllAnswer(n int, yes bool, value string) string {
	if yes {
		return "All " + Itoa(n) + " machines answer YES: " + value + "."
	}
	return "All " + Itoa(n) + " machines answer NO."
}

// Answer is one machine's answer to the question, as the panel lists it:
// "B: YES: replicas=3 (set at index 2; applied up to 4)".
func Answer(a raftcore.Answer) string { return a.Name + ": " + AnswerText(a) }

// AnswerText is a machine's answer to the question in one short line:
// "YES: replicas=3 (set at index 2; applied up to 4)".
func AnswerText(a raftcore.Answer) string {
	var s string
	switch {
	case !a.Answered:
		return "no answer: the machine is down"
	case a.Exists:
		s = "YES: " + a.Value + " (set at index " + Utoa(a.ModIndex) + "; applied up to " + Utoa(a.Applied) + ")"
	default:
		s = "NO (applied up to " + Utoa(a.Applied) + ")"
	}
	if a.Paused {
		s += ", paused: answering from what it had when it stopped"
	}
	return s
}

// What the answers come to, when they do not all agree.
const (
	AnswersDisagree = "They disagree. None of them is lying: each reports what it has seen."
	AnswersDiffer   = "They all say yes, but not with the same value."
	AnswersAgree    = "The machines that can answer agree."
)

// PickAMachine asks the reader to pick a machine to see into.
func (v Voice) PickAMachine() string {
	return v.ForHand("Click", "Tap") + " a machine to see everything it believes."
}

// The labels of what the Node panel says of a machine.
const (
	LabelRole     = "role"
	LabelRunning  = "running"
	LabelTerm     = "term"
	LabelVote     = "voted for"
	LabelLeader   = "leader"
	LabelInCharge = "in charge"
	LabelLog      = "log"
	LabelTimer    = "timer"
	LabelKeys     = "keys"
	// Nobody is the vote or the leader of a machine that has none.
	Nobody = "nobody"
)

// Running says how a machine runs: its status, and whether it is slowed,
// its clock drifts or messages wait for it.
func Running(st raftcore.Status, slow, drift float64, queued int) string {
	s := Status(st)
	if slow > 1 {
		s += ", " + Factor(slow) + " slower"
	}
	if drift != 1 {
		s += ", clock at " + Factor(drift)
	}
	if queued > 0 {
		s += ", " + Itoa(queued) + " messages queued"
	}
	return s
}

// Status is how a machine runs: up, paused or crashed.
func Status(st raftcore.Status) string {
	switch st {
	case raftcore.StatusUp:
		return "up"
	case raftcore.StatusPaused:
		return "paused"
	case raftcore.StatusCrashed:
		return "crashed"
	}
	return st.String()
}

// LogSummary says how far a machine's log reaches and is committed and
// applied.
func LogSummary(last, commit, applied uint64) string {
	return "last index " + Utoa(last) + ", committed " + Utoa(commit) + ", applied " + Utoa(applied)
}

// NoRoleCrashed is the role a crashed machine is shown with: none.
const NoRoleCrashed = "none while crashed"

// PersistedLog says how far a crashed machine's log reaches and is
// committed: what its disk keeps. What it had applied was in memory.
func PersistedLog(last, commit uint64) string {
	return "last index " + Utoa(last) + ", committed " + Utoa(commit) + " (on disk)"
}

// Timer says how far a machine's election timer has run: el of to ticks.
func Timer(el, to int) string { return Itoa(el) + " of " + Itoa(to) + " ticks" }

// KeyValue is a key's value and the index of the write that set it.
func KeyValue(value string, index uint64) string { return value + " (index " + Utoa(index) + ")" }

// Keys says how many keys a machine stores.
func Keys(n int) string { return Itoa(n) + " stored" }

// LabelLead labels the machine a machine knows to lead, in the screen's
// words.
func (v Voice) LabelLead() string {
	switch {
	case !v.Plain():
		return LabelLeader
	case !v.InCharge():
		return "takes writes"
	}
	return LabelInCharge
}

// FollowersHeading heads what a leader knows of each other machine.
func (v Voice) FollowersHeading() string {
	if v.Plain() {
		return "What it knows of the others"
	}
	return "What it knows of each follower"
}

// Progress is what a leader knows of follower name: how far their logs
// match, what it sends next, and whether it heard from it lately.
func Progress(name string, pr raftcore.Progress) string {
	state := "probe"
	if pr.State == raftcore.ProgressReplicate {
		state = "replicate"
	}
	s := name + ": match " + Utoa(pr.Match) + ", next " + Utoa(pr.Next) + ", " + state
	if !pr.RecentActive {
		s += ", not heard lately"
	}
	return s
}

// EntryRow is a log entry as a machine's newest entries list it: its
// index, its term where terms are shown, and its command.
func (v Voice) EntryRow(e raftcore.Entry) string {
	if v.Cfg.Protocol == raftcore.ProtocolRaft {
		return Utoa(e.Index) + v.TermSuffix(e.Term) + ": " + Entry(e.Data)
	}
	return Utoa(e.Index) + ": " + Entry(e.Data)
}

// NoRequests says that no client request was made yet, and how to make
// one: in a figure (which has no keys) by playing it or from a machine's
// menu.
func (v Voice) NoRequests(figure bool) string {
	if figure {
		return v.ForHand("No requests yet. Play the figure, or click a machine and choose Write here.",
			"No requests yet. Play the figure, or tap a machine and choose Write here.")
	}
	return v.ForHand("No requests yet. Press c, or click a machine and choose Write here.",
		"No requests yet. Tap a machine and choose Write here.")
}

// Tally counts the client's requests by outcome.
func Tally(done, waiting, failed, swaps, stale int) string {
	s := Itoa(done) + " done, " + Itoa(waiting) + " waiting, " + Itoa(failed) + " failed"
	if swaps > 0 {
		s += ", " + Count(swaps, "swap", "swaps") + " refused"
	}
	if stale > 0 {
		s += ", " + Count(stale, "stale read", "stale reads")
	}
	return s
}

// Forgotten says how many older requests the panel no longer keeps (the
// tally still counts them), and that reads of keys some forgotten write
// went to are not judged: their history is no longer whole.
func Forgotten(n int) string {
	return Count(n, "older request", "older requests") + " forgotten; reads of the keys they wrote are not judged"
}

// SentAt says when a request still waiting was sent; held, for a write,
// how many of the machines hold it so far (held < 0 for a read).
func SentAt(us int64, held, machines int) string {
	s := "sent at t = " + Clock(us)
	if held >= 0 {
		s += ", held by " + Itoa(held) + " of " + Itoa(machines)
	}
	return s
}

// Replaced says when a write still waiting was sent, and that its entry,
// appended at index, is in no log any more: a later leader's entries
// replaced it, and its client hears nothing before it times out.
func (v Voice) Replaced(us int64, index uint64) string {
	by := "a later leader's"
	if v.Plain() {
		by = "another machine's"
	}
	return "sent at t = " + Clock(us) + "; its entry at index " + Utoa(index) + " was replaced by " + by + ", so no answer comes before its timeout"
}

// ClientRow is a client request as the client panel lists it: its number,
// what became of it, when (how long it took, or when it was sent) and, for
// a read the check judged, its verdict.
func (v Voice) ClientRow(op raftcore.Op, when string, verdict linearize.ReadVerdict, judged bool) string {
	s := "#" + Itoa(op.ID) + " " + v.OpLine(op) + " (" + when + ")"
	if judged {
		s += ", " + Verdict(verdict)
	}
	return s
}

// KnobSetTo says how a figure's knob (label) is set, where it cannot be
// pressed: "etcd-1's clock: 75% slow".
func KnobSetTo(label, value string) string { return label + ": " + value }
