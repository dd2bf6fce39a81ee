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

// The script's moments, in milliseconds.
const (
	tuningCrashMs   = 3000
	tuningRestartMs = 16000
	tuningNoiseMs   = 17000
	tuningCalmMs    = 37000
	tuningUntilMs   = 40000
	tuningTickMs    = 50
)

// noise is what a network setting does to every link.
type noise struct {
	latencyMs [2]float64
	loss      float64
}

// tuningNoise are the networks the figure offers.
var tuningNoise = map[string]noise{
	"calm":  {[2]float64{20, 40}, 0},
	"noisy": {[2]float64{10, 400}, 0.3},
}

var timeoutTuning = def{id: "timeout-tuning",
	knobs: []Knob{
		{Name: "election", Label: "Election timeout", Values: []string{"300 ms", "1000 ms", "5000 ms"}, Default: "1000 ms"},
		{Name: "heartbeat", Label: "Heartbeat", Values: []string{"50 ms", "100 ms", "150 ms"}, Default: "100 ms"},
		{Name: "network", Label: "Network", Values: []string{"calm", "noisy"}, Default: "noisy"},
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
		sc.at(tuningCrashMs, act(raftcore.DoCrash, 1))
		sc.at(tuningRestartMs, act(raftcore.DoRestart, 1))
		sc.at(tuningNoiseMs, everyLink(net))
		sc.at(tuningNoiseMs, everyLinkLoss(net.loss))
		sc.at(tuningCalmMs, everyLink(calm), everyLinkLoss(0))
		noiseStretch := func(v *View) raftcore.ElectionStats {
			return v.h.elections.Stats(tuningNoiseMs*1000, min(v.W.Now(), tuningCalmMs*1000))
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
		return &Scenario{
			Title:   "Election timeout tuning",
			Chapter: chapterFundamentals,
			Prompt:  "Pick an election timeout and a heartbeat, then watch a leader crash and a noisy network: count the elections.",
			Base:    cfg,
			Script:  sc, UntilMs: tuningUntilMs,
			UI: UI{Focus: PanelElections, OpenMs: 1500, Panels: []Panel{PanelElections, PanelRoles, PanelLogs}, Highlight: []id{1}},
			Steps: []Step{
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
				{Text: "A new leader took over.",
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
				{Text: "Now the network turns noisy: messages are delayed unevenly and some are lost.",
					When: func(v *View) bool { return v.W.Now() >= tuningNoiseMs*1000 && noisy(v) },
					Live: func(v *View) string {
						if net.loss == 0 {
							return fmt.Sprintf("The network stays calm: every message takes %g to %g ms and none is lost. Count the elections anyway.", net.latencyMs[0], net.latencyMs[1])
						}
						return fmt.Sprintf("Now the network turns noisy: each message takes anywhere from %g to %g ms and %s of them are lost. Nobody crashed.", net.latencyMs[0], net.latencyMs[1], percent(net.loss))
					},
					Claims: claims(allActive(), that("every link has the network setting's latency and loss", noisy))},
				{Text: "The noise is over.",
					When: func(v *View) bool { return v.W.Now() >= tuningCalmMs*1000 },
					Live: func(v *View) string {
						return "In 20 s of that network, with no machine failing: " + statsLine(noiseStretch(v)) + "."
					},
					Claims: claims(allActive(), that("the elections counted are the candidates of the noisy stretch", func(v *View) bool {
						n := 0
						for _, rc := range v.h.roles {
							if rc.to == raftcore.RoleCandidate && rc.atUs >= tuningNoiseMs*1000 && rc.atUs <= tuningCalmMs*1000 {
								n++
							}
						}
						return n == noiseStretch(v).Elections
					}))},
			},
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
