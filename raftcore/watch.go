package raftcore

// Watches, as an etcd member's API server serves them. A watcher
// registered at a member from a revision receives every change to the keys
// under its prefixes that the member applies at or after that revision, in
// revision order, as events that travel the simulated network to the
// watcher's machine. The revision of a change is the log index of the
// entry that made it, the revision KV already keeps for every key.
//
// To serve a watch from a past revision, a member keeps the changes it has
// applied, as etcd's MVCC store keeps old revisions until they are
// compacted. Here the member's snapshot is its compaction: the changes at
// or below its snapshot index are folded into the snapshot and gone, and a
// watch asked to start at or below that revision is refused as compacted
// (etcd's ErrCompacted; Kubernetes answers 410 Gone, "too old resource
// version", and the informer lists again). A member also keeps no changes
// from before the first informer of the run started, since nothing asked
// it to: that revision counts as compacted too. The record is kept only in
// a world with informers, so other worlds pay nothing for it.
//
// A watch ends when the stream breaks: a link between the watcher's
// machine and the member goes down, the member crashes (its restart is a
// new process with no watchers), the member replaces its state with a
// snapshot sent by its leader (the changes it skipped are compacted away,
// so its watchers are told so), or a "watch-cut" action cuts it.

// WatchEvent is one change a watch delivers: a put or a delete of Key at
// revision Rev.
type WatchEvent struct {
	Rev     uint64 `json:"rev"`
	Key     string `json:"key"`
	Value   string `json:"value,omitempty"`
	Deleted bool   `json:"deleted,omitempty"`
}

// WatchSent is a watch event on its way from an API server to a
// controller's machine: sent at SentUs, due at ArriveUs.
type WatchSent struct {
	Controller int        `json:"controller"`
	Event      WatchEvent `json:"event"`
	SentUs     int64      `json:"sent_us"`
	ArriveUs   int64      `json:"arrive_us"`
}

// WatchesInFlight returns the watch events on their way, by controller
// and then in the order they arrive.
func (w *World) WatchesInFlight() []WatchSent {
	if w.deploy == nil {
		return nil
	}
	var out []WatchSent
	for _, c := range w.deploy.controllers {
		out = append(out, c.Informer.inflight...)
	}
	return out
}

// memberHistory is the changes one member has applied that a watch may
// still ask for: every change above compacted, in revision order.
type memberHistory struct {
	compacted uint64
	events    []WatchEvent
}

// CompactedRev is the highest revision member id can no longer replay to a
// watch: a watch must start above it. ok is false in a world without
// informers, where no member keeps changes.
func (w *World) CompactedRev(id NodeID) (rev uint64, ok bool) {
	if w.deploy == nil || id < 1 || int(id) > w.cfg.Nodes {
		return 0, false
	}
	return w.deploy.history[id].compacted, true
}

// snapIndex is a member's snapshot index (0 without one).
func (w *World) snapIndex(id NodeID) uint64 {
	if s := w.nodes[id].snap; s != nil {
		return s.Index
	}
	return 0
}

// watchApplied records the change member id made by applying e and sends
// it to the watchers registered there.
func (w *World) watchApplied(id NodeID, e Entry, did applied) {
	k := w.deploy
	k.judgeApplied(w, e, did)
	if !did.changed() || (e.Data.Kind != OpPut && e.Data.Kind != OpDelete) {
		return
	}
	if e.Data.Kind == OpDelete && did.PrevRev == 0 {
		return // deleting a missing key changes nothing
	}
	ev := WatchEvent{Rev: e.Index, Key: e.Data.Key, Value: e.Data.Value, Deleted: e.Data.Kind == OpDelete}
	h := &k.history[id]
	h.events = append(h.events, ev)
	for i := range k.controllers {
		c := &k.controllers[i]
		if c.Server == id && c.Informer.State == InformerWatching && ev.Rev >= c.Informer.watchFrom && c.Informer.wants(ev.Key) {
			w.emit(c, ev)
		}
	}
}

// watchCompacted drops the changes member id folded into the snapshot it
// just took.
func (w *World) watchCompacted(id NodeID) {
	h := &w.deploy.history[id]
	snap := w.snapIndex(id)
	if snap <= h.compacted {
		return
	}
	h.compacted = snap
	i := 0
	for i < len(h.events) && h.events[i].Rev <= snap {
		i++
	}
	h.events = h.events[i:]
}

