package scenarios

import (
	"errors"
	"fmt"
	"strings"

	"raftlab/raftcore"
)

// The figure two-leaders, from "One authoritative history".

// The chapter shows it before it names Raft or speaks of a majority
// (WordsInCharge): its raft variant says, in the chapter's words, that a
// machine takes charge only when enough others agree, so that only one
// can be in charge at a time; its knob says so too.
var twoLeaders = def{id: "two-leaders",
	knobs: []Knob{takingCharge},
	build: func(k values) *Scenario {
		p := raftcore.Protocol(k.get("protocol"))
		sc := silenceA(p)
		sc.at(10000, heal())
		// Under failover the figure opens with A already the authority;
		// under raft its story starts with the election.
		openMs := 1000.0
		if p == raft {
			openMs = 0
		}
		s := &Scenario{
			Title:   "The two leaders",
			Chapter: chapterHistory,
			Base:    config(p, abc),
			Script:  sc, UntilMs: 13000,
			UI: UI{Focus: PanelClient, OpenMs: openMs, Panels: []Panel{PanelLogs, PanelRoles, PanelContract, PanelClient}, Key: keyWeb, Highlight: []id{1},
				Compare: compareWith(p, failover, raft), Words: WordsInCharge},
		}
		cutOff := Step{Text: "The machine in charge can no longer reach the others. They cannot tell whether it failed or the network did.",
			When: func(v *View) bool { _, ok := cutOffLeader(v.W); return ok },
			Live: func(v *View) string {
				x, _ := cutOffLeader(v.W)
				return fmt.Sprintf("%s can no longer reach %s. They cannot tell whether it failed or the network did.", name(v.W, x), others(v.W, x))
			},
			Claims: claims(splitNow(), that("the machine in charge is cut off", func(v *View) bool { _, ok := cutOffLeader(v.W); return ok }))}
		if p == failover {
			s.Prompt = "A alone orders every write. Silence it, write on both sides, then heal; then try taking charge by agreement."
			s.Steps = []Step{
				{Text: "A is the only authority: it orders every write, and B and C copy what it orders. Silence A.",
					Claims: claims(machines(3), leadsAlone(node(1)))},
				cutOff,
				{Text: "A machine stopped hearing the authority and made itself the authority. The old one never stepped down: there are two.",
					When: func(v *View) bool { return len(authorities(v.W)) >= 2 },
					Live: func(v *View) string {
						a := authorities(v.W)
						return fmt.Sprintf("%s both act as the authority now: the new one stopped hearing the old one, and the old one never stepped down.", names(v.W, a))
					},
					Claims: claims(that("two machines act as the authority", func(v *View) bool { return len(authorities(v.W)) == 2 }))},
				{Text: "Both authorities accepted a write. Each side now has its own future.",
					When:   func(v *View) bool { return v.sidesThatWrote() >= 2 },
					Live:   func(v *View) string { return capital(v.splitWritesLine()) + ": two authorities, two futures." },
					Claims: claims(differentHistories(), that("both sides took writes", func(v *View) bool { return v.sidesThatWrote() >= 2 }))},
				{Text: "The network is whole again, yet both still act as the authority and their histories stay different.",
					When: func(v *View) bool {
						a := authorities(v.W)
						return v.healedAfterSplit() && len(a) >= 2 && !logsEqual(v.W, a)
					},
					Claims: claims(healed(), that("two authorities with different histories remain", func(v *View) bool {
						a := authorities(v.W)
						return len(a) >= 2 && !logsEqual(v.W, a)
					}))},
			}
			s.Expect = expectTwoAuthorities
			s.final = func(v *View) string {
				w := v.W
				var b strings.Builder
				if vs := violationsOf(w, raftcore.RuleSingleAuthority); len(vs) > 0 {
					fmt.Fprintf(&b, "From %s on, %s both acted as the authority. ", secs(vs[0].AtUs), names(w, vs[0].Nodes))
				}
				if line := v.splitWritesLine(); line != "" {
					fmt.Fprintf(&b, "During the split %s. ", line)
				}
				b.WriteString(logGroupsLine(w))
				if !logsEqual(w, nil) {
					b.WriteString(" Nothing will ever choose between them.")
				}
				return b.String()
			}
			return s
		}
		s.Prompt = "The same silence, where a machine takes charge only when enough others agree: only one can be in charge at a time."
		s.Steps = []Step{
			{Text: "The same three machines, but now a machine takes charge only when enough of the others agree to it, so only one can be in charge at a time. Wait for one to take charge.",
				Claims: claims(machines(3), noneLeads())},
			{Text: "A is in charge; B and C follow it. Silence A.",
				When:   func(v *View) bool { l, ok := topLeader(v.W); return ok && l == 1 && logsEqual(v.W, nil) },
				Claims: claims(leadsAlone(node(1)), that("A was the first put in charge", func(v *View) bool { return v.W.Node(1).Term() == 1 }))},
			cutOff,
			{Text: "The others agreed to put one of them in charge. The machine cut off could not: there is no one to agree with it.",
				When: func(v *View) bool { _, ok := majorityLeader(v.W); return ok && !whole(v.W) },
				Live: func(v *View) string {
					l, _ := majorityLeader(v.W)
					g, _ := majorityGroup(v.W)
					out := fmt.Sprintf("%s agreed to put %s in charge. ", names(v.W, g), name(v.W, l))
					for _, a := range authorities(v.W) {
						if !contains(g, a) {
							return out + fmt.Sprintf("%s still believes it is in charge, but with no one to agree with it, it can have nothing accepted.", name(v.W, a))
						}
					}
					return out + "The machine cut off could not take charge: there is no one to agree with it."
				},
				Claims: claims(splitNow(), that("the side able to agree put a machine in charge after the one cut off", func(v *View) bool { _, ok := majorityLeader(v.W); return ok }))},
			{Text: "Only the larger side had its write accepted; the write on the side cut off was never accepted.",
				When: func(v *View) bool {
					ok, bad := v.splitOutcomes()
					return ok > 0 && bad > 0
				},
				Claims: claims(that("a write on the larger side committed and one on the side cut off failed", func(v *View) bool {
					ok, bad := v.splitOutcomes()
					return ok > 0 && bad > 0
				}))},
			{Text: "After the heal, the machine cut off took the history of the one in charge now, and its write that was never accepted was replaced. One machine in charge at a time, one history.",
				When: func(v *View) bool {
					return v.healedAfterSplit() && logsEqual(v.W, nil) && v.minorityWritesGone()
				},
				Claims: claims(healed(), sameHistories(nil), that("the minority's write is in no log", func(v *View) bool { return v.minorityWritesGone() }),
					that("no two machines were put in charge at once", func(v *View) bool { return oneLeaderPerTerm(v) == nil }))},
		}
		s.Expect = func(w *raftcore.World) error {
			v := &View{W: w, h: scan(w)}
			if err := oneLeaderPerTerm(v); err != nil {
				return err
			}
			if n := w.ViolationCount(""); n > 0 {
				return fmt.Errorf("raft broke a safety rule: %s", w.Violations()[0].Text)
			}
			ok, bad := v.splitOutcomes()
			if ok == 0 || bad == 0 {
				return fmt.Errorf("during the split %d majority-side writes succeeded and %d minority-side writes failed; want at least one of each", ok, bad)
			}
			if !logsEqual(w, nil) || !v.minorityWritesGone() {
				return errors.New("after the heal the histories differ, or a minority write survived")
			}
			return nil
		}
		s.final = func(v *View) string {
			w := v.W
			var b strings.Builder
			first := uint64(0)
			for _, rc := range v.h.roles {
				if rc.to != raftcore.RoleLeader {
					continue
				}
				if first == 0 {
					first = rc.term
				} else if rc.term > first {
					fmt.Fprintf(&b, "%s took charge at %s. ", name(w, rc.node), secs(rc.atUs))
					break
				}
			}
			for _, op := range v.minorityWrites() {
				fmt.Fprintf(&b, "The write sent to %s during the split %s and was never accepted. ", name(w, op.Node), outcome(op))
			}
			b.WriteString(logGroupsLine(w))
			if oneLeaderPerTerm(v) == nil {
				took := 0
				for _, rc := range v.h.roles {
					if rc.to == raftcore.RoleLeader {
						took++
					}
				}
				fmt.Fprintf(&b, " A machine took charge %s, each time with enough others agreeing: only one at a time could have writes accepted.",
					count(took, "time", "times"))
			}
			return b.String()
		}
		return s
	}}

