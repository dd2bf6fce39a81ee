package raftcore

// Conformance with etcd-io/raft. Each test drives an etcd cluster (RawNodes
// over MemoryStorage) and a raftcore World side by side through the same
// hand-driven transcript: elections are started by hand, proposals are made,
// and messages are delivered or dropped one at a time, the same message on
// both sides. After every step the two clusters must agree on each machine's
// term, vote, role, leader, commit and applied indexes, log (index, term and
// whether an entry is the empty one or which data it carries), the leader's
// view of every follower (match, next, probe/replicate, paused, recently
// active, appends in flight), and every message waiting on every link.
//
// Known, intended differences, which the transcripts stay clear of:
//
//   - Restarts and snapshots. The etcd side plays the etcd server's part
//     (conformance_snapshot_test.go): it takes a snapshot into its
//     MemoryStorage once more than snapshotCount entries were applied since
//     the last, compacts it keeping catchUp entries, applies a snapshot a
//     Ready hands it, reports a snapshot's delivery or loss to the leader
//     (ReportSnapshot), and restarts a machine as a new RawNode over the
//     same storage, applied from its snapshot. Transcripts that do none of
//     this run raftcore with snapshots off, as etcd's side never takes one.
//   - Time. etcd counts ticks that its host calls; a raftcore World turns
//     virtual time into ticks. Here raftcore machines are ticked directly,
//     one tick per etcd Tick().
//   - Election timeouts. etcd draws them from crypto/rand, raftcore from the
//     world's seed, so no transcript lets a follower's timer fire by itself
//     (followers are never ticked ElectionTick times in a row). Elections
//     start by hand: Campaign() on etcd, the "timeout" action on raftcore.
//     The timeout action zeroes the election timer; Campaign() leaves it
//     running while the machine is a pre-candidate. Only a later tick could
//     tell the two apart, and no transcript ticks a pre-candidate.
//   - Messages to self. etcd routes a candidate's own vote and a leader's own
//     append acknowledgement through its storage loop as messages to itself;
//     raftcore counts them directly. Self-addressed messages are left out of
//     the comparison.
//   - Storage. The etcd side persists every Ready before anything else
//     happens, so its log and HardState are always durable when compared.
//   - Read-only requests and their heartbeat contexts are not exercised.
//   - Leadership transfer is asked of the leader itself: etcd keeps the
//     transferee in From of a forwarded MsgTransferLeader, where raftcore's
//     From is always the sender (it names the transferee in Origin).

import (
	"fmt"
	"math"
	"strings"
	"testing"

	etcdraft "go.etcd.io/raft/v3"
	"go.etcd.io/raft/v3/raftpb"
	"go.etcd.io/raft/v3/tracker"
)

// quietLogger discards etcd's logging but keeps its panics.
type quietLogger struct{}

func (quietLogger) Debug(...any)            {}
func (quietLogger) Debugf(string, ...any)   {}
func (quietLogger) Error(...any)            {}
func (quietLogger) Errorf(string, ...any)   {}
func (quietLogger) Info(...any)             {}
func (quietLogger) Infof(string, ...any)    {}
func (quietLogger) Warning(...any)          {}
func (quietLogger) Warningf(string, ...any) {}
func (quietLogger) Fatal(v ...any)          { panic(fmt.Sprint(v...)) }
func (quietLogger) Fatalf(f string, v ...any) {
	panic(fmt.Sprintf(f, v...))
}
func (quietLogger) Panic(v ...any)            { panic(fmt.Sprint(v...)) }
func (quietLogger) Panicf(f string, v ...any) { panic(fmt.Sprintf(f, v...)) }

// memberStorage is a MemoryStorage that reports a fixed set of voters, so an
// etcd cluster starts with an empty log, as a raftcore cluster does, instead
// of with the configuration entries Bootstrap would append.
type memberStorage struct {
	*etcdraft.MemoryStorage
	voters []uint64
}

func (s memberStorage) InitialState() (raftpb.HardState, raftpb.ConfState, error) {
	hs, _, err := s.MemoryStorage.InitialState()
	return hs, raftpb.ConfState{Voters: s.voters}, err
}

// clusterOpts are the settings both implementations are built with.
type clusterOpts struct {
	nodes int
	// members is how many of the machines are voters at the start
	// (0: all); the others are spares.
	members     int
	preVote     bool
	checkQuorum bool
	// maxInflight bounds appends in flight per follower (0 means 256).
	maxInflight int
	// oneEntryPerMsg limits each append to a single entry (etcd: a size limit
	// of one byte still sends one entry).
	oneEntryPerMsg bool
	// snapshotCount and catchUp are the etcd server's --snapshot-count
	// and catch-up entries (0 snapshotCount: no snapshots).
	snapshotCount, catchUp int
}

func (o clusterOpts) String() string {
	return fmt.Sprintf("n%d/prevote=%v/checkquorum=%v", o.nodes, o.preVote, o.checkQuorum)
}

func (o clusterOpts) inflight() int {
	if o.maxInflight == 0 {
		return 256
	}
	return o.maxInflight
}

func (o clusterOpts) voters() int {
	if o.members == 0 {
		return o.nodes
	}
	return o.members
}

func (o clusterOpts) voterIDs() []uint64 {
	voters := make([]uint64, o.voters())
	for i := range voters {
		voters[i] = uint64(i + 1)
	}
	return voters
}

func newEtcdNode(id uint64, o clusterOpts) (*etcdraft.RawNode, *etcdraft.MemoryStorage) {
	ms := etcdraft.NewMemoryStorage()
	return startEtcdNode(id, o, ms, 0), ms
}

