package scenarios

import (
	"errors"
	"fmt"

	"raftlab/raftcore"
)

// The figure snapshot-catch-up, one of the lab's own: every member takes a
// snapshot of its state every few applied entries and drops the entries
// before it, keeping a short tail, as etcd does with --snapshot-count. A
// member that falls far enough behind needs entries the leader no longer
// holds: the leader sends it its snapshot instead, the member replaces
// its state with it and takes the entries after it as usual. It falls
// behind by being down (crashed, then restarted) or, with the knob, by a
// slow disk that makes it take long over every message while it stays up.
// The network is slow (a few kilobytes a second), so the reader sees what
// each kind of message costs on the wire.

// The script's moments, in milliseconds, and the figure's settings.
const (
	snapWritesFromMs = 1500
	snapWritesToMs   = 11000
	snapWriteEveryMs = 250
	snapBehindMs     = 2500
	snapBackMs       = 6500
	snapDiskFixedMs  = 9500
	snapUntilMs      = 14000
	// snapCount and snapTail are the members' snapshot settings: a
	// snapshot every 8 applied entries, keeping 4 entries before it
	// (etcd: every 100,000, keeping 5,000).
	snapCount = 8
	snapTail  = 4
	// snapKBps is every link's bandwidth, in kilobytes a second.
	snapKBps = 2
	// snapSlowMs is how long the slow disk makes etcd-3 take over each
	// message.
	snapSlowMs = 1000
	// snapKeys is how many objects the client's writes go round.
	snapKeys = 24
	// snapInflight is how many appends the leader sends a member before
	// it waits for an answer.
	snapInflight = 4
)

var snapshotCatchUp = def{id: "snapshot-catch-up",
	knobs: []Knob{{Name: "behind", Label: "etcd-3 falls behind by", Values: []string{"being down", "a slow disk"}, Default: "being down"}},
	build: func(k values) *Scenario {
		down := k.get("behind") == "being down"
		cfg := config(raft, etcdNames(3))
		cfg.SnapshotCount, cfg.CatchUpEntries, cfg.BandwidthKBps = snapCount, snapTail, snapKBps
		// Few appends in flight to one member (etcd's MaxInflightMsgs):
		// a member too slow to answer stops getting entries, and the
		// leader's log moves on without it.
		cfg.MaxInflight = snapInflight
		var sc script
		sc.at(300, act(raftcore.DoTimeout, 1))
		for t, i := float64(snapWritesFromMs), 1; t <= snapWritesToMs; t, i = t+snapWriteEveryMs, i+1 {
			sc.at(t, write(1, fmt.Sprintf("configmaps/cm-%d", (i-1)%snapKeys+1), fmt.Sprintf("v%d", i)))
		}
		if down {
			sc.at(snapBehindMs, act(raftcore.DoCrash, 3))
			sc.at(snapBackMs, act(raftcore.DoRestart, 3))
		} else {
			sc.at(snapBehindMs, raftcore.Action{Do: raftcore.DoSlow, Node: 3, MsPerMessage: snapSlowMs})
			sc.at(snapDiskFixedMs, raftcore.Action{Do: raftcore.DoSlow, Node: 3, MsPerMessage: 1})
		}
		s := &Scenario{
			Title:   "A follower far behind",
			Chapter: chapterLab,
			Prompt:  "Let etcd-3 fall behind until etcd-1 has compacted the entries it lacks, and watch it catch up from a snapshot instead.",
			Base:    cfg,
			Script:  sc, UntilMs: snapUntilMs,
			UI: UI{Focus: PanelClient, OpenMs: 1200, Replication: true, Panels: []Panel{PanelClient, PanelLogs, PanelChecker}, Key: "configmaps/cm-1", Highlight: []id{1, 3}},
		}
		s.Steps = []Step{{Text: fmt.Sprintf("Three members; a client writes to etcd-1 every %d ms. Each member snapshots its state every %d entries applied and drops the entries before it but the last %d. Links carry %d KB a second.", snapWriteEveryMs, snapCount, snapTail, snapKBps),
			Claims: claims(machines(3), allActive(), that("snapshots every 8 entries keeping 4, on 2 KB/s links", func(v *View) bool {
				c := v.W.Config()
				return c.SnapshotCount == snapCount && c.CatchUpEntries == snapTail && c.BandwidthKBps == snapKBps
			}))}}
		if down {
			s.Steps = append(s.Steps, Step{Text: "etcd-3 is down. The others go on without it.",
				When:   func(v *View) bool { return v.W.Status(3) == raftcore.StatusCrashed },
				Claims: claims(silentNow(node(3)), leadsAlone(node(1)))})
		} else {
			s.Steps = append(s.Steps, Step{Text: fmt.Sprintf("etcd-3's disk is slow: it takes %d ms over every message, while a write comes every %d ms. It stays up, and falls behind.", snapSlowMs, snapWriteEveryMs),
				When:   func(v *View) bool { return v.W.Now() >= snapBehindMs*1000 },
				Claims: claims(activeNow(node(3)), leadsAlone(node(1)))})
		}
		s.Steps = append(s.Steps, Step{Text: "etcd-1 has compacted past etcd-3.",
			When: compactedPast,
			Live: func(v *View) string {
				l := v.W.Node(1)
				snap, _ := l.SnapshotAt()
				need := v.W.Node(3).LastIndex() + 1
				return fmt.Sprintf("etcd-1 took a snapshot at index %d and dropped the entries before index %d (the purple block): they live on only in the snapshot. etcd-3 holds up to index %d and needs index %d next, which etcd-1 no longer has.",
					snap.Index, l.FirstIndex(), need-1, need)
			},
			Claims: claims(that("etcd-1's log starts after what etcd-3 needs next", compactedPast))})
		s.Steps = append(s.Steps, Step{Text: "etcd-1 sent etcd-3 its snapshot.",
			When: func(v *View) bool { _, ok := snapTo(v, 3); return ok },
			Live: func(v *View) string {
				t, _ := snapTo(v, 3)
				return fmt.Sprintf("etcd-1 cannot send etcd-3 entries it no longer holds, so at %s it sent its snapshot instead: its whole state (%s), not its history.", secs(t.sentUs), snapSize(v, t))
			},
			Claims: claims(that("a snapshot went from etcd-1 to etcd-3", func(v *View) bool { t, ok := snapTo(v, 3); return ok && t.from == 1 }))})
		s.Steps = append(s.Steps, Step{Text: "etcd-3 restored the snapshot and caught up.",
			When: restoredAndCaughtUp,
			Live: func(v *View) string {
				t, _ := snapTo(v, 3)
				kv := v.W.Node(3).KV()
				return fmt.Sprintf("The snapshot took %s to reach etcd-3 at %d KB a second; %s. etcd-3 replaced its state with it and took the entries after it as usual: it now holds the same %s as etcd-1, up to index %d.",
					ms(t.arriveUs-t.sentUs), snapKBps, appendTook(v), count(kv.Len(), "object", "objects"), v.W.Node(3).Applied())
			},
			Claims: claims(that("etcd-3's state equals etcd-1's at the same index", restoredAndCaughtUp), that("the snapshot arrived", func(v *View) bool {
				t, ok := snapTo(v, 3)
				return ok && t.arriveUs > 0
			}))})
		s.Expect = func(w *raftcore.World) error {
			h := scan(w)
			if len(h.snaps) == 0 {
				return errors.New("no snapshot was sent")
			}
			if !sameState(w, 1, 3) {
				return errors.New("etcd-3 does not end with etcd-1's state")
			}
			if n := w.ViolationCount(""); n > 0 {
				return fmt.Errorf("raft broke a safety rule: %s", w.Violations()[0].Text)
			}
			return nil
		}
		s.final = func(v *View) string {
			why := "was down"
			if !down {
				why = "was slowed by its disk"
			}
			return fmt.Sprintf("etcd-3 %s for longer than etcd-1 kept its entries, so it caught up from a snapshot. In etcd the same happens to a member replaced or restored after a long outage; a snapshot is as large as the whole state, so on a slow link it can take much longer than the entries a member a little behind still gets.", why)
		}
		return s
	}}

