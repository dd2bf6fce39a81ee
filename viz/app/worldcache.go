package app

import (
	"raftlab/raftcore"
	"raftlab/viz"
)

// worldCache is what frames remember of the world shown from one build to
// the next: where each message dot is (for hit tests), the path of each
// message seen on the wire (so that one that is lost or dropped falls from
// its own link) and what the newest trace events say.
//
// Message ids and machine indexes name things of one world only: a new
// world numbers its messages from 1 again, and after a fork the ids issued
// from the fork on name other messages than they did on the branch left.
// So the cache is replaced whole when the world is (a reset, a scenario, a
// link or file opened), and on a fork or a switch of branch by one that
// keeps only what the two branches share. Moving back and forth in time
// on one branch needs neither: replaying a branch gives each id to the
// same message again.
type worldCache struct {
	dots   []viz.MessageDot
	seen   map[uint64]msgInfo
	recent recentState
}

// msgInfo remembers a message's path while it is on the wire, so that a
// message lost or dropped by hand can fall from where it was.
type msgInfo struct {
	from, to      int
	send, deliver int64
}

// recentState is what the last moments of the trace say: heartbeats sent
// and messages dropped, for pulses and falling dots.
type recentState struct {
	beat  []int64 // per node: time of the last heartbeat sent, or -1
	drops []raftcore.TraceEvent
	// wire is the messages on the wire, in a buffer kept from build to
	// build: hundreds of messages are copied every frame.
	wire []raftcore.Message
	// labels are the boxes of the link labels kept (a reused buffer).
	labels []viz.Rect
}

func newWorldCache() *worldCache {
	return &worldCache{seen: map[uint64]msgInfo{}}
}

// forked is the cache for a branch that parts from this one at virtual
// time at: it keeps the paths of the messages sent before then, which the
// two branches share. A message sent at that very moment may be of either
// branch, and is left out.
func (c *worldCache) forked(at int64) *worldCache {
	n := newWorldCache()
	for id, m := range c.seen {
		if m.send < at {
			n.seen[id] = m
		}
	}
	return n
}