// startEtcdNode makes machine id's RawNode over storage ms, which is empty
// or, on a restart, holds what the machine persisted; applied is what its
// state machine holds (its snapshot's index).
func startEtcdNode(id uint64, o clusterOpts, ms *etcdraft.MemoryStorage, applied uint64) *etcdraft.RawNode {
	voters := o.voterIDs()
	size := uint64(math.MaxUint64)
	if o.oneEntryPerMsg {
		size = 1
	}
	rn, err := etcdraft.NewRawNode(&etcdraft.Config{
		ID:              id,
		ElectionTick:    10,
		HeartbeatTick:   1,
		Storage:         memberStorage{ms, voters},
		MaxSizePerMsg:   size,
		MaxInflightMsgs: o.inflight(),
		PreVote:         o.preVote,
		CheckQuorum:     o.checkQuorum,
		// raftcore's leader steps down when it applies its own removal.
		StepDownOnRemoval: true,
		Logger:            quietLogger{},
		Applied:           applied,
	})
	if err != nil {
		panic(err)
	}
	return rn
}

// etcdPump is an etcd cluster with an in-memory network: ready persists
// what a machine produced and queues its messages; the caller delivers them.
type etcdPump struct {
	o       clusterOpts
	rns     []*etcdraft.RawNode
	stores  []*etcdraft.MemoryStorage
	applied []uint64
	queue   []raftpb.Message
}

func newEtcdPump(o clusterOpts) *etcdPump {
	p := &etcdPump{
		o:       o,
		rns:     make([]*etcdraft.RawNode, o.nodes+1),
		stores:  make([]*etcdraft.MemoryStorage, o.nodes+1),
		applied: make([]uint64, o.nodes+1),
	}
	for id := 1; id <= o.nodes; id++ {
		p.rns[id], p.stores[id] = newEtcdNode(uint64(id), o)
	}
	return p
}

// ready persists, applies and queues what machine id produced.
func (p *etcdPump) ready(id int) {
	rn, ms := p.rns[id], p.stores[id]
	for rn.HasReady() {
		rd := rn.Ready()
		if !etcdraft.IsEmptyHardState(rd.HardState) {
			if err := ms.SetHardState(rd.HardState); err != nil {
				panic(err)
			}
		}
		if !etcdraft.IsEmptySnap(rd.Snapshot) {
			if err := ms.ApplySnapshot(rd.Snapshot); err != nil {
				panic(err)
			}
			p.applied[id] = rd.Snapshot.Metadata.Index
		}
		if err := ms.Append(rd.Entries); err != nil {
			panic(err)
		}
		for _, e := range rd.CommittedEntries {
			if e.Type == raftpb.EntryConfChangeV2 {
				var cc raftpb.ConfChangeV2
				if err := cc.Unmarshal(e.Data); err != nil {
					panic(err)
				}
				rn.ApplyConfChange(cc)
			}
		}
		if n := len(rd.CommittedEntries); n > 0 {
			p.applied[id] = rd.CommittedEntries[n-1].Index
			p.maybeSnapshot(id)
		}
		p.queue = append(p.queue, rd.Messages...)
		rn.Advance(rd)
	}
}

func newConformanceWorld(o clusterOpts) *World {
	cfg := DefaultConfig()
	cfg.Nodes = o.nodes
	cfg.Members = o.members
	cfg.PreVote, cfg.CheckQuorum = o.preVote, o.checkQuorum
	cfg.ElectionTicks, cfg.HeartbeatTicks = 10, 1
	cfg.MaxInflight = o.inflight()
	if o.oneEntryPerMsg {
		cfg.MaxEntriesPerMsg = 1
	}
	cfg.SnapshotCount, cfg.CatchUpEntries = o.snapshotCount, o.catchUp
	return MustWorld(cfg)
}

// lockstep holds the two clusters and the messages waiting on their links.
type lockstep struct {
	t     *testing.T
	o     clusterOpts
	etcd  *etcdPump // its queue holds etcd's messages waiting, in send order
	w     *World
	rq    []Message // raftcore messages waiting, in send order
	cut   [][]bool  // cut[a][b]: the transcript drops messages from a to b
	steps []string  // the transcript so far, for failure reports
	// rejects counts rejected appends delivered, so that transcripts about
	// repair can check they still exercise it.
	rejects int
	// states are the progress states raftcore's leaders were seen in
	// (the comparison shows etcd's were the same).
	states map[ProgressState]bool
}

func newLockstep(t *testing.T, o clusterOpts) *lockstep {
	t.Helper()
	h := &lockstep{t: t, o: o, etcd: newEtcdPump(o), w: newConformanceWorld(o), states: map[ProgressState]bool{}}
	h.cut = make([][]bool, o.nodes+1)
	for id := 1; id <= o.nodes; id++ {
		h.cut[id] = make([]bool, o.nodes+1)
	}
	h.settle("start")
	return h
}

// settle persists and collects everything both sides produced, then compares.
func (h *lockstep) settle(step string) {
	h.t.Helper()
	h.steps = append(h.steps, step)
	h.pumpEtcd()
	h.collectRaftcore()
	h.compare()
}

// pumpEtcd runs each machine's Ready loop.
func (h *lockstep) pumpEtcd() {
	for id := 1; id <= h.o.nodes; id++ {
		h.etcd.ready(id)
	}
}

