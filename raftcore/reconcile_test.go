package raftcore

import (
	"fmt"
	"strings"
	"testing"
)

// reconcileWorld is three members, a deployment controller on machine 1
// talking to the API server of machine 2 once a leader is elected, and
// the Deployment web applied.
func reconcileWorld(t testing.TB, seed int64, mut func(*Config)) *World {
	t.Helper()
	w := newTestWorld(t, func(c *Config) {
		c.Nodes, c.Seed = 3, seed
		if mut != nil {
			mut(c)
		}
	})
	w.RunFor(3_000_000)
	mustApply(t, w, Action{Do: DoDeployController, Node: 1, To: 2})
	mustApply(t, w, Action{Do: DoWrite, Key: "deployments/web", Value: "replicas=3 image=web:1"})
	return w
}

// runUntilCreating steps w until its deployment controller has a create
// on its way.
func runUntilCreating(t testing.TB, w *World) {
	t.Helper()
	for w.deploy.controllers[0].Busy == "" {
		if !w.Step() || w.Now() > 20_000_000 {
			t.Fatal("the controller never started a create")
		}
	}
}

// replicaSets returns the ReplicaSets machine id's store holds.
func replicaSets(w *World, id NodeID) []string {
	var out []string
	for _, k := range w.Node(id).KV().Keys() {
		if strings.HasPrefix(k, ReplicaSetPrefix) {
			out = append(out, k)
		}
	}
	return out
}

func cacheReplicaSets(c DeploymentController) []string {
	var out []string
	for _, k := range c.Informer.cacheKeys() {
		if strings.HasPrefix(k, ReplicaSetPrefix) {
			out = append(out, k)
		}
	}
	return out
}

// TestNonIdempotentReconcileUnderRelistCreatesADuplicate cuts the
// controller's watch while its create is on its way, so the event of the
// ReplicaSet it made is lost with the stream, and repeats the reconcile
// while the informer waits to list again: from the cache, which does not
// show the first ReplicaSet, the non-idempotent controller creates a
// second, which the check flags; the list that follows shows both. The
// idempotent one, given the same run, finds its ReplicaSet already there.
func TestNonIdempotentReconcileUnderRelistCreatesADuplicate(t *testing.T) {
	for seed := int64(1); seed <= 5; seed++ {
		for _, idempotent := range []bool{false, true} {
			t.Run(fmt.Sprintf("seed%d/idempotent=%v", seed, idempotent), func(t *testing.T) {
				w := reconcileWorld(t, seed, func(c *Config) { c.Idempotent = idempotent })
				runUntilCreating(t, w)
				mustApply(t, w, Action{Do: DoWatchCut, Node: 1})
				w.RunFor(300_000) // the create is applied; the informer waits 800 ms
				if st := w.deploy.controllers[0].Informer.State; st != InformerWaiting {
					t.Fatalf("informer %s, want waiting to list again", st)
				}
				mustApply(t, w, Action{Do: DoReconcile, Key: "deployments/web"})
				w.RunFor(5_000_000)
				noViolations(t, w)
				k := w.ReconcileCounts()
				c := w.DeploymentControllers()[0]
				if k.Relists < 1 || k.WatchCuts < 1 || c.Informer.State != InformerWatching {
					t.Fatalf("counts %+v, informer %s: want a cut watch listed again", k, c.Informer.State)
				}
				if k.Diverged != 0 {
					t.Fatalf("cache diverged: %+v", w.ReconcileFacts())
				}
				stored, cached := replicaSets(w, 2), cacheReplicaSets(c)
				if fmt.Sprint(stored) != fmt.Sprint(cached) {
					t.Fatalf("the cache shows %v, the store holds %v", cached, stored)
				}
				if idempotent {
					if k.Duplicates != 0 || len(stored) != 1 || k.AlreadyExisted != 1 {
						t.Fatalf("idempotent: %d duplicates, ReplicaSets %v, %d found existing", k.Duplicates, stored, k.AlreadyExisted)
					}
					return
				}
				facts := w.ReconcileFacts()
				if k.Duplicates != 1 || len(stored) != 2 || len(facts) != 1 {
					t.Fatalf("not idempotent: %d duplicates (%+v), ReplicaSets %v", k.Duplicates, facts, stored)
				}
				f := facts[0]
				if f.Rule != RuleCreatedTwice || f.Key != "deployments/web" || f.First == f.Second ||
					!strings.HasPrefix(f.First, "replicasets/web-") || f.Template != templateHash("replicas=3 image=web:1") {
					t.Fatalf("fact %+v", f)
				}
			})
		}
	}
}

