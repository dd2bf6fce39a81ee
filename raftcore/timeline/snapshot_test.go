package timeline

import (
	"bytes"
	"math/rand/v2"
	"reflect"
	"testing"

	"raftlab/raftcore"
)

// snapshotConfig snapshots every fourth applied entry, keeps one entry
// before each snapshot and carries messages at 2 KB a second, so that a
// short run of random faults and writes takes snapshots, sends them to
// machines that were down and restores them.
func snapshotConfig() raftcore.Config {
	cfg := testConfig()
	cfg.SnapshotCount, cfg.CatchUpEntries, cfg.BandwidthKBps = 3, 1, 2
	return cfg
}

// TestTimelineIsExactAcrossSnapshots: a checkpoint taken after snapshots
// and compaction (itself a clone that shares its snapshots), a seek back
// to any live moment, a share link and an exported schedule all give the
// world exactly as it was, snapshots, restores and compacted logs
// included.
func TestTimelineIsExactAcrossSnapshots(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 42))
	tl := mustNew(t, snapshotConfig(), smallOpts)
	var snaps []snap
	down := 0
	for i := 0; tl.Pos().AtUs < 60_000_000; i++ {
		// Writes keep coming, so that snapshots are taken; a machine
		// crashed or cut off for a while falls behind the compaction.
		mustAct(t, tl, raftcore.Action{Do: raftcore.DoWrite, Node: 1 + r.IntN(5), Key: "k" + string(rune('a'+r.IntN(4))), Value: "v"})
		switch i % 40 {
		case 5:
			down = 1 + r.IntN(5)
			if r.IntN(2) == 0 {
				mustAct(t, tl, raftcore.Action{Do: raftcore.DoCrash, Node: down})
			} else {
				mustAct(t, tl, raftcore.Action{Do: raftcore.DoPartition, Groups: [][]int{{down}}})
			}
		case 25:
			mustAct(t, tl, raftcore.Action{Do: raftcore.DoRestart, Node: down})
			mustAct(t, tl, raftcore.Action{Do: raftcore.DoHeal})
		}
		tl.Advance(int64(50_000 + r.IntN(400_000)))
		for i := r.IntN(6); i > 0; i-- {
			tl.StepForward()
		}
		snaps = append(snaps, snapOf(tl.World()))
	}
	log := tl.Actions()
	end := fresh(t, tl.Config(), log, tl.Head())
	kinds := map[raftcore.TraceKind]int{}
	for _, e := range end.Trace() {
		kinds[e.Kind]++
	}
	if kinds[raftcore.TraceSnapshot] < 10 || kinds[raftcore.TraceRestore] == 0 {
		t.Fatalf("the run took %d snapshots and restored %d: too few to test them (head %v, machine 1 commit %d, %d writes)", kinds[raftcore.TraceSnapshot], kinds[raftcore.TraceRestore], tl.Head(), end.Node(1).Commit(), len(end.Ops()))
	}
	t.Logf("%d snapshots, %d restores, %d checkpoints, %d moments checked", kinds[raftcore.TraceSnapshot], kinds[raftcore.TraceRestore], tl.Checkpoints(), len(snaps))
	if tl.Checkpoints() < 3 {
		t.Fatalf("only %d checkpoints", tl.Checkpoints())
	}
	for i, j := range r.Perm(len(snaps)) {
		s := snaps[j]
		tl.SeekTo(s.pos)
		sameWorld(t, "seek to live moment "+s.pos.String(), tl.World(), s)
		if i%8 == 0 {
			sameWorld(t, "fresh replay to "+s.pos.String(), fresh(t, tl.Config(), log, s.pos), s)
			sameLogs(t, tl.World(), fresh(t, tl.Config(), log, s.pos))
		}
	}

	tl.SeekTime(tl.Head().AtUs / 2)
	want := snapOf(tl.World())
	opened := reopen(t, tl)
	sameWorld(t, "opened link", opened.World(), want)
	sameLogs(t, opened.World(), tl.World())
	if c := opened.Config(); c.SnapshotCount != 3 || c.CatchUpEntries != 1 || c.BandwidthKBps != 2 {
		t.Fatalf("the link lost the snapshot settings: %d, %d, %g", c.SnapshotCount, c.CatchUpEntries, c.BandwidthKBps)
	}

	tl.Advance(1) // end the instant, as a schedule does
	var buf bytes.Buffer
	if err := tl.WriteSchedule(&buf); err != nil {
		t.Fatal(err)
	}
	s, err := raftcore.ParseSchedule(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	w, err := s.Run()
	if err != nil {
		t.Fatal(err)
	}
	sameWorld(t, "exported schedule", w, snapOf(tl.World()))
	sameLogs(t, w, tl.World())
}

// sameLogs compares what two worlds' machines hold: snapshot, first
// index, kept entries, commit and applied indexes and store.
func sameLogs(t testing.TB, a, b *raftcore.World) {
	t.Helper()
	for id := raftcore.NodeID(1); int(id) <= a.Size(); id++ {
		na, nb := a.Node(id), b.Node(id)
		sa, oka := na.SnapshotAt()
		sb, okb := nb.SnapshotAt()
		if oka != okb || (oka && (sa.Index != sb.Index || sa.Chain != sb.Chain || sa.KV().Digest() != sb.KV().Digest())) {
			t.Fatalf("machine %d: the snapshots differ", id)
		}
		if na.FirstIndex() != nb.FirstIndex() || na.Commit() != nb.Commit() || na.Applied() != nb.Applied() ||
			na.KV().Digest() != nb.KV().Digest() ||
			!reflect.DeepEqual(na.Entries(na.FirstIndex(), na.LastIndex()), nb.Entries(nb.FirstIndex(), nb.LastIndex())) {
			t.Fatalf("machine %d: first index %d/%d, commit %d/%d, applied %d/%d", id, na.FirstIndex(), nb.FirstIndex(), na.Commit(), nb.Commit(), na.Applied(), nb.Applied())
		}
	}
}

// TestRestoreIsAMark: a machine restoring its leader's snapshot is a
// notable moment of its own, at the snapshot's last entry.
func TestRestoreIsAMark(t *testing.T) {
	cfg := snapshotConfig()
	cfg.BandwidthKBps = 0
	tl := mustNew(t, cfg, Options{})
	tl.Advance(2_000_000)
	mustAct(t, tl, raftcore.Action{Do: raftcore.DoCrash, Node: 3})
	for i := 0; i < 20; i++ {
		mustAct(t, tl, raftcore.Action{Do: raftcore.DoWrite, Node: 1 + i%2, Key: "k", Value: "v"})
		tl.Advance(200_000)
	}
	mustAct(t, tl, raftcore.Action{Do: raftcore.DoRestart, Node: 3})
	tl.Advance(3_000_000)
	var restores []Mark
	for _, m := range tl.Marks() {
		if m.Kind == MarkRestore {
			restores = append(restores, m)
		}
	}
	if len(restores) != 1 || restores[0].Node != 3 {
		t.Fatalf("want one restore mark, for machine 3: %+v", restores)
	}
	s, ok := tl.World().Node(3).SnapshotAt()
	if !ok || restores[0].Index != s.Index {
		t.Fatalf("the mark says index %d; machine 3's snapshot is %v", restores[0].Index, s)
	}
}
