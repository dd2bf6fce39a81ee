package app

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"

	"raftlab/scenarios"
	"raftlab/viz"
	"raftlab/viz/app/command"
	"raftlab/viz/app/session"
)

// partsState is what the parts hold that a reader could see change: the
// reader's choices, the clock, the stage and its layout, and the run.
type partsState struct {
	View, Clock, Stage any
	Now, Head          int64
	Trace              string
	Snapshot           []byte
}

func stateOf(t *testing.T, a *App) partsState {
	t.Helper()
	snap, err := a.SnapshotJSON()
	require.NoError(t, err)
	return partsState{View: *a.view, Clock: *a.clock, Stage: *a.stage, Now: a.session.NowUs(), Head: a.session.HeadUs(),
		Trace: fmt.Sprint(a.World().TraceHash()), Snapshot: snap}
}

// buildTwice builds the frame of a's parts twice and fails unless both
// frames are equal and the parts are as they were.
func buildTwice(t *testing.T, a *App, what string) {
	t.Helper()
	a.Frame() // the snapshot reads the frame: build it once first
	before := stateOf(t, a)
	first, err := json.Marshal(a.builder.Build(a.parts(), a.version))
	require.NoError(t, err)
	second, err := json.Marshal(a.builder.Build(a.parts(), a.version))
	require.NoError(t, err)
	require.JSONEq(t, string(first), string(second), "%s: building twice made two frames", what)
	after := stateOf(t, a)
	require.True(t, reflect.DeepEqual(before.View, after.View), "%s: building a frame changed the view", what)
	require.True(t, reflect.DeepEqual(before.Clock, after.Clock), "%s: building a frame changed the clock", what)
	require.True(t, reflect.DeepEqual(before.Stage, after.Stage), "%s: building a frame changed the stage", what)
	require.Equal(t, before.Now, after.Now, what)
	require.Equal(t, before.Trace, after.Trace, what)
	require.JSONEq(t, string(before.Snapshot), string(after.Snapshot), "%s: building a frame changed the app", what)
}

// TestBuildingAFrameChangesNothing builds every figure's frames twice, at
// a page's column and on a phone, as it opens, at every step and at its
// end, with a menu open, and finds the frames equal and the app as it was.
func TestBuildingAFrameChangesNothing(t *testing.T) {
	for _, id := range scenarios.IDs() {
		for _, size := range [][2]float64{{720, 450}, {350, 560}} {
			p := viz.DefaultParams()
			p.Scenario, p.Embed = id, true
			a, err := New(Options{Params: p, Width: size[0], Height: size[1], Scenarios: session.BuiltinScenarios()})
			require.NoError(t, err)
			where := fmt.Sprintf("%s at %vx%v", id, size[0], size[1])
			buildTwice(t, a, where+", opening")
			var c hostClock
			for k := 0; k < 12 && !a.scen().ShownDone(); k++ {
				require.NoError(t, a.Do(command.PlayStep{}))
				for i := 0; i < 2000 && !a.Paused(); i++ {
					c.run(a, 100e6)
				}
				buildTwice(t, a, fmt.Sprintf("%s, step %d", where, a.scen().Step()+1))
			}
			require.NoError(t, a.Do(command.OpenMachine{Node: 0}))
			buildTwice(t, a, where+", a machine's menu open")
		}
	}
	a := newApp(t, 5, 1280, 800)
	var c hostClock
	untilLeader(t, a, &c)
	buildTwice(t, a, "free play")
	require.NoError(t, a.Do(command.ShowLegend{On: true}))
	require.NoError(t, a.Do(command.OpenSetup{}))
	buildTwice(t, a, "free play with the key and the setup open")
}
