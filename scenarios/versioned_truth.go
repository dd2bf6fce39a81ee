package scenarios

import (
	"errors"
	"fmt"
	"strings"

	"raftlab/raftcore"
)

// The figure versioned-truth, the bridge at the end of "One authoritative
// history": two controllers read the same object, each decides well on
// what it read, and consensus accepts both writes, yet one change
// disappears, because the object moved on between one controller's read and
// its write. With compare-and-swap on the revision read (the knob
// "writes"), the late write fails instead, and its controller reads again.

const (
	writesPlain = "plain"
	writesCas   = "cas"
)

// The object at the start, and the two controllers' changes to it.
const (
	vtStart      = "replicas=2 image=web:1"
	scalerChange = "replicas+1"
	deployChange = "image=web:2"
)

// The controllers by their order in the script: the scaler starts first
// and thinks longer; the deployer reads the same revision and writes first.
const (
	scalerID = 1
	deployID = 2
)

// controllerNames are the controllers' names by the order they start, as
// the screen and the checker say them: the same actors as the story's.
var controllerNames = []string{scalerID - 1: "the scaler", deployID - 1: "the deployer"}

var versionedTruth = def{id: "versioned-truth",
	// Compare-and-swap is the fix the chapter leaves to the next
	// investigation: the lesson and the full lab show it, the chapter's
	// figure does not.
	knobs: []Knob{{Name: "writes", Label: "Writes", Values: []string{writesPlain, writesCas}, Default: writesPlain, Lab: true}},
	build: func(k values) *Scenario {
		cas := k.get("writes") == writesCas
		var sc script
		sc.at(300, act(raftcore.DoTimeout, 1))
		sc.at(1000, write(1, keyWeb, vtStart))
		sc.at(2000, control(2, keyWeb, scalerChange, 900, cas))
		sc.at(2300, control(3, keyWeb, deployChange, 150, cas))
		s := &Scenario{
			Title:   "Versioned truth: the update consensus does not protect",
			Chapter: chapterHistory,
			Prompt:  "Watch two controllers, a scaler and a deployer, change the same object.",
			Base:    namedControllers(config(raft, etcdNames(3))),
			Script:  sc, UntilMs: 10000,
			UI: UI{Focus: PanelClient, OpenMs: 600, Panels: []Panel{PanelClient, PanelContract, PanelChecker, PanelLogs},
				Key: keyWeb, Highlight: []id{2, 3}, Words: WordsContract},
			Steps: []Step{
				{Text: "Two controllers will look after one object, " + keyWeb + ": a scaler adds a replica, a deployer rolls out image web:2. Each reads the object, thinks, and writes back what it decided.",
					Claims: claims(machines(3), that("the network is whole and no rule is broken", func(v *View) bool {
						return whole(v.W) && v.W.ViolationCount("") == 0
					}))},
				{Text: "A client created the object.",
					When: func(v *View) bool { return created(v.W) },
					Live: func(v *View) string {
						kv, _ := v.W.Node(leaderOr1(v.W)).KV().Get(keyWeb)
						return fmt.Sprintf("A client created the object, %s, at revision %d: the log index of the entry that wrote it.", kv.Value, kv.ModIndex)
					},
					Claims: claims(healthy(), that("the object is "+vtStart, func(v *View) bool {
						val, ok := objectAt(v.W, leaderOr1(v.W))
						return ok && val == vtStart
					}))},
				{Text: "The scaler read the object and is thinking about it.",
					When: func(v *View) bool { _, ok := ctrlRead(v.W, scalerID, 0); return ok },
					Live: func(v *View) string {
						r, _ := ctrlRead(v.W, scalerID, 0)
						return fmt.Sprintf("The scaler read revision %d (%s) and is thinking: it will ask for one more replica.", r.ReadRev, r.ReadValue)
					},
					Claims: claims(healthy(), thinking(scalerID))},
				{Text: "The deployer read the same revision.",
					When: func(v *View) bool { _, ok := ctrlRead(v.W, deployID, 0); return ok },
					Live: func(v *View) string {
						r, _ := ctrlRead(v.W, deployID, 0)
						return fmt.Sprintf("The deployer read the same revision %d and decides on image web:2. Both read accepted history.", r.ReadRev)
					},
					Claims: claims(healthy(), sameRevisionRead())},
				{Text: "The deployer's write is committed. The scaler is still thinking about a revision that is no longer the latest.",
					When: func(v *View) bool { _, ok := ctrlWrite(v.W, deployID, raftcore.OpOK); return ok },
					Live: func(v *View) string {
						d, _ := ctrlWrite(v.W, deployID, raftcore.OpOK)
						r, _ := ctrlRead(v.W, scalerID, 0)
						return fmt.Sprintf("The deployer's write is committed by a majority: the object is now at revision %d. The scaler is still thinking about revision %d, which is already out of date.", d.Index, r.ReadRev)
					},
					Claims: claims(healthy(), committedByMajority(deployID), thinking(scalerID), that("the scaler's read is out of date", func(v *View) bool {
						r, _ := ctrlRead(v.W, scalerID, 0)
						d, _ := ctrlWrite(v.W, deployID, raftcore.OpOK)
						return r.ReadRev < d.Index
					}))},
			},
			Expect: func(w *raftcore.World) error { return expectVersioned(w, cas) },
			final:  func(v *View) string { return finalVersioned(v.W) },
		}
		if cas {
			s.Prompt = "Watch the same two controllers, now writing with compare-and-swap on the revision each one read."
			s.Steps = append(s.Steps,
				Step{Text: "The scaler's swap failed: the object was no longer at the revision it read. Nothing was overwritten.",
					When: func(v *View) bool { _, ok := ctrlWrite(v.W, scalerID, raftcore.OpConflict); return ok },
					Live: func(v *View) string {
						c, _ := ctrlWrite(v.W, scalerID, raftcore.OpConflict)
						return fmt.Sprintf("The scaler's swap failed: it asked for revision %d, and the object was at revision %d. Nothing was overwritten; it reads again.", c.IfRev, c.FoundRev)
					},
					Claims: claims(healthy(), that("the object still holds image web:2", func(v *View) bool { return holds(v.W, "image=web:2") }))},
				Step{Text: "The scaler read again, decided again and its swap succeeded: the object holds both changes.",
					When: func(v *View) bool {
						_, ok := ctrlWrite(v.W, scalerID, raftcore.OpOK)
						return ok && settledAt(v.W, keyWeb)
					},
					Live: func(v *View) string {
						val, _ := objectAt(v.W, leaderOr1(v.W))
						return fmt.Sprintf("The scaler read again, decided again and its swap succeeded. The object holds both changes: %s.", val)
					},
					Claims: claims(healthy(), contractGreen(), noLostUpdate(), bothChanges())})
		} else {
			s.Steps = append(s.Steps,
				Step{Text: "The scaler's write is committed by a majority too, and every rule of Raft holds. But it was computed from the old revision: the deployer's change is gone.",
					When: func(v *View) bool {
						_, ok := ctrlWrite(v.W, scalerID, raftcore.OpOK)
						return ok && settledAt(v.W, keyWeb)
					},
					Live: func(v *View) string {
						val, _ := objectAt(v.W, leaderOr1(v.W))
						return fmt.Sprintf("The scaler's write is committed by a majority too, and every rule of Raft holds. But it was computed from the old revision: the object is %s, and the deployer's change is gone.", val)
					},
					Claims: claims(healthy(), contractGreen(), committedByMajority(scalerID), lostUpdateShown(),
						that("the object holds image web:1 again", func(v *View) bool { return holds(v.W, "image=web:1") && holds(v.W, "replicas=3") }))})
			s.UI.Compare = &Setting{Knob: "writes", Value: writesCas}
		}
		return s
	}}

