package session

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"raftlab/raftcore"
	"raftlab/scenarios"
)

func TestAdvanceRunsTheWorldToATime(t *testing.T) {
	s := free(t, 5)
	stopped, err := s.Advance(1_234_567, -1)
	require.NoError(t, err)
	require.False(t, stopped)
	require.Equal(t, int64(1_234_567), s.NowUs())
	require.Equal(t, int64(1_234_567), s.HeadUs())
}

// The session plays a figure's script only when asked to, and only at
// the head: behind it, the recorded run already holds the script.
func TestTheScriptIsPlayedOnceAtTheHead(t *testing.T) {
	s := playing(t, "majority")
	script := s.Scenario().Spec().Autoplay()
	end := playToEnd(t, s)
	require.Equal(t, len(script), len(s.World().Actions()), "every action of the script, once")
	for i, x := range s.World().Actions() {
		assert.Equal(t, script[i].Do, x.Do)
		assert.Equal(t, script[i].AtUs(), x.AtUs())
	}

	s.GoTo(0)
	require.False(t, s.AtHead())
	_, err := s.Advance(s.HeadUs(), -1)
	require.NoError(t, err)
	require.Equal(t, len(script), len(s.World().Actions()), "played again behind the head")
	require.Equal(t, end, s.World().TraceHash())

	quiet := playing(t, "majority")
	quiet.Scenario().SetAutoplay(false)
	playToEnd(t, quiet)
	require.Empty(t, quiet.World().Actions(), "the reader plays the figure")
}

// A figure playing to its next step stops at the event that reached it,
// even within a frame: it rests on the world the step's words were
// written for, and every claim the words make is true there.
func TestAdvanceStopsWhereAStepIsReached(t *testing.T) {
	for _, id := range scenarios.IDs() {
		s := playing(t, id)
		r := s.Scenario()
		end := r.ScriptEndUs()
		stops := 0
		for s.NowUs() < end && !r.Tracker().Done() {
			goal := r.Tracker().Step() + 1
			to := min(s.NowUs()+250_000, end)
			stopped, err := s.Advance(to, goal)
			require.NoError(t, err, id)
			if !stopped {
				require.Equal(t, to, s.NowUs(), "%s: a frame with no step runs to its end", id)
				require.Less(t, r.Tracker().Step(), goal, id)
				continue
			}
			stops++
			require.GreaterOrEqual(t, r.Tracker().Step(), goal, "%s: stopped short of step %d", id, goal)
			ms, ok := r.Tracker().ReachedAtMs(goal)
			require.True(t, ok)
			require.Equal(t, ms, float64(s.NowUs())/1000, "%s: stopped at another time than step %d came", id, goal)
			require.NoError(t, r.Tracker().Untrue(goal, s.World()), "%s, step %d", id, goal)
			// The script's actions due then may come before or after it.
			applied := len(s.World().Actions())
			require.LessOrEqual(t, applied, scriptBy(r, s.NowUs()), "%s: the script ran ahead of step %d", id, goal)
			require.GreaterOrEqual(t, applied, scriptBy(r, s.NowUs()-1), "%s: the script fell behind at step %d", id, goal)
		}
		require.Positive(t, stops, "%s: no step stopped the figure", id)
	}
}

// scriptBy is how many of r's script actions are due by virtual time us.
func scriptBy(r *Scenario, us int64) int {
	n := 0
	for _, x := range r.Spec().Autoplay() {
		if x.AtUs() <= us {
			n++
		}
	}
	return n
}

// scriptTimes are the virtual times, in milliseconds, of r's script
// actions.
func scriptTimes(r *Scenario) map[float64]bool {
	at := map[float64]bool{}
	for _, x := range r.Spec().Autoplay() {
		at[float64(x.AtUs())/1000] = true
	}
	return at
}

// A step an action of the script brings about is reached at the action,
// as in the scenario's own run of its script: the tracker sees the world
// right after each action.
func TestAStepAnActionBringsAboutIsReachedAtTheAction(t *testing.T) {
	checked := 0
	for _, id := range scenarios.IDs() {
		s := playing(t, id)
		_, res, err := s.Scenario().Spec().Run(1)
		require.NoError(t, err)
		playToEnd(t, s)
		got, acts := reachedAt(s), scriptTimes(s.Scenario())
		require.Len(t, got, len(res.ReachedAtMs), id)
		for k, ms := range res.ReachedAtMs {
			if k > 0 && acts[ms] {
				checked++
				require.Equal(t, ms, got[k], "%s, step %d", id, k)
			}
		}
	}
	require.Positive(t, checked)
}

// A script that fails stops playing, and the error says so; the world
// goes on without it.
func TestAFailingScriptStopsPlaying(t *testing.T) {
	base := raftcore.DefaultConfig()
	base.Nodes = 3
	r := NewScenario(&scenarios.Scenario{ID: "broken", Base: base, UntilMs: 1000,
		Steps:  []scenarios.Step{{Text: "start"}, {Text: "never", When: func(*scenarios.View) bool { return false }}},
		Script: []raftcore.Action{{AtMs: 100, Do: raftcore.DoCrash, Node: 7}}})
	r.SetAutoplay(true)
	s, err := New(r.Config(1), r, budget)
	require.NoError(t, err)
	_, err = s.Advance(500_000, -1)
	require.Error(t, err)
	require.False(t, r.Autoplay())
	stopped, err := s.Advance(800_000, -1)
	require.NoError(t, err)
	require.False(t, stopped)
	require.Equal(t, int64(800_000), s.NowUs())
}

// A frame that starts behind the head and ends past it replays the
// recorded run, then plays the script on from the head: an action due in
// between is applied at its time, as if the reader had never looked back.
func TestAFrameAcrossTheHeadPlaysTheScriptOn(t *testing.T) {
	straight := playing(t, "majority")
	_, err := straight.Advance(4_100_000, -1)
	require.NoError(t, err)
	require.Equal(t, scriptBy(straight.Scenario(), 4_100_000), len(straight.World().Actions()))

	s := playing(t, "majority")
	_, err = s.Advance(3_900_000, -1)
	require.NoError(t, err)
	s.GoTo(3_500_000)
	_, err = s.Advance(4_100_000, -1)
	require.NoError(t, err)
	require.Equal(t, len(straight.World().Actions()), len(s.World().Actions()), "a script action was skipped")
	require.Equal(t, straight.World().TraceHash(), s.World().TraceHash())
	require.NotNil(t, s.Sides(), "the script's split at 4 s")
}

// A reader stepping through a playing figure, a visible change or a
// notable moment at a time, meets its script where the figure's own play
// takes it: no step passes a scripted action by, and playing on finds
// every action of the script taken once, at its time.
func TestSteppingThroughAFigureTakesItsScript(t *testing.T) {
	for _, how := range []string{"step", "next mark"} {
		s := playing(t, "majority")
		script := s.Scenario().Spec().Autoplay()
		for i := 0; i < 2000 && s.NowUs() < script[len(script)-1].AtUs(); i++ {
			if how == "step" {
				s.Step()
			} else if _, ok := s.NextMark(); !ok {
				break
			}
			require.Equal(t, scriptBy(s.Scenario(), s.NowUs()), len(s.World().Actions()), "%s to %d µs", how, s.NowUs())
		}
		_, err := s.Advance(s.NowUs()+1_000_000, -1)
		require.NoError(t, err)
		require.Len(t, s.World().Actions(), len(script), how)
		for i, x := range s.World().Actions() {
			assert.Equal(t, script[i].Do, x.Do, how)
			assert.Equal(t, script[i].AtUs(), x.AtUs(), how)
		}
	}
}
