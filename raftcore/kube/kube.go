// Package kube is the decision logic of Kubernetes' node heartbeats, apart
// from the world that runs it: the kubelet's retry backoff, the node
// lifecycle controller's view of one node's health (when it last saw the
// node's Lease renewed, on its own clock), the zone states that stop
// evictions when too many nodes look dead at once, and the rules the lab
// judges the controller by. It imports nothing of raftcore, as quorum does
// not: raftcore feeds it times and answers it; here only arithmetic on
// them is decided.
//
// Times are microseconds of simulated time. Kubernetes' defaults are named
// beside each setting (DefaultSettings).
package kube

// Settings are the intervals of node heartbeats.
type Settings struct {
	// RenewUs is how often a kubelet renews its node's Lease, on its own
	// clock. Kubernetes: 10 s, a quarter of the 40 s lease duration
	// (nodeLeaseRenewIntervalFraction 0.25).
	RenewUs int64
	// GraceUs is node-monitor-grace-period: how long the controller waits,
	// on its own clock, after it last saw a Lease change before it marks
	// the node NotReady. The lesson says 50 s (Kubernetes' default until
	// 1.29); newer Kubernetes uses 40 s.
	GraceUs int64
	// MonitorUs is node-monitor-period: how often the controller looks at
	// the Leases. Kubernetes: 5 s.
	MonitorUs int64
	// EvictUs is how long a node stays NotReady before its Pods are
	// evicted and moved. Kubernetes taints the node and evicts each Pod
	// when its toleration runs out: 300 s by default
	// (default-not-ready/unreachable-toleration-seconds). The lab's
	// default is 0, so the Pods move as soon as the node is NotReady, as
	// the lesson's sequence diagram draws it.
	EvictUs int64
}

// Kubernetes' kubelet lease client retries a failed renewal with a backoff
// that starts at 200 ms and doubles up to 7 s, at most five times before it
// waits for the next renew interval (maxUpdateRetries).
const (
	FirstBackoffUs = 200_000
	MaxBackoffUs   = 7_000_000
	MaxRetries     = 5
)

// Backoff is how long a kubelet waits before its retry number tries
// (counted from 1) of a failed renewal.
func Backoff(tries int) int64 {
	d := int64(FirstBackoffUs)
	for i := 1; i < tries && d < MaxBackoffUs; i++ {
		d *= 2
	}
	return min(d, MaxBackoffUs)
}

// Health is the node lifecycle controller's memory of one node, as
// Kubernetes' nodeHealthData keeps it: the Lease's renewTime it last read,
// and the moment, on the controller's own clock, it saw that value change
// (probeTimestamp). The renewTime is written with the kubelet's clock, so
// the controller compares it only with the value it read before, never
// with its own clock.
type Health struct {
	// Seen is set once the controller has read the node's Lease.
	Seen bool
	// RenewUs is the renewTime it last read (the kubelet's clock).
	RenewUs int64
	// ProbeUs is when it saw RenewUs change (the controller's clock).
	ProbeUs int64
	// NotReady is the node's condition as the controller holds it;
	// SinceUs is when it last changed (the controller's clock). Renewed is
	// set when the controller sees the Lease renewed after the node went
	// NotReady: only then is the node Ready again.
	NotReady bool
	SinceUs  int64
	Renewed  bool
}

// Observe records a read of the node's Lease at controller time now:
// found is whether the Lease exists, renew its renewTime. A renewTime that
// moved forward (or a Lease seen for the first time) restarts the grace
// period.
func (h *Health) Observe(found bool, renew, now int64) {
	switch {
	case !found:
		if !h.Seen {
			// A node that never wrote its Lease gets the grace period from
			// the controller's first look, as Kubernetes gives a new node
			// its startup grace.
			h.Seen, h.ProbeUs, h.SinceUs = true, now, now
			h.RenewUs = -1
		}
	case !h.Seen || renew > h.RenewUs:
		if !h.Seen {
			h.SinceUs = now
		} else {
			h.Renewed = true
		}
		h.Seen, h.RenewUs, h.ProbeUs = true, renew, now
	}
}