// namedControllers is c with the controllers named as the story names them.
func namedControllers(c raftcore.Config) raftcore.Config {
	c.Controllers = append([]string(nil), controllerNames...)
	return c
}

// created reports whether the client's write that creates the object has
// succeeded.
func created(w *raftcore.World) bool {
	for _, op := range w.Ops() {
		if op.Controller == 0 && op.Kind == raftcore.DoWrite && op.Result == raftcore.OpOK {
			return true
		}
	}
	return false
}

// control starts a controller on machine n.
func control(n int, key, change string, thinkMs float64, cas bool) raftcore.Action {
	return raftcore.Action{Do: raftcore.DoControl, Node: n, Key: key, Change: change, ThinkMs: thinkMs, Cas: cas}
}

// ctrlOps are the requests of controller c of kind k, in order.
func ctrlOps(w *raftcore.World, c int, k raftcore.Verb) []raftcore.Op {
	var out []raftcore.Op
	for _, op := range w.Ops() {
		if op.Controller == c && op.Kind == k {
			out = append(out, op)
		}
	}
	return out
}

// ctrlRead is controller c's i-th read (from 0), once it succeeded.
func ctrlRead(w *raftcore.World, c, i int) (raftcore.Op, bool) {
	rs := ctrlOps(w, c, raftcore.DoRead)
	if i >= len(rs) || rs[i].Result != raftcore.OpOK {
		return raftcore.Op{}, false
	}
	return rs[i], true
}

