package scene

import (
	"raftlab/raftcore"
	"raftlab/viz/frame"
	"raftlab/viz/words"
)

// cacheSection heads the client panel, in a figure with a cache in front
// of the cluster, with what the cache answers and how fresh it is: the
// answer that keeps coming (AP) beside the requests etcd leaves
// unanswered (CP) listed under it.
func (b *Builder) cacheSection(wr *writer) {
	s := b.Session.Scenario()
	if s == nil || s.Spec().UI.Cache == nil {
		return
	}
	c := s.Spec().UI.Cache
	st := c.State(b.World())
	up := b.cfg().Name(c.Upstream)
	wr.text(words.CacheTitle, SizeBody, frame.ToneText, true)
	if !st.Held {
		wr.item("·", frame.ToneMuted, words.CacheEmpty(c.Key, up), SizeBody-1, frame.ToneText)
		wr.gap(4)
		return
	}
	value := st.Filled.ReadValue
	if !st.Filled.ReadFound {
		value = words.NotFound
	}
	wr.item("✓", frame.ToneGood, words.CacheAnswers(c.Key, value, st.Filled.ID, st.Filled.CompleteUs), SizeBody-1, frame.ToneText)
	switch {
	case st.Cut():
		wr.item("✗", frame.ToneBad, words.CacheCut(st.Refresh.ID, up), SizeBody-1, frame.ToneText)
	case st.Refresh.Result == raftcore.OpPending:
		wr.item("…", frame.ToneMuted, words.CacheRefreshing(st.Refresh.ID, up), SizeBody-1, frame.ToneText)
	}
	if st.Stale() {
		wr.item("!", frame.ToneWarn, words.CacheStale(st.Missed.ID, st.Missed.Value), SizeBody-1, frame.ToneText)
	} else {
		wr.item("✓", frame.ToneGood, words.CacheFresh, SizeBody-1, frame.ToneText)
	}
	wr.gap(6)
}

// cacheBadge is the tag over the machine a figure's cache reads through:
// what the cache answers, and whether that is stale.
func (b *Builder) cacheBadge(id raftcore.NodeID) (string, frame.Tone, bool) {
	s := b.Session.Scenario()
	if s == nil || s.Spec().UI.Cache == nil || s.Spec().UI.Cache.Upstream != id {
		return "", 0, false
	}
	st := s.Spec().UI.Cache.State(b.World())
	if !st.Held {
		return words.CacheBadgeEmpty, frame.ToneMuted, true
	}
	if st.Stale() {
		return words.CacheBadge(st.Filled.ReadValue, true), frame.ToneWarn, true
	}
	return words.CacheBadge(st.Filled.ReadValue, false), frame.ToneGood, true
}

// staleReadBadge is the tag over a machine that answered a read the
// checker flagged as stale (the latest such read), and its short form:
// the stale read drawn where it happened, from the moment it was answered.
func staleReadBadge(w *raftcore.World, id raftcore.NodeID) (text, short string, ok bool) {
	op, ok := staleReadAt(w, id)
	if !ok {
		return "", "", false
	}
	return words.StaleReadBadge(op.ID, op.ReadValue), words.StaleReadBadgeShort(op.ID), true
}

// staleReadAt is the latest read machine id answered that the checker
// flagged as stale.
func staleReadAt(w *raftcore.World, id raftcore.NodeID) (raftcore.Op, bool) {
	vs := w.Violations()
	for k := len(vs) - 1; k >= 0; k-- {
		v := vs[k]
		if v.Rule != raftcore.RuleStaleRead || v.Op == 0 {
			continue
		}
		if op, ok := w.Op(v.Op); ok && op.Node == id && op.Result == raftcore.OpOK {
			return op, true
		}
	}
	return raftcore.Op{}, false
}
