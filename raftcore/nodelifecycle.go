package raftcore

import (
	"slices"
	"strconv"
	"strings"

	"raftlab/raftcore/kube"
)

// The node lifecycle controller. It runs on one member's machine
// (KubeConfig.ControllerNode) and uses that member's API server. Every
// monitor period of its own clock it reads every Lease and Pod in one
// linearizable range read through Raft, and for each node remembers when,
// on its own clock, it last saw the Lease's renewTime change (Kubernetes'
// probeTimestamp): it never compares the kubelet's clock with its own. A
// node whose Lease has not changed for the grace period is marked NotReady
// (the condition is written to "nodes/<node>"); after the eviction delay
// its Pods are moved to the Ready node with the fewest, unless the zone is
// disrupted (package kube). It also places the workload's Pods when they
// do not exist yet, as the ReplicaSet controller and scheduler would.
//
// When its read fails (no leader, no quorum, a timeout) it concludes
// nothing: no node is judged on what it could not read, and once a read
// succeeds again every grace period starts afresh, since the time it could
// not look says nothing about the kubelets. A crash of its machine loses
// everything it remembered: restarted, it takes each node's condition from
// the store, as Kubernetes' does from the Node's status, and a node turns
// Ready only once its Lease is renewed. Paused, it does nothing until
// resumed.

// nodeController is the controller's state.
type nodeController struct {
	node NodeID
	gen  uint64
	// looking is the id of the read in flight (0: none); nextPollUs is
	// when it next looks.
	looking    int
	nextPollUs int64
	// blind is set while it cannot read: since its last read failed, or
	// since its machine restarted.
	blind bool
	// observingSince is the true time it last began to see the Leases
	// again (-1: never yet).
	observingSince int64
	health         []kube.Health // by worker
	pods           []pod         // as last read
	zone           kube.ZoneState
	// writing are the keys of its writes in flight: it does not write a
	// key again before the first write's answer.
	writing []string
}

func (c nodeController) clone() nodeController {
	c.health = slices.Clone(c.health)
	c.pods = slices.Clone(c.pods)
	c.writing = slices.Clone(c.writing)
	return c
}

func (w *World) initController() {
	c := &w.kube.ctl
	*c = nodeController{node: NodeID(w.cfg.Kube.ControllerNode), gen: c.gen + 1, blind: true, observingSince: -1,
		health: make([]kube.Health, w.cfg.Workers)}
	w.schedulePoll()
}

// schedulePoll queues the controller's next look, a monitor period of its
// own clock from now.
func (w *World) schedulePoll() {
	c := &w.kube.ctl
	c.nextPollUs = w.now + w.ownUs(c.node, w.kube.set.MonitorUs)
	w.schedule(event{at: c.nextPollUs, kind: evKube, op: kubePoll, gen: c.gen})
}

// kubeCrashed is told that machine id crashed: the controller on it loses
// its memory and starts again, blind.
func (w *World) kubeCrashed(id NodeID) {
	if id != w.kube.ctl.node {
		return
	}
	w.initController()
	w.kube.seeing, w.kube.seeingSince = false, -1
	w.kubeJudgeAll()
}

// controllerPoll is the controller's monitor period running out.
func (w *World) controllerPoll(gen uint64) {
	c := &w.kube.ctl
	if gen != c.gen {
		return
	}
	w.schedulePoll()
	if w.machines[c.node].status != StatusUp || c.looking != 0 {
		return
	}
	// The read is noted before it is made: invoke may answer it at once.
	c.looking = w.nextOpID()
	w.invoke(Op{Kind: DoRead, Node: c.node, Key: leaseKey, Mode: ReadLinearizable, Kube: KubeLook})
}

