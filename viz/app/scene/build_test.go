package scene

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"raftlab/raftcore"
	"raftlab/viz"
	"raftlab/viz/app/view"
	"raftlab/viz/frame"
)

// partsState is what the parts hold that a frame could change.
type partsState struct {
	View, Clock, Stage any
	Now, Head          int64
	Trace              uint64
	Told               any
	Shown, Step        int
}

func (l *lab) state() partsState {
	st := partsState{View: *l.View, Clock: *l.Clock, Stage: *l.Stage, Now: l.Session.NowUs(), Head: l.Session.HeadUs(),
		Trace: l.World().TraceHash(), Told: *l.Session.Told(), Shown: -1, Step: -1}
	if r := l.Session.Scenario(); r != nil {
		st.Shown, st.Step = r.Shown(), r.Tracker().Step()
	}
	return st
}

// plain is f as plain data, with no difference between an empty list and
// none (a builder reuses its buffers, a fresh one has none).
func plain(t *testing.T, f *frame.Frame) any {
	t.Helper()
	data, err := json.Marshal(f)
	require.NoError(t, err)
	var v any
	require.NoError(t, json.Unmarshal(data, &v))
	var strip func(v any) any
	strip = func(v any) any {
		switch v := v.(type) {
		case []any:
			if len(v) == 0 {
				return nil
			}
			for i := range v {
				v[i] = strip(v[i])
			}
		case map[string]any:
			for k := range v {
				v[k] = strip(v[k])
			}
		}
		return v
	}
	return strip(v)
}

// firstDifference is where a and b first differ ("" if nowhere).
func firstDifference(path string, a, b any) string {
	am, aok := a.(map[string]any)
	bm, bok := b.(map[string]any)
	if aok && bok {
		for _, k := range slices.Sorted(maps.Keys(am)) {
			if d := firstDifference(path+"."+k, am[k], bm[k]); d != "" {
				return d
			}
		}
	}
	al, aok := a.([]any)
	bl, bok := b.([]any)
	if aok && bok && len(al) == len(bl) {
		for i := range al {
			if d := firstDifference(fmt.Sprintf("%s[%d]", path, i), al[i], bl[i]); d != "" {
				return d
			}
		}
		return ""
	}
	if !reflect.DeepEqual(a, b) {
		return fmt.Sprintf("%s: %v, then %v", path, a, b)
	}
	return ""
}

// buildsPurely builds l's frame twice, and once more with a fresh
// builder, and fails unless the frames are equal and the parts as they
// were.
func buildsPurely(t *testing.T, l *lab, what string) {
	t.Helper()
	l.settle()
	before := l.state()
	first := plain(t, l.b.Build(l.Parts, 7))
	second := plain(t, l.b.Build(l.Parts, 7))
	fresh := plain(t, New(nil).Build(l.Parts, 7))
	require.Empty(t, firstDifference("frame", first, second), "%s: building twice made two frames", what)
	require.Empty(t, firstDifference("frame", first, fresh), "%s: a fresh builder made another frame", what)
	after := l.state()
	require.True(t, reflect.DeepEqual(before, after), "%s: building changed the parts:\n%+v\n%+v", what, before, after)
}

func TestBuildingAFreePlayFrameChangesNothing(t *testing.T) {
	l := freeLab(t, 5, 1280, 800)
	buildsPurely(t, l, "a fresh world")
	lead := l.untilLeader(t)
	l.act(t, raftcore.Action{Do: raftcore.DoWrite, Node: lead + 1, Key: "k", Value: "v"})
	l.run(t, l.Session.NowUs()+30_000)
	buildsPurely(t, l, "messages on the wire")

	l.View.Select(lead, true)
	l.View.OpenMenu(view.Menu{Kind: view.MenuNode, Node: lead})
	l.View.SetLegend(true)
	l.View.SetHover(l.Stage.Layout().Nodes[(lead+1)%5].Center, true)
	buildsPurely(t, l, "a machine selected, its menu, the key and a hover")

	l.act(t, raftcore.Action{Do: raftcore.DoPartition, Groups: [][]int{{1, 2}, {3, 4, 5}}})
	l.run(t, l.Session.NowUs()+500_000)
	l.View.OpenMenu(view.Menu{Kind: view.MenuMain})
	buildsPurely(t, l, "a partition, the setup menu")

	l.Session.GoTo(l.Session.NowUs() / 2)
	l.View.SetHelp(true)
	buildsPurely(t, l, "the past, the help")
	require.NotNil(t, l.build().Help)

	// What the parts no longer show, the next frame does not show.
	l.View.SetHelp(false)
	l.View.Dismiss()
	f := l.build()
	require.Nil(t, f.Help)
	require.Nil(t, f.Menu)
	require.Nil(t, f.Legend)
}

func TestBuildingAFiguresFrameChangesNothing(t *testing.T) {
	for _, size := range [][2]float64{{720, 450}, {350, 560}} {
		l := figureLab(t, "majority", size[0], size[1])
		r := l.Session.Scenario()
		for _, at := range []int64{0, 4_500_000, 9_000_000, r.ScriptEndUs()} {
			l.run(t, at)
			r.Show(r.Latest())
			buildsPurely(t, l, fmt.Sprintf("majority at %v, %.1f s", size, float64(at)/1e6))
		}
		l.View.SetTab(viz.PanelClient)
		buildsPurely(t, l, fmt.Sprintf("majority at %v, the client tab", size))
	}
}
