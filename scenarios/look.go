package scenarios

import (
	"fmt"
	"strings"

	"raftlab/raftcore"
)

// Small, exact questions about a world that the scenarios' steps, checks and
// closing lines are made of.

type id = raftcore.NodeID

func quorum(n int) int { return n/2 + 1 }

func all(w *raftcore.World) []id {
	out := make([]id, w.Size())
	for i := range out {
		out[i] = id(i + 1)
	}
	return out
}

// name is a machine's name. It and the words helpers ms, secs and count are
// go:noinline, as the claim constructors are (claims.go): the builders'
// closures call them often and each inlined call copied the body, here the
// whole configuration that Config returns.
//
//go:noinline
func name(w *raftcore.World, n id) string { return w.Config().Name(n) }

func isUp(w *raftcore.World, n id) bool { return w.Status(n) == raftcore.StatusUp }

// silent reports whether a machine is paused or crashed.
func silent(w *raftcore.World, n id) bool { return !isUp(w, n) }

// leaders are the running machines that believe they lead.
func leaders(w *raftcore.World) []id {
	var out []id
	for _, n := range all(w) {
		if isUp(w, n) && w.Node(n).Role() == raftcore.RoleLeader {
			out = append(out, n)
		}
	}
	return out
}

// authorities are the machines, running or paused, that believe they lead:
// a paused authority still holds its belief.
func authorities(w *raftcore.World) []id {
	var out []id
	for _, n := range all(w) {
		if w.Status(n) != raftcore.StatusCrashed && w.Node(n).Role() == raftcore.RoleLeader {
			out = append(out, n)
		}
	}
	return out
}

// topLeader is the running leader of the highest term.
func topLeader(w *raftcore.World) (id, bool) {
	best, ok := id(0), false
	for _, n := range leaders(w) {
		if !ok || w.Node(n).Term() > w.Node(best).Term() {
			best, ok = n, true
		}
	}
	return best, ok
}

// linked reports whether two machines' links are up both ways.
func linked(w *raftcore.World, a, b id) bool { return w.Link(a, b).Up && w.Link(b, a).Up }

// whole reports whether every link is up.
func whole(w *raftcore.World) bool {
	for _, a := range all(w) {
		for _, b := range all(w) {
			if a != b && !w.Link(a, b).Up {
				return false
			}
		}
	}
	return true
}

// majorityGroup returns a group of running machines large enough to commit.
func majorityGroup(w *raftcore.World) ([]id, bool) {
	for _, g := range w.RunningSides() {
		if len(g) >= quorum(w.Size()) {
			return g, true
		}
	}
	return nil, false
}

func contains(ids []id, n id) bool {
	for _, m := range ids {
		if m == n {
			return true
		}
	}
	return false
}

// sameLog reports whether two machines hold the same log.
func sameLog(w *raftcore.World, a, b id) bool {
	na, nb := w.Node(a), w.Node(b)
	if na.LastIndex() != nb.LastIndex() {
		return false
	}
	last := na.LastIndex()
	return last == 0 || na.Entry(last).Chain == nb.Entry(last).Chain
}

// logsEqual reports whether the given machines (all when nil) hold the same
// log.
func logsEqual(w *raftcore.World, ids []id) bool {
	if ids == nil {
		ids = all(w)
	}
	for _, n := range ids[1:] {
		if !sameLog(w, ids[0], n) {
			return false
		}
	}
	return true
}

// allDiffer reports whether no two machines hold the same log.
func allDiffer(w *raftcore.World) bool {
	for _, a := range all(w) {
		for _, b := range all(w) {
			if a < b && sameLog(w, a, b) {
				return false
			}
		}
	}
	return true
}

// divergeAt is the first index where two logs hold different entries, or 0
// when one is a prefix of the other.
func divergeAt(w *raftcore.World, a, b id) uint64 {
	na, nb := w.Node(a), w.Node(b)
	top := min(na.LastIndex(), nb.LastIndex())
	for i := uint64(1); i <= top; i++ {
		if na.Entry(i).Chain != nb.Entry(i).Chain {
			return i
		}
	}
	return 0
}

// settled reports whether nothing that would change a machine is on its
// way: no message will still be delivered and no machine has a backlog. The
// naive protocols are quiet between writes, so this tells "not yet arrived"
// from "never will".
func settled(w *raftcore.World) bool {
	for _, m := range w.InFlight() {
		if !m.Lost && w.Link(m.From, m.To).Up && w.Status(m.To) != raftcore.StatusCrashed {
			return false
		}
	}
	for _, n := range all(w) {
		if w.Backlog(n) > 0 && w.Status(n) != raftcore.StatusCrashed {
			return false
		}
	}
	return true
}

