package words

import (
	"strconv"
	"strings"

	"raftlab/raftcore"
)

// The words of Kubernetes' worker machines: the band they are drawn in,
// the lines in each one's box, their messages' tags and the Leases panel.

// WorkersBand labels the band of worker machines, ControlPlane the
// cluster of etcd members above it, each in its long and short form.
const (
	WorkersBand       = "Worker nodes (kubelets)"
	WorkersBandShort  = "Workers"
	ControlPlane      = "Control plane (etcd members)"
	ControlPlaneShort = "Control plane"
)

// A worker's condition, as the node lifecycle controller holds it.
const (
	NodeReady    = "Ready"
	NodeNotReady = "NotReady"
)

// NodeCondition is a worker's condition in words.
func NodeCondition(notReady bool) string {
	if notReady {
		return NodeNotReady
	}
	return NodeReady
}

// KubeletLine says whether a worker's kubelet runs ("up"), is paused or
// crashed, with its short form for a narrow box.
func KubeletLine(status string) (long, short string) {
	return "kubelet " + status, status
}

// The tags of a kubelet's calls to its API server, a Lease renewal and a
// listing of its Pods, and of the answers, which say whether the call
// went through.
const (
	RenewTag       = "renew Lease"
	RenewedTag     = "Lease renewed"
	RenewFailedTag = "renew failed"
	ListPodsTag    = "list Pods"
	PodsListedTag  = "Pods listed"
	ListFailedTag  = "list failed"
)

// kubeMsgTag is the tag of a message between a kubelet and an API server.
func kubeMsgTag(m *raftcore.Message) string {
	use, ok := m.KubeCall()
	switch {
	case m.Type == raftcore.MsgKube && use == raftcore.KubeRenew:
		return RenewTag
	case m.Type == raftcore.MsgKube:
		return ListPodsTag
	case use == raftcore.KubeRenew && ok:
		return RenewedTag
	case use == raftcore.KubeRenew:
		return RenewFailedTag
	case ok:
		return PodsListedTag
	}
	return ListFailedTag
}

// LeasesTitle heads the panel of the workers' node Leases.
const LeasesTitle = "Node Leases"

// LeasesKey says what the Leases panel's gauges measure, against the
// controller's grace period, at length or in short.
func LeasesKey(graceUs int64, short bool) string {
	if short {
		return "Bars: time since a renewal was seen; full at " + seconds(graceUs) + "."
	}
	return "Bars: time since the controller saw each Lease renewed, on its own clock. Full at the " + seconds(graceUs) + " grace period: NotReady."
}

// LeaseState is the line under a worker's gauge in the Leases panel: its
// condition as the controller holds it, its kubelet and its Pods.
func LeaseState(condition, kubelet string, pods []string) string {
	ps := "no Pods"
	if len(pods) > 0 {
		ps = strings.Join(pods, ", ")
	}
	return condition + " · " + kubelet + " · " + ps
}

// LeaseAge is the words beside a worker's gauge: how long the controller
// has gone without seeing its Lease renewed, of the grace period, or in
// short the time alone.
func LeaseAge(ageUs, graceUs int64, seen, short bool) string {
	switch {
	case !seen:
		return "not read yet"
	case short:
		return tenths(ageUs)
	}
	return tenths(ageUs) + " of " + seconds(graceUs)
}

// ControllerBlind says that the node lifecycle controller cannot read the
// Leases, and so marks no node.
const ControllerBlind = "The controller cannot read the Leases: it concludes nothing and marks no node."

// seconds writes a whole span such as a grace period: "50 s", "2.5 s".
func seconds(us int64) string {
	return strconv.FormatFloat(float64(us)/1e6, 'f', -1, 64) + " s"
}

// LeaseLine is one worker's line in the Leases panel: its name, its
// condition, its last renewal in simulated seconds and its Pods.
func LeaseLine(name, condition string, renewedMs *float64, pods []string) string {
	return name + " · " + condition + " · " + renewedText(renewedMs) + " · " + podsText(pods)
}

// renewedText says when a Lease was last renewed, in simulated seconds.
func renewedText(renewedMs *float64) string {
	if renewedMs == nil {
		return "never renewed"
	}
	return "renewed at " + strconv.FormatFloat(*renewedMs/1000, 'f', 1, 64) + " s"
}

// podsText lists a worker's Pods.
func podsText(pods []string) string {
	if len(pods) == 0 {
		return "no Pods"
	}
	return Count(len(pods), "Pod", "Pods") + ": " + strings.Join(pods, ", ")
}

// LeaseZone is the controller's zone state ("Normal", "PartialDisruption",
// "FullDisruption").
func LeaseZone(state string) string { return "Zone " + state }

// LeaseCounts are the checks' counts: NotReady marked while the worker was
// alive (spurious), marked late (slow), and Pods running on two workers.
func LeaseCounts(spurious, slow, twice int) string {
	return "spurious NotReady " + strconv.Itoa(spurious) + " · slow NotReady " + strconv.Itoa(slow) + " · Pods running twice " + strconv.Itoa(twice)
}

