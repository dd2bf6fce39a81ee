package raftcore

import (
	"slices"

	"raftlab/raftcore/kube"
)

// The checks of what an operator cares about, judged from the world's own
// facts rather than from what the controller believes:
//
//   - spurious NotReady: a node marked NotReady while its kubelet had been
//     alive for a whole grace period. Alive is running (not crashed or
//     paused) and joined both ways to some running API server; a kubelet
//     whose renewals fail because etcd has no quorum is alive, so a
//     controller that concludes it died is wrong.
//   - slow NotReady: a dead node (its kubelet crashed, paused, or cut off
//     from every running API server) not marked within the grace period
//     and one renew interval, plus JudgeSlackUs for the read that shows
//     the renewal missing. Time the controller could not look (its machine
//     down, or the store without quorum) does not count: the deadline runs
//     from when it last began to see the Leases again. A controller
//     resumed from a pause gets one monitor period (and the slack) to look,
//     and a read in flight at the deadline is waited for. Whether it could
//     see is taken from its reads' outcomes, not from what it believes.
//   - a Pod running twice: a kubelet starts a Pod that another kubelet
//     still runs, as happens when a node cut off from the control plane
//     keeps running the Pods the controller moved away.
//
// Like lost updates they are findings, not violations of Raft: every Raft
// rule holds while they happen.

// KubeCheck names one of the checks.
type KubeCheck string

const (
	CheckSpuriousNotReady KubeCheck = "spurious-not-ready"
	CheckSlowNotReady     KubeCheck = "slow-not-ready"
	CheckPodTwice         KubeCheck = "pod-twice"
)

// JudgeSlackUs is the slow check's allowance for the controller's read
// through the store (a second; reads take tens of milliseconds on the
// lab's default network).
const JudgeSlackUs = 1_000_000

// KubeFinding is one failed check, as typed facts.
type KubeFinding struct {
	Check KubeCheck `json:"check"`
	AtUs  int64     `json:"at_us"`
	// Worker is the node judged (for pod-twice, the one that started the
	// Pod); Other the node that still ran it.
	Worker NodeID `json:"worker"`
	Other  NodeID `json:"other,omitempty"`
	Pod    string `json:"pod,omitempty"`
	// SinceUs is, for spurious-not-ready, when the kubelet last came
	// alive; for slow-not-ready, when it died; DeadlineUs, for
	// slow-not-ready, when it should have been NotReady.
	SinceUs    int64 `json:"since_us,omitempty"`
	DeadlineUs int64 `json:"deadline_us,omitempty"`
}

// KubeCounts are what Kubernetes did in a run.
type KubeCounts struct {
	Renewals      int `json:"renewals"`
	RenewFailures int `json:"renew_failures"`
	Looks         int `json:"looks"`
	LooksFailed   int `json:"looks_failed"`
	NotReady      int `json:"not_ready"`
	ReadyAgain    int `json:"ready_again"`
	Evictions     int `json:"evictions"`
	PodStarts     int `json:"pod_starts"`
	// Findings counts each check's findings.
	SpuriousNotReady int `json:"spurious_not_ready"`
	SlowNotReady     int `json:"slow_not_ready"`
	PodTwice         int `json:"pod_twice"`
}

// KubeEventKind is what a KubeEvent records.
type KubeEventKind uint8

const (
	KubeMarkNotReady KubeEventKind = iota + 1 // the controller marked Worker NotReady
	KubeMarkReady                             // the controller marked Worker Ready again
	KubePodStart                              // Worker's kubelet started Pod
	KubePodStop                               // Worker's kubelet stopped Pod
)

// KubeEvent is one thing Kubernetes did, as typed facts: the history an
// independent checker judges the controller by.
type KubeEvent struct {
	Kind   KubeEventKind
	AtUs   int64
	Worker NodeID
	Pod    string
}

// KubeEvents returns everything the controller concluded and the kubelets
// started and stopped, in order (nil without workers).
func (w *World) KubeEvents() []KubeEvent {
	if w.kube == nil {
		return nil
	}
	return capped(w.kube.events)
}

func (w *World) kubeNote(kind KubeEventKind, id NodeID, pod string) {
	w.kube.events = append(w.kube.events, KubeEvent{Kind: kind, AtUs: w.now, Worker: id, Pod: pod})
}

