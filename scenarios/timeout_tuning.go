package scenarios

import (
	"fmt"
	"strconv"
	"strings"

	"raftlab/raftcore"
)

// The figure timeout-tuning, from "Distributed systems fundamentals": the
// election timeout trades spurious elections on a noisy network against
// slow failover when a leader really dies. etcd counts both in ticks of its
// heartbeat interval; here a tick is a fixed 50 ms (tuningTickMs), a
// divisor of every value the knobs offer, so each knob sets a number of
// ticks and the timeouts in milliseconds are exactly the knobs' values.

// tuningTickMs is the figure's tick.
const tuningTickMs = 50

// tuningNoiseLengthMs is how long the network stays as the knob sets it.
const tuningNoiseLengthMs = 10000

// tuningTimes are the script's moments, in milliseconds, for an election
// timeout: the leader crashes early; the network changes once a new leader
// has surely taken over (failover takes at most twice the timeout, plus the
// votes' round trips) and the old one is back; it is calm again
// tuningNoiseLengthMs later; the run ends once a leader has surely settled
// after that. Nothing waits longer than the timeout asks, so that a short
// timeout's figure is not kept waiting for a long one's.
type tuningTimes struct {
	crash, restart, noise, calm, until float64
}

func tuningTimesFor(electionMs int) tuningTimes {
	t := tuningTimes{crash: 1500}
	t.noise = t.crash + 2*float64(electionMs) + 1000
	t.restart = t.noise - 500
	t.calm = t.noise + tuningNoiseLengthMs
	t.until = t.calm + 2*float64(electionMs) + 1500
	return t
}

// noise is what a network setting does to every link.
type noise struct {
	latencyMs [2]float64
	loss      float64
}

// tuningNoise are the networks the figure offers.
var tuningNoise = map[string]noise{
	"calm":  {[2]float64{20, 40}, 0},
	"noisy": {[2]float64{10, 600}, 0.4},
}

