package scenarios

import (
	"errors"
	"fmt"

	"raftlab/raftcore"
)

// The figure replace-member, one of the lab's own: one of three voters
// fails and a new machine replaces it. Removed first, the failed member
// leaves two voters that both run, and the newcomer is added to three, of
// which two run: writes never stop. Added first, the newcomer makes four
// voters of which two run, too few for anything, even for removing the
// failed one: writes stop until the newcomer's machine has started and
// caught up.

// The script's moments, in milliseconds.
const (
	replaceCrashMs = 2500
	replaceFirstMs = 5000
	replaceThenMs  = 6000
	replaceWriteMs = 7000
	replaceStartMs = 12500
	replaceLastMs  = 17500
	replaceUntilMs = 20000
)

var replaceMember = def{id: "replace-member",
	knobs: []Knob{{Name: "order", Label: "Order", Values: []string{"remove first", "add first"}, Default: "remove first"}},
	build: func(k values) *Scenario {
		addFirst := k.get("order") == "add first"
		// etcd-4 is the replacement: its machine is stalled, not started yet.
		cfg, sc := threeAndAStalledFourth()
		sc.at(replaceCrashMs, act(raftcore.DoCrash, 3))
		sc.at(3500, write(1, keyWeb, "replicas=2"))
		if addFirst {
			sc.at(replaceFirstMs, member(raftcore.DoAdd, 4))
			sc.at(replaceThenMs, member(raftcore.DoRemove, 3))
		} else {
			sc.at(replaceFirstMs, member(raftcore.DoRemove, 3))
			sc.at(replaceThenMs, member(raftcore.DoAdd, 4))
		}
		sc.at(replaceWriteMs, write(1, keyWeb, "replicas=3"))
		sc.at(replaceStartMs, act(raftcore.DoResume, 4))
		sc.at(replaceLastMs, write(1, keyWeb, "replicas=4"))
		s := &Scenario{
			Title:   "Replacing a failed member",
			Chapter: chapterLab,
			Prompt:  "One of three members fails: remove it, then add its replacement; then try adding first.",
			Base:    cfg,
			Script:  sc, UntilMs: replaceUntilMs,
			UI: UI{Focus: PanelClient, OpenMs: 1000, Panels: []Panel{PanelClient, PanelLogs, PanelRoles}, Key: keyWeb, Highlight: []id{3, 4}},
		}
		s.Steps = []Step{
			{Text: "etcd-1, etcd-2 and etcd-3 are the voters. etcd-4 is a new machine, not in the cluster, to replace whichever fails.",
				Claims: claims(machines(4), that("there are three voters and etcd-4 is no member", fourthIsNoMember))},
			{Text: "etcd-3 failed. etcd-1 and etcd-2 are 2 of 3, and writes go on.",
				When: func(v *View) bool { _, ok := okWriteAfter(v.W, replaceCrashMs*1000); return ok },
				Claims: claims(silentNow(node(3)), that("3 voters, and a write went through after the failure", func(v *View) bool {
					return len(conf(v.W, 1).Voters) == 3
				}))},
		}
		if addFirst {
			s.Steps = append(s.Steps, addFirstSteps()...)
		} else {
			s.Steps = append(s.Steps, removeFirstSteps()...)
		}
		s.Expect = func(w *raftcore.World) error { return expectReplace(w, addFirst) }
		s.final = func(v *View) string {
			if addFirst {
				bad, good, _ := writeStall(v.W, replaceCrashMs*1000)
				return fmt.Sprintf("Added first, etcd-4 made four voters with two running: nothing could commit, not even etcd-3's removal. The write at %s failed, and none went through until %s, once etcd-4's machine had started and caught up. Had it never started, none ever would.", secs(bad.InvokeUs), secs(good.CompleteUs))
			}
			return "Removed first, etcd-3 left two voters, both running; etcd-4 then made three, two of them running. Writes never stopped, though etcd-4's machine had not started. etcd's advice: remove a failed member before adding its replacement."
		}
		return s
	}}

// removeFirstSteps is the story with etcd-3 removed before etcd-4 is
// added.
func removeFirstSteps() []Step {
	return []Step{
		{Text: "etcd-3 is removed: 2 voters, and a write needs both, which run.",
			When: func(v *View) bool { return !isVoterIn(conf(v.W, 1), 3) },
			Claims: claims(that("the voters are etcd-1 and etcd-2, both running", func(v *View) bool {
				m := conf(v.W, 1)
				return len(m.Voters) == 2 && runningVoters(v.W, m) == 2
			}))},
		{Text: "etcd-4 is added: 3 voters, a write needs 2 of 3, and etcd-1 and etcd-2 run.",
			When: func(v *View) bool { return isVoterIn(conf(v.W, 1), 4) },
			Claims: claims(that("3 voters with etcd-4, 2 running", func(v *View) bool {
				m := conf(v.W, 1)
				return len(m.Voters) == 3 && runningVoters(v.W, m) == 2 && v.W.Status(4) == raftcore.StatusPaused
			}))},
		{Text: "A write went through, though etcd-4's machine has not started.",
			When: func(v *View) bool { _, ok := okWriteAfter(v.W, replaceWriteMs*1000); return ok },
			Claims: claims(that("etcd-4 is paused and a write after the add went through", func(v *View) bool {
				return v.W.Status(4) == raftcore.StatusPaused
			}))},
		{Text: "etcd-4's machine started and caught up: three running voters again.",
			When: func(v *View) bool { return isUp(v.W, 4) && caughtUp(v.W, 4) },
			Claims: claims(activeNow(node(4)), that("etcd-4 holds the leader's log and 3 voters run", func(v *View) bool {
				return caughtUp(v.W, 4) && runningVoters(v.W, conf(v.W, 1)) == 3
			}))},
	}
}