// kubeHeard routes the end of an operation Kubernetes made.
func (w *World) kubeHeard(op *Op) {
	switch op.Kube {
	case KubeRenew, KubeListPods:
		w.apiAnswer(op)
	case KubeLook:
		c := &w.kube.ctl
		if op.ID != c.looking {
			return
		}
		c.looking = 0
		if w.machines[c.node].status != StatusUp {
			// A paused controller hears nothing (it reads again when
			// resumed, and the kubelets renewed meanwhile, so its memory
			// still holds); a crashed one has forgotten everything.
			return
		}
		w.judgeLooked(op.Result == OpOK)
		w.controllerLooked(op)
		w.judgeWaiting()
	case KubeWrite:
		c := &w.kube.ctl
		if i := slices.Index(c.writing, op.Key); i >= 0 {
			c.writing = slices.Delete(c.writing, i, i+1)
		}
	}
}

// controllerLooked judges every node on what the read saw.
func (w *World) controllerLooked(op *Op) {
	k := w.kube
	c := &k.ctl
	now := w.kubeClockUs(c.node)
	bugs := w.ncfg.bugs
	if op.Result != OpOK {
		k.counts.LooksFailed++
		if bugs&BugKubeConcludeBlind == 0 {
			if !c.blind {
				w.record(TraceEvent{Kind: TraceKube, Node: c.node, Op: op.ID, Text: "controller cannot read the leases: concludes nothing"})
			}
			c.blind = true
			return
		}
		// The broken controller judges on what it saw last, as if nothing
		// had been renewed since.
	} else {
		k.counts.Looks++
		if c.blind {
			c.blind = false
			c.observingSince = w.now
			for i := range c.health {
				c.health[i].Restart(now)
			}
		}
		kv := &w.nodes[c.node].kv
		for i := range c.health {
			v, found := kv.Get(leaseKey + w.cfg.WorkerName(NodeID(w.cfg.Nodes+1+i)))
			renew := int64(-1)
			if found {
				ms, err := strconv.ParseInt(strings.TrimPrefix(v.Value, "renew="), 10, 64)
				if err == nil {
					renew = ms * 1000
				}
			}
			h := &c.health[i]
			first := !h.Seen
			h.Observe(found, renew, now)
			if first {
				// A node the store already holds NotReady stays so until
				// its Lease is renewed: a restarted controller takes the
				// condition from the store, as Kubernetes' does from the
				// Node's status.
				v, _ := kv.Get(nodeKey + w.cfg.WorkerName(NodeID(w.cfg.Nodes+1+i)))
				h.NotReady = v.Value == condition(true)
			}
		}
		c.pods = w.podsAt(c.node)
	}
	// The conditions as the store holds them, to write again any that a
	// failed write left behind (nil when the read failed).
	var stored []string
	if op.Result == OpOK {
		kv := &w.nodes[c.node].kv
		for i := range c.health {
			v, _ := kv.Get(nodeKey + w.cfg.WorkerName(NodeID(w.cfg.Nodes+1+i)))
			stored = append(stored, v.Value)
		}
	}
	ready := 0
	for i := range c.health {
		h := &c.health[i]
		id := NodeID(w.cfg.Nodes + 1 + i)
		if h.Judge(now, k.set.GraceUs, bugs&BugKubeTrustKubeletClock != 0) {
			w.controllerMarked(id, h.NotReady)
		}
		if !h.NotReady {
			ready++
		}
		if stored != nil && h.Seen && stored[i] != condition(h.NotReady) {
			w.controllerWrite(nodeKey+w.cfg.WorkerName(id), condition(h.NotReady))
		}
	}
	zone := kube.ComputeZoneState(ready, len(c.health)-ready)
	if zone != c.zone {
		c.zone = zone
		w.record(TraceEvent{Kind: TraceKube, Node: c.node, Text: "zone " + zone.String()})
	}
	if kube.EvictionsAllowed(zone, len(c.health)) || bugs&BugKubeEvictInDisruption != 0 {
		w.controllerEvict(now)
	}
	w.controllerPlace()
}

