package scenarios

import (
	"fmt"

	"raftlab/raftcore"
)

// renewsAndJudged is the claim, named what, that the workers' kubelets
// renew their Leases and the node lifecycle controller judges them at the
// intervals the words give (in microseconds), held against what the world
// did rather than against its settings:
//
//   - every worker's kubelet has had renewals committed: written through
//     the API server on a member, into etcd;
//   - a worker's committed renewals sent at the ticks of the kubelet's
//     interval (not retries of a failed one) reached the API server whole
//     renew intervals of the kubelet's clock after its first attempt, give
//     or take the spread of the links' latency, each an interval after
//     another attempt (or one still in flight then);
//   - the controller has read the Leases every monitor period of its own
//     clock (a look still in flight when the next is due is skipped, as
//     the world does), and holds every Lease seen renewed within the grace
//     period and no node NotReady.
//
// A run at another renew interval or monitor period makes it false. The
// grace period shows only once a Lease goes stale, which no Lease has yet:
// it is held as far as the world shows it. The words are the figure's
// opening (openUs), which comes once every kubelet has renewed a few
// times: by then each worker has had two renewals committed, one of them
// an interval after an attempt at the tick before, and the controller has
// looked at least twice, its latest look within a period. Before it (the
// full lab shows the words from the start) what has happened so far must
// agree with the intervals.
//
//go:noinline
func renewsAndJudged(what string, workers []id, renewUs, graceUs, monitorUs, openUs int64) claim {
	return func(v *View) error {
		if err := renewedAndJudged(v.W, workers, renewUs, graceUs, monitorUs, v.W.Now() >= openUs); err != nil {
			return fmt.Errorf("the words say %s, but %v", what, err)
		}
		return nil
	}
}

func renewedAndJudged(w *raftcore.World, workers []id, renewUs, graceUs, monitorUs int64, opened bool) error {
	sum, _ := w.Kube()
	if len(sum.Nodes) != len(workers) {
		return fmt.Errorf("the world has %d workers", len(sum.Nodes))
	}
	for _, wk := range workers {
		committed, spaced, err := renewalsSpaced(w, wk, renewUs)
		switch {
		case err != nil:
			return err
		case opened && committed < 2:
			return fmt.Errorf("%s has had %s committed", workerName(wk), count(committed, "renewal", "renewals"))
		case opened && spaced == 0:
			return fmt.Errorf("none of %s's renewals came one interval after another", workerName(wk))
		}
	}
	looks, err := looksSpaced(w, monitorUs)
	switch {
	case err != nil:
		return err
	case !opened:
		return nil
	case len(looks) < 2:
		return fmt.Errorf("the node lifecycle controller has looked at the Leases %s", count(len(looks), "time", "times"))
	}
	if since := w.Now() - looks[len(looks)-1].InvokeUs; since > ownSpan(w, looks[0].Node, monitorUs) {
		return fmt.Errorf("the node lifecycle controller last looked at the Leases %s ago", secs(since))
	}
	for _, wk := range workers {
		age, ok := w.KubeLeaseAge(wk)
		switch {
		case !ok:
			return fmt.Errorf("the node lifecycle controller has not read %s's Lease", workerName(wk))
		case age >= graceUs:
			return fmt.Errorf("the node lifecycle controller has not seen %s's Lease renewed for %s", workerName(wk), secs(age))
		case notReady(w, wk):
			return fmt.Errorf("%s is NotReady", workerName(wk))
		}
	}
	return nil
}

