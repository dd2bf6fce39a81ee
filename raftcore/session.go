package raftcore

// Client sessions (§6.3 of Ongaro's thesis). Raft alone delivers a command
// at least once, not exactly once: a proposal that the network duplicates on
// its way to the leader, or that a client sends again after a lost answer,
// is appended and committed twice. A session makes the second copy harmless.
// Each write carries its client's id and a sequence number; the state machine
// remembers which sequence numbers of each client it has applied and what
// they returned, and when a command it has seen comes round again it skips
// it and hands back the remembered result.
//
// The table is part of the replicated state machine: every machine builds it
// from the same committed log in the same order, so every machine discards
// the same copies. That is what keeps their stores identical.
//
// The lab's clients may have several writes outstanding, and forwarded
// proposals can overtake each other, so a client's sequence numbers need not
// reach the log in order. The table therefore keeps each applied number
// above a low-water mark rather than only the highest: Command.Low tells it
// below which number the client needs no more answers, and those entries are
// dropped.

// session is what the state machine remembers of one client.
type session struct {
	client NodeID
	// low is the highest Low seen: sequence numbers below it are answered
	// and any copy of them that still turns up is discarded unseen.
	low uint64
	// done holds the applied sequence numbers at or above low, in order, with
	// the index each was applied at (the write's result).
	done []sessionResult
}

type sessionResult struct {
	seq   uint64
	index uint64
}

// sessionTable is every client's session, ordered by client id. Clients are
// few (one per machine a reader sends writes to), so a sorted slice beats a
// map and has no iteration order to worry about.
type sessionTable []session

// find returns client's session, adding an empty one if it has none.
func (t *sessionTable) find(client NodeID) *session {
	i := 0
	for i < len(*t) && (*t)[i].client < client {
		i++
	}
	if i == len(*t) || (*t)[i].client != client {
		*t = append(*t, session{})
		copy((*t)[i+1:], (*t)[i:])
		(*t)[i] = session{client: client}
	}
	return &(*t)[i]
}

// admit decides whether the command c at index takes effect. A command
// outside any session always does. Otherwise it takes effect only the first
// time its sequence number is seen; a later copy does not, and admit returns
// the index the first copy was applied at (0 when that is no longer
// remembered because the client has moved past it).
func (t *sessionTable) admit(c Command, index uint64) (apply bool, firstIndex uint64) {
	if c.Client == None || c.Kind == OpNoop {
		return true, index
	}
	s := t.find(c.Client)
	if c.Seq < s.low {
		return false, 0
	}
	at := 0
	for at < len(s.done) && s.done[at].seq < c.Seq {
		at++
	}
	if at < len(s.done) && s.done[at].seq == c.Seq {
		return false, s.done[at].index
	}
	s.done = append(s.done, sessionResult{})
	copy(s.done[at+1:], s.done[at:])
	s.done[at] = sessionResult{seq: c.Seq, index: index}
	s.forgetBelow(c.Low)
	return true, index
}

// forgetBelow raises the low-water mark to low and drops the results the
// client will never ask for again.
func (s *session) forgetBelow(low uint64) {
	if low <= s.low {
		return
	}
	s.low = low
	keep := 0
	for keep < len(s.done) && s.done[keep].seq < low {
		keep++
	}
	s.done = append(s.done[:0], s.done[keep:]...)
}

func (t sessionTable) clone() sessionTable {
	if t == nil {
		return nil
	}
	c := make(sessionTable, len(t))
	for i, s := range t {
		s.done = append([]sessionResult(nil), s.done...)
		c[i] = s
	}
	return c
}
