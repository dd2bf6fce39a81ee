package session

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"raftlab/raftcore"
	"raftlab/scenarios"
)

func TestTheCatalogFindsItsFigures(t *testing.T) {
	c := BuiltinScenarios()
	require.Len(t, c.List(), len(scenarios.IDs()))
	for _, id := range scenarios.IDs() {
		require.NoError(t, c.Check(id))
		r, err := c.Get(id)
		require.NoError(t, err)
		require.Equal(t, id, r.ID())
	}
	for _, c := range []Catalog{c, NewCatalog(nil)} {
		require.Error(t, c.Check("no-such-figure"))
		r, err := c.Get("no-such-figure")
		require.Error(t, err)
		require.Nil(t, r)
	}
	// Each Get is a fresh play.
	a, _ := c.Get("majority")
	b, _ := c.Get("majority")
	require.NotSame(t, a.Tracker(), b.Tracker())
}

// A figure's world has the session's trace bound, and its machines the
// figure's names, or the book's letters when it gives none.
func TestAFiguresConfigHasNamesAndTheTraceBound(t *testing.T) {
	for _, r := range BuiltinScenarios().List() {
		cfg := NewScenario(r).Config(42)
		assert.Equal(t, int64(42), cfg.Seed)
		assert.Equal(t, TraceLimit, cfg.TraceLimit)
		assert.Equal(t, r.Base.Names, cfg.Names, r.ID)
	}
	base := raftcore.DefaultConfig()
	base.Nodes = 4
	cfg := NewScenario(&scenarios.Scenario{ID: "unnamed", Base: base, Steps: []scenarios.Step{{Text: "start"}}}).Config(1)
	assert.Equal(t, []string{"A", "B", "C", "D"}, cfg.Names)
}

// Knobs are the settings that differ from their defaults, as a link
// records them.
func TestKnobsAreTheSettingsChanged(t *testing.T) {
	r, err := BuiltinScenarios().Get("timeout-tuning")
	require.NoError(t, err)
	assert.Nil(t, r.Knobs())
	r, err = r.With("network", "calm")
	require.NoError(t, err)
	r, err = r.With("election", "5000 ms")
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"network": "calm", "election": "5000 ms"}, r.Knobs())
	_, err = r.With("network", "stormy")
	require.Error(t, err)
}

func TestTheScriptEndsAtItsLastActionOrTheFiguresEnd(t *testing.T) {
	for _, id := range scenarios.IDs() {
		r, err := BuiltinScenarios().Get(id)
		require.NoError(t, err)
		end := int64(r.Spec().UntilMs * 1000)
		for _, x := range r.Spec().Script {
			end = max(end, x.AtUs())
		}
		assert.Equal(t, end, r.ScriptEndUs(), id)
		assert.GreaterOrEqual(t, r.ScriptEndUs(), int64(r.Spec().UntilMs*1000), id)
	}
}

func TestHighlightedAreTheMachinesTheStoryIsAbout(t *testing.T) {
	r, err := BuiltinScenarios().Get("cap-reads")
	require.NoError(t, err)
	for id := raftcore.NodeID(1); id <= 5; id++ {
		assert.Equal(t, id == 3 || id == 4, r.Highlighted(id), "machine %d", id)
	}
}

// The words on screen are a step reached, one at a time: Step never says
// a step not reached, and the closing line is shown only once the story
// is over.
func TestTheWordsShownAreOfAStepReached(t *testing.T) {
	s := playing(t, "majority")
	r := s.Scenario()
	r.Show(3)
	require.Equal(t, 3, r.Shown())
	require.Equal(t, r.Tracker().Step(), r.Step(), "step 3 is not reached yet")
	require.False(t, r.ShownDone())

	playToEnd(t, s)
	require.True(t, r.Tracker().Done())
	require.Equal(t, 3, r.Step())
	require.False(t, r.ShownDone(), "the closing line is not on screen yet")
	require.Equal(t, r.Tracker().StepCount(), r.Latest())
	r.Show(r.Latest())
	require.True(t, r.ShownDone())
}

// Observed reports a new step once, when the story reaches it.
func TestObservedReportsEachNewStepOnce(t *testing.T) {
	s := playing(t, "majority")
	r := s.Scenario()
	news, last := 0, r.Tracker().Step()
	for s.NowUs() < r.ScriptEndUs() {
		_, err := s.Advance(s.NowUs()+100_000, -1)
		require.NoError(t, err)
		step := r.Tracker().Step()
		if s.Observed() {
			news++
		}
		require.False(t, s.Observed(), "the same step again")
		last = step
	}
	require.Equal(t, last, news, "one report a step")
	require.True(t, r.Tracker().Done())
}

// TestCatalogMakesOnlyWhatIsAskedFor: a figure opened alone makes its own
// definition and no other; the whole list, once asked for, is every
// figure in the book's order, the one made first among them.
func TestCatalogMakesOnlyWhatIsAskedFor(t *testing.T) {
	c := BuiltinScenarios()
	if _, err := c.Get("majority"); err != nil {
		t.Fatal(err)
	}
	if len(c.c.made) != 1 {
		t.Fatalf("opening one figure made %d definitions", len(c.c.made))
	}
	if err := c.Check("no-such-figure"); err == nil {
		t.Fatal("an unknown id was accepted")
	}
	first, _ := c.scenario("majority")
	list := c.List()
	if len(list) != len(scenarios.IDs()) || c.Len() != len(list) {
		t.Fatalf("the list has %d figures, Len says %d, the book %d", len(list), c.Len(), len(scenarios.IDs()))
	}
	for i, id := range scenarios.IDs() {
		if list[i].ID != id {
			t.Fatalf("figure %d is %s, want %s", i, list[i].ID, id)
		}
		if id == "majority" && list[i] != first {
			t.Fatal("the figure made first was made again")
		}
	}
	if again := c.List(); len(again) == 0 || &again[0] != &list[0] {
		t.Fatal("the list was made again when asked a second time")
	}
	var none Catalog
	if none.Len() != 0 || len(none.List()) != 0 || none.Check("majority") == nil {
		t.Fatal("the empty catalog offers something")
	}
}
