package scenarios

import (
	"fmt"
	"slices"
	"strconv"

	"raftlab/raftcore"
)

// The figure node-lease, from "Distributed systems fundamentals" (its
// "Leases and heartbeats" and "Leases and timeouts"): a kubelet renews its
// node's Lease through the API server, which writes it through etcd; the
// node lifecycle controller marks a node NotReady once it has gone a grace
// period without seeing the Lease renewed, and its Pods move to Ready
// nodes. A crashed node and a node cut off from the control plane look the
// same to it. The knobs trade failover time against spurious NotReady: on
// a noisy network short intervals mark live nodes NotReady, long ones
// leave Pods on a dead node for minutes.

// leaseTiming is one choice of the kubelet's renew interval, the
// controller's grace period and how often it looks (node-monitor-period),
// in milliseconds.
type leaseTiming struct{ renew, grace, monitor int }

var leaseTimings = map[string]leaseTiming{
	"2 s / 6 s":    {2000, 6000, 1000},
	"10 s / 50 s":  {10000, 50000, 5000},
	"20 s / 100 s": {20000, 100000, 5000},
}

// leaseNoise is what the network setting does to the links between the
// workers and the control plane once the story's failures are over: a
// noisy network loses 30% of the messages and delays each by up to 2 s.
// A lost renewal costs the kubelet its request's timeout, one renew
// interval, so a 6 s grace period is soon outlasted; a 50 s one needs
// five lost in a row, which is seldom.
var leaseNoise = map[string]noise{
	"calm":  {[2]float64{2, 10}, 0},
	"noisy": {[2]float64{10, 2000}, 0.3},
}

// leaseTimes are the script's moments, in milliseconds, from the timing:
// worker-1 crashes once every kubelet has renewed a few times; it is
// restarted once it has surely been marked NotReady (grace, one renew
// interval, one look and a second for the read) and its Pods have moved;
// worker-2 is cut off once worker-1 is surely Ready again, and the
// network healed likewise; the noise starts once worker-2 is Ready again
// and lasts a minute and a half, or a grace period if that is longer.
type leaseTimes struct {
	open, crash, restart, cut, heal, noise, calm, until float64
}

func leaseTimesFor(t leaseTiming) leaseTimes {
	r, g, m := float64(t.renew), float64(t.grace), float64(t.monitor)
	var at leaseTimes
	at.crash = max(3*r, 15000)
	at.open = at.crash - 5000
	at.restart = at.crash + g + r + 2*m + 3000
	at.cut = at.restart + 2*r + m
	at.heal = at.cut + g + r + 2*m + 3000
	at.noise = at.heal + 2*r + m
	at.calm = at.noise + max(90000, g)
	at.until = at.calm + 2000
	return at
}

// The workers the story is about: worker-1 crashes, worker-2 is cut off.
const (
	crashedWorker raftcore.NodeID = 4
	cutWorker     raftcore.NodeID = 5
)