// renewalsSpaced counts worker wk's renewals committed so far, and those
// of them sent at a tick of its interval, one interval or more after its
// first attempt. The kubelet's ticks fall renewUs of its own clock apart
// from its first attempt on; a failed attempt is retried after a backoff
// (raftcore.KubeletLongestBackoffUs at most), between the ticks. So a
// committed renewal that reached the API server longer than the longest backoff and a round trip after
// every failed attempt (or, one still waiting, after the interval the
// kubelet gives it) was sent at a tick, and must have reached it a
// whole number of intervals after the first attempt did, within the
// spread of the latency of the worker's links, with an attempt made (or
// in flight) at the tick before: renewals one interval apart. (A request lost on the
// way fails unseen, after a whole interval: the words speak of a network
// that loses nothing.)
func renewalsSpaced(w *raftcore.World, wk id, renewUs int64) (committed, spaced int, err error) {
	var tried []raftcore.Op // its attempts that reached an API server, in order
	for _, op := range w.Ops() {
		if op.Kube == raftcore.KubeRenew && op.Worker == wk {
			tried = append(tried, op)
		}
	}
	if len(tried) == 0 {
		return 0, 0, nil
	}
	// The latencies of the worker's links with the members.
	var minUs, maxUs int64
	for m := 1; m <= w.Config().Nodes; m++ {
		to, from := w.Link(wk, id(m)), w.Link(id(m), wk)
		if m == 1 || to.LatencyMinUs < minUs {
			minUs = to.LatencyMinUs
		}
		maxUs = max(maxUs, to.LatencyMaxUs, from.LatencyMaxUs)
	}
	spread, retryUs := maxUs-minUs, ownSpan(w, wk, raftcore.KubeletLongestBackoffUs())+2*maxUs
	tick := ownSpan(w, wk, renewUs)
	first := tried[0].InvokeUs
	// triedAt reports whether the kubelet made an attempt at the k-th
	// tick after its first, or had one in flight then (it makes none
	// while one is).
	triedAt := func(k int64) bool {
		t := first + k*tick
		for _, op := range tried {
			if op.InvokeUs <= t+spread && (!op.Done() || op.CompleteUs+2*maxUs >= t) {
				return true
			}
		}
		return false
	}
	for i, b := range tried {
		if b.Result != raftcore.OpOK {
			continue
		}
		committed++
		retry := false
		for _, f := range tried[:i] {
			// The kubelet hears a failure, or gives up waiting after an
			// interval, and retries within retryUs.
			failed := f.InvokeUs + tick
			if f.Done() {
				failed = min(failed, f.CompleteUs)
			}
			if f.Result != raftcore.OpOK && b.InvokeUs-failed <= retryUs {
				retry = true
			}
		}
		if i == 0 || retry {
			continue
		}
		k := (b.InvokeUs - first + tick/2) / tick
		if d := b.InvokeUs - first - k*tick; k < 1 || d < -spread || d > spread || !triedAt(k-1) {
			return committed, spaced, fmt.Errorf("%s's renewal reached the API server at %s, not a whole number of %s intervals after its first attempt at %s with an attempt an interval before",
				workerName(wk), ms(b.InvokeUs), span(renewUs), ms(first))
		}
		spaced++
	}
	return committed, spaced, nil
}

// looksSpaced are the node lifecycle controller's reads of the Leases so
// far, each made a whole number of its monitor periods after the one
// before (one, unless the read before was still in flight when the next
// was due).
func looksSpaced(w *raftcore.World, monitorUs int64) ([]raftcore.Op, error) {
	var looks []raftcore.Op
	for _, op := range w.Ops() {
		if op.Kube != raftcore.KubeLook {
			continue
		}
		if n := len(looks); n > 0 {
			a := looks[n-1]
			period := ownSpan(w, op.Node, monitorUs)
			gap := op.InvokeUs - a.InvokeUs
			k := (gap + period/2) / period
			if k < 1 || gap != k*period || (k > 1 && a.CompleteUs >= 0 && a.CompleteUs < a.InvokeUs+(k-1)*period) {
				return looks, fmt.Errorf("the node lifecycle controller looked at the Leases at %s and %s, %s apart, not every %s",
					secs(a.InvokeUs), secs(op.InvokeUs), ms(gap), span(monitorUs))
			}
		}
		looks = append(looks, op)
	}
	return looks, nil
}

// ownSpan is how much true time a span of us on machine n's clock takes
// at the rate it runs now, as the world counts it for its timers.
func ownSpan(w *raftcore.World, n id, us int64) int64 {
	return max(int64(float64(us)/w.Drift(n)+0.5), 1)
}
