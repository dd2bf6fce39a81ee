package scenarios

import (
	"sort"
	"strings"

	"raftlab/raftcore"
)

// Questions about changing the cluster that the lab's membership figures
// (member-add, replace-member, joint-consensus, move-leader) are made of.

const chapterLab = "The lab's own figures"

// member is an action on the configuration naming one machine.
func member(do raftcore.Verb, n int) raftcore.Action { return raftcore.Action{Do: do, Node: n} }

// threeAndAStalledFourth is the start member-add and replace-member grow
// from: etcd-1 to etcd-3 are the voters, etcd-1 is elected at once and
// takes a first write, and etcd-4 is a spare whose machine is not ready:
// its process stalls at 2 s until the script resumes it.
func threeAndAStalledFourth() (raftcore.Config, script) {
	cfg := config(raft, etcdNames(4))
	cfg.Members = 3
	var sc script
	sc.at(2000, act(raftcore.DoPause, 4))
	sc.at(300, act(raftcore.DoTimeout, 1))
	sc.at(1500, write(1, keyWeb, "replicas=1"))
	return cfg, sc
}

// fourthIsNoMember reports whether the configuration that decides has
// three voters and names etcd-4 neither voter nor learner.
func fourthIsNoMember(v *View) bool {
	m := conf(v.W, 1)
	return len(m.Voters) == 3 && !isVoterIn(m, 4) && !contains(m.Learners, 4)
}

// conf is the configuration that decides now: the running leader's of the
// highest term, or, with no leader, machine n's.
func conf(w *raftcore.World, n id) raftcore.Membership {
	if l, ok := topLeader(w); ok {
		n = l
	}
	return w.Node(n).Membership()
}

// isVoterIn reports whether n is among the voters of m (either half).
func isVoterIn(m raftcore.Membership, n id) bool {
	return contains(m.Voters, n) || contains(m.Outgoing, n)
}

// runningVoters counts the voters of m whose machines run.
func runningVoters(w *raftcore.World, m raftcore.Membership) int {
	k := 0
	for _, n := range m.Voters {
		if isUp(w, n) {
			k++
		}
	}
	return k
}

// confNote finds the first note on a change of configuration, at or after
// fromUs, whose text has every one of parts.
func (v *View) confNote(fromUs int64, parts ...string) (confEvent, bool) {
	for _, c := range v.h.confs {
		if c.atUs < fromUs {
			continue
		}
		ok := true
		for _, p := range parts {
			ok = ok && strings.Contains(c.text, p)
		}
		if ok {
			return c, true
		}
	}
	return confEvent{}, false
}

// writeAfter is the first write made at or after fromUs that has finished,
// and whether it succeeded; found is false when there is none yet.
func writeAfter(w *raftcore.World, fromUs int64) (op raftcore.Op, found bool) {
	for _, o := range w.Ops() {
		if isWrite(o) && o.InvokeUs >= fromUs && o.Done() {
			return o, true
		}
	}
	return raftcore.Op{}, false
}

// okWriteAfter is the first write made at or after fromUs that succeeded.
func okWriteAfter(w *raftcore.World, fromUs int64) (raftcore.Op, bool) {
	for _, o := range w.Ops() {
		if isWrite(o) && o.InvokeUs >= fromUs && o.Result == raftcore.OpOK {
			return o, true
		}
	}
	return raftcore.Op{}, false
}

// leadersByTerm lists, from the roles seen, the machines that became
// leader in each term, in the order they did.
func (v *View) leadersByTerm() map[uint64][]id {
	out := map[uint64][]id{}
	for _, rc := range v.h.roles {
		if rc.to == raftcore.RoleLeader && !contains(out[rc.term], rc.node) {
			out[rc.term] = append(out[rc.term], rc.node)
		}
	}
	return out
}

// twoInOneTerm is the lowest term in which two machines became leader, and
// those machines.
func (v *View) twoInOneTerm() (uint64, []id, bool) {
	byTerm := v.leadersByTerm()
	var terms []uint64
	for t, ls := range byTerm {
		if len(ls) > 1 {
			terms = append(terms, t)
		}
	}
	if len(terms) == 0 {
		return 0, nil, false
	}
	sort.Slice(terms, func(i, j int) bool { return terms[i] < terms[j] })
	return terms[0], byTerm[terms[0]], true
}
