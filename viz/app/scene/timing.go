package scene

import (
	"raftlab/raftcore"
	"raftlab/scenarios"
	"raftlab/viz/frame"
	"raftlab/viz/words"
)

// The timing panels of the lesson's timeout, clock and lease figures.
// Each takes the place of the Node panel: the election counters (how
// often machines stood, how long the cluster went without a leader, how
// long a crashed leader took to replace), the clocks (each machine's
// offset from true time, as a time-sync alert sees it, and the leader's
// lease) and the node Leases (workers.go).

// AlertOffsetUs is the offset at which the lesson's operators are alerted.
const AlertOffsetUs = 100_000

// timingPanel is the timing panel the scenario shows, if any; a world
// with worker machines shows their Leases.
func (b *Builder) timingPanel() (scenarios.Panel, bool) {
	if b.scen() != nil {
		for _, p := range b.scen().Spec().UI.Panels {
			if p == scenarios.PanelElections || p == scenarios.PanelClocks || p == scenarios.PanelLeases {
				return p, true
			}
		}
	}
	if b.cfg().Workers > 0 {
		return scenarios.PanelLeases, true
	}
	return "", false
}

// timingTitle is the Node panel's title while it shows a timing panel.
func (b *Builder) timingTitle() (string, bool) {
	switch p, _ := b.timingPanel(); p {
	case scenarios.PanelElections:
		return words.TitleElections, true
	case scenarios.PanelClocks:
		return words.TitleClocks, true
	case scenarios.PanelLeases:
		return words.LeasesTitle, true
	}
	return "", false
}

// timingSection writes the scenario's timing panel, if it has one, and
// reports whether it did.
func (b *Builder) timingSection(wr *writer) bool {
	switch p, _ := b.timingPanel(); p {
	case scenarios.PanelElections:
		b.electionsSection(wr)
	case scenarios.PanelClocks:
		b.clocksSection(wr)
	case scenarios.PanelLeases:
		b.leasesSection(wr)
	default:
		return false
	}
	return true
}

// pair writes a muted label and its value beside it, at in from the left.
func (wr *writer) pair(label, value string, tone frame.Tone, in float64) {
	start := len(wr.lines)
	wr.lines = append(wr.lines, frame.TextItem{Text: label, X: wr.x, Y: wr.y, Size: SizeBody, Tone: frame.ToneMuted})
	wr.indent(value, SizeBody, tone, false, in)
	wr.paras[len(wr.paras)-1] = start // the label begins the paragraph
}

func (b *Builder) electionsSection(wr *writer) {
	w := b.World()
	s := b.scen().Tracker().Elections(0, w.Now())
	in := b.Measure(words.LabelsWidth, SizeBody) + 4
	wr.pair(words.LabelElections, words.ElectionCount(s.Elections, s.PreVotes), frame.ToneText, in)
	failover, tone := words.NoLeaderCrashed, frame.ToneMuted
	if n := len(s.FailoversUs); n > 0 {
		failover, tone = words.Ms(s.FailoversUs[n-1]), frame.ToneText
	}
	wr.pair(words.LabelFailover, failover, tone, in)
	wr.pair(words.LabelNoLeader, words.Leaderless(s.LeaderlessUs, w.Now()), frame.ToneText, in)
	wr.pair(words.LabelLeaderChanges, words.Itoa(s.LeaderChanges), frame.ToneText, in)
	if w.Size() > 1 {
		wr.pair(words.LabelNetwork, words.Network(w.Link(1, 2)), frame.ToneText, in)
	}
}

func (b *Builder) clocksSection(wr *writer) {
	w := b.World()
	wr.text(words.TrueTime(w.Now(), AlertOffsetUs), SizeBody, frame.ToneText, false)
	in := 0.0
	for i := 0; i < w.Size(); i++ {
		in = max(in, b.Measure(b.cfg().Name(nodeID(i))+" ", SizeBody)+4)
	}
	for i := 0; i < w.Size(); i++ {
		id := nodeID(i)
		off := w.ClockOffsetUs(id)
		alert := abs(off) > AlertOffsetUs
		tone := frame.ToneText
		if alert {
			tone = frame.ToneBad
		}
		lease := int64(-1)
		if end, ok := w.LeaderLeaseEnd(id); ok {
			lease = end
		}
		wr.pair(b.cfg().Name(id), words.ClockLine(off, alert, w.Drift(id), lease), tone, in)
	}
}

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// clockBadge is the tag over a machine whose clock drifts or is off, its
// short form where that has one, and how alarming it is.
func clockBadge(w *raftcore.World, id raftcore.NodeID) (text, short string, tone frame.Tone, ok bool) {
	d, off := w.Drift(id), w.ClockOffsetUs(id)
	if d == 1 && off == 0 {
		return "", "", frame.ToneText, false
	}
	showOffset := abs(off) >= 1000
	text, tone = words.ClockBadge(d, off, showOffset), frame.ToneWarn
	if showOffset {
		short = words.ClockBadgeShort(off)
	}
	if abs(off) > AlertOffsetUs {
		tone = frame.ToneBad
	}
	return text, short, tone, true
}

// leaseWords are the words under a leader in the clock figure, which is
// about how long a leader trusts its lease: when, in true time, it runs
// out.
func (b *Builder) leaseWords(id raftcore.NodeID) (string, bool) {
	if p, _ := b.timingPanel(); p != scenarios.PanelClocks {
		return "", false
	}
	end, ok := b.World().LeaderLeaseEnd(id)
	if !ok {
		return "", false
	}
	return words.LeaseTo(end), true
}
