package viz

import (
	"strconv"
	"strings"
)

// Command is an app action a key or toolbar button asks for. The app maps
// each one onto the simulator or its own state.
type Command int

// The commands, in the order the help overlay lists them.
const (
	CmdNone          Command = iota
	CmdPlayPause             // pause or resume virtual time
	CmdStep                  // advance one step while paused
	CmdStepBack              // go back one step
	CmdPrevEvent             // jump back to the previous notable event
	CmdNextEvent             // jump ahead to the next notable event
	CmdClientWrite           // submit one client write
	CmdRestartLeader         // crash the leader and bring it back
	CmdSpreadTimers          // spread election timers apart
	CmdAlignTimers           // make the two earliest election timers run out together
	CmdSplitVote             // crash the leader and stage a split vote
	CmdResumeAll             // resume every paused or crashed node
	CmdHeal                  // heal all partitions and cut links
	CmdHelp                  // show or hide the help overlay
	CmdPresent               // presenter mode on or off
	numCommands
)

// KeyBinding ties one key to a command. Key is the canonical key name that
// CommandForKey accepts and Label how the help overlay shows the key;
// what pressing it does is said by the app's words (package viz/words).
type KeyBinding struct {
	Key   string
	Label string
	Cmd   Command
}

var keyBindings = []KeyBinding{
	{" ", "Space", CmdPlayPause},
	{".", ".", CmdStep},
	{",", ",", CmdStepBack},
	{"[", "[", CmdPrevEvent},
	{"]", "]", CmdNextEvent},
	{"c", "C", CmdClientWrite},
	{"r", "R", CmdRestartLeader},
	{"t", "T", CmdSpreadTimers},
	{"a", "A", CmdAlignTimers},
	{"l", "L", CmdSplitVote},
	{"b", "B", CmdResumeAll},
	{"h", "H", CmdHeal},
	{"?", "?", CmdHelp},
	{"p", "P", CmdPresent},
}

// keyAliases maps other spellings of the bound keys, as lowercased key
// names from Ebiten (Key.String) and from browser KeyboardEvent.code and
// .key, onto the canonical names.
var keyAliases = map[string]string{
	"space":        " ",
	"spacebar":     " ",
	"period":       ".",
	"comma":        ",",
	"bracketleft":  "[",
	"bracketright": "]",
	"question":     "?",
	"shift+slash":  "?",
}

// KeyBindings returns the keyboard map in help-overlay order. The slice is
// a copy: changing it changes nothing here.
func KeyBindings() []KeyBinding {
	return append([]KeyBinding(nil), keyBindings...)
}

// CommandForKey returns the command bound to the named key. It accepts the
// typed character (" ", ".", "c", "?"), Ebiten key names ("Space",
// "Period", "C") and browser key codes ("KeyC", "BracketLeft"); letters are
// case-insensitive. Unbound keys give CmdNone and false.
func CommandForKey(name string) (Command, bool) {
	k := strings.ToLower(name)
	if a, ok := keyAliases[k]; ok {
		k = a
	}
	if len(k) == 4 && strings.HasPrefix(k, "key") { // browser code "KeyC"
		k = k[3:]
	}
	for _, b := range keyBindings {
		if b.Key == k {
			return b.Cmd, true
		}
	}
	return CmdNone, false
}

// Binding returns the key binding of c, and false when no key is bound to c.
func (c Command) Binding() (KeyBinding, bool) {
	for _, b := range keyBindings {
		if b.Cmd == c {
			return b, true
		}
	}
	return KeyBinding{}, false
}

var commandNames = [numCommands]string{
	"none", "play-pause", "step", "step-back", "prev-event", "next-event",
	"client-write", "restart-leader", "spread-timers", "align-timers",
	"split-vote", "resume-all", "heal", "help", "present",
}

// String returns a short stable name for c, such as "play-pause".
func (c Command) String() string {
	if c < 0 || c >= numCommands {
		return "Command(" + strconv.Itoa(int(c)) + ")"
	}
	return commandNames[c]
}

// DefaultToolbar is the row of buttons the layout puts in the toolbar when
// LayoutOptions.Buttons is nil.
func DefaultToolbar() []Command {
	return []Command{
		CmdPlayPause, CmdStepBack, CmdStep, CmdPrevEvent, CmdNextEvent,
		CmdClientWrite, CmdHeal, CmdResumeAll, CmdHelp,
	}
}