var nodeLease = def{id: "node-lease",
	knobs: []Knob{
		{Name: "timing", Label: "Renew/grace", Values: []string{"2 s / 6 s", "10 s / 50 s", "20 s / 100 s"}, Default: "10 s / 50 s",
			Says: []string{"2/6 s", "10/50 s", "20/100 s"}},
		{Name: "network", Label: "Then the network", Values: []string{"calm", "noisy"}, Default: "noisy"},
	},
	build: func(k values) *Scenario {
		tm := leaseTimings[k.get("timing")]
		net := leaseNoise[k.get("network")]
		cfg := config(raft, etcdNames(3))
		cfg.Workers = 3
		cfg.Kube = raftcore.DefaultKubeConfig()
		cfg.Kube.RenewMs, cfg.Kube.GraceMs, cfg.Kube.MonitorMs = tm.renew, tm.grace, tm.monitor
		at := leaseTimesFor(tm)
		members, workers := []int{1, 2, 3}, []int{4, 5, 6}
		var sc script
		sc.at(at.crash, act(raftcore.DoCrash, int(crashedWorker)))
		sc.at(at.restart, act(raftcore.DoRestart, int(crashedWorker)))
		sc.at(at.cut, partition([]int{1, 2, 3, 4, 6}, []int{int(cutWorker)}))
		sc.at(at.heal, heal())
		sc.at(at.noise, controlLinks(members, workers, net)...)
		sc.at(at.calm, controlLinks(members, workers, leaseNoise["calm"])...)
		graceUs, renewUs, monitorUs := int64(tm.grace)*1000, int64(tm.renew)*1000, int64(tm.monitor)*1000
		// A mark comes at the controller's first look after the grace
		// period, its read taking up to JudgeSlackUs.
		latestUs := graceUs + renewUs + monitorUs + raftcore.JudgeSlackUs
		crashUs, cutUs, noiseUs, calmUs := ms2us(at.crash), ms2us(at.cut), ms2us(at.noise), ms2us(at.calm)
		crashMark := func(v *View) (int64, bool) { return markedAt(v.W, crashedWorker, raftcore.KubeMarkNotReady, crashUs) }
		cutMark := func(v *View) (int64, bool) { return markedAt(v.W, cutWorker, raftcore.KubeMarkNotReady, cutUs) }
		// delays are how long after its last renewal and after its
		// failure a worker was marked NotReady.
		delays := func(v *View, id raftcore.NodeID, failedUs int64, mark func(*View) (int64, bool)) (sinceRenewal, sinceFailure int64, ok bool) {
			m, ok := mark(v)
			if !ok {
				return 0, 0, false
			}
			return m - lastRenewal(v.W, id, m), m - failedUs, true
		}
		markedInGrace := func(id raftcore.NodeID, failedUs int64, mark func(*View) (int64, bool)) claim {
			return that(fmt.Sprintf("%s was marked NotReady no sooner than the grace period after its last renewal, and within grace, one interval and one look of its failure", workerName(id)), func(v *View) bool {
				r, f, ok := delays(v, id, failedUs, mark)
				return ok && r >= graceUs && f <= latestUs && notReady(v.W, id)
			})
		}
		crashedPods := func(v *View) []string { return podsAt(v.W, crashedWorker, crashUs) }
		cutPods := func(v *View) []string { return podsAt(v.W, cutWorker, cutUs) }
		movedOff := func(v *View, from raftcore.NodeID, pods []string) bool {
			for _, p := range pods {
				if h := readyHost(v.W, p, from); h == 0 {
					return false
				}
			}
			return len(pods) > 0
		}
		spuriousSince := func(v *View) (raftcore.KubeFinding, bool) {
			for _, f := range v.W.KubeFindings() {
				if f.Check == raftcore.CheckSpuriousNotReady && f.AtUs >= noiseUs {
					return f, true
				}
			}
			return raftcore.KubeFinding{}, false
		}
		noisy := func(v *View) bool {
			for _, m := range members {
				for _, w := range workers {
					l := v.W.Link(raftcore.NodeID(m), raftcore.NodeID(w))
					if l.Loss != net.loss || l.LatencyMaxUs != int64(net.latencyMs[1]*1000) {
						return false
					}
				}
			}
			return true
		}
		steps := []Step{
			{Text: "Each worker's kubelet renews its node's Lease every " + span(renewUs) +
				" through the API server, into etcd. After " + span(graceUs) + " without a renewal the controller marks the node NotReady.",
				Claims: claims(machines(3), renewsAndJudged("three workers renew and are judged at the knob's intervals",
					[]id{4, 5, 6}, renewUs, graceUs, monitorUs, ms2us(at.open)))},
			{Text: "worker-1 crashed. Nothing tells the control plane: its Lease simply stops being renewed. Watch its bar: time since the controller last saw a renewal.",
				When: func(v *View) bool { return v.W.Status(crashedWorker) == raftcore.StatusCrashed },
				Live: func(v *View) string {
					return fmt.Sprintf("worker-1 crashed at t = %s with %s. Nothing tells the control plane: its Lease simply stops being renewed. Watch its bar: time since the controller last saw a renewal.",
						secs(v.W.Now()), podList(crashedPods(v)))
				},
				Claims: claims(that("worker-1 crashed and is still Ready", func(v *View) bool {
					return v.W.Status(crashedWorker) == raftcore.StatusCrashed && !notReady(v.W, crashedWorker)
				}))},
			{Text: "Half the grace period without a renewal seen, on the controller's clock. Until it runs out worker-1 stays Ready and its Pods stay down.",
				When: func(v *View) bool {
					age, ok := v.W.KubeLeaseAge(crashedWorker)
					return ok && 2*age >= graceUs
				},
				Live: func(v *View) string {
					age, _ := v.W.KubeLeaseAge(crashedWorker)
					return fmt.Sprintf("%s without a renewal seen, on the controller's clock: half the grace period. Until it runs out worker-1 stays Ready and %s stays down.", secs(age), podList(crashedPods(v)))
				},
				Claims: claims(that("half the grace period has passed without a renewal seen, worker-1 is still Ready, and none of its Pods runs anywhere", func(v *View) bool {
					age, ok := v.W.KubeLeaseAge(crashedWorker)
					for _, p := range crashedPods(v) {
						for id := raftcore.NodeID(4); id <= 6; id++ {
							if slices.Contains(kubeNode(v.W, id).Pods, p) {
								return false
							}
						}
					}
					return ok && 2*age >= graceUs && !notReady(v.W, crashedWorker)
				}))},
			{Text: "The grace period is over: worker-1 is NotReady, well after its kubelet sent its last renewal and after the crash.",
				When: func(v *View) bool { _, ok := crashMark(v); return ok },
				Live: func(v *View) string {
					r, f, _ := delays(v, crashedWorker, crashUs, crashMark)
					return fmt.Sprintf("t = %s: worker-1 is NotReady, %s after its kubelet sent its last renewal (grace %s, looked at every %s) and %s after the crash.",
						secs(v.W.Now()), secs(r), span(graceUs), span(monitorUs), secs(f))
				},
				Claims: claims(markedInGrace(crashedWorker, crashUs, crashMark))},
			{Text: "Its Pods moved to a Ready node. Counting from the crash, they were down all that time.",
				When: func(v *View) bool { return movedOff(v, crashedWorker, crashedPods(v)) },
				Live: func(v *View) string {
					return fmt.Sprintf("Its Pods moved: %s. Counting from the crash, %s %s down for %s.",
						movedList(v.W, crashedPods(v), crashedWorker), podList(crashedPods(v)), plural(len(crashedPods(v)), "was", "were"), secs(downFor(v.W, crashedPods(v), crashUs)))
				},
				Claims: claims(that("every Pod worker-1 ran now runs on a Ready node, started there after worker-1 was marked NotReady", func(v *View) bool {
					m, _ := crashMark(v)
					return movedOff(v, crashedWorker, crashedPods(v)) && crashUs+downFor(v.W, crashedPods(v), crashUs) >= m
				}))},
			{Text: "worker-1 is back and Ready. Now worker-2 is cut off from the control plane: its kubelet is alive, but no renewal reaches an API server.",
				When: func(v *View) bool { return cutOff(v.W, cutWorker, members) },
				Live: func(v *View) string {
					return fmt.Sprintf("worker-1 is back and Ready. Now worker-2 is cut off from the control plane: its kubelet is alive and runs %s, but no renewal reaches an API server.",
						podList(cutPods(v)))
				},
				Claims: claims(that("worker-1 is up and Ready, and worker-2 is up but cut off from every member", func(v *View) bool {
					return isUp(v.W, crashedWorker) && !notReady(v.W, crashedWorker) && isUp(v.W, cutWorker) && cutOff(v.W, cutWorker, members)
				}))},
			{Text: "worker-2 is NotReady too. To the controller a cut-off node looks just like a crashed one: a Lease that stopped changing.",
				When: func(v *View) bool { _, ok := cutMark(v); return ok },
				Live: func(v *View) string {
					r, _, _ := delays(v, cutWorker, cutUs, cutMark)
					r1, _, _ := delays(v, crashedWorker, crashUs, crashMark)
					return fmt.Sprintf("worker-2 is NotReady, %s after its last renewal (worker-1: %s). To the controller a cut-off node looks just like a crashed one: a Lease that stopped changing.",
						secs(r), secs(r1))
				},
				Claims: claims(markedInGrace(cutWorker, cutUs, cutMark), that("worker-2's kubelet is still up", func(v *View) bool { return isUp(v.W, cutWorker) }))},
			{Text: "Its Pods moved. Cut off, worker-2 never heard and still runs them: each Pod runs twice, and the checks count it.",
				When: func(v *View) bool { return movedOff(v, cutWorker, cutPods(v)) },
				Live: func(v *View) string {
					twice := v.W.KubeCounts().PodTwice
					still := runningOn(v.W, cutWorker, cutPods(v))
					if len(still) == 0 {
						return "Its Pods moved: " + movedList(v.W, cutPods(v), cutWorker) + "."
					}
					return fmt.Sprintf("Its Pods moved: %s. Cut off, worker-2 never heard and still runs %s: the checks count %s.",
						movedList(v.W, cutPods(v), cutWorker), podList(still), count(twice, "Pod running twice", "Pods running twice"))
				},
				Claims: claims(that("every Pod worker-2 ran runs on a Ready node, and those worker-2 still runs are counted twice", func(v *View) bool {
					still := runningOn(v.W, cutWorker, cutPods(v))
					return movedOff(v, cutWorker, cutPods(v)) && v.W.KubeCounts().PodTwice >= len(still)
				}))},
		}
		noiseWords := fmt.Sprintf("Now %s of messages between workers and control plane are lost, each delayed %g to %g ms.", percent(net.loss), net.latencyMs[0], net.latencyMs[1])
		if net.loss == 0 {
			noiseWords = "The network between workers and control plane stays calm."
		}
		steps = append(steps,
			Step{Text: "Healed; worker-2 is Ready again. Now the network between workers and control plane changes. Nobody crashes from here on.",
				When: func(v *View) bool { return v.W.Now() >= noiseUs && noisy(v) },
				Live: func(v *View) string {
					return "Healed; worker-2 is Ready again. " + noiseWords + " Nobody crashes from here on."
				},
				Claims: claims(that("every worker is up and Ready, and the links to the workers are as the network setting says", func(v *View) bool {
					for _, w := range workers {
						if !isUp(v.W, raftcore.NodeID(w)) || notReady(v.W, raftcore.NodeID(w)) {
							return false
						}
					}
					return noisy(v)
				}))},
			Step{Text: "Lost renewals leave a live node too long without one, or the next arrives within the grace period.",
				When: func(v *View) bool {
					_, ok := spuriousSince(v)
					return ok || v.W.Now() >= calmUs
				},
				Live: func(v *View) string {
					f, ok := spuriousSince(v)
					if !ok {
						return fmt.Sprintf("%s of this network, no node marked NotReady: each lost renewal was retried, and one arrived within %s every time.", secs(v.W.Now()-noiseUs), span(graceUs))
					}
					return fmt.Sprintf("%s was marked NotReady though its kubelet is alive: lost renewals left %s without one. A spurious NotReady, counted.",
						workerName(f.Worker), span(graceUs))
				},
				Claims: claims(that("a live worker was marked NotReady now exactly when the words say so", func(v *View) bool {
					f, ok := spuriousSince(v)
					if !ok {
						return v.W.KubeCounts().SpuriousNotReady == 0
					}
					return f.AtUs == v.W.Now() && isUp(v.W, f.Worker) && notReady(v.W, f.Worker)
				}))},
		)
		return &Scenario{
			Title:   "Leases and heartbeats",
			Chapter: chapterFundamentals,
			Prompt:  "Watch kubelets renew their node Leases, a node crash and one cut off; tune the renew interval and the grace period.",
			Base:    cfg,
			Script:  sc, UntilMs: at.until,
			UI: UI{Focus: PanelLeases, OpenMs: at.open, Panels: []Panel{PanelLeases, PanelClient, PanelLogs}, Pace: 10,
				Compare: &Setting{Knob: "timing", Value: otherTiming(k.get("timing"))}},
			Steps: steps,
			Expect: func(w *raftcore.World) error {
				v := &View{W: w, h: scan(w)}
				for _, f := range []struct {
					id       raftcore.NodeID
					failedUs int64
					mark     func(*View) (int64, bool)
				}{{crashedWorker, crashUs, crashMark}, {cutWorker, cutUs, cutMark}} {
					r, d, ok := delays(v, f.id, f.failedUs, f.mark)
					switch {
					case !ok:
						return fmt.Errorf("%s was never marked NotReady", workerName(f.id))
					case r < graceUs:
						return fmt.Errorf("%s was marked NotReady %s after its last renewal, inside the %s grace period", workerName(f.id), secs(r), secs(graceUs))
					case d > latestUs:
						return fmt.Errorf("%s was marked NotReady %s after it failed, later than grace, one interval and one look", workerName(f.id), secs(d))
					}
				}
				c := w.KubeCounts()
				if c.SlowNotReady > 0 {
					return fmt.Errorf("%d slow NotReady", c.SlowNotReady)
				}
				if n := w.ViolationCount(""); n > 0 {
					return fmt.Errorf("%d safety violations", n)
				}
				// A short grace period on a noisy network marks a live
				// node NotReady; on a calm one no grace period does. A
				// longer one on a noisy network is not held to either: a
				// run of lost renewals can outlast it too, only seldom,
				// and the figure counts what happened.
				_, spurious := spuriousSince(v)
				switch {
				case net.loss > 0 && tm.grace < 10000 && !spurious:
					return fmt.Errorf("a %s grace period on a noisy network marked no live node NotReady", span(graceUs))
				case net.loss == 0 && c.SpuriousNotReady > 0:
					return fmt.Errorf("%d spurious NotReady with a %s grace period on a calm network", c.SpuriousNotReady, span(graceUs))
				}
				return nil
			},
			final: func(v *View) string {
				_, f, ok := delays(v, crashedWorker, crashUs, crashMark)
				fo := "worker-1 was never marked NotReady"
				if ok {
					fo = fmt.Sprintf("NotReady %s after the crash, Pods down %s", secs(f), secs(downFor(v.W, crashedPods(v), crashUs)))
				}
				c := v.W.KubeCounts()
				lesson := "Shorter intervals: faster failover, but live nodes marked NotReady when renewals are lost."
				return fmt.Sprintf("Renew %s, grace %s: %s; the %s network cost %s. %s",
					span(renewUs), span(graceUs), fo, k.get("network"), count(c.SpuriousNotReady, "spurious NotReady mark", "spurious NotReady marks"), lesson)
			},
		}
	}}

