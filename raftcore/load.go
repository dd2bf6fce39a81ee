package raftcore

import (
	"fmt"
	"strconv"
)

// Steady load. A "load" action starts a client that writes every EveryMs
// milliseconds, round the keys Key+"0" to Key+(Keys-1), until a
// "load-stop" or another "load" replaces it: one recorded action stands
// for a run's thousands of writes, so a long run's action log stays a few
// lines long. Each write is an event of the world's own queue (evLoad),
// as a controller's steps are, so the writes replay exactly from the
// action log. Writes without a machine named go to the cluster, through
// its client's connection (endpoint.go), as the toolbar's write does.
//
// The n-th write of a load (from 0) sets key Key+strconv(n mod Keys) to
// "n=<n>": which key and value is fixed by the count, so the load needs no
// random draw and leaves the world's random stream as it was.
//
// The app has no control that starts a load yet; a share link or a
// schedule file that holds one plays it there like any other action.

// maxLoadKeys bounds a load's keys; maxLoadEveryMs its interval.
const (
	maxLoadKeys    = 1000
	maxLoadEveryMs = 60000
	// minLoadEveryMs keeps a load from flooding the queue: a write every
	// millisecond is already far past what a cluster of the lab answers.
	minLoadEveryMs = 1
)

// load is the steady client load running now, if any.
type load struct {
	// gen numbers the loads started; an evLoad event of another
	// generation belongs to a load that was stopped or replaced.
	gen     uint64
	on      bool
	node    NodeID
	prefix  string
	keys    int
	everyUs int64
	// sent is how many writes this load has made.
	sent int
}

// Load reports the steady load running now: its action (with AtMs 0) and
// whether one runs.
func (w *World) Load() (Action, bool) {
	l := w.load
	if !l.on {
		return Action{}, false
	}
	return Action{Do: DoLoad, Node: int(l.node), Key: l.prefix, Keys: l.keys, EveryMs: usToMs(l.everyUs)}, true
}

// startLoad replaces any running load with the action's.
func (w *World) startLoad(a Action) {
	w.load = load{gen: w.load.gen + 1, on: true, node: NodeID(a.Node), prefix: a.Key, keys: a.Keys, everyUs: msToUs(a.EveryMs)}
	w.schedule(event{at: w.now + w.load.everyUs, kind: evLoad, gen: w.load.gen})
}

// stopLoad stops the running load; its next write event finds another
// generation and does nothing.
func (w *World) stopLoad() {
	w.load = load{gen: w.load.gen + 1}
}

// loadWrite makes the load's next write and schedules the one after.
func (w *World) loadWrite(gen uint64) {
	l := &w.load
	if !l.on || gen != l.gen {
		return
	}
	n := l.sent
	l.sent++
	op := Op{Kind: DoWrite, Node: l.node, Key: l.prefix + strconv.Itoa(n%l.keys), Value: "n=" + strconv.Itoa(n)}
	if l.node == None {
		op.Node, op.Cluster = w.clusterEndpoint(), true
	}
	w.schedule(event{at: w.now + l.everyUs, kind: evLoad, gen: l.gen})
	w.invoke(op)
}

// validateLoad checks a load's fields, which other verbs must leave unset.
func (a Action) validateLoad(n int) error {
	switch a.Do {
	case DoLoad:
	case DoLoadStop:
		if a.EveryMs != 0 || a.Keys != 0 || a.Key != "" || a.Node != 0 {
			return fmt.Errorf("load-stop: takes no fields; it stops the running load")
		}
		return nil
	default:
		if a.EveryMs != 0 {
			return fmt.Errorf("every_ms: only a load has an interval, not %s", a.Do)
		}
		if a.Keys != 0 {
			return fmt.Errorf("keys: only a load writes round several keys, not %s", a.Do)
		}
		return nil
	}
	if !(a.EveryMs >= minLoadEveryMs && a.EveryMs <= maxLoadEveryMs) {
		return fmt.Errorf("every_ms: load writes every %d to %d milliseconds, got %g", minLoadEveryMs, maxLoadEveryMs, a.EveryMs)
	}
	if a.Keys < 1 || a.Keys > maxLoadKeys {
		return fmt.Errorf("keys: load writes round 1 to %d keys, got %d", maxLoadKeys, a.Keys)
	}
	if a.Key == "" {
		return fmt.Errorf("key: load needs the keys' prefix, e.g. \"deployments/app\" for deployments/app0, deployments/app1, ...")
	}
	if a.Node == 0 {
		return nil // to the cluster, as a write without a node
	}
	return validNode("node", a.Node, n)
}

// appendLoadArgs appends a load's arguments as Action.String writes them.
func (a Action) appendLoadArgs(b []byte) []byte {
	if a.Do == DoLoadStop {
		return b
	}
	b = append(a.appendClientArgs(b), "0.."...)
	b = strconv.AppendInt(b, int64(a.Keys-1), 10)
	b = append(b, " every "...)
	b = strconv.AppendFloat(b, a.EveryMs, 'g', -1, 64)
	return append(b, "ms"...)
}