// takingCharge is two-leaders' knob, in the chapter's words: a machine
// takes charge on silence (the failover) or by agreement (raft).
var takingCharge = Knob{Name: "protocol", Label: "Taking charge", Values: []string{string(failover), string(raft)},
	Default: string(failover), Says: []string{"on silence", "by agreement"}}

// silenceA is the start two figures share: A leads (the designated
// authority, or made leader under raft), a write commits, then A is cut off
// from B and C and each side is asked to write.
func silenceA(p raftcore.Protocol) script {
	var sc script
	if p == raft {
		sc.at(300, act(raftcore.DoTimeout, 1))
	}
	sc.at(1500, write(2, keyWeb, "replicas=3"))
	sc.at(3000, partition([]int{1}, []int{2, 3}))
	sc.at(3500, write(1, keyWeb, "replicas=5"))
	// Late enough for B and C to have settled on a leader even after a
	// split vote.
	sc.at(7500, write(2, keyWeb, "replicas=0"))
	return sc
}

// cutOffLeader is a machine that believes it leads but is paused or cannot
// reach any other machine.
func cutOffLeader(w *raftcore.World) (id, bool) {
	for _, a := range authorities(w) {
		if !isUp(w, a) {
			return a, true
		}
		alone := true
		for _, b := range all(w) {
			if b != a && linked(w, a, b) {
				alone = false
			}
		}
		if alone && w.Size() > 1 {
			return a, true
		}
	}
	return 0, false
}

