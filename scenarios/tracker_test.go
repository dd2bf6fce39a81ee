package scenarios

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"raftlab/raftcore"
)

// frameUs is how much virtual time passes between two looks in these
// free-play tests, like an app drawing frames at speed.
const frameUs = 50_000

func mustApply(t *testing.T, w *raftcore.World, a raftcore.Action) {
	t.Helper()
	if err := w.Apply(a); err != nil {
		t.Fatalf("apply %s: %v", a, err)
	}
}

// play advances w by d in frames, letting the tracker look after each, and
// checks that steps only move forward.
func play(t *testing.T, w *raftcore.World, tr *Tracker, d int64) {
	t.Helper()
	end := w.Now() + d
	for w.Now() < end {
		before := tr.Step()
		w.RunFor(min(frameUs, end-w.Now()))
		tr.Observe(w)
		if tr.Step() < before {
			t.Fatalf("the tracker went back from step %d to %d", before, tr.Step())
		}
	}
}

func leaderOf(t *testing.T, w *raftcore.World) raftcore.NodeID {
	t.Helper()
	l, ok := topLeader(w)
	if !ok {
		t.Fatal("no leader")
	}
	return l
}

// TestTrackerFollowsAReader plays the majority figure the way a reader
// might, not as the script does: no forced leader, the split drawn around
// whoever leads, writes at other times. The story must still unfold.
func TestTrackerFollowsAReader(t *testing.T) {
	s, _ := Get("majority")
	w := raftcore.MustWorld(s.Config(11))
	tr := NewTracker(s)
	tr.Observe(w)
	if tr.Step() != 0 || tr.StepText() != s.Steps[0].Text || tr.Done() || tr.Final() != "" {
		t.Fatalf("a new tracker is at step %d (%q), done %v", tr.Step(), tr.StepText(), tr.Done())
	}
	play(t, w, tr, 3_000_000)
	if tr.Step() != 0 {
		t.Fatalf("the story moved to step %d before the reader did anything", tr.Step())
	}
	l := leaderOf(t, w)
	small := []int{int(l), int(l%5) + 1}
	var big []int
	for i := 1; i <= 5; i++ {
		if i != small[0] && i != small[1] {
			big = append(big, i)
		}
	}
	// A cut link splits no group off: the story waits for groups, and
	// then names them.
	mustApply(t, w, raftcore.Action{Do: raftcore.DoCut, From: small[0], To: big[0]})
	tr.Observe(w)
	if tr.Step() != 0 {
		t.Fatalf("one cut link moved the story to step %d: %q", tr.Step(), tr.StepText())
	}
	mustApply(t, w, raftcore.Action{Do: raftcore.DoRestore, From: small[0], To: big[0]})
	mustApply(t, w, partition(big, small))
	tr.Observe(w)
	sides := names(w, []id{id(big[0]), id(big[1]), id(big[2])}) + " on one side, " + names(w, []id{id(min(small[0], small[1])), id(max(small[0], small[1]))}) + " on the other"
	if min(small[0], small[1]) < big[0] {
		sides = names(w, []id{id(min(small[0], small[1])), id(max(small[0], small[1]))}) + " on one side, " + names(w, []id{id(big[0]), id(big[1]), id(big[2])}) + " on the other"
	}
	if tr.Step() != 1 || !strings.Contains(tr.StepText(), "split: "+sides+".") {
		t.Fatalf("after the split: step %d %q", tr.Step(), tr.StepText())
	}
	play(t, w, tr, 300_000)
	mustApply(t, w, write(small[0], keyWeb, "replicas=2"))
	play(t, w, tr, 4_000_000)
	mustApply(t, w, write(big[0], keyWeb, "replicas=5"))
	play(t, w, tr, 3_000_000)
	if tr.Step() != 3 {
		t.Fatalf("want step 3 (the small side waits) once both writes are settled, got %d: %q", tr.Step(), tr.StepText())
	}
	healAt := float64(w.Now()) / 1000
	mustApply(t, w, heal())
	play(t, w, tr, 3_000_000)
	if !tr.Done() || tr.StepText() != s.Steps[len(s.Steps)-1].Text {
		t.Fatalf("after the heal: step %d %q", tr.Step(), tr.StepText())
	}
	if at, ok := tr.ReachedAtMs(4); !ok || at < healAt {
		t.Fatalf("the last step was reached at %v ms, before the heal at %v ms", at, healAt)
	}
	if f := tr.Final(); !strings.Contains(f, "3-machine side committed 1 write") || !strings.Contains(f, "2-machine side's 1 write never committed") {
		t.Fatalf("closing line: %q", f)
	}
	if err := s.Expect(w); err != nil {
		t.Fatalf("the reader's run made the point, yet Check says: %v", err)
	}
}

