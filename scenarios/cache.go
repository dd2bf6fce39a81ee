package scenarios

import "raftlab/raftcore"

// A cache in front of the cluster, as CoreDNS is in front of the API
// server: it fills itself with linearizable reads of one key through one
// member (its upstream) and answers everyone who asks from what it last
// read, whether or not its latest refresh got through. It never refuses:
// through a partition that cuts its upstream off it keeps answering, and
// its answer may be stale. The cache is read off the run's own client
// operations; it adds nothing to the run.

// Cache is a figure's cache: the member it reads through and the key it
// holds.
type Cache struct {
	Upstream raftcore.NodeID
	Key      string
}

// CacheState is what a cache holds at a moment of a run.
type CacheState struct {
	// Filled: the cache has a record, from the answered refresh Filled
	// (its last): what it answers is Filled's value.
	Held   bool
	Filled raftcore.Op
	// Refresh is the cache's latest refresh, answered or not: when it got
	// no answer, the cache answers from the record it still has.
	Refresh raftcore.Op
	// Missed is the latest write of the key acknowledged after the record
	// was read (ID 0 when none): the cache's answer is stale by it.
	Missed raftcore.Op
}

// Stale: an acknowledged write is newer than the record the cache holds.
func (s CacheState) Stale() bool { return s.Held && s.Missed.ID != 0 }

// Cut: the cache's latest refresh ended without an answer, yet it answers.
func (s CacheState) Cut() bool { return s.Held && failed(s.Refresh) }

// State is what the cache holds in run w now.
func (c Cache) State(w *raftcore.World) CacheState {
	var s CacheState
	ops := w.Ops()
	for _, op := range ops {
		if op.Kind != raftcore.DoRead || op.Node != c.Upstream || op.Key != c.Key || op.Mode != raftcore.ReadLinearizable {
			continue
		}
		s.Refresh = op
		if op.Result == raftcore.OpOK {
			s.Held, s.Filled = true, op
		}
	}
	if !s.Held {
		return s
	}
	for _, op := range ops {
		if isWrite(op) && op.Key == c.Key && op.Result == raftcore.OpOK && op.Index > s.Filled.ReadAt && op.CompleteUs <= w.Now() {
			s.Missed = op
		}
	}
	return s
}
