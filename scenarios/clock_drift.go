package scenarios

import (
	"fmt"
	"math"

	"raftlab/raftcore"
)

// The figure clock-drift, from "Distributed systems fundamentals": a leader
// that serves lease reads trusts its own clock to tell it when its lease
// is over. A clock that runs slow makes the lease outlast its real
// validity, and a leader cut off from the others answers from its old copy
// after a new leader has committed a write: a stale read. ReadIndex asks a
// majority before each read and is never fooled.

// The script's moments, in milliseconds.
const (
	driftStartMs  = 1000
	driftAlertMs  = 2500
	driftCutMs    = 3000
	driftWriteMs  = 6000
	driftReadMs   = 6600
	driftReread   = 7600
	driftUntilMs  = 13000
	driftAlertOff = 100_000 // microseconds: the operator's alert threshold
)

// driftRates are the leader's clock rates the figure offers: the lease
// lasts one to two election timeouts on that clock, which the reads come
// after only while the clock runs at most about a third slow.
var driftRates = map[string]float64{"exact": 1, "10% slow": 0.9, "75% slow": 0.25}

// otherReads is the read mode to compare with, once the story is over.
var otherReads = map[string]string{"lease": "ReadIndex", "ReadIndex": "lease"}

var clockDrift = def{id: "clock-drift",
	knobs: []Knob{
		{Name: "drift", Label: "etcd-1's clock", Values: []string{"exact", "10% slow", "75% slow"}, Default: "75% slow"},
		{Name: "reads", Label: "Reads", Values: []string{"lease", "ReadIndex"}, Default: "lease"},
	},
	build: func(k values) *Scenario {
		rate := driftRates[k.get("drift")]
		mode := raftcore.ReadLease
		if k.get("reads") == "ReadIndex" {
			mode = raftcore.ReadLinearizable
		}
		read := func(n int) raftcore.Action {
			return raftcore.Action{Do: raftcore.DoRead, Node: n, Key: keyWeb, Mode: mode}
		}
		var sc script
		sc.at(300, act(raftcore.DoTimeout, 1))
		sc.at(800, write(1, keyWeb, "replicas=3"))
		sc.at(driftStartMs, raftcore.Action{Do: raftcore.DoDrift, Node: 1, Rate: rate})
		sc.at(1500, read(1))
		sc.at(driftCutMs, partition([]int{1}, []int{2, 3}))
		sc.at(driftWriteMs, write(2, keyWeb, "replicas=5"))
		sc.at(driftReadMs, read(1))
		sc.at(driftReread, read(1))
		oldRead := func(v *View) (raftcore.Op, bool) {
			for _, op := range v.W.Ops() {
				if op.Kind == raftcore.DoRead && op.Node == 1 && op.InvokeUs >= driftReadMs*1000 && op.Done() {
					return op, true
				}
			}
			return raftcore.Op{}, false
		}
		newWrite := func(v *View) (raftcore.Op, bool) {
			for _, op := range okWrites(v.W) {
				if op.Node != 1 && op.InvokeUs >= driftCutMs*1000 {
					return op, true
				}
			}
			return raftcore.Op{}, false
		}
		readWords := "lease reads: it answers at once, trusting its lease"
		if mode == raftcore.ReadLinearizable {
			readWords = "ReadIndex reads: before answering it checks that a majority still follows it"
		}
		return &Scenario{
			Title:   "Clock drift and leases",
			Chapter: chapterFundamentals,
			Prompt:  "Slow down the leader's clock, cut it off, and read from it after the others have moved on.",
			Base:    config(raft, etcdNames(3)),
			Script:  sc, UntilMs: driftUntilMs,
			UI: UI{Focus: PanelClocks, OpenMs: 600, Panels: []Panel{PanelClocks, PanelClient, PanelChecker, PanelLogs}, Key: keyWeb, Highlight: []id{1},
				Compare: &Setting{Knob: "reads", Value: otherReads[k.get("reads")]}},
			Steps: []Step{
				{Text: "Three members elect etcd-1, which serves " + readWords + ".",
					Claims: claims(machines(3), that("every clock runs at the true rate so far", func(v *View) bool { return v.W.Drift(1) == 1 && v.W.ClockOffsetUs(1) == 0 }))},
				{Text: "Look at the clocks.",
					When: func(v *View) bool { return v.W.Now() >= driftAlertMs*1000 },
					Live: func(v *View) string {
						off := v.W.ClockOffsetUs(1)
						if abs64(off) > driftAlertOff {
							return fmt.Sprintf("etcd-1's clock is now %s behind true time: a time-sync alert at 100 ms would fire. Its lease is measured on that clock.", ms(-off))
						}
						return "Every clock is within 100 ms of true time: no alert. etcd-1's lease is measured on its own clock."
					},
					Claims: claims(that("the offsets are as the words say", func(v *View) bool {
						return (abs64(v.W.ClockOffsetUs(1)) > driftAlertOff) == (rate != 1) && v.W.ClockOffsetUs(2) == 0
					}))},
				{Text: "etcd-1 is cut off. It still believes it leads until its lease runs out on its own clock.",
					When: func(v *View) bool { return !linked(v.W, 1, 2) && !linked(v.W, 1, 3) },
					Live: func(v *View) string {
						end, ok := v.W.LeaderLeaseEnd(1)
						if !ok {
							return "etcd-1 is cut off and already knows it no longer leads."
						}
						return fmt.Sprintf("etcd-1 is cut off. Hearing nothing, it steps down when its lease runs out: at %s of true time, %s from now.", secs(end), ms(end-v.W.Now()))
					},
					Claims: claims(splitNow(), that("etcd-1 still leads", func(v *View) bool { return v.W.Node(1).Role() == raftcore.RoleLeader }))},
				{Text: "etcd-2 and etcd-3 elected a new leader and committed a write.",
					When: func(v *View) bool { _, ok := newWrite(v); return ok },
					Live: func(v *View) string {
						l, _ := topLeader(v.W)
						op, _ := newWrite(v)
						return fmt.Sprintf("%s now leads, and %s=%s is committed on the majority's side.", name(v.W, l), op.Key, op.Value)
					},
					Claims: claims(opEnded("the write on the majority's side", newWrite, true))},
				{Text: "A client read from etcd-1.",
					When: func(v *View) bool { _, ok := oldRead(v); return ok },
					Live: func(v *View) string {
						op, _ := oldRead(v)
						switch {
						case op.Result == raftcore.OpOK && staleFlagged(v.W, op):
							return fmt.Sprintf("etcd-1 answered a read with %s=%s, the value before the new write: its slow clock said its lease still held. The checker flags the stale read, marked over etcd-1.", op.Key, op.ReadValue)
						case op.Result == raftcore.OpOK:
							return fmt.Sprintf("etcd-1 answered a read with %s=%s, and it was not stale.", op.Key, op.ReadValue)
						}
						return fmt.Sprintf("The read at etcd-1 %s: it could not answer from its old copy, so nobody read stale data.", outcome(op))
					},
					Claims: claims(that("a read at etcd-1 is stale exactly when the checker flags it", func(v *View) bool {
						op, _ := oldRead(v)
						stale := op.Result == raftcore.OpOK && op.ReadValue != "replicas=5"
						return stale == staleFlagged(v.W, op)
					}))},
			},
			Shows: []raftcore.Rule{raftcore.RuleStaleRead},
			Expect: func(w *raftcore.World) error {
				v := &View{W: w, h: scan(w)}
				if _, ok := newWrite(v); !ok {
					return fmt.Errorf("no write committed on the majority's side after the cut")
				}
				if _, ok := oldRead(v); !ok {
					return fmt.Errorf("no read at etcd-1 ended after the new write")
				}
				stale := w.ViolationCount(raftcore.RuleStaleRead)
				if others := w.ViolationCount("") - stale; others > 0 {
					return fmt.Errorf("%d violations other than stale reads", others)
				}
				want := mode == raftcore.ReadLease && rate == driftRates["75% slow"]
				switch {
				case want && stale == 0:
					return fmt.Errorf("a lease read on a clock running at %g was not flagged stale", rate)
				case !want && stale > 0:
					return fmt.Errorf("%d stale reads with %s reads and a clock at %g", stale, mode, rate)
				}
				return nil
			},
			final: func(v *View) string {
				stale := v.W.ViolationCount(raftcore.RuleStaleRead)
				switch {
				case stale > 0:
					return fmt.Sprintf("%s: a slow clock kept etcd-1's lease alive after the others had moved on. "+
						"A lease read is fresh only if no new leader can be elected while the old one answers. "+
						"A slow or paused clock breaks that, and so, with exact clocks, can a cut-off leader's late check or an election forced early. "+
						"ReadIndex asks a majority first.", count(stale, "stale read", "stale reads"))
				case mode == raftcore.ReadLinearizable:
					return "No stale read: with ReadIndex, etcd-1 had to hear from a majority before answering, and it could not."
				}
				return "No stale read: etcd-1's clock ran close enough to true time that its lease ended before the reads came. An offset alert may still fire; the lease cares about the clock's rate."
			},
		}
	}}

func abs64(x int64) int64 { return int64(math.Abs(float64(x))) }

// staleFlagged reports whether the checker flagged op as a stale read.
func staleFlagged(w *raftcore.World, op raftcore.Op) bool {
	for _, vi := range w.Violations() {
		if vi.Rule == raftcore.RuleStaleRead && vi.Op == op.ID {
			return true
		}
	}
	return false
}
