package scenarios

import (
	"errors"
	"fmt"

	"raftlab/raftcore"
)

// The figure quorum-and-leases, from "Distributed systems fundamentals"
// (its quorum rules and its leases): etcd is split so that no member
// reaches another, while every kubelet still reaches every API server.
// No Lease renewal can commit, so after the grace period every node's
// Lease looks stale. The node lifecycle controller must not conclude that
// every node died: it reads the Leases through etcd, and a read without a
// quorum fails, so it concludes nothing and marks no node (Kubernetes
// guards a second way too: a zone whose every node looks gone is in full
// disruption, and the controller stops evicting there).

// The moments of the story, in milliseconds: the figure opens once every
// kubelet has listed its Pods and runs them, the split comes once every
// kubelet has renewed twice, and lasts well past the grace period (one more
// renew interval and two looks), and the figure ends once every kubelet
// has renewed again after the heal.
const (
	qlOpenMs  = 21000
	qlSplitMs = 25000
	qlHealMs  = qlSplitMs + 50000 + 10000 + 2*5000 + 8000
	qlUntilMs = qlHealMs + 25000
)

// qlMembers and qlWorkers are the etcd members' and the worker machines'
// ids.
var (
	qlMembers = []id{1, 2, 3}
	qlWorkers = []id{4, 5, 6}
)