// collectRaftcore takes every message the world put on the wire off its
// event queue, so that the transcript alone decides what arrives. Other
// events (ticks, client timeouts) stay queued and never run: the world's
// clock does not move.
func (h *lockstep) collectRaftcore() {
	var keep []event
	var got []Message
	for _, e := range h.w.queue {
		switch e.kind {
		case evDeliver:
			got = append(got, e.msg)
		case evFree:
		default:
			keep = append(keep, e)
		}
	}
	h.w.queue, h.w.order, h.w.free = nil, nil, nil
	for _, e := range keep {
		h.w.enqueue(e)
	}
	sortMessages(got)
	h.rq = append(h.rq, got...)
}

// confMsg is a message in a form both implementations can be compared in.
type confMsg struct {
	typ                  MsgType
	from, to             uint64
	term, logTerm, index uint64
	commit, rejectHint   uint64
	reject               bool
	entries              string
	snap                 string // a snapshot's index/term
}

func (m confMsg) String() string {
	s := fmt.Sprintf("%d->%d %s term=%d", m.from, m.to, m.typ, m.term)
	switch m.typ {
	case MsgApp:
		s += fmt.Sprintf(" prev=%d/%d commit=%d [%s]", m.index, m.logTerm, m.commit, m.entries)
	case MsgAppResp:
		s += fmt.Sprintf(" index=%d", m.index)
		if m.reject {
			s += fmt.Sprintf(" reject hint=%d/%d", m.rejectHint, m.logTerm)
		}
	case MsgVote, MsgPreVote:
		s += fmt.Sprintf(" last=%d/%d", m.index, m.logTerm)
	case MsgVoteResp, MsgPreVoteResp:
		if m.reject {
			s += " reject"
		}
	case MsgHeartbeat:
		s += fmt.Sprintf(" commit=%d", m.commit)
	case MsgProp:
		s += " [" + m.entries + "]"
	case MsgSnap:
		s += " snapshot=" + m.snap
	}
	return s
}

var confEtcdTypes = map[raftpb.MessageType]MsgType{
	raftpb.MsgPreVote:       MsgPreVote,
	raftpb.MsgPreVoteResp:   MsgPreVoteResp,
	raftpb.MsgVote:          MsgVote,
	raftpb.MsgVoteResp:      MsgVoteResp,
	raftpb.MsgApp:           MsgApp,
	raftpb.MsgAppResp:       MsgAppResp,
	raftpb.MsgHeartbeat:     MsgHeartbeat,
	raftpb.MsgHeartbeatResp: MsgHeartbeatResp,
	raftpb.MsgProp:          MsgProp,
	raftpb.MsgTimeoutNow:    MsgTimeoutNow,
	raftpb.MsgSnap:          MsgSnap,
}

func confEtcdEntry(e raftpb.Entry) string {
	if e.Type == raftpb.EntryConfChangeV2 {
		return fmt.Sprintf("%d/%d:%s", e.Index, e.Term, confEtcdChange(e.Data))
	}
	if e.Type != raftpb.EntryNormal {
		return fmt.Sprintf("%d/%d:%s", e.Index, e.Term, e.Type)
	}
	data := Command{}.String() // the empty entry
	if len(e.Data) > 0 {
		data = string(e.Data)
	}
	return fmt.Sprintf("%d/%d:%s", e.Index, e.Term, data)
}

func confEntry(e Entry) string {
	return fmt.Sprintf("%d/%d:%s", e.Index, e.Term, e.Data)
}

func (h *lockstep) etcdMsg(m raftpb.Message) confMsg {
	typ, ok := confEtcdTypes[m.Type]
	if !ok {
		h.fail(fmt.Sprintf("etcd sent a %s, which no transcript expects", m.Type))
	}
	ents := make([]string, len(m.Entries))
	for i, e := range m.Entries {
		ents[i] = confEtcdEntry(e)
	}
	c := confMsg{typ: typ, from: m.From, to: m.To, term: m.Term, logTerm: m.LogTerm, index: m.Index,
		commit: m.Commit, rejectHint: m.RejectHint, reject: m.Reject, entries: strings.Join(ents, " ")}
	if m.Snapshot != nil {
		c.snap = fmt.Sprintf("%d/%d", m.Snapshot.Metadata.Index, m.Snapshot.Metadata.Term)
	}
	return c
}

func confRaftcoreMsg(m Message) confMsg {
	ents := make([]string, len(m.Entries))
	for i, e := range m.Entries {
		ents[i] = confEntry(e)
	}
	c := confMsg{typ: m.Type, from: uint64(m.From), to: uint64(m.To), term: m.Term, logTerm: m.LogTerm, index: m.Index,
		commit: m.Commit, rejectHint: m.RejectHint, reject: m.Reject, entries: strings.Join(ents, " ")}
	if m.Snapshot != nil {
		c.snap = fmt.Sprintf("%d/%d", m.Snapshot.Index, m.Snapshot.Term)
	}
	return c
}

// confLinks lists the waiting messages link by link (ordered by sender, then
// receiver), each link in send order. The two implementations may interleave
// sends to different machines differently; on one link the order matters.
func confLinks(ws []confMsg) []string {
	var out []string
	for from := uint64(1); from <= MaxNodes; from++ {
		for to := uint64(1); to <= MaxNodes; to++ {
			for _, m := range ws {
				if m.from == from && m.to == to {
					out = append(out, m.String())
				}
			}
		}
	}
	return out
}

func (h *lockstep) etcdMsgs() []confMsg {
	var ws []confMsg
	for _, m := range h.etcd.queue {
		ws = append(ws, h.etcdMsg(m))
	}
	return ws
}

