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

// components splits machines into groups that can talk both ways, in order
// of their lowest member; members lists who counts (nil: everyone).
func components(n int, up func(a, b id) bool, member func(a id) bool) [][]id {
	side := make([]int, n+1)
	var out [][]id
	for s := 1; s <= n; s++ {
		if side[s] != 0 || (member != nil && !member(id(s))) {
			continue
		}
		out = append(out, nil)
		k := len(out)
		stack := []id{id(s)}
		side[s] = k
		for len(stack) > 0 {
			a := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			out[k-1] = append(out[k-1], a)
			for b := 1; b <= n; b++ {
				if side[b] == 0 && (member == nil || member(id(b))) && up(a, id(b)) && up(id(b), a) {
					side[b] = k
					stack = append(stack, id(b))
				}
			}
		}
	}
	for _, c := range out {
		sortIDs(c)
	}
	return out
}

func sortIDs(ids []id) {
	for i := 1; i < len(ids); i++ {
		for j := i; j > 0 && ids[j] < ids[j-1]; j-- {
			ids[j], ids[j-1] = ids[j-1], ids[j]
		}
	}
}

// sides are the groups the network is split into now, over all machines.
func sides(w *raftcore.World) [][]id {
	return components(w.Size(), func(a, b id) bool { return w.Link(a, b).Up }, nil)
}

// reachable are the groups of running machines that can talk to each other.
func reachable(w *raftcore.World) [][]id {
	return components(w.Size(), func(a, b id) bool { return w.Link(a, b).Up }, func(a id) bool { return isUp(w, a) })
}

