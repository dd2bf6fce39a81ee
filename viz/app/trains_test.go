package app

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"raftlab/raftcore"
	"raftlab/scenarios"
	"raftlab/viz/frame"
	"raftlab/viz/words"
)

// TestASlowLinkDrawsItsTrainApart: the notebook delayed under raft has a
// backlog of dozens of messages on each slow link. No two dots of one
// direction of a link are drawn over each other, and where dots are left
// out the lane says how many messages are on the way.
func TestASlowLinkDrawsItsTrainApart(t *testing.T) {
	s, err := scenarios.Get("notebooks")
	require.NoError(t, err)
	s, err = s.With("protocol", "raft")
	require.NoError(t, err)
	counted := false
	restAtEveryStep(t, s, 720, 450, func(a *App, what string) {
		f := a.Frame()
		lanes := map[[2]int][]frame.MsgView{}
		for _, m := range f.Messages {
			if m.Fall == 0 {
				lanes[[2]int{m.From, m.To}] = append(lanes[[2]int{m.From, m.To}], m)
			}
		}
		wire := map[[2]int]int{}
		for _, m := range a.World().InFlight() {
			if m.Type != raftcore.MsgClient {
				wire[[2]int{int(m.From) - 1, int(m.To) - 1}]++
			}
		}
		for lane, ms := range lanes {
			for i := range ms {
				for j := i + 1; j < len(ms); j++ {
					d := ms[i].Pos.Sub(ms[j].Pos).Len()
					assert.GreaterOrEqual(t, d, ms[i].R+ms[j].R, "%s: two dots of lane %v overlap", what, lane)
				}
			}
			for _, m := range ms {
				if strings.HasSuffix(m.Label.Text, words.OnTheWay(0)[1:]) {
					counted = true
					assert.Equal(t, words.OnTheWay(wire[lane]), m.Label.Text, "%s: lane %v", what, lane)
				}
			}
		}
	})
	assert.True(t, counted, "no lane says how many messages are on the way")
}