func (h *lockstep) raftcoreMsgs() []confMsg {
	var ws []confMsg
	for _, m := range h.rq {
		ws = append(ws, confRaftcoreMsg(m))
	}
	return ws
}

var confEtcdRoles = map[etcdraft.StateType]Role{
	etcdraft.StateFollower:     RoleFollower,
	etcdraft.StatePreCandidate: RolePreCandidate,
	etcdraft.StateCandidate:    RoleCandidate,
	etcdraft.StateLeader:       RoleLeader,
}

// confView is one machine's state as the comparison sees it.
type confView struct {
	term, commit, applied uint64
	vote, lead            uint64
	role                  Role
	log                   []string
	conf                  string
	progress              []string // a leader's view of each machine
}

func (v confView) lines() []string {
	out := []string{
		fmt.Sprintf("term=%d vote=%d role=%s lead=%d commit=%d applied=%d", v.term, v.vote, v.role, v.lead, v.commit, v.applied),
		"log: " + strings.Join(v.log, " "),
		"configuration: " + v.conf,
	}
	return append(out, v.progress...)
}

func confProgress(id uint64, state ProgressState, match, next uint64, paused, active bool, inflight int) string {
	return fmt.Sprintf("progress %d: %s match=%d next=%d paused=%v active=%v inflight=%d", id, state, match, next, paused, active, inflight)
}

func (h *lockstep) etcdView(id int) confView {
	st := h.etcd.rns[id].Status()
	v := confView{term: st.Term, commit: st.Commit, applied: st.Applied, vote: st.Vote, lead: st.Lead, role: confEtcdRoles[st.RaftState],
		conf: st.Config.String()}
	ms := h.etcd.stores[id]
	last, _ := ms.LastIndex()
	first, _ := ms.FirstIndex()
	if last >= first {
		ents, err := ms.Entries(first, last+1, math.MaxUint64)
		if err != nil {
			h.t.Fatal(err)
		}
		for _, e := range ents {
			v.log = append(v.log, confEtcdEntry(e))
		}
	}
	if st.RaftState == etcdraft.StateLeader {
		for pid := uint64(1); pid <= uint64(h.o.nodes); pid++ {
			pr, ok := st.Progress[pid]
			if !ok {
				continue
			}
			state := ProgressProbe
			switch pr.State {
			case tracker.StateReplicate:
				state = ProgressReplicate
			case tracker.StateSnapshot:
				state = ProgressSnapshot
			}
			v.progress = append(v.progress, confProgress(pid, state, pr.Match, pr.Next, pr.IsPaused(), pr.RecentActive, pr.Inflights.Count()))
		}
	}
	return v
}

func (h *lockstep) raftcoreView(id int) confView {
	n := h.w.Node(NodeID(id))
	// etcd's Status drops AutoLeave when it copies the configuration, so
	// the comparison leaves it out.
	c := n.conf
	c.autoLeave = false
	v := confView{term: n.term, commit: n.commit, applied: n.applied, vote: uint64(n.vote), lead: uint64(n.lead), role: n.role,
		conf: c.String()}
	for _, e := range n.log.entries {
		v.log = append(v.log, confEntry(e))
	}
	if n.role == RoleLeader {
		for pid := 1; pid <= h.o.nodes; pid++ {
			if !n.conf.members().has(NodeID(pid)) {
				continue
			}
			pr := n.prs[pid]
			h.states[pr.State] = true
			v.progress = append(v.progress, confProgress(uint64(pid), pr.State, pr.Match, pr.Next, pr.isPaused(), pr.RecentActive, len(pr.inflight)))
		}
	}
	return v
}

// compare fails the test at the first difference between the two clusters.
func (h *lockstep) compare() {
	h.t.Helper()
	var diffs []string
	for id := 1; id <= h.o.nodes; id++ {
		diffs = append(diffs, confDiff(fmt.Sprintf("machine %d", id), h.etcdView(id).lines(), h.raftcoreView(id).lines())...)
	}
	diffs = append(diffs, confDiff("confMsg", confLinks(h.etcdMsgs()), confLinks(h.raftcoreMsgs()))...)
	if v := h.w.Violations(); len(v) > 0 {
		diffs = append(diffs, fmt.Sprintf("raftcore checker: %s: %s", v[0].Rule, v[0].Text))
	}
	if len(diffs) > 0 {
		h.fail(strings.Join(diffs, "\n"))
	}
}

func confDiff(what string, etcd, rc []string) []string {
	var out []string
	for i := 0; i < len(etcd) || i < len(rc); i++ {
		var e, r string
		if i < len(etcd) {
			e = etcd[i]
		}
		if i < len(rc) {
			r = rc[i]
		}
		if e != r {
			out = append(out, fmt.Sprintf("%s:\n    etcd:     %s\n    raftcore: %s", what, e, r))
		}
	}
	return out
}

func (h *lockstep) fail(why string) {
	h.t.Helper()
	steps := h.steps
	if len(steps) > 25 {
		steps = steps[len(steps)-25:]
	}
	h.t.Fatalf("%s: etcd and raftcore differ after: %s\n%s\nlast steps:\n  %s", h.o, h.steps[len(h.steps)-1], why, strings.Join(steps, "\n  "))
}

// Transcript actions.

// campaign starts an election at id: Campaign() on etcd, the timeout action
// on raftcore.
func (h *lockstep) campaign(id int) {
	h.t.Helper()
	if err := h.etcd.rns[id].Campaign(); err != nil {
		h.t.Fatal(err)
	}
	if err := h.w.Apply(Action{Do: DoTimeout, Node: id}); err != nil {
		h.t.Fatal(err)
	}
	h.settle(fmt.Sprintf("campaign %d", id))
}

