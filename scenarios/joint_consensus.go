package scenarios

import (
	"errors"
	"fmt"

	"raftlab/raftcore"
)

// The figure joint-consensus, one of the lab's own: three voters grow to
// five, and the network splits in the middle of the change, with etcd-2
// holding the change but not knowing it was committed. Switched straight
// from the old voters to the new (the direct-switch bug), the old voters'
// majority (etcd-1 and etcd-2) and the new voters' (etcd-3 to etcd-5) do
// not overlap, and each elects a leader in the same term. Through a joint
// configuration, every decision of the change needs a majority of both,
// and no term ever has two leaders.

// The script's moments, in milliseconds.
const (
	jointChangeMs    = 3000
	jointCrashMs     = 3050 // after etcd-2 has the change, before it hears it committed
	jointSplitMs     = 3500
	jointRestartMs   = 5500
	jointUntilMs     = 13000
	jointSettledByMs = 10500
)

var jointConsensus = def{id: "joint-consensus",
	knobs: []Knob{{Name: "change", Label: "The change", Values: []string{"joint consensus", "direct switch"}, Default: "joint consensus"}},
	build: func(k values) *Scenario {
		direct := k.get("change") == "direct switch"
		cfg := config(raft, etcdNames(5))
		cfg.Members = 3
		if direct {
			cfg.Bugs = raftcore.BugDirectSwitch
		}
		var sc script
		sc.at(300, act(raftcore.DoTimeout, 1))
		sc.at(1500, write(1, keyWeb, "replicas=1"))
		sc.at(jointChangeMs, raftcore.Action{Do: raftcore.DoJoint, Voters: []int{1, 2, 3, 4, 5}})
		sc.at(jointCrashMs, act(raftcore.DoCrash, 2))
		sc.at(jointSplitMs, partition([]int{1, 2}, []int{3, 4, 5}))
		// etcd-3 stands first on its side, so that the side holds one
		// election, not a split vote.
		sc.at(jointSplitMs, raftcore.Action{Do: raftcore.DoTimer, Node: 3, Ms: 1200},
			raftcore.Action{Do: raftcore.DoTimer, Node: 4, Ms: 2000}, raftcore.Action{Do: raftcore.DoTimer, Node: 5, Ms: 2000})
		sc.at(jointRestartMs, act(raftcore.DoRestart, 2))
		sc.at(jointSettledByMs+500, write(3, keyWeb, "replicas=2"))
		s := &Scenario{
			Title:   "Growing from 3 to 5",
			Chapter: chapterLab,
			Prompt:  "Grow three voters to five and split the network mid-change: through a joint configuration, then switched directly.",
			Base:    cfg,
			Script:  sc, UntilMs: jointUntilMs,
			UI:    UI{Focus: PanelChecker, OpenMs: 1000, Panels: []Panel{PanelChecker, PanelLogs, PanelClient}, Key: keyWeb, Highlight: []id{2}},
			Steps: jointSteps(direct),
		}
		if direct {
			s.Shows = []raftcore.Rule{raftcore.RuleElectionSafety}
		}
		s.Expect = func(w *raftcore.World) error {
			v := &View{W: w, h: scan(w)}
			term, two, found := v.twoInOneTerm()
			switch {
			case direct && !found:
				return errors.New("switched directly, no term had two leaders")
			case direct && w.ViolationCount(raftcore.RuleElectionSafety) == 0:
				return fmt.Errorf("%s both led term %d and the checker did not flag it", names(w, two), term)
			case !direct && found:
				return fmt.Errorf("through a joint configuration, %s both led term %d", names(w, two), term)
			case !direct && w.ViolationCount("") > 0:
				return fmt.Errorf("raft broke a safety rule: %s", w.Violations()[0].Text)
			}
			if _, ok := okWriteAfter(w, (jointSettledByMs+500)*1000); !ok {
				return errors.New("the write on the new voters' side did not go through")
			}
			return nil
		}
		s.final = func(v *View) string {
			if term, two, ok := v.twoInOneTerm(); ok {
				return fmt.Sprintf("Switched directly, %s were both elected leader of term %d: for a moment the old voters and the new ones were two clusters, each with a majority of its own. etcd changes voters through a joint configuration.", names(v.W, two), term)
			}
			return fmt.Sprintf("Through a joint configuration no term had two leaders (%s elected in all). While joint, every decision needs a majority of the old voters and of the new; once the change is left, a machine still on the old voters lacks the entries the others hold and gets no vote.",
				count(len(v.leadersByTerm()), "term", "terms"))
		}
		return s
	}}

