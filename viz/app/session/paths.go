package session

import "raftlab/raftcore"

// paths remember where each message on the wire travels, so that a
// message lost or dropped by hand can fall from where it was, after it is
// gone from the world.
//
// Message ids name messages of one world only: a new world numbers its
// messages from 1 again, and after a fork the ids issued from the fork on
// name other messages than they did on the branch left. So paths go with
// their session, and a fork or a switch of branch keeps only what the two
// branches share. Moving back and forth in time on one branch needs
// neither: replaying a branch gives each id to the same message again.
type paths struct {
	seen map[uint64]path
	// wire is the messages on the wire, in a buffer kept from one look to
	// the next: hundreds of messages are copied every frame.
	wire []raftcore.Message
}

// path is a message's way from one machine (layout index) to another.
type path struct {
	from, to      int
	send, deliver int64
}

func newPaths() *paths { return &paths{seen: map[uint64]path{}} }

// forgetAfterUs is how long after it was due a message's path is kept:
// longer than twice the longest fall the app draws (0.7 s of real time at
// the fastest speed, 10x) and a second to spare.
const forgetAfterUs = 15_000_000

// remember notes the path of every message on the wire of w that travels
// between two machines, and forgets those long gone.
func (p *paths) remember(w *raftcore.World) {
	p.wire = w.AppendInFlight(p.wire[:0])
	for k := range p.wire {
		m := &p.wire[k]
		if m.Type == raftcore.MsgClient || m.DeliverUs <= m.SendUs {
			continue
		}
		if _, ok := p.seen[m.ID]; !ok {
			p.seen[m.ID] = path{int(m.From) - 1, int(m.To) - 1, m.SendUs, m.DeliverUs}
		}
	}
	if len(p.seen) > 4*len(p.wire)+64 {
		now := w.Now()
		for id, m := range p.seen {
			if m.deliver < now-forgetAfterUs {
				delete(p.seen, id)
			}
		}
	}
}

// forked is the paths of a branch that parts from this one at virtual
// time at: those of the messages sent before then, which the two branches
// share. A message sent at that very moment may be of either branch, and
// is left out.
func (p *paths) forked(at int64) *paths {
	n := newPaths()
	for id, m := range p.seen {
		if m.send < at {
			n.seen[id] = m
		}
	}
	return n
}