// tick advances id's logical clock by one tick on both sides.
func (h *lockstep) tick(id int) {
	h.t.Helper()
	h.etcd.rns[id].Tick()
	before := h.w.capture(NodeID(id))
	h.w.nodes[id].tick()
	h.w.afterStep(NodeID(id), before)
	h.settle(fmt.Sprintf("tick %d", id))
}

// propose asks machine id to add key=value: Propose on etcd, a client write
// on raftcore. It reports whether the machine took the proposal (appended or
// forwarded it) and fails if the two disagree.
func (h *lockstep) propose(id int, key, value string) bool {
	h.t.Helper()
	eok := h.etcd.rns[id].Propose([]byte(key+"="+value)) == nil
	if err := h.w.Apply(Action{Do: DoWrite, Node: id, Key: key, Value: value}); err != nil {
		h.t.Fatal(err)
	}
	ops := h.w.Ops()
	rok := ops[len(ops)-1].Result != OpRefused
	h.settle(fmt.Sprintf("propose %s=%s at %d", key, value, id))
	if eok != rok {
		h.fail(fmt.Sprintf("etcd took the proposal: %v; raftcore took it: %v", eok, rok))
	}
	return eok
}

// next returns the positions of the oldest message from->to on each side.
func (h *lockstep) next(from, to int) (int, int, bool) {
	ei, ri := -1, -1
	for i, m := range h.etcd.queue {
		if m.From == uint64(from) && m.To == uint64(to) {
			ei = i
			break
		}
	}
	for i, m := range h.rq {
		if m.From == NodeID(from) && m.To == NodeID(to) {
			ri = i
			break
		}
	}
	if (ei < 0) != (ri < 0) {
		h.fail(fmt.Sprintf("a message %d->%d waits on one side only", from, to))
	}
	return ei, ri, ei >= 0
}

// deliver hands the oldest message from->to to its receiver on both sides.
func (h *lockstep) deliver(from, to int) {
	h.t.Helper()
	ei, ri, ok := h.next(from, to)
	if !ok {
		h.fail(fmt.Sprintf("transcript delivers %d->%d, but nothing waits there", from, to))
	}
	em, rm := h.etcd.queue[ei], h.rq[ri]
	h.etcd.queue = append(h.etcd.queue[:ei], h.etcd.queue[ei+1:]...)
	h.rq = append(h.rq[:ri], h.rq[ri+1:]...)
	// A proposal that reaches a machine without a leader is dropped by
	// both, and so is an answer from a machine outside the configuration;
	// etcd reports each as an error, which is expected here.
	if err := h.etcd.rns[to].Step(em); err != nil && err != etcdraft.ErrProposalDropped && err != etcdraft.ErrStepPeerNotFound {
		h.t.Fatal(err)
	}
	h.w.deliver(rm)
	if rm.Type == MsgSnap {
		// The transport reports the snapshot delivered, as etcd's does
		// once it is sent (raftcore's world reported it in deliver).
		h.etcd.rns[from].ReportSnapshot(uint64(to), etcdraft.SnapshotFinish)
	}
	if rm.Type == MsgAppResp && rm.Reject {
		h.rejects++
	}
	h.settle("deliver " + confRaftcoreMsg(rm).String())
}

// drop loses the oldest message from->to on both sides.
func (h *lockstep) drop(from, to int) {
	h.t.Helper()
	ei, ri, ok := h.next(from, to)
	if !ok {
		h.fail(fmt.Sprintf("transcript drops %d->%d, but nothing waits there", from, to))
	}
	rm := h.rq[ri]
	h.etcd.queue = append(h.etcd.queue[:ei], h.etcd.queue[ei+1:]...)
	h.rq = append(h.rq[:ri], h.rq[ri+1:]...)
	if rm.Type == MsgSnap {
		// A lost snapshot is reported to its sender on both sides.
		h.etcd.rns[from].ReportSnapshot(uint64(to), etcdraft.SnapshotFailure)
		h.w.reportSnapshot(rm, true)
	}
	h.settle("drop " + confRaftcoreMsg(rm).String())
}

// dropAll loses every message waiting from->to (to 0: to anyone).
func (h *lockstep) dropAll(from, to int) {
	h.t.Helper()
	for t := 1; t <= h.o.nodes; t++ {
		if to != 0 && t != to {
			continue
		}
		for {
			if _, _, ok := h.next(from, t); !ok {
				break
			}
			h.drop(from, t)
		}
	}
}

// waiting counts the messages waiting from->to.
func (h *lockstep) waiting(from, to int) int {
	c := 0
	for _, m := range h.rq {
		if m.From == NodeID(from) && m.To == NodeID(to) {
			c++
		}
	}
	return c
}

// partition cuts every link between different groups; machines in no group
// are each cut off alone.
func (h *lockstep) partition(groups ...[]int) {
	h.t.Helper()
	g := make([]int, h.o.nodes+1)
	for gi, grp := range groups {
		for _, id := range grp {
			g[id] = gi + 1
		}
	}
	for id := 1; id <= h.o.nodes; id++ {
		if g[id] == 0 {
			g[id] = len(groups) + id
		}
	}
	for a := 1; a <= h.o.nodes; a++ {
		for b := 1; b <= h.o.nodes; b++ {
			h.cut[a][b] = g[a] != g[b]
		}
	}
	h.steps = append(h.steps, fmt.Sprintf("partition %v", groups))
}

