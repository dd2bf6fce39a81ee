package raftcore

import (
	"maps"
	"slices"
)

// Informers, as Kubernetes' client-go runs them (tools/cache's reflector).
// An informer keeps a controller's cache of the objects under its prefixes:
// it lists them, a linearizable read through Raft that fails without a
// quorum and gives the revision the list saw, then watches its API server
// from the next revision and applies each event to the cache. When the
// watch breaks, for whatever reason, it waits (a backoff, doubling from
// 800 ms to 30 s as client-go's does, and back to 800 ms once a list
// succeeds), lists again, replacing its cache, and watches from the new
// revision. A controller works from this cache, never from the log, so
// what it sees is eventually, not immediately, what the store holds.
//
// The informer's requests and its events travel the link between its
// controller's machine and the API server's: a request made while that
// link is down fails at once, and the answer to a request that was out
// when the link went down is not heard, even if the link is back by then
// (the connection it would come back on broke).

// InformerState is where an informer is in its list-and-watch loop.
type InformerState string

const (
	InformerListing  InformerState = "listing"
	InformerWatching InformerState = "watching"
	// InformerWaiting is the backoff after a failed list or a cut watch.
	InformerWaiting InformerState = "waiting"
	// InformerDown is an informer whose machine crashed; it starts again,
	// with an empty cache, when the machine restarts.
	InformerDown InformerState = "down"
)

// CutReason is why a watch ended, or could not start.
type CutReason uint8

const (
	CutNone        CutReason = iota
	CutLink                  // a link between the controller and its API server went down
	CutServerDown            // the API server's machine crashed
	CutCompacted             // the revision asked for was compacted (410 Gone)
	CutByHand                // a "watch-cut" action
	CutMachineDown           // the controller's own machine crashed
)

var cutNames = [...]string{"", "link cut", "server down", "compacted", "cut by hand", "machine down"}

func (r CutReason) String() string {
	if int(r) < len(cutNames) {
		return cutNames[r]
	}
	return "cut(" + u(uint64(r)) + ")"
}

// MarshalText lets JSON show the reason by name.
func (r CutReason) MarshalText() ([]byte, error) { return []byte(r.String()), nil }

// UnmarshalText reads a reason by name.
func (r *CutReason) UnmarshalText(b []byte) error { return parseName(r, "cut reason", cutNames[:], b) }

// The informer's backoff, client-go's reflector defaults.
const (
	informerBackoffMinUs = 800_000
	informerBackoffMaxUs = 30_000_000
)

// Informer is one controller's list-and-watch state and its cache.
type Informer struct {
	State InformerState `json:"state"`
	// Prefixes are the key prefixes the informer lists and watches.
	Prefixes []string `json:"prefixes"`
	// Synced is set once a list has filled the cache: until then the
	// controller does nothing, as Kubernetes' controllers wait for
	// their caches to sync.
	Synced bool `json:"synced"`
	// ListedRev is the revision of the last list; Rev the revision the
	// cache reflects (the last list's or the last event's).
	ListedRev uint64 `json:"listed_rev"`
	Rev       uint64 `json:"rev"`
	// Cache is the objects as the informer knows them, with the revision
	// each was last changed at.
	Cache map[string]KVValue `json:"cache"`
	// Lists counts successful lists, Relists those after the first,
	// FailedLists lists that failed or went unheard; WatchCuts counts
	// watches that ended or could not start, LastCut why the last did;
	// Events the watch events applied to the cache.
	Lists       int       `json:"lists"`
	Relists     int       `json:"relists"`
	FailedLists int       `json:"failed_lists"`
	WatchCuts   int       `json:"watch_cuts"`
	LastCut     CutReason `json:"last_cut,omitempty"`
	Events      int       `json:"events"`
	// BackoffUs is the wait before the next list after a failure;
	// RelistAtUs, while the informer waits, is when it lists again (a
	// paused machine lists later, once it runs).
	BackoffUs  int64 `json:"backoff_us"`
	RelistAtUs int64 `json:"relist_at_us,omitempty"`

	listOp     int          // the list request in flight (0: none)
	listBreaks uint64       // its controller's link breaks when it was sent
	listed     []WatchEvent // what the list in flight saw, once answered
	listRev    uint64
	watchFrom  uint64      // the first revision the running watch sends
	gen        uint64      // the running watch; events of another are stale
	inflight   []WatchSent // sent by the server, not yet delivered
	arrival    int64       // when the last event sent arrives
	// diverged is set while the cache is found to differ from the
	// server's objects, so that one divergence is one finding.
	diverged bool
	timerGen uint64 // the pending backoff; a wake of another does nothing
}

