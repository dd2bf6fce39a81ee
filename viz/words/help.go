package words

// The words of the help: what each key does, as the help lists it and
// the toolbar's buttons say it when the pointer rests on them, and the
// gestures.

// What each key does, in one line: the key's command in words.
const (
	KeyPlayPause     = "Pause or resume the simulation"
	KeyStep          = "Advance by one step while paused"
	KeyStepBack      = "Go back by one step"
	KeyPrevEvent     = "Jump back to the previous notable event"
	KeyNextEvent     = "Jump ahead to the next notable event"
	KeyClientWrite   = "Send a client write to the cluster (its client picks a running machine)"
	KeyRestartLeader = "Crash the current leader, then bring it back"
	KeySpreadTimers  = "Spread election timers apart so one node times out first"
	KeyAlignTimers   = "Make the two earliest election timers run out together"
	KeySplitVote     = "Crash the leader and time two nodes out together so their votes may split"
	KeyResumeAll     = "Bring back every paused or crashed node"
	KeyHeal          = "Heal every partition and cut link"
	KeyHelp          = "Show or hide this help"
	KeyPresent       = "Presenter mode: everything larger, one panel at a time, for a projector"
)

// The notes on turning presenter mode on and off.
const (
	PresentOn  = "Presenter mode: everything larger, one panel at a time. Press p to leave it."
	PresentOff = "Presenter mode is off."
)

// keysPlain say, in the chapter's words, what the keys that speak of
// Raft's mechanism do: where a machine is in charge, and before the
// chapter speaks of one.
var keysPlain = map[string][2]string{
	KeyRestartLeader: {"Crash the machine in charge, then bring it back",
		"Crash the machine taking the writes, then bring it back"},
	KeySpreadTimers: {"Spread the machines' waits apart so one stops waiting first",
		"Spread the machines' waits apart so one stops waiting first"},
	KeyAlignTimers: {"Make the two shortest waits run out together",
		"Make the two shortest waits run out together"},
	KeySplitVote: {"Crash the machine in charge and have two others try to take over together",
		"Crash the machine taking the writes and have two others ask at once"},
}

// WriteTip is the toolbar write button's hover text, before its key: where
// the write goes, and how to send one to a machine of the reader's choice.
func (v Voice) WriteTip() string {
	if v.Plain() {
		return "Send a client write to the cluster: its client sends it to one running machine, another if that one is down. To pick the machine, use its menu"
	}
	return "Send a client write to the cluster: its client sends it to the machine it is connected to, or the next one if that one is down, and a follower passes it to the leader. To pick the machine, use its menu"
}

// Key is what a key does (one of the Key constants), in the screen's
// words.
func (v Voice) Key(does string) string {
	if w, ok := keysPlain[does]; ok && v.Plain() {
		return v.inCharge(w[0], w[1])
	}
	return does
}

// PlayPause says what the play button does now: run the simulation when
// it is paused, else pause it.
func PlayPause(paused bool) string {
	if paused {
		return "Run the simulation"
	}
	return "Pause the simulation"
}

// WithKey is what a button does, with the key that does the same:
// "Heal every partition and cut link (H)".
func WithKey(does, key string) string { return does + " (" + key + ")" }

// HelpTitle heads the help.
const HelpTitle = "Keys and gestures"

// WidestKey is the widest key the help names, which its column of keys is
// set by.
const WidestKey = "Space"

// Gestures are the gestures the help explains, for the reader's hand.
func (v Voice) Gestures() []string {
	if v.Touch {
		return []string{
			"Swipe across one or more links to cut them; swipe across cut links to restore them.",
			dragOut,
			"Tap a machine, a link or a moving message to change it. Drag the speed slider or the timeline below.",
		}
	}
	return []string{
		"Drag across one or more links to cut them; drag across cut links to restore them.",
		dragOut,
		"Click a machine, a link or a moving message to change it. Drag the speed slider or the timeline below.",
	}
}

// dragOut explains dragging a machine, the same by hand or mouse.
const dragOut = "Drag a machine out of the circle to cut it off; drag it back to reconnect it. When the network is split, drag machines between the sides."

// CloseHelp says how to close the help.
func (v Voice) CloseHelp() string {
	return v.ForHand("Press any key or click to close.", "Tap anywhere to close.")
}