func (h *lockstep) heal() {
	for a := range h.cut {
		for b := range h.cut[a] {
			h.cut[a][b] = false
		}
	}
	h.steps = append(h.steps, "heal")
}

// flush delivers waiting messages, oldest first (in etcd's send order),
// until none is left; messages on cut links are dropped.
func (h *lockstep) flush() {
	h.t.Helper()
	for i := 0; len(h.etcd.queue) > 0; i++ {
		if i > 10000 {
			h.fail("messages kept flowing after 10000 deliveries")
		}
		from, to := int(h.etcd.queue[0].From), int(h.etcd.queue[0].To)
		if h.cut[from][to] {
			h.drop(from, to)
		} else {
			h.deliver(from, to)
		}
	}
	if len(h.rq) > 0 {
		h.fail("raftcore still has messages waiting after etcd's were all handled")
	}
}

// Expectations on the outcome, checked on raftcore (the comparison has
// already shown etcd to be in the same state).

func (h *lockstep) expectLeader(id int, term uint64) {
	h.t.Helper()
	for i := 1; i <= h.o.nodes; i++ {
		n := h.w.Node(NodeID(i))
		if i == id && (n.Role() != RoleLeader || n.Term() != term) {
			h.t.Fatalf("%s: want machine %d leader of term %d, it is %s of term %d", h.o, id, term, n.Role(), n.Term())
		}
		if i != id && n.Role() == RoleLeader && n.Term() == term {
			h.t.Fatalf("%s: machine %d also leads term %d", h.o, i, term)
		}
	}
}

func (h *lockstep) expectRole(id int, role Role, term uint64) {
	h.t.Helper()
	n := h.w.Node(NodeID(id))
	if n.Role() != role || n.Term() != term {
		h.t.Fatalf("%s: want machine %d %s at term %d, it is %s at term %d", h.o, id, role, term, n.Role(), n.Term())
	}
}

// expectLog checks id's log, written as "term:data" per entry ("" data for
// the empty entry), and its commit index.
func (h *lockstep) expectLog(id int, commit uint64, ents ...string) {
	h.t.Helper()
	n := h.w.Node(NodeID(id))
	var got []string
	for _, e := range n.log.entries { // the entries after any snapshot
		d := ""
		if e.Data.Kind != OpNoop {
			d = e.Data.String()
		}
		got = append(got, fmt.Sprintf("%d:%s", e.Term, d))
	}
	if strings.Join(got, " ") != strings.Join(ents, " ") || n.Commit() != commit {
		h.t.Fatalf("%s: machine %d: want log [%s] commit %d, got [%s] commit %d", h.o, id, strings.Join(ents, " "), commit, strings.Join(got, " "), n.Commit())
	}
}

// confAllSettings runs a transcript under each PreVote/CheckQuorum setting.
func confAllSettings(t *testing.T, nodes int, f func(t *testing.T, o clusterOpts)) {
	for _, pv := range []bool{false, true} {
		for _, cq := range []bool{false, true} {
			o := clusterOpts{nodes: nodes, preVote: pv, checkQuorum: cq}
			t.Run(o.String(), func(t *testing.T) { f(t, o) })
		}
	}
}

// The transcripts.

func TestConformanceElectAndPropose(t *testing.T) {
	for _, nodes := range []int{3, 5} {
		confAllSettings(t, nodes, func(t *testing.T, o clusterOpts) {
			h := newLockstep(t, o)
			// Nobody leads yet: a proposal is refused everywhere.
			if h.propose(2, "early", "1") {
				t.Fatal("a proposal was taken before any election")
			}
			h.campaign(1)
			h.flush()
			h.expectLeader(1, 1)
			for id := 1; id <= nodes; id++ {
				h.expectLog(id, 1, "1:")
			}
			// At the leader, and at a follower, which forwards it.
			h.propose(1, "a", "1")
			h.propose(nodes, "b", "2")
			h.flush()
			for id := 1; id <= nodes; id++ {
				h.expectLog(id, 3, "1:", "1:a=1", "1:b=2")
			}
			// A few heartbeat rounds change nothing but the timers.
			for i := 0; i < 3; i++ {
				h.tick(1)
				h.flush()
			}
			h.expectLeader(1, 1)
		})
	}
}

// A proposal forwarded by a follower, followed message by message.
func TestConformanceForwardedProposal(t *testing.T) {
	confAllSettings(t, 3, func(t *testing.T, o clusterOpts) {
		h := newLockstep(t, o)
		h.campaign(1)
		h.flush()
		h.propose(3, "k", "v")
		h.deliver(3, 1) // the forwarded proposal
		h.expectLog(1, 1, "1:", "1:k=v")
		h.deliver(1, 2) // append to 2
		h.deliver(2, 1) // 2 acknowledges: a majority has the entry
		h.expectLog(1, 2, "1:", "1:k=v")
		h.expectLog(3, 1, "1:")
		h.deliver(1, 3) // the append, then the commit, reach 3
		h.deliver(1, 3)
		h.expectLog(3, 2, "1:", "1:k=v")
		h.flush()
		for id := 1; id <= 3; id++ {
			h.expectLog(id, 2, "1:", "1:k=v")
		}
	})
}