// controllerMarked records and writes a node's new condition.
func (w *World) controllerMarked(id NodeID, notReady bool) {
	k := w.kube
	name := w.cfg.WorkerName(id)
	if notReady {
		k.counts.NotReady++
		w.record(TraceEvent{Kind: TraceKube, Node: id, Text: name + " NotReady"})
		w.kubeNote(KubeMarkNotReady, id, "")
		w.judgeMarked(id)
	} else {
		k.counts.ReadyAgain++
		w.record(TraceEvent{Kind: TraceKube, Node: id, Text: name + " Ready"})
		w.kubeNote(KubeMarkReady, id, "")
	}
	w.controllerWrite(nodeKey+name, condition(notReady))
}

// condition is a node's Ready condition as the store holds it: Unknown
// when the controller stopped hearing from the node, as Kubernetes sets it.
func condition(notReady bool) string {
	if notReady {
		return "ready=unknown"
	}
	return "ready=true"
}

func (w *World) controllerWrite(key, value string) {
	c := &w.kube.ctl
	if slices.Contains(c.writing, key) {
		return
	}
	c.writing = append(c.writing, key)
	w.invoke(Op{Kind: DoWrite, Node: c.node, Key: key, Value: value, Kube: KubeWrite})
}

// controllerEvict moves the Pods of every node NotReady for the eviction
// delay to the Ready node with the fewest Pods. A Pod with no Ready node to
// go to stays where it is.
func (w *World) controllerEvict(now int64) {
	k := w.kube
	c := &k.ctl
	for i, h := range c.health {
		if !h.NotReady || now-h.SinceUs < k.set.EvictUs {
			continue
		}
		name := w.cfg.WorkerName(NodeID(w.cfg.Nodes + 1 + i))
		for pi, p := range c.pods {
			if p.node != name {
				continue
			}
			to, ok := w.leastLoaded()
			if !ok {
				return
			}
			c.pods[pi].node = to
			if !slices.Contains(c.writing, podKey+p.name) {
				k.counts.Evictions++
				w.record(TraceEvent{Kind: TraceKube, Node: c.node, Text: "evict pod " + p.name + " from " + name + " to " + to})
			}
			w.controllerWrite(podKey+p.name, "node="+to)
		}
	}
}

// controllerPlace creates the workload's missing Pods and binds waiting
// ones, each on the Ready node with the fewest Pods.
func (w *World) controllerPlace() {
	c := &w.kube.ctl
	// Kubelets start within one renew interval: until then a node whose
	// Lease is not written yet may only be late, and placing every Pod on
	// the first node seen would pile them up there.
	if w.now-c.observingSince < w.kube.set.RenewUs && slices.ContainsFunc(c.health, func(h kube.Health) bool { return h.RenewUs < 0 }) {
		return
	}
	for n := 1; n <= w.cfg.Kube.Pods; n++ {
		name := "web-" + strconv.Itoa(n)
		i := slices.IndexFunc(c.pods, func(p pod) bool { return p.name == name })
		if i >= 0 && c.pods[i].node != "" {
			continue
		}
		to, ok := w.leastLoaded()
		if !ok {
			return
		}
		if i < 0 {
			c.pods = append(c.pods, pod{name: name, node: to})
		} else {
			c.pods[i].node = to
		}
		w.controllerWrite(podKey+name, "node="+to)
	}
}

// leastLoaded is the Ready node with the fewest Pods as the controller
// last saw them (the lowest-numbered among equals).
func (w *World) leastLoaded() (string, bool) {
	c := &w.kube.ctl
	best, bestN := "", 0
	for i, h := range c.health {
		if !h.Seen || h.NotReady || h.RenewUs < 0 {
			continue
		}
		name := w.cfg.WorkerName(NodeID(w.cfg.Nodes + 1 + i))
		n := 0
		for _, p := range c.pods {
			if p.node == name {
				n++
			}
		}
		if best == "" || n < bestN {
			best, bestN = name, n
		}
	}
	return best, best != ""
}
