package scenarios

import (
	"errors"
	"fmt"
	"strings"

	"raftlab/raftcore"
)

// The figures of "Distributed systems fundamentals": Raft's roles, what a
// lost quorum does to writes, and what a write waits for.

// --- roles ----------------------------------------------------------------

var roles = def{id: "roles", build: func(values) *Scenario {
	var sc script
	sc.at(300, act("timeout", 1))
	sc.at(3000, act("pause", 1))
	sc.at(7000, act("resume", 1))
	return &Scenario{
		Title:   "Raft roles",
		Chapter: chapterFundamentals,
		Prompt:  "Watch an election; force a timeout, or pause the leader and resume it later.",
		Base:    config(raft, etcdNames(5)),
		Script:  sc, UntilMs: 10000,
		UI: UI{Panels: []Panel{PanelRoles, PanelLogs}},
		Steps: []Step{
			{Text: "Every member starts as a follower, waiting to hear from a leader."},
			{Text: "Timeout: a follower heard no leader in time and stood as a candidate.",
				When: func(v *View) bool { _, ok := firstRole(v.h, raftcore.RoleFollower, anyRole, ""); return ok },
				Live: func(v *View) string {
					rc, _ := firstRole(v.h, raftcore.RoleFollower, anyRole, "")
					return fmt.Sprintf("Timeout: %s's election timer ran out with no leader heard, so it asked the others for their votes.", name(v.W, rc.node))
				}},
			{Text: "Majority vote: a candidate won a majority and leads.",
				When: func(v *View) bool {
					_, ok := firstRole(v.h, raftcore.RoleCandidate, raftcore.RoleLeader, "")
					return ok
				},
				Live: func(v *View) string {
					rc, _ := firstRole(v.h, raftcore.RoleCandidate, raftcore.RoleLeader, "")
					return fmt.Sprintf("Majority vote: %s won at least %d of %d votes and leads term %d.", name(v.W, rc.node), quorum(v.W.Size()), v.W.Size(), rc.term)
				}},
			{Text: "The leader went quiet; a follower timed out and won a higher term.",
				When: func(v *View) bool { _, ok := secondLeader(v.h); return ok },
				Live: func(v *View) string {
					rc, _ := secondLeader(v.h)
					return fmt.Sprintf("The leader went quiet; %s timed out and won term %d.", name(v.W, rc.node), rc.term)
				}},
			{Text: "Higher term: the old leader saw a newer term and stepped down to follower.",
				When: func(v *View) bool {
					_, ok := firstRole(v.h, raftcore.RoleLeader, raftcore.RoleFollower, "higher term")
					return ok
				},
				Live: func(v *View) string {
					rc, _ := firstRole(v.h, raftcore.RoleLeader, raftcore.RoleFollower, "higher term")
					return fmt.Sprintf("Higher term: %s saw term %d and stepped down to follower.", name(v.W, rc.node), rc.term)
				}},
		},
		Expect: func(w *raftcore.World) error {
			h := scan(w)
			for _, e := range []struct {
				from, to raftcore.Role
				why      string
			}{
				{raftcore.RoleFollower, raftcore.RolePreCandidate, "timeout"},
				{raftcore.RolePreCandidate, raftcore.RoleCandidate, ""},
				{raftcore.RoleCandidate, raftcore.RoleLeader, ""},
				{raftcore.RoleLeader, raftcore.RoleFollower, "higher term"},
			} {
				if _, ok := firstRole(h, e.from, e.to, e.why); !ok {
					return fmt.Errorf("no %s -> %s (%s) was seen", e.from, e.to, e.why)
				}
			}
			if err := oneLeaderPerTerm(&View{W: w, h: h}); err != nil {
				return err
			}
			if n := w.ViolationCount(""); n > 0 {
				return fmt.Errorf("raft broke a safety rule: %s", w.Violations()[0].Text)
			}
			return nil
		},
		final: func(v *View) string {
			timeouts, wins, downs := 0, 0, 0
			var terms []string
			for _, rc := range v.h.roles {
				switch {
				case rc.from == raftcore.RoleFollower && (rc.to == raftcore.RolePreCandidate || rc.to == raftcore.RoleCandidate):
					timeouts++
				case rc.to == raftcore.RoleLeader:
					wins++
					terms = append(terms, fmt.Sprint(rc.term))
				case rc.from == raftcore.RoleLeader && strings.Contains(rc.why, "higher term"):
					downs++
				}
			}
			return fmt.Sprintf("Seen: %s, %s (terms %s) and %s.",
				count(timeouts, "election timeout", "election timeouts"), count(wins, "election won", "elections won"),
				strings.Join(terms, ", "), count(downs, "leader stepping down on a higher term", "leaders stepping down on a higher term"))
		},
	}
}}

