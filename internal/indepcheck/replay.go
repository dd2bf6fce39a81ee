package indepcheck

import "raftlab/raftcore"

// replayed is a store rebuilt from a log, written here from the meaning of
// the commands rather than with raftcore's state machine.
type replayed struct {
	values map[string]string
	// modIndex is each present key's revision: the index of the entry
	// that last changed it (etcd's mod revision). An absent key has none,
	// which a compare-and-swap reads as 0.
	modIndex map[string]uint64
	// effects counts, by client operation, the entries that changed the
	// store on its behalf.
	effects map[int]int
	// revBefore is, for each entry in order, its key's revision just
	// before it (0 for an entry without a key); changed whether it
	// changed the store.
	revBefore []uint64
	changed   []bool
}

// clientSeen is what the replay remembers of one client session: the
// sequence numbers applied and the highest low-water mark sent.
type clientSeen struct {
	applied map[uint64]bool
	low     uint64
}

// replay applies entries in order. A write in a session (Client set) takes
// effect only if its sequence number was not applied before and is not
// below a low-water mark the client already sent, below which it has all
// its answers: a copy arriving that late is one the client no longer
// waits for. A compare-and-swap is an etcd transaction: if the key's
// revision is the one expected, put; otherwise nothing changes (the
// session still counts it: its answer, the conflict, is given).
func replay(entries []raftcore.Entry) replayed {
	r := replayed{values: map[string]string{}, modIndex: map[string]uint64{}, effects: map[int]int{}}
	clients := map[raftcore.NodeID]*clientSeen{}
	for _, e := range entries {
		d := e.Data
		r.revBefore = append(r.revBefore, r.modIndex[d.Key])
		r.changed = append(r.changed, false)
		if d.Kind != raftcore.OpPut && d.Kind != raftcore.OpDelete {
			continue
		}
		if d.Client != raftcore.None {
			s := clients[d.Client]
			if s == nil {
				s = &clientSeen{applied: map[uint64]bool{}}
				clients[d.Client] = s
			}
			if s.applied[d.Seq] || d.Seq < s.low {
				continue
			}
			s.applied[d.Seq] = true
			s.low = max(s.low, d.Low)
		}
		switch {
		case d.Kind == raftcore.OpPut && d.Cas && r.modIndex[d.Key] != d.BasedOn:
			continue
		case d.Kind == raftcore.OpPut:
			r.values[d.Key] = d.Value
			r.modIndex[d.Key] = e.Index
		default:
			delete(r.values, d.Key)
			delete(r.modIndex, d.Key)
		}
		r.changed[len(r.changed)-1] = true
		if d.OpID != 0 {
			r.effects[d.OpID]++
		}
	}
	return r
}
