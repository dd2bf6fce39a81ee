package raftcore

// Reads, as etcd serves them. A linearizable read uses ReadIndex (§6.4 of
// Ongaro's thesis): the leader records its commit index, confirms with a
// heartbeat round that a majority still follows it, and the read is answered
// once that index is applied. A lease read skips the round and trusts
// CheckQuorum: a leader steps down within an election timeout of losing its
// majority, measured on its own clock, which is only as good as that clock.

import "raftlab/raftcore/quorum"

// requestRead starts a read with context ctx at this machine, and says
// why it refuses, if it does.
func (n *Node) requestRead(ctx uint64, lease bool) Refusal {
	if lease && !n.cfg.checkQuorum {
		// Without CheckQuorum a leader cut off from the majority never
		// steps down, so its lease never ends and it would answer from old
		// state for ever. etcd refuses this combination outright.
		return RefusedLeaseNoCheckQuorum
	}
	m := Message{Type: MsgReadIndex, From: n.ID, To: n.ID, Context: ctx, Lease: lease, Origin: n.ID}
	switch n.role {
	case RoleLeader:
		n.handleReadIndex(m)
		return RefusedNone
	case RoleFollower:
		if n.lead == None {
			return RefusedNoLeader
		}
		m.To = n.lead
		n.send(m)
		return RefusedNone
	default:
		return RefusedElection
	}
}

func (n *Node) handleReadIndex(m Message) {
	if m.Origin != None {
		// Answer the machine the client asked, not the follower that
		// passed the request on: only the former can match it to a client.
		m.From = m.Origin
	}
	if n.conf.outgoing == 0 && n.conf.incoming.len() == 1 {
		// The leader is the only voter (etcd's IsSingleton).
		n.answerRead(m, n.commit)
		return
	}
	// A new leader does not know the commit index of its predecessor until
	// an entry of its own term commits; until then its commit index may be
	// behind, so reads wait.
	if n.log.term(n.commit) != n.term {
		n.pendingReadMsgs = append(n.pendingReadMsgs, m)
		return
	}
	n.serveReadIndex(m)
}

func (n *Node) serveReadIndex(m Message) {
	if m.Lease || n.cfg.has(BugReadWithoutConfirm) {
		n.answerRead(m, n.commit)
		return
	}
	req := readRequest{ctx: m.Context, index: n.commit, from: m.From, acks: make([]bool, n.cfg.size+1)}
	req.acks[n.ID] = true
	n.pendingReads = append(n.pendingReads, req)
	n.broadcastHeartbeat(m.Context)
}

func (n *Node) releasePendingReadMsgs() {
	if n.log.term(n.commit) != n.term {
		return
	}
	msgs := n.pendingReadMsgs
	n.pendingReadMsgs = nil
	for _, m := range msgs {
		n.serveReadIndex(m)
	}
}

// ackRead counts a heartbeat response for the read round ctx. Once a
// majority answered, that read and every read queued before it are
// confirmed: the leader was still the leader when they arrived.
func (n *Node) ackRead(from NodeID, ctx uint64) {
	at := -1
	for i := range n.pendingReads {
		if n.pendingReads[i].ctx == ctx {
			at = i
			break
		}
	}
	if at < 0 {
		return
	}
	req := &n.pendingReads[at]
	req.acks[from] = true
	if n.conf.voters.VoteResult(req.acked) != quorum.VoteWon {
		return
	}
	done := n.pendingReads[:at+1]
	n.pendingReads = append([]readRequest(nil), n.pendingReads[at+1:]...)
	for _, r := range done {
		n.answerRead(Message{From: r.from, Context: r.ctx}, r.index)
	}
}

// acked counts a heartbeat answer for a read like a vote: a machine that
// answered said yes, and one that has not may still.
func (r *readRequest) acked(id quorum.ID) (yes, answered bool) {
	return r.acks[id], r.acks[id]
}

func (n *Node) answerRead(req Message, index uint64) {
	if req.From == None || req.From == n.ID {
		n.readStates = append(n.readStates, ReadState{Index: index, Ctx: req.Context, Term: n.term})
		return
	}
	n.send(Message{Type: MsgReadIndexResp, To: req.From, Term: n.term, Index: index, Context: req.Context})
}
