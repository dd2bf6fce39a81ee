package raftcore

import "testing"

// A bandwidth so small that a message's transfer time would overflow the
// clock is refused; the slowest accepted one still delivers after sending.
func TestTinyBandwidthIsRefused(t *testing.T) {
	c := DefaultConfig()
	c.Nodes, c.Seed, c.BandwidthKBps = 3, 1, 1e-300
	if err := c.Validate(); err == nil {
		t.Fatal("bandwidth_kbps 1e-300 was accepted")
	}
	c.BandwidthKBps = MinBandwidthKBps
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	w := MustWorld(c)
	w.RunUntil(msToUs(3000))
	sent := map[uint64]int64{}
	for _, e := range w.Trace() {
		switch e.Kind {
		case TraceSend:
			sent[e.Msg] = e.AtUs
		case TraceDeliver:
			if e.AtUs < sent[e.Msg] {
				t.Fatalf("message %d sent at %d us was delivered at %d us", e.Msg, sent[e.Msg], e.AtUs)
			}
		}
	}
}

// A leader paused with a full inbox still hears how its snapshot went (the
// report is its own transport's, as etcd's ReportSnapshot is): the
// follower leaves the snapshot state and is caught up once the leader
// resumes.
func TestSnapshotReportReachesAPausedLeaderWithAFullInbox(t *testing.T) {
	w := snapWorld(t, func(c *Config) { c.InboxLimit = 0 })
	mustApply(t, w, Action{Do: DoCrash, Node: 3})
	writeN(t, w, 0, 25)
	mustApply(t, w, Action{Do: DoRestart, Node: 3})
	seen, sent := len(w.Trace()), false
	for i := 0; i < 5000 && !sent; i++ {
		w.RunFor(1000)
		for _, e := range w.Trace()[seen:] {
			if e.Kind == TraceSend && e.MsgType == MsgSnap {
				sent = true
			}
		}
		seen = len(w.Trace())
	}
	if !sent {
		t.Fatal("no snapshot was sent")
	}
	mustApply(t, w, Action{Do: DoPause, Node: 1})
	w.RunFor(300_000)
	mustApply(t, w, Action{Do: DoResume, Node: 1})
	w.RunFor(2_000_000)
	writeN(t, w, 100, 5)
	w.RunFor(10_000_000)
	if w.Node(3).LastIndex() < w.Node(1).LastIndex() {
		pr, _ := w.Node(1).Progress(3)
		t.Errorf("machine 3 was never caught up: its last index %d, the leader's %d (progress %+v)", w.Node(3).LastIndex(), w.Node(1).LastIndex(), pr)
	}
}

// Correct Raft whose leader's commit jumps as it applies a configuration
// change and that snapshots at once (catch_up_entries 0): the checker
// records the index it could no longer read without shifting the later
// ones, and reports nothing. Seeds found by random runs.
func TestCheckerKeepsIndexesAcrossACommitCompactedAtOnce(t *testing.T) {
	for _, seed := range []int64{18228, 19014, 20456} {
		w := RandomRun(seed, RandomOptions{Snapshots: true, Reconfigure: true, StopOnViolation: true})
		if v := w.Violations(); len(v) > 0 {
			t.Errorf("seed %d: correct Raft reported %s: %s", seed, v[0].Rule, v[0].Text)
		}
	}
}
