package raftcore

import "sort"

// A run's cost, known before running it.
//
// What a run costs to simulate grows with how often its machines' clocks
// tick: every tick of a leader sends a heartbeat to each follower, and
// each is answered. Client requests and faults add to it, but each is an
// action, written down in the run. So the number of ticks a run asks for,
// counted from its configuration and actions alone, measures what opening
// a run someone else wrote will cost, before anything runs: a share link
// a few hundred characters long can ask for an hour of nine machines
// ticking every millisecond, and be refused at once rather than after a
// minute of replaying (timeline's links are limited this way).

// MachineTicks is how many clock ticks a run of cfg with these actions, up
// to untilUs, asks of its machines in all: each machine ticks every TickMs
// of its own clock, which "drift" actions speed up or slow down. Crashes
// and pauses are not subtracted: it is an upper bound. Actions that are not
// valid for cfg are not counted; validating them is the caller's part.
func MachineTicks(cfg Config, actions []Action, untilUs int64) float64 {
	if cfg.TickMs < 1 || untilUs <= 0 {
		return 0
	}
	drifts := make([]Action, 0, len(actions))
	for _, a := range actions {
		if a.Do == DoDrift && a.Node >= 1 && a.Node <= cfg.Nodes && a.Rate > 0 {
			drifts = append(drifts, a)
		}
	}
	// In the order Play applies them: by time, stable for equal times.
	sort.SliceStable(drifts, func(i, j int) bool { return drifts[i].AtMs < drifts[j].AtMs })
	rate := make([]float64, cfg.Nodes+1)
	since := make([]int64, cfg.Nodes+1)
	for i := range rate {
		rate[i] = 1
	}
	var clockUs float64 // every machine's clock time, added up
	for _, a := range drifts {
		at := min(max(a.AtUs(), 0), untilUs)
		clockUs += rate[a.Node] * float64(at-since[a.Node])
		rate[a.Node], since[a.Node] = a.Rate, at
	}
	for id := 1; id <= cfg.Nodes; id++ {
		clockUs += rate[id] * float64(untilUs-since[id])
	}
	return clockUs / (float64(cfg.TickMs) * 1000)
}

// MachineTicks is the ticks the schedule's run asks for (see MachineTicks).
func (s Schedule) MachineTicks() float64 {
	return MachineTicks(s.Config(), s.Actions, msToUs(s.UntilMs))
}
