package scenarios

import (
	"errors"
	"fmt"

	"raftlab/raftcore"
)

// The figure member-add, one of the lab's own: three voters add a fourth
// whose machine is not ready. Added as a voter, it raises the quorum to 3
// of 4 at once, and one more failure stops writes. Added as a learner (what
// etcd recommends), it is never counted, and it is promoted only once it
// has caught up with the leader.

// The script's moments, in milliseconds.
const (
	addAtMs     = 3000
	addCrashMs  = 5500
	addPromote1 = 8000
	addReadyMs  = 9000
	addPromote2 = 10500
	addBackMs   = 11500
	addLastMs   = 14500
	addUntilMs  = 17000
)

var memberAdd = def{id: "member-add",
	knobs: []Knob{{Name: "joins", Label: "etcd-4 joins as", Values: []string{"voter", "learner"}, Default: "voter"}},
	build: func(k values) *Scenario {
		learner := k.get("joins") == "learner"
		// etcd-4's machine is not ready: its process stalls before it is added.
		cfg, sc := threeAndAStalledFourth()
		if learner {
			sc.at(addAtMs, member(raftcore.DoAddLearner, 4))
		} else {
			sc.at(addAtMs, member(raftcore.DoAdd, 4))
		}
		sc.at(4000, write(1, keyWeb, "replicas=2"))
		sc.at(addCrashMs, act(raftcore.DoCrash, 3))
		sc.at(6000, write(1, keyWeb, "replicas=3"))
		if learner {
			// Promoted too early, then again once its machine has run.
			sc.at(addPromote1, member(raftcore.DoPromote, 4))
			sc.at(addReadyMs, act(raftcore.DoResume, 4))
			sc.at(addPromote2, member(raftcore.DoPromote, 4))
			sc.at(addPromote2+500, write(1, keyWeb, "replicas=4"))
		}
		sc.at(addBackMs, act(raftcore.DoRestart, 3))
		sc.at(addLastMs, write(1, keyWeb, "replicas=5"))
		s := &Scenario{
			Title:   "Adding a member",
			Chapter: chapterLab,
			Prompt:  "Add a fourth member whose machine is not ready, then lose one more: as a voter, then as a learner.",
			Base:    cfg,
			Script:  sc, UntilMs: addUntilMs,
			UI: UI{Focus: PanelClient, OpenMs: 1000, Panels: []Panel{PanelClient, PanelLogs, PanelRoles}, Key: keyWeb, Highlight: []id{4}},
		}
		s.Steps = []Step{{Text: "etcd-1, etcd-2 and etcd-3 are the voters: a write needs 2 of 3. etcd-4 is not in the cluster yet.",
			Claims: claims(machines(4), that("the voters are etcd-1 to etcd-3 and etcd-4 is no member", fourthIsNoMember))}}
		if learner {
			s.Steps = append(s.Steps, learnerSteps()...)
		} else {
			s.Steps = append(s.Steps, voterSteps()...)
		}
		s.Expect = func(w *raftcore.World) error { return expectAdd(w, learner) }
		s.final = func(v *View) string {
			stopped, failedOps := 0, 0
			for _, op := range v.W.Ops() {
				if isWrite(op) && op.InvokeUs >= addCrashMs*1000 && op.InvokeUs < addBackMs*1000 {
					stopped++
					if failed(op) {
						failedOps++
					}
				}
			}
			if learner {
				return fmt.Sprintf("As a learner etcd-4 counted for nothing until it was promoted, caught up: with etcd-3 down, %d of %s went through. etcd recommends adding members as learners.",
					stopped-failedOps, count(stopped, "write", "writes"))
			}
			return fmt.Sprintf("As a voter etcd-4 counted from the moment it was added, running or not: with etcd-3 down, %d of %s went through. Three voters could lose one; these four could not.",
				stopped-failedOps, count(stopped, "write", "writes"))
		}
		return s
	}}

// voterSteps is the story with etcd-4 added as a voter.
func voterSteps() []Step {
	added := func(v *View) bool { return isVoterIn(conf(v.W, 1), 4) }
	return []Step{
		{Text: "etcd-4 is a voter now: with 4 voters a write needs 3 of 4, though etcd-4's machine is stalled (paused) and not ready.",
			When: added,
			Claims: claims(that("etcd-4 is a voter of 4 and paused", func(v *View) bool {
				m := conf(v.W, 1)
				return added(v) && len(m.Voters) == 4 && v.W.Status(4) == raftcore.StatusPaused
			}))},
		{Text: "A write went through: etcd-1, etcd-2 and etcd-3 are 3 of 4.",
			When: func(v *View) bool { _, ok := okWriteAfter(v.W, addAtMs*1000); return ok },
			Claims: claims(that("a write after the add went through with 3 voters running", func(v *View) bool {
				_, ok := okWriteAfter(v.W, addAtMs*1000)
				return ok && runningVoters(v.W, conf(v.W, 1)) == 3
			}))},
		{Text: "etcd-3 failed. etcd-1 and etcd-2 are 2 of 4, too few: the write failed. Three voters could lose one; these four cannot.",
			When: func(v *View) bool { _, ok := writeAfter(v.W, addCrashMs*1000); return ok },
			Live: func(v *View) string {
				op, _ := writeAfter(v.W, addCrashMs*1000)
				return fmt.Sprintf("etcd-3 failed. etcd-1 and etcd-2 are 2 of 4, too few: the write %s. Three voters could lose one; these four cannot.", outcome(op))
			},
			Claims: claims(silentNow(node(3)), that("etcd-4 is still paused and the write failed", func(v *View) bool {
				op, _ := writeAfter(v.W, addCrashMs*1000)
				return v.W.Status(4) == raftcore.StatusPaused && failed(op)
			}))},
		{Text: "etcd-3 is back: 3 of the 4 voters run, and writes go through again. etcd-4 has still not started: this cluster can lose no voter.",
			When: func(v *View) bool { _, ok := okWriteAfter(v.W, addBackMs*1000); return ok },
			Claims: claims(activeNow(node(3)), that("etcd-4 is paused, 3 of 4 voters run and a write went through", func(v *View) bool {
				m := conf(v.W, 1)
				return len(m.Voters) == 4 && runningVoters(v.W, m) == 3 && v.W.Status(4) == raftcore.StatusPaused
			}))},
	}
}

