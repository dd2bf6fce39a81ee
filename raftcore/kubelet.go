package raftcore

import (
	"slices"
	"strconv"
	"strings"

	"raftlab/raftcore/kube"
)

// Kubelets and API servers. A kubelet renews its node's Lease
// ("leases/worker-1", value "renew=<ms>" in the kubelet's own clock) every
// renew interval and lists the Pods bound to its node, each by a request
// to one API server over the simulated network. The API server runs on an
// etcd member (a stacked control plane) and turns the request into a
// client operation of that member, through Raft: a renewal is a write, so
// it fails or waits when etcd has no quorum, and a listing is a
// linearizable range read. A request that fails or gets no answer within
// the renew interval is retried with Kubernetes' backoff, at the next API
// server.

// KubeUse says which part of Kubernetes made a client operation.
type KubeUse uint8

const (
	KubeNone KubeUse = iota
	// KubeRenew is a kubelet's Lease renewal; KubeListPods its listing of
	// the Pods bound to its node.
	KubeRenew
	KubeListPods
	// KubeLook is the node lifecycle controller's read of every Lease and
	// Pod; KubeWrite one of its writes (a node's condition, a Pod's
	// binding).
	KubeLook
	KubeWrite
	// KubeUses is how many uses there are, KubeNone included.
	KubeUses
)

var kubeUseNames = [...]string{"", "renew", "list-pods", "look", "write"}

func (k KubeUse) String() string {
	if int(k) < len(kubeUseNames) {
		return kubeUseNames[k]
	}
	return "kube(" + strconv.Itoa(int(k)) + ")"
}

// MarshalText lets JSON show the use by name.
func (k KubeUse) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// UnmarshalText reads a use by name.
func (k *KubeUse) UnmarshalText(b []byte) error { return parseName(k, "kube use", kubeUseNames[:], b) }

// kubeCall is what a message between a kubelet and an API server carries.
type kubeCall struct {
	use    KubeUse
	req    uint64
	worker NodeID
	// renewUs is the renewTime a renewal writes (the kubelet's clock).
	renewUs int64
	// ok answers a request; pods are the Pods bound to the worker, by
	// name, in a listing's answer.
	ok   bool
	pods []string
}

// kubeletState is one worker's kubelet.
type kubeletState struct {
	// gen is bumped when the kubelet stops (pause, crash): its pending
	// wake-ups of another generation do nothing.
	gen uint64
	// server is the member whose API server it talks to.
	server NodeID
	// renewing is the id of the renewal in flight (0: none); tries counts
	// the failed attempts since the last success.
	renewing uint64
	tries    int
	// running are the Pods it runs, by name, sorted.
	running []string
	// lastRenewedUs is when its last renewal was acknowledged (true
	// time; -1 never).
	lastRenewedUs int64
}

// kubeWorld is the world's Kubernetes part; nil without workers.
type kubeWorld struct {
	set      kube.Settings
	kubelets []kubeletState // by worker, index id-Nodes-1
	judge    []judgeState   // by worker
	ctl      nodeController
	nextReq  uint64
	counts   KubeCounts
	findings []KubeFinding
	// events is the history KubeEvents returns; only appended to.
	events []KubeEvent
	// seeing is whether the controller's last read heard succeeded, and
	// seeingSince when it last began to succeed (-1: never, or not since
	// its machine crashed): the judge's view of what it could see.
	seeing      bool
	seeingSince int64
	// ctlPaused is whether the controller's machine was paused after the
	// last action, and ctlResumedUs when it was last resumed (-1: never).
	ctlPaused    bool
	ctlResumedUs int64
}

func (k *kubeWorld) clone() *kubeWorld {
	c := *k
	c.kubelets = slices.Clone(k.kubelets)
	for i := range c.kubelets {
		c.kubelets[i].running = slices.Clone(k.kubelets[i].running)
	}
	c.judge = slices.Clone(k.judge)
	c.ctl = k.ctl.clone()
	c.findings = slices.Clone(k.findings)
	c.events = capped(k.events)
	return &c
}

// Event kinds of evKube (event.op).
const (
	kubeWake     = iota // a kubelet's renew interval ran out (gen: kubelet's)
	kubeRetry           // a kubelet retries a failed renewal (gen: kubelet's)
	kubeGiveUp          // a kubelet's request timed out (gen: the request)
	kubePoll            // the controller looks (gen: controller's)
	kubeDeadline        // the judge's deadline for a dead node (gen: judge's)
)

// initKube starts the kubelets, each at a random phase of its interval, and
// the controller.
func (w *World) initKube() {
	k := &kubeWorld{set: w.cfg.kubeSettings(), ctlResumedUs: -1, seeingSince: -1}
	w.kube = k
	k.kubelets = make([]kubeletState, w.cfg.Workers)
	k.judge = make([]judgeState, w.cfg.Workers)
	for i := range k.kubelets {
		id := NodeID(w.cfg.Nodes + 1 + i)
		// Kubelets spread over the API servers, as behind a load balancer.
		k.kubelets[i] = kubeletState{server: NodeID(1 + i%w.cfg.Nodes), lastRenewedUs: -1}
		k.judge[i] = judgeState{alive: true, observing: -1}
		w.schedule(event{at: 1 + w.rng.Int63n(k.set.RenewUs), kind: evKube, node: id, op: kubeWake})
	}
	w.initController()
}