// wants reports whether key is under one of the informer's prefixes.
func (inf *Informer) wants(key string) bool {
	for _, p := range inf.Prefixes {
		if len(key) >= len(p) && key[:len(p)] == p {
			return true
		}
	}
	return false
}

// apply applies one watch event to the cache.
func (inf *Informer) apply(ev WatchEvent) {
	if ev.Deleted {
		delete(inf.Cache, ev.Key)
	} else {
		inf.Cache[ev.Key] = KVValue{Value: ev.Value, ModIndex: ev.Rev}
	}
	inf.Rev = ev.Rev
}

// WatchFrom is the first revision the running watch sends (0 before the
// first watch): the revision after the list it follows, or, with
// BugWatchFromNow after a cut, the server's newest.
func (inf *Informer) WatchFrom() uint64 { return inf.watchFrom }

// cacheKeys returns the cache's keys in order.
func (inf *Informer) cacheKeys() []string { return slices.Sorted(maps.Keys(inf.Cache)) }

func (inf Informer) clone() Informer {
	inf.Prefixes = append([]string(nil), inf.Prefixes...)
	inf.Cache = maps.Clone(inf.Cache)
	inf.listed = append([]WatchEvent(nil), inf.listed...)
	inf.inflight = append([]WatchSent(nil), inf.inflight...)
	return inf
}

// listInformer makes controller c's informer list its prefixes at the API
// server.
func (w *World) listInformer(c *DeploymentController) {
	inf := &c.Informer
	inf.State, inf.listOp, inf.listed = InformerListing, 0, nil
	if !w.reachable(c) {
		w.recordInformer(c, "list failed: "+CutLink.String())
		w.listFailed(c)
		return
	}
	w.recordInformer(c, "list")
	inf.listOp, inf.listBreaks = w.nextOpID(), c.breaks
	w.invoke(Op{Kind: DoRead, Node: c.Server, Key: inf.Prefixes[0], Mode: ReadLinearizable, Informer: c.ID, List: true})
}

// listAnswered takes what a list answered by machine n saw: every key
// under the informer's prefixes, at n's applied index.
func (w *World) listAnswered(op *Op, n *Node) {
	c := &w.deploy.controllers[op.Informer-1]
	inf := &c.Informer
	if op.ID != inf.listOp {
		return
	}
	inf.listed = inf.listed[:0]
	for _, key := range n.kv.Keys() {
		if inf.wants(key) {
			v, _ := n.kv.Get(key)
			inf.listed = append(inf.listed, WatchEvent{Rev: v.ModIndex, Key: key, Value: v.Value})
		}
	}
	inf.listRev = n.applied
}

// listHeard ends controller c's list: the cache is replaced by what it saw
// and the watch starts from the next revision, or, if the list failed or
// its answer could not come back, the informer waits and lists again.
func (w *World) listHeard(c *DeploymentController, op Op) {
	inf := &c.Informer
	if op.ID != inf.listOp || inf.State != InformerListing {
		return
	}
	inf.listOp = 0
	if op.Result != OpOK || !w.heard(c, inf.listBreaks) || w.machines[c.Node].status == StatusCrashed {
		why := string(op.Result)
		if op.Result == OpOK {
			why = "answer not heard: " + CutLink.String()
		}
		w.recordInformer(c, "list failed: "+why)
		w.listFailed(c)
		return
	}
	clear(inf.Cache)
	inf.diverged = false
	for _, ev := range inf.listed {
		inf.Cache[ev.Key] = KVValue{Value: ev.Value, ModIndex: ev.Rev}
	}
	inf.listed = nil
	inf.ListedRev, inf.Rev = inf.listRev, inf.listRev
	if inf.Synced {
		inf.Relists++
		w.deploy.counts.Relists++
	}
	inf.Lists++
	w.deploy.counts.Lists++
	inf.Synced, inf.BackoffUs = true, informerBackoffMinUs
	w.recordInformer(c, "listed "+u(uint64(len(inf.Cache)))+" objects at rev "+u(inf.ListedRev))
	// A list replaces the cache, and the controller looks at every
	// object in it again, as a re-list makes client-go's handlers do.
	for _, key := range inf.cacheKeys() {
		w.informed(c, key)
	}
	// Names queued before the cache synced wait for it.
	w.reconcileNext(c)
	w.startWatch(c, inf.ListedRev+1)
}