// anyRole matches every role in firstRole.
const anyRole raftcore.Role = 255

// firstRole finds the first role change from one role to another (or to any
// other role) whose reason contains why.
func firstRole(h *history, from raftcore.Role, to raftcore.Role, why string) (roleChange, bool) {
	for _, rc := range h.roles {
		if rc.from == from && (to == anyRole || rc.to == to) && rc.to != from && strings.Contains(rc.why, why) {
			return rc, true
		}
	}
	return roleChange{}, false
}

// secondLeader is the first election won in a term above the first one won.
func secondLeader(h *history) (roleChange, bool) {
	first := uint64(0)
	for _, rc := range h.roles {
		if rc.to != raftcore.RoleLeader {
			continue
		}
		if first == 0 {
			first = rc.term
		} else if rc.term > first {
			return rc, true
		}
	}
	return roleChange{}, false
}

// --- partition-halts ------------------------------------------------------

var partitionHalts = def{id: "partition-halts", build: func(values) *Scenario {
	var sc script
	sc.at(300, act("timeout", 1))
	sc.at(2000, write(2, keyWeb, "replicas=3"))
	sc.at(4000, partition([]int{1, 2}, []int{3, 4}, []int{5}))
	sc.at(4500, write(1, keyWeb, "replicas=4"))
	sc.at(5500, write(3, keyWeb, "replicas=5"))
	sc.at(6500, write(5, keyAPI, "replicas=1"))
	sc.at(12000, heal())
	sc.at(16500, write(4, keyWeb, "replicas=6"))
	noQuorum := func(v *View) bool { _, ok := majorityGroup(v.W); return !whole(v.W) && !ok }
	return &Scenario{
		Title:   "Writes stop without quorum",
		Chapter: chapterFundamentals,
		Prompt:  "Partition five members so that no group has three, and try to write anywhere.",
		Base:    config(raft, etcdNames(5)),
		Script:  sc, UntilMs: 18000,
		UI: UI{Panels: []Panel{PanelClient, PanelLogs, PanelRoles}, Key: keyWeb},
		Steps: []Step{
			{Text: "Five members, one leader. Partition them so that no group has three."},
			{Text: "No group holds a majority. Every write must now wait or fail.", When: noQuorum,
				Live: func(v *View) string {
					return fmt.Sprintf("The network is split %s: no group holds a majority, so every write must now wait or fail.", shapeOf(sides(v.W)))
				}},
			{Text: "A write failed: nobody could commit it, so the cluster chose to stop rather than risk two histories.",
				When: func(v *View) bool { _, bad := v.splitOutcomes(); return bad > 0 },
				Live: func(v *View) string {
					for _, op := range v.minorityWrites() {
						if failed(op) {
							return fmt.Sprintf("The write sent to %s %s: nobody could commit it, so the cluster stopped rather than risk two histories.", name(v.W, op.Node), outcome(op))
						}
					}
					return "A write failed."
				}},
			{Text: "Quorum is back and writes commit again.",
				When: func(v *View) bool { return v.writeOKAfterHeal() }},
		},
		Expect: func(w *raftcore.World) error {
			v := &View{W: w, h: scan(w)}
			split, _ := v.lastSplit()
			healAt, _ := v.lastHeal()
			tried := 0
			for _, op := range v.opsDuringSplit() {
				tried++
				if op.Result == raftcore.OpOK {
					return fmt.Errorf("write %d at %s succeeded without a quorum", op.ID, name(w, op.Node))
				}
			}
			if tried == 0 {
				return errors.New("no write was tried during the partition")
			}
			if top, during := commitsBetween(w, split, healAt); during > top {
				return fmt.Errorf("the commit index moved from %d to %d during the partition", top, during)
			}
			if !v.writeOKAfterHeal() {
				return errors.New("no write succeeded after the heal")
			}
			if n := w.ViolationCount(""); n > 0 {
				return fmt.Errorf("raft broke a safety rule: %s", w.Violations()[0].Text)
			}
			return nil
		},
		final: func(v *View) string {
			w := v.W
			if _, ok := v.lastSplit(); !ok {
				return "The network never split."
			}
			timeouts, refused, okCount := 0, 0, 0
			for _, op := range v.opsDuringSplit() {
				switch op.Result {
				case raftcore.OpTimeout:
					timeouts++
				case raftcore.OpRefused:
					refused++
				case raftcore.OpOK:
					okCount++
				}
			}
			var b strings.Builder
			fmt.Fprintf(&b, "During the %s partition %s tried: %d committed, %d timed out, %d refused.",
				secs(v.splitLasted()), count(len(v.opsDuringSplit()), "write was", "writes were"), okCount, timeouts, refused)
			later := 0
			for _, op := range v.opsDuringSplit() {
				if op.Result != raftcore.OpOK && committedAnywhere(w, op.ID) {
					later++
				}
			}
			if later > 0 {
				fmt.Fprintf(&b, " Still, %s given up by its client committed after the heal: a failed write may yet take effect.", count(later, "write", "writes"))
			}
			healAt, _ := v.lastHeal()
			for _, op := range w.Ops() {
				if isWrite(op) && whole(w) && op.InvokeUs >= healAt && op.Result == raftcore.OpOK {
					fmt.Fprintf(&b, " After the heal a write %s.", outcome(op))
					break
				}
			}
			return b.String()
		},
	}
}}

