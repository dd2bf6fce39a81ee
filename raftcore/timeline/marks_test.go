package timeline

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"raftlab/raftcore"
)

func kindsOf(marks []Mark) map[MarkKind]int {
	out := map[MarkKind]int{}
	for _, m := range marks {
		out[m.Kind] += m.Count
	}
	return out
}

// findMark is the first mark of kind k whose facts are as is says.
func findMark(marks []Mark, k MarkKind, is func(Mark) bool) (Mark, bool) {
	for _, m := range marks {
		if m.Kind == k && is(m) {
			return m, true
		}
	}
	return Mark{}, false
}

// opMark says a client mark's operation is one op matches, asked (or
// answered) at node.
func opMark(node int, answer bool, op func(raftcore.Op) bool) func(Mark) bool {
	return func(m Mark) bool {
		return m.Op != nil && m.Answer == answer && m.Node == raftcore.NodeID(node) && m.Op.Node == m.Node && op(*m.Op)
	}
}

// actionMark says a fault mark's action is one act matches.
func actionMark(act func(raftcore.Action) bool) func(Mark) bool {
	return func(m Mark) bool { return m.Action != nil && act(*m.Action) }
}

func leaderOf(w *raftcore.World) int {
	for i := 1; i <= w.Size(); i++ {
		if w.Status(raftcore.NodeID(i)) == raftcore.StatusUp && w.Node(raftcore.NodeID(i)).Role() == raftcore.RoleLeader {
			return i
		}
	}
	return 0
}

func TestMarksDescribeTheRun(t *testing.T) {
	cfg := testConfig()
	cfg.Names = []string{"A", "B", "C", "D", "E"}
	tl := mustNew(t, cfg, Options{})
	tl.Advance(4_000_000)
	l := leaderOf(tl.World())
	if l == 0 {
		t.Fatal("no leader after 4 s")
	}
	lname := cfg.Names[l-1]
	mustAct(t, tl, raftcore.Action{Do: raftcore.DoWrite, Node: l, Key: "deployments/web", Value: "v1"})
	tl.Advance(1_000_000)
	others := []int{}
	for i := 1; i <= 5; i++ {
		if i != l {
			others = append(others, i)
		}
	}
	mustAct(t, tl, raftcore.Action{Do: raftcore.DoPartition, Groups: [][]int{{l}, others}})
	tl.Advance(4_000_000)
	mustAct(t, tl, raftcore.Action{Do: raftcore.DoHeal})
	tl.Advance(2_000_000)

	marks := tl.Marks()
	node := raftcore.NodeID(l)
	el, ok := findMark(marks, MarkElection, func(m Mark) bool { return m.Node == node && m.Term > 0 })
	if !ok {
		t.Fatalf("no election mark for %s in %+v", lname, marks)
	}
	if el.At.AtUs <= 0 || el.At.AtUs > 4_000_000 || el.Count != 1 || el.Node != raftcore.NodeID(l) {
		t.Fatalf("election mark %+v", el)
	}
	written := func(op raftcore.Op) bool {
		return op.Kind == raftcore.DoWrite && op.Key == "deployments/web" && op.Value == "v1"
	}
	if _, ok := findMark(marks, MarkClient, opMark(l, false, written)); !ok {
		t.Fatalf("no client request mark in %+v", marks)
	}
	done := func(op raftcore.Op) bool { return written(op) && op.Result == raftcore.OpOK && op.Index == 2 }
	if m, ok := findMark(marks, MarkClient, opMark(l, true, done)); !ok || m.Op.CompleteUs <= m.Op.InvokeUs {
		t.Fatalf("no client answer mark in %+v", marks)
	}
	if _, ok := findMark(marks, MarkCommit, func(m Mark) bool { return m.Node == node && m.Index >= 2 }); !ok {
		t.Fatalf("no commit mark in %+v", marks)
	}
	split := func(a raftcore.Action) bool {
		return a.Do == raftcore.DoPartition && reflect.DeepEqual(a.Groups, [][]int{{l}, others})
	}
	if _, ok := findMark(marks, MarkFault, actionMark(split)); !ok {
		t.Fatalf("no fault mark for the split in %+v", marks)
	}
	if _, ok := findMark(marks, MarkFault, actionMark(func(a raftcore.Action) bool { return a.Do == raftcore.DoHeal })); !ok {
		t.Fatalf("no heal mark in %+v", marks)
	}
	// The majority side elects a new leader while the old one is cut off.
	n := 0
	for _, m := range marks {
		if m.Kind == MarkElection {
			n++
		}
	}
	if n < 2 {
		t.Fatalf("%d election marks; the partition should have caused another", n)
	}
	for i := 1; i < len(marks); i++ {
		if marks[i].At.Less(marks[i-1].At) {
			t.Fatalf("marks out of order: %+v then %+v", marks[i-1], marks[i])
		}
	}
}

