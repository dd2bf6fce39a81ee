package raftcore

// raftLog is a machine's log. Indexes start at 1. Like etcd's log over its
// MemoryStorage, it can be compacted: the entries up to offset are dropped
// (they are committed and applied, and a snapshot holds their effect), and
// only the index, term and chain hash of the last dropped entry are kept, as
// etcd keeps a dummy entry at the compaction point. offset 0 is the empty
// prefix with term 0: a log never compacted.
//
// The log remembers the lowest index it changed since the checker last looked
// (dirtyFrom) so Log Matching can be checked on the changed part only.
type raftLog struct {
	entries []Entry // entries[i] has Index offset+1+i
	// offset, offTerm and offChain are the index, term and chain hash of
	// the last entry compacted away (all 0 when nothing was).
	offset, offTerm, offChain uint64
	dirtyFrom                 uint64 // 0 when nothing changed
	truncated                 bool   // an existing entry was replaced since the last look
}

// firstIndex is the first index the log still holds (or would hold).
func (l *raftLog) firstIndex() uint64 { return l.offset + 1 }

func (l *raftLog) lastIndex() uint64 { return l.offset + uint64(len(l.entries)) }

func (l *raftLog) lastTerm() uint64 { return l.term(l.lastIndex()) }

// term returns the term at index i, or 0 when i is 0, past the end, or
// compacted away (below offset: etcd's ErrCompacted). Callers that can meet
// a compacted index ask compacted first.
func (l *raftLog) term(i uint64) uint64 {
	switch {
	case i == l.offset:
		return l.offTerm
	case i < l.offset || i > l.lastIndex():
		return 0
	}
	return l.entries[i-l.offset-1].Term
}

// compacted reports whether the entry at i is gone, its term unknown.
func (l *raftLog) compacted(i uint64) bool { return i < l.offset }

func (l *raftLog) chain(i uint64) uint64 {
	switch {
	case i == l.offset:
		return l.offChain
	case i < l.offset || i > l.lastIndex():
		return 0
	}
	return l.entries[i-l.offset-1].Chain
}

// entry returns the entry at i, which must be held (firstIndex <= i <=
// lastIndex).
func (l *raftLog) entry(i uint64) Entry { return l.entries[i-l.offset-1] }

func (l *raftLog) matchTerm(i, term uint64) bool {
	if i > l.lastIndex() || i < l.offset {
		return false
	}
	return l.term(i) == term
}

// isUpToDate is the election restriction of §5.4.1: a voter grants its vote
// only to a candidate whose log is at least as up to date as its own.
func (l *raftLog) isUpToDate(lastIndex, lastTerm uint64) bool {
	return lastTerm > l.lastTerm() || (lastTerm == l.lastTerm() && lastIndex >= l.lastIndex())
}

// slice returns up to max entries starting at index from, or nil when from
// is compacted or past the end.
func (l *raftLog) slice(from uint64, max int) []Entry {
	if from <= l.offset || from > l.lastIndex() {
		return nil
	}
	end := l.lastIndex()
	if max > 0 && end-from+1 > uint64(max) {
		end = from + uint64(max) - 1
	}
	out := make([]Entry, end-from+1)
	copy(out, l.entries[from-l.offset-1:end-l.offset])
	return out
}

// appendAfter replaces everything after index after (at or past offset)
// with ents, recomputing each entry's chain hash from this log's own prefix.
func (l *raftLog) appendAfter(after uint64, ents ...Entry) {
	if after < l.lastIndex() {
		l.truncated = true
	}
	l.markDirty(after + 1)
	if after < l.lastIndex() {
		// Truncation: never overwrite an array a clone may share.
		keep := after - l.offset
		l.entries = append(make([]Entry, 0, keep+uint64(len(ents))), l.entries[:keep]...)
	}
	for _, e := range ents {
		e.Index = l.lastIndex() + 1
		e.Chain = chainHash(l.chain(e.Index-1), e.Term, e.Data)
		l.entries = append(l.entries, e)
	}
}