// judgeState is what the judge knows of one worker.
type judgeState struct {
	alive bool
	// since is when alive last changed (true time).
	since int64
	// gen numbers the pending deadline: an older one does nothing.
	// observing is the kubeWorld's seeingSince it was set from.
	gen       uint64
	observing int64
	// waiting is set while the deadline of generation waitGen waits for
	// the controller's read in flight.
	waiting bool
	waitGen uint64
}

// kubeFind records a finding.
func (w *World) kubeFind(f KubeFinding, text string) {
	k := w.kube
	f.AtUs = w.now
	switch f.Check {
	case CheckSpuriousNotReady:
		k.counts.SpuriousNotReady++
	case CheckSlowNotReady:
		k.counts.SlowNotReady++
	case CheckPodTwice:
		k.counts.PodTwice++
	}
	if len(k.findings) < maxViolations {
		k.findings = append(k.findings, f)
	}
	w.record(TraceEvent{Kind: TraceKube, Node: f.Worker, Peer: f.Other, Text: string(f.Check) + ": " + text})
}

// workerAlive reports whether worker id's kubelet runs and can reach some
// running API server both ways.
func (w *World) workerAlive(id NodeID) bool {
	if w.machines[id].status != StatusUp {
		return false
	}
	for m := 1; m <= w.cfg.Nodes; m++ {
		if w.machines[m].status == StatusUp && w.links[id][m].Up && w.links[m][id].Up {
			return true
		}
	}
	return false
}

// kubeJudgeAll brings the judge up to date after anything that can change
// whether a kubelet is alive (every action), or when the controller began
// to look again.
func (w *World) kubeJudgeAll() {
	k := w.kube
	// A controller resumed from a pause looks within a monitor period: a
	// deadline that fell while it was paused moves there.
	ctlUp := w.machines[k.ctl.node].status == StatusUp
	resumed := ctlUp && k.ctlPaused
	k.ctlPaused = w.machines[k.ctl.node].status == StatusPaused
	if resumed {
		k.ctlResumedUs = w.now
	}
	for i := range k.judge {
		id := NodeID(w.cfg.Nodes + 1 + i)
		j := &k.judge[i]
		alive := w.workerAlive(id)
		if alive == j.alive && j.observing == k.seeingSince && !resumed {
			continue // its deadline, if any, stands
		}
		if alive != j.alive {
			j.alive, j.since = alive, w.now
		}
		j.observing = k.seeingSince
		j.gen++
		if !j.alive && k.seeingSince >= 0 {
			at := max(kube.SlowDeadline(j.since, k.seeingSince, k.set, JudgeSlackUs),
				k.ctlResumedUs+k.set.MonitorUs+JudgeSlackUs)
			w.schedule(event{at: max(at, w.now), kind: evKube, node: id, op: kubeDeadline, gen: j.gen})
		}
	}
}

// judgeDeadline checks that a dead node is NotReady by its deadline.
func (w *World) judgeDeadline(id NodeID, gen uint64) {
	k := w.kube
	i := int(id) - w.cfg.Nodes - 1
	j := &k.judge[i]
	c := &k.ctl
	if gen != j.gen || j.alive || !k.seeing || w.machines[c.node].status != StatusUp || c.health[i].NotReady {
		return
	}
	if c.looking != 0 || c.nextPollUs == w.now {
		// The read that would show the renewal missing is on its way (or
		// leaves at this very instant): judge when it is answered, by
		// which time the controller has concluded, or learnt that it
		// cannot see.
		j.waiting, j.waitGen = true, gen
		return
	}
	w.kubeFind(KubeFinding{Check: CheckSlowNotReady, Worker: id, SinceUs: j.since, DeadlineUs: w.now},
		w.cfg.WorkerName(id)+" is dead and still not NotReady")
}

// judgeLooked follows whether the controller can see the Leases, from the
// outcome of its reads as they reach it, whatever it makes of them: a
// controller that goes on judging after a failed read (a deliberate bug)
// still could not see.
func (w *World) judgeLooked(ok bool) {
	k := w.kube
	switch {
	case !ok:
		k.seeing = false
	case !k.seeing:
		k.seeing, k.seeingSince = true, w.now
		w.kubeJudgeAll()
	}
}