func TestMarksShowViolations(t *testing.T) {
	cfg := testConfig()
	cfg.Protocol = raftcore.ProtocolFailover
	cfg.Nodes = 3
	tl := mustNew(t, cfg, Options{})
	tl.Advance(1_000_000)
	mustAct(t, tl, raftcore.Action{Do: raftcore.DoPause, Node: 1})
	tl.Advance(5_000_000)
	mustAct(t, tl, raftcore.Action{Do: raftcore.DoResume, Node: 1})
	tl.Advance(2_000_000)
	m, ok := findMark(tl.Marks(), MarkViolation, func(m Mark) bool { return m.Rule == raftcore.RuleSingleAuthority })
	if !ok {
		t.Fatalf("no violation mark in %+v", tl.Marks())
	}
	if m.Why == "" {
		t.Fatalf("violation mark %+v does not say why", m)
	}
	if _, ok := findMark(tl.Marks(), MarkElection, func(m Mark) bool { return m.Node != raftcore.None }); !ok {
		t.Fatalf("no takeover mark in %+v", tl.Marks())
	}
	tl.SeekTo(m.At)
	if tl.World().ViolationCount("") == 0 {
		t.Fatal("no violation at the violation mark")
	}
	tl.StepBack()
	if tl.World().ViolationCount("") != 0 {
		t.Fatal("a violation one event before the violation mark")
	}
}

// TestMarksStateTheirFacts: each mark carries, typed, what happened: the
// term won, the entry committed up to, the client's operation (with why it
// was refused) and the change made by hand, so that a reader can say it in
// words, and no fact of another kind.
func TestMarksStateTheirFacts(t *testing.T) {
	cfg := testConfig()
	cfg.Nodes, cfg.Names = 3, []string{"A", "B", "C"}
	tl := mustNew(t, cfg, Options{})
	mustAct(t, tl, raftcore.Action{Do: raftcore.DoWrite, Node: 2, Key: "k", Value: "0"}) // no leader yet
	mustAct(t, tl, raftcore.Action{Do: raftcore.DoTimer, Node: 2, Ms: 50})
	tl.Advance(2_000_000)
	l := leaderOf(tl.World())
	if l == 0 {
		t.Fatal("no leader after 2 s")
	}
	mustAct(t, tl, raftcore.Action{Do: raftcore.DoWrite, Node: l, Key: "k", Value: "1"})
	tl.Advance(1_000_000)
	mustAct(t, tl, raftcore.Action{Do: raftcore.DoTimeout, Node: l%3 + 1})
	tl.Advance(2_000_000)

	seen := map[MarkKind]int{}
	refused, timeout, timer := false, false, false
	for _, m := range tl.Marks() {
		seen[m.Kind]++
		name := cfg.Name(m.Node)
		switch m.Kind {
		case MarkElection:
			if m.Term == 0 || m.Node == raftcore.None {
				t.Errorf("election mark %+v names no term or machine", m)
			}
		case MarkCommit:
			if m.Index == 0 || m.Node == raftcore.None {
				t.Errorf("commit mark %+v names no entry or machine", m)
			}
		case MarkClient:
			if m.Op == nil || m.Op.Node != m.Node {
				t.Fatalf("client mark %+v has op %+v", m, m.Op)
			}
			if m.Answer && m.Op.Result == raftcore.OpRefused {
				refused = true
				if m.Op.Refusal != raftcore.RefusedNoLeader || m.Node != 2 {
					t.Errorf("refused at %s for %v, want at B for no leader", name, m.Op.Refusal)
				}
			}
		case MarkFault:
			if m.Action == nil {
				t.Fatalf("fault mark %+v has no action", m)
			}
			timeout = timeout || m.Action.Do == raftcore.DoTimeout && m.Action.Node == l%3+1
			timer = timer || m.Action.Do == raftcore.DoTimer && m.Action.Ms == 50
		default:
			t.Fatalf("unexpected mark %+v", m)
		}
		if m.Kind != MarkElection && m.Term != 0 || m.Kind != MarkCommit && m.Index != 0 ||
			m.Kind != MarkClient && (m.Op != nil || m.Answer) || m.Kind != MarkFault && m.Action != nil ||
			m.Kind != MarkViolation && (m.Rule != "" || m.Why != "") {
			t.Errorf("%s mark states facts of another kind: %+v", m.Kind, m)
		}
	}
	if seen[MarkElection] == 0 || seen[MarkCommit] == 0 || seen[MarkClient] < 4 || !refused || !timeout || !timer {
		t.Fatalf("marks %v, refused %v, timeout %v, timer %v: want an election, commits, two writes asked and answered, one refused, and both timer changes", seen, refused, timeout, timer)
	}
}

