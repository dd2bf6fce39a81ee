package scenarios

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"

	"raftlab/raftcore"
)

// The figure reconcile, from "Distributed systems fundamentals", its part
// on eventual consistency at the controller layer: etcd is consistent, the
// controllers above it are not. A deployment controller works from the
// cache its informer keeps by listing and then watching the API server, not
// from the log. Its watch is cut just after it created a ReplicaSet, so the
// cache misses that ReplicaSet; a reconcile repeated from that cache tries
// to create it again. Idempotent (the knob "idempotence", on by default),
// the create names the ReplicaSet by its template and only creates it if
// absent, and the repeat changes nothing; without idempotence a second
// ReplicaSet appears. Either way the informer lists again after its backoff
// and the cache comes back to what the store holds.

// The script's moments, in milliseconds: the controller starts once a
// leader is elected, the Deployment is applied, the watch is cut while the
// ReplicaSet's event is on its way (the watch stream lags rcLagMs), and
// the reconcile is repeated while the informer waits to list again.
const (
	rcOpenMs      = 500
	rcStartMs     = 600
	rcApplyMs     = 2000
	rcCutMs       = 2600
	rcRepeatMs    = 3000
	rcUntilMs     = 10000
	rcLagMs       = 300
	rcController  = 3 // etcd-3 runs the controller
	rcServer      = 2 // etcd-2 runs the API server it talks to
	rcDeployment  = "web"
	rcManifest    = "replicas=3 image=web:1"
	idempotentOn  = "on"
	idempotentOff = "off"
)