// judgeWaiting judges the deadlines that waited for the controller's read.
func (w *World) judgeWaiting() {
	for i := range w.kube.judge {
		if j := &w.kube.judge[i]; j.waiting {
			j.waiting = false
			w.judgeDeadline(NodeID(w.cfg.Nodes+1+i), j.waitGen)
		}
	}
}

// judgeMarked checks a NotReady mark the controller just made.
func (w *World) judgeMarked(id NodeID) {
	j := &w.kube.judge[int(id)-w.cfg.Nodes-1]
	if kube.Spurious(j.alive, j.since, w.now, w.kube.set.GraceUs) {
		w.kubeFind(KubeFinding{Check: CheckSpuriousNotReady, Worker: id, SinceUs: j.since},
			w.cfg.WorkerName(id)+" is marked NotReady while its kubelet is alive")
	}
}

// KubeSummary is the Kubernetes part of a run's summary.
type KubeSummary struct {
	Counts   KubeCounts    `json:"counts"`
	Findings []KubeFinding `json:"findings"`
	Nodes    []KubeNode    `json:"nodes"`
	Zone     string        `json:"zone"`
}

// KubeNode is one worker as the summary shows it.
type KubeNode struct {
	ID     NodeID `json:"id"`
	Name   string `json:"name"`
	Status string `json:"status"`
	// Alive is the judge's view; NotReady the controller's.
	Alive    bool     `json:"alive"`
	NotReady bool     `json:"not_ready"`
	Pods     []string `json:"pods"`
	// LastRenewedMs is when its last renewal was acknowledged (absent:
	// never).
	LastRenewedMs *float64 `json:"last_renewed_ms,omitempty"`
}

// Kube describes the Kubernetes part of the world; ok is false without
// workers.
func (w *World) Kube() (KubeSummary, bool) {
	k := w.kube
	if k == nil {
		return KubeSummary{}, false
	}
	s := KubeSummary{Counts: k.counts, Findings: slices.Clone(k.findings), Zone: k.ctl.zone.String()}
	if s.Findings == nil {
		s.Findings = []KubeFinding{}
	}
	for i := range k.kubelets {
		id := NodeID(w.cfg.Nodes + 1 + i)
		kl := &k.kubelets[i]
		n := KubeNode{ID: id, Name: w.cfg.WorkerName(id), Status: w.machines[id].status.String(),
			Alive: k.judge[i].alive, NotReady: k.ctl.health[i].NotReady, Pods: slices.Clone(kl.running)}
		if n.Pods == nil {
			n.Pods = []string{}
		}
		if kl.lastRenewedUs >= 0 {
			ms := float64(kl.lastRenewedUs) / 1000
			n.LastRenewedMs = &ms
		}
		s.Nodes = append(s.Nodes, n)
	}
	return s, true
}

// KubeFindings returns the findings so far (the first 200).
func (w *World) KubeFindings() []KubeFinding {
	if w.kube == nil {
		return nil
	}
	return capped(w.kube.findings)
}

// KubeCounts returns what Kubernetes did so far (zero without workers).
func (w *World) KubeCounts() KubeCounts {
	if w.kube == nil {
		return KubeCounts{}
	}
	return w.kube.counts
}

// KubeLeaseAge is how long the node lifecycle controller has gone, on its
// own clock, without seeing worker id's Lease renewed: Kubernetes' now
// minus probeTimestamp, which it holds against the grace period. ok is
// false while it has not yet looked at that Lease (since it started, or
// restarted with its machine).
func (w *World) KubeLeaseAge(id NodeID) (ageUs int64, ok bool) {
	k := w.kube
	i := int(id) - w.cfg.Nodes - 1
	if k == nil || i < 0 || i >= len(k.ctl.health) || !k.ctl.health[i].Seen {
		return 0, false
	}
	return w.kubeClockUs(k.ctl.node) - k.ctl.health[i].ProbeUs, true
}

// KubeBlind reports whether the node lifecycle controller cannot read the
// Leases now (its last read failed, or its machine restarted and has not
// read yet): it then concludes nothing, however old a renewal looks.
func (w *World) KubeBlind() bool { return w.kube != nil && w.kube.ctl.blind }
