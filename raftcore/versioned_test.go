package raftcore

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Tests of revisions, compare-and-swap, controllers and the lost-update
// finding.

// leaderWorld is a three-machine world with machine 1 leading.
func leaderWorld(t *testing.T, bugs Bug) *World {
	t.Helper()
	w := newTestWorld(t, func(c *Config) { c.Nodes, c.Bugs = 3, bugs })
	mustApply(t, w, Action{Do: DoTimeout, Node: 1})
	w.RunFor(1_000_000)
	require.Equal(t, RoleLeader, w.Node(1).Role())
	return w
}

// ask applies a client action, lets it finish, and returns its operation.
func ask(t *testing.T, w *World, a Action) Op {
	t.Helper()
	mustApply(t, w, a)
	id := len(w.Ops())
	w.RunFor(1_000_000)
	op, _ := w.Op(id)
	require.True(t, op.Done(), "%v did not finish", a)
	return op
}

func rev(r uint64) *uint64 { return &r }

// everyMachineHas asserts every machine's store holds key at value and
// revision.
func everyMachineHas(t *testing.T, w *World, key, value string, revision uint64) {
	t.Helper()
	for id := NodeID(1); int(id) <= w.Size(); id++ {
		got, ok := w.Node(id).KV().Get(key)
		require.True(t, ok, "machine %d has no %s", id, key)
		assert.Equal(t, KVValue{Value: value, ModIndex: revision}, got, "machine %d", id)
	}
}

func TestCompareAndSwapIsDecidedWhenApplied(t *testing.T) {
	w := leaderWorld(t, 0)
	put := ask(t, w, Action{Do: DoWrite, Node: 2, Key: "k", Value: "a"})
	require.Equal(t, OpOK, put.Result)
	r1 := put.Index
	read := ask(t, w, Action{Do: DoRead, Node: 3, Key: "k"})
	assert.Equal(t, r1, read.ReadRev, "a read returns the revision of the key")

	swap := ask(t, w, Action{Do: DoWrite, Node: 3, Key: "k", Value: "b", IfRev: rev(r1)})
	require.Equal(t, OpOK, swap.Result, swap.Reason)
	assert.True(t, swap.Cas)
	everyMachineHas(t, w, "k", "b", swap.Index)

	late := ask(t, w, Action{Do: DoWrite, Node: 2, Key: "k", Value: "c", IfRev: rev(r1)})
	assert.Equal(t, OpConflict, late.Result)
	assert.Equal(t, swap.Index, late.FoundRev, "the conflict names the revision it found")
	assert.Greater(t, late.Index, swap.Index, "the failed swap was still ordered in the log")
	assert.Contains(t, late.Reason, fmt.Sprintf("revision %d", swap.Index))
	everyMachineHas(t, w, "k", "b", swap.Index)

	absent := ask(t, w, Action{Do: DoWrite, Node: 1, Key: "new", Value: "x", IfRev: rev(0)})
	assert.Equal(t, OpOK, absent.Result, "if_rev 0 creates a key that does not exist")
	again := ask(t, w, Action{Do: DoWrite, Node: 1, Key: "new", Value: "y", IfRev: rev(0)})
	assert.Equal(t, OpConflict, again.Result, "if_rev 0 fails once the key exists")
	assert.Zero(t, w.ViolationCount(""))
	assert.Zero(t, w.LostUpdates(), "plain writes and swaps made directly are no read-modify-writes")
}

// TestStateDigestCoversRevisions: a machine whose store has the right
// values but a wrong revision is caught by state-matches-log.
func TestStateDigestCoversRevisions(t *testing.T) {
	w := leaderWorld(t, 0)
	ask(t, w, Action{Do: DoWrite, Node: 1, Key: "k", Value: "a"})
	n := w.Node(3)
	kv := n.kv.data["k"]
	require.NotZero(t, kv.ModIndex)
	n.kv.remove("k")
	n.kv.data["k"] = KVValue{Value: kv.Value, ModIndex: kv.ModIndex + 1}
	n.kv.digest += kvHash("k", kv.Value, kv.ModIndex+1)
	ask(t, w, Action{Do: DoWrite, Node: 1, Key: "other", Value: "b"})
	assert.Equal(t, 1, w.ViolationCount(RuleStateDigest), "a revision off by one went unseen: %v", w.Violations())
}

