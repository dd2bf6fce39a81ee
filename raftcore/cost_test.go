package raftcore

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// A run's machine ticks are every machine's clock time over the tick
// length: a clock that drifts fast from halfway through ticks that much
// more, one slowed ticks less, and what drifts after the run's end or on
// no machine of the run does not count.
func TestMachineTicksCountEveryClock(t *testing.T) {
	cfg := DefaultConfig() // five machines, a tick every 100 ms
	require.InDelta(t, 5*36_000, MachineTicks(cfg, nil, 3600_000_000), 1e-6, "an hour of five machines")

	cfg.TickMs = 1
	require.InDelta(t, 5*3_600_000, MachineTicks(cfg, nil, 3600_000_000), 1e-6, "the same hour at 1 ms ticks")

	cfg.TickMs = 100
	actions := []Action{
		{AtMs: 5000, Do: DoDrift, Node: 2, Rate: 0.5}, // taken after the next, as Play orders them
		{AtMs: 500, Do: DoDrift, Node: 1, Rate: 3},
		{AtMs: 500, Do: DoDrift, Node: 1, Rate: 2}, // same time: the later one holds
		{AtMs: 9000, Do: DoDrift, Node: 7, Rate: 20},
		{AtMs: 20000, Do: DoDrift, Node: 3, Rate: 20},
	}
	// Ten seconds: machine 1 ticks 5 + 2*95, machine 2 50 + 0.5*50, the
	// others 100 each.
	require.InDelta(t, 5+190+50+25+3*100, MachineTicks(cfg, actions, 10_000_000), 1e-6)
	require.InDelta(t, 0, MachineTicks(cfg, actions, 0), 1e-6)

	s := Schedule{Nodes: 5, UntilMs: 10000, Actions: actions[:3]}
	require.InDelta(t, 5+190+50+25+3*100, s.MachineTicks(), 1e-6)
}