// MachineName is machine id's name: a member's as the world names it, a
// worker's as its node (and its Lease) is named ("worker-1").
func MachineName(cfg raftcore.Config, id raftcore.NodeID) string {
	if cfg.IsWorker(id) {
		return cfg.WorkerName(id)
	}
	return cfg.Name(id)
}

// kubeMsgSentence explains a kubelet's call to its API server, or the
// answer, for the inspector.
func kubeMsgSentence(cfg raftcore.Config, m *raftcore.Message) string {
	from, to := MachineName(cfg, m.From), MachineName(cfg, m.To)
	use, ok := m.KubeCall()
	switch {
	case m.Type == raftcore.MsgKube && use == raftcore.KubeRenew:
		return from + "'s kubelet asks the API server on " + to + " to renew its node Lease: a write through the replicated log, which needs a quorum."
	case m.Type == raftcore.MsgKube:
		return from + "'s kubelet asks the API server on " + to + " for the Pods bound to its node: a linearizable read, which needs a quorum too."
	case use == raftcore.KubeRenew && ok:
		return "The API server on " + from + " tells " + to + "'s kubelet its Lease is renewed: the write is committed."
	case use == raftcore.KubeRenew:
		return "The API server on " + from + " tells " + to + "'s kubelet its renewal failed; the kubelet tries the next API server."
	case ok:
		return "The API server on " + from + " lists the Pods bound to " + to + " for its kubelet, which runs them."
	}
	return "The API server on " + from + " could not list " + to + "'s Pods."
}

// Worker titles a worker machine's menu: "worker-3 · worker node".
func Worker(name string) string { return name + " · worker node" }

// WorkerTip explains a worker machine under the pointer: its condition as
// the controller holds it and its kubelet's state, its Lease's last
// renewal and its Pods, and what the pointer can do with it.
func WorkerTip(name, condition, kubelet string, renewedMs *float64, pods []string) []string {
	long, _ := KubeletLine(kubelet)
	return []string{name + ": " + condition + ", " + long, "Lease " + renewedText(renewedMs) + " · " + podsText(pods),
		"Click for actions; drag across its links to cut them."}
}

// WorkerSaid is one worker machine as the screen reader's description
// says it.
type WorkerSaid struct {
	Name, Condition, Kubelet string
	// CutFrom are the members whose links to it are cut (either way).
	CutFrom []raftcore.NodeID
}

// workersSaid says the worker machines and the node lifecycle
// controller's zone state: "3 worker nodes: worker-1 Ready; worker-2
// NotReady, kubelet crashed; worker-3 Ready, cut off from the control
// plane. Zone: Normal." Nothing without workers.
func workersSaid(cfg raftcore.Config, ws []WorkerSaid, zone string) string {
	if len(ws) == 0 {
		return ""
	}
	parts := make([]string, len(ws))
	for k, w := range ws {
		p := w.Name + " " + w.Condition
		if w.Kubelet != "up" {
			p += ", kubelet " + w.Kubelet
		}
		switch {
		case len(w.CutFrom) == cfg.Nodes:
			p += ", cut off from the control plane"
		case len(w.CutFrom) > 0:
			p += ", cut from " + NameList(cfg, w.CutFrom)
		}
		parts[k] = p
	}
	return Count(len(ws), "worker node", "worker nodes") + ": " + strings.Join(parts, "; ") + ". " + LeaseZone(zone) + "."
}

// KubeTally counts the requests Kubernetes made for one use, the
// forgotten ones included: Waiting are still unanswered, Forgotten those
// the history no longer keeps.
type KubeTally struct {
	raftcore.OpTally
	Waiting, Forgotten int
}

// KubeRequests is the Client panel's one line for the requests Kubernetes
// makes through the store, which it does not list: "Kubernetes' requests:
// 84 Lease renewals (2 failed) · 84 Pod listings · 12 controller reads ·
// 3 controller writes", by use (raftcore.KubeUse).
func KubeRequests(t [raftcore.KubeUses]KubeTally) string {
	part := func(u raftcore.KubeUse, one, many string) string {
		c := t[u]
		s := Count(c.Count, one, many)
		var more []string
		if c.Waiting > 0 {
			more = append(more, Itoa(c.Waiting)+" waiting")
		}
		if c.Failed > 0 {
			more = append(more, Itoa(c.Failed)+" failed")
		}
		if len(more) > 0 {
			s += " (" + strings.Join(more, ", ") + ")"
		}
		return s
	}
	return "Kubernetes' requests, not listed: " + strings.Join([]string{
		part(raftcore.KubeRenew, "Lease renewal", "Lease renewals"),
		part(raftcore.KubeListPods, "Pod listing", "Pod listings"),
		part(raftcore.KubeLook, "controller read", "controller reads"),
		part(raftcore.KubeWrite, "controller write", "controller writes"),
	}, " · ")
}