// jointSteps is the story, switched directly or through a joint
// configuration.
func jointSteps(direct bool) []Step {
	changed := func(v *View) bool { _, ok := v.confNote(0, "applied enter-joint"); return ok }
	sideLeader := func(v *View) (id, uint64, bool) {
		for _, rc := range v.h.roles {
			if rc.to == raftcore.RoleLeader && rc.atUs >= jointSplitMs*1000 && rc.node >= 3 {
				return rc.node, rc.term, true
			}
		}
		return 0, 0, false
	}
	changeText := "etcd-1 committed the change and entered the joint configuration: the old voters etcd-1 to etcd-3 and the new ones, etcd-1 to etcd-5. Until it is left, every decision needs a majority of each."
	if direct {
		changeText = "etcd-1 committed the change and switched straight from the old voters, etcd-1 to etcd-3, to the new ones, etcd-1 to etcd-5."
	}
	return []Step{
		{Text: "Three voters, etcd-1 to etcd-3. etcd-4 and etcd-5 are spares, about to join.",
			Claims: claims(machines(5), that("there are three voters and no learner", func(v *View) bool {
				m := v.W.Node(1).Membership()
				return len(m.Voters) == 3 && !isVoterIn(m, 4) && !isVoterIn(m, 5)
			}))},
		{Text: changeText, When: changed,
			Claims: claims(that("etcd-1 applied the change as said", func(v *View) bool {
				m := v.W.Node(1).Membership()
				return len(m.Voters) == 5 && m.Joint() != direct
			}))},
		{Text: "etcd-2 had received the change, but crashed before it heard that it was committed.",
			When: func(v *View) bool { return v.W.Status(2) == raftcore.StatusCrashed },
			Claims: claims(silentNow(node(2)), that("etcd-2 holds the change, unapplied", func(v *View) bool {
				_, holds := confEntryAt(v.W, 2, raftcore.ConfEnterJoint)
				return holds && len(v.W.Node(2).Membership().Voters) == 3
			}))},
		{Text: "The network splits etcd-1 and etcd-2 from etcd-3, etcd-4 and etcd-5.",
			When:   func(v *View) bool { return !whole(v.W) },
			Claims: claims(splitNow(), that("etcd-1 cannot reach etcd-3", func(v *View) bool { return !linked(v.W, 1, 3) }))},
		{Text: "A leader was elected on the new voters' side.",
			When: func(v *View) bool { _, _, ok := sideLeader(v); return ok },
			Live: func(v *View) string {
				l, t, _ := sideLeader(v)
				return fmt.Sprintf("%s was elected leader of term %d by etcd-3, etcd-4 and etcd-5: 3 of the 5 new voters.", name(v.W, l), t)
			},
			Claims: claims(that("the side's leader leads, elected with the five voters", func(v *View) bool {
				l, _, _ := sideLeader(v)
				m := v.W.Node(l).Membership()
				return v.W.Node(l).Role() == raftcore.RoleLeader && len(m.Voters) == 5 && !m.Joint()
			}))},
		{Text: "etcd-2 is back, still counting the old voters: etcd-1 and etcd-2 would be 2 of its 3.",
			When: func(v *View) bool { return v.W.Now() >= jointRestartMs*1000 && isUp(v.W, 2) },
			Claims: claims(activeNow(node(2)), that("etcd-2's voters are etcd-1 to etcd-3", func(v *View) bool {
				m := v.W.Node(2).Membership()
				return len(m.Voters) == 3 && !m.Joint()
			}))},
		jointOutcome(direct, sideLeader),
	}
}

// jointOutcome is the story's last step: two leaders in one term, or, by
// the time the side has surely settled, none.
func jointOutcome(direct bool, sideLeader func(v *View) (id, uint64, bool)) Step {
	if direct {
		return Step{Text: "etcd-2 was elected too: two leaders in one term.",
			When: func(v *View) bool { _, _, ok := v.twoInOneTerm(); return ok },
			Live: func(v *View) string {
				t, two, _ := v.twoInOneTerm()
				return fmt.Sprintf("%s were both elected leader of term %d. etcd-2 counted the old voters and won with etcd-1's vote; the others counted the new. The two majorities did not overlap.", names(v.W, two), t)
			},
			Claims: claims(that("two machines were elected in one term and the checker says so", func(v *View) bool {
				_, two, ok := v.twoInOneTerm()
				return ok && len(two) == 2 && contains(two, 2) && v.W.ViolationCount(raftcore.RuleElectionSafety) > 0
			}))}
	}
	return Step{Text: "etcd-2 was not elected: no term has two leaders.",
		When: func(v *View) bool { return v.W.Now() >= jointSettledByMs*1000 },
		Live: func(v *View) string {
			return fmt.Sprintf("etcd-2 stood but was not elected: etcd-1 holds %d entries to its %d, the change's last step among them, and refused its vote. No term has had two leaders.",
				v.W.Node(1).LastIndex(), v.W.Node(2).LastIndex())
		},
		Claims: claims(that("no term had two leaders, etcd-2 stood and does not lead, and etcd-1's log is longer", func(v *View) bool {
			_, _, two := v.twoInOneTerm()
			stood := false
			for _, rc := range v.h.roles {
				stood = stood || (rc.node == 2 && rc.atUs >= jointRestartMs*1000 && rc.to != raftcore.RoleFollower)
			}
			leave, ok := confEntryAt(v.W, 1, raftcore.ConfLeaveJoint)
			return !two && stood && v.W.Node(2).Role() != raftcore.RoleLeader && ok && leave > v.W.Node(2).LastIndex()
		}))}
}

// confEntryAt finds the first entry of machine n's log that changes the
// configuration the way t does.
func confEntryAt(w *raftcore.World, n id, t raftcore.ConfChangeType) (uint64, bool) {
	nd := w.Node(n)
	for i := uint64(1); i <= nd.LastIndex(); i++ {
		if d := nd.Entry(i).Data; d.Kind == raftcore.OpConf && d.Conf.Type == t {
			return i, true
		}
	}
	return 0, false
}