// Two candidates split the vote of five machines; a third wins the next term.
func TestConformanceSplitVote(t *testing.T) {
	for _, cq := range []bool{false, true} {
		o := clusterOpts{nodes: 5, checkQuorum: cq}
		t.Run(o.String(), func(t *testing.T) {
			h := newLockstep(t, o)
			h.campaign(1)
			h.campaign(2)
			h.deliver(1, 3) // 3 votes for 1
			h.deliver(2, 4) // 4 votes for 2
			h.dropAll(1, 5) // 5 hears from neither
			h.dropAll(2, 5)
			h.flush()
			h.expectRole(1, RoleCandidate, 1)
			h.expectRole(2, RoleCandidate, 1)
			h.campaign(3)
			h.flush()
			h.expectLeader(3, 2)
			for id := 1; id <= 5; id++ {
				h.expectLog(id, 1, "2:")
			}
		})
	}
}

// A machine cut off from the others keeps timing out. With PreVote its term
// does not move, and when it is reconnected it rejoins without disturbing
// the leader (with CheckQuorum the others ignore it while they hear from the
// leader; without, they refuse it because its log is behind).
func TestConformancePreVoteRejoin(t *testing.T) {
	for _, nodes := range []int{3, 5} {
		for _, cq := range []bool{false, true} {
			o := clusterOpts{nodes: nodes, preVote: true, checkQuorum: cq}
			t.Run(o.String(), func(t *testing.T) {
				h := newLockstep(t, o)
				h.campaign(1)
				h.flush()
				h.propose(1, "a", "1")
				h.flush()
				var rest []int
				for id := 1; id < nodes; id++ {
					rest = append(rest, id)
				}
				h.partition(rest)
				for i := 0; i < 3; i++ {
					h.campaign(nodes)
					h.flush()
					h.expectRole(nodes, RolePreCandidate, 1)
				}
				h.propose(1, "b", "2")
				h.tick(1)
				h.flush()
				h.heal()
				h.campaign(nodes)
				h.flush()
				h.expectLeader(1, 1)
				if o.checkQuorum {
					// Nobody answered: everyone heard the leader recently.
					h.expectRole(nodes, RolePreCandidate, 1)
				} else {
					h.expectRole(nodes, RoleFollower, 1)
				}
				h.tick(1)
				h.flush()
				for id := 1; id <= nodes; id++ {
					h.expectLog(id, 3, "1:", "1:a=1", "1:b=2")
					h.expectRole(id, map[bool]Role{true: RoleLeader, false: RoleFollower}[id == 1], 1)
				}
			})
		}
	}
}

// Without PreVote the cut-off machine's term climbs; on reconnecting its
// answer to a heartbeat carries that term and deposes the leader. Under
// CheckQuorum the other follower, still hearing the old leader, ignores its
// vote request, so the new election needs the rejoined machine's vote.
func TestConformanceRejoinWithoutPreVote(t *testing.T) {
	o := clusterOpts{nodes: 3, checkQuorum: true}
	h := newLockstep(t, o)
	h.campaign(1)
	h.flush()
	h.propose(1, "a", "1")
	h.flush()
	h.partition([]int{1, 2})
	h.campaign(3)
	h.flush()
	h.campaign(3)
	h.flush()
	h.expectRole(3, RoleCandidate, 3)
	h.heal()
	h.tick(1)
	h.deliver(1, 3) // the heartbeat of term 1 reaches 3, at term 3
	h.deliver(3, 1) // 3 answers with term 3: 1 steps down
	h.expectRole(1, RoleFollower, 3)
	h.flush()
	h.campaign(1)
	h.flush()
	h.expectLeader(1, 4)
	for id := 1; id <= 3; id++ {
		h.expectLog(id, 3, "1:", "1:a=1", "4:")
	}
}

// CheckQuorum: a leader that hears from no majority for an election timeout
// steps down. The first check after the election passes (the followers
// answered since), the second fails.
func TestConformanceCheckQuorumStepDown(t *testing.T) {
	for _, nodes := range []int{3, 5} {
		for _, pv := range []bool{false, true} {
			for _, cq := range []bool{false, true} {
				o := clusterOpts{nodes: nodes, preVote: pv, checkQuorum: cq}
				t.Run(o.String(), func(t *testing.T) {
					h := newLockstep(t, o)
					h.campaign(1)
					h.flush()
					// The leader keeps a minority: itself of three, itself
					// and one follower of five. Ticks stop before a
					// deposed leader's own election timer could fire.
					var minority []int
					for id := 1; id <= nodes/2; id++ {
						minority = append(minority, id)
					}
					h.partition(minority)
					for i := 1; i < 30; i++ {
						h.tick(1)
						h.flush()
						want := RoleLeader
						if cq && i >= 20 {
							want = RoleFollower
						}
						h.expectRole(1, want, 1)
					}
				})
			}
		}
	}
}