// ctrlWrite is controller c's first write that ended with result r.
func ctrlWrite(w *raftcore.World, c int, r raftcore.OpResult) (raftcore.Op, bool) {
	for _, op := range ctrlOps(w, c, raftcore.DoWrite) {
		if op.Result == r {
			return op, true
		}
	}
	return raftcore.Op{}, false
}

// leaderOr1 is the machine whose store the figure quotes: the leader, or
// the first machine while there is none.
func leaderOr1(w *raftcore.World) id {
	if l, ok := topLeader(w); ok {
		return l
	}
	return 1
}

// objectAt is the object as machine n's store has it.
func objectAt(w *raftcore.World, n id) (string, bool) {
	kv, ok := w.Node(n).KV().Get(keyWeb)
	return kv.Value, ok
}

// holds reports whether the object, as the leader has it, has field f.
func holds(w *raftcore.World, f string) bool {
	val, _ := objectAt(w, leaderOr1(w))
	for _, g := range strings.Fields(val) {
		if g == f {
			return true
		}
	}
	return false
}

// settledAt reports whether every machine's store has key at the same
// revision: every write to it so far is applied everywhere.
func settledAt(w *raftcore.World, key string) bool {
	var rev uint64
	for i, n := range all(w) {
		kv, _ := w.Node(n).KV().Get(key)
		r := kv.ModIndex
		if i > 0 && r != rev {
			return false
		}
		rev = r
	}
	return true
}

// healthy: one leader, the network whole, every machine up, and no Raft
// rule broken.
//
//go:noinline
func healthy() claim {
	return that("the cluster is healthy and every Raft rule holds", func(v *View) bool {
		_, lead := topLeader(v.W)
		for _, n := range all(v.W) {
			if !isUp(v.W, n) {
				return false
			}
		}
		return lead && whole(v.W) && v.W.ViolationCount("") == 0
	})
}

//go:noinline
func thinking(c int) claim {
	return that("the controller is thinking", func(v *View) bool {
		ctl, ok := v.W.Controller(c)
		return ok && ctl.State == raftcore.ControllerThinking
	})
}

//go:noinline
func sameRevisionRead() claim {
	return that("both controllers read the same revision", func(v *View) bool {
		a, okA := ctrlRead(v.W, scalerID, 0)
		b, okB := ctrlRead(v.W, deployID, 0)
		return okA && okB && a.ReadRev == b.ReadRev && a.ReadRev != 0
	})
}

// committedByMajority: controller c's successful write is in a majority of
// logs and committed.
//
//go:noinline
func committedByMajority(c int) claim {
	return that("the write is committed by a majority", func(v *View) bool {
		op, ok := ctrlWrite(v.W, c, raftcore.OpOK)
		if !ok {
			return false
		}
		held := 0
		for _, n := range all(v.W) {
			if _, in := inLog(v.W, n, op.ID); in {
				held++
			}
		}
		return held >= quorum(v.W.Size()) && committedAnywhere(v.W, op.ID)
	})
}

