package scenarios

import (
	"errors"
	"fmt"

	"raftlab/raftcore"
)

// The figure move-leader, one of the lab's own: the leader's machine must
// go down for maintenance. Handed over first (etcd's move-leader), the
// chosen member is brought up to date and stands at once, without waiting
// for a timeout: writes pause for a round trip or two. Just stopped, the
// leader leaves the others waiting out their election timeouts.

// The script's moments, in milliseconds.
const (
	moveWritesFromMs = 2000
	moveWritesToMs   = 9000
	moveWriteEveryMs = 200
	moveHandMs       = 4000
	moveStopMs       = 4300
	moveBackMs       = 9500
	moveUntilMs      = 11500
)

var moveLeader = def{id: "move-leader",
	knobs: []Knob{{Name: "before", Label: "Before maintenance", Values: []string{"hand over", "just stop"}, Default: "hand over"}},
	build: func(k values) *Scenario {
		transfer := k.get("before") == "hand over"
		cfg := config(raft, etcdNames(3))
		var sc script
		sc.at(300, act(raftcore.DoTimeout, 1))
		for t, i := float64(moveWritesFromMs), 1; t <= moveWritesToMs; t, i = t+moveWriteEveryMs, i+1 {
			sc.at(t, write(3, keyWeb, fmt.Sprintf("replicas=%d", i)))
		}
		if transfer {
			sc.at(moveHandMs, member(raftcore.DoTransferLeader, 2))
		}
		sc.at(moveStopMs, act(raftcore.DoCrash, 1))
		sc.at(moveBackMs, act(raftcore.DoRestart, 1))
		electionUs := int64(cfg.ElectionTicks*cfg.TickMs) * 1000
		s := &Scenario{
			Title:   "Moving leadership",
			Chapter: chapterLab,
			Prompt:  "Take the leader's machine down for maintenance: hand leadership over first, or just stop it, and time the pause in writes.",
			Base:    cfg,
			Script:  sc, UntilMs: moveUntilMs,
			UI: UI{Focus: PanelClient, OpenMs: 1500, Panels: []Panel{PanelClient, PanelRoles, PanelLogs}, Key: keyWeb, Highlight: []id{1, 2}},
		}
		s.Steps = []Step{{Text: "Three members; a client writes to etcd-3 every 200 ms. etcd-1's machine is due for maintenance.",
			Claims: claims(machines(3), allActive())}}
		if transfer {
			s.Steps = append(s.Steps, Step{Text: "etcd-1 handed leadership to etcd-2, which stood at once.",
				When: func(v *View) bool { return v.W.Node(2).Role() == raftcore.RoleLeader && isUp(v.W, 2) },
				Live: func(v *View) string {
					return fmt.Sprintf("etcd-1 handed leadership to etcd-2: it made sure etcd-2 held its whole log, then told it to stand at once. etcd-2 was elected leader of term %d without waiting for a timeout, %s after the request.",
						v.W.Node(2).Term(), ms(v.W.Now()-moveHandMs*1000))
				},
				Claims: claims(activeNow(node(1)), leadsAlone(node(2)), that("etcd-2 stood because of the transfer", func(v *View) bool {
					for _, rc := range v.h.roles {
						if rc.node == 2 && rc.to == raftcore.RoleCandidate && rc.why == raftcore.CauseTransfer {
							return true
						}
					}
					return false
				})),
			}, Step{Text: "etcd-1's machine is down for maintenance; etcd-2 already leads.",
				When:   func(v *View) bool { return v.W.Status(1) == raftcore.StatusCrashed },
				Claims: claims(silentNow(node(1)), leadsAlone(node(2)))})
		} else {
			s.Steps = append(s.Steps, Step{Text: "etcd-1's machine is down for maintenance while it leads. The others hear nothing, and wait out their election timeouts.",
				When:   func(v *View) bool { return v.W.Status(1) == raftcore.StatusCrashed },
				Claims: claims(silentNow(node(1)), that("nobody leads", func(v *View) bool { return len(leaders(v.W)) == 0 }))},
				Step{Text: "A new leader was elected.",
					When: func(v *View) bool { l, ok := topLeader(v.W); return ok && l != 1 },
					Live: func(v *View) string {
						l, _ := topLeader(v.W)
						return fmt.Sprintf("%s was elected leader of term %d, %s after etcd-1 stopped.", name(v.W, l), v.W.Node(l).Term(), ms(v.W.Now()-moveStopMs*1000))
					},
					Claims: claims(that("a machine other than etcd-1 leads", func(v *View) bool { l, ok := topLeader(v.W); return ok && l != 1 }))})
		}
		s.Steps = append(s.Steps, Step{Text: "Writes went on.",
			When: func(v *View) bool { return v.W.Now() >= (moveWritesToMs-1000)*1000 },
			Live: func(v *View) string {
				from, to, _ := writePause(v.W)
				return fmt.Sprintf("The longest stretch with no write going through lasted %s, from %s to %s, where writes come every %d ms. %s",
					ms(to-from), secs(from), secs(to), moveWriteEveryMs, pauseWhy(transfer, lostInHandover(v.W)))
			},
			Claims: claims(that("the pause is as long as the words say, against the election timeout", func(v *View) bool {
				from, to, ok := writePause(v.W)
				return ok && (to-from < electionUs) == transfer && from <= moveStopMs*1000+electionUs && to >= moveHandMs*1000
			}))})
		s.Expect = func(w *raftcore.World) error {
			from, to, ok := writePause(w)
			switch {
			case !ok:
				return errors.New("no write went through")
			case transfer && to-from >= electionUs:
				return fmt.Errorf("handed over, writes still paused for %s", ms(to-from))
			case !transfer && to-from < electionUs:
				return fmt.Errorf("just stopped, writes paused only %s, less than an election timeout", ms(to-from))
			}
			if n := w.ViolationCount(""); n > 0 {
				return fmt.Errorf("raft broke a safety rule: %s", w.Violations()[0].Text)
			}
			return nil
		}
		s.final = func(v *View) string {
			from, to, _ := writePause(v.W)
			if transfer {
				return fmt.Sprintf("Handed over first, writes paused for %s at most: the time to bring etcd-2 up to date and hold one election, with no timeout to wait out. That is etcdctl move-leader; etcd does it on its own when a leader is shut down cleanly.", ms(to-from))
			}
			return fmt.Sprintf("Just stopped, writes paused for %s: nobody could stand before its election timeout (1 to 2 s here) ran out. Handing leadership over first makes it a round trip or two.", ms(to-from))
		}
		return s
	}}