// otherTiming is the timing to compare with once the story is over: the
// short one, or back to the lesson's.
func otherTiming(v string) string {
	if v == "10 s / 50 s" {
		return "2 s / 6 s"
	}
	return "10 s / 50 s"
}

func ms2us(ms float64) int64 { return int64(ms * 1000) }

// span writes a setting's span in seconds as it is set: "10 s", "2.5 s".
func span(us int64) string { return strconv.FormatFloat(float64(us)/1e6, 'f', -1, 64) + " s" }

// controlLinks sets the latency and loss of every link, both ways,
// between the members and the workers.
func controlLinks(members, workers []int, n noise) []raftcore.Action {
	var out []raftcore.Action
	p := n.loss
	for _, m := range members {
		for _, w := range workers {
			out = append(out,
				raftcore.Action{Do: raftcore.DoLatency, From: m, To: w, LatencyMs: []float64{n.latencyMs[0], n.latencyMs[1]}},
				raftcore.Action{Do: raftcore.DoLoss, From: m, To: w, Loss: &p})
		}
	}
	return out
}

// workerName is worker machine id's node name.
func workerName(id raftcore.NodeID) string { return fmt.Sprintf("worker-%d", int(id)-3) }

// markedAt is when the controller first marked worker id as kind at or
// after fromUs.
func markedAt(w *raftcore.World, id raftcore.NodeID, kind raftcore.KubeEventKind, fromUs int64) (int64, bool) {
	for _, e := range w.KubeEvents() {
		if e.Kind == kind && e.Worker == id && e.AtUs >= fromUs {
			return e.AtUs, true
		}
	}
	return 0, false
}

