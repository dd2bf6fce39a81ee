package scenarios

import (
	"fmt"

	"raftlab/raftcore"
)

// A step's claims are what its words say about the world, written as
// checks: "C went silent" is silentNow(3), "A and B hold 2 entries" is
// holds(2, 1, 2). Each check answers nil when its claim holds, or says what
// the world shows instead. They read the world only, never the step's text,
// so a sentence that drifts from what the figure shows is caught.
//
// Every function here and elsewhere in the package that returns a claim (or
// another check of a View) is marked go:noinline. The figures' builders call
// them hundreds of times, and an inlined call copies the closure it returns
// into the builder: 179 copies of that's alone. The checks run when a step is
// reached, not per frame; the browser's download is 0.5 MB smaller without
// the copies (BENCHMARKS.md, "Lighter on the reader's device").

type claim func(v *View) error

// claims joins checks into a step's Claims: the first that fails is the
// answer.
//
//go:noinline
func claims(cs ...claim) func(v *View) error {
	return func(v *View) error {
		for _, c := range cs {
			if err := c(v); err != nil {
				return err
			}
		}
		return nil
	}
}

// that is a claim the words make, checked by ok.
//
//go:noinline
func that(what string, ok func(v *View) bool) claim {
	return func(v *View) error {
		if !ok(v) {
			return fmt.Errorf("the words say %s, but the world does not show it", what)
		}
		return nil
	}
}

// machines: the figure has n machines.
//
//go:noinline
func machines(n int) claim {
	return func(v *View) error {
		if v.W.Size() != n {
			return fmt.Errorf("the words speak of %d machines; there are %d", n, v.W.Size())
		}
		return nil
	}
}

// allActive: every machine is running.
//
//go:noinline
func allActive() claim {
	return func(v *View) error {
		for _, n := range all(v.W) {
			if !isUp(v.W, n) {
				return fmt.Errorf("the words say every machine is active; %s is %s", name(v.W, n), v.W.Status(n))
			}
		}
		return nil
	}
}

// emptyLogs: no machine has recorded anything.
//
//go:noinline
func emptyLogs() claim {
	return func(v *View) error {
		for _, n := range all(v.W) {
			if k := v.W.Node(n).LastIndex(); k > 0 {
				return fmt.Errorf("the words say every machine is empty; %s holds %s", name(v.W, n), count(int(k), "entry", "entries"))
			}
		}
		return nil
	}
}

// noOrders: no machine has recorded an order yet (a leader's empty entry,
// written when it is elected, is no order).
func noOrders() claim {
	return func(v *View) error {
		for _, n := range all(v.W) {
			nd := v.W.Node(n)
			for i := uint64(1); i <= nd.LastIndex(); i++ {
				if d := nd.Entry(i).Data; d.Kind == raftcore.OpPut || d.Kind == raftcore.OpDelete {
					return fmt.Errorf("the words say no order is recorded yet; %s holds %s at index %d", name(v.W, n), d, i)
				}
			}
		}
		return nil
	}
}

// noneLeads: no machine believes it leads (or is the authority).
//
//go:noinline
func noneLeads() claim {
	return func(v *View) error {
		if a := authorities(v.W); len(a) > 0 {
			return fmt.Errorf("the words say nobody is in charge yet; %s believes it is", names(v.W, a))
		}
		return nil
	}
}

// leadsAlone: machine n (found when the step is shown) is the one running
// machine that believes it leads.
//
//go:noinline
func leadsAlone(who func(v *View) id) claim {
	return func(v *View) error {
		n := who(v)
		if l := leaders(v.W); len(l) != 1 || l[0] != n {
			return fmt.Errorf("the words say %s alone is in charge; running machines in charge: %s", name(v.W, n), names(v.W, l))
		}
		return nil
	}
}

// silentNow: machine n (found when the step is shown) is paused or
// crashed.
//
//go:noinline
func silentNow(who func(v *View) id) claim {
	return func(v *View) error {
		if n := who(v); n == 0 || !silent(v.W, n) {
			return fmt.Errorf("the words say %s is silent; it is running", name(v.W, n))
		}
		return nil
	}
}