// addFirstSteps is the story with etcd-4 added while etcd-3 is down.
func addFirstSteps() []Step {
	return []Step{
		{Text: "etcd-4 is added first: 4 voters, so a write needs 3 of 4, and only etcd-1 and etcd-2 run.",
			When: func(v *View) bool { return isVoterIn(conf(v.W, 1), 4) },
			Claims: claims(that("4 voters, 2 running", func(v *View) bool {
				m := conf(v.W, 1)
				return len(m.Voters) == 4 && runningVoters(v.W, m) == 2
			}))},
		{Text: "Removing etcd-3 needs 3 of 4 as well: it waits, and the write failed.",
			When: func(v *View) bool { _, ok := writeAfter(v.W, replaceWriteMs*1000); return ok },
			Live: func(v *View) string {
				op, _ := writeAfter(v.W, replaceWriteMs*1000)
				return fmt.Sprintf("Removing etcd-3 needs 3 of 4 as well: it is in etcd-1's log, uncommitted. The write %s.", outcome(op))
			},
			Claims: claims(that("the removal is uncommitted in etcd-1's log and the write failed", func(v *View) bool {
				i, ok := confEntryAt(v.W, 1, raftcore.ConfRemove)
				op, _ := writeAfter(v.W, replaceWriteMs*1000)
				return ok && i > v.W.Node(1).Commit() && failed(op) && isVoterIn(v.W.Node(1).Membership(), 3)
			}))},
		{Text: "etcd-4's machine started and took the log: 3 of 4 run, and etcd-3's removal committed.",
			When: func(v *View) bool { return !isVoterIn(conf(v.W, 1), 3) },
			Claims: claims(activeNow(node(4)), that("etcd-3 is out, the voters are etcd-1, etcd-2 and etcd-4, and etcd-4 holds the removal", func(v *View) bool {
				m := conf(v.W, 1)
				_, holds := confEntryAt(v.W, 4, raftcore.ConfRemove)
				return len(m.Voters) == 3 && isVoterIn(m, 4) && runningVoters(v.W, m) == 3 && holds
			}))},
		{Text: "Writes go through again.",
			When: func(v *View) bool { _, ok := okWriteAfter(v.W, replaceLastMs*1000); return ok },
			Live: func(v *View) string {
				bad, good, _ := writeStall(v.W, replaceCrashMs*1000)
				return fmt.Sprintf("Writes go through again. From the write at %s that failed to this one, at %s, none did.", secs(bad.InvokeUs), secs(good.CompleteUs))
			},
			Claims: claims(that("no write went through between the failed one and this one", func(v *View) bool {
				bad, good, ok := writeStall(v.W, replaceCrashMs*1000)
				if !ok {
					return false
				}
				for _, op := range v.W.Ops() {
					if isWrite(op) && op.Result == raftcore.OpOK && op.CompleteUs > bad.InvokeUs && op.CompleteUs < good.CompleteUs {
						return false
					}
				}
				return true
			}))},
	}
}

// caughtUp reports whether machine n holds everything the leader holds.
func caughtUp(w *raftcore.World, n id) bool {
	l, ok := topLeader(w)
	return ok && w.Node(n).LastIndex() == w.Node(l).LastIndex() && sameLog(w, n, l)
}

// writeStall finds the first write made from fromUs on that failed, and
// the first write that went through after it.
func writeStall(w *raftcore.World, fromUs int64) (bad, good raftcore.Op, ok bool) {
	found := false
	for _, op := range w.Ops() {
		switch {
		case !isWrite(op) || op.InvokeUs < fromUs:
		case !found && failed(op):
			bad, found = op, true
		case found && op.Result == raftcore.OpOK && op.InvokeUs > bad.InvokeUs:
			return bad, op, true
		}
	}
	return bad, good, false
}

// expectReplace: removed first, every write went through; added first,
// the write made between the changes failed and writes resumed at the
// end. Either way etcd-3 is out, etcd-4 in, and no rule broke.
func expectReplace(w *raftcore.World, addFirst bool) error {
	op, ok := writeAfter(w, replaceWriteMs*1000)
	switch {
	case !ok:
		return errors.New("no write was made after the changes")
	case addFirst && !failed(op):
		return errors.New("added first with etcd-3 down, a write went through before etcd-4 started")
	case !addFirst && failed(op):
		return fmt.Errorf("removed first, the write %s", outcome(op))
	}
	m := w.Node(1).Membership()
	if isVoterIn(m, 3) || !isVoterIn(m, 4) || len(m.Voters) != 3 {
		return fmt.Errorf("the configuration at the end is %s", m)
	}
	if _, ok := okWriteAfter(w, replaceLastMs*1000); !ok {
		return errors.New("the last write did not go through")
	}
	if n := w.ViolationCount(""); n > 0 {
		return fmt.Errorf("raft broke a safety rule: %s", w.Violations()[0].Text)
	}
	return nil
}
