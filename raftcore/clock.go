package raftcore

// Each machine keeps a clock of its own. A drifting clock ("drift") runs
// at a rate other than real time, and the offset it builds up is what an
// operator's time-sync alert watches: the machine's time minus true time.
// The offset is the sum, over the time since the world began, of how much
// faster or slower than real time the clock ran; it is kept as a base (the
// offset when the rate last changed) so that reading it costs nothing.

import "raftlab/raftcore/quorum"

// ClockOffsetUs is how far machine id's clock is ahead of true time, in
// microseconds (negative: behind). A clock that never drifted is exact.
func (w *World) ClockOffsetUs(id NodeID) int64 {
	if id < 1 || int(id) > w.cfg.Machines() {
		return 0
	}
	m := &w.machines[id]
	return m.offsetUs + driftUs(w.now-m.offsetAt, m.drift)
}

// driftUs is what a clock running at rate gains over elapsed true time.
func driftUs(elapsed int64, rate float64) int64 {
	gain := float64(float64(elapsed)*rate) - float64(elapsed) // no fused multiply-add: see msToUs
	if gain >= 0 {
		return int64(gain + 0.5)
	}
	return int64(gain - 0.5)
}

// setDrift changes machine id's clock rate from now on, keeping the offset
// it has built up so far.
func (w *World) setDrift(id NodeID, rate float64) {
	m := &w.machines[id]
	m.offsetUs = w.ClockOffsetUs(id)
	m.offsetAt = w.now
	m.drift = rate
}

// LeaderLeaseEnd is the true time until which machine id, a leader, would
// keep answering lease reads if it heard nothing more from its followers:
// the CheckQuorum check that would find no majority and make it step down.
// That check counts ticks of the leader's own clock, so a clock that runs
// slow stretches the lease in true time. ok is false when the machine does
// not lead, is not running, or runs without CheckQuorum (it holds no lease).
func (w *World) LeaderLeaseEnd(id NodeID) (us int64, ok bool) {
	if id < 1 || int(id) > w.cfg.Nodes {
		return 0, false
	}
	m := &w.machines[id]
	n := w.nodes[id]
	if m.status != StatusUp || n.role != RoleLeader || !n.cfg.checkQuorum || n.cfg.protocol != ProtocolRaft {
		return 0, false
	}
	e := n.cfg.electionTicks
	tick := w.tickUs(id)
	check := m.nextTick + int64(e-n.electionElapsed-1)*tick
	if n.quorumActive() {
		// The next check passes on what was already heard; the one after
		// it is the first that can fail.
		check += int64(e) * tick
	}
	return check, true
}

// quorumActive reports whether a majority, the leader included, has been
// heard from since the leader's last CheckQuorum check.
func (n *Node) quorumActive() bool {
	return n.conf.voters.VoteResult(func(id quorum.ID) (active, counted bool) {
		return NodeID(id) == n.ID || n.prs[id].RecentActive, true
	}) == quorum.VoteWon
}
