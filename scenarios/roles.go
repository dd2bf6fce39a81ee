package scenarios

import (
	"fmt"
	"slices"
	"strings"

	"raftlab/raftcore"
)

// The figure roles, from "Distributed systems fundamentals".

var roles = def{id: "roles", build: func(values) *Scenario {
	var sc script
	sc.at(300, act(raftcore.DoTimeout, 1))
	sc.at(3000, act(raftcore.DoPause, 1))
	sc.at(7000, act(raftcore.DoResume, 1))
	// The lesson draws three roles, follower, candidate and leader; PreVote
	// would add a fourth, pre-candidate, that the lesson never explains.
	cfg := config(raft, etcdNames(5))
	cfg.PreVote = false
	return &Scenario{
		Title:   "Raft roles",
		Chapter: chapterFundamentals,
		Prompt:  "Watch an election; force a timeout, or pause the leader and resume it later.",
		Base:    cfg,
		Script:  sc, UntilMs: 10000,
		UI: UI{Focus: PanelRoles, Panels: []Panel{PanelRoles, PanelLogs}},
		Steps: []Step{
			{Text: "Every member starts as a follower, waiting to hear from a leader.",
				Claims: claims(machines(5), allFollowers())},
			{Text: "Timeout: a follower heard no leader in time and stood as a candidate.",
				When: func(v *View) bool { _, ok := firstRole(v.h, raftcore.RoleFollower, anyRole); return ok },
				Live: func(v *View) string {
					rc, _ := firstRole(v.h, raftcore.RoleFollower, anyRole)
					return fmt.Sprintf("Timeout: %s's election timer ran out with no leader heard, so it became a candidate and asked the others for their votes.", name(v.W, rc.node))
				},
				Claims: claims(that("a follower became a candidate on a timeout", func(v *View) bool {
					_, ok := firstRole(v.h, raftcore.RoleFollower, raftcore.RoleCandidate, timeouts...)
					return ok
				}))},
			{Text: "Majority vote: a candidate won a majority and leads.",
				When: func(v *View) bool {
					_, ok := firstRole(v.h, raftcore.RoleCandidate, raftcore.RoleLeader)
					return ok
				},
				Live: func(v *View) string {
					rc, _ := firstRole(v.h, raftcore.RoleCandidate, raftcore.RoleLeader)
					return fmt.Sprintf("Majority vote: %s won at least %d of %d votes and leads term %d.", name(v.W, rc.node), quorum(v.W.Size()), v.W.Size(), rc.term)
				},
				Claims: claims(leadsAlone(func(v *View) id { rc, _ := firstRole(v.h, raftcore.RoleCandidate, raftcore.RoleLeader); return rc.node }))},
			{Text: "The leader went quiet; a follower timed out and won a higher term.",
				When: func(v *View) bool { _, ok := secondLeader(v.h); return ok },
				Live: func(v *View) string {
					rc, _ := secondLeader(v.h)
					return fmt.Sprintf("The leader went quiet; %s timed out and won term %d.", name(v.W, rc.node), rc.term)
				},
				Claims: claims(leadsAlone(func(v *View) id { rc, _ := secondLeader(v.h); return rc.node }),
					that("the first leader is silent", func(v *View) bool {
						rc, _ := firstRole(v.h, raftcore.RoleCandidate, raftcore.RoleLeader)
						return silent(v.W, rc.node)
					}))},
			{Text: "Higher term: the old leader saw a newer term and stepped down to follower.",
				When: func(v *View) bool {
					_, ok := firstRole(v.h, raftcore.RoleLeader, raftcore.RoleFollower, higherTerm...)
					return ok
				},
				Live: func(v *View) string {
					rc, _ := firstRole(v.h, raftcore.RoleLeader, raftcore.RoleFollower, higherTerm...)
					return fmt.Sprintf("Higher term: %s saw term %d and stepped down to follower.", name(v.W, rc.node), rc.term)
				},
				Claims: claims(roleIs(func(v *View) id {
					rc, _ := firstRole(v.h, raftcore.RoleLeader, raftcore.RoleFollower, higherTerm...)
					return rc.node
				}, raftcore.RoleFollower), noPreCandidate())},
		},
		Expect: func(w *raftcore.World) error {
			h := scan(w)
			for _, e := range []struct {
				from, to raftcore.Role
				why      []raftcore.Cause
			}{
				{raftcore.RoleFollower, raftcore.RoleCandidate, timeouts},
				{raftcore.RoleCandidate, raftcore.RoleLeader, nil},
				{raftcore.RoleLeader, raftcore.RoleFollower, higherTerm},
			} {
				if _, ok := firstRole(h, e.from, e.to, e.why...); !ok {
					return fmt.Errorf("no %s -> %s %v was seen", e.from, e.to, e.why)
				}
			}
			if err := oneLeaderPerTerm(&View{W: w, h: h}); err != nil {
				return err
			}
			if err := noPreCandidate()(&View{W: w, h: h}); err != nil {
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
				case rc.from == raftcore.RoleLeader && slices.Contains(higherTerm, rc.why):
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

// timeouts are the causes of standing for election: a timer that ran out,
// or a reader who made it run out.
var timeouts = []raftcore.Cause{raftcore.CauseElectionTimeout, raftcore.CauseForcedTimeout}

// higherTerm are the causes of stepping down on seeing a newer term (§5.1).
var higherTerm = []raftcore.Cause{raftcore.CauseHigherTerm, raftcore.CauseLeaderOfHigherTerm}

// firstRole finds the first role change from one role to another (or to any
// other role) for one of the causes given (or for any cause).
func firstRole(h *history, from raftcore.Role, to raftcore.Role, why ...raftcore.Cause) (roleChange, bool) {
	for _, rc := range h.roles {
		if rc.from == from && (to == anyRole || rc.to == to) && rc.to != from && (len(why) == 0 || slices.Contains(why, rc.why)) {
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

// allFollowers: every member is a running follower.
//
//go:noinline
func allFollowers() claim {
	return func(v *View) error {
		for _, n := range all(v.W) {
			if err := roleIs(node(int(n)), raftcore.RoleFollower)(v); err != nil {
				return err
			}
		}
		return nil
	}
}

// noPreCandidate: no member ever took a role the lesson does not draw.
//
//go:noinline
func noPreCandidate() claim {
	return that("members move only between the three roles the lesson draws", func(v *View) bool {
		for _, rc := range v.h.roles {
			if rc.to == raftcore.RolePreCandidate || rc.from == raftcore.RolePreCandidate {
				return false
			}
		}
		return true
	})
}