// commitsBetween returns the highest commit index any machine reached by
// time from, and the highest reached before time to, from the trace.
func commitsBetween(w *raftcore.World, from, to int64) (before, during uint64) {
	for _, e := range w.Trace() {
		if e.Kind != raftcore.TraceCommit {
			continue
		}
		if e.AtUs <= from && e.Index > before {
			before = e.Index
		}
		if e.AtUs < to && e.Index > during {
			during = e.Index
		}
	}
	return before, during
}

// --- commit-latency -------------------------------------------------------

const slowMs = 400

var commitLatency = def{id: "commit-latency", build: func(values) *Scenario {
	var sc script
	sc.at(300, act("timeout", 1))
	sc.at(2000, write(1, keyWeb, "replicas=1"))
	sc.at(3000, latency(1, 4, slowMs, slowMs), latency(1, 5, slowMs, slowMs))
	sc.at(4000, write(1, keyWeb, "replicas=2"))
	sc.at(5000, latency(1, 3, slowMs, slowMs))
	sc.at(6000, write(1, keyWeb, "replicas=3"))
	return &Scenario{
		Title:   "The latency floor of a write",
		Chapter: chapterFundamentals,
		Prompt:  "Write, then make some members' links slow and write again; watch how long the client waits.",
		Base:    config(raft, etcdNames(5)),
		Script:  sc, UntilMs: 10000,
		UI: UI{Panels: []Panel{PanelClient, PanelLogs}, Key: keyWeb, Highlight: []id{1}},
		Steps: []Step{
			{Text: "A write returns only once a majority of members hold it. Write with every link fast."},
			{Text: "Committed: the leader heard back from a majority.",
				When: func(v *View) bool { return len(okWrites(v.W)) > 0 },
				Live: func(v *View) string {
					op := okWrites(v.W)[0]
					return fmt.Sprintf("Committed in %s: the leader heard back from a majority, %d of %d members.", ms(op.LatencyUs(0)), quorum(v.W.Size()), v.W.Size())
				}},
			{Text: "Some members are slow, yet the write was as fast: the fast members were still a majority.",
				When: func(v *View) bool { _, ok := fastDespiteSlow(v.W); return ok },
				Live: func(v *View) string {
					op, _ := fastDespiteSlow(v.W)
					return fmt.Sprintf("%s are slow, yet the write took %s: the fast members were still a majority.",
						capital(count(len(slowMembersAt(v.W, op)), "member", "members")), ms(op.LatencyUs(0)))
				}},
			{Text: "Now every majority includes a slow member, and the write waits for its round trip.",
				When: func(v *View) bool { _, ok := slowWrite(v.W); return ok },
				Live: func(v *View) string {
					op, _ := slowWrite(v.W)
					return fmt.Sprintf("Now every majority includes a slow member: the write waited %s, a round trip to it.", ms(op.LatencyUs(0)))
				}},
		},
		Expect: func(w *raftcore.World) error {
			ws := okWrites(w)
			if len(ws) != 3 {
				return fmt.Errorf("%d writes succeeded, want 3", len(ws))
			}
			if l := ws[0].LatencyUs(0); l > 150_000 {
				return fmt.Errorf("with every link fast the write took %s", ms(l))
			}
			if l := ws[1].LatencyUs(0); l > 150_000 {
				return fmt.Errorf("with two slow members the write took %s; three fast members are a majority", ms(l))
			}
			if l := ws[2].LatencyUs(0); l < 2*slowMs*1000 {
				return fmt.Errorf("with three slow members the write took only %s, less than one round trip of %d ms", ms(l), 2*slowMs)
			}
			return nil
		},
		final: func(v *View) string {
			var parts []string
			for _, op := range okWrites(v.W) {
				slow := len(slowMembersAt(v.W, op))
				what := count(slow, "slow member", "slow members")
				if slow == 0 {
					what = "every link fast"
				}
				parts = append(parts, fmt.Sprintf("%s with %s", ms(op.LatencyUs(0)), what))
			}
			if len(parts) == 0 {
				return "No write has committed yet."
			}
			return "Waits: " + strings.Join(parts, ", ") + ". A write waits for the slowest member of the fastest majority."
		},
	}
}}

