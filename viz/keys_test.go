package viz

import (
	"strings"
	"testing"
)

func TestCommandForKey(t *testing.T) {
	tests := []struct {
		key  string
		want Command
	}{
		{" ", CmdPlayPause}, {"Space", CmdPlayPause}, {"space", CmdPlayPause},
		{".", CmdStep}, {"Period", CmdStep},
		{",", CmdStepBack}, {"Comma", CmdStepBack},
		{"[", CmdPrevEvent}, {"BracketLeft", CmdPrevEvent},
		{"]", CmdNextEvent}, {"BracketRight", CmdNextEvent},
		{"c", CmdClientWrite}, {"C", CmdClientWrite}, {"KeyC", CmdClientWrite},
		{"r", CmdRestartLeader}, {"t", CmdSpreadTimers}, {"a", CmdAlignTimers},
		{"l", CmdSplitVote}, {"b", CmdResumeAll}, {"h", CmdHeal}, {"H", CmdHeal},
		{"?", CmdHelp}, {"Shift+Slash", CmdHelp},
	}
	for _, tc := range tests {
		got, ok := CommandForKey(tc.key)
		if !ok || got != tc.want {
			t.Errorf("CommandForKey(%q) = %v, %v; want %v, true", tc.key, got, ok, tc.want)
		}
	}
	for _, key := range []string{"", "x", "Enter", "KeyX", "keyboard", "/", "  ", "Key"} {
		if got, ok := CommandForKey(key); ok || got != CmdNone {
			t.Errorf("CommandForKey(%q) = %v, %v; want none", key, got, ok)
		}
	}
}

func TestKeyBindingsTable(t *testing.T) {
	bs := KeyBindings()
	if len(bs) != int(numCommands)-1 {
		t.Fatalf("%d bindings, want one for each of the %d commands", len(bs), numCommands-1)
	}
	seenKey := map[string]bool{}
	seenCmd := map[Command]bool{}
	for _, b := range bs {
		if seenKey[b.Key] || seenCmd[b.Cmd] {
			t.Errorf("binding %+v repeats a key or command", b)
		}
		seenKey[b.Key], seenCmd[b.Cmd] = true, true
		if b.Label == "" {
			t.Errorf("binding %+v needs a label", b)
		}
		if got, ok := CommandForKey(b.Key); !ok || got != b.Cmd {
			t.Errorf("CommandForKey(%q) = %v, want %v", b.Key, got, b.Cmd)
		}
		if got, ok := CommandForKey(b.Label); !ok || got != b.Cmd {
			t.Errorf("the label %q does not map back to %v", b.Label, b.Cmd)
		}
		if got, ok := b.Cmd.Binding(); !ok || got != b {
			t.Errorf("%v.Binding() = %+v, %v", b.Cmd, got, ok)
		}
	}
	// The returned slice is a copy.
	bs[0].Label = "changed"
	if KeyBindings()[0].Label == "changed" {
		t.Errorf("KeyBindings returned the package's own slice")
	}
	if _, ok := CmdNone.Binding(); ok {
		t.Errorf("CmdNone has a binding")
	}
}

func TestCommandString(t *testing.T) {
	names := map[string]bool{}
	for c := CmdNone; c < numCommands; c++ {
		s := c.String()
		if s == "" || names[s] || strings.HasPrefix(s, "Command(") {
			t.Errorf("command %d has name %q", int(c), s)
		}
		names[s] = true
	}
	if got := Command(99).String(); got != "Command(99)" {
		t.Errorf("unknown command string = %q", got)
	}
	if CmdHeal.String() != "heal" || CmdPlayPause.String() != "play-pause" {
		t.Errorf("names changed: %q %q", CmdHeal, CmdPlayPause)
	}
}

func TestDefaultToolbar(t *testing.T) {
	tb := DefaultToolbar()
	seen := map[Command]bool{}
	for _, c := range tb {
		if c <= CmdNone || c >= numCommands || seen[c] {
			t.Errorf("toolbar has bad or repeated command %v", c)
		}
		seen[c] = true
	}
	if !seen[CmdPlayPause] || !seen[CmdHelp] {
		t.Errorf("toolbar lacks play/pause or help: %v", tb)
	}
}
