package raftcore

import "fmt"

// The lost update. Raft's rules are about the history: one order of
// entries, the same on every machine. A client that reads an object,
// computes a new value and writes it back can lose someone else's change
// while every one of those rules holds: the write is ordered, committed by
// a majority and applied everywhere the same, yet the value it replaced is
// not the one it read. The checker names this as a finding of its own,
// apart from the violations, because consensus does not promise to prevent
// it: a revision check on the write (compare-and-swap) does.

// RuleLostUpdate names the lost-update finding. It is not one of the rules
// Violations reports.
const RuleLostUpdate Rule = "lost-update"

// Finding is a lost update: a read-modify-write whose entry replaced a
// revision of the key other than the one its value was computed from.
type Finding struct {
	Rule Rule  `json:"rule"`
	AtUs int64 `json:"at_us"`
	// Op is the write that overwrote; Controller the controller that made
	// it (0 if none).
	Op         int    `json:"op"`
	Controller int    `json:"controller,omitempty"`
	Key        string `json:"key"`
	// Index is where the write was applied; ReadRev the revision it was
	// computed from; OverwroteRev the revision it replaced.
	Index        uint64 `json:"index"`
	ReadRev      uint64 `json:"read_rev"`
	OverwroteRev uint64 `json:"overwrote_rev"`
	// LostOp is the write that made OverwroteRev, whose change was lost
	// unseen (0 if it was no client's), and LostValue what it wrote.
	LostOp    int    `json:"lost_op,omitempty"`
	LostValue string `json:"lost_value,omitempty"`
	Text      string `json:"text"`
}

// onLostUpdate checks a read-modify-write the first time its entry is
// applied anywhere: every machine applies the same entry to the same
// state, so the first answer is everyone's.
func (c *checker) onLostUpdate(e Entry, did applied) {
	d := e.Data
	// A compare-and-swap that took effect found the revision it read, so
	// only a broken engine lets one through here; it is checked the same
	// way so that such an engine is caught.
	if !d.Based || e.Data.Kind != OpPut || !did.changed() || did.PrevRev == d.BasedOn {
		return
	}
	f := Finding{Rule: RuleLostUpdate, AtUs: c.w.now, Op: d.OpID, Key: d.Key, Index: e.Index,
		ReadRev: d.BasedOn, OverwroteRev: did.PrevRev}
	who := "a write"
	if id := c.w.controllerOf(d.OpID); id != 0 {
		f.Controller = id
		who = c.w.cfg.ControllerName(id) + "'s write"
	}
	if r := did.PrevRev; r > c.base && r <= c.base+uint64(len(c.applied)) {
		lost := c.applied[r-c.base-1].data
		f.LostOp, f.LostValue = lost.OpID, lost.Value
	}
	lost := fmt.Sprintf("the change made at revision %d", f.OverwroteRev)
	if f.LostValue != "" {
		lost = fmt.Sprintf("the change made at revision %d (%s)", f.OverwroteRev, f.LostValue)
	}
	f.Text = fmt.Sprintf("%s to %s at index %d was computed from revision %d but replaced revision %d: %s was overwritten without being seen",
		who, d.Key, e.Index, f.ReadRev, f.OverwroteRev, lost)
	c.lostUpdates++
	if len(c.findings) < maxViolations {
		c.findings = append(c.findings, f)
	}
}

// Findings returns the lost updates found so far (the first 200), in the
// order their writes were applied. They are not violations: every Raft
// rule can hold while an update is lost.
func (w *World) Findings() []Finding { return capped(w.checker.findings) }

// LostUpdates counts every lost update found so far.
func (w *World) LostUpdates() int { return w.checker.lostUpdates }
