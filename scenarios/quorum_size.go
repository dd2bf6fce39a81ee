package scenarios

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"raftlab/raftcore"
)

// The figure quorum-size, from "One authoritative history".

var quorumSize = def{id: "quorum-size",
	knobs: []Knob{{Name: "members", Label: "Members", Values: []string{"1", "2", "3", "4", "5", "6", "7"}, Default: "3"}},
	build: func(k values) *Scenario {
		n, _ := strconv.Atoi(k.get("members"))
		q, f := quorum(n), (n-1)/2
		var sc script
		sc.at(300, act(raftcore.DoTimeout, 1))
		sc.at(2000, write(1, keyWeb, "replicas=1"))
		// Round r makes r members unreachable from etcd-1, one more each
		// round, until a majority is out of reach.
		for r := 1; r <= f+1; r++ {
			t := 2000 + 1500*float64(r)
			switch {
			case n == 1:
				// The only member cannot be cut off by the network.
				sc.at(t, act(raftcore.DoCrash, 1))
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
			sc.at(last+6000, act(raftcore.DoRestart, 1))
		} else {
			sc.at(last+6000, heal())
		}
		sc.at(last+11000, write(1, keyWeb, "replicas=9"))
		intro := fmt.Sprintf("%d members, all reachable. Predict first: with one of them unreachable, do writes go on? With half of them, or more? Then make one unreachable, then more.", n)
		if n == 1 {
			intro = "1 member, reachable. Predict first: if it becomes unreachable, can anything be written? Then make it unreachable."
		}
		s := &Scenario{
			Title:   "Exercise: observing etcd's quorum",
			Chapter: chapterHistory,
			Prompt:  "Pick 1 to 7 members, predict, then make one unreachable, then half; see when writes stop.",
			Base:    config(raft, etcdNames(n)),
			Script:  sc, UntilMs: last + 12500,
			UI: UI{Focus: PanelClient, OpenMs: 1500, Panels: []Panel{PanelClient, PanelLogs}, Key: keyWeb, Words: WordsContract, HideRule: true},
			Steps: []Step{{Text: intro, Claims: claims(machines(n), allActive(),
				that("every member is reachable", func(v *View) bool { return whole(v.W) }))}},
		}
		if f >= 1 {
			s.Steps = append(s.Steps, Step{Text: "A member is unreachable, and the write still went through.",
				When: func(v *View) bool { _, ok := v.quorumWrite(true); return ok },
				Live: func(v *View) string {
					u, _ := v.quorumWrite(true)
					return fmt.Sprintf("With %d of %d unreachable, the write still went through. Was that what you predicted?", u, n)
				},
				Claims: claims(quorumWriteSaid(true))})
		}
		s.Steps = append(s.Steps,
			Step{Text: "Now the write failed: the reachable members would not accept it.",
				When: func(v *View) bool { _, ok := v.quorumWrite(false); return ok },
				Live: func(v *View) string {
					u, _ := v.quorumWrite(false)
					if u == n {
						return fmt.Sprintf("With %s unreachable, nobody can take the write: it failed.", verb(n, "the only member", "every member"))
					}
					return fmt.Sprintf("With %d of %d unreachable, the write failed, though %s still running.", u, n, count(n-u, "member is", "members are"))
				},
				Claims: claims(quorumWriteSaid(false), that("the members out of reach are still running", func(v *View) bool {
					u, _ := v.quorumWrite(false)
					return u == n || allActive()(v) == nil
				}))},
			Step{Text: "Every member is back, and writes go through again.",
				When: func(v *View) bool {
					_, failedOnce := v.quorumWrite(false)
					return failedOnce && v.writeOKWithAll()
				},
				Live: func(v *View) string {
					return verb(n, "The member is back", "Every member is back") + ", and writes go through again. " + tryNext(n)
				},
				Claims: claims(allActive(), that("every member is reachable", func(v *View) bool { return whole(v.W) }),
					that("a write went through with every member back", func(v *View) bool { return v.writeOKWithAll() }))},
		)
		s.Expect = func(w *raftcore.World) error {
			v := &View{W: w, h: scan(w)}
			fails := 0
			for _, op := range w.Ops() {
				u := n - len(op.Side)
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
				u := n - len(op.Side)
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
				b.WriteString("writes went through while it was up")
			case okMax > 0:
				fmt.Fprintf(&b, "writes went through with up to %d unreachable", okMax)
			case okMax == 0:
				b.WriteString("writes went through only with every member reachable")
			default:
				b.WriteString("no write went through")
			}
			switch {
			case n == 1 && failMin == 1:
				b.WriteString(" and stopped while it was down")
			case failMin >= 0:
				fmt.Fprintf(&b, " and stopped with %d", failMin)
			}
			b.WriteString(". ")
			// The book stops one step before the rule: the closing line
			// reports what happened and asks, and leaves the rule unsaid.
			b.WriteString(tryNext(n))
			return b.String()
		}
		return s
	}}

// tryNext asks the reader to compare with the neighbouring size that tells
// most: an even size with the odd one below it, an odd size with the even
// one above.
func tryNext(n int) string {
	switch {
	case n == 7:
		return "Compare 6 members: how many can each lose?"
	case n%2 == 0:
		return fmt.Sprintf("Now try %s: how many can each size lose before writes stop?", count(n-1, "member", "members"))
	}
	return fmt.Sprintf("Now try %s: does one more member let the cluster lose one more?", count(n+1, "member", "members"))
}

// quorumWriteSaid: the step's words say a write made with u members out of
// reach went through (ok) or failed; the world must hold such a write,
// finished that way, with that many out of reach of its writer.
//
//go:noinline
func quorumWriteSaid(ok bool) claim {
	return func(v *View) error {
		u, found := v.quorumWrite(ok)
		if !found {
			return fmt.Errorf("the words tell of a write that %s with members unreachable; there is none", map[bool]string{true: "went through", false: "failed"}[ok])
		}
		for _, op := range v.W.Ops() {
			if isWrite(op) && op.Done() && (op.Result == raftcore.OpOK) == ok && v.W.Size()-len(op.Side) == u {
				return nil
			}
		}
		return fmt.Errorf("no finished write had %d members out of reach", u)
	}
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
		u := n - len(op.Side)
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
		if failed(op) && len(op.Side) < v.W.Size() {
			sawFail = true
		}
		if sawFail && op.Result == raftcore.OpOK && len(op.Side) == v.W.Size() {
			return true
		}
	}
	return false
}
