package raftcore

import (
	"fmt"
	"strconv"

	"raftlab/raftcore/kube"
)

// Kubernetes on top of the store: worker machines, their kubelets, node
// Lease objects and the node lifecycle controller (kubelet.go,
// nodelifecycle.go, kubecheck.go). Workers are machines numbered after the
// etcd members (Config.Nodes+1 ...): they are not Raft voters, hold no log,
// and run a kubelet that talks to the members' API servers over the
// simulated network. The existing verbs act on them by that number: crash,
// restart, pause, resume, slow and drift a worker; cut, restore, partition,
// latency and loss its links. A world without workers has none of this and
// pays nothing for it.

// MaxWorkers bounds Config.Workers.
const MaxWorkers = 10

// KubeConfig holds the heartbeat intervals and the workload, in
// milliseconds of simulated time. Kubernetes' defaults are named beside
// each; DefaultKubeConfig is the lab's.
type KubeConfig struct {
	// RenewMs is the kubelet's lease renew interval (Kubernetes: 10 s, a
	// quarter of the 40 s lease duration).
	RenewMs int `json:"renew_ms"`
	// GraceMs is node-monitor-grace-period (the lesson's 50 s; Kubernetes
	// 1.29 and later use 40 s).
	GraceMs int `json:"grace_ms"`
	// MonitorMs is node-monitor-period: how often the node lifecycle
	// controller reads the Leases (Kubernetes: 5 s).
	MonitorMs int `json:"monitor_ms"`
	// EvictMs is how long a node stays NotReady before its Pods move
	// (Kubernetes: the NoExecute taint's tolerationSeconds, 300 s by
	// default; the lab's default is 0, as the lesson's diagram moves them
	// at once).
	EvictMs int `json:"evict_ms"`
	// Pods is how many Pods the workload runs ("pods/web-1" ...), placed
	// on the workers by the controller.
	Pods int `json:"pods"`
	// ControllerNode is the member whose API server the node lifecycle
	// controller uses (a stacked control plane runs it beside etcd).
	ControllerNode int `json:"controller_node"`
}

// DefaultKubeConfig is Kubernetes' defaults as the lesson gives them, the
// eviction delay shortened to 0.
func DefaultKubeConfig() KubeConfig {
	return KubeConfig{RenewMs: 10000, GraceMs: 50000, MonitorMs: 5000, EvictMs: 0, Pods: 3, ControllerNode: 1}
}

// maxKubeMs bounds the kube intervals (an hour).
const maxKubeMs = 3600 * 1000

// validateKube checks the workers and their settings.
func (c Config) validateKube() error {
	if c.Workers < 0 || c.Workers > MaxWorkers {
		return fmt.Errorf("workers: %d is out of range: use 0 to %d", c.Workers, MaxWorkers)
	}
	if c.Workers == 0 {
		return nil
	}
	k := c.Kube
	switch {
	case c.Protocol != ProtocolRaft:
		return fmt.Errorf("workers: kubelets need the raft protocol; %s has no replicated store to keep Leases in", c.Protocol)
	case k.RenewMs < 100 || k.RenewMs > maxKubeMs:
		return fmt.Errorf("kube.renew_ms: %d is out of range: use 100 to %d", k.RenewMs, maxKubeMs)
	case k.GraceMs < 100 || k.GraceMs > maxKubeMs:
		return fmt.Errorf("kube.grace_ms: %d is out of range: use 100 to %d", k.GraceMs, maxKubeMs)
	case k.MonitorMs < 100 || k.MonitorMs > maxKubeMs:
		return fmt.Errorf("kube.monitor_ms: %d is out of range: use 100 to %d", k.MonitorMs, maxKubeMs)
	case k.EvictMs < 0 || k.EvictMs > maxKubeMs:
		return fmt.Errorf("kube.evict_ms: %d is out of range: use 0 to %d", k.EvictMs, maxKubeMs)
	case k.Pods < 0 || k.Pods > 3*MaxWorkers:
		return fmt.Errorf("kube.pods: %d is out of range: use 0 to %d", k.Pods, 3*MaxWorkers)
	case k.ControllerNode < 1 || k.ControllerNode > c.Nodes:
		return fmt.Errorf("kube.controller_node: %d is out of range: use 1 to %d", k.ControllerNode, c.Nodes)
	}
	return nil
}

// Machines is how many machines the world has: the members and spares
// (Nodes), then the workers.
func (c Config) Machines() int { return c.Nodes + c.Workers }

// IsWorker reports whether machine id is a worker.
func (c Config) IsWorker(id NodeID) bool { return int(id) > c.Nodes && int(id) <= c.Nodes+c.Workers }

// WorkerName is the node name of worker machine id, as its Lease and its
// Pods' binding spell it ("worker-1" for the first worker).
func (c Config) WorkerName(id NodeID) string { return "worker-" + strconv.Itoa(int(id)-c.Nodes) }

func (c Config) kubeSettings() kube.Settings {
	k := c.Kube
	return kube.Settings{RenewUs: int64(k.RenewMs) * 1000, GraceUs: int64(k.GraceMs) * 1000,
		MonitorUs: int64(k.MonitorMs) * 1000, EvictUs: int64(k.EvictMs) * 1000}
}

// workerVerb reports whether v may name a worker machine.
func workerVerb(v Verb) bool {
	switch v {
	case DoPause, DoResume, DoCrash, DoRestart, DoSlow, DoDrift,
		DoPartition, DoCut, DoRestore, DoLatency, DoLoss, DoDuplicate:
		return true
	}
	return false
}