//go:noinline
func lostUpdateShown() claim {
	return that("one update was lost, with every Raft rule holding", func(v *View) bool {
		fs := v.W.Findings()
		return len(fs) == 1 && fs[0].Controller == scalerID && v.W.ViolationCount("") == 0
	})
}

//go:noinline
func noLostUpdate() claim {
	return that("no update was lost", func(v *View) bool { return v.W.LostUpdates() == 0 })
}

//go:noinline
func bothChanges() claim {
	return that("the object holds both changes", func(v *View) bool { return holds(v.W, "replicas=3") && holds(v.W, "image=web:2") })
}

// contractGreen: every promise of the shared-history contract holds.
//
//go:noinline
func contractGreen() claim {
	return func(v *View) error {
		if err := contractHolds(v.W); err != nil {
			return fmt.Errorf("the words say every rule holds, but %v", err)
		}
		return nil
	}
}

// contractHolds says which promise of the contract does not hold, if any.
func contractHolds(w *raftcore.World) error {
	for _, c := range w.Contract() {
		if c.State != raftcore.ClauseHolding {
			return fmt.Errorf("%q is %s: %s", c.ID, c.State, c.Fact)
		}
	}
	return nil
}

func expectVersioned(w *raftcore.World, cas bool) error {
	v := &View{W: w, h: scan(w)}
	if n := w.ViolationCount(""); n != 0 {
		return fmt.Errorf("%d Raft rules broke; the figure needs a healthy cluster", n)
	}
	if err := contractHolds(w); err != nil {
		return fmt.Errorf("the contract does not hold at the end: %v", err)
	}
	if err := sameRevisionRead()(v); err != nil {
		return errors.New("the two controllers did not read the same revision")
	}
	for _, c := range []int{scalerID, deployID} {
		if err := committedByMajority(c)(v); err != nil {
			return fmt.Errorf("%s's write was not committed by a majority", controllerNames[c-1])
		}
	}
	if !settledAt(w, keyWeb) {
		return errors.New("the machines do not all hold the object at the same revision")
	}
	if cas {
		if _, ok := ctrlWrite(w, scalerID, raftcore.OpConflict); !ok {
			return errors.New("with cas the scaler's first swap did not fail")
		}
		if w.LostUpdates() != 0 {
			return fmt.Errorf("with cas %d updates were lost", w.LostUpdates())
		}
		if bothChanges()(v) != nil {
			return errors.New("with cas the object does not hold both changes")
		}
		return nil
	}
	if lostUpdateShown()(v) != nil {
		return fmt.Errorf("with plain writes want exactly the scaler's update lost, found %d lost updates", w.LostUpdates())
	}
	if holds(w, "image=web:2") || !holds(w, "replicas=3") {
		return errors.New("with plain writes the object should hold only the scaler's change")
	}
	return nil
}

func finalVersioned(w *raftcore.World) string {
	val, _ := objectAt(w, leaderOr1(w))
	rules := "every rule of Raft held"
	if n := w.ViolationCount(""); n > 0 {
		rules = count(n, "Raft rule broke", "Raft rules broke")
	}
	if fs := w.Findings(); len(fs) > 0 {
		f := fs[0]
		return fmt.Sprintf("The object is %s and %s, yet one change was lost: a write computed from revision %d replaced revision %d (%s) unseen.", val, rules, f.ReadRev, f.OverwroteRev, f.LostValue)
	}
	conflicts := 0
	for _, op := range w.Ops() {
		if op.Result == raftcore.OpConflict {
			conflicts++
		}
	}
	if conflicts > 0 {
		return fmt.Sprintf("The object is %s and %s. %s failed and was retried from a fresh read, so no change was lost.", val, rules, capital(count(conflicts, "swap", "swaps")))
	}
	if val == "" {
		return "The controllers have not written yet."
	}
	return fmt.Sprintf("The object is %s and %s; no change was lost.", val, rules)
}