// TestTrackerWaitsForItsCause: a step whose condition never comes true is
// never reached, and a step that must hold for a while waits that long.
func TestTrackerWaitsForItsCause(t *testing.T) {
	s, _ := Get("replicated-memory")
	w := raftcore.MustWorld(s.Config(1))
	tr := NewTracker(s)
	mustApply(t, w, write(1, keyWeb, "replicas=3"))
	play(t, w, tr, 10_000_000)
	if tr.Step() != 1 {
		t.Fatalf("one write delivered everywhere should stop at step 1, got %d: %q", tr.Step(), tr.StepText())
	}
	mustApply(t, w, write(2, keyWeb, "replicas=5"))
	var toC uint64
	for _, m := range w.InFlight() {
		if m.To == 3 {
			toC = m.ID
		}
	}
	mustApply(t, w, raftcore.Action{Do: raftcore.DoDrop, ID: toC})
	play(t, w, tr, 1_000_000)
	if tr.Step() != 2 || !strings.Contains(tr.StepText(), "C holds 1 entry") {
		t.Fatalf("after a dropped copy: step %d %q", tr.Step(), tr.StepText())
	}
	play(t, w, tr, 1_000_000)
	if tr.Step() != 2 {
		t.Fatal("the last step needs the gap to last 3 s")
	}
	play(t, w, tr, 1_500_000)
	if !tr.Done() || !strings.Contains(tr.Final(), "C never got deployments/web=replicas=5, dropped at") {
		t.Fatalf("step %d, final %q", tr.Step(), tr.Final())
	}
}

// TestTrackerNeverGoesBack: rewinding the world (the app's timeline gives the
// tracker an earlier copy) keeps the steps reached, and the story goes on
// from the earlier world.
func TestTrackerNeverGoesBack(t *testing.T) {
	s, _ := Get("two-worlds")
	w := raftcore.MustWorld(s.Config(2))
	tr := NewTracker(s)
	tr.Observe(w)
	early := w.Clone()
	mustApply(t, w, partition([]int{1, 2}, []int{3}))
	mustApply(t, w, write(1, keyWeb, "a"))
	mustApply(t, w, write(3, keyWeb, "b"))
	play(t, w, tr, 500_000)
	if tr.Step() != 2 {
		t.Fatalf("step %d, want 2", tr.Step())
	}
	tr.Observe(early)
	if tr.Step() != 2 {
		t.Fatalf("rewinding took the story back to step %d", tr.Step())
	}
	// The earlier world moves on; the tracker reads it without confusion.
	mustApply(t, early, partition([]int{1}, []int{2, 3}))
	mustApply(t, early, write(1, keyWeb, "c"))
	mustApply(t, early, write(2, keyWeb, "d"))
	play(t, early, tr, 500_000)
	mustApply(t, early, heal())
	// The story's last step wants a write made since the heal, on
	// every machine.
	mustApply(t, early, write(1, keyWeb, "e"))
	play(t, early, tr, 500_000)
	if !tr.Done() {
		t.Fatalf("after healing the rewound world: step %d %q", tr.Step(), tr.StepText())
	}
}

// TestChecksCanFail: each Expect check rejects a world that does not make
// its figure's point, here the quiet world where nothing happened.
func TestChecksCanFail(t *testing.T) {
	for _, s := range everyVariant(t) {
		w := raftcore.MustWorld(s.Config(1))
		w.RunFor(20_000_000)
		if err := s.Expect(w); err == nil {
			t.Errorf("%s: Expect accepts a world where nothing happened", label(s))
		}
	}
	// And a run of the other protocol does not pass for this one.
	fo, _ := Get("two-leaders")
	rf, _ := fo.With("protocol", "raft")
	wf, _, _ := fo.Run(1)
	if err := rf.Expect(wf); err == nil {
		t.Error("the raft check of two-leaders accepts the failover run")
	}
	wr, _, _ := rf.Run(1)
	if err := fo.Expect(wr); err == nil {
		t.Error("the failover check of two-leaders accepts the raft run")
	}
}