func okWrites(w *raftcore.World) []raftcore.Op {
	var out []raftcore.Op
	for _, op := range w.Ops() {
		if isWrite(op) && op.Result == raftcore.OpOK {
			out = append(out, op)
		}
	}
	return out
}

// slowMembersAt lists the members whose link with the op's machine was slow
// when the op was made, replayed from the action log.
func slowMembersAt(w *raftcore.World, op raftcore.Op) []id {
	slow := make([]bool, w.Size()+1)
	for _, a := range w.Actions() {
		if a.AtUs() > op.InvokeUs {
			break
		}
		if a.Do != "latency" || len(a.LatencyMs) != 2 {
			continue
		}
		s := a.LatencyMs[0] >= 200
		switch {
		case a.From == 0 && a.To == 0:
			for i := range slow {
				slow[i] = s
			}
		case id(a.From) == op.Node:
			slow[a.To] = s
		case id(a.To) == op.Node:
			slow[a.From] = s
		}
	}
	var out []id
	for _, n := range all(w) {
		if n != op.Node && slow[n] {
			out = append(out, n)
		}
	}
	return out
}

// fastDespiteSlow finds a quick write (under 150 ms) made while a member's
// link to the writer was slow.
func fastDespiteSlow(w *raftcore.World) (raftcore.Op, bool) {
	for _, op := range okWrites(w) {
		if len(slowMembersAt(w, op)) > 0 && op.LatencyUs(0) < 150_000 {
			return op, true
		}
	}
	return raftcore.Op{}, false
}

// slowWrite finds a write that waited half a second or more.
func slowWrite(w *raftcore.World) (raftcore.Op, bool) {
	for _, op := range okWrites(w) {
		if len(slowMembersAt(w, op)) > 0 && op.LatencyUs(0) >= 500_000 {
			return op, true
		}
	}
	return raftcore.Op{}, false
}
