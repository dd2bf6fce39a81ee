package app

import (
	"encoding/json"
	"fmt"
	"raftlab/viz/app/command"
	"strings"
)

// A host page drives a figure with short directives in words, the same
// in a message and in a link in its prose ("cut A-C", "crash B", "next").
// Each becomes an intent that Do applies, so that what a link in the text
// does is recorded like any other action of the reader.

// Directive turns one directive into the intent it asks for, or an error
// that says what is wrong with it: a line of the command table that a
// book's prose may use (command.ParseProse).
func (a *App) Directive(text string) (command.Intent, error) {
	return command.ParseProse(a.commandContext(), text)
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
