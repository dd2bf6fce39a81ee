package words

import "raftlab/raftcore"

// The words of the timing panels of the lesson's timeout and clock
// figures: the election counters, and each machine's clock against true
// time.

// The timing panels' titles, and the labels of the election counters.
const (
	TitleElections = "Elections"
	TitleClocks    = "Clocks"

	LabelElections     = "elections"
	LabelFailover      = "failover"
	LabelNoLeader      = "no leader"
	LabelLeaderChanges = "leader changes"
	LabelNetwork       = "network"
	// NoLeaderCrashed is the failover counter before any leader crashed.
	NoLeaderCrashed = "no leader crashed"
)

// LabelsWidth is the label the election counters' values are set after:
// the widest, and a space.
const LabelsWidth = LabelLeaderChanges + " "

// ElectionCount says how many elections were held, after how many
// pre-votes.
func ElectionCount(elections, preVotes int) string {
	return Itoa(elections) + ", after " + Itoa(preVotes) + " pre-votes"
}

// Leaderless says how long the cluster went without a leader, of how long
// it has run.
func Leaderless(us, of int64) string { return Ms(us) + " of " + Ms(of) }

// Network says a link's delay and loss.
func Network(l raftcore.Link) string {
	s := Ms(l.LatencyMinUs) + " to " + Ms(l.LatencyMaxUs)
	if l.Loss > 0 {
		s += ", " + Percent(l.Loss) + " lost"
	}
	return s
}

// TrueTime heads the clocks panel: the true time, and the offset at which
// the operators are alerted.
func TrueTime(now, alertUs int64) string {
	return "True time " + Clock(now) + ". Alert when a clock is off by more than " + Ms(alertUs) + "."
}

// ClockLine says how far a machine's clock is from true time (offset µs),
// whether that alerts, how fast it runs, and, for a leader, when its lease
// runs out in true time (lease < 0: it has none).
func ClockLine(offset int64, alert bool, drift float64, lease int64) string {
	s := offsetWords(offset)
	if alert {
		s += ", alert"
	}
	if drift != 1 {
		s += " (runs at " + Factor(drift) + ")"
	}
	if lease >= 0 {
		s += "; leads, lease to " + Clock(lease)
	}
	return s
}

// offsetWords says how far a clock is from true time.
func offsetWords(us int64) string {
	switch {
	case us == 0:
		return "exact"
	case us < 0:
		return Ms(-us) + " behind"
	}
	return Ms(us) + " ahead"
}

// ClockBadge is the tag over a machine whose clock drifts, and by how much
// it is off when that is a millisecond or more.
func ClockBadge(drift float64, offset int64, showOffset bool) string {
	s := "clock " + Factor(drift)
	if showOffset {
		s += " " + Ms(offset)
	}
	return s
}

// ClockBadgeShort is the clock's tag where the whole one does not fit: how
// far off it is, which is what alarms (the rate is in the Clocks panel).
func ClockBadgeShort(offset int64) string { return "clock " + Ms(offset) }

// LeaseTo says when, in true time, a leader's lease runs out.
func LeaseTo(end int64) string { return "lease to " + Clock(end) }
