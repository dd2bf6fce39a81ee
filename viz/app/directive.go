package app

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"raftlab/raftcore"
	"raftlab/viz"
)

// A host page drives a figure with short directives in words, the same
// in a message and in a link in its prose ("cut A-C", "crash B", "next").
// Each becomes an intent that Do applies, so that what a link in the text
// does is recorded like any other action of the reader.

// directiveUsage lists the directives, for the error a bad one gets.
const directiveUsage = "next, back, play, pause, seek MS, reset, heal, write, cut X-Y, heal X-Y, " +
	"pause X, resume X, crash X, restart X, timeout X, write X, isolate X, reconnect X, knob NAME VALUE"

// machineVerbs are the directives that act on one machine.
var machineVerbs = map[string]raftcore.Verb{
	"pause": raftcore.DoPause, "resume": raftcore.DoResume, "crash": raftcore.DoCrash,
	"restart": raftcore.DoRestart, "timeout": raftcore.DoTimeout, "write": raftcore.DoWrite,
}

// Directive turns one directive into the intent it asks for, or an error
// that says what is wrong with it.
func (a *App) Directive(text string) (Intent, error) {
	words := strings.Fields(text)
	if len(words) == 0 {
		return nil, fmt.Errorf("empty directive; use one of: %s", directiveUsage)
	}
	verb, args := strings.ToLower(words[0]), words[1:]
	want := func(n int, usage string) error {
		if len(args) != n {
			return fmt.Errorf("%q: %s takes %s", text, verb, usage)
		}
		return nil
	}
	switch verb {
	case "next", "back", "play", "reset", "heal", "write", "pause":
		if len(args) == 0 {
			switch verb {
			case "next":
				return PlayStep{}, nil
			case "back":
				return PrevStep{}, nil
			case "play":
				return SetPaused{Paused: false}, nil
			case "pause":
				return SetPaused{Paused: true}, nil
			case "reset":
				return Restart{}, nil
			case "heal":
				return RunCommand{Cmd: viz.CmdHeal}, nil
			case "write":
				return RunCommand{Cmd: viz.CmdClientWrite}, nil
			}
		}
	}
	switch verb {
	case "next", "back", "play", "reset":
		return nil, fmt.Errorf("%q: %s takes nothing", text, verb)
	case "seek":
		if err := want(1, "a time in milliseconds, as in seek 1500"); err != nil {
			return nil, err
		}
		ms, err := strconv.ParseFloat(args[0], 64)
		if err != nil || ms < 0 || ms > 1e9 {
			return nil, fmt.Errorf("%q: %q is not a time in milliseconds", text, args[0])
		}
		return Seek{AtUs: int64(ms * 1000)}, nil
	case "cut", "heal":
		if err := want(1, "a link, as in "+verb+" A-C"); err != nil {
			return nil, err
		}
		l, err := a.linkNamed(args[0])
		if err != nil {
			return nil, fmt.Errorf("%q: %v", text, err)
		}
		v := raftcore.DoCut
		if verb == "heal" {
			v = raftcore.DoRestore
		}
		return ActOnLink{Link: l, Verb: v}, nil
	case "isolate", "reconnect":
		if err := want(1, "a machine, as in "+verb+" B"); err != nil {
			return nil, err
		}
		i, err := a.machineNamed(args[0])
		if err != nil {
			return nil, fmt.Errorf("%q: %v", text, err)
		}
		if verb == "isolate" {
			return Isolate{Node: i}, nil
		}
		return Reconnect{Node: i}, nil
	case "knob":
		if err := want(2, "a knob and its value, as in knob prevote off"); err != nil {
			return nil, err
		}
		return SetKnob{Knob: args[0], Value: args[1]}, nil
	}
	if v, ok := machineVerbs[verb]; ok {
		if err := want(1, "a machine, as in "+verb+" B"); err != nil {
			return nil, err
		}
		i, err := a.machineNamed(args[0])
		if err != nil {
			return nil, fmt.Errorf("%q: %v", text, err)
		}
		return ActOnMachine{Node: i, Verb: v}, nil
	}
	return nil, fmt.Errorf("%q: %q is not a directive; use one of: %s", text, words[0], directiveUsage)
}