// activeNow: machine n (found when the step is shown) is running.
//
//go:noinline
func activeNow(who func(v *View) id) claim {
	return func(v *View) error {
		if n := who(v); n == 0 || !isUp(v.W, n) {
			return fmt.Errorf("the words say %s is active; it is %s", name(v.W, n), v.W.Status(n))
		}
		return nil
	}
}

// splitNow: the network is cut somewhere.
//
//go:noinline
func splitNow() claim { return that("the network is split", func(v *View) bool { return !whole(v.W) }) }

// healed: the network split earlier and is whole now.
//
//go:noinline
func healed() claim {
	return that("the network is whole again after a split", func(v *View) bool { return v.healedAfterSplit() })
}

// sameHistories: the given machines (all when nil) hold the same log.
//
//go:noinline
func sameHistories(ids []id) claim {
	return func(v *View) error {
		if !logsEqual(v.W, ids) {
			return fmt.Errorf("the words say the histories are the same; %s", logGroupsLine(v.W))
		}
		return nil
	}
}

// differentHistories: not every machine holds the same log.
//
//go:noinline
func differentHistories() claim {
	return func(v *View) error {
		if logsEqual(v.W, nil) {
			return fmt.Errorf("the words say the histories differ; %s", logGroupsLine(v.W))
		}
		return nil
	}
}

// quiet: no copy is still on its way, so what the machines hold now is
// what they will hold.
//
//go:noinline
func quiet() claim {
	return that("nothing more is on its way", func(v *View) bool { return settled(v.W) })
}

// groupsAsSaid: what logGroupsLine says (who holds how many entries, and
// where the histories part) is what the logs show. The line is computed
// from the logs; this reads them again, entry by entry.
//
//go:noinline
func groupsAsSaid() claim {
	return func(v *View) error {
		for _, g := range logGroups(v.W) {
			for _, n := range g[1:] {
				na, nb := v.W.Node(g[0]), v.W.Node(n)
				if na.LastIndex() != nb.LastIndex() {
					return fmt.Errorf("%s and %s are said to hold one history, but their lengths differ", name(v.W, g[0]), name(v.W, n))
				}
				for i := uint64(1); i <= na.LastIndex(); i++ {
					if na.Entry(i).Data != nb.Entry(i).Data {
						return fmt.Errorf("%s and %s are said to hold one history, but differ at index %d", name(v.W, g[0]), name(v.W, n), i)
					}
				}
			}
		}
		return nil
	}
}

// opDone: a client op (found when the step is shown) has finished with the
// given result; ok false means it failed, whichever way.
//
//go:noinline
func opEnded(what string, find func(v *View) (raftcore.Op, bool), ok bool) claim {
	return func(v *View) error {
		op, found := find(v)
		switch {
		case !found:
			return fmt.Errorf("the words speak of %s, but there is none", what)
		case !op.Done():
			return fmt.Errorf("the words say %s ended; it is still waiting", what)
		case (op.Result == raftcore.OpOK) != ok:
			return fmt.Errorf("the words say %s %s; it %s", what, map[bool]string{true: "succeeded", false: "failed"}[ok], outcome(op))
		}
		return nil
	}
}

// roleIs: machine n (found when the step is shown) is in role r.
//
//go:noinline
func roleIs(who func(v *View) id, r raftcore.Role) claim {
	return func(v *View) error {
		n := who(v)
		if n == 0 {
			return fmt.Errorf("the words speak of a %s that is not there", r)
		}
		if got := v.W.Node(n).Role(); got != r || !isUp(v.W, n) {
			return fmt.Errorf("the words say %s is a %s; it is a %s and %s", name(v.W, n), r, got, v.W.Status(n))
		}
		return nil
	}
}

func node(n int) func(v *View) id { return func(*View) id { return id(n) } }
