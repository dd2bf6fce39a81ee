package indepcheck

import (
	"fmt"
	"strings"

	"raftlab/raftcore"
)

// Finish inspects the final states and checks the client history against
// the committed log: every acknowledged write is in it where it was
// acknowledged, no write took effect twice, every compare-and-swap was
// answered as the revisions in the log decide, and every linearizable or
// lease read returned what the committed log held at the index it read at
// (value and revision), an index that includes every write acknowledged
// before the read began.
//
// A lease read that misses such a write is classified, not excused
// wholesale: it is stale by design (and counted in StaleByDesign) only when
// a leader of a later term than the one that served it had been elected
// by the time it was answered, the window etcd's lease reads have too.
// Any other stale read is a violation. The history is then judged by
// porcupine as well (see checkLinearizable).
func (c *Checker) Finish() {
	c.Inspect()
	var log []raftcore.Entry
	for _, k := range c.committed {
		log = append(log, k.entry)
	}
	for op, n := range replay(log).effects {
		if n > 1 {
			c.report(fmt.Sprint(op), "exactly-once", "client write %d takes effect %d times in the committed log", op, n)
		}
	}
	ops := c.w.Ops()
	for _, op := range ops {
		if op.Kind == raftcore.DoRead || op.Result != raftcore.OpOK {
			continue
		}
		if op.Index == 0 || op.Index > uint64(len(log)) || log[op.Index-1].Data.OpID != op.ID {
			c.report(fmt.Sprint(op.ID), "durability", "write %d was acknowledged at index %d, which the committed log does not hold for it", op.ID, op.Index)
		}
	}
	rebuilt := replay(log)
	c.checkCreatedTwice(log, rebuilt.changed)
	revs := rebuilt.revBefore
	for _, op := range ops {
		if op.Cas && (op.Result == raftcore.OpOK || op.Result == raftcore.OpConflict) {
			c.checkCas(op, log, revs)
		}
	}
	for _, op := range ops {
		if op.Kind == raftcore.DoRead && op.Result == raftcore.OpOK && op.Mode != raftcore.ReadLocal {
			c.checkRead(op, ops, log)
		}
	}
	c.checkLinearizable(ops)
}

// checkCas: a compare-and-swap answered as etcd's transaction answers it.
// Its entry is in the committed log where it was answered, and the key's
// revision just before that entry, rebuilt here (revs, by entry), is the
// one it expected if it succeeded, and if it failed, another one: the one
// its client was told.
func (c *Checker) checkCas(op raftcore.Op, log []raftcore.Entry, revs []uint64) {
	if op.Index == 0 || op.Index > uint64(len(log)) || log[op.Index-1].Data.OpID != op.ID {
		// The durability check reports a success that is not there.
		if op.Result == raftcore.OpConflict {
			c.report(fmt.Sprint(op.ID), "compare-and-swap", "write %d failed its comparison at index %d, which the committed log does not hold for it", op.ID, op.Index)
		}
		return
	}
	rev := revs[op.Index-1]
	switch {
	case op.Result == raftcore.OpOK && rev != op.IfRev:
		c.report(fmt.Sprint(op.ID), "compare-and-swap", "write %d of %s expected revision %d and succeeded at index %d, but the key was at revision %d", op.ID, op.Key, op.IfRev, op.Index, rev)
	case op.Result == raftcore.OpConflict && (rev == op.IfRev || rev != op.FoundRev):
		c.report(fmt.Sprint(op.ID), "compare-and-swap", "write %d of %s expected revision %d and failed at index %d finding revision %d, but the key was at revision %d", op.ID, op.Key, op.IfRev, op.Index, op.FoundRev, rev)
	}
}

// checkCreatedTwice finds, in the committed log, a ReplicaSet created for
// a Deployment's template while another ReplicaSet of the same owner and
// template exists: what a non-idempotent reconcile does. It is not a rule
// of Raft, so it is listed apart (Reconcile), not among the violations.
func (c *Checker) checkCreatedTwice(log []raftcore.Entry, changed []bool) {
	type owned struct{ owner, template string }
	sets := map[string]owned{}
	for i, e := range log {
		d := e.Data
		if !changed[i] || !strings.HasPrefix(d.Key, "replicasets/") {
			continue
		}
		if d.Kind == raftcore.OpDelete {
			delete(sets, d.Key)
			continue
		}
		o := owned{valueField(d.Value, "owner"), valueField(d.Value, "template")}
		delete(sets, d.Key)
		first := ""
		for other, p := range sets {
			if p == o && o.owner != "" && (first == "" || other < first) {
				first = other
			}
		}
		if first != "" {
			c.reconcile = append(c.reconcile, Violation{Rule: "created-twice",
				Text: fmt.Sprintf("%s, created at index %d, is a second ReplicaSet of deployments/%s for template %s, beside %s", d.Key, e.Index, o.owner, o.template, first)})
		}
		sets[d.Key] = o
	}
}

// valueField reads field name of a value written "a=1 b=2".
func valueField(value, name string) string {
	for _, f := range strings.Fields(value) {
		if k, v, ok := strings.Cut(f, "="); ok && k == name {
			return v
		}
	}
	return ""
}

// Reconcile returns what Finish found that a controller did wrong but
// breaks no rule of Raft: objects created twice.
func (c *Checker) Reconcile() []Violation { return c.reconcile }

// StaleByDesign counts the lease reads Finish classified as stale by
// design.
func (c *Checker) StaleByDesign() int { return len(c.staleByDesign) }

func (c *Checker) checkRead(op raftcore.Op, ops []raftcore.Op, log []raftcore.Entry) {
	if op.ReadAt > uint64(len(log)) {
		c.report(fmt.Sprint(op.ID), "read-committed", "read %d answered from index %d, past the committed log (%d)", op.ID, op.ReadAt, len(log))
		return
	}
	r := replay(log[:op.ReadAt])
	want, found := r.values[op.Key]
	if rev := r.modIndex[op.Key]; found != op.ReadFound || want != op.ReadValue || rev != op.ReadRev {
		c.report(fmt.Sprint(op.ID), "read-value", "read %d of %s returned %q (found %v) at revision %d; the committed log up to index %d gives %q (found %v) at revision %d", op.ID, op.Key, op.ReadValue, op.ReadFound, op.ReadRev, op.ReadAt, want, found, rev)
		return
	}
	for _, w := range ops {
		if w.Kind == raftcore.DoRead || w.Key != op.Key || w.Result != raftcore.OpOK || !w.FinishedBefore(op) || w.Index <= op.ReadAt {
			continue
		}
		if op.Mode == raftcore.ReadLease && c.deposedBy(op) {
			c.staleByDesign[op.ID] = true
			return
		}
		c.report(fmt.Sprint(op.ID), "stale-read", "%s read %d of %s read at index %d, missing write %d acknowledged at index %d before the read began", op.Mode, op.ID, op.Key, op.ReadAt, w.ID, w.Index)
		return
	}
}

// deposedBy reports whether a leader of a term after the lease read's
// had been elected by the time the read was answered: before it in the
// trace, which orders events at one instant as well (every event of a run
// the explorer replays shares one instant).
func (c *Checker) deposedBy(read raftcore.Op) bool {
	for _, e := range c.elected {
		if e.AtUs > read.CompleteUs || (read.CompleteEvent != 0 && e.Seq > read.CompleteEvent) {
			break
		}
		if e.Term > read.ReadTerm {
			return true
		}
	}
	return false
}