// watchRestored forgets member id's changes when it replaces its state with
// a snapshot at index: the changes it skipped are gone, so every watch
// served there ends as compacted.
func (w *World) watchRestored(id NodeID, index uint64) {
	w.deploy.history[id] = memberHistory{compacted: index}
	w.cutWatchesAt(id, CutCompacted)
}

// watchServerRestarting forgets what a crashed member kept in memory: it
// rebuilds its store from its snapshot and log, recording the changes
// again as it re-applies them.
func (w *World) watchServerRestarting(id NodeID) {
	w.deploy.history[id] = memberHistory{compacted: w.snapIndex(id)}
}

// cutWatchesAt ends every watch served by member id.
func (w *World) cutWatchesAt(id NodeID, why CutReason) {
	for i := range w.deploy.controllers {
		c := &w.deploy.controllers[i]
		if c.Server == id && c.Informer.State == InformerWatching {
			w.cutWatch(c, why)
		}
	}
}

// reachable reports whether controller c's machine and its API server can
// talk: the same machine, or both links between them up.
func (w *World) reachable(c *DeploymentController) bool {
	if c.Node == c.Server {
		return true
	}
	return w.links[c.Node][c.Server].Up && w.links[c.Server][c.Node].Up
}

// cutWatchesByLinks notes the links between controllers and their
// servers that went down, and ends the watches over them; it runs after
// every action of a world with informers, since only actions change
// links.
func (w *World) cutWatchesByLinks() {
	for i := range w.deploy.controllers {
		c := &w.deploy.controllers[i]
		up := w.reachable(c)
		if !up && !c.cutOff {
			c.breaks++
		}
		c.cutOff = !up
		if c.Informer.State == InformerWatching && !up {
			w.cutWatch(c, CutLink)
		}
	}
}

// startWatch registers controller c's watch at its API server from
// revision from: the changes the server kept from there on are sent at
// once, in order, and later ones as the server applies them.
func (w *World) startWatch(c *DeploymentController, from uint64) {
	inf := &c.Informer
	switch {
	case w.machines[c.Server].status == StatusCrashed:
		w.watchFailed(c, CutServerDown)
		return
	case !w.reachable(c):
		w.watchFailed(c, CutLink)
		return
	case from <= w.deploy.history[c.Server].compacted:
		w.watchFailed(c, CutCompacted)
		return
	}
	inf.State, inf.watchFrom = InformerWatching, from
	inf.gen++
	inf.inflight, inf.arrival = inf.inflight[:0], w.now
	w.recordInformer(c, "watch from rev "+u(from))
	for _, ev := range w.deploy.history[c.Server].events {
		if ev.Rev >= from && inf.wants(ev.Key) {
			w.emit(c, ev)
		}
	}
	w.checkConverged(c)
}

// emit sends one change to controller c's machine. A watch is a stream:
// its events arrive in order, each no earlier than the one before.
func (w *World) emit(c *DeploymentController, ev WatchEvent) {
	inf := &c.Informer
	at := w.now
	if c.Node != c.Server {
		at += w.latency(w.links[c.Server][c.Node])
	}
	at = max(at, inf.arrival)
	inf.arrival = at
	inf.inflight = append(inf.inflight, WatchSent{Controller: c.ID, Event: ev, SentUs: w.now, ArriveUs: at})
	w.schedule(event{at: at, kind: evWatch, op: c.ID, gen: inf.gen})
}

// deliverWatch hands controller id's next watch event to its informer, if
// the watch that sent it is still the one running.
func (w *World) deliverWatch(id int, gen uint64) {
	c := &w.deploy.controllers[id-1]
	inf := &c.Informer
	if gen != inf.gen || inf.State != InformerWatching || len(inf.inflight) == 0 {
		return
	}
	if w.machines[c.Node].status == StatusPaused {
		// A paused machine reads nothing; the stream waits for it.
		w.schedule(event{at: w.now + int64(w.cfg.TickMs)*1000, kind: evWatch, op: id, gen: gen})
		return
	}
	ev := inf.inflight[0].Event
	inf.inflight = inf.inflight[1:]
	inf.Events++
	w.deploy.counts.WatchEvents++
	inf.apply(ev)
	w.recordInformer(c, eventText(ev))
	w.informed(c, ev.Key)
	if len(inf.inflight) == 0 {
		inf.inflight = nil
		w.checkConverged(c)
	}
}

func eventText(ev WatchEvent) string {
	if ev.Deleted {
		return "event: delete " + ev.Key + " at rev " + u(ev.Rev)
	}
	return "event: put " + ev.Key + " at rev " + u(ev.Rev)
}
