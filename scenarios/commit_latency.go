package scenarios

import (
	"fmt"
	"strings"

	"raftlab/raftcore"
)

// The figure commit-latency, from "Distributed systems fundamentals".

const slowMs = 400

var commitLatency = def{id: "commit-latency", build: func(values) *Scenario {
	var sc script
	sc.at(300, act(raftcore.DoTimeout, 1))
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
		UI: UI{Focus: PanelClient, OpenMs: 1500, Replication: true, Panels: []Panel{PanelClient, PanelLogs}, Key: keyWeb, Highlight: []id{1}},
		Steps: []Step{
			{Text: "A write returns only once a majority of members hold it. Write with every link fast.",
				Claims: claims(machines(5), that("every link is fast", func(v *View) bool { return slowLinks(v.W) == 0 }))},
			{Text: "Committed: the leader heard back from a majority.",
				When: func(v *View) bool { return len(okWrites(v.W)) > 0 },
				Live: func(v *View) string {
					op := okWrites(v.W)[0]
					return fmt.Sprintf("Committed in %s: the leader heard back from a majority, %d of %d members.", ms(op.LatencyUs(0)), quorum(v.W.Size()), v.W.Size())
				},
				Claims: claims(that("the write is held by a majority", func(v *View) bool {
					op := okWrites(v.W)[0]
					held := 0
					for _, n := range all(v.W) {
						if _, in := inLog(v.W, n, op.ID); in {
							held++
						}
					}
					return held >= quorum(v.W.Size())
				}))},
			{Text: "Some members are slow, yet the write was as fast: the fast members were still a majority.",
				When: func(v *View) bool { _, ok := fastDespiteSlow(v.W); return ok },
				Live: func(v *View) string {
					op, _ := fastDespiteSlow(v.W)
					return fmt.Sprintf("%s are slow, yet the write took %s: the fast members were still a majority.",
						capital(count(len(slowMembersAt(op)), "member", "members")), ms(op.LatencyUs(0)))
				},
				Claims: claims(that("the fast members are a majority", func(v *View) bool {
					op, _ := fastDespiteSlow(v.W)
					return v.W.Size()-len(slowMembersAt(op)) >= quorum(v.W.Size())
				}))},
			{Text: "Now every majority includes a slow member, and the write waits for its round trip.",
				When: func(v *View) bool { _, ok := slowWrite(v.W); return ok },
				Live: func(v *View) string {
					op, _ := slowWrite(v.W)
					return fmt.Sprintf("Now every majority includes a slow member: the write waited %s, a round trip to it.", ms(op.LatencyUs(0)))
				},
				Claims: claims(that("every majority includes a slow member, and the write waited at least a round trip", func(v *View) bool {
					op, _ := slowWrite(v.W)
					return v.W.Size()-len(slowMembersAt(op)) < quorum(v.W.Size()) && op.LatencyUs(0) >= 2*slowLinkMinUs
				}))},
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
				slow := len(slowMembersAt(op))
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
// when the op was made, as the request recorded the links.
func slowMembersAt(op raftcore.Op) []id {
	var out []id
	for i, rt := range op.RoundTripMinUs {
		if n := id(i + 1); n != op.Node && rt >= 2*slowLinkMinUs {
			out = append(out, n)
		}
	}
	return out
}

// slowLinkMinUs is the one-way latency from which the figure calls a link
// slow: its slow links take at least this long each way.
const slowLinkMinUs = 200_000

// fastDespiteSlow finds a quick write (under 150 ms) made while a member's
// link to the writer was slow.
func fastDespiteSlow(w *raftcore.World) (raftcore.Op, bool) {
	for _, op := range okWrites(w) {
		if len(slowMembersAt(op)) > 0 && op.LatencyUs(0) < 150_000 {
			return op, true
		}
	}
	return raftcore.Op{}, false
}

// slowWrite finds a write that waited half a second or more.
func slowWrite(w *raftcore.World) (raftcore.Op, bool) {
	for _, op := range okWrites(w) {
		if len(slowMembersAt(op)) > 0 && op.LatencyUs(0) >= 500_000 {
			return op, true
		}
	}
	return raftcore.Op{}, false
}

// slowLinks counts the links now slow enough for the figure to call slow.
func slowLinks(w *raftcore.World) int {
	k := 0
	for _, a := range all(w) {
		for _, b := range all(w) {
			if a != b && w.Link(a, b).LatencyMinUs >= slowLinkMinUs {
				k++
			}
		}
	}
	return k
}