// machineNamed is the layout index of the machine called name (its letter
// or its number, in any case).
func (a *App) machineNamed(name string) (int, error) {
	n := a.World().Size()
	for i := 0; i < n; i++ {
		if strings.EqualFold(a.cfg.Name(nodeID(i)), name) || name == strconv.Itoa(i+1) {
			return i, nil
		}
	}
	return 0, fmt.Errorf("no machine %q: this figure has %s", name, a.World().NameList(a.allMachines()))
}

// machineNames are the machines' names, by layout index.
func (a *App) machineNames() []string {
	ns := make([]string, a.World().Size())
	for i := range ns {
		ns[i] = a.cfg.Name(nodeID(i))
	}
	return ns
}

// allMachines are the machines' ids.
func (a *App) allMachines() []raftcore.NodeID {
	ids := make([]raftcore.NodeID, a.World().Size())
	for i := range ids {
		ids[i] = nodeID(i)
	}
	return ids
}

// linkNamed is the link between two machines written X-Y (or X–Y).
func (a *App) linkNamed(name string) (viz.LinkID, error) {
	x, y, ok := strings.Cut(strings.ReplaceAll(name, "–", "-"), "-")
	if !ok {
		return viz.LinkID{}, fmt.Errorf("%q is not a link: write two machines joined by a dash, as in A-C", name)
	}
	i, err := a.machineNamed(x)
	if err != nil {
		return viz.LinkID{}, err
	}
	j, err := a.machineNamed(y)
	if err != nil {
		return viz.LinkID{}, err
	}
	if i == j {
		return viz.LinkID{}, fmt.Errorf("%q joins a machine to itself", name)
	}
	return viz.LinkID{I: min(i, j), J: max(i, j)}, nil
}

// Message is a message from a host page, as JSON:
//
//	{"raftlab": "do", "act": "cut A-C", "id": 7}   apply a directive
//	{"raftlab": "listen"}                          send events from now on
//	{"raftlab": "link", "id": 8}                   reply with the share link
//	{"raftlab": "describe", "id": 9}               reply with the description
//
// ID is any JSON value the host chooses; the reply carries it back.
type Message struct {
	Kind string          `json:"raftlab"`
	Act  string          `json:"act,omitempty"`
	ID   json.RawMessage `json:"id,omitempty"`
}

// messageKinds are the kinds a host may send (pause and resume are the
// page's own, handled before the app sees a message).
var messageKinds = []string{"do", "listen", "link", "describe"}

// ParseMessage reads a host's message. The error says what is wrong, for
// the host to be told: a message is from another page, never trusted. The
// message's ID is kept even when it is wrong, so that the error can be
// sent back with it.
func ParseMessage(data []byte) (Message, error) {
	var m Message
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		var loose struct {
			ID json.RawMessage `json:"id"`
		}
		_ = json.Unmarshal(data, &loose)
		return Message{ID: loose.ID}, fmt.Errorf("message: not an object of the form {\"raftlab\": \"do\", \"act\": \"cut A-C\"}: %v", err)
	}
	bad := Message{ID: m.ID}
	if dec.More() {
		return bad, fmt.Errorf("message: more than one JSON value")
	}
	known := false
	for _, k := range messageKinds {
		known = known || m.Kind == k
	}
	if !known {
		return bad, fmt.Errorf("message: raftlab %q is not a message kind; use one of %s", m.Kind, strings.Join(messageKinds, ", "))
	}
	if m.Kind == "do" && strings.TrimSpace(m.Act) == "" {
		return bad, fmt.Errorf("message: do needs an act, as in {\"raftlab\": \"do\", \"act\": \"cut A-C\"}")
	}
	if m.Kind != "do" && m.Act != "" {
		return bad, fmt.Errorf("message: %s takes no act", m.Kind)
	}
	return m, nil
}