// kubeNode is worker id as the world sums it up now: its condition as the
// controller holds it and the Pods its kubelet runs.
func kubeNode(w *raftcore.World, id raftcore.NodeID) raftcore.KubeNode {
	sum, _ := w.Kube()
	for _, n := range sum.Nodes {
		if n.ID == id {
			return n
		}
	}
	return raftcore.KubeNode{}
}

// notReady reports whether the controller holds worker id NotReady.
func notReady(w *raftcore.World, id raftcore.NodeID) bool { return kubeNode(w, id).NotReady }

// lastRenewal is when worker id's kubelet sent the last renewal that took
// effect and was answered before t. It is measured from the sending, not
// from the answer: the controller may read the renewed Lease before the
// kubelet hears back, so a mark measured from the answer could seem to
// come inside the grace period.
func lastRenewal(w *raftcore.World, id raftcore.NodeID, t int64) int64 {
	last := int64(-1)
	for _, op := range w.Ops() {
		if op.Kube == raftcore.KubeRenew && op.Worker == id && op.Result == raftcore.OpOK && op.CompleteUs <= t {
			last = max(last, op.InvokeUs)
		}
	}
	return last
}

// podsAt are the Pods worker id's kubelet ran at time t, from what the
// kubelets started and stopped (a crash stops them all unrecorded, so t
// comes before the worker's first crash).
func podsAt(w *raftcore.World, id raftcore.NodeID, t int64) []string {
	var out []string
	for _, e := range w.KubeEvents() {
		if e.AtUs > t || e.Worker != id {
			continue
		}
		switch e.Kind {
		case raftcore.KubePodStart:
			out = append(out, e.Pod)
		case raftcore.KubePodStop:
			if i := slices.Index(out, e.Pod); i >= 0 {
				out = slices.Delete(out, i, i+1)
			}
		}
	}
	slices.Sort(out)
	return out
}