// chaos plays a random run against w's deployment controller: watches cut
// by hand, the link between the controller's machine and its API server
// cut and restored, the server crashed and restarted, reconciles repeated
// and the Deployment's template changed, then a quiet spell.
func chaos(t testing.TB, w *World, seed int64) {
	t.Helper()
	r := NewRand(seed)
	image := 1
	for i := 0; i < 40; i++ {
		w.RunFor(20_000 + r.Int63n(800_000))
		var a Action
		switch r.Intn(7) {
		case 0:
			a = Action{Do: DoWatchCut}
		case 1:
			a = Action{Do: DoCut, From: 1, To: 2}
		case 2:
			a = Action{Do: DoRestore, From: 1, To: 2}
		case 3:
			a = Action{Do: DoCrash, Node: 2}
		case 4:
			a = Action{Do: DoRestart, Node: 2}
		case 5:
			image++
			a = Action{Do: DoWrite, Key: "deployments/web", Value: fmt.Sprintf("replicas=3 image=web:%d", image)}
		default:
			a = Action{Do: DoReconcile, Key: "deployments/web"}
		}
		mustApply(t, w, a)
	}
	mustApply(t, w, Action{Do: DoHeal})
	mustApply(t, w, Action{Do: DoRestart, Node: 2})
	w.RunFor(60_000_000)
}

// TestIdempotentReconcileNeverDuplicates plays many chaotic runs: with
// idempotence on, no Deployment ever has two ReplicaSets for one template
// and the caches end equal to the store; with it off, the same runs create
// duplicates, which the check flags.
func TestIdempotentReconcileNeverDuplicates(t *testing.T) {
	flagged, relisted := 0, 0
	for seed := int64(1); seed <= 30; seed++ {
		for _, idempotent := range []bool{true, false} {
			w := reconcileWorld(t, seed, func(c *Config) { c.Idempotent = idempotent })
			chaos(t, w, seed)
			noViolations(t, w)
			k := w.ReconcileCounts()
			if k.Diverged != 0 {
				t.Fatalf("seed %d: cache diverged: %+v", seed, w.ReconcileFacts())
			}
			relisted += min(k.Relists, 1)
			c := w.DeploymentControllers()[0]
			if c.Informer.State != InformerWatching || fmt.Sprint(replicaSets(w, 2)) != fmt.Sprint(cacheReplicaSets(c)) {
				t.Fatalf("seed %d: informer %s with %v, store %v", seed, c.Informer.State, cacheReplicaSets(c), replicaSets(w, 2))
			}
			if idempotent && k.Duplicates != 0 {
				t.Fatalf("seed %d: idempotent reconcile created twice: %+v", seed, w.ReconcileFacts())
			}
			if !idempotent && k.Duplicates > 0 {
				flagged++
			}
		}
	}
	t.Logf("%d of 30 runs without idempotence created a duplicate", flagged)
	if relisted < 40 {
		t.Fatalf("only %d of 60 runs listed again after a cut", relisted)
	}
	if flagged < 3 {
		t.Fatalf("only %d of 30 chaotic runs without idempotence created a duplicate", flagged)
	}
}

// TestReconcileWithABoundedHistory: the same chaotic runs with a client
// history of 4 operations (as the app bounds it, far tighter) do exactly
// what they do with the whole history kept. An informer and a reconcile
// loop note their request by its id, which is not the history's length
// plus one once the history forgets.
func TestReconcileWithABoundedHistory(t *testing.T) {
	for seed := int64(1); seed <= 10; seed++ {
		for _, idempotent := range []bool{true, false} {
			var counts [2]ReconcileCounts
			for k, limit := range []int{0, 4} {
				w := reconcileWorld(t, seed, func(c *Config) { c.Idempotent, c.HistoryLimit = idempotent, limit })
				chaos(t, w, seed)
				noViolations(t, w)
				counts[k] = w.ReconcileCounts()
				if limit > 0 && w.ForgottenOps().Count == 0 {
					t.Fatalf("seed %d: the history forgot nothing", seed)
				}
			}
			if counts[0] != counts[1] {
				t.Errorf("seed %d, idempotent %v: whole history %+v, bounded %+v", seed, idempotent, counts[0], counts[1])
			}
		}
	}
}