// TestHistoryReadsTypedFields: the tracker takes role changes and drops
// from the events' typed fields; their text is for people and goes unread.
func TestHistoryReadsTypedFields(t *testing.T) {
	h := newHistory()
	h.event(raftcore.TraceEvent{Kind: raftcore.TraceRole, AtUs: 7, Node: 2, Term: 3, FromRole: raftcore.RolePreCandidate,
		ToRole: raftcore.RoleCandidate, Cause: raftcore.CauseWonPreVote, Text: "words for people"})
	h.event(raftcore.TraceEvent{Kind: raftcore.TraceDrop, AtUs: 8, Node: 1, Peer: 3, Msg: 5, MsgType: raftcore.MsgApp,
		Cause: raftcore.DropByHand, Text: "words for people"})
	require.Equal(t, []roleChange{{node: 2, from: raftcore.RolePreCandidate, to: raftcore.RoleCandidate, term: 3, why: raftcore.CauseWonPreVote, atUs: 7}}, h.roles)
	require.Equal(t, []drop{{from: 1, to: 3, kind: raftcore.MsgApp, atUs: 8, why: raftcore.DropByHand}}, h.drops)

	w := raftcore.MustWorld(raftcore.DefaultConfig())
	w.RunFor(5_000_000)
	h = scan(w)
	_, ok := firstRole(h, raftcore.RoleCandidate, raftcore.RoleLeader, raftcore.CauseWonElection)
	require.True(t, ok, "no election seen in %d role changes", len(h.roles))
}

// TestLossesAreToldByTheirCause: a copy that never reached C is told by
// why it was lost, and a machine that was down lost nothing on the way.
func TestLossesAreToldByTheirCause(t *testing.T) {
	toC := func(t *testing.T, w *raftcore.World, a raftcore.Action) {
		mustApply(t, w, a)
		mustApply(t, w, write(1, keyWeb, "replicas=3"))
	}
	for _, tc := range []struct {
		name  string
		do    func(t *testing.T, w *raftcore.World)
		why   raftcore.Cause
		words string // "" when no copy was lost on the way
	}{
		{"loss", func(t *testing.T, w *raftcore.World) { toC(t, w, lossOneWay(1, 3, 1)) }, raftcore.DropLost, "lost in the network"},
		{"cut", func(t *testing.T, w *raftcore.World) {
			toC(t, w, raftcore.Action{Do: raftcore.DoCut, From: 1, To: 3, OneWay: true})
		}, raftcore.DropLinkCut, "stopped by a cut link"},
		{"by hand", func(t *testing.T, w *raftcore.World) {
			mustApply(t, w, write(1, keyWeb, "replicas=3"))
			w.RunFor(1)
			for _, m := range w.InFlight() {
				if m.To == 3 {
					mustApply(t, w, raftcore.Action{Do: raftcore.DoDrop, ID: m.ID})
				}
			}
		}, raftcore.DropByHand, "dropped"},
		{"down", func(t *testing.T, w *raftcore.World) { toC(t, w, act(raftcore.DoCrash, 3)) }, raftcore.DropMachineDown, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := raftcore.MustWorld(config(naive, abc))
			w.RunFor(1_000_000)
			tc.do(t, w)
			w.RunFor(1_000_000)
			h := scan(w)
			require.NotEmpty(t, h.drops)
			require.Equal(t, tc.why.String(), h.drops[len(h.drops)-1].why.String())
			d, ok := lossTo(h, []id{3})
			require.Equal(t, tc.words != "", ok, "a loss on the way to C")
			if ok {
				require.Equal(t, tc.words, lossWords(d.why))
				require.Equal(t, raftcore.MsgCopy.String(), d.kind.String())
			}
		})
	}
}

// TestTrackerKeepsTheWordsOfStepsReachedTogether: steps that come true at
// one moment each keep their own words and time, so that a figure can
// show them one at a time.
func TestTrackerKeepsTheWordsOfStepsReachedTogether(t *testing.T) {
	s, err := Get("slow-or-dead")
	require.NoError(t, err)
	_, res, err := s.Run(1)
	require.NoError(t, err)
	w, err := raftcore.NewWorld(s.Config(1))
	require.NoError(t, err)
	tr := NewTracker(s)
	require.Equal(t, s.Steps[0].Text, tr.TextOf(0))
	tr.Observe(w)
	for _, a := range s.Autoplay() {
		runObserved(w, tr, a.AtUs())
		mustApply(t, w, a)
		tr.Observe(w)
	}
	runObserved(w, tr, int64(s.UntilMs*1000))
	require.True(t, tr.Done())
	together := 0
	for i := range s.Steps {
		at, ok := tr.ReachedAtMs(i)
		require.True(t, ok)
		require.Equal(t, res.ReachedAtMs[i], at)
		require.Equal(t, res.Texts[i], tr.TextOf(i), "step %d", i)
		if prev, _ := tr.ReachedAtMs(i - 1); i > 0 && prev == at {
			together++
		}
	}
	require.Positive(t, together, "no two steps of slow-or-dead come at one moment: the test shows nothing")
	require.Equal(t, tr.StepText(), tr.TextOf(tr.Step()))
	require.Empty(t, tr.TextOf(len(s.Steps)))
}
