package scene

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"raftlab/raftcore"
	"raftlab/viz"
	"raftlab/viz/app/clock"
	"raftlab/viz/app/session"
	"raftlab/viz/app/stage"
	"raftlab/viz/app/view"
	"raftlab/viz/frame"
)

// lab is a set of parts and a builder, wired as the app wires them.
type lab struct {
	Parts
	b *Builder
}

// newLab shows session s on a w×h canvas, in a page when embed.
func newLab(s *session.Session, w, h float64, embed bool) *lab {
	p := viz.DefaultParams()
	p.Embed = embed
	l := &lab{b: New(nil), Parts: Parts{Session: s, View: view.New(frame.ThemeLight), Stage: stage.New(w, h),
		Clock: clock.New(1), Params: p, Catalog: session.BuiltinScenarios(), Rec: viz.NewRecognizer(viz.GestureConfig{})}}
	l.settle()
	return l
}

// freeLab is a free-play cluster of n machines on a w×h canvas.
func freeLab(t *testing.T, n int, w, h float64) *lab {
	t.Helper()
	cfg := raftcore.DefaultConfig()
	cfg.Nodes, cfg.Names = n, session.MachineNames(n)
	s, err := session.New(cfg, nil, 100*time.Millisecond)
	require.NoError(t, err)
	return newLab(s, w, h, false)
}

// figureLab is the book's figure id embedded in a page on a w×h canvas,
// its script played by the session.
func figureLab(t *testing.T, id string, w, h float64) *lab {
	t.Helper()
	r, err := session.BuiltinScenarios().Get(id)
	require.NoError(t, err)
	r.SetAutoplay(true)
	s, err := session.New(r.Config(1), r, 100*time.Millisecond)
	require.NoError(t, err)
	return newLab(s, w, h, true)
}

// settle lays the stage out for the parts, as the app does after any
// change to them and before building a frame.
func (l *lab) settle() { l.Stage.Fit(l.b.StageInput(l.Parts)) }

// build settles the parts and builds their frame.
func (l *lab) build() *frame.Frame {
	l.settle()
	return l.b.Build(l.Parts, 1)
}

// run moves the world on to virtual time to, a frame at a time.
func (l *lab) run(t *testing.T, to int64) {
	t.Helper()
	for l.Session.NowUs() < to {
		_, err := l.Session.Advance(min(l.Session.NowUs()+33_333, to), -1)
		require.NoError(t, err)
		l.Session.Observed()
	}
	l.settle()
}

// act applies x to the world.
func (l *lab) act(t *testing.T, x raftcore.Action) {
	t.Helper()
	_, _, err := l.Session.Act(x)
	require.NoError(t, err)
	l.Session.Observed()
	l.settle()
}

// untilLeader runs the world until a machine leads, and returns it.
func (l *lab) untilLeader(t *testing.T) int {
	t.Helper()
	for k := 0; k < 100 && l.Session.Leader() < 0; k++ {
		l.run(t, l.Session.NowUs()+100_000)
	}
	require.GreaterOrEqual(t, l.Session.Leader(), 0, "no leader after 10 s")
	return l.Session.Leader()
}
