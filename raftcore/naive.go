package raftcore

// The two naive protocols of the book. They share Node with Raft so the app
// draws them the same way, and the checker judges them by the same rules.

// naive-copy: every machine accepts writes, applies them at once, and sends a
// copy to every machine. A receiver appends whatever arrives to the end of its
// own history. Nothing orders, acknowledges or repairs anything.

func (n *Node) acceptCopy(cmd Command) {
	n.log.appendAfter(n.log.lastIndex(), Entry{Data: cmd})
	n.commit = n.log.lastIndex()
}

func (n *Node) broadcastCopy(cmd Command) {
	for id := 1; id <= n.cfg.size; id++ {
		if NodeID(id) != n.ID {
			n.send(Message{Type: MsgCopy, To: NodeID(id), Entries: []Entry{{Data: cmd}}})
		}
	}
}

func (n *Node) stepNaiveCopy(m Message) {
	if m.Type == MsgCopy {
		for _, e := range m.Entries {
			n.acceptCopy(e.Data)
		}
	}
}

// failover: machine 1 starts as the authority. It orders writes and sends
// each to the followers together with regular heartbeats. A follower that
// hears nothing for its timeout promotes itself. There are no terms and no
// votes, so nothing stops two machines from being the authority at once,
// and an authority never steps down.

func (n *Node) tickFailover() {
	if n.role == RoleLeader {
		n.heartbeatElapsed++
		if n.heartbeatElapsed >= n.cfg.heartbeatTicks {
			n.heartbeatElapsed = 0
			for id := 1; id <= n.cfg.size; id++ {
				if NodeID(id) != n.ID {
					n.send(Message{Type: MsgHeartbeat, To: NodeID(id), Commit: n.log.lastIndex()})
				}
			}
		}
		return
	}
	n.electionElapsed++
	if n.electionElapsed >= n.randomizedTimeout {
		n.promote(CauseAuthoritySilent)
	}
}

func (n *Node) promote(why Cause) {
	if n.role == RoleLeader {
		return
	}
	n.electionElapsed = 0
	n.heartbeatElapsed = 0
	n.lead = n.ID
	n.setRole(RoleLeader, why)
}

func (n *Node) stepFailover(m Message) {
	switch m.Type {
	case MsgHeartbeat, MsgApp:
		if n.role == RoleLeader {
			// An authority does not question itself.
			return
		}
		n.electionElapsed = 0
		n.lead = m.From
		if m.Type == MsgApp {
			for _, e := range m.Entries {
				// Only the next entry in order is taken; anything else is
				// ignored. Nothing ever asks for what was missed.
				if e.Index == n.log.lastIndex()+1 {
					n.log.appendAfter(n.log.lastIndex(), Entry{Data: e.Data})
					n.commit = n.log.lastIndex()
				}
			}
		}
	case MsgProp:
		if n.role == RoleLeader {
			n.authorityWrite(m.Entries[0].Data)
		} else if n.lead != None && n.lead != n.ID {
			m.To = n.lead
			n.send(m)
		}
	}
}

func (n *Node) proposeFailover(cmd Command) Refusal {
	if n.role == RoleLeader {
		n.authorityWrite(cmd)
		return RefusedNone
	}
	if n.lead == None {
		return RefusedNoAuthority
	}
	n.send(Message{Type: MsgProp, To: n.lead, Entries: []Entry{{Data: cmd}}})
	return RefusedNone
}

func (n *Node) authorityWrite(cmd Command) {
	n.log.appendAfter(n.log.lastIndex(), Entry{Data: cmd})
	n.commit = n.log.lastIndex()
	e := n.log.entry(n.log.lastIndex())
	for id := 1; id <= n.cfg.size; id++ {
		if NodeID(id) != n.ID {
			n.send(Message{Type: MsgApp, To: NodeID(id), Entries: []Entry{e}})
		}
	}
}
