package app

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"raftlab/raftcore"
	"raftlab/viz"
)

func TestDirectivesBecomeIntents(t *testing.T) {
	a := newApp(t, 3, 1280, 800)
	cases := map[string]Intent{
		"next":             PlayStep{},
		"back":             PrevStep{},
		"pause":            SetPaused{Paused: true},
		"play":             SetPaused{Paused: false},
		"heal":             RunCommand{Cmd: viz.CmdHeal},
		"write":            RunCommand{Cmd: viz.CmdClientWrite},
		"seek 1500":        Seek{AtUs: 1500000},
		"cut A-C":          ActOnLink{Link: viz.LinkID{I: 0, J: 2}, Verb: raftcore.DoCut},
		"cut c–a":          ActOnLink{Link: viz.LinkID{I: 0, J: 2}, Verb: raftcore.DoCut},
		"heal B-C":         ActOnLink{Link: viz.LinkID{I: 1, J: 2}, Verb: raftcore.DoRestore},
		"pause B":          ActOnMachine{Node: 1, Verb: raftcore.DoPause},
		"  crash   3 ":     ActOnMachine{Node: 2, Verb: raftcore.DoCrash},
		"write A":          ActOnMachine{Node: 0, Verb: raftcore.DoWrite},
		"isolate C":        Isolate{Node: 2},
		"knob prevote off": SetKnob{Knob: "prevote", Value: "off"},
	}
	for text, want := range cases {
		got, err := a.Directive(text)
		require.NoError(t, err, text)
		assert.Equal(t, want, got, text)
	}
}

func TestBadDirectivesSayWhatIsWrong(t *testing.T) {
	a := newApp(t, 3, 1280, 800)
	cases := map[string]string{
		"":            "empty directive",
		"fly B":       `"fly" is not a directive`,
		"cut A":       `"A" is not a link`,
		"cut A-F":     `no machine "F": this figure has A, B and C`,
		"cut A-A":     "joins a machine to itself",
		"crash":       "crash takes a machine",
		"crash A B":   "crash takes a machine",
		"seek soon":   `"soon" is not a time in milliseconds`,
		"seek -4":     `"-4" is not a time`,
		"next please": "next takes nothing",
		"knob x":      "knob takes a knob and its value",
	}
	for text, want := range cases {
		_, err := a.Directive(text)
		require.Error(t, err, text)
		assert.Contains(t, err.Error(), want, text)
	}
}

func TestADirectiveIsRecordedAsAnAction(t *testing.T) {
	a := newApp(t, 3, 1280, 800)
	in, err := a.Directive("cut A-B")
	require.NoError(t, err)
	require.NoError(t, a.Do(in))
	acts := a.World().Actions()
	require.NotEmpty(t, acts)
	last := acts[len(acts)-1]
	assert.Equal(t, raftcore.DoCut, last.Do)
	assert.False(t, a.World().Link(1, 2).Up)
}

func TestMessagesAreParsedStrictly(t *testing.T) {
	m, err := ParseMessage([]byte(`{"raftlab":"do","act":"cut A-C","id":7}`))
	require.NoError(t, err)
	assert.Equal(t, "do", m.Kind)
	assert.Equal(t, "cut A-C", m.Act)
	assert.JSONEq(t, "7", string(m.ID))

	for _, ok := range []string{`{"raftlab":"listen"}`, `{"raftlab":"link","id":"x"}`, `{"raftlab":"describe"}`} {
		_, err := ParseMessage([]byte(ok))
		assert.NoError(t, err, ok)
	}
	bad := map[string]string{
		`"cut A-C"`:                            "not an object",
		`{"raftlab":"do"}`:                     "do needs an act",
		`{"raftlab":"do","act":"  "}`:          "do needs an act",
		`{"raftlab":"jump"}`:                   `raftlab "jump" is not a message kind`,
		`{"raftlab":"do","act":"x","extra":1}`: "unknown field",
		`{"raftlab":"listen","act":"cut A-B"}`: "listen takes no act",
		`{"raftlab":"do","act":"x"} {"a":1}`:   "more than one JSON value",
		`{"raftlab":3}`:                        "not an object",
		``:                                     "not an object",
	}
	for text, want := range bad {
		_, err := ParseMessage([]byte(text))
		require.Error(t, err, text)
		assert.Contains(t, err.Error(), want, text)
	}
	// A bad message's id comes back with its error.
	for _, text := range []string{`{"raftlab":"jump","id":"q1"}`, `{"raftlab":"do","id":"q1","x":2}`} {
		m, err := ParseMessage([]byte(text))
		require.Error(t, err, text)
		assert.JSONEq(t, `"q1"`, string(m.ID), text)
	}
}