func (w *World) kubelet(id NodeID) *kubeletState { return &w.kube.kubelets[int(id)-w.cfg.Nodes-1] }

// kubeClockUs is machine id's own clock: true time plus its drift.
func (w *World) kubeClockUs(id NodeID) int64 {
	m := &w.machines[id]
	return w.now + m.offsetUs + driftUs(w.now-m.offsetAt, m.drift)
}

// ownUs is how much true time a span of us on machine id's clock takes.
func (w *World) ownUs(id NodeID, us int64) int64 {
	return max(int64(float64(us)/w.machines[id].drift+0.5), 1)
}

// kubeEvent handles an evKube event.
func (w *World) kubeEvent(e event) {
	switch e.op {
	case kubeWake, kubeRetry:
		kl := w.kubelet(e.node)
		if e.gen != kl.gen || w.machines[e.node].status != StatusUp {
			return
		}
		if e.op == kubeWake {
			w.schedule(event{at: w.now + w.ownUs(e.node, w.kube.set.RenewUs), kind: evKube, node: e.node, op: kubeWake, gen: kl.gen})
			kl.tries = 0
		}
		if kl.renewing == 0 {
			w.kubeletRenew(e.node)
		}
	case kubeGiveUp:
		if kl := w.kubelet(e.node); kl.renewing == e.gen {
			w.kubeletFailed(e.node)
		}
	case kubePoll:
		w.controllerPoll(e.gen)
	case kubeDeadline:
		w.judgeDeadline(e.node, e.gen)
	}
}

// kubeletRenew sends a renewal and a listing of the node's Pods to the
// kubelet's API server.
func (w *World) kubeletRenew(id NodeID) {
	k, kl := w.kube, w.kubelet(id)
	k.nextReq++
	kl.renewing = k.nextReq
	w.send(Message{Type: MsgKube, From: id, To: kl.server,
		Client: &ClientRequest{kube: &kubeCall{use: KubeRenew, req: k.nextReq, worker: id, renewUs: w.kubeClockUs(id)}}})
	k.nextReq++
	w.send(Message{Type: MsgKube, From: id, To: kl.server,
		Client: &ClientRequest{kube: &kubeCall{use: KubeListPods, req: k.nextReq, worker: id}}})
	// The request times out after a renew interval (Kubernetes' heartbeat
	// client gives a request that long).
	w.schedule(event{at: w.now + w.ownUs(id, k.set.RenewUs), kind: evKube, node: id, op: kubeGiveUp, gen: kl.renewing})
}

// KubeletLongestBackoffUs is the longest a kubelet waits before it retries
// a failed renewal (its last retry's backoff), for judges of its timing.
func KubeletLongestBackoffUs() int64 { return kube.Backoff(kube.MaxRetries) }

// kubeletFailed moves the kubelet to the next API server and retries with
// backoff, up to MaxRetries times within one interval.
func (w *World) kubeletFailed(id NodeID) {
	kl := w.kubelet(id)
	kl.renewing = 0
	kl.tries++
	w.kube.counts.RenewFailures++
	kl.server = kl.server%NodeID(w.cfg.Nodes) + 1
	if kl.tries <= kube.MaxRetries {
		w.schedule(event{at: w.now + w.ownUs(id, kube.Backoff(kl.tries)), kind: evKube, node: id, op: kubeRetry, gen: kl.gen})
	}
}

// handleKube handles a message between a kubelet and an API server at its
// receiver, which is running.
func (w *World) handleKube(m Message) {
	w.record(TraceEvent{Kind: TraceDeliver, Node: m.To, Peer: m.From, Msg: m.ID, MsgType: m.Type, Text: m.Type.String()})
	c := m.Client.kube
	if m.Type == MsgKube {
		w.apiServe(m.To, c)
		return
	}
	kl := w.kubelet(m.To)
	switch c.use {
	case KubeRenew:
		if kl.renewing != c.req {
			return // an answer to a request it gave up on
		}
		if !c.ok {
			w.kubeletFailed(m.To)
			return
		}
		kl.renewing, kl.tries, kl.lastRenewedUs = 0, 0, w.now
		w.kube.counts.Renewals++
	case KubeListPods:
		if c.ok {
			w.kubeletRun(m.To, c.pods)
		}
	}
}

// apiServe is the API server on member id turning a kubelet's request into
// a client operation of that member.
func (w *World) apiServe(id NodeID, c *kubeCall) {
	name := w.cfg.WorkerName(c.worker)
	op := Op{Node: id, Kube: c.use, Worker: c.worker, kubeReq: c.req}
	switch c.use {
	case KubeRenew:
		op.Kind, op.Key, op.Value = DoWrite, leaseKey+name, "renew="+strconv.FormatInt(c.renewUs/1000, 10)
	case KubeListPods:
		op.Kind, op.Key, op.Mode = DoRead, podKey, ReadLinearizable
	}
	w.invoke(op)
}

