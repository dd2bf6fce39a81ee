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

// KubeletLine says whether a worker's kubelet runs ("up"), is paused or
// crashed, with its short form for a narrow box.
func KubeletLine(status string) (long, short string) {
	return "kubelet " + status, status
}

// The tags of a kubelet's call to its API server (a Lease renewal or a
// listing of its Pods) and of the answer.
const (
	KubeCallTag   = "kubelet call"
	KubeAnswerTag = "API answer"
)

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
	renewed := "never renewed"
	if renewedMs != nil {
		renewed = "renewed at " + strconv.FormatFloat(*renewedMs/1000, 'f', 1, 64) + " s"
	}
	ps := "no Pods"
	if len(pods) > 0 {
		ps = Count(len(pods), "Pod", "Pods") + ": " + strings.Join(pods, ", ")
	}
	return name + " · " + condition + " · " + renewed + " · " + ps
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
	if m.Type == raftcore.MsgKube {
		return from + "'s kubelet asks the API server on " + to + " to renew its node Lease, or to list its Pods: a write or a read through the replicated store."
	}
	return "The API server on " + from + " answers " + to + "'s kubelet."
}

// Worker titles a worker machine's menu: "worker-3 · worker node".
func Worker(name string) string { return name + " · worker node" }