// The marks gathered while running live and the moments PrevNotable and
// NextNotable find by replaying are the same.
func TestNotableJumpsMatchMarks(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	tl := mustNew(t, testConfig(), smallOpts)
	liveRun(t, tl, r, 20)
	var want []Position
	for _, m := range tl.Marks() {
		if m.Count != 1 {
			t.Fatalf("merged mark in a short run: %+v", m)
		}
		if len(want) == 0 || want[len(want)-1] != m.At {
			want = append(want, m.At)
		}
	}
	head := tl.Head()
	tl.SeekTo(Position{})
	var next []Position
	for {
		m, ok := tl.NextNotable()
		if !ok || head.Less(tl.Pos()) {
			break
		}
		if m.At != tl.Pos() {
			t.Fatalf("NextNotable returned %+v but moved to %v", m, tl.Pos())
		}
		next = append(next, tl.Pos())
	}
	if !reflect.DeepEqual(next, want) {
		t.Fatalf("NextNotable visited %d moments, marks have %d\nnext %v\nmarks %v", len(next), len(want), next, want)
	}
	tl.SeekTo(head)
	var prev []Position
	for {
		m, ok := tl.PrevNotable()
		if !ok {
			break
		}
		if m.At != tl.Pos() {
			t.Fatalf("PrevNotable returned %+v but moved to %v", m, tl.Pos())
		}
		prev = append(prev, tl.Pos())
	}
	// Walking back from the head finds every mark before the head, latest
	// first, and stops at the first.
	var before []Position
	for i := len(want) - 1; i >= 0; i-- {
		if want[i].Less(head) {
			before = append(before, want[i])
		}
	}
	if !reflect.DeepEqual(prev, before) {
		t.Fatalf("PrevNotable visited %d moments, want %d\nprev %v\nwant %v", len(prev), len(before), prev, before)
	}
	if tl.Pos() != want[0] {
		t.Fatalf("PrevNotable ended at %v, want the first mark %v", tl.Pos(), want[0])
	}
}

func TestNextNotableGivesUpOnACalmCluster(t *testing.T) {
	tl := mustNew(t, testConfig(), Options{})
	tl.Advance(10_000_000) // elected and settled, nothing else happens
	here := tl.Pos()
	if m, ok := tl.NextNotable(); ok {
		t.Fatalf("found %+v in a calm cluster", m)
	}
	if tl.Pos() != here {
		t.Fatalf("moved to %v after finding nothing", tl.Pos())
	}
	if tl.Head().AtUs < here.AtUs+NextNotableHorizonUs {
		t.Fatalf("head %v: the search did not look %d µs ahead", tl.Head(), NextNotableHorizonUs)
	}
}

// Marks are gathered as the world runs, so they are exact even when each
// world keeps only a few trace events in memory.
func TestMarksDoNotDependOnTheTraceLimit(t *testing.T) {
	build := func(limit int) *Timeline {
		tl := mustNew(t, testConfig(), Options{TraceLimit: limit, CheckpointEvents: 64, DenseCheckpoints: 4})
		liveRun(t, tl, rand.New(rand.NewPCG(13, 14)), 20)
		return tl
	}
	full, tiny := build(1<<20), build(6)
	if len(full.Marks()) < 20 {
		t.Fatalf("only %d marks", len(full.Marks()))
	}
	if len(tiny.World().Trace()) > 6 {
		t.Fatalf("trace limit not applied: %d events kept", len(tiny.World().Trace()))
	}
	if !reflect.DeepEqual(full.Marks(), tiny.Marks()) {
		t.Fatalf("marks differ with a tiny trace: %d vs %d", len(full.Marks()), len(tiny.Marks()))
	}
	if full.World().TraceHash() != tiny.World().TraceHash() {
		t.Fatal("the trace limit changed the run")
	}
}