// learnerSteps is the story with etcd-4 added as a learner.
func learnerSteps() []Step {
	isLearner := func(v *View) bool { return contains(conf(v.W, 1).Learners, 4) }
	return []Step{
		{Text: "etcd-4 joined as a learner while its machine is stalled (paused): it is sent the log but never counted. A write still needs 2 of 3.",
			When: isLearner,
			Claims: claims(that("etcd-4 is a paused learner and there are 3 voters", func(v *View) bool {
				return isLearner(v) && len(conf(v.W, 1).Voters) == 3 && v.W.Status(4) == raftcore.StatusPaused
			}))},
		{Text: "etcd-3 failed, and the write went through: etcd-1 and etcd-2 are 2 of 3.",
			When: func(v *View) bool { _, ok := okWriteAfter(v.W, addCrashMs*1000); return ok },
			Claims: claims(silentNow(node(3)), that("the write after the failure went through with 3 voters", func(v *View) bool {
				return len(conf(v.W, 1).Voters) == 3
			}))},
		{Text: "Promoting etcd-4 was refused: it has not caught up with the leader.",
			When: func(v *View) bool { _, ok := v.confNote(addPromote1*1000, "refused promote 4"); return ok },
			Live: func(v *View) string {
				l, _ := topLeader(v.W)
				return fmt.Sprintf("%s refused to promote etcd-4: it holds %d of the leader's %d entries, and etcd promotes a learner only once it holds nine tenths.",
					name(v.W, l), v.W.Node(4).LastIndex(), v.W.Node(l).LastIndex())
			},
			Claims: claims(that("etcd-4 is still a learner, behind the leader", func(v *View) bool {
				l, ok := topLeader(v.W)
				return ok && isLearner(v) && float64(v.W.Node(4).LastIndex()) < 0.9*float64(v.W.Node(l).LastIndex())
			}))},
		{Text: "etcd-4's machine is up, caught up, and now a voter: a write needs 3 of 4, and 3 run.",
			When: func(v *View) bool { return isVoterIn(conf(v.W, 1), 4) },
			Claims: claims(activeNow(node(4)), that("etcd-4 is a voter of 4, caught up, with 3 running", func(v *View) bool {
				m := conf(v.W, 1)
				l, _ := topLeader(v.W)
				return len(m.Voters) == 4 && runningVoters(v.W, m) == 3 && v.W.Node(4).LastIndex()*10 >= v.W.Node(l).LastIndex()*9
			}))},
		{Text: "A write went through with etcd-1, etcd-2 and etcd-4, etcd-3 still down.",
			When: func(v *View) bool { _, ok := okWriteAfter(v.W, addPromote2*1000); return ok },
			Claims: claims(silentNow(node(3)), that("a write after the promotion went through", func(v *View) bool {
				_, ok := okWriteAfter(v.W, addPromote2*1000)
				return ok && isVoterIn(conf(v.W, 1), 4)
			}))},
	}
}

// expectAdd: as a voter, the write made with etcd-3 down failed; as a
// learner, it went through, the early promotion was refused and the late
// one taken. Either way the run breaks no rule and writes go through at
// the end.
func expectAdd(w *raftcore.World, learner bool) error {
	v := &View{W: w, h: scan(w)}
	op, ok := writeAfter(w, addCrashMs*1000)
	switch {
	case !ok:
		return errors.New("no write was made with etcd-3 down")
	case learner && failed(op):
		return fmt.Errorf("with etcd-4 a learner and etcd-3 down, the write %s", outcome(op))
	case !learner && !failed(op):
		return errors.New("with etcd-4 a paused voter and etcd-3 down, a write went through")
	}
	if learner {
		if _, ok := v.confNote(addPromote1*1000, "refused promote 4"); !ok {
			return errors.New("etcd-4 was promoted before it caught up")
		}
	}
	if !isVoterIn(w.Node(1).Membership(), 4) {
		return errors.New("etcd-4 is not a voter at the end")
	}
	if _, ok := okWriteAfter(w, addLastMs*1000); !ok {
		return errors.New("the last write did not go through")
	}
	if n := w.ViolationCount(""); n > 0 {
		return fmt.Errorf("raft broke a safety rule: %s", w.Violations()[0].Text)
	}
	return nil
}
