package scenarios

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"raftlab/raftcore"
)

// The second half of "One authoritative history": authorities, majorities,
// the contract, and the chapter's two exercises.

// --- two-leaders ----------------------------------------------------------

var twoLeaders = def{id: "two-leaders",
	knobs: []Knob{protocolKnob(failover, raft)},
	build: func(k values) *Scenario {
		p := raftcore.Protocol(k.get("protocol"))
		sc := silenceA(p)
		sc.at(10000, heal())
		s := &Scenario{
			Title:   "The two leaders",
			Chapter: chapterHistory,
			Base:    config(p, abc),
			Script:  sc, UntilMs: 13000,
			UI: UI{Panels: []Panel{PanelLogs, PanelRoles, PanelContract, PanelClient}, Key: keyWeb, Highlight: []id{1},
				Compare: compareWith(p, failover, raft)},
		}
		cutOff := Step{Text: "The leader can no longer reach the others. They cannot tell whether it failed or the network did.",
			When: func(v *View) bool { _, ok := cutOffLeader(v.W); return ok },
			Live: func(v *View) string {
				x, _ := cutOffLeader(v.W)
				return fmt.Sprintf("%s can no longer reach %s. They cannot tell whether it failed or the network did.", name(v.W, x), others(v.W, x))
			}}
		if p == failover {
			s.Prompt = "A alone orders every write. Silence it, write on both sides, then heal; then try the same under raft."
			s.Steps = []Step{
				{Text: "A is the only authority: it orders every write, and B and C copy what it orders. Silence A."},
				cutOff,
				{Text: "A follower stopped hearing the authority and made itself the authority. The old one never stepped down: there are two.",
					When: func(v *View) bool { return len(authorities(v.W)) >= 2 },
					Live: func(v *View) string {
						a := authorities(v.W)
						return fmt.Sprintf("%s both act as the authority now: the new one stopped hearing the old one, and the old one never stepped down.", names(v.W, a))
					}},
				{Text: "Both authorities accepted a write. Each side now has its own future.",
					When: func(v *View) bool { return v.sidesThatWrote() >= 2 },
					Live: func(v *View) string { return capital(v.splitWritesLine()) + ": two authorities, two futures." }},
				{Text: "The network is whole again, yet both still act as the authority and their histories stay different.",
					When: func(v *View) bool {
						a := authorities(v.W)
						return v.healedAfterSplit() && len(a) >= 2 && !logsEqual(v.W, a)
					}},
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
		s.Prompt = "The same silence under raft: terms and majority votes allow one leader per term."
		s.Steps = []Step{
			{Text: "A leads term 1; B and C follow. Silence A."},
			cutOff,
			{Text: "The majority elected a new leader in a higher term. The isolated machine could not: one vote is no majority.",
				When: func(v *View) bool { _, ok := majorityLeader(v.W); return ok && !whole(v.W) },
				Live: func(v *View) string {
					l, _ := majorityLeader(v.W)
					g, _ := majorityGroup(v.W)
					return fmt.Sprintf("%s elected %s to lead term %d with %d of %d votes. The machines cut off could not win: too few votes.",
						names(v.W, g), name(v.W, l), v.W.Node(l).Term(), len(g), v.W.Size())
				}},
			{Text: "Only the side with a majority committed its write; the other side's write never committed.",
				When: func(v *View) bool {
					ok, bad := v.splitOutcomes()
					return ok > 0 && bad > 0
				}},
			{Text: "After the heal, the isolated machine took the new term's history and its uncommitted write was replaced. One leader per term, one history.",
				When: func(v *View) bool {
					return v.healedAfterSplit() && logsEqual(v.W, nil) && v.minorityWritesGone()
				}},
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
					fmt.Fprintf(&b, "%s won term %d at %s. ", name(w, rc.node), rc.term, secs(rc.atUs))
					break
				}
			}
			for _, op := range v.minorityWrites() {
				fmt.Fprintf(&b, "The write sent to %s during the split %s and never committed. ", name(w, op.Node), outcome(op))
			}
			b.WriteString(logGroupsLine(w))
			if oneLeaderPerTerm(v) == nil {
				fmt.Fprintf(&b, " In %s, no term had two leaders.", count(int(v.h.topLeader), "term", "terms"))
			}
			return b.String()
		}
		return s
	}}

