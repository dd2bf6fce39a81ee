package scene

import (
	"testing"

	"github.com/stretchr/testify/require"

	"raftlab/raftcore"
)

// TestAnIgnoredVoteRequestFallsWithItsReason: a machine that stops hearing
// the leader (the link from the leader cut one way) asks the others for
// pre-votes; they still hear the leader and ignore it. The request falls
// at its receiver with the reason beside it, where otherwise it would
// vanish on arrival.
func TestAnIgnoredVoteRequestFallsWithItsReason(t *testing.T) {
	l := freeLab(t, 5, 1280, 800)
	lead := l.untilLeader(t)
	deaf := (lead + 2) % 5
	l.act(t, raftcore.Action{Do: raftcore.DoCut, From: lead + 1, To: deaf + 1, OneWay: true})
	ignored := func() bool {
		for _, e := range l.Session.World().Trace() {
			if e.Kind == raftcore.TraceDeliver && e.Cause == raftcore.CauseLeaderAlive {
				return true
			}
		}
		return false
	}
	for k := 0; k < 1000 && !ignored(); k++ {
		l.run(t, l.Session.NowUs()+5_000)
	}
	require.True(t, ignored(), "no pre-vote was ignored")
	l.run(t, l.Session.NowUs()+50_000)
	f := l.build()
	for _, m := range f.Messages {
		if m.Fall > 0 && m.From == deaf && m.Label.Text != "" {
			require.Equal(t, "pre-vote ignored: leader alive", m.Label.Text)
			return
		}
	}
	t.Fatal("no ignored pre-vote fell with its reason")
}