var reconcileFig = def{id: "reconcile",
	knobs: []Knob{{Name: "idempotence", Label: "Idempotent reconcile", Values: []string{idempotentOn, idempotentOff}, Default: idempotentOn}},
	build: func(k values) *Scenario {
		idem := k.get("idempotence") != idempotentOff
		var sc script
		sc.at(300, act(raftcore.DoTimeout, 1))
		sc.at(rcStartMs,
			raftcore.Action{Do: raftcore.DoDeployController, Node: rcController, To: rcServer},
			raftcore.Action{Do: raftcore.DoLatency, From: rcServer, To: rcController, OneWay: true, LatencyMs: []float64{rcLagMs, rcLagMs}})
		sc.at(rcApplyMs, write(rcServer, keyWeb, rcManifest))
		sc.at(rcCutMs, raftcore.Action{Do: raftcore.DoWatchCut, Node: rcController})
		sc.at(rcRepeatMs, raftcore.Action{Do: raftcore.DoReconcile, Key: keyWeb})
		base := config(raft, etcdNames(3))
		base.Idempotent = idem
		other := idempotentOff
		if !idem {
			other = idempotentOn
		}
		s := &Scenario{
			Title:   "Eventual consistency at the controller layer",
			Chapter: chapterFundamentals,
			Prompt:  "Apply a Deployment, cut the controller's watch, and repeat its reconcile.",
			Base:    base,
			Script:  sc, UntilMs: rcUntilMs,
			UI: UI{Focus: PanelInformers, OpenMs: rcOpenMs, Panels: []Panel{PanelInformers, PanelClient, PanelRoles},
				Key: keyWeb, Highlight: []id{rcServer, rcController}, Compare: &Setting{Knob: "idempotence", Value: other}},
			Steps: []Step{
				{Text: "A deployment controller will run on etcd-3. It works from a cache, not from the log: its informer lists the Deployments and ReplicaSets at the API server on etcd-2, then watches them for changes.",
					Claims: claims(machines(3), that("no controller runs yet and the network is whole", func(v *View) bool {
						return len(v.W.DeploymentControllers()) == 0 && whole(v.W)
					}))},
				{Text: "The informer listed and is watching.",
					When: func(v *View) bool { c, ok := rcCtl(v.W); return ok && c.Informer.State == raftcore.InformerWatching },
					Live: func(v *View) string {
						c, _ := rcCtl(v.W)
						return fmt.Sprintf("The informer listed at revision %d (no Deployment yet) and watches from revision %d. Watch events take %.1f s to reach etcd-3.",
							c.Informer.ListedRev, c.Informer.ListedRev+1, float64(rcLagMs)/1000)
					},
					Claims: claims(healthy(), watchingFrom(), cacheMatchesStore())},
				{Text: "An operator applied the Deployment web. Its event reached the controller, which created a ReplicaSet for it.",
					When: func(v *View) bool { c, ok := rcCtl(v.W); return ok && c.Creates >= 1 },
					Live: func(v *View) string {
						return fmt.Sprintf("An operator applied Deployment web. The controller saw it and created %s; that ReplicaSet's own event is on its way back.", replicaSet(v.W, 0))
					},
					Claims: claims(healthy(), replicaSetsInStore(1), that("the cache has the Deployment but not yet the ReplicaSet", func(v *View) bool {
						c, _ := rcCtl(v.W)
						_, dep := c.Informer.Cache[keyWeb]
						return dep && len(cachedReplicaSets(c)) == 0
					}))},
				{Text: "The controller's watch was cut before the ReplicaSet's event arrived.",
					When: func(v *View) bool {
						c, ok := rcCtl(v.W)
						return ok && c.Informer.WatchCuts >= 1 && c.Informer.State == raftcore.InformerWaiting
					},
					Live: func(v *View) string {
						c, _ := rcCtl(v.W)
						return fmt.Sprintf("The watch was cut, losing the event on its way. The cache lacks %s, which the store holds. The informer waits %.1f s, then lists again.",
							replicaSet(v.W, 0), float64(c.Informer.RelistAtUs-v.W.Now())/1e6)
					},
					Claims: claims(healthy(), replicaSetsInStore(1), cacheMissesReplicaSet())},
			},
			Expect: func(w *raftcore.World) error { return expectReconcile(w, idem) },
			final:  func(v *View) string { return finalReconcile(v.W, idem) },
		}
		if idem {
			s.Steps = append(s.Steps, Step{Text: "The reconcile was repeated from the same cache. It found the ReplicaSet already there and changed nothing.",
				When: func(v *View) bool { c, ok := rcCtl(v.W); return ok && c.AlreadyExisted >= 1 },
				Live: func(v *View) string {
					return fmt.Sprintf("The reconcile was repeated from the same cache, which shows no ReplicaSet. Its create, named by the template (%s) and only if absent, found it there: nothing changed.", replicaSet(v.W, 0))
				},
				Claims: claims(healthy(), replicaSetsInStore(1), cacheMissesReplicaSet(), createdTwice(0))})
		} else {
			s.Steps = append(s.Steps, Step{Text: "The reconcile was repeated from the same cache. It created a second ReplicaSet.",
				When: func(v *View) bool { return v.W.ReconcileCounts().Duplicates >= 1 && replicaSetsInStore(2)(v) == nil },
				Live: func(v *View) string {
					return fmt.Sprintf("The reconcile was repeated from the same cache, which shows no ReplicaSet. It created one under a fresh random name: %s and %s now stand for one template, created twice.", replicaSet(v.W, 0), replicaSet(v.W, 1))
				},
				Claims: claims(healthy(), replicaSetsInStore(2), createdTwice(1))})
		}
		s.Steps = append(s.Steps, Step{Text: "The informer listed again: its cache matches the store.",
			When: func(v *View) bool {
				c, ok := rcCtl(v.W)
				return ok && c.Informer.Relists >= 1 && c.Informer.State == raftcore.InformerWatching && cacheMatchesStore()(v) == nil
			},
			Live: func(v *View) string {
				c, _ := rcCtl(v.W)
				if idem {
					return fmt.Sprintf("The informer listed again at revision %d. Its cache matches the store, one ReplicaSet for web, and the reconcile has nothing left to do: it converged.", c.Informer.ListedRev)
				}
				return fmt.Sprintf("The informer listed again at revision %d. Its cache matches the store, which holds two ReplicaSets for web: the cache converged, and the extra ReplicaSet stays.", c.Informer.ListedRev)
			},
			Claims: claims(healthy(), cacheMatchesStore(), watchingFrom(), replicaSetsInStore(map[bool]int{true: 1, false: 2}[idem]))})
		return s
	}}

// rcCtl is the figure's deployment controller, once it has started.
func rcCtl(w *raftcore.World) (raftcore.DeploymentController, bool) {
	cs := w.DeploymentControllers()
	if len(cs) == 0 {
		return raftcore.DeploymentController{}, false
	}
	return cs[0], true
}

// storeReplicaSets are the ReplicaSets the API server's member holds, in
// the order they were created (by revision, not by name).
func storeReplicaSets(w *raftcore.World) []string {
	kv := w.Node(rcServer).KV()
	var out []string
	for _, k := range kv.Keys() {
		if strings.HasPrefix(k, raftcore.ReplicaSetPrefix) {
			out = append(out, k)
		}
	}
	slices.SortFunc(out, func(a, b string) int {
		x, _ := kv.Get(a)
		y, _ := kv.Get(b)
		return cmp.Compare(x.ModIndex, y.ModIndex)
	})
	return out
}

// replicaSet is the i-th ReplicaSet the store holds, as kubectl names it
// ("" if there are fewer).
func replicaSet(w *raftcore.World, i int) string {
	if rs := storeReplicaSets(w); i < len(rs) {
		return kubeName(rs[i])
	}
	return ""
}