func TestVersionedActionsAreValidated(t *testing.T) {
	for _, c := range []struct {
		a    Action
		want string
	}{
		{Action{Do: DoRead, Node: 1, Key: "k", IfRev: rev(3)}, "if_rev: only a write"},
		{Action{Do: DoWrite, Node: 1, Key: "k", Change: "replicas+1"}, "change: only a control"},
		{Action{Do: DoWrite, Node: 1, Key: "k", Cas: true}, "cas: only a control"},
		{Action{Do: DoWrite, Node: 1, Key: "k", ThinkMs: 5}, "think_ms: only a control"},
		{Action{Do: DoControl, Node: 1, Key: "k"}, "change: control needs a change"},
		{Action{Do: DoControl, Node: 1, Key: "k", Change: "replicas"}, `change: "replicas" is not`},
		{Action{Do: DoControl, Node: 1, Key: "k", Change: "replicas+x"}, "want a whole number from 1 to 1000"},
		{Action{Do: DoControl, Node: 1, Key: "k", Change: "image=a b"}, "single words"},
		{Action{Do: DoControl, Node: 1, Key: "k", Change: "replicas+1", ThinkMs: -1}, "think_ms: -1 is out of range"},
		{Action{Do: DoControl, Node: 9, Key: "k", Change: "replicas+1"}, "node: 9 is out of range"},
		{Action{Do: DoControl, Node: 1, Change: "replicas+1"}, "key: control needs a key"},
	} {
		err := c.a.Validate(3)
		if assert.Error(t, err, "%+v", c.a) {
			assert.Contains(t, err.Error(), c.want)
		}
	}
	_, err := ParseSchedule([]byte(`{"seed":1,"until_ms":10,"actions":[{"at_ms":1,"do":"write","node":1,"key":"k","value":"v","if_rev":-2}]}`))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "actions[0].if_rev")
	_, err = ParseSchedule([]byte(`{"seed":1,"until_ms":10,"actions":[{"at_ms":1,"do":"control","node":1,"key":"k","change":"replicas+1","cas":"yes"}]}`))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "actions[0].cas")
}

func TestApplyChange(t *testing.T) {
	for _, c := range []struct{ value, change, want string }{
		{"replicas=2 image=web:1", "replicas+1", "replicas=3 image=web:1"},
		{"replicas=2 image=web:1", "image=web:2", "replicas=2 image=web:2"},
		{"", "replicas+2", "replicas=2"},
		{"image=web:1", "replicas+1", "image=web:1 replicas=1"},
	} {
		got, err := applyChange(c.value, c.change)
		require.NoError(t, err)
		assert.Equal(t, c.want, got, "%q with %q", c.value, c.change)
	}
	_, err := applyChange("replicas=many", "replicas+1")
	assert.ErrorContains(t, err, `replicas is "many", not a number`)
}

// twoControllers is the figure's story as a schedule: a scaler reads, a
// deployer reads the same revision and writes first, then the scaler writes.
func twoControllers(cas bool) Schedule {
	return Schedule{Nodes: 3, Seed: 7, UntilMs: 8000, Actions: []Action{
		{AtMs: 300, Do: DoTimeout, Node: 1},
		{AtMs: 1000, Do: DoWrite, Node: 1, Key: "obj", Value: "replicas=2 image=web:1"},
		{AtMs: 2000, Do: DoControl, Node: 2, Key: "obj", Change: "replicas+1", ThinkMs: 900, Cas: cas},
		{AtMs: 2300, Do: DoControl, Node: 3, Key: "obj", Change: "image=web:2", ThinkMs: 150, Cas: cas},
	}}
}

func TestPlainControllersLoseAnUpdateWithRaftIntact(t *testing.T) {
	w, err := twoControllers(false).Run()
	require.NoError(t, err)
	assert.Zero(t, w.ViolationCount(""), "every Raft rule holds: %v", w.Violations())
	for _, c := range w.Controllers() {
		assert.Equal(t, ControllerDone, c.State, "controller %d: %s", c.ID, c.Why)
	}
	fs := w.Findings()
	require.Len(t, fs, 1)
	f := fs[0]
	assert.Equal(t, RuleLostUpdate, f.Rule)
	assert.Equal(t, 1, f.Controller, "the scaler, which wrote last from an old read")
	assert.Less(t, f.ReadRev, f.OverwroteRev)
	assert.Equal(t, "replicas=2 image=web:2", f.LostValue)
	obj, _ := w.Node(1).KV().Get("obj")
	assert.Equal(t, "replicas=3 image=web:1", obj.Value, "only the scaler's change survives")
	assert.Equal(t, 1, w.LostUpdates())
	assert.NotContains(t, w.Summarize().ViolationCounts, RuleLostUpdate, "a lost update is not a violation")
}