// writePause is the longest stretch between two successive writes that
// went through, by when they finished: from the end of one to the end of
// the next.
func writePause(w *raftcore.World) (from, to int64, ok bool) {
	last := int64(-1)
	for _, op := range w.Ops() {
		if !isWrite(op) || op.Result != raftcore.OpOK {
			continue
		}
		if last >= 0 && (!ok || op.CompleteUs-last > to-from) {
			from, to, ok = last, op.CompleteUs, true
		}
		last = op.CompleteUs
	}
	return from, to, ok
}

// lostInHandover counts the writes sent while leadership moved (from the
// request to etcd-1's stop) that have not gone through: failed, or still
// waiting.
func lostInHandover(w *raftcore.World) int {
	k := 0
	for _, op := range w.Ops() {
		if isWrite(op) && op.Result != raftcore.OpOK && op.InvokeUs >= moveHandMs*1000 && op.InvokeUs < moveStopMs*1000 {
			k++
		}
	}
	return k
}

// pauseWhy says what the pause was made of.
func pauseWhy(transfer bool, lost int) string {
	switch {
	case transfer && lost == 0:
		return "Every write sent while leadership moved went through."
	case transfer:
		return fmt.Sprintf("%s sent while leadership moved did not go through: etcd-1 takes no proposal during a handover, and its client waits in vain.", count(lost, "write", "writes"))
	}
	return "The pause is the election timeout, waited out before anyone could stand."
}
