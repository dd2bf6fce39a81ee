package indepcheck

import "raftlab/raftcore"

// replayed is a store rebuilt from a log, written here from the meaning of
// the commands rather than with raftcore's state machine.
type replayed struct {
	values map[string]string
	// modIndex is the index of the entry that last changed each key.
	modIndex map[string]uint64
	// effects counts, by client operation, the entries that changed the
	// store on its behalf.
	effects map[int]int
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
// waits for.
func replay(entries []raftcore.Entry) replayed {
	r := replayed{values: map[string]string{}, modIndex: map[string]uint64{}, effects: map[int]int{}}
	clients := map[raftcore.NodeID]*clientSeen{}
	for _, e := range entries {
		d := e.Data
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
		if d.Kind == raftcore.OpPut {
			r.values[d.Key] = d.Value
		} else {
			delete(r.values, d.Key)
		}
		r.modIndex[d.Key] = e.Index
		if d.OpID != 0 {
			r.effects[d.OpID]++
		}
	}
	return r
}