// listFailed counts a failed list and waits before the next.
func (w *World) listFailed(c *DeploymentController) {
	c.Informer.FailedLists++
	w.deploy.counts.FailedLists++
	w.backOff(c)
}

// watchFailed ends a watch that could not start.
func (w *World) watchFailed(c *DeploymentController, why CutReason) {
	c.Informer.State = InformerWatching
	w.cutWatch(c, why)
}

// cutWatch ends controller c's watch: the events still on their way are
// lost with the stream, and the informer waits, then lists again.
func (w *World) cutWatch(c *DeploymentController, why CutReason) {
	inf := &c.Informer
	if inf.State != InformerWatching {
		return
	}
	inf.gen++
	inf.inflight = nil
	inf.WatchCuts++
	inf.LastCut = why
	w.deploy.counts.WatchCuts++
	w.recordInformer(c, "watch cut: "+why.String())
	w.backOff(c)
}

// backOff waits out the informer's backoff before it lists again, and
// doubles the next wait.
func (w *World) backOff(c *DeploymentController) {
	inf := &c.Informer
	inf.State = InformerWaiting
	if inf.BackoffUs == 0 {
		inf.BackoffUs = informerBackoffMinUs
	}
	inf.timerGen++
	inf.RelistAtUs = w.now + inf.BackoffUs
	w.schedule(event{at: inf.RelistAtUs, kind: evInformer, op: c.ID, gen: inf.timerGen})
	inf.BackoffUs = min(2*inf.BackoffUs, informerBackoffMaxUs)
}

// informerWake ends controller id's backoff: it lists again, or, broken
// (BugWatchFromNow), resumes watching from the server's newest revision
// without listing.
func (w *World) informerWake(id int, gen uint64) {
	c := &w.deploy.controllers[id-1]
	inf := &c.Informer
	if gen != inf.timerGen || inf.State != InformerWaiting || w.machines[c.Node].status == StatusCrashed {
		return
	}
	if w.machines[c.Node].status == StatusPaused {
		// A paused machine does nothing; it lists once it runs again.
		w.schedule(event{at: w.now + int64(w.cfg.TickMs)*1000, kind: evInformer, op: id, gen: gen})
		return
	}
	if inf.Synced && w.ncfg.has(BugWatchFromNow) {
		w.startWatch(c, w.nodes[c.Server].applied+1)
		return
	}
	w.listInformer(c)
}

// checkConverged compares controller c's cache with its API server's store
// once every event sent has been applied: the cache must then hold exactly
// the server's objects under the informer's prefixes, at their revisions.
// A difference is a change the informer missed or made up.
func (w *World) checkConverged(c *DeploymentController) {
	inf := &c.Informer
	if inf.State != InformerWatching || len(inf.inflight) > 0 {
		return
	}
	kv := &w.nodes[c.Server].kv
	n, bad := 0, ""
	for _, key := range kv.Keys() {
		if !inf.wants(key) {
			continue
		}
		n++
		if v, _ := kv.Get(key); inf.Cache[key] != v && bad == "" {
			bad = key
		}
	}
	if bad == "" && n != len(inf.Cache) {
		for _, key := range inf.cacheKeys() {
			if _, ok := kv.Get(key); !ok {
				bad = key
				break
			}
		}
	}
	if bad == "" || inf.diverged {
		inf.diverged = bad != ""
		return
	}
	inf.diverged = true
	w.deploy.fact(w, ReconcileFact{Rule: RuleCacheDiverged, Controller: c.ID, Key: bad, Rev: inf.Rev, Index: w.nodes[c.Server].applied})
}

// recordInformer traces what controller c's informer or reconcile loop did.
func (w *World) recordInformer(c *DeploymentController, text string) {
	w.record(TraceEvent{Kind: TraceInformer, Node: c.Node, Peer: c.Server, Text: text})
}