// compactedPast: etcd-1 leads and no longer holds the entry it would
// send etcd-3 next, nor the one after etcd-3's last.
func compactedPast(v *View) bool {
	l := v.W.Node(1)
	pr, ok := l.Progress(3)
	return ok && l.FirstIndex() > pr.Next && l.FirstIndex() > v.W.Node(3).LastIndex()+1
}

// snapTo is the latest snapshot sent to machine n.
func snapTo(v *View, n id) (wireTrip, bool) {
	for k := len(v.h.snaps) - 1; k >= 0; k-- {
		if v.h.snaps[k].to == n {
			return v.h.snaps[k], true
		}
	}
	return wireTrip{}, false
}

// restoredAndCaughtUp: etcd-3 restored a snapshot and has applied as far as etcd-1,
// with the same state.
func restoredAndCaughtUp(v *View) bool {
	t, ok := snapTo(v, 3)
	return ok && t.arriveUs > 0 && v.W.Node(3).Applied() == v.W.Node(1).Applied() && sameState(v.W, 1, 3)
}

// sameState: machines a and b have applied to the same index and hold the
// same state.
func sameState(w *raftcore.World, a, b id) bool {
	return w.Node(a).Applied() == w.Node(b).Applied() && w.Node(a).KV().Digest() == w.Node(b).KV().Digest()
}

// appendTook says how long the latest append to etcd-3 took on the wire.
func appendTook(v *View) string {
	if t := v.h.lastApp[3]; t.arriveUs > 0 {
		return "the latest append of entries to it took " + ms(t.arriveUs-t.sentUs)
	}
	return "no append has reached it since"
}

// snapSize says how large the snapshot of trip t is, while it is on the
// wire.
func snapSize(v *View, t wireTrip) string {
	for _, m := range v.W.InFlight() {
		if m.ID == t.msg && m.Snapshot != nil {
			return fmt.Sprintf("%d bytes, %s", m.Snapshot.Bytes(), count(m.Snapshot.KV().Len(), "object", "objects"))
		}
	}
	return "already delivered"
}