var timeoutTuning = def{id: "timeout-tuning",
	knobs: []Knob{
		{Name: "election", Label: "Election timeout", Values: []string{"300 ms", "1000 ms", "5000 ms"}, Default: "300 ms"},
		{Name: "heartbeat", Label: "Heartbeat", Values: []string{"50 ms", "100 ms", "150 ms"}, Default: "100 ms"},
		{Name: "network", Label: "After the crash, the network is", Values: []string{"calm", "noisy"}, Default: "noisy"},
	},
	build: func(k values) *Scenario {
		electionMs, heartbeatMs := knobMs(k.get("election")), knobMs(k.get("heartbeat"))
		cfg := config(raft, etcdNames(5))
		cfg.TickMs, cfg.HeartbeatTicks, cfg.ElectionTicks = tuningTickMs, heartbeatMs/tuningTickMs, electionMs/tuningTickMs
		net := tuningNoise[k.get("network")]
		calm := tuningNoise["calm"]
		var sc script
		// Before any timer can run out (the shortest timeout is six ticks),
		// so that etcd-1 is the leader the script crashes.
		sc.at(100, act(raftcore.DoTimeout, 1))
		at := tuningTimesFor(electionMs)
		sc.at(at.crash, act(raftcore.DoCrash, 1))
		sc.at(at.restart, act(raftcore.DoRestart, 1))
		sc.at(at.noise, everyLink(net))
		sc.at(at.noise, everyLinkLoss(net.loss))
		sc.at(at.calm, everyLink(calm), everyLinkLoss(0))
		noiseUs, calmUs := int64(at.noise*1000), int64(at.calm*1000)
		noiseStretch := func(v *View) raftcore.ElectionStats {
			return v.h.elections.Stats(noiseUs, min(v.W.Now(), calmUs))
		}
		// disruptedInNoise is the first change of role the network's change
		// caused: a follower standing (a pre-vote first), or a leader that
		// heard from too few members within a timeout stepping down
		// (CheckQuorum).
		disruptedInNoise := func(v *View) (roleChange, bool) {
			for _, rc := range v.h.roles {
				stood := rc.from == raftcore.RoleFollower && (rc.to == raftcore.RolePreCandidate || rc.to == raftcore.RoleCandidate)
				if rc.atUs >= noiseUs && (stood || rc.from == raftcore.RoleLeader) {
					return rc, true
				}
			}
			return roleChange{}, false
		}
		failover := func(v *View) (int64, bool) {
			f := v.h.elections.Stats(0, v.W.Now()).FailoversUs
			if len(f) == 0 {
				return 0, false
			}
			return f[0], true
		}
		timeoutUs := int64(electionMs) * 1000
		noisy := func(v *View) bool {
			for _, a := range all(v.W) {
				for _, b := range all(v.W) {
					if l := v.W.Link(a, b); a != b && (l.Loss != net.loss || l.LatencyMaxUs != int64(net.latencyMs[1]*1000)) {
						return false
					}
				}
			}
			return true
		}
		steps := []Step{
			{Text: "Five members elect etcd-1. A leader sends a heartbeat every tick; a follower that hears nothing for a whole election timeout stands for election.",
				Live: func(v *View) string {
					return fmt.Sprintf("Five members elect etcd-1. The leader sends a heartbeat every %d ms; a follower that hears nothing for %d ms (or up to twice that, drawn at random) stands for election.", heartbeatMs, electionMs)
				},
				Claims: claims(machines(5), that("the timeouts are the knobs' values", func(v *View) bool {
					c := v.W.Config()
					return c.TickMs*c.HeartbeatTicks == heartbeatMs && c.TickMs*c.ElectionTicks == electionMs
				}))},
			{Text: "etcd-1 crashed. The others keep waiting: silence looks the same whether the leader is dead or the network is slow.",
				When: func(v *View) bool { return v.W.Status(1) == raftcore.StatusCrashed },
				Claims: claims(that("etcd-1 crashed while leading", func(v *View) bool {
					return v.W.Status(1) == raftcore.StatusCrashed && len(leaders(v.W)) == 0
				}))},
		}
		if electionMs >= 2000 {
			// A long timeout's wait is the point, and it is long: just
			// before the first timer could run out, say what the others
			// are waiting for.
			waitedUs := int64(at.crash+float64(electionMs-heartbeatMs)-100) * 1000
			crashUs := int64(at.crash * 1000)
			steps = append(steps, Step{Text: "Nobody has stood yet: no follower's timeout can have run out.",
				When: func(v *View) bool { return v.W.Now() >= waitedUs },
				Live: func(v *View) string {
					return fmt.Sprintf("%s without a leader, and nobody stands: each follower waits its own timeout, drawn between %d and %d ms from the last heartbeat it heard, so failover takes at least that.",
						ms(v.W.Now()-crashUs), electionMs, 2*electionMs)
				},
				Claims: claims(that("no machine leads, and nobody has stood since the crash", func(v *View) bool {
					for _, rc := range v.h.roles {
						if rc.atUs >= crashUs && rc.to != raftcore.RoleFollower {
							return false
						}
					}
					return len(leaders(v.W)) == 0
				}))})
		}
		steps = append(steps,
			Step{Text: "A new leader took over.",
				When: func(v *View) bool { _, ok := failover(v); return ok },
				Live: func(v *View) string {
					f, _ := failover(v)
					l, _ := topLeader(v.W)
					return fmt.Sprintf("%s took over %s after the crash. Nobody could stand before its own timeout ran out, so failover can never beat the election timeout.", name(v.W, l), ms(f))
				},
				Claims: claims(that("a new leader took over no sooner than the timeout allows", func(v *View) bool {
					f, ok := failover(v)
					// The followers' timers started at the last heartbeat
					// before the crash, at most one interval earlier.
					return ok && f >= timeoutUs-int64(heartbeatMs)*1000
				}))},
			Step{Text: "Now the network turns noisy: messages are delayed unevenly and some are lost.",
				When: func(v *View) bool { return v.W.Now() >= noiseUs && noisy(v) },
				Live: func(v *View) string {
					if net.loss == 0 {
						return fmt.Sprintf("etcd-1 is back as a follower. The network stays calm: every message takes %g to %g ms and none is lost. Count the elections anyway.", net.latencyMs[0], net.latencyMs[1])
					}
					return fmt.Sprintf("etcd-1 is back as a follower. Now the network turns noisy: each message takes anywhere from %g to %g ms and %s of them are lost. Nobody crashes from here on.", net.latencyMs[0], net.latencyMs[1], percent(net.loss))
				},
				Claims: claims(allActive(), that("every link has the network setting's latency and loss", noisy))},
			Step{Text: "Nobody crashed, yet the leader's rule was questioned.",
				// Or, when nothing happens, halfway through: a figure never
				// waits long with nothing to say.
				When: func(v *View) bool {
					_, ok := disruptedInNoise(v)
					return ok || v.W.Now() >= noiseUs+tuningNoiseLengthMs*1000/2
				},
				Live: func(v *View) string {
					rc, ok := disruptedInNoise(v)
					switch {
					case !ok:
						return fmt.Sprintf("%g s of this network and nothing has changed: no gap between heartbeats has outlasted a %d ms timeout.", float64(v.W.Now()-noiseUs)/1e6, electionMs)
					case rc.from == raftcore.RoleLeader:
						return fmt.Sprintf("%s led, but through the noise it heard from too few members within a timeout and stepped down (CheckQuorum). Nobody crashed, and the cluster has no leader.", name(v.W, rc.node))
					}
					return fmt.Sprintf("%s missed heartbeats for %d ms or more and stood for election, asking first whether it could win (a pre-vote). Its leader is alive: the noise alone did it.", name(v.W, rc.node), electionMs)
				},
				Claims: claims(allActive(), that("the change happened now, and leaders are as the words say", func(v *View) bool {
					rc, ok := disruptedInNoise(v)
					if !ok {
						return true // the words say nothing changed
					}
					ls := leaders(v.W)
					if rc.from == raftcore.RoleLeader {
						return rc.atUs == v.W.Now() && len(ls) == 0
					}
					return rc.atUs == v.W.Now() && len(ls) == 1 && ls[0] != rc.node
				}))},
			Step{Text: "The noise is over.",
				When: func(v *View) bool { return v.W.Now() >= calmUs },
				Live: func(v *View) string {
					whole := v.h.elections.Stats(0, v.W.Now())
					return fmt.Sprintf("In %g s of that network, with no machine failing: %s. The panel counts the whole run: %s, with the first and the failover.",
						tuningNoiseLengthMs/1000.0, statsLine(noiseStretch(v)), count(whole.Elections, "election", "elections"))
				},
				Claims: claims(allActive(), that("the elections counted are the candidates of the noisy stretch", func(v *View) bool {
					n := 0
					for _, rc := range v.h.roles {
						if rc.to == raftcore.RoleCandidate && rc.atUs >= noiseUs && rc.atUs <= calmUs {
							n++
						}
					}
					return n == noiseStretch(v).Elections
				}))},
		)
		return &Scenario{
			Title:   "Election timeout tuning",
			Chapter: chapterFundamentals,
			Prompt:  "Pick an election timeout and a heartbeat, then watch a leader crash and a noisy network: count the elections.",
			Base:    cfg,
			Script:  sc, UntilMs: at.until,
			UI:    UI{Focus: PanelElections, OpenMs: 1000, Panels: []Panel{PanelElections, PanelRoles, PanelLogs}, Highlight: []id{1}},
			Steps: steps,
			Expect: func(w *raftcore.World) error {
				h := scan(w)
				all := h.elections.Stats(0, w.Now())
				if len(all.FailoversUs) != 1 {
					return fmt.Errorf("%d failovers measured, want 1 (the crash of etcd-1)", len(all.FailoversUs))
				}
				if f := all.FailoversUs[0]; f < timeoutUs-int64(heartbeatMs)*1000 {
					return fmt.Errorf("a new leader took over %s after the crash, sooner than the %d ms timeout allows", ms(f), electionMs)
				}
				if l, ok := topLeader(w); !ok || !isUp(w, l) {
					return fmt.Errorf("no leader at the end, once the network was calm again")
				}
				return nil
			},
			final: func(v *View) string {
				s := noiseStretch(v)
				f, ok := failover(v)
				fo := "no leader replaced etcd-1 yet"
				if ok {
					fo = "failover took " + ms(f)
				}
				return fmt.Sprintf("With a %d ms timeout %s, and the noise cost %s and %s without a leader. etcd's defaults (heartbeat 100 ms, timeout 1000 ms) sit between: calm through noise, failover in one to two seconds.",
					electionMs, fo, count(s.Elections, "election", "elections"), ms(s.LeaderlessUs))
			},
		}
	}}

// knobMs reads a knob value such as "300 ms".
func knobMs(v string) int {
	n, _ := strconv.Atoi(strings.TrimSuffix(v, " ms"))
	return n
}

// everyLink sets the latency of every link to the network's range.
func everyLink(n noise) raftcore.Action {
	return raftcore.Action{Do: raftcore.DoLatency, LatencyMs: []float64{n.latencyMs[0], n.latencyMs[1]}}
}

// everyLinkLoss sets the loss of every link.
func everyLinkLoss(p float64) raftcore.Action {
	return raftcore.Action{Do: raftcore.DoLoss, Loss: &p}
}

// percent writes a probability as a percentage.
func percent(p float64) string { return fmt.Sprintf("%g%%", p*100) }

// statsLine says the counters in words.
func statsLine(s raftcore.ElectionStats) string {
	return fmt.Sprintf("%s, %s, %s and %s without a leader",
		count(s.PreVotes, "pre-vote", "pre-votes"), count(s.Elections, "election", "elections"),
		count(s.LeaderChanges, "change of leader", "changes of leader"), ms(s.LeaderlessUs))
}
