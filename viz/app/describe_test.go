package app

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"raftlab/raftcore"
	"raftlab/raftcore/timeline"
	"raftlab/viz"
	"raftlab/viz/app/command"
	"raftlab/viz/app/session"
	"raftlab/viz/frame"
)

// describedApp is a free-play app of n machines that describes itself.
func describedApp(t *testing.T, n int) *App {
	t.Helper()
	p := viz.DefaultParams()
	p.Nodes = n
	a, err := New(Options{Params: p, Width: 1280, Height: 800, SpeedGiven: true, Describe: true})
	require.NoError(t, err)
	return a
}

// takeWords returns the description handed on (or "") and the
// announcements since the last call.
func takeWords(a *App) (desc string, said []string) {
	for _, e := range a.TakeEffects() {
		switch e.Kind {
		case frame.EffectDescribe:
			desc = e.Text
		case frame.EffectAnnounce:
			said = append(said, e.Text)
		}
	}
	return desc, said
}

func TestDescriptionSaysWhoLeadsWhatIsCutAndWhatIsCommitted(t *testing.T) {
	a := describedApp(t, 5)
	desc, said := takeWords(a)
	assert.Contains(t, desc, "5 machines: A, B, C, D and E.")
	assert.Contains(t, desc, "No machine leads.")
	assert.Contains(t, desc, "Every link is up.")
	assert.Contains(t, desc, "Nothing is committed yet.")
	assert.Empty(t, said, "the opening state is described, not announced")

	c := &hostClock{}
	l := untilLeader(t, a, c)
	name := a.cfg().Name(nodeID(l))
	desc, said = takeWords(a)
	assert.Contains(t, desc, name+" leads (term ")
	assert.Contains(t, strings.Join(said, "|"), name+" now leads")

	// The leader's empty entry commits once a majority holds it.
	c.run(a, time.Second)
	desc, _ = takeWords(a)
	assert.Contains(t, desc, "Committed: entry 1.")

	other := (l + 1) % 5
	require.NoError(t, a.Do(command.ActOnLink{Link: viz.LinkID{I: min(l, other), J: max(l, other)}, Verb: "cut"}))
	desc, said = takeWords(a)
	pair := a.cfg().Name(nodeID(min(l, other))) + "–" + a.cfg().Name(nodeID(max(l, other)))
	assert.Contains(t, desc, "Cut link: "+pair+".")
	assert.Contains(t, strings.Join(said, "|"), pair, "the action's note is announced")

	require.NoError(t, a.Do(command.ActOnMachine{Node: other, Verb: "crash"}))
	desc, _ = takeWords(a)
	assert.Contains(t, desc, a.cfg().Name(nodeID(other))+" is crashed.")
}

func TestDescriptionIsHandedOnOnlyWhenItChanges(t *testing.T) {
	a := describedApp(t, 3)
	desc, _ := takeWords(a)
	require.NotEmpty(t, desc)
	require.NoError(t, a.Do(command.SetPaused{Paused: true}))
	c := &hostClock{}
	c.run(a, time.Second)
	desc, said := takeWords(a)
	assert.Empty(t, desc, "a paused figure's description is not handed on again")
	assert.Empty(t, said)

	// Without Options.Describe the app says nothing.
	b := newApp(t, 3, 1280, 800)
	for _, e := range b.TakeEffects() {
		assert.NotEqual(t, frame.EffectDescribe, e.Kind)
	}
}

func TestDescriptionNamesTheSidesOfAPartition(t *testing.T) {
	a := describedApp(t, 5)
	takeWords(a)
	require.NoError(t, a.Do(command.Isolate{Node: 4}))
	desc, _ := takeWords(a)
	assert.Contains(t, desc, "The network is split into 2 sides: A, B, C and D; E.")
	require.NoError(t, a.Do(command.MoveToZone{Node: 3, Zone: a.stage.Zones()[4]}))
	desc, _ = takeWords(a)
	assert.Contains(t, desc, "The network is split into 2 sides: A, B and C; D and E.")
}