// compact drops the entries up to and including i (etcd's
// MemoryStorage.Compact). The kept tail is copied into a new array, so the
// dropped entries are freed once no clone holds them, and no clone's array
// is written.
func (l *raftLog) compact(i uint64) {
	if i <= l.offset || i > l.lastIndex() {
		return
	}
	l.offTerm, l.offChain = l.term(i), l.chain(i)
	l.entries = append([]Entry(nil), l.entries[i-l.offset:]...)
	l.offset = i
}

// restore empties the log and starts it after a snapshot's last entry
// (etcd's raftLog.restore).
func (l *raftLog) restore(s *Snapshot) {
	l.entries = nil
	l.offset, l.offTerm, l.offChain = s.Index, s.Term, s.Chain
}

func (l *raftLog) markDirty(i uint64) {
	if l.dirtyFrom == 0 || i < l.dirtyFrom {
		l.dirtyFrom = i
	}
}

// findConflict returns the index of the first entry of ents that is not
// already in the log with the same term, or 0 when all are present.
func (l *raftLog) findConflict(ents []Entry) uint64 {
	for _, e := range ents {
		if !l.matchTerm(e.Index, e.Term) {
			return e.Index
		}
	}
	return 0
}

// findConflictByTerm walks back from index to the last entry whose term is
// at most term. A follower uses it to hint where its log could match the
// leader's, and the leader uses it to jump a whole term on rejection (the
// optimisation the Raft paper mentions at the end of §5.3, as etcd does it).
func (l *raftLog) findConflictByTerm(index, term uint64) (uint64, uint64) {
	for ; index > 0; index-- {
		if l.compacted(index) {
			// Below the compaction point the term is unknown: as etcd,
			// take the index as a possible match, with term 0.
			return index, 0
		}
		if t := l.term(index); t <= term {
			return index, t
		}
	}
	return 0, 0
}

// clone returns a copy that shares the entries with l. Both slices are
// capped at their length, so an append to either reallocates rather than
// writing into the shared array, and appendAfter copies before it truncates.
// Entries are values that are never modified in place, so sharing is safe and
// makes cloning a world (the timeline's checkpoints) cheap.
func (l *raftLog) clone() raftLog {
	l.entries = l.entries[:len(l.entries):len(l.entries)]
	return *l
}

// chainHash extends a running FNV-1a hash with one entry.
func chainHash(prev, term uint64, c Command) uint64 {
	h := prev ^ 0xcbf29ce484222325
	h = fnvUint(h, term)
	h = fnvUint(h, uint64(c.Kind))
	h = fnvString(h, c.Key)
	h = fnvString(h, c.Value)
	h = fnvUint(h, uint64(c.OpID))
	if c.Based {
		// Only read-modify-writes hash these, so the chains of plain
		// writes are as they always were.
		flags := uint64(1)
		if c.Cas {
			flags |= 2
		}
		h = fnvUint(h, flags)
		h = fnvUint(h, c.BasedOn)
	}
	h = fnvUint(h, uint64(c.Client))
	h = fnvUint(h, c.Seq)
	h = fnvUint(h, c.Low)
	if c.Kind == OpConf {
		// Only configuration changes hash it, so the chains of every
		// other entry are as they always were.
		h = fnvUint(h, uint64(c.Conf.Type)|uint64(c.Conf.Node)<<8|uint64(c.Conf.Voters)<<16)
	}
	return h
}

const fnvPrime = 0x100000001b3

// fnvPow[k] is fnvPrime to the power k (mod 2^64).
var fnvPow = func() (p [9]uint64) {
	p[0] = 1
	for k := 1; k < len(p); k++ {
		p[k] = p[k-1] * fnvPrime
	}
	return p
}()

// fnvUint extends an FNV-1a hash with the eight bytes of v, lowest first.
// Once the rest of v is zero, each remaining byte only multiplies by the
// prime, so those multiplications are done as one by a power of it: the
// same hash, with fewer steps for the small values most fields hold.
func fnvUint(h, v uint64) uint64 {
	i := 0
	for ; v != 0; i++ {
		h ^= v & 0xff
		h *= fnvPrime
		v >>= 8
	}
	return h * fnvPow[8-i]
}

func fnvString(h uint64, s string) uint64 {
	h = fnvUint(h, uint64(len(s)))
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= fnvPrime
	}
	return h
}