func TestCasControllersKeepBothChanges(t *testing.T) {
	w, err := twoControllers(true).Run()
	require.NoError(t, err)
	assert.Zero(t, w.ViolationCount(""))
	assert.Zero(t, w.LostUpdates())
	scaler, _ := w.Controller(1)
	assert.Equal(t, ControllerDone, scaler.State)
	assert.Equal(t, 2, scaler.Reads, "the scaler's swap failed once and it read again")
	conflicts := 0
	for _, op := range w.Ops() {
		if op.Result == OpConflict {
			conflicts++
			assert.Equal(t, 1, op.Controller)
		}
	}
	assert.Equal(t, 1, conflicts)
	everyMachineHas(t, w, "obj", "replicas=3 image=web:2", w.Node(1).KV().data["obj"].ModIndex)
}

// TestControllersGoByTheirNames: a controller the configuration names is
// called so where the checker tells of its lost update, one it does not
// name goes by its number, and the names travel with the run's schedule
// without changing the run.
func TestControllersGoByTheirNames(t *testing.T) {
	s := twoControllers(false)
	plain, err := s.Run()
	require.NoError(t, err)
	require.Len(t, plain.Findings(), 1)
	assert.True(t, strings.HasPrefix(plain.Findings()[0].Text, "controller 1's write to obj"), plain.Findings()[0].Text)

	s.Controllers = []string{"the scaler"}
	named, err := s.Run()
	require.NoError(t, err)
	require.Len(t, named.Findings(), 1)
	assert.True(t, strings.HasPrefix(named.Findings()[0].Text, "the scaler's write to obj"), named.Findings()[0].Text)
	assert.Equal(t, "controller 2", named.Config().ControllerName(2), "the list names only the first")
	assert.Equal(t, plain.TraceHash(), named.TraceHash(), "names are only words: the run is the same")
	assert.Equal(t, []string{"the scaler"}, named.Schedule().Controllers)

	for _, bad := range []string{`[""]`, `["a\nb"]`, `["` + strings.Repeat("x", 41) + `"]`} {
		_, err := ParseSchedule([]byte(`{"seed":1,"until_ms":10,"controllers":` + bad + `,"actions":[]}`))
		if assert.Error(t, err, bad) {
			assert.Contains(t, err.Error(), "controllers[0]: ")
		}
	}
}

// TestBlindSwapIsCaught: an engine that applies a swap without comparing
// revisions loses the update, and the finding names it.
func TestBlindSwapIsCaught(t *testing.T) {
	s := twoControllers(true)
	w, err := NewWorld(func() Config { c := s.Config(); c.Bugs = BugBlindSwap; return c }())
	require.NoError(t, err)
	require.NoError(t, w.Play(s.Actions))
	w.RunUntil(msToUs(s.UntilMs))
	assert.Equal(t, 1, w.LostUpdates(), "a blind swap lost an update unseen")
}

func TestControllersReplayFromTheirSchedule(t *testing.T) {
	for _, cas := range []bool{false, true} {
		w, err := twoControllers(cas).Run()
		require.NoError(t, err)
		again, err := w.Schedule().Run()
		require.NoError(t, err)
		assert.Equal(t, w.TraceHash(), again.TraceHash(), "cas=%v", cas)
		assert.Equal(t, w.Summarize(), again.Summarize())
		fork := w.Clone()
		fork.RunFor(1_000_000)
		w.RunFor(1_000_000)
		assert.Equal(t, w.Summarize(), fork.Summarize(), "a clone carries the controllers")
	}
}

// randomControllers is a healthy-ish cluster with 2 to 4 controllers on one
// key; controller i changes its own field ci, so every change that survives
// can be seen in the final value. Some runs pause a machine for a while.
func randomControllers(seed int64, cas bool, bugs Bug) *World {
	r := NewRand(seed)
	cfg := DefaultConfig()
	cfg.Seed, cfg.Nodes, cfg.Bugs = seed, []int{3, 5}[r.Intn(2)], bugs
	w := MustWorld(cfg)
	var acts []Action
	acts = append(acts, Action{AtMs: 1500, Do: DoWrite, Node: 1 + r.Intn(cfg.Nodes), Key: "obj", Value: "replicas=1"})
	for i := 1; i <= 2+r.Intn(3); i++ {
		acts = append(acts, Action{AtMs: float64(2000 + r.Intn(1500)), Do: DoControl, Node: 1 + r.Intn(cfg.Nodes),
			Key: "obj", Change: "c" + strconv.Itoa(i) + "+1", ThinkMs: float64(r.Intn(800)), Cas: cas})
	}
	if r.Chance(0.3) {
		n := 1 + r.Intn(cfg.Nodes)
		at := float64(1800 + r.Intn(2000))
		acts = append(acts, Action{AtMs: at, Do: DoPause, Node: n}, Action{AtMs: at + 1500, Do: DoResume, Node: n})
	}
	if err := w.Play(acts); err != nil {
		panic(err)
	}
	w.RunUntil(15_000_000)
	return w
}