// TestWatchEventsTravelTheLink: a change the API server applies reaches
// the controller's machine a link's latency later, shown on its way, in
// revision order.
func TestWatchEventsTravelTheLink(t *testing.T) {
	w := reconcileWorld(t, 2, nil)
	w.RunFor(2_000_000)
	mustApply(t, w, Action{Do: DoLatency, From: 2, To: 1, OneWay: true, LatencyMs: []float64{300, 300}})
	mustApply(t, w, Action{Do: DoWrite, Node: 2, Key: "deployments/api", Value: "replicas=1 image=api:1"})
	for len(w.WatchesInFlight()) == 0 {
		if !w.Step() || w.Now() > 10_000_000 {
			t.Fatal("no watch event was sent")
		}
	}
	sent := w.WatchesInFlight()[0]
	rev, _ := w.Node(2).KV().Get("deployments/api")
	if sent.Event.Key != "deployments/api" || sent.Event.Rev != rev.ModIndex || sent.ArriveUs-sent.SentUs != 300_000 || sent.SentUs != w.Now() {
		t.Fatalf("in flight: %+v (revision %d)", sent, rev.ModIndex)
	}
	w.RunUntil(sent.ArriveUs - 1)
	if _, ok := w.DeploymentControllers()[0].Informer.Cache["deployments/api"]; ok {
		t.Fatal("the event arrived early")
	}
	w.RunUntil(sent.ArriveUs)
	if got := w.DeploymentControllers()[0].Informer; got.Cache["deployments/api"] != rev || got.Rev < rev.ModIndex {
		t.Fatalf("cache after arrival %+v", got.Cache)
	}
}

// TestWatchFromNowIsCaught breaks the informer (BugWatchFromNow): after a
// cut it resumes watching from the server's newest revision without
// listing, so a Deployment changed while it was cut never reaches its
// cache, and the convergence check flags it. The correct informer, given
// the same run, lists again and is never flagged.
func TestWatchFromNowIsCaught(t *testing.T) {
	for seed := int64(1); seed <= 5; seed++ {
		for _, bug := range []Bug{0, BugWatchFromNow} {
			w := reconcileWorld(t, seed, func(c *Config) { c.Bugs = bug })
			w.RunFor(2_000_000)
			mustApply(t, w, Action{Do: DoWatchCut})
			mustApply(t, w, Action{Do: DoWrite, Key: "deployments/api", Value: "replicas=1 image=api:1"})
			w.RunFor(5_000_000)
			k := w.ReconcileCounts()
			switch {
			case bug == 0 && k.Diverged != 0:
				t.Fatalf("seed %d: correct informer flagged: %+v", seed, w.ReconcileFacts())
			case bug != 0 && (k.Diverged != 1 || w.ReconcileFacts()[0].Rule != RuleCacheDiverged || w.ReconcileFacts()[0].Key != "deployments/api"):
				t.Fatalf("seed %d: an informer that missed a change was not flagged once: %+v %+v", seed, k, w.ReconcileFacts())
			}
		}
	}
}

