package raftcore

import "fmt"

// linearizable checks every finished client operation of a raft run
// against one order: the committed log. Each write and swap takes effect at
// its entry, each read at the applied index that answered it, and:
//
//   - a write's answer is what applying the log gives at its entry (ok, or
//     conflict with the revision found);
//   - a read saw the key as the log left it at the index it was served at;
//   - if an operation finished before another began, the first's point in
//     the log is no later than the second's (strictly earlier between two
//     writes).
//
// That is linearizability of each operation on a register per key, with the
// log order as the witness. It does not need porcupine's search, because the
// engine records where each operation took effect.
func linearizable(w *World) error {
	var log *Node
	for id := NodeID(1); int(id) <= w.Size(); id++ {
		if n := w.Node(id); log == nil || n.commit > log.commit {
			log = n
		}
	}
	// state[i] is the key's value and revision after index i, kept as a
	// list of changes per key.
	type change struct {
		index uint64
		value string
		found bool
	}
	changes := map[string][]change{}
	revAt := func(key string, i uint64) (string, uint64, bool) {
		var c change
		for _, ch := range changes[key] {
			if ch.index > i {
				break
			}
			c = ch
		}
		if !c.found {
			return "", 0, false
		}
		return c.value, c.index, true
	}
	type point struct{ index, sub uint64 }
	at := map[int]point{}
	for i := uint64(1); i <= log.commit; i++ {
		e := log.log.entry(i)
		d := e.Data
		if d.Kind == OpPut || d.Kind == OpDelete {
			_, prev, _ := revAt(d.Key, i-1)
			took := !(d.Kind == OpPut && d.Cas && prev != d.BasedOn)
			if op, ok := w.Op(d.OpID); ok && op.Done() && op.Result != OpTimeout && op.Result != OpRefused {
				if op.Index != i {
					return fmt.Errorf("op %d says it was applied at %d; the log has it at %d", op.ID, op.Index, i)
				}
				if want := map[bool]OpResult{true: OpOK, false: OpConflict}[took]; op.Result != want {
					return fmt.Errorf("op %d ended %s; applying the log gives %s", op.ID, op.Result, want)
				}
				if !took && op.FoundRev != prev {
					return fmt.Errorf("op %d found revision %d; the log has the key at %d", op.ID, op.FoundRev, prev)
				}
			}
			if took {
				changes[d.Key] = append(changes[d.Key], change{index: i, value: d.Value, found: d.Kind == OpPut})
			}
			at[d.OpID] = point{index: i, sub: 1}
		}
	}
	ops := w.Ops()
	for _, op := range ops {
		if op.Result != OpOK || op.Kind != DoRead || op.Mode == ReadLocal {
			continue
		}
		v, r, found := revAt(op.Key, op.ReadAt)
		if v != op.ReadValue || r != op.ReadRev || found != op.ReadFound {
			return fmt.Errorf("read %d saw %q at revision %d; the log at %d has %q at %d", op.ID, op.ReadValue, op.ReadRev, op.ReadAt, v, r)
		}
		// A read takes effect after the entries it saw: between index
		// ReadAt and ReadAt+1.
		at[op.ID] = point{index: op.ReadAt, sub: 2}
	}
	for _, a := range ops {
		pa, ok := at[a.ID]
		if !ok || !a.Done() || a.Result == OpTimeout || a.Result == OpRefused {
			continue
		}
		for _, b := range ops {
			pb, ok := at[b.ID]
			if !ok || a.ID == b.ID || !a.FinishedBefore(b) {
				continue
			}
			// a finished before b began.
			if pa.index > pb.index || (pa.index == pb.index && pa.sub > pb.sub) {
				return fmt.Errorf("op %d finished before op %d began, yet takes effect after it (%v > %v)", a.ID, b.ID, pa, pb)
			}
		}
	}
	return nil
}