// majorityGroup returns a group of running machines large enough to commit.
func majorityGroup(w *raftcore.World) ([]id, bool) {
	for _, g := range reachable(w) {
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

func ms(us int64) string { return fmt.Sprintf("%.0f ms", float64(us)/1000) }

func secs(us int64) string { return fmt.Sprintf("%.1f s", float64(us)/1e6) }

func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

func names(w *raftcore.World, ids []id) string { return w.NameList(ids) }

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

// netLog is the network as it was at each client request and at each moment
// it split or healed, replayed from the world's action log. It is rebuilt
// only when the action log changes.
type netLog struct {
	key     actionKey
	ops     []netSnap // by op id - 1
	changes []netChange
}

type actionKey struct {
	n     int
	atMs  float64
	after uint64
	do    raftcore.Verb
}

// netSnap is the network when a request was made.
type netSnap struct {
	atUs int64
	// side[i] is machine i's group (1-based); machines that were not
	// running have side 0.
	side  []int
	sizes []int // members of each group, by group - 1
	split bool  // some link was down
}

// netChange is a moment the network went from whole to split (Split) or
// back (not Split).
type netChange struct {
	atUs  int64
	split bool
}

func (h *history) netOf(w *raftcore.World) *netLog {
	acts := w.Actions()
	key := actionKey{n: len(acts)}
	if len(acts) > 0 {
		a := acts[len(acts)-1]
		key.atMs, key.after, key.do = a.AtMs, a.AfterEvents, a.Do
	}
	if h.net.key != key {
		h.net = replayNet(w.Size(), acts)
		h.net.key = key
	}
	return &h.net
}

// replayNet follows links and machine status through the action log.
func replayNet(n int, acts []raftcore.Action) netLog {
	up := make([][]bool, n+1)
	for i := range up {
		up[i] = make([]bool, n+1)
		for j := range up[i] {
			up[i][j] = true
		}
	}
	status := make([]raftcore.Status, n+1)
	isSplit := func() bool {
		for i := 1; i <= n; i++ {
			for j := 1; j <= n; j++ {
				if i != j && !up[i][j] {
					return true
				}
			}
		}
		return false
	}
	setPair := func(a raftcore.Action, v bool) {
		up[a.From][a.To] = v
		if !a.OneWay {
			up[a.To][a.From] = v
		}
	}
	var out netLog
	was := false
	for _, a := range acts {
		switch a.Do {
		case raftcore.DoPartition:
			group := make([]int, n+1)
			for gi, g := range a.Groups {
				for _, m := range g {
					group[m] = gi + 1
				}
			}
			next := len(a.Groups) + 1
			for i := 1; i <= n; i++ {
				if group[i] == 0 {
					group[i] = next
					next++
				}
			}
			for i := 1; i <= n; i++ {
				for j := 1; j <= n; j++ {
					up[i][j] = group[i] == group[j]
				}
			}
		case raftcore.DoHeal:
			for i := range up {
				for j := range up[i] {
					up[i][j] = true
				}
			}
		case raftcore.DoCut:
			setPair(a, false)
		case raftcore.DoRestore:
			setPair(a, true)
		case raftcore.DoPause:
			if status[a.Node] == raftcore.StatusUp {
				status[a.Node] = raftcore.StatusPaused
			}
		case raftcore.DoResume:
			if status[a.Node] == raftcore.StatusPaused {
				status[a.Node] = raftcore.StatusUp
			}
		case raftcore.DoCrash:
			status[a.Node] = raftcore.StatusCrashed
		case raftcore.DoRestart:
			if status[a.Node] == raftcore.StatusCrashed {
				status[a.Node] = raftcore.StatusUp
			}
		case raftcore.DoWrite, raftcore.DoDelete, raftcore.DoRead:
			at := a.AtUs()
			groups := components(n, func(x, y id) bool { return up[x][y] }, func(x id) bool { return status[x] == raftcore.StatusUp })
			snap := netSnap{atUs: at, side: make([]int, n+1), split: isSplit()}
			for gi, g := range groups {
				snap.sizes = append(snap.sizes, len(g))
				for _, m := range g {
					snap.side[m] = gi + 1
				}
			}
			out.ops = append(out.ops, snap)
		}
		if s := isSplit(); s != was {
			out.changes = append(out.changes, netChange{atUs: a.AtUs(), split: s})
			was = s
		}
	}
	return out
}

// sideOf is the group machine m was in when the op was made (0 if m was not
// running, or is unknown).
func (s netSnap) sideOf(m id) int {
	if m < 1 || int(m) >= len(s.side) {
		return 0
	}
	return s.side[m]
}

// groupSize is the size of the group machine m was in when the op was made
// (0 if m was not running).
func (s netSnap) groupSize(m id) int {
	if g := s.sideOf(m); g > 0 {
		return s.sizes[g-1]
	}
	return 0
}

// opSnap is the network when op id was made.
func (v *View) opSnap(opID int) (netSnap, bool) {
	nl := v.h.netOf(v.W)
	if opID < 1 || opID > len(nl.ops) {
		return netSnap{}, false
	}
	return nl.ops[opID-1], true
}

// lastSplit is when the network last went from whole to split.
func (v *View) lastSplit() (int64, bool) {
	nl := v.h.netOf(v.W)
	for i := len(nl.changes) - 1; i >= 0; i-- {
		if nl.changes[i].split {
			return nl.changes[i].atUs, true
		}
	}
	return 0, false
}

// lastHeal is when the network last became whole after a split.
func (v *View) lastHeal() (int64, bool) {
	nl := v.h.netOf(v.W)
	for i := len(nl.changes) - 1; i >= 0; i-- {
		if !nl.changes[i].split {
			return nl.changes[i].atUs, true
		}
	}
	return 0, false
}

// splitLasted is how long the latest split lasted, up to now if it has not
// healed.
func (v *View) splitLasted() int64 {
	from, ok := v.lastSplit()
	if !ok {
		return 0
	}
	to, healed := v.lastHeal()
	if !healed || to < from {
		to = v.W.Now()
	}
	return to - from
}

// healedAfterSplit reports whether the network split at some point and is
// whole now.
func (v *View) healedAfterSplit() bool {
	_, split := v.lastSplit()
	return split && whole(v.W)
}

// opsDuringSplit returns the client ops made while the network was split,
// since it last split (up to the heal, if it healed since).
func (v *View) opsDuringSplit() []raftcore.Op {
	at, ok := v.lastSplit()
	if !ok {
		return nil
	}
	var out []raftcore.Op
	for _, op := range v.W.Ops() {
		if s, ok := v.opSnap(op.ID); ok && s.split && op.InvokeUs >= at {
			out = append(out, op)
		}
	}
	return out
}

// sidesThatWrote counts the groups whose writes succeeded during the latest
// split.
func (v *View) sidesThatWrote() int {
	seen := map[int]bool{}
	for _, op := range v.opsDuringSplit() {
		if isWrite(op) && op.Result == raftcore.OpOK {
			if s, ok := v.opSnap(op.ID); ok && s.sideOf(op.Node) > 0 {
				seen[s.sideOf(op.Node)] = true
			}
		}
	}
	return len(seen)
}

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