// missingChanges counts the controllers that finished whose change is not
// in the final value.
func missingChanges(w *World) int {
	id, best := NodeID(1), uint64(0)
	for n := NodeID(1); int(n) <= w.Size(); n++ {
		if a := w.Node(n).Applied(); a > best {
			id, best = n, a
		}
	}
	obj, _ := w.Node(id).KV().Get("obj")
	missing := 0
	for _, c := range w.Controllers() {
		field := strings.TrimSuffix(c.Change, "+1")
		if c.State == ControllerDone && !strings.Contains(" "+obj.Value+" ", " "+field+"=1 ") {
			missing++
		}
	}
	return missing
}

func TestRandomControllers(t *testing.T) {
	const seeds = 150
	plainLost, casDone := 0, 0
	for seed := int64(1); seed <= seeds; seed++ {
		cw := randomControllers(seed, true, 0)
		assert.Zero(t, cw.ViolationCount(""), "seed %d cas: %v", seed, cw.Violations())
		assert.Zero(t, cw.LostUpdates(), "seed %d: compare-and-swap lost an update: %v", seed, cw.Findings())
		assert.Zero(t, missingChanges(cw), "seed %d: a finished controller's change is missing", seed)
		assert.NoError(t, linearizable(cw), "seed %d cas", seed)
		for _, c := range cw.Controllers() {
			if c.State == ControllerDone {
				casDone++
			}
		}

		pw := randomControllers(seed, false, 0)
		assert.Zero(t, pw.ViolationCount(""), "seed %d plain: %v", seed, pw.Violations())
		assert.NoError(t, linearizable(pw), "seed %d plain", seed)
		if pw.LostUpdates() > 0 {
			plainLost++
		} else {
			assert.Zero(t, missingChanges(pw), "seed %d: a change went missing with no lost update found", seed)
		}
	}
	t.Logf("plain writes lost updates in %d of %d runs; %d cas controllers finished", plainLost, seeds, casDone)
	assert.Greater(t, plainLost, 0, "plain read-modify-writes never lost an update")
	assert.Less(t, plainLost, seeds, "plain read-modify-writes lost an update in every run")
	assert.Greater(t, casDone, seeds, "too few cas controllers finished for the runs to say much")

	caught := 0
	for seed := int64(1); seed <= seeds && caught == 0; seed++ {
		caught += randomControllers(seed, true, BugBlindSwap).LostUpdates()
	}
	assert.Greater(t, caught, 0, "a swap that does not compare revisions was never caught")
}

// TestLinearizableCheckCanFail: the per-operation check rejects a read
// that reports a revision the log does not give, a read served from before
// a write that had finished, and a swap answered the wrong way.
func TestLinearizableCheckCanFail(t *testing.T) {
	w, err := twoControllers(true).Run()
	require.NoError(t, err)
	require.NoError(t, linearizable(w))
	lastRead, conflict := 0, 0
	for _, op := range w.Ops() {
		if op.Kind == DoRead && op.Result == OpOK {
			lastRead = op.ID
		}
		if op.Result == OpConflict {
			conflict = op.ID
		}
	}
	require.NotZero(t, lastRead)
	require.NotZero(t, conflict)
	for name, tamper := range map[string]func(c *World){
		"wrong revision": func(c *World) { c.ops[lastRead-1].ReadRev++ },
		"served too early": func(c *World) {
			op := &c.ops[lastRead-1]
			op.ReadAt, op.ReadRev, op.ReadValue, op.ReadFound = 0, 0, "", false
		},
		"swap answered ok": func(c *World) { c.ops[conflict-1].Result = OpOK },
	} {
		c := w.Clone()
		tamper(c)
		assert.Error(t, linearizable(c), name)
	}
}