var quorumAndLeases = def{id: "quorum-and-leases", build: func(values) *Scenario {
	cfg := config(raft, etcdNames(3))
	cfg.Workers = len(qlWorkers)
	cfg.Kube = raftcore.DefaultKubeConfig()
	graceUs := int64(cfg.Kube.GraceMs) * 1000
	renewUs := int64(cfg.Kube.RenewMs) * 1000
	monitorUs := int64(cfg.Kube.MonitorMs) * 1000
	var sc script
	// Every link between two members is cut; the links between members
	// and workers stay up.
	sc.at(qlSplitMs,
		raftcore.Action{Do: raftcore.DoCut, From: 1, To: 2},
		raftcore.Action{Do: raftcore.DoCut, From: 1, To: 3},
		raftcore.Action{Do: raftcore.DoCut, From: 2, To: 3})
	sc.at(qlHealMs, heal())
	noQuorum := func(v *View) bool { _, ok := majorityGroup(v.W); return !whole(v.W) && !ok }
	kubeletsReach := that("every kubelet reaches every API server", func(v *View) bool {
		for _, wk := range qlWorkers {
			if !isUp(v.W, wk) {
				return false
			}
			for _, m := range qlMembers {
				if !linked(v.W, m, wk) {
					return false
				}
			}
		}
		return true
	})
	noneNotReady := that("no node is marked NotReady and no Pod was evicted", func(v *View) bool {
		c := v.W.KubeCounts()
		return c.NotReady == 0 && c.Evictions == 0 && len(qlNotReady(v.W)) == 0
	})
	splitUs := func(v *View) int64 { at, _ := v.W.LastSplit(); return at }
	// renewalsSince are the kubelets' renewals sent at or after from,
	// by how they ended.
	renewalsSince := func(w *raftcore.World, from int64) (ok, failed int, last raftcore.Op) {
		for _, op := range w.Ops() {
			if op.Kube != raftcore.KubeRenew || op.InvokeUs < from {
				continue
			}
			switch {
			case op.Result == raftcore.OpOK:
				ok++
			case op.Done():
				failed, last = failed+1, op
			}
		}
		return ok, failed, last
	}
	noneCommitted := that("no renewal sent during the split committed", func(v *View) bool {
		ok, _, _ := renewalsSince(v.W, splitUs(v))
		return ok == 0
	})
	// staleFor is how long the node lifecycle controller has gone, on its
	// own clock, without seeing any Lease renewed (what the Leases
	// panel's bars show): the least of the workers' lease ages.
	staleFor := func(w *raftcore.World) (int64, bool) {
		least, seen := int64(0), false
		for _, wk := range qlWorkers {
			age, ok := w.KubeLeaseAge(wk)
			if !ok {
				return 0, false
			}
			if !seen || age < least {
				least, seen = age, true
			}
		}
		return least, seen
	}
	// Past the grace period by one look of the controller's: a look
	// that would have marked every node, had it read.
	allStale := func(v *View) bool { age, ok := staleFor(v.W); return ok && age > graceUs+monitorUs }
	renewedSinceHeal := func(v *View) bool {
		healAt, ok := v.W.LastHeal()
		if !ok || !whole(v.W) {
			return false
		}
		sum, _ := v.W.Kube()
		for _, n := range sum.Nodes {
			if n.LastRenewedMs == nil || int64(*n.LastRenewedMs*1000) < healAt {
				return false
			}
		}
		return true
	}
	return &Scenario{
		Title:   "When etcd loses quorum",
		Chapter: chapterFundamentals,
		Prompt:  "Split etcd so that no side has a majority while the kubelets keep renewing.",
		Base:    cfg,
		Script:  sc, UntilMs: qlUntilMs,
		UI: UI{Focus: PanelLeases, OpenMs: qlOpenMs, Panels: []Panel{PanelLeases, PanelClient, PanelLogs}, Pace: 10},
		Steps: []Step{
			{Text: fmt.Sprintf("Three etcd members hold the cluster's state. The kubelet on each of three worker nodes renews its node's Lease every %s through an API server: a write that etcd commits once a majority has it. The node lifecycle controller reads the Leases every %s; a node whose Lease it has not seen renewed for %s it marks NotReady.",
				qlSpan(renewUs), qlSpan(monitorUs), qlSpan(graceUs)),
				Claims: claims(machines(3), renewsAndJudged("three workers renew and are judged at Kubernetes' intervals",
					qlWorkers, 10_000_000, 50_000_000, 5_000_000, qlOpenMs*1000), that("the network is whole", func(v *View) bool { return whole(v.W) }), noneNotReady)},
			{Text: "etcd is split: no member reaches another, so no side holds a majority. Every kubelet still reaches every API server.",
				When: noQuorum,
				Live: func(v *View) string {
					return fmt.Sprintf("At t = %s etcd was split: %s no longer reach one another. No side holds a majority, so etcd can commit nothing. The worker nodes are fine: every kubelet still reaches every API server.",
						secs(splitUs(v)), names(v.W, qlMembers))
				},
				Claims: claims(that("no side holds a majority", noQuorum), kubeletsReach)},
			{Text: "A renewal failed: the API server could not commit it.",
				When: func(v *View) bool { _, failed, _ := renewalsSince(v.W, splitUs(v)); return failed > 0 },
				Live: func(v *View) string {
					_, _, op := renewalsSince(v.W, splitUs(v))
					return fmt.Sprintf("%s's renewal through the API server on %s %s: without a majority etcd commits nothing. The kubelet is alive and tries the next API server; none can do better.",
						qlWorkerName(v.W, op.Worker), name(v.W, op.Node), outcome(op))
				},
				Claims: claims(that("no side holds a majority", noQuorum), noneCommitted,
					that("a renewal sent during the split failed", func(v *View) bool { _, failed, _ := renewalsSince(v.W, splitUs(v)); return failed > 0 }))},
			{Text: "The controller cannot read the Leases either, so it concludes nothing.",
				When: func(v *View) bool { return noQuorum(v) && v.W.KubeBlind() },
				Live: func(v *View) string {
					return fmt.Sprintf("The node lifecycle controller on %s tried to read the Leases and failed: a linearizable read needs a majority too. Without current Leases it concludes nothing, and every node stays as it was.",
						name(v.W, raftcore.NodeID(v.W.Config().Kube.ControllerNode)))
				},
				Claims: claims(that("the controller cannot read the Leases", func(v *View) bool { return v.W.KubeBlind() }), noneNotReady, noneCommitted)},
			{Text: fmt.Sprintf("No Lease has been seen renewed for over %s, yet no node is marked NotReady.", qlSpan(graceUs)),
				When: func(v *View) bool { return noQuorum(v) && allStale(v) },
				Live: func(v *View) string {
					age, _ := staleFor(v.W)
					return fmt.Sprintf("The controller has seen no Lease renewed for %s or more, past the %s grace period, and every node's kubelet is alive. Judged by the last Leases it read, every node would look dead and every Pod would be evicted. It cannot read current Leases, so it marks no node NotReady and no Pod moves.",
						secs(age), qlSpan(graceUs))
				},
				Claims: claims(that("the controller has seen no Lease renewed for longer than the grace period", allStale),
					that("the controller cannot read the Leases", func(v *View) bool { return v.W.KubeBlind() }),
					noneNotReady, kubeletsReach)},
			{Text: "Quorum is back: the Leases are renewed, and no node was ever marked NotReady.",
				When: func(v *View) bool { return renewedSinceHeal(v) && !v.W.KubeBlind() },
				Live: func(v *View) string {
					healAt, _ := v.W.LastHeal()
					return fmt.Sprintf("The split healed at t = %s. etcd commits again, every kubelet has renewed its Lease since, and the controller reads them again: every node is Ready and no Pod moved.", secs(healAt))
				},
				Claims: claims(healed(), that("every node renewed its Lease after the heal", renewedSinceHeal),
					that("the controller reads the Leases again", func(v *View) bool { return !v.W.KubeBlind() }), noneNotReady)},
		},
		Expect: func(w *raftcore.World) error {
			split, ok := w.LastSplit()
			if !ok {
				return errors.New("etcd was never split")
			}
			healAt, _ := w.LastHeal()
			for _, op := range w.Ops() {
				if op.Kube == raftcore.KubeRenew && op.InvokeUs >= split && op.InvokeUs < healAt && op.Result == raftcore.OpOK {
					return fmt.Errorf("%s renewed its Lease at %s without a quorum", qlWorkerName(w, op.Worker), secs(op.CompleteUs))
				}
			}
			c := w.KubeCounts()
			switch {
			case c.RenewFailures == 0:
				return errors.New("no renewal failed during the split")
			case c.LooksFailed == 0:
				return errors.New("the controller never failed to read the Leases")
			case c.NotReady != 0 || c.Evictions != 0 || c.SpuriousNotReady != 0:
				return fmt.Errorf("the controller concluded without a quorum: %d marked NotReady, %d evictions, %d spurious", c.NotReady, c.Evictions, c.SpuriousNotReady)
			}
			if n := w.ViolationCount(""); n > 0 {
				return fmt.Errorf("raft broke a safety rule: %s", w.Violations()[0].Text)
			}
			return nil
		},
		final: func(v *View) string {
			w := v.W
			split, ok := w.LastSplit()
			if !ok {
				return "etcd was never split."
			}
			healAt, healed := w.LastHeal()
			if !healed || healAt < split {
				healAt = w.Now()
			}
			_, failed, _ := renewalsSince(w, split)
			c := w.KubeCounts()
			marked := "no node"
			if c.NotReady > 0 {
				marked = count(c.NotReady, "node", "nodes")
			}
			return fmt.Sprintf("For %s etcd had no quorum: %s failed, the controller's reads failed %s, and it marked %s NotReady. Kubernetes has two guards against evicting every node when the control plane itself is in trouble: a controller that cannot read current Leases concludes nothing, and one that sees every node of a zone go stale calls it full disruption and stops evicting there.",
				secs(healAt-split), count(failed, "renewal attempt", "renewal attempts"), count(c.LooksFailed, "time", "times"), marked)
		},
	}
}}

// qlWorkerName is worker machine n's node name ("worker-1").
func qlWorkerName(w *raftcore.World, n id) string { return w.Config().WorkerName(n) }

// qlNotReady are the workers the controller holds NotReady.
func qlNotReady(w *raftcore.World) []id {
	sum, _ := w.Kube()
	var out []id
	for _, n := range sum.Nodes {
		if n.NotReady {
			out = append(out, n.ID)
		}
	}
	return out
}

// qlSpan writes a whole span of the settings: "50 s".
func qlSpan(us int64) string { return fmt.Sprintf("%g s", float64(us)/1e6) }