// runningOn are those of pods that worker id's kubelet runs now.
func runningOn(w *raftcore.World, id raftcore.NodeID, pods []string) []string {
	var out []string
	for _, p := range kubeNode(w, id).Pods {
		if slices.Contains(pods, p) {
			out = append(out, p)
		}
	}
	return out
}

// readyHost is a worker other than from, Ready and up, whose kubelet runs
// pod now; 0 if none.
func readyHost(w *raftcore.World, pod string, from raftcore.NodeID) raftcore.NodeID {
	for id := raftcore.NodeID(4); id <= 6; id++ {
		if n := kubeNode(w, id); id != from && isUp(w, id) && !n.NotReady && slices.Contains(n.Pods, pod) {
			return id
		}
	}
	return 0
}

// movedList says where pods run now, off worker from, host by host:
// "web-1 now runs on worker-2", "web-1 and web-2 now run on worker-1".
func movedList(w *raftcore.World, pods []string, from raftcore.NodeID) string {
	var out []string
	for id := raftcore.NodeID(4); id <= 6; id++ {
		var here []string
		for _, p := range pods {
			if readyHost(w, p, from) == id {
				here = append(here, p)
			}
		}
		if len(here) > 0 {
			out = append(out, podList(here)+" now "+plural(len(here), "runs", "run")+" on "+workerName(id))
		}
	}
	return andList(out)
}

// downFor is how long the longest down of pods, which stopped at
// fromUs, went before a kubelet started it again (until now for one not
// started yet).
func downFor(w *raftcore.World, pods []string, fromUs int64) int64 {
	var longest int64
	for _, p := range pods {
		back := w.Now()
		for _, e := range w.KubeEvents() {
			if e.Kind == raftcore.KubePodStart && e.Pod == p && e.AtUs > fromUs {
				back = e.AtUs
				break
			}
		}
		longest = max(longest, back-fromUs)
	}
	return longest
}

// plural picks the word for n things.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// podList names Pods ("web-1 and web-3"), or says there are none.
func podList(pods []string) string {
	if len(pods) == 0 {
		return "no Pods"
	}
	return andList(slices.Clone(pods))
}

// cutOff reports whether worker id has no link up, either way, with any
// of the members.
func cutOff(w *raftcore.World, id raftcore.NodeID, members []int) bool {
	for _, m := range members {
		if w.Link(raftcore.NodeID(m), id).Up || w.Link(id, raftcore.NodeID(m)).Up {
			return false
		}
	}
	return true
}