// majorityLeader is a leader inside a group that can commit, whose term is
// above that of every machine outside the group.
func majorityLeader(w *raftcore.World) (id, bool) {
	g, ok := majorityGroup(w)
	l, has := topLeader(w)
	if !ok || !has || !contains(g, l) {
		return 0, false
	}
	for _, n := range all(w) {
		if !contains(g, n) && w.Node(n).Term() >= w.Node(l).Term() {
			return 0, false
		}
	}
	return l, true
}

// splitWritesLine lists the writes accepted during the latest split, e.g.
// "A took deployments/web=replicas=5 and B took deployments/web=replicas=0".
func (v *View) splitWritesLine() string {
	var parts []string
	for _, op := range v.opsDuringSplit() {
		if isWrite(op) && op.Result == raftcore.OpOK {
			parts = append(parts, fmt.Sprintf("%s took %s=%s", name(v.W, op.Node), op.Key, op.Value))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return andList(parts)
}

// splitOutcomes counts, among writes made during the latest split, those
// that succeeded in a group able to commit and those that failed outside
// one.
func (v *View) splitOutcomes() (okMajority, failedMinority int) {
	q := quorum(v.W.Size())
	for _, op := range v.opsDuringSplit() {
		switch {
		case !isWrite(op):
		case op.Result == raftcore.OpOK && len(op.Side) >= q:
			okMajority++
		case failed(op) && len(op.Side) < q:
			failedMinority++
		}
	}
	return okMajority, failedMinority
}

// minorityWrites are the writes made during the latest split by machines in
// a group too small to commit.
func (v *View) minorityWrites() []raftcore.Op {
	var out []raftcore.Op
	for _, op := range v.opsDuringSplit() {
		if isWrite(op) && len(op.Side) < quorum(v.W.Size()) {
			out = append(out, op)
		}
	}
	return out
}

// minorityWritesGone reports whether every minority write has finished
// without success and left no entry in any log.
func (v *View) minorityWritesGone() bool {
	for _, op := range v.minorityWrites() {
		if !failed(op) {
			return false
		}
		for _, n := range all(v.W) {
			if _, in := inLog(v.W, n, op.ID); in {
				return false
			}
		}
	}
	return true
}

// oneLeaderPerTerm checks, from every leadership change seen, that no term
// had two leaders.
func oneLeaderPerTerm(v *View) error {
	byTerm := map[uint64]id{}
	for _, rc := range v.h.roles {
		if rc.to != raftcore.RoleLeader {
			continue
		}
		if prev, ok := byTerm[rc.term]; ok && prev != rc.node {
			return fmt.Errorf("%s and %s both led term %d", name(v.W, prev), name(v.W, rc.node), rc.term)
		}
		byTerm[rc.term] = rc.node
	}
	return nil
}

func violationsOf(w *raftcore.World, r raftcore.Rule) []raftcore.Violation {
	var out []raftcore.Violation
	for _, x := range w.Violations() {
		if x.Rule == r {
			out = append(out, x)
		}
	}
	return out
}

func expectTwoAuthorities(w *raftcore.World) error {
	v := &View{W: w, h: scan(w)}
	if w.ViolationCount(raftcore.RuleSingleAuthority) == 0 {
		return errors.New("there was never a second authority")
	}
	if a := authorities(w); len(a) < 2 {
		return fmt.Errorf("at the end only %s acts as the authority", names(w, a))
	}
	// Two accepted writes of the same key, with different values, on
	// different sides of the split.
	ops := v.opsDuringSplit()
	found := false
	for _, a := range ops {
		for _, b := range ops {
			if isWrite(a) && isWrite(b) && a.Result == raftcore.OpOK && b.Result == raftcore.OpOK &&
				a.Key == b.Key && a.Value != b.Value && sideKey(a) != sideKey(b) {
				found = true
			}
		}
	}
	if !found {
		return errors.New("the two sides did not both accept conflicting writes")
	}
	if logsEqual(w, nil) {
		return errors.New("the histories ended up equal")
	}
	return nil
}