func TestFigureAnnouncesItsSteps(t *testing.T) {
	p := viz.DefaultParams()
	p.Scenario, p.Embed = "majority", true
	a, err := New(Options{Params: p, Width: 720, Height: 450, Scenarios: session.BuiltinScenarios(), Describe: true})
	require.NoError(t, err)
	var steps []frame.Effect
	for _, e := range a.TakeEffects() {
		if e.Kind == frame.EffectStep {
			steps = append(steps, e)
		}
	}
	require.Len(t, steps, 1, "the step shown at the opening is handed on")
	c := &hostClock{}
	require.NoError(t, a.Do(command.PlayStep{}))
	var said []string
	for i := 0; i < 600 && !a.Paused(); i++ {
		c.run(a, 100*time.Millisecond)
		_, s := takeWords(a)
		said = append(said, s...)
	}
	require.True(t, a.Paused(), "the figure rests at its next step")
	_, s := takeWords(a)
	said = append(said, s...)
	joined := strings.Join(said, "|")
	assert.Contains(t, joined, "Step 2 of ", "the next step is announced")
}

// linkOf is the share link payload of a schedule file's run, at its end.
func linkOf(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	tl, err := timeline.ImportSchedule(data)
	require.NoError(t, err)
	payload, err := timeline.EncodeLink(tl.Link("", nil))
	require.NoError(t, err)
	return payload
}

// TestANewRunsBrokenRuleIsAnnounced: what the screen reader was told goes
// with the run. A link whose run breaks one rule, then another run that
// breaks one other: the second is announced, though the count of broken
// rules is one both times.
func TestANewRunsBrokenRuleIsAnnounced(t *testing.T) {
	p := viz.DefaultParams()
	p.Link = linkOf(t, "../../docs/examples/read-without-confirm.json")
	a, err := New(Options{Params: p, Width: 1280, Height: 800, Describe: true})
	require.NoError(t, err)
	require.Len(t, a.World().Violations(), 1)
	takeWords(a)

	data, err := os.ReadFile("../../docs/examples/duplicate-proposal-no-sessions.json")
	require.NoError(t, err)
	require.NoError(t, a.Do(command.OpenRun{JSON: string(data)}))
	vs := a.World().Violations()
	require.Len(t, vs, 1)
	_, said := takeWords(a)
	assert.Contains(t, said, "Safety rule broken: "+vs[0].Text, "the second run's broken rule was not announced")
}

// hourLink is the share link of a quiet hour of nine machines.
func hourLink(t *testing.T) string {
	t.Helper()
	cfg := raftcore.DefaultConfig()
	cfg.Nodes = 9
	payload, err := timeline.EncodeLink(timeline.Link{Config: cfg, PosUs: int64(time.Hour / time.Microsecond)})
	require.NoError(t, err)
	return payload
}

// TestALongLinkOpensAPieceAtATime: an hour of nine machines is replayed a
// piece each tick, the note saying how far it has got, and is shown at its
// moment when it is all there.
func TestALongLinkOpensAPieceAtATime(t *testing.T) {
	p := viz.DefaultParams()
	p.Link = hourLink(t)
	a, err := New(Options{Params: p, Width: 1280, Height: 800})
	require.NoError(t, err)
	require.NotNil(t, a.opening, "an hour of nine machines opened before the first frame")
	assert.Contains(t, a.State().Banner, "Opening the link")
	var c hostClock
	for i := 0; i < 10_000 && a.opening != nil; i++ {
		c.run(a, time.Second/60)
	}
	require.Nil(t, a.opening, "the link never finished opening")
	assert.Equal(t, int64(time.Hour/time.Microsecond), a.World().Now())
	assert.Equal(t, 9, a.World().Size())
	assert.True(t, a.Paused())
}

// TestALongLinkStopsWhenTheReaderActs: doing anything while a long link
// opens stops it, and says so.
func TestALongLinkStopsWhenTheReaderActs(t *testing.T) {
	p := viz.DefaultParams()
	p.Link = hourLink(t)
	a, err := New(Options{Params: p, Width: 1280, Height: 800})
	require.NoError(t, err)
	require.NotNil(t, a.opening)
	require.NoError(t, a.Do(command.SetPaused{Paused: false}))
	assert.Nil(t, a.opening)
	assert.Contains(t, a.State().Banner, "Stopped opening the link")
}