// Messages lost in flight: appends to a cut-off follower in replicate mode
// (on its return it rejects an append it cannot place and the leader backs
// up), heartbeat answers, and the answer to a candidate.
func TestConformanceDroppedMessages(t *testing.T) {
	confAllSettings(t, 3, func(t *testing.T, o clusterOpts) {
		h := newLockstep(t, o)
		h.campaign(2)
		h.flush()
		h.partition([]int{1, 2})
		for _, v := range []string{"1", "2", "3"} {
			h.propose(2, "a", v)
			h.flush()
		}
		h.expectLog(3, 1, "1:")
		h.expectLog(1, 4, "1:", "1:a=1", "1:a=2", "1:a=3")
		h.heal()
		h.propose(2, "a", "4")
		h.deliver(2, 3) // prev=4: 3 cannot place it and rejects
		h.deliver(3, 2)
		if h.rejects != 1 {
			t.Fatalf("want 3's rejection delivered, %d rejections seen", h.rejects)
		}
		h.flush()
		for id := 1; id <= 3; id++ {
			h.expectLog(id, 5, "1:", "1:a=1", "1:a=2", "1:a=3", "1:a=4")
		}
		// Heartbeat answers lost, then a heartbeat round that gets through.
		h.tick(2)
		h.deliver(2, 1)
		h.deliver(2, 3)
		h.dropAll(1, 2)
		h.dropAll(3, 2)
		h.tick(2)
		h.flush()
		h.expectLeader(2, 1)
		// 2 is cut off. 3 times out unheard, then 1 campaigns and loses
		// 3's answer (a granted pre-vote, or a refusal: 3 voted for itself).
		h.partition([]int{1, 3})
		h.campaign(3)
		h.dropAll(3, 0)
		h.campaign(1)
		h.dropAll(1, 2)
		h.deliver(1, 3)
		h.dropAll(3, 1)
		if h.w.Node(1).Role() == RoleLeader {
			t.Fatal("1 won an election without hearing a vote")
		}
		h.campaign(1)
		h.flush()
		term := h.w.Node(1).Term()
		h.expectLeader(1, term)
		h.heal()
		h.tick(1)
		h.flush()
		for id := 1; id <= 3; id++ {
			h.expectRole(id, map[bool]Role{true: RoleLeader, false: RoleFollower}[id == 1], term)
		}
	})
}

// Log repair after leader changes. An old leader's uncommitted entry is
// replaced by a later leader's, first on a follower that rejects the new
// leader's append (the rejection hint lets the leader skip back a whole
// term), then on the old leader itself once it is reconnected.
func TestConformanceLogRepair(t *testing.T) {
	for _, cq := range []bool{false, true} {
		o := clusterOpts{nodes: 5, preVote: true, checkQuorum: cq}
		t.Run(o.String(), func(t *testing.T) {
			h := newLockstep(t, o)
			// expire makes machines give up on the leader they knew: each
			// times out, and nobody hears its request.
			expire := func(ids ...int) {
				for _, id := range ids {
					h.campaign(id)
					h.dropAll(id, 0)
				}
			}
			h.campaign(1)
			h.flush()
			h.propose(1, "a", "1")
			h.flush()
			// Term 1: the leader and one follower take x, a minority.
			h.partition([]int{1, 2}, []int{3, 4, 5})
			h.propose(1, "x", "1")
			h.flush()
			h.expectLog(2, 2, "1:", "1:a=1", "1:x=1")
			// Term 2: the majority side elects 3, which commits p and q.
			expire(4, 5)
			h.campaign(3)
			h.flush()
			h.expectLeader(3, 2)
			h.propose(3, "p", "1")
			h.propose(4, "q", "1")
			h.flush()
			h.expectLog(3, 5, "1:", "1:a=1", "2:", "2:p=1", "2:q=1")
			// Term 3: 4 is elected by 2, 4 and 5; 2's x conflicts.
			h.partition([]int{1}, []int{3}, []int{2, 4, 5})
			expire(2, 5)
			h.campaign(4)
			for h.waiting(4, 2)+h.waiting(2, 4) > 0 || h.waiting(4, 5)+h.waiting(5, 4) > 0 {
				if h.waiting(4, 2) > 0 {
					h.deliver(4, 2)
				}
				if h.waiting(2, 4) > 0 {
					h.deliver(2, 4)
				}
				if h.waiting(4, 5) > 0 {
					h.deliver(4, 5)
				}
				if h.waiting(5, 4) > 0 {
					h.deliver(5, 4)
				}
			}
			h.flush()
			h.expectLeader(4, 3)
			if h.rejects != 1 {
				t.Fatalf("want one rejected append (2's), saw %d", h.rejects)
			}
			want := []string{"1:", "1:a=1", "2:", "2:p=1", "2:q=1", "3:"}
			h.expectLog(2, 6, want...)
			h.expectLog(1, 2, "1:", "1:a=1", "1:x=1")
			// Everyone reconnected: the stale leaders of terms 1 and 2 step
			// down and are repaired.
			h.heal()
			h.tick(4)
			h.flush()
			h.tick(4)
			h.flush()
			for id := 1; id <= 5; id++ {
				h.expectLog(id, 6, want...)
			}
			h.expectLeader(4, 3)
			if h.rejects != 2 {
				t.Fatalf("want two rejected appends (2's, then 1's), saw %d", h.rejects)
			}
		})
	}
}

// Flow control with at most two appends in flight, one entry each: the
// leader stops at two, and resumes as acknowledgements (or heartbeat
// answers) arrive.
func TestConformanceFlowControl(t *testing.T) {
	for _, cq := range []bool{false, true} {
		o := clusterOpts{nodes: 3, preVote: true, checkQuorum: cq, maxInflight: 2, oneEntryPerMsg: true}
		t.Run(o.String(), func(t *testing.T) {
			h := newLockstep(t, o)
			h.campaign(1)
			h.flush()
			for i := 1; i <= 5; i++ {
				h.propose(1, "k", fmt.Sprint(i))
			}
			if n := h.waiting(1, 3); n != 2 {
				t.Fatalf("want 2 appends in flight to 3, got %d", n)
			}
			h.deliver(1, 3)
			h.deliver(3, 1) // one acknowledged: one more may go
			h.dropAll(1, 3)
			h.tick(1) // heartbeats; 3's answer reopens the flow
			h.deliver(1, 3)
			h.deliver(3, 1)
			h.flush()
			h.tick(1)
			h.flush()
			for id := 1; id <= 3; id++ {
				h.expectLog(id, 6, "1:", "1:k=1", "1:k=2", "1:k=3", "1:k=4", "1:k=5")
			}
		})
	}
}