// TestInformerConvergesAfterCompaction cuts the API server off from the
// leader, not from the controller, while the store moves on far enough
// that the leader later sends it a snapshot: the server's watch ends as
// compacted, and the informer lists again and ends with the store's
// objects. A watch asked for at or below a member's snapshot index is
// refused as compacted.
func TestInformerConvergesAfterCompaction(t *testing.T) {
	for seed := int64(1); seed <= 5; seed++ {
		w := newTestWorld(t, func(c *Config) { c.Nodes, c.Seed, c.SnapshotCount, c.CatchUpEntries = 3, seed, 5, 2 })
		w.RunFor(3_000_000)
		lead := leaders(w)[0]
		server, ctl := lead%3+1, (lead+1)%3+1
		mustApply(t, w, Action{Do: DoDeployController, Node: int(ctl), To: int(server)})
		mustApply(t, w, Action{Do: DoWrite, Node: int(lead), Key: "deployments/web", Value: "replicas=3 image=web:1"})
		w.RunFor(2_000_000)
		mustApply(t, w, Action{Do: DoCut, From: int(server), To: int(lead)})
		for i := 0; i < 20; i++ {
			mustApply(t, w, Action{Do: DoWrite, Node: int(lead), Key: fmt.Sprintf("deployments/d%d", i), Value: "replicas=1 image=x:1"})
			w.RunFor(100_000)
		}
		mustApply(t, w, Action{Do: DoRestore, From: int(server), To: int(lead)})
		w.RunFor(20_000_000)
		noViolations(t, w)
		if !sawCut(w, CutCompacted) {
			t.Fatalf("seed %d: no watch ended as compacted (counts %+v)", seed, w.ReconcileCounts())
		}
		k := w.ReconcileCounts()
		if k.Diverged != 0 || k.Duplicates != 0 || k.Relists == 0 {
			t.Fatalf("seed %d: %+v %+v", seed, k, w.ReconcileFacts())
		}
		c := w.DeploymentControllers()[0]
		want := 0
		for _, key := range w.Node(lead).KV().Keys() {
			v, _ := w.Node(lead).KV().Get(key)
			if c.Informer.wants(key) {
				want++
				if c.Informer.Cache[key] != v {
					t.Fatalf("seed %d: cache has %s as %+v, the store %+v", seed, key, c.Informer.Cache[key], v)
				}
			}
		}
		if want != len(c.Informer.Cache) || len(replicaSets(w, lead)) != 21 {
			t.Fatalf("seed %d: cache holds %d objects, store %d; %d ReplicaSets", seed, len(c.Informer.Cache), want, len(replicaSets(w, lead)))
		}

		// Asked for directly, a revision at or below the snapshot is
		// refused.
		snap, _ := w.CompactedRev(server)
		if snap == 0 {
			t.Fatalf("seed %d: the server kept every change", seed)
		}
		cuts := k.WatchCuts
		w.startWatch(&w.deploy.controllers[0], snap)
		if got := w.deploy.controllers[0].Informer; got.LastCut != CutCompacted || got.State != InformerWaiting || w.ReconcileCounts().WatchCuts != cuts+1 {
			t.Fatalf("seed %d: watch from compacted revision %d: %s, %s", seed, snap, got.State, got.LastCut)
		}
	}
}

// sawCut reports whether the trace tells of a watch cut for why.
func sawCut(w *World, why CutReason) bool { return sawText(w, "watch cut: "+why.String()) }

// sawText reports whether an informer event of the trace says text.
func sawText(w *World, text string) bool {
	for _, e := range w.Trace() {
		if e.Kind == TraceInformer && e.Text == text {
			return true
		}
	}
	return false
}

// TestReconcileRunsReplayExactly: the same seed and actions give the same
// trace, a run's schedule replays to the same trace, and a copy taken
// mid-run goes on exactly as the original.
func TestReconcileRunsReplayExactly(t *testing.T) {
	run := func() *World {
		w := reconcileWorld(t, 7, func(c *Config) { c.Idempotent = false })
		chaos(t, w, 7)
		return w
	}
	a, b := run(), run()
	if a.TraceHash() != b.TraceHash() || a.ReconcileCounts() != b.ReconcileCounts() {
		t.Fatalf("same seed, different runs: %x %x", a.TraceHash(), b.TraceHash())
	}
	replayed, err := a.Schedule().Run()
	if err != nil {
		t.Fatal(err)
	}
	if replayed.TraceHash() != a.TraceHash() || replayed.ReconcileCounts() != a.ReconcileCounts() {
		t.Fatalf("replay differs: %+v vs %+v", replayed.ReconcileCounts(), a.ReconcileCounts())
	}

	w := reconcileWorld(t, 9, nil)
	runUntilCreating(t, w)
	c := w.Clone()
	for _, x := range []*World{w, c} {
		mustApply(t, x, Action{Do: DoWatchCut})
		mustApply(t, x, Action{Do: DoReconcile, Key: "deployments/web"})
		x.RunFor(5_000_000)
	}
	if w.TraceHash() != c.TraceHash() {
		t.Fatal("a copy went on differently from its original")
	}
}

