package raftcore

import "slices"

// StateKey is a 64-bit hash of everything that decides what the world can
// do next while its clock stands still, so that an explorer which drives a
// world only by actions at one instant (raftcore/explore) can recognise a
// state it has already reached by another path.
//
// Two worlds get the same key when their machines, network and checker
// agree, even if they got there in different orders. Left out, because
// they cannot change what happens next at a standing clock or only name
// things: the clock and every timer's phase (ticks never come), each
// machine's randomized election timeout (only a tick reads it), the random
// source (it only draws latencies and timeouts), message ids and send or
// arrival times (messages in flight count as a multiset of their contents),
// the trace, the action log, and client bookkeeping (which answer a client
// got does not steer any machine). Kept are the checker's memories (the
// leader of each term, the committed prefix, what was applied where), since
// they decide which later states break a rule.
//
// A 64-bit key can collide; with ten million states the chance that two
// distinct states share one is about three in a million.
func (w *World) StateKey() uint64 {
	h := uint64(0xcbf29ce484222325)
	for id := 1; id <= w.cfg.Nodes; id++ {
		h = w.nodes[id].stateHash(h)
		m := &w.machines[id]
		h = fnvUint(h, uint64(m.status))
		h = fnvUint(h, uint64(msToUs(m.slow))^uint64(msToUs(m.drift))<<32)
		for i := range m.work {
			h = fnvUint(h, messageHash(&m.work[i]))
		}
		for j := 1; j <= w.cfg.Nodes; j++ {
			if !w.links[id][j].Up {
				h = fnvUint(h, uint64(id*16+j))
			}
		}
	}
	// Messages in flight are a multiset: a sum of well-mixed hashes does
	// not depend on the order they were sent in, and counts duplicates.
	var wire uint64
	for i := range w.queue {
		e := &w.queue[i]
		if e.kind == evDeliver && !w.isDropped(e.msg.ID) {
			wire += mix(messageHash(&e.msg))
		}
	}
	h = fnvUint(h, wire)
	if w.endpoint != None {
		// Where the cluster's client is connected decides where its next
		// write goes.
		h = fnvUint(h, uint64(w.endpoint)<<40)
	}
	return w.checker.stateHash(h)
}

func (n *Node) stateHash(h uint64) uint64 {
	h = fnvUint(h, n.term)
	h = fnvUint(h, uint64(n.vote)|uint64(n.lead)<<8|uint64(n.role)<<16)
	h = fnvUint(h, n.commit)
	h = fnvUint(h, n.applied)
	h = fnvUint(h, uint64(n.electionElapsed)|uint64(n.heartbeatElapsed)<<32)
	h = fnvUint(h, n.log.lastIndex())
	h = fnvUint(h, n.log.chain(n.log.lastIndex()))
	h = fnvUint(h, n.kv.digest)
	if n.snap != nil {
		h = fnvUint(h, n.snap.Index)
		h = fnvUint(h, n.snap.kv.digest)
		h = fnvUint(h, n.log.offset)
	}
	if n.confIndex != 0 {
		c := &n.conf
		h = fnvUint(h, n.confIndex)
		h = fnvUint(h, uint64(c.incoming)|uint64(c.outgoing)<<16|uint64(c.learners)<<32)
	}
	if n.leadTransferee != None {
		h = fnvUint(h, uint64(n.leadTransferee)|1<<40)
	}
	for _, v := range n.votes {
		h = fnvUint(h, uint64(uint8(v)))
	}
	for i := range n.prs {
		p := &n.prs[i]
		h = fnvUint(h, p.Match)
		h = fnvUint(h, p.Next)
		h = fnvUint(h, p.sentCommit)
		h = fnvUint(h, p.PendingSnapshot)
		flags := uint64(p.State)
		if p.Paused {
			flags |= 1 << 8
		}
		if p.RecentActive {
			flags |= 1 << 9
		}
		h = fnvUint(h, flags)
		for _, f := range p.inflight {
			h = fnvUint(h, f)
		}
		h = fnvUint(h, uint64(len(p.inflight)))
	}
	for _, r := range n.pendingReads {
		h = fnvUint(h, r.ctx)
		h = fnvUint(h, r.index)
		h = fnvUint(h, uint64(r.from))
		for _, a := range r.acks {
			if a {
				h = fnvUint(h, 1)
			} else {
				h = fnvUint(h, 2)
			}
		}
	}
	for i := range n.pendingReadMsgs {
		h = fnvUint(h, messageHash(&n.pendingReadMsgs[i]))
	}
	for _, rs := range n.readStates {
		h = fnvUint(h, rs.Index)
		h = fnvUint(h, rs.Ctx)
	}
	return h
}

// messageHash hashes what a message says, not which copy it is: its id,
// times and the sender's chain hashes are left out.
func messageHash(m *Message) uint64 {
	h := uint64(0xcbf29ce484222325)
	h = fnvUint(h, uint64(m.Type)|uint64(m.From)<<8|uint64(m.To)<<16|uint64(m.Origin)<<24)
	h = fnvUint(h, m.Term)
	h = fnvUint(h, m.LogTerm)
	h = fnvUint(h, m.Index)
	h = fnvUint(h, m.Commit)
	h = fnvUint(h, m.RejectHint)
	h = fnvUint(h, m.Context)
	flags := uint64(0)
	for i, b := range []bool{m.Reject, m.Lease, m.Lost} {
		if b {
			flags |= 1 << i
		}
	}
	h = fnvUint(h, flags|uint64(m.Why)<<8)
	for i := range m.Entries {
		e := &m.Entries[i]
		h = fnvUint(h, e.Index)
		h = chainHash(h, e.Term, e.Data)
	}
	if s := m.Snapshot; s != nil {
		h = fnvUint(h, s.Index)
		h = fnvUint(h, s.Chain)
		h = fnvUint(h, s.kv.digest)
	}
	if c := m.Client; c != nil {
		h = fnvUint(h, uint64(c.OpID))
		h = fnvUint(h, uint64(c.Kind))
		h = fnvString(h, c.Key)
		h = fnvString(h, c.Value)
		h = fnvString(h, string(c.Mode))
	}
	return h
}

// mix is a 64-bit finalizer (MurmurHash3's), so that sums of hashes of
// similar messages do not cancel.
func mix(h uint64) uint64 {
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	h ^= h >> 33
	return h
}

// stateHash extends h with what the checker remembers of the run. The
// leaders are visited in term order, never in map order.
func (c *checker) stateHash(h uint64) uint64 {
	terms := make([]uint64, 0, len(c.leaders))
	for t := range c.leaders {
		terms = append(terms, t)
	}
	slices.Sort(terms)
	for _, t := range terms {
		h = fnvUint(h, t)
		h = fnvUint(h, uint64(c.leaders[t]))
	}
	h = fnvUint(h, c.base)
	for _, r := range c.committed {
		h = fnvUint(h, r.chain)
		h = fnvUint(h, r.inTerm)
	}
	for _, r := range c.applied {
		h = chainHash(h, r.term, r.data)
		h = fnvUint(h, r.digest)
	}
	for i, s := range c.commitSeen {
		h = fnvUint(h, s)
		if c.digestBad[i] {
			h = fnvUint(h, 1)
		}
	}
	return fnvUint(h, uint64(len(c.list)))
}