// keyDisagreement finds a key that some answering machines have and others
// do not, with who says yes and who says no.
func keyDisagreement(w *raftcore.World) (key string, yes, no []id, ok bool) {
	var keys []string
	seen := map[string]bool{}
	for _, n := range all(w) {
		for _, k := range w.Node(n).KV().Keys() {
			if !seen[k] {
				seen[k] = true
				keys = append(keys, k)
			}
		}
	}
	for _, k := range sortedStrings(keys) {
		yes, no = nil, nil
		for _, a := range w.Ask(k) {
			switch {
			case !a.Answered:
			case a.Exists:
				yes = append(yes, a.Node)
			default:
				no = append(no, a.Node)
			}
		}
		if len(yes) > 0 && len(no) > 0 {
			return k, yes, no, true
		}
	}
	return "", nil, nil, false
}

func sortedStrings(s []string) []string {
	out := append([]string(nil), s...)
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// isWrite reports whether an op changes the store.
func isWrite(op raftcore.Op) bool { return op.Kind == raftcore.DoWrite || op.Kind == raftcore.DoDelete }

// failed reports whether an op finished without success.
func failed(op raftcore.Op) bool { return op.Done() && op.Result != raftcore.OpOK }

// inLog reports whether the entry a client op proposed is in machine n's
// log, and at which index.
func inLog(w *raftcore.World, n id, opID int) (uint64, bool) {
	nd := w.Node(n)
	for i := uint64(1); i <= nd.LastIndex(); i++ {
		if nd.Entry(i).Data.OpID == opID {
			return i, true
		}
	}
	return 0, false
}

// committedAnywhere reports whether a client op's entry is committed on
// some machine.
func committedAnywhere(w *raftcore.World, opID int) bool {
	for _, n := range all(w) {
		if i, ok := inLog(w, n, opID); ok && i <= w.Node(n).Commit() {
			return true
		}
	}
	return false
}

//go:noinline
func ms(us int64) string { return fmt.Sprintf("%.0f ms", float64(us)/1000) }

//go:noinline
func secs(us int64) string { return fmt.Sprintf("%.1f s", float64(us)/1e6) }

//go:noinline
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

func names(w *raftcore.World, ids []id) string {
	if len(ids) == 0 {
		return "no machine"
	}
	ns := make([]string, len(ids))
	for i, x := range ids {
		ns[i] = name(w, x)
	}
	return andList(ns)
}

// sidesWords names the sides of a split network by their machines: "A, B
// and C on one side, D and E on the other", or "three groups: A and B; C
// and D; E".
func sidesWords(w *raftcore.World) string {
	sides := w.Sides()
	parts := make([]string, len(sides))
	for i, g := range sides {
		parts[i] = names(w, g)
	}
	switch len(parts) {
	case 1:
		return "every machine still reaches the others, directly or through one another"
	case 2:
		return parts[0] + " on one side, " + parts[1] + " on the other"
	}
	return count(len(parts), "group", "groups") + ": " + strings.Join(parts, "; ")
}

// andList joins words as a sentence lists them: "A, B and C".
func andList(xs []string) string {
	if len(xs) == 1 {
		return xs[0]
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " and " + xs[len(xs)-1]
}

// lowerFirst makes s start with a small letter.
func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

// capital makes s start with a capital letter.
func capital(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// splitLasted is how long the latest split lasted, up to now if it has not
// healed.
func (v *View) splitLasted() int64 {
	from, ok := v.W.LastSplit()
	if !ok {
		return 0
	}
	to, healed := v.W.LastHeal()
	if !healed || to < from {
		to = v.W.Now()
	}
	return to - from
}

// healedAfterSplit reports whether the network split at some point and is
// whole now.
func (v *View) healedAfterSplit() bool {
	_, split := v.W.LastSplit()
	return split && whole(v.W)
}

// opsDuringSplit returns the client ops made while the network was split,
// since it last split (up to the heal, if it healed since).
func (v *View) opsDuringSplit() []raftcore.Op {
	at, ok := v.W.LastSplit()
	if !ok {
		return nil
	}
	var out []raftcore.Op
	for _, op := range v.W.Ops() {
		if op.Split && op.InvokeUs >= at {
			out = append(out, op)
		}
	}
	return out
}

// sidesThatWrote counts the groups whose writes succeeded during the latest
// split.
func (v *View) sidesThatWrote() int {
	seen := map[string]bool{}
	for _, op := range v.opsDuringSplit() {
		if isWrite(op) && op.Result == raftcore.OpOK && len(op.Side) > 0 {
			seen[sideKey(op)] = true
		}
	}
	return len(seen)
}

// sideKey names the side a request was made on by the machines that were
// on it, so that requests can be grouped by side.
func sideKey(op raftcore.Op) string { return fmt.Sprint(op.Side) }

// outcome says how a client op ended, as the rest of a sentence.
func outcome(op raftcore.Op) string {
	switch op.Result {
	case raftcore.OpOK:
		return fmt.Sprintf("succeeded after %s", ms(op.LatencyUs(0)))
	case raftcore.OpTimeout:
		return fmt.Sprintf("timed out after %s", secs(op.LatencyUs(0)))
	case raftcore.OpRefused:
		return fmt.Sprintf("was refused (%s)", op.Reason)
	}
	return "is still waiting"
}