// TestReconcileActionsAreChecked: bad arguments are refused, naming the
// field.
func TestReconcileActionsAreChecked(t *testing.T) {
	for _, tc := range []struct {
		a    Action
		want string
	}{
		{Action{Do: DoDeployController}, "node: 0 is out of range"},
		{Action{Do: DoDeployController, Node: 1, To: 9}, "to: 9 is out of range"},
		{Action{Do: DoReconcile, Key: "web"}, "key: reconcile takes a Deployment's key"},
		{Action{Do: DoReconcile, Key: "deployments/"}, "key: reconcile takes"},
		{Action{Do: DoWatchCut, Node: 7}, "node: 7 is out of range"},
		{Action{Do: DoSet, Setting: "idempotence", Value: "maybe"}, "value: set takes on or off"},
	} {
		if err := tc.a.Validate(3); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: got %v, want %q", tc.a, err, tc.want)
		}
	}
	w := newTestWorld(t, func(c *Config) { c.Nodes = 3 })
	for i := 0; i < MaxDeploymentControllers; i++ {
		mustApply(t, w, Action{Do: DoDeployController, Node: 1 + i%3})
	}
	if err := w.Apply(Action{Do: DoDeployController, Node: 1}); err == nil || len(w.Actions()) != MaxDeploymentControllers {
		t.Errorf("a controller beyond %d: %v, %d actions logged", MaxDeploymentControllers, err, len(w.Actions()))
	}
	if got := (Action{Do: DoDeployController, Node: 1, To: 2}).String(); got != "0ms deploy-controller on 1 via 2" {
		t.Errorf("String: %q", got)
	}
}

// TestSetIdempotenceOff turns idempotence off mid-run: the controller's
// next create takes a generated name.
func TestSetIdempotenceOff(t *testing.T) {
	w := reconcileWorld(t, 3, nil)
	w.RunFor(2_000_000)
	mustApply(t, w, Action{Do: DoSet, Setting: SettingIdempotence, Value: "off"})
	if w.Settings().Idempotent {
		t.Fatal("idempotence still on")
	}
	mustApply(t, w, Action{Do: DoWrite, Key: "deployments/web", Value: "replicas=3 image=web:2"})
	w.RunFor(3_000_000)
	rs := replicaSets(w, 2)
	if len(rs) != 2 || rs[0] == ReplicaSetPrefix+"web-"+templateHash("replicas=3 image=web:2") && rs[1] == ReplicaSetPrefix+"web-"+templateHash("replicas=3 image=web:2") {
		t.Fatalf("ReplicaSets %v", rs)
	}
	for _, k := range rs {
		if k == ReplicaSetPrefix+"web-"+templateHash("replicas=3 image=web:2") {
			t.Fatalf("the new template's ReplicaSet %s was named by its hash", k)
		}
	}
}

// TestReconcileWaitsForTheCache: a reconcile asked for before the
// informer's first list, which fails while the API server is cut off,
// waits for the cache to sync and then runs; a paused controller's machine
// lists only once it resumes.
func TestReconcileWaitsForTheCache(t *testing.T) {
	w := newTestWorld(t, func(c *Config) { c.Nodes, c.Seed = 3, 4 })
	w.RunFor(3_000_000)
	mustApply(t, w, Action{Do: DoWrite, Key: "deployments/web", Value: "replicas=1 image=web:1"})
	w.RunFor(1_000_000)
	mustApply(t, w, Action{Do: DoCut, From: 1, To: 2})
	mustApply(t, w, Action{Do: DoDeployController, Node: 1, To: 2})
	mustApply(t, w, Action{Do: DoReconcile, Key: "deployments/web"})
	w.RunFor(500_000)
	c := w.DeploymentControllers()[0]
	if c.Informer.Synced || c.Informer.FailedLists != 1 || c.Reconciles != 0 || len(c.Queue) != 1 {
		t.Fatalf("before the list: %+v", c)
	}
	mustApply(t, w, Action{Do: DoPause, Node: 1})
	mustApply(t, w, Action{Do: DoRestore, From: 1, To: 2})
	w.RunFor(3_000_000)
	if c := w.DeploymentControllers()[0]; c.Informer.Lists != 0 || c.Informer.State != InformerWaiting {
		t.Fatalf("a paused machine's informer listed: %+v", c.Informer)
	}
	mustApply(t, w, Action{Do: DoResume, Node: 1})
	w.RunFor(3_000_000)
	c = w.DeploymentControllers()[0]
	if !c.Informer.Synced || c.Reconciles == 0 || c.Creates != 1 || len(replicaSets(w, 2)) != 1 {
		t.Fatalf("after the list: %+v, store %v", c, replicaSets(w, 2))
	}
}