// TestControllerHashesGolden pins the trace hashes of runs with
// controllers, plain and cas, in testdata/controllers.golden; it is checked
// natively and under GOOS=js, as hashes.golden is (rewrite with -update
// after an intended engine change).
func TestControllerHashesGolden(t *testing.T) {
	var b strings.Builder
	b.WriteString("# Trace hashes of runs with controllers (versioned_test.go), natively and under GOOS=js.\n")
	for _, cas := range []bool{false, true} {
		w, err := twoControllers(cas).Run()
		require.NoError(t, err)
		fmt.Fprintf(&b, "two controllers cas %v events %d hash %s\n", cas, w.TraceCount(), HashString(w.TraceHash()))
		for seed := int64(1); seed <= 5; seed++ {
			w := randomControllers(seed, cas, 0)
			fmt.Fprintf(&b, "random seed %d cas %v events %d lost %d hash %s\n", seed, cas, w.TraceCount(), w.LostUpdates(), HashString(w.TraceHash()))
		}
	}
	path := filepath.Join("testdata", "controllers.golden")
	if *update {
		require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, string(want), b.String())
}

// TestControllerRereadsWhenNoLeaderAnswers: a controller started before
// any leader is elected is refused, waits an election timeout, reads again
// and finishes; one whose machine stays cut off gives up after five reads
// and says why.
func TestControllerRereadsWhenNoLeaderAnswers(t *testing.T) {
	w := newTestWorld(t, func(c *Config) { c.Nodes = 3 })
	mustApply(t, w, Action{Do: DoControl, Node: 2, Key: "obj", Change: "replicas+1", ThinkMs: 10})
	w.RunFor(10_000_000)
	c, _ := w.Controller(1)
	assert.Equal(t, ControllerDone, c.State, c.Why)
	assert.Greater(t, c.Reads, 1, "the first read found no leader")
	first, _ := w.Op(c.Ops[0])
	assert.Equal(t, OpRefused, first.Result)

	mustApply(t, w, Action{Do: DoPartition, Groups: [][]int{{1}, {2, 3}}})
	lone := 1
	if w.Node(1).Role() == RoleLeader {
		lone = 2
		mustApply(t, w, Action{Do: DoPartition, Groups: [][]int{{2}, {1, 3}}})
	}
	mustApply(t, w, Action{Do: DoControl, Node: lone, Key: "obj", Change: "image=web:2"})
	w.RunFor(60_000_000)
	c, _ = w.Controller(2)
	assert.Equal(t, ControllerGaveUp, c.State)
	assert.Equal(t, maxControllerReads, c.Reads)
	assert.Contains(t, c.Why, "its read was")
}

// TestCompareAndSwapNeedsTheExactRevision: as in an etcd transaction that
// compares a key's mod revision, a swap takes effect only when the key's
// revision is exactly the one expected; expecting an older one or a newer
// one fails alike, changes nothing and reports the revision found.
func TestCompareAndSwapNeedsTheExactRevision(t *testing.T) {
	var kv KV
	swap := func(index, expect uint64, value string) applied {
		return kv.apply(Entry{Index: index, Term: 1, Data: Command{Kind: OpPut, Key: "k", Value: value, Based: true, BasedOn: expect, Cas: true}})
	}
	require.Equal(t, applied{FirstIndex: 1}, swap(1, 0, "a"), "an absent key is at revision 0")
	for _, expect := range []uint64{0, 9} {
		assert.Equal(t, applied{PrevRev: 1, Conflict: true, FirstIndex: 2}, swap(2, expect, "x"), "expecting %d", expect)
		got, _ := kv.Get("k")
		assert.Equal(t, KVValue{Value: "a", ModIndex: 1}, got, "a failed swap changes nothing")
	}
	assert.Equal(t, applied{PrevRev: 1, FirstIndex: 3}, swap(3, 1, "b"))
	got, _ := kv.Get("k")
	assert.Equal(t, KVValue{Value: "b", ModIndex: 3}, got)
}

// TestCasConflictRun plays testdata/cas-conflict.json: a swap expecting a
// revision newer than the key's fails with the key's revision, one
// expecting the current revision succeeds, and of two swaps that both
// expect a key to be absent only the first succeeds.
func TestCasConflictRun(t *testing.T) {
	w, err := loadScheduleFile(t, "cas-conflict.json").Run()
	require.NoError(t, err)
	var got []string
	for _, op := range w.Ops() {
		if op.Kind == DoWrite {
			got = append(got, fmt.Sprintf("%s %s@%d found %d", op.Key, op.Result, op.Index, op.FoundRev))
		}
	}
	assert.Equal(t, []string{
		"deployments/web ok@2 found 0",
		"deployments/web conflict@3 found 2",
		"deployments/web ok@4 found 0",
		"deployments/db ok@5 found 0",
		"deployments/db conflict@6 found 5",
	}, got)
	everyMachineHas(t, w, "deployments/web", "replicas=3", 4)
	everyMachineHas(t, w, "deployments/db", "replicas=1", 5)
	noViolations(t, w)
}