// Judge is the node's condition after a look at controller time now: it
// goes NotReady once the grace period has run out (Expired), and Ready
// again once the Lease is renewed after that. It reports whether the
// condition changed.
func (h *Health) Judge(now, grace int64, trustKubeletClock bool) bool {
	expired := h.Expired(now, grace, trustKubeletClock)
	switch {
	case expired && !h.NotReady:
		h.NotReady, h.SinceUs, h.Renewed = true, now, false
	case h.NotReady && h.Renewed && !expired:
		h.NotReady, h.SinceUs = false, now
	default:
		return false
	}
	return true
}

// Restart forgets when anything was seen: the controller could not look
// for a while (it was down, or the store could not answer), so the time it
// could not look does not count against any node. Kubernetes does the same
// when it leaves full disruption ("update probe timestamps on all Nodes").
func (h *Health) Restart(now int64) {
	if h.Seen {
		h.ProbeUs = now
	}
}

// Expired reports whether the grace period has run out at controller time
// now. With trustKubeletClock (a deliberately broken controller) it
// compares the kubelet's renewTime with its own clock instead, as if the
// two clocks agreed.
func (h Health) Expired(now, grace int64, trustKubeletClock bool) bool {
	if !h.Seen {
		return false
	}
	if trustKubeletClock && h.RenewUs >= 0 {
		return now-h.RenewUs > grace
	}
	return now-h.ProbeUs > grace
}

// ZoneState is how much of a zone looks NotReady (Kubernetes' zone states).
type ZoneState uint8

const (
	ZoneInitial ZoneState = iota
	ZoneNormal
	// ZonePartialDisruption: more than two nodes and at least
	// UnhealthyZoneThreshold of them NotReady.
	ZonePartialDisruption
	// ZoneFullDisruption: no node Ready.
	ZoneFullDisruption
)

var zoneNames = [...]string{"Initial", "Normal", "PartialDisruption", "FullDisruption"}

func (z ZoneState) String() string {
	if int(z) < len(zoneNames) {
		return zoneNames[z]
	}
	return "ZoneState?"
}

// UnhealthyZoneThreshold is Kubernetes' --unhealthy-zone-threshold (0.55)
// and LargeClusterThreshold its --large-cluster-size-threshold (50): a zone
// in partial disruption evicts at a reduced rate if it is larger, not at
// all if it is smaller.
const (
	UnhealthyZoneThreshold = 0.55
	LargeClusterThreshold  = 50
)

// ComputeZoneState is the state of a zone with ready and notReady nodes.
func ComputeZoneState(ready, notReady int) ZoneState {
	switch {
	case ready == 0 && notReady > 0:
		return ZoneFullDisruption
	case notReady > 2 && float64(notReady)/float64(ready+notReady) >= UnhealthyZoneThreshold:
		return ZonePartialDisruption
	}
	return ZoneNormal
}

// EvictionsAllowed reports whether a zone of size nodes in state s evicts
// Pods at all. The lab's workers form one zone, so a zone in full
// disruption is every zone in full disruption, where Kubernetes stops every
// eviction; a partly disrupted zone below the large-cluster threshold
// evicts at rate 0. (Rates themselves are not modelled: an allowed
// eviction happens at the controller's next look.)
func EvictionsAllowed(s ZoneState, size int) bool {
	switch s {
	case ZoneFullDisruption:
		return false
	case ZonePartialDisruption:
		return size > LargeClusterThreshold
	}
	return true
}

// Spurious reports whether a NotReady mark at true time now is spurious:
// the node's kubelet has been alive (running, and able to reach an API
// server) since aliveSince for at least a whole grace period, so nothing on
// the node's side explains the mark. When etcd has no quorum the kubelet
// still counts as alive: its renewals fail for the control plane's sake,
// and a controller that concludes the node died is wrong.
func Spurious(alive bool, aliveSince, now, grace int64) bool {
	return alive && now-aliveSince >= grace
}

// SlowDeadline is the true time by which a node whose kubelet died at
// deadSince must be NotReady: a grace period and one renew interval or two
// of the controller's looks, whichever is longer (its last renewal may be
// up to an interval before its death, or be seen only at the look after
// it, and the mark comes at the first look past the grace period; with
// Kubernetes' defaults, 10 s and two looks of 5 s, the two agree), plus slack for the read
// through the store that shows the renewal missing. Time the controller
// could not look (it was down, or the store had no quorum) does not count:
// observingSince is when it last began to look again.
func SlowDeadline(deadSince, observingSince int64, s Settings, slack int64) int64 {
	return max(deadSince, observingSince) + s.GraceUs + max(s.RenewUs, 2*s.MonitorUs) + slack
}