// silenceA is the start two figures share: A leads (the designated
// authority, or made leader under raft), a write commits, then A is cut off
// from B and C and each side is asked to write.
func silenceA(p raftcore.Protocol) script {
	var sc script
	if p == raft {
		sc.at(300, act("timeout", 1))
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
	switch len(parts) {
	case 0:
		return ""
	case 1:
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// splitOutcomes counts, among writes made during the latest split, those
// that succeeded in a group able to commit and those that failed outside
// one.
func (v *View) splitOutcomes() (okMajority, failedMinority int) {
	q := quorum(v.W.Size())
	for _, op := range v.opsDuringSplit() {
		s, _ := v.opSnap(op.ID)
		switch {
		case !isWrite(op):
		case op.Result == raftcore.OpOK && s.groupSize(op.Node) >= q:
			okMajority++
		case failed(op) && s.groupSize(op.Node) < q:
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
		if s, _ := v.opSnap(op.ID); isWrite(op) && s.groupSize(op.Node) < quorum(v.W.Size()) {
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
			sa, _ := v.opSnap(a.ID)
			if isWrite(a) && isWrite(b) && a.Result == raftcore.OpOK && b.Result == raftcore.OpOK &&
				a.Key == b.Key && a.Value != b.Value && sa.sideOf(a.Node) != sa.sideOf(b.Node) {
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

// --- majority -------------------------------------------------------------

// splitShapes are the splits the majority figure offers, with the groups,
// the machine made leader beforehand (inside the smaller side, so that it
// accepts writes it can never commit), and the writers cut off from a
// majority.
var splitShapes = map[string]struct {
	groups  [][]int
	lead    int
	writers []int
}{
	"3/2":   {[][]int{{1, 2, 3}, {4, 5}}, 4, []int{4, 5}},
	"4/1":   {[][]int{{1, 2, 3, 4}, {5}}, 5, []int{5}},
	"2/2/1": {[][]int{{1, 2}, {3, 4}, {5}}, 5, []int{5, 3}},
}

var majority = def{id: "majority",
	knobs: []Knob{{Name: "split", Label: "Split", Values: []string{"3/2", "4/1", "2/2/1"}, Default: "3/2"}},
	build: func(k values) *Scenario {
		shape := splitShapes[k.get("split")]
		var sc script
		sc.at(300, act("timeout", shape.lead))
		sc.at(2000, write(1, keyWeb, "replicas=3"))
		sc.at(4000, partition(shape.groups...))
		sc.at(4200, write(shape.writers[0], keyWeb, "replicas=2"))
		if len(shape.writers) > 1 {
			sc.at(4400, write(shape.writers[1], keyAPI, "replicas=1"))
		}
		sc.at(8000, write(1, keyWeb, "replicas=5"))
		sc.at(8500, write(2, keyAPI, "replicas=2"))
		sc.at(9000, write(3, keyDB, "replicas=1"))
		sc.at(12000, heal())
		sc.at(16000, write(shape.lead, keyWeb, "replicas=4"))
		sizes := make([]string, len(shape.groups))
		for i, g := range shape.groups {
			sizes[i] = strconv.Itoa(len(g))
		}
		s := &Scenario{
			Title:   "When majority disappears",
			Chapter: chapterHistory,
			Prompt:  "Split five machines into groups of " + strings.Join(sizes, " and ") + ", write on every side, then heal.",
			Base:    config(raft, abcde),
			Script:  sc, UntilMs: 18000,
			UI: UI{Panels: []Panel{PanelLogs, PanelClient, PanelContract}, Key: keyWeb, Highlight: []id{id(shape.lead)}},
		}
		split := Step{Text: "The network is split. Each group hears only silence from the others.",
			When: func(v *View) bool { return !whole(v.W) },
			Live: func(v *View) string {
				return fmt.Sprintf("The network is split %s. Each group hears only silence from the others.", shapeOf(sides(v.W)))
			}}
		s.Steps = []Step{{Text: "Five machines share one history. Split them into groups of " + strings.Join(sizes, " and ") + "."}, split}
		if len(shape.groups[0]) >= 3 {
			s.Steps = append(s.Steps,
				Step{Text: "The group with a majority elected a leader and goes on committing.",
					When: func(v *View) bool {
						ok, _ := v.splitOutcomes()
						_, has := majorityLeader(v.W)
						return has && ok > 0
					},
					Live: func(v *View) string {
						l, _ := majorityLeader(v.W)
						g, _ := majorityGroup(v.W)
						return fmt.Sprintf("The group of %d elected %s for term %d and goes on committing.", len(g), name(v.W, l), v.W.Node(l).Term())
					}},
				Step{Text: "The smaller group cannot commit: its writes wait, then fail.",
					When: func(v *View) bool { _, bad := v.splitOutcomes(); return bad > 0 }},
				Step{Text: "Healed. The smaller group caught up, and the entries it had accepted alone were replaced by the majority's history.",
					When: func(v *View) bool {
						return v.healedAfterSplit() && len(leaders(v.W)) == 1 && logsEqual(v.W, nil) && v.minorityWritesGone()
					}},
			)
			s.Expect = expectMajority
		} else {
			s.Steps = append(s.Steps,
				Step{Text: "No group holds three of five: none can elect a leader, none can commit.", HoldMs: 3000,
					When: func(v *View) bool {
						ok, _ := v.splitOutcomes()
						_, has := majorityGroup(v.W)
						return !whole(v.W) && !has && ok == 0
					}},
				Step{Text: "Every write waits, then fails.",
					When: func(v *View) bool { _, bad := v.splitOutcomes(); return bad > 0 }},
				Step{Text: "Healed: a majority can meet again, and writes commit.",
					When: func(v *View) bool { return v.healedAfterSplit() && logsEqual(v.W, nil) && v.writeOKAfterHeal() }},
			)
			s.Expect = expectNoMajority
		}
		s.final = finalMajority
		return s
	}}

// shapeOf writes group sizes largest first, e.g. "3/2".
func shapeOf(groups [][]id) string {
	sizes := make([]int, len(groups))
	for i, g := range groups {
		sizes[i] = len(g)
	}
	for i := 1; i < len(sizes); i++ {
		for j := i; j > 0 && sizes[j] > sizes[j-1]; j-- {
			sizes[j], sizes[j-1] = sizes[j-1], sizes[j]
		}
	}
	parts := make([]string, len(sizes))
	for i, n := range sizes {
		parts[i] = strconv.Itoa(n)
	}
	return strings.Join(parts, "/")
}

// writeOKAfterHeal reports whether a write made after the latest heal
// succeeded.
func (v *View) writeOKAfterHeal() bool {
	at, ok := v.lastHeal()
	if !ok || !whole(v.W) {
		return false
	}
	for _, op := range v.W.Ops() {
		if isWrite(op) && op.InvokeUs >= at && op.Result == raftcore.OpOK {
			return true
		}
	}
	return false
}

func expectMajority(w *raftcore.World) error {
	v := &View{W: w, h: scan(w)}
	ok, _ := v.splitOutcomes()
	if ok == 0 {
		return errors.New("the majority side committed nothing during the split")
	}
	mw := v.minorityWrites()
	if len(mw) == 0 {
		return errors.New("nobody wrote on the minority side")
	}
	for _, op := range mw {
		if op.Result == raftcore.OpOK || committedAnywhere(w, op.ID) {
			return fmt.Errorf("the minority side's write %d at %s committed", op.ID, name(w, op.Node))
		}
	}
	if !logsEqual(w, nil) {
		return errors.New("after the heal the logs differ")
	}
	if !v.minorityWritesGone() {
		return errors.New("a minority entry is still in some log after the heal")
	}
	replaced := 0
	for _, n := range all(w) {
		replaced += v.h.truncs[n]
	}
	if replaced == 0 {
		return errors.New("no uncommitted entry was replaced after the heal")
	}
	if n := w.ViolationCount(""); n > 0 {
		return fmt.Errorf("raft broke a safety rule: %s", w.Violations()[0].Text)
	}
	return nil
}

func expectNoMajority(w *raftcore.World) error {
	v := &View{W: w, h: scan(w)}
	for _, op := range v.opsDuringSplit() {
		if isWrite(op) && op.Result == raftcore.OpOK {
			return fmt.Errorf("write %d at %s succeeded with no majority anywhere", op.ID, name(w, op.Node))
		}
	}
	if _, bad := v.splitOutcomes(); bad == 0 {
		return errors.New("no write was tried during the split")
	}
	if !logsEqual(w, nil) || !v.writeOKAfterHeal() {
		return errors.New("after the heal the logs differ or no write succeeded")
	}
	if n := w.ViolationCount(""); n > 0 {
		return fmt.Errorf("raft broke a safety rule: %s", w.Violations()[0].Text)
	}
	return nil
}

func finalMajority(v *View) string {
	w := v.W
	if _, ok := v.lastSplit(); !ok {
		return "The network never split."
	}
	q := quorum(w.Size())
	var b strings.Builder
	bigSize, bigOK, term := 0, 0, uint64(0)
	smallSize := 0
	for _, op := range v.opsDuringSplit() {
		s, _ := v.opSnap(op.ID)
		g := s.groupSize(op.Node)
		if g >= q {
			bigSize = g
			if isWrite(op) && op.Result == raftcore.OpOK {
				bigOK++
				term = w.Node(op.Node).TermAt(op.Index)
			}
		} else if g > smallSize {
			smallSize = g
		}
	}
	if bigSize > 0 {
		fmt.Fprintf(&b, "The %d-machine side committed %s in term %d; ", bigSize, count(bigOK, "write", "writes"), term)
	} else {
		fmt.Fprintf(&b, "No group had a majority, so nothing committed during the %s split; ", secs(v.splitLasted()))
	}
	mw := v.minorityWrites()
	committedLater := 0
	for _, op := range mw {
		if op.Result != raftcore.OpOK && committedAnywhere(w, op.ID) {
			committedLater++
		}
	}
	replaced := 0
	for _, n := range all(w) {
		replaced += v.h.truncs[n]
	}
	who := fmt.Sprintf("the %s made then", count(len(mw), "write", "writes"))
	if bigSize > 0 {
		who = fmt.Sprintf("the %d-machine side's %s", smallSize, count(len(mw), "write", "writes"))
	}
	switch {
	case len(mw) == 0:
		b.WriteString("nobody wrote where no majority could be reached.")
	case committedLater > 0:
		fmt.Fprintf(&b, "%s failed for the clients, yet %d committed after the heal, when a majority took it up.", who, committedLater)
	case replaced > 0:
		fmt.Fprintf(&b, "%s never committed, and the uncommitted entries left behind were replaced after the heal.", who)
	default:
		fmt.Fprintf(&b, "%s never committed and left no entry behind.", who)
	}
	return capital(b.String())
}

// --- contract -------------------------------------------------------------

var contractDef = def{id: "contract",
	knobs: []Knob{protocolKnob(raft, naive, failover)},
	build: func(k values) *Scenario {
		p := raftcore.Protocol(k.get("protocol"))
		sc := silenceA(p)
		sc.at(8000, write(3, keyAPI, "replicas=2"))
		sc.at(10000, heal())
		sc.at(12000, write(2, keyDB, "replicas=1"))
		return &Scenario{
			Title:   "The shared-history contract",
			Chapter: chapterHistory,
			Prompt:  "Watch the contract's four promises while the network splits and heals; compare raft, naive-copy and failover.",
			Base:    config(p, abc),
			Script:  sc, UntilMs: 15000,
			UI: UI{Panels: []Panel{PanelContract, PanelLogs, PanelClient}, Key: keyWeb},
			Steps: []Step{
				{Text: "Four promises a shared history must keep. Watch them hold, bend or break while the network fails."},
				{Text: "The network split. A promise may bend for a while; bent is not broken.",
					When: func(v *View) bool { return !whole(v.W) }},
				{Text: "Both sides were asked to write.",
					When: func(v *View) bool { return v.sidesAsked() >= 2 },
					Live: func(v *View) string { return "Both sides were asked to write. " + contractTally(v.W) }},
				{Text: "The network is whole again. What is still broken now stays broken.", HoldMs: 2000,
					When: func(v *View) bool { return v.healedAfterSplit() },
					Live: func(v *View) string {
						broken := clauseTitles(v.W, raftcore.ClauseBroken)
						if len(broken) == 0 {
							return "The network is whole again. " + contractTally(v.W)
						}
						return "The network is whole again, and these promises stay broken: " + strings.Join(broken, "; ") + "."
					}},
			},
			Expect: func(w *raftcore.World) error {
				v := &View{W: w, h: scan(w)}
				if !v.healedAfterSplit() || v.sidesAsked() < 2 {
					return errors.New("the network did not split with writes on both sides and heal")
				}
				cs := w.Contract()
				if p == raft {
					for _, c := range cs {
						if c.State != raftcore.ClauseHolding {
							return fmt.Errorf("under raft %q is %s at the end: %s", c.Title, c.State, c.Text)
						}
					}
					return nil
				}
				want := []string{raftcore.ClauseOneHistory, raftcore.ClauseAgreed}
				if p == naive {
					want = append(want, raftcore.ClauseNoFork)
				}
				for _, c := range cs {
					for _, id := range want {
						if c.ID == id && c.State != raftcore.ClauseBroken {
							return fmt.Errorf("under %s %q is %s at the end, want broken: %s", p, c.Title, c.State, c.Text)
						}
					}
				}
				return nil
			},
			final: func(v *View) string {
				broken := clauseTitles(v.W, raftcore.ClauseBroken)
				if len(broken) == 0 {
					s := fmt.Sprintf("Under %s all four promises hold at the end: %s", p, lowerFirst(v.W.Contract()[1].Text))
					for _, op := range v.minorityWrites() {
						s += fmt.Sprintf(" The write %s took while cut off %s and is in no history.", name(v.W, op.Node), outcome(op))
					}
					return s
				}
				var first raftcore.Clause
				for _, c := range v.W.Contract() {
					if c.State == raftcore.ClauseBroken {
						first = c
						break
					}
				}
				return fmt.Sprintf("Under %s, %d of 4 promises ended broken (%s). %s", p, len(broken), strings.Join(broken, "; "), first.Text)
			},
		}
	}}

// sidesAsked counts the groups asked to write during the latest split,
// whatever the answer.
func (v *View) sidesAsked() int {
	seen := map[int]bool{}
	for _, op := range v.opsDuringSplit() {
		if s, ok := v.opSnap(op.ID); ok && isWrite(op) && s.sideOf(op.Node) > 0 {
			seen[s.sideOf(op.Node)] = true
		}
	}
	return len(seen)
}

func clauseTitles(w *raftcore.World, st raftcore.ClauseState) []string {
	var out []string
	for _, c := range w.Contract() {
		if c.State == st {
			out = append(out, c.Title)
		}
	}
	return out
}

// contractTally counts the promises by state, e.g. "Right now 2 of 4
// promises hold, 2 bend and none is broken."
func contractTally(w *raftcore.World) string {
	h, n, b := 0, 0, 0
	for _, c := range w.Contract() {
		switch c.State {
		case raftcore.ClauseHolding:
			h++
		case raftcore.ClauseNotYet:
			n++
		default:
			b++
		}
	}
	if h == 4 {
		return "Right now all four promises hold."
	}
	parts := []string{}
	for _, p := range []struct {
		k          int
		one, other string
	}{{h, "holds", "hold"}, {n, "bends", "bend"}, {b, "is broken", "are broken"}} {
		if p.k > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", p.k, verb(p.k, p.one, p.other)))
		}
	}
	return "Right now, of the four promises, " + strings.Join(parts, ", ") + "."

}

// --- notebooks ------------------------------------------------------------

var notebooks = def{id: "notebooks",
	knobs: []Knob{protocolKnob(naive, raft)},
	build: func(k values) *Scenario {
		p := raftcore.Protocol(k.get("protocol"))
		var sc script
		if p == raft {
			sc.at(300, act("timeout", 3))
		}
		sc.at(1000, lossOneWay(3, 2, 1), write(3, "orders/1", "2 chairs"))
		sc.at(1100, lossOneWay(3, 2, 0))
		sc.at(3000, latency(1, 3, 2500, 3000), latency(2, 3, 2500, 3000))
		sc.at(3300, write(3, "orders/2", "1 desk"))
		sc.at(3600, write(1, "orders/3", "4 lamps"))
		sc.at(5000, write(2, "orders/4", "3 rugs"))
		sc.at(6500, write(1, "orders/5", "6 cups"))
		sc.at(9000, latency(1, 3, 20, 40), latency(2, 3, 20, 40))
		s := &Scenario{
			Title:   "Exercise: three notebooks",
			Chapter: chapterHistory,
			Prompt:  "Let an order reach only two notebooks, delay one notebook while everyone keeps recording, then restore it.",
			Base:    config(p, abc),
			Script:  sc, UntilMs: 15000,
			UI: UI{Panels: []Panel{PanelLogs, PanelQuestion, PanelContract}, Key: "orders/1", Highlight: []id{3},
				Compare: compareWith(p, naive, raft)},
		}
		delayed := func(v *View) bool {
			at, ok := slowSince(v.W)
			if !ok {
				return false
			}
			writers := map[id]bool{}
			for _, op := range v.W.Ops() {
				if isWrite(op) && op.InvokeUs >= at {
					writers[op.Node] = true
				}
			}
			return len(writers) >= 2
		}
		if p == naive {
			s.Steps = []Step{
				{Text: "Three notebooks copy every order to each other. Let one order reach only two of them."},
				{Text: "An order reached two notebooks; the third never saw it.",
					When: func(v *View) bool { return settled(v.W) && !logsEqual(v.W, nil) },
					Live: func(v *View) string {
						if short, long, ok := prefixPair(v.W); ok {
							e := v.W.Node(long).Entry(v.W.Node(short).LastIndex() + 1)
							return fmt.Sprintf("%s never got %s; the others did.", name(v.W, short), e.Data)
						}
						return logGroupsLine(v.W)
					}},
				{Text: "One notebook's messages are delayed, and everyone keeps recording.", When: delayed},
				{Text: "Restored. Each notebook is consistent on its own, and no two of them match.",
					When: func(v *View) bool { _, slow := slowSince(v.W); return !slow && settled(v.W) && allDiffer(v.W) }},
			}
			s.Expect = func(w *raftcore.World) error {
				if !settled(w) || !allDiffer(w) {
					return errors.New("some notebooks ended up identical")
				}
				if w.ViolationCount(raftcore.RuleStateMachineSafety) == 0 {
					return errors.New("the checker saw no fork")
				}
				return nil
			}
			s.final = func(v *View) string {
				var parts []string
				for _, n := range all(v.W) {
					parts = append(parts, name(v.W, n)+": "+orderList(v.W, n))
				}
				lead := "No two notebooks match."
				if !allDiffer(v.W) {
					lead = "Some notebooks match."
				}
				return lead + " Orders as each recorded them: " + strings.Join(parts, "; ") + "."
			}
			return s
		}
		s.Steps = []Step{
			{Text: "Three notebooks under raft: the leader orders what they record. Let one order reach only two of them."},
			{Text: "A copy was lost, but the leader saw the notebook lagging and sent the order again: all three match.",
				When: func(v *View) bool {
					return lostKind(v.h, "Append") && logsEqual(v.W, nil) && v.W.Node(1).LastIndex() > 1
				}},
			{Text: "One notebook's messages are delayed. The others stopped hearing it and elected a new leader, while it kept recording.",
				When: func(v *View) bool {
					at, ok := slowSince(v.W)
					return ok && electedSince(v.h, at) && delayed(v)
				},
				Live: func(v *View) string {
					at, _ := slowSince(v.W)
					for _, rc := range v.h.roles {
						if rc.to == raftcore.RoleLeader && rc.atUs >= at {
							return fmt.Sprintf("Messages are delayed. The others stopped hearing the leader and elected %s for term %d, while everyone kept recording.", name(v.W, rc.node), rc.term)
						}
					}
					return "Messages are delayed."
				}},
			{Text: "Restored. The committed history wins: what only the delayed notebook had recorded was replaced.",
				When: func(v *View) bool {
					_, slow := slowSince(v.W)
					return !slow && logsEqual(v.W, nil) && replacedAny(v.h) && allDone(v.W)
				}},
		}
		s.Expect = func(w *raftcore.World) error {
			h := scan(w)
			if !logsEqual(w, nil) {
				return errors.New("the notebooks differ at the end")
			}
			if !replacedAny(h) {
				return errors.New("no uncommitted order was replaced")
			}
			if n := w.ViolationCount(""); n > 0 {
				return fmt.Errorf("raft broke a safety rule: %s", w.Violations()[0].Text)
			}
			for _, op := range w.Ops() {
				_, in := inLog(w, 1, op.ID)
				if op.Result == raftcore.OpOK && !in {
					return fmt.Errorf("order %s was confirmed but is not in the history", op.Key)
				}
			}
			return nil
		}
		s.final = func(v *View) string {
			w := v.W
			var lost []string
			for _, op := range w.Ops() {
				if _, in := inLog(w, 1, op.ID); isWrite(op) && !in && op.Done() {
					lost = append(lost, fmt.Sprintf("%s, sent to %s, %s", op.Key, name(w, op.Node), outcome(op)))
				}
			}
			s := fmt.Sprintf("All three notebooks hold the same orders: %s.", orderList(w, 1))
			if len(lost) > 0 {
				s += " Not recorded: " + strings.Join(lost, "; ") + "; each client was told."
			}
			return s
		}
		return s
	}}

// slowSince is when the latest latency change made some link slow (a second
// or more), if a link is slow now.
func slowSince(w *raftcore.World) (int64, bool) {
	slow := false
	for _, a := range all(w) {
		for _, b := range all(w) {
			if a != b && w.Link(a, b).LatencyMinUs >= 1_000_000 {
				slow = true
			}
		}
	}
	if !slow {
		return 0, false
	}
	acts := w.Actions()
	at := int64(0)
	for i := len(acts) - 1; i >= 0; i-- {
		if acts[i].Do == "latency" && len(acts[i].LatencyMs) == 2 && acts[i].LatencyMs[0] >= 1000 {
			at = acts[i].AtUs()
			// Keep going back through a burst of changes made together.
			if i == 0 || acts[i-1].Do != "latency" || acts[i-1].LatencyMs[0] < 1000 {
				break
			}
		}
	}
	return at, true
}

// electedSince reports whether a leader was elected at or after time at.
func electedSince(h *history, at int64) bool {
	for _, rc := range h.roles {
		if rc.to == raftcore.RoleLeader && rc.atUs >= at {
			return true
		}
	}
	return false
}

// lostKind reports whether a message of the given type was lost or dropped.
func lostKind(h *history, kind string) bool {
	for _, d := range h.drops {
		if isNetworkLoss(d.why) && strings.HasPrefix(d.kind, kind) {
			return true
		}
	}
	return false
}

func replacedAny(h *history) bool {
	for _, n := range h.truncs {
		if n > 0 {
			return true
		}
	}
	return false
}

// allDone reports whether every client op has finished.
func allDone(w *raftcore.World) bool {
	for _, op := range w.Ops() {
		if !op.Done() {
			return false
		}
	}
	return true
}

// orderList lists the keys a machine recorded, in its log's order, without
// their "orders/" prefix.
func orderList(w *raftcore.World, n id) string {
	var out []string
	nd := w.Node(n)
	for i := uint64(1); i <= nd.LastIndex(); i++ {
		if k := nd.Entry(i).Data.Key; k != "" {
			out = append(out, strings.TrimPrefix(k, "orders/"))
		}
	}
	if len(out) == 0 {
		return "none"
	}
	return strings.Join(out, ", ")
}

// --- quorum-size ----------------------------------------------------------

var quorumSize = def{id: "quorum-size",
	knobs: []Knob{{Name: "members", Label: "Members", Values: []string{"1", "2", "3", "4", "5", "6", "7"}, Default: "3"}},
	build: func(k values) *Scenario {
		n, _ := strconv.Atoi(k.get("members"))
		q, f := quorum(n), (n-1)/2
		var sc script
		sc.at(300, act("timeout", 1))
		sc.at(2000, write(1, keyWeb, "replicas=1"))
		// Round r makes r members unreachable from etcd-1, one more each
		// round, until a majority is out of reach.
		for r := 1; r <= f+1; r++ {
			t := 2000 + 1500*float64(r)
			switch {
			case n == 1:
				// The only member cannot be cut off by the network.
				sc.at(t, act("crash", 1))
			case r < q:
				sc.at(t, partition(seq(1, n-r), seq(n-r+1, n)))
			default:
				// The unreachable members each alone, so that they
				// cannot form a majority among themselves either.
				sc.at(t, partition(seq(1, n-r)))
			}
			sc.at(t+500, write(1, keyWeb, fmt.Sprintf("replicas=%d", r+1)))
		}
		last := 2000 + 1500*float64(f+1)
		if n == 1 {
			sc.at(last+6000, act("restart", 1))
		} else {
			sc.at(last+6000, heal())
		}
		sc.at(last+11000, write(1, keyWeb, "replicas=9"))
		intro := fmt.Sprintf("%d members: a write needs %d of them. Make one member unreachable, then more.", n, q)
		if n == 1 {
			intro = "1 member: a write needs only itself. Make it unreachable."
		}
		s := &Scenario{
			Title:   "Exercise: observing etcd's quorum",
			Chapter: chapterHistory,
			Prompt:  "Pick 1 to 7 members, make one unreachable, then half; see when writes stop.",
			Base:    config(raft, etcdNames(n)),
			Script:  sc, UntilMs: last + 12500,
			UI:    UI{Panels: []Panel{PanelClient, PanelLogs}, Key: keyWeb},
			Steps: []Step{{Text: intro}},
		}
		if f >= 1 {
			s.Steps = append(s.Steps, Step{Text: "A member is unreachable, and the write still committed: the rest are a majority.",
				When: func(v *View) bool { _, ok := v.quorumWrite(true); return ok },
				Live: func(v *View) string {
					u, _ := v.quorumWrite(true)
					return fmt.Sprintf("With %d of %d unreachable, the write still committed: %d of %d is a majority.", u, n, n-u, n)
				}})
		}
		s.Steps = append(s.Steps,
			Step{Text: "Too few members are reachable: the write failed rather than risk two histories.",
				When: func(v *View) bool { _, ok := v.quorumWrite(false); return ok },
				Live: func(v *View) string {
					u, _ := v.quorumWrite(false)
					if u == n {
						return fmt.Sprintf("With %s unreachable, nobody can take the write: it failed.", verb(n, "the only member", "every member"))
					}
					return fmt.Sprintf("With %d of %d unreachable, only %d remain, fewer than the %d a write needs: it failed rather than risk two histories.", u, n, n-u, q)
				}},
			Step{Text: "Every member is back, and writes commit again.",
				When: func(v *View) bool {
					_, failedOnce := v.quorumWrite(false)
					return failedOnce && v.writeOKWithAll()
				}},
		)
		s.Expect = func(w *raftcore.World) error {
			v := &View{W: w, h: scan(w)}
			fails := 0
			for _, op := range w.Ops() {
				snap, _ := v.opSnap(op.ID)
				u := n - snap.groupSize(op.Node)
				want := u <= f
				if got := op.Result == raftcore.OpOK; got != want {
					return fmt.Errorf("with %d of %d unreachable, write %d %s", u, n, op.ID, outcome(op))
				}
				if op.Result != raftcore.OpOK {
					fails++
				}
			}
			if fails == 0 || !v.writeOKWithAll() {
				return errors.New("writes never stopped, or never came back")
			}
			return nil
		}
		s.final = func(v *View) string {
			okMax, failMin := -1, -1
			for _, op := range v.W.Ops() {
				snap, _ := v.opSnap(op.ID)
				u := n - snap.groupSize(op.Node)
				if op.Result == raftcore.OpOK && u > okMax {
					okMax = u
				}
				if failed(op) && (failMin < 0 || u < failMin) {
					failMin = u
				}
			}
			var b strings.Builder
			fmt.Fprintf(&b, "With %s, ", count(n, "member", "members"))
			switch {
			case n == 1 && okMax == 0:
				b.WriteString("writes committed while it was up")
			case okMax > 0:
				fmt.Fprintf(&b, "writes committed with up to %d unreachable", okMax)
			case okMax == 0:
				b.WriteString("writes committed only with every member reachable")
			default:
				b.WriteString("no write committed")
			}
			switch {
			case n == 1 && failMin == 1:
				b.WriteString(" and stopped while it was down")
			case failMin >= 0:
				fmt.Fprintf(&b, " and stopped with %d", failMin)
			}
			b.WriteString(". ")
			switch {
			case n%2 == 0:
				fmt.Fprintf(&b, "%d members need %d to agree, so they survive %s, as %s %s: the extra member is one more to wait for, not one more failure survived.",
					n, q, failures(n-q), count(n-1, "member", "members"), verb(n-1, "does", "do"))
			case n == 1:
				b.WriteString("A single member survives no failure at all.")
			default:
				fmt.Fprintf(&b, "%d members would need %d to agree and still survive only %s: odd sizes waste nothing.", n+1, quorum(n+1), failures(n+1-quorum(n+1)))
			}
			return b.String()
		}
		return s
	}}

func failures(k int) string {
	if k == 0 {
		return "no failure"
	}
	return count(k, "failure", "failures")
}

// seq lists the integers from a to b.
func seq(a, b int) []int {
	var out []int
	for i := a; i <= b; i++ {
		out = append(out, i)
	}
	return out
}

// quorumWrite finds a finished write made while some members were out of
// the writer's reach: a successful one (ok) or a failed one. It returns how
// many members were unreachable.
func (v *View) quorumWrite(ok bool) (int, bool) {
	n := v.W.Size()
	for _, op := range v.W.Ops() {
		if !isWrite(op) || !op.Done() {
			continue
		}
		snap, _ := v.opSnap(op.ID)
		u := n - snap.groupSize(op.Node)
		if u > 0 && (op.Result == raftcore.OpOK) == ok {
			return u, true
		}
	}
	return 0, false
}

// writeOKWithAll reports whether a write made after a failed one, with every
// member reachable, succeeded.
func (v *View) writeOKWithAll() bool {
	sawFail := false
	for _, op := range v.W.Ops() {
		if !isWrite(op) {
			continue
		}
		snap, _ := v.opSnap(op.ID)
		if failed(op) && snap.groupSize(op.Node) < v.W.Size() {
			sawFail = true
		}
		if sawFail && op.Result == raftcore.OpOK && snap.groupSize(op.Node) == v.W.Size() {
			return true
		}
	}
	return false
}