// With too many notable moments, marks are merged, and nothing is lost
// from the counts, also across a fork.
func TestMarksAreBoundedAndConserved(t *testing.T) {
	const max = 40
	var small, big *Timeline
	for _, mm := range []int{max, 1 << 20} {
		tl := mustNew(t, testConfig(), Options{MaxMarks: mm, CheckpointEvents: 64, DenseCheckpoints: 4})
		r := rand.New(rand.NewPCG(15, 16))
		for tl.Pos().AtUs < 60_000_000 {
			tl.Advance(300_000)
			mustAct(t, tl, randomAction(r, 5))
			if n := len(tl.Marks()); n > mm {
				t.Fatalf("%d marks, max %d", n, mm)
			}
		}
		if mm == max {
			small = tl
		} else {
			big = tl
		}
	}
	if !reflect.DeepEqual(kindsOf(small.Marks()), kindsOf(big.Marks())) {
		t.Fatalf("merging lost moments: %v vs %v", kindsOf(small.Marks()), kindsOf(big.Marks()))
	}
	merged := 0
	for i, m := range small.Marks() {
		if m.Count > 1 {
			merged++
			if !m.At.Less(m.End) {
				t.Fatalf("merged mark %+v", m)
			}
		}
		if i > 0 && m.seq <= small.Marks()[i-1].seq {
			t.Fatal("marks out of order")
		}
	}
	if merged == 0 {
		t.Fatal("nothing was merged")
	}
	// Fork both in the middle of a merged mark: the counts still agree.
	forkAt := int64(-1)
	for _, m := range small.Marks() {
		if m.Count > 2 && m.End.AtUs-m.At.AtUs > 2 && m.At.AtUs > 10_000_000 {
			forkAt = (m.At.AtUs + m.End.AtUs) / 2
			break
		}
	}
	if forkAt < 0 {
		t.Fatal("no merged mark to fork inside")
	}
	for _, tl := range []*Timeline{small, big} {
		tl.SeekTime(forkAt)
		mustAct(t, tl, raftcore.Action{Do: raftcore.DoWrite, Node: 3, Key: "x", Value: "y"})
		tl.Advance(3_000_000)
	}
	if !reflect.DeepEqual(kindsOf(small.Marks()), kindsOf(big.Marks())) {
		t.Fatalf("after a fork: %v vs %v", kindsOf(small.Marks()), kindsOf(big.Marks()))
	}
	for _, m := range small.Marks() {
		if small.Head().Less(m.End) {
			t.Fatalf("mark %+v reaches past the fork's head %v", m, small.Head())
		}
	}
}

// TestControllerMarksLetTheReaderFindTheStaleRead: each controller request
// is a client mark naming the controller and the revision it read or made,
// and seeking to the late writer's read shows it thinking about a revision
// the other controller is about to replace.
func TestControllerMarksLetTheReaderFindTheStaleRead(t *testing.T) {
	cfg := testConfig()
	cfg.Nodes, cfg.Names = 3, []string{"A", "B", "C"}
	tl := mustNew(t, cfg, Options{})
	mustAct(t, tl, raftcore.Action{Do: raftcore.DoTimeout, Node: 1})
	tl.Advance(1_000_000)
	mustAct(t, tl, raftcore.Action{Do: raftcore.DoWrite, Node: 1, Key: "obj", Value: "replicas=2"})
	tl.Advance(1_000_000)
	mustAct(t, tl, raftcore.Action{Do: raftcore.DoControl, Node: 2, Key: "obj", Change: "replicas+1", ThinkMs: 900, Cas: true})
	tl.Advance(300_000)
	mustAct(t, tl, raftcore.Action{Do: raftcore.DoControl, Node: 3, Key: "obj", Change: "image=web:2", ThinkMs: 100, Cas: true})
	tl.Advance(3_000_000)

	marks := tl.Marks()
	read, ok := findMark(marks, MarkClient, opMark(2, true, func(op raftcore.Op) bool {
		return op.Controller == 1 && op.Kind == raftcore.DoRead && op.Mode == raftcore.ReadLinearizable && op.ReadValue == "replicas=2" && op.ReadRev == 2
	}))
	if !ok {
		t.Fatalf("no mark for the scaler's first read in %+v", marks)
	}
	_, ok = findMark(marks, MarkClient, opMark(3, true, func(op raftcore.Op) bool {
		return op.Controller == 2 && op.Value == "replicas=2 image=web:2" && op.Cas && op.IfRev == 2 && op.Result == raftcore.OpOK && op.Index == 3
	}))
	if !ok {
		t.Fatal("no mark for the deployer's swap")
	}
	_, ok = findMark(marks, MarkClient, opMark(2, true, func(op raftcore.Op) bool {
		return op.Controller == 1 && op.Value == "replicas=3" && op.IfRev == 2 && op.Result == raftcore.OpConflict && op.FoundRev == 3
	}))
	if !ok {
		t.Fatal("no mark for the scaler's failed swap")
	}
	if _, ok = findMark(marks, MarkFault, actionMark(func(a raftcore.Action) bool { return a.Do == raftcore.DoControl })); ok {
		t.Error("a controller's start is told by its first read's mark")
	}

	tl.SeekTo(read.At)
	c, _ := tl.World().Controller(1)
	if c.State != raftcore.ControllerThinking {
		t.Errorf("at its read's mark the scaler is %s, not thinking", c.State)
	}
}