// TestUnheardCreateRetriedFromAStaleCache cuts the link between the
// controller and its API server while a create is on its way: the server
// applies it, but the answer is not heard and the watch, with the new
// ReplicaSet's event, is cut. The controller retries the create from its
// cache, which does not show the ReplicaSet, before the informer manages
// to list again: without idempotence a second ReplicaSet, with it the
// create finds its ReplicaSet there. No action asks for the repeat.
func TestUnheardCreateRetriedFromAStaleCache(t *testing.T) {
	for seed := int64(1); seed <= 5; seed++ {
		for _, idempotent := range []bool{false, true} {
			// The controller and its server are the two followers, so
			// the server, cut off from the controller alone, still
			// commits the create through the leader.
			w := newTestWorld(t, func(c *Config) { c.Nodes, c.Seed, c.Idempotent = 3, seed, idempotent })
			w.RunFor(3_000_000)
			lead := leaders(w)[0]
			server, ctl := int(lead%3+1), int((lead+1)%3+1)
			mustApply(t, w, Action{Do: DoDeployController, Node: ctl, To: server})
			mustApply(t, w, Action{Do: DoWrite, Key: "deployments/web", Value: "replicas=3 image=web:1"})
			runUntilCreating(t, w)
			mustApply(t, w, Action{Do: DoCut, From: ctl, To: server})
			w.RunFor(1_500_000)
			mustApply(t, w, Action{Do: DoRestore, From: ctl, To: server})
			w.RunFor(10_000_000)
			noViolations(t, w)
			k := w.ReconcileCounts()
			if k.FailedCreates < 1 || k.WatchCuts < 1 || k.Relists < 1 || k.Diverged != 0 {
				t.Fatalf("seed %d: %+v", seed, k)
			}
			stored := replicaSets(w, NodeID(server))
			if fmt.Sprint(stored) != fmt.Sprint(cacheReplicaSets(w.DeploymentControllers()[0])) {
				t.Fatalf("seed %d: the cache does not show the store's %v", seed, stored)
			}
			if idempotent && (k.Duplicates != 0 || len(stored) != 1 || k.AlreadyExisted != 1) {
				t.Fatalf("seed %d, idempotent: %+v, %v", seed, k, stored)
			}
			if !idempotent && (k.Duplicates != 1 || len(stored) != 2) {
				t.Fatalf("seed %d, not idempotent: %+v, %v", seed, k, stored)
			}
		}
	}
}

// TestAnswerLostWithTheConnection: a link between the controller and its
// server that goes down and comes back while a create is on its way has
// broken the connection the answer would come back on: the create counts
// as failed even though the server applied it, and the retry finds the
// ReplicaSet in the cache that listed again meanwhile.
func TestAnswerLostWithTheConnection(t *testing.T) {
	w := reconcileWorld(t, 5, nil)
	runUntilCreating(t, w)
	mustApply(t, w, Action{Do: DoCut, From: 1, To: 2})
	mustApply(t, w, Action{Do: DoRestore, From: 1, To: 2})
	w.RunFor(10_000_000)
	k := w.ReconcileCounts()
	if k.FailedCreates != 1 || k.Creates != 0 || k.Relists != 1 || k.Duplicates != 0 || len(replicaSets(w, 2)) != 1 ||
		!sawText(w, "reconcile web: "+replicaSets(w, 2)[0]+" exists") {
		t.Fatalf("counts %+v, ReplicaSets %v", k, replicaSets(w, 2))
	}
}

// TestListNeedsAQuorum: an informer whose API server is in a minority
// cannot list (its linearizable read is refused or times out), so its
// controller never acts on a cache it could not fill; once the partition
// heals it lists and reconciles.
func TestListNeedsAQuorum(t *testing.T) {
	w := newTestWorld(t, func(c *Config) { c.Nodes, c.Seed = 3, 6 })
	w.RunFor(3_000_000)
	mustApply(t, w, Action{Do: DoWrite, Key: "deployments/web", Value: "replicas=1 image=web:1"})
	w.RunFor(1_000_000)
	mustApply(t, w, Action{Do: DoPartition, Groups: [][]int{{1, 2}, {3}}})
	mustApply(t, w, Action{Do: DoDeployController, Node: 3, To: 3})
	w.RunFor(20_000_000)
	c := w.DeploymentControllers()[0]
	if c.Informer.Synced || c.Informer.Lists != 0 || c.Informer.FailedLists < 2 || c.Reconciles != 0 {
		t.Fatalf("without a quorum: %+v", c)
	}
	mustApply(t, w, Action{Do: DoHeal})
	w.RunFor(40_000_000)
	c = w.DeploymentControllers()[0]
	if !c.Informer.Synced || c.Creates != 1 || len(replicaSets(w, 3)) != 1 {
		t.Fatalf("after healing: %+v", c)
	}
}
