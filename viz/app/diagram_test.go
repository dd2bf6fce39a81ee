package app

import (
	"fmt"
	"raftlab/viz"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestDiagramLightsTheLatestTransition: the role diagram says which machine
// moved last, between which roles and why, and lights that arrow; a
// machine restarting as a follower moves along no arrow.
func TestDiagramLightsTheLatestTransition(t *testing.T) {
	a := newApp(t, 5, 1280, 800)
	c := &hostClock{}
	lead := untilLeader(t, a, c)
	c.run(a, time.Second)
	f, g := (lead+1)%5, (lead+2)%5
	act := func(do string, i int) {
		t.Helper()
		require.NoError(t, a.Act(fmt.Appendf(nil, `{"do":%q,"node":%d}`, do, i+1)))
	}
	check := func(after string) {
		t.Helper()
		d := a.builder.PanelContent(a.parts(), viz.PanelNode, 400).Diagram
		require.Equal(t, a.cfg().Name(nodeID(f))+": follower → pre-candidate (forced timeout)", d.Last.Text, after)
		var hot []string
		for _, ar := range d.Arrows {
			if ar.Hot {
				hot = append(hot, ar.Label.Text)
			}
		}
		for _, b := range d.Boxes {
			if b.Hot {
				hot = append(hot, b.Label.Text)
			}
		}
		require.Equal(t, []string{"timeout", "Pre-candidate"}, hot, after)
	}
	act("timeout", f)
	check("a forced timeout")
	act("crash", g)
	act("restart", g)
	check("a restart")
}