// cachedReplicaSets are the ReplicaSets in controller c's cache.
func cachedReplicaSets(c raftcore.DeploymentController) []string {
	var out []string
	for k := range c.Informer.Cache {
		if strings.HasPrefix(k, raftcore.ReplicaSetPrefix) {
			out = append(out, k)
		}
	}
	return out
}

// kubeName is a key as kubectl names the object: replicaset/web-x.
func kubeName(key string) string {
	return strings.Replace(strings.Replace(key, "replicasets/", "replicaset/", 1), "deployments/", "deployment/", 1)
}

//go:noinline
func watchingFrom() claim {
	return that("the informer watches from the revision after its list", func(v *View) bool {
		c, ok := rcCtl(v.W)
		return ok && c.Informer.State == raftcore.InformerWatching && c.Informer.Synced && c.Informer.ListedRev > 0 &&
			c.Informer.WatchFrom() == c.Informer.ListedRev+1
	})
}

// cacheMatchesStore: the controller's cache holds exactly the API server's
// Deployments and ReplicaSets, each at the store's revision.
//
//go:noinline
func cacheMatchesStore() claim {
	return that("the cache holds what the store holds", func(v *View) bool {
		c, ok := rcCtl(v.W)
		if !ok {
			return false
		}
		kv := v.W.Node(rcServer).KV()
		n := 0
		for _, k := range kv.Keys() {
			if !strings.HasPrefix(k, raftcore.DeploymentPrefix) && !strings.HasPrefix(k, raftcore.ReplicaSetPrefix) {
				continue
			}
			n++
			stored, _ := kv.Get(k)
			if held, ok := c.Informer.Cache[k]; !ok || held.ModIndex != stored.ModIndex {
				return false
			}
		}
		return n == len(c.Informer.Cache)
	})
}

//go:noinline
func cacheMissesReplicaSet() claim {
	return that("the cache misses the ReplicaSet the store holds", func(v *View) bool {
		c, ok := rcCtl(v.W)
		return ok && len(cachedReplicaSets(c)) == 0 && len(storeReplicaSets(v.W)) > 0
	})
}

//go:noinline
func replicaSetsInStore(n int) claim {
	return func(v *View) error {
		if got := len(storeReplicaSets(v.W)); got != n {
			return fmt.Errorf("the words say the store holds %d ReplicaSets; it holds %d", n, got)
		}
		return nil
	}
}

//go:noinline
func createdTwice(n int) claim {
	return func(v *View) error {
		if got := v.W.ReconcileCounts().Duplicates; got != n {
			return fmt.Errorf("the words say %d ReplicaSets were created twice; the check counted %d", n, got)
		}
		return nil
	}
}

func expectReconcile(w *raftcore.World, idem bool) error {
	v := &View{W: w, h: scan(w)}
	c, ok := rcCtl(w)
	switch {
	case !ok:
		return errors.New("no deployment controller started")
	case w.ViolationCount("") != 0:
		return fmt.Errorf("%d Raft rules broke; the figure needs a healthy cluster", w.ViolationCount(""))
	case c.Informer.WatchCuts < 1 || c.Informer.Relists < 1:
		return fmt.Errorf("the watch was cut %d times and the informer re-listed %d times; want at least one of each", c.Informer.WatchCuts, c.Informer.Relists)
	case cacheMatchesStore()(v) != nil:
		return errors.New("the cache does not hold what the store holds at the end")
	case w.ReconcileCounts().Diverged != 0:
		return fmt.Errorf("%d caches diverged", w.ReconcileCounts().Diverged)
	}
	if idem {
		if c.AlreadyExisted < 1 {
			return errors.New("with idempotence the repeated create did not find the ReplicaSet there")
		}
		if err := createdTwice(0)(v); err != nil {
			return err
		}
		return replicaSetsInStore(1)(v)
	}
	if err := createdTwice(1)(v); err != nil {
		return err
	}
	return replicaSetsInStore(2)(v)
}

func finalReconcile(w *raftcore.World, idem bool) string {
	c, ok := rcCtl(w)
	if !ok {
		return "The controller has not started yet."
	}
	n := w.ReconcileCounts()
	if idem {
		return fmt.Sprintf("The controller reconciled web %s from a cache that was, for a while, behind the store; %s found its ReplicaSet already made, and nothing was created twice. A lost event or a repeated action costs a retry, not a wrong state.",
			count(c.Reconciles, "time", "times"), count(c.AlreadyExisted, "create", "creates"))
	}
	return fmt.Sprintf("The controller reconciled web %s; working from a cache that missed its own ReplicaSet, it created one twice (%s). The re-list brought the cache back to the store, but not the store back to one ReplicaSet: only an idempotent reconcile makes a repeat harmless.",
		count(c.Reconciles, "time", "times"), count(n.Duplicates, "duplicate", "duplicates"))
}