// Keys of the objects in the store.
const (
	leaseKey = "leases/"
	nodeKey  = "nodes/"
	podKey   = "pods/"
)

// apiAnswer sends the answer to a kubelet's request once its operation
// ended. A listing is answered from the state the member has applied, which
// the linearizable read waited for. An API server whose machine is down
// sends nothing; the kubelet's request times out.
func (w *World) apiAnswer(op *Op) {
	if w.machines[op.Node].status != StatusUp {
		return
	}
	c := &kubeCall{use: op.Kube, req: op.kubeReq, worker: op.Worker, ok: op.Result == OpOK}
	if c.ok && op.Kube == KubeListPods {
		name := w.cfg.WorkerName(op.Worker)
		for _, p := range w.podsAt(op.Node) {
			if p.node == name {
				c.pods = append(c.pods, p.name)
			}
		}
	}
	w.send(Message{Type: MsgKubeResp, From: op.Node, To: op.Worker, Client: &ClientRequest{kube: c}})
}

// pod is a Pod as the store holds it: its name and the node it is bound to
// ("" while it waits for one).
type pod struct{ name, node string }

// podsAt lists the Pods in member id's applied state, by name.
func (w *World) podsAt(id NodeID) []pod {
	var out []pod
	kv := &w.nodes[id].kv
	for _, key := range kv.Keys() {
		name, ok := strings.CutPrefix(key, podKey)
		if !ok {
			continue
		}
		v, _ := kv.Get(key)
		node, _ := strings.CutPrefix(v.Value, "node=")
		out = append(out, pod{name: name, node: node})
	}
	return out
}

// kubeletRun makes the kubelet run exactly the Pods bound to its node:
// those it starts are checked against every other kubelet that still runs
// them.
func (w *World) kubeletRun(id NodeID, pods []string) {
	kl := w.kubelet(id)
	for _, p := range pods {
		if slices.Contains(kl.running, p) {
			continue
		}
		w.record(TraceEvent{Kind: TraceKube, Node: id, Text: "start pod " + p})
		w.kubeNote(KubePodStart, id, p)
		w.kube.counts.PodStarts++
		for i := range w.kube.kubelets {
			other := NodeID(w.cfg.Nodes + 1 + i)
			if other != id && w.machines[other].status != StatusCrashed && slices.Contains(w.kube.kubelets[i].running, p) {
				w.kubeFind(KubeFinding{Check: CheckPodTwice, Worker: id, Other: other, Pod: p},
					"pod "+p+" runs on "+w.cfg.WorkerName(id)+" and on "+w.cfg.WorkerName(other))
			}
		}
	}
	for _, p := range kl.running {
		if !slices.Contains(pods, p) {
			w.record(TraceEvent{Kind: TraceKube, Node: id, Text: "stop pod " + p})
			w.kubeNote(KubePodStop, id, p)
		}
	}
	kl.running = append(kl.running[:0], pods...)
}

// applyWorker applies a verb done to a worker machine.
func (w *World) applyWorker(a Action) {
	id := NodeID(a.Node)
	m := &w.machines[id]
	kl := w.kubelet(id)
	switch a.Do {
	case DoPause:
		if m.status == StatusUp {
			m.status = StatusPaused
			m.workGen++
			kl.gen++
		}
	case DoResume:
		if m.status == StatusPaused {
			m.status = StatusUp
			m.busyUntil = w.now
			kl.gen++
			kl.renewing = 0
			// Its ticker fires at once: the interval ran out while it was
			// frozen.
			w.schedule(event{at: w.now, kind: evKube, node: id, op: kubeWake, gen: kl.gen})
			if len(m.work) > 0 {
				w.scheduleWork(id)
			}
		}
	case DoCrash:
		if m.status != StatusCrashed {
			m.status = StatusCrashed
			m.workGen++
			for _, msg := range m.work {
				w.recordDrop(msg, DropMachineDown)
			}
			m.work = nil
			// Its containers die with it; the kubelet starts again with
			// no memory of what it ran.
			*kl = kubeletState{gen: kl.gen + 1, server: kl.server, lastRenewedUs: kl.lastRenewedUs}
		}
	case DoRestart:
		if m.status == StatusCrashed {
			m.status = StatusUp
			m.busyUntil = w.now
			kl.gen++
			w.schedule(event{at: w.now, kind: evKube, node: id, op: kubeWake, gen: kl.gen})
		}
	case DoSlow:
		m.slow = a.MsPerMessage
	case DoDrift:
		w.setDrift(id, a.Rate)
	}
}

// KubeCall says what a message between a kubelet and an API server is
// about: a Lease renewal or a listing of the node's Pods (KubeNone for any
// other message), and, on an answer, whether it succeeded. A reader tells
// the two calls apart by it; the world never reads it.
func (m *Message) KubeCall() (use KubeUse, ok bool) {
	if m.Client == nil || m.Client.kube == nil {
		return KubeNone, false
	}
	return m.Client.kube.use, m.Client.kube.ok
}
