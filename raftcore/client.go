package raftcore

import "strconv"

// Clients. A client sends each request to one machine of its choice, as
// kubectl or the API server does with etcd, and waits for that machine's
// answer. The request queues behind the machine's other work (a paused or
// slow machine answers late), and every request is recorded as an Op with its
// invoke and completion times.

// OpResult is the outcome of a client operation.
type OpResult string

const (
	OpPending OpResult = "pending"
	OpOK      OpResult = "ok"
	OpTimeout OpResult = "timeout"
	OpRefused OpResult = "refused"
	// OpConflict ends a compare-and-swap write whose entry was committed
	// and applied but found the key at another revision, so it changed
	// nothing. Op.FoundRev is the revision it found.
	OpConflict OpResult = "conflict"
)

// Refusal says why a machine refused a client's operation; Op.Reason says
// it in words.
type Refusal uint8

const (
	// RefusedNone is the zero value: the operation was not refused.
	RefusedNone               Refusal = iota
	RefusedNoLeader                   // a Raft follower knew no leader to pass it to
	RefusedElection                   // the machine was a candidate or pre-candidate
	RefusedNoAuthority                // failover: the machine knew no authority
	RefusedLeaseNoCheckQuorum         // a lease read, with CheckQuorum off
	RefusedMachineDown                // the request reached a crashed machine
	RefusedInboxFull                  // the request found a paused machine's inbox full
	RefusedCrashed                    // the machine crashed while the request waited
	RefusedTransfer                   // the leader is handing leadership over
)

var refusalWords = [...]string{
	"", "no leader known", "an election is under way", "no authority known",
	"lease reads need CheckQuorum, which is off", "the machine is down",
	"the machine's inbox is full", "the machine crashed", "leadership is being handed over",
}

// String is the refusal in words, as Op.Reason says it.
func (r Refusal) String() string {
	if int(r) < len(refusalWords) {
		return refusalWords[r]
	}
	return "refusal(" + strconv.Itoa(int(r)) + ")"
}

// MarshalText lets JSON show the refusal in words.
func (r Refusal) MarshalText() ([]byte, error) { return []byte(r.String()), nil }

// UnmarshalText reads a refusal in words.
func (r *Refusal) UnmarshalText(b []byte) error {
	return parseName(r, "refusal", refusalWords[:], b)
}

// reasonTimeout is Op.Reason for an operation that timed out.
const reasonTimeout = "no answer in time"

// Op is one client operation.
type Op struct {
	ID    int      `json:"id"`
	Kind  Verb     `json:"kind"` // DoWrite, DoDelete or DoRead
	Node  NodeID   `json:"node"`
	Key   string   `json:"key"`
	Value string   `json:"value,omitempty"`
	Mode  ReadMode `json:"mode,omitempty"`

	InvokeUs   int64 `json:"invoke_us"`
	CompleteUs int64 `json:"complete_us"` // -1 while pending
	// InvokeEvent and CompleteEvent are the sequence numbers of the trace
	// events that recorded the invocation and the completion (0 while
	// pending). They order operations that share an instant, as they all
	// do when the clock stands still (raftcore/explore): an operation
	// finished before another began exactly when its CompleteEvent is
	// below the other's InvokeEvent.
	InvokeEvent   uint64   `json:"invoke_event"`
	CompleteEvent uint64   `json:"complete_event,omitempty"`
	Result        OpResult `json:"result"`
	// Reason explains a refusal or a timeout in words.
	Reason string `json:"reason,omitempty"`
	// Refusal is why the operation was refused (RefusedNone unless Result
	// is OpRefused).
	Refusal Refusal `json:"refusal,omitempty"`
	// Index is the log index a write was applied at: the key's new
	// revision when the write took effect.
	Index uint64 `json:"index,omitempty"`
	// Cas makes a write a compare-and-swap: it takes effect only if the
	// key's revision is still IfRev (0: the key must not exist) when its
	// entry is applied. FoundRev is the revision it found instead
	// (Result OpConflict).
	Cas      bool   `json:"cas,omitempty"`
	IfRev    uint64 `json:"if_rev,omitempty"`
	FoundRev uint64 `json:"found_rev,omitempty"`
	// Controller is the controller (numbered from 1 in the order they
	// started) that made this request; 0 for a request made directly.
	// Based and BasedOn say a controller's write was computed from a read
	// that saw the key at revision BasedOn.
	Controller int    `json:"controller,omitempty"`
	Based      bool   `json:"based,omitempty"`
	BasedOn    uint64 `json:"based_on,omitempty"`
	// For reads: the value seen, whether the key existed, and the applied
	// index of the state that answered.
	ReadValue string `json:"read_value,omitempty"`
	ReadFound bool   `json:"read_found,omitempty"`
	ReadAt    uint64 `json:"read_at,omitempty"`
	// ReadRev is the revision of the key the read saw (0 when absent).
	ReadRev uint64 `json:"read_rev,omitempty"`
	// ReadIndex is the index a linearizable or lease read waits for.
	ReadIndex uint64 `json:"read_index,omitempty"`
	// ReadTerm is the term of the leader that fixed ReadIndex.
	ReadTerm uint64 `json:"read_term,omitempty"`
	// Seq is a write's sequence number in its client's session (0 with
	// sessions off); the client is the one that asked machine Node.
	Seq uint64 `json:"seq,omitempty"`
	// Cluster says the write was sent to the cluster, not to a machine
	// of the reader's choice: the cluster's client picked Node, the
	// machine it is connected to (endpoint.go).
	Cluster bool `json:"cluster,omitempty"`
	// Side and Split are the network as the request found it, taken from
	// the world when it was made so that no one has to replay the action
	// log to learn which side of a partition it was on. Side is the
	// running machines the asked machine could talk to both ways, directly
	// or through one another, itself included, in id order; it is empty
	// when the asked machine was paused or crashed. Split is whether any
	// link was down.
	Side  []NodeID `json:"side,omitempty"`
	Split bool     `json:"split,omitempty"`
	// RoundTripMinUs is, for each machine by id (index id-1), the least
	// time a message from the asked machine and its answer could take as
	// the links were when the request was made; 0 for the asked machine.
	// A write waits at least for the round trips to a majority.
	RoundTripMinUs []int64 `json:"round_trip_min_us,omitempty"`
	// Appended is the index a write's entry was first appended at, in any
	// machine's log (0: not yet). A waiting write whose entry no log holds
	// any more was replaced by a later leader's entries: as in etcd, its
	// client hears nothing until it times out.
	Appended uint64 `json:"appended,omitempty"`
	// Informer is the deployment controller (reconcile.go, numbered from
	// 1) that made this request: its informer's list (List set: a
	// linearizable read of every key under the prefix Key) or a create.
	Informer int  `json:"informer,omitempty"`
	List     bool `json:"list,omitempty"`
	gotIndex bool

	// Kube says which part of Kubernetes made the operation (kubelet.go):
	// a kubelet's renewal or listing, made by the API server on Node for
	// worker Worker, or the node lifecycle controller's read or write.
	Kube    KubeUse `json:"kube,omitempty"`
	Worker  NodeID  `json:"worker,omitempty"`
	kubeReq uint64
}

// Done reports whether the operation has completed.
func (o Op) Done() bool { return o.Result != OpPending }

// FinishedBefore reports whether o was answered before p was sent, as the
// clients saw it: by the virtual clock, and between moments at one instant
// by the trace events that recorded them, since the trace is the order in
// which things happened. With the clock standing still (raftcore/explore)
// every operation shares one instant, and only the events tell that an
// acknowledged write came before a read. Without events (an Op built by
// hand) two operations at one instant overlap.
func (o Op) FinishedBefore(p Op) bool {
	if !o.Done() {
		return false
	}
	if o.CompleteUs != p.InvokeUs {
		return o.CompleteUs < p.InvokeUs
	}
	return o.CompleteEvent < p.InvokeEvent
}

// LatencyUs is the client's wait, or the wait so far at time now.
func (o Op) LatencyUs(now int64) int64 {
	if o.CompleteUs >= 0 {
		return o.CompleteUs - o.InvokeUs
	}
	return now - o.InvokeUs
}

// Ops returns the client operations kept: every one so far, unless
// Config.HistoryLimit has the oldest answered ones forgotten (ForgottenOps
// counts them). Ids are the run's: the first one kept need not be 1.
func (w *World) Ops() []Op {
	w.thaw()
	return capped(w.ops)
}

// Op returns operation id (ids start at 1), if it is kept.
func (w *World) Op(id int) (Op, bool) {
	w.thaw()
	if op := w.opRef(id); op != nil {
		return *op, true
	}
	return Op{}, false
}

// opRef is operation id in the history, nil if it was forgotten or never
// made. Ids run on from the forgotten ones, so the lookup is an offset.
func (w *World) opRef(id int) *Op {
	i := id - 1 - w.forgotten.Count
	if i < 0 || i >= len(w.ops) {
		return nil
	}
	return &w.ops[i]
}

// nextOpID is the id the next operation will have.
func (w *World) nextOpID() int { return w.forgotten.Count + len(w.ops) + 1 }

func (w *World) invoke(op Op) int {
	op.ID = w.nextOpID()
	op.InvokeUs = w.now
	op.CompleteUs = -1
	op.Result = OpPending
	op.Side = w.sideOf(op.Node, w.running)
	op.Split = w.split()
	if w.cfg.Sessions && op.Kind != DoRead {
		w.lastSeq[op.Node]++
		op.Seq = w.lastSeq[op.Node]
	}
	op.RoundTripMinUs = make([]int64, w.cfg.Nodes)
	for id := NodeID(1); int(id) <= w.cfg.Nodes; id++ {
		if id != op.Node {
			op.RoundTripMinUs[id-1] = w.links[op.Node][id].LatencyMinUs + w.links[id][op.Node].LatencyMinUs
		}
	}
	w.ops = append(w.ops, op)
	w.pending = append(w.pending, op.ID)
	w.record(TraceEvent{Kind: TraceOpInvoke, Node: op.Node, Op: op.ID, verb: verbCode(op.Kind), Text: string(op.Kind) + " " + op.Key})
	w.ops[len(w.ops)-1].InvokeEvent = w.trace.count
	w.schedule(event{at: w.now + int64(w.cfg.ClientTimeoutMs)*1000, kind: evTimeout, op: op.ID})
	req := &ClientRequest{OpID: op.ID, Key: op.Key, Value: op.Value, Mode: op.Mode,
		Based: op.Based || op.Cas, BasedOn: op.BasedOn, Cas: op.Cas}
	if op.Cas {
		req.BasedOn = op.IfRev
	}
	switch op.Kind {
	case DoWrite:
		req.Kind = OpPut
	case DoDelete:
		req.Kind = OpDelete
	default:
		req.Read = true
	}
	w.nextMsgID++
	m := Message{ID: w.nextMsgID, Type: MsgClient, To: op.Node, SendUs: w.now, DeliverUs: w.now, Client: req}
	// The request reaches the machine through its inbox like any message,
	// so it waits behind a slow or paused machine's backlog.
	w.deliver(m)
	return op.ID
}

func (w *World) handleClient(m Message) {
	req := m.Client
	if op := w.opRef(req.OpID); op == nil || op.Done() {
		return
	}
	n := w.nodes[m.To]
	before := w.capture(m.To)
	if req.Read {
		if req.Mode == ReadLocal || n.cfg.protocol != ProtocolRaft {
			w.answerRead(req.OpID, n)
		} else if r := n.requestRead(uint64(req.OpID), req.Mode == ReadLease); r != RefusedNone {
			w.complete(req.OpID, OpRefused, r)
		}
	} else {
		cmd := Command{Kind: req.Kind, Key: req.Key, Value: req.Value, OpID: req.OpID,
			Based: req.Based, BasedOn: req.BasedOn, Cas: req.Cas}
		if op := w.opRef(req.OpID); op.Seq != 0 {
			cmd.Client, cmd.Seq, cmd.Low = op.Node, op.Seq, w.lowestWaiting(op.Node)
		}
		if r := n.propose(cmd); r != RefusedNone {
			w.complete(req.OpID, OpRefused, r)
		}
	}
	w.afterStep(m.To, before)
}

// noteAppended marks the waiting writes whose entries machine n's log
// holds from index from on as appended.
func (w *World) noteAppended(n *Node, from uint64) {
	if len(w.pending) == 0 {
		return
	}
	for i := from; i <= n.log.lastIndex(); i++ {
		if op := w.opRef(n.log.entry(i).Data.OpID); op != nil && op.Appended == 0 && !op.Done() {
			op.Appended = i
		}
	}
}

func (w *World) failClient(m Message, why Refusal) {
	if m.Type != MsgClient {
		return
	}
	if op := w.opRef(m.Client.OpID); op != nil && !op.Done() {
		w.complete(m.Client.OpID, OpRefused, why)
	}
}

// lowestWaiting is the lowest sequence number among the writes client is
// still waiting on: the state machine may forget the answers below it.
func (w *World) lowestWaiting(client NodeID) uint64 {
	low := w.lastSeq[client]
	for _, id := range w.pending {
		if op := w.opRef(id); op.Node == client && op.Seq != 0 && op.Seq < low {
			low = op.Seq
		}
	}
	return low
}

// repeatSkipped is the trace's text for an entry whose write its session
// had already applied.
const repeatSkipped = "repeat of an applied write: skipped"

// onApplied answers the client whose write machine id just applied: the
// write took effect, or, for a compare-and-swap that found another
// revision, it did not. A repeat its session skipped answers with the
// index of the copy applied before (the cached result).
func (w *World) onApplied(id NodeID, e Entry, did applied) {
	if e.Data.OpID == 0 {
		return
	}
	op := w.opRef(e.Data.OpID)
	if op == nil || op.Done() || op.Node != id || op.Kind == DoRead {
		return
	}
	op.Index = did.FirstIndex
	if did.Conflict {
		op.FoundRev = did.PrevRev
		w.complete(op.ID, OpConflict, RefusedNone)
		return
	}
	w.complete(op.ID, OpOK, RefusedNone)
}

func (w *World) onReadIndex(id NodeID, rs ReadState) {
	if rs.Ctx == 0 || rs.Ctx >= uint64(w.nextOpID()) {
		return
	}
	op := w.opRef(int(rs.Ctx))
	if op == nil || op.Done() || op.Node != id {
		return
	}
	op.ReadIndex = rs.Index
	op.ReadTerm = rs.Term
	op.gotIndex = true
}

// answerReads answers reads at machine id whose read index is now applied.
func (w *World) answerReads(id NodeID) {
	n := w.nodes[id]
	for i := 0; i < len(w.pending); i++ {
		op := w.opRef(w.pending[i])
		if op.Node == id && op.gotIndex && !op.Done() && n.applied >= op.ReadIndex {
			w.answerRead(op.ID, n)
			i--
		}
	}
}

func (w *World) answerRead(opID int, n *Node) {
	op := w.opRef(opID)
	v, ok := n.kv.Get(op.Key)
	op.ReadValue, op.ReadFound, op.ReadAt, op.ReadRev = v.Value, ok, n.applied, v.ModIndex
	if op.List {
		w.listAnswered(op, n)
	}
	w.complete(opID, OpOK, RefusedNone)
	w.checker.onRead(*op, v.ModIndex)
}

func (w *World) timeoutOp(id int) {
	if op := w.opRef(id); op != nil && !op.Done() {
		w.complete(id, OpTimeout, RefusedNone)
	}
}

// complete ends operation id with result r, refused for why when r is
// OpRefused, and lets the history forget what it may. The operation
// itself is never forgotten here: nothing was sent after it ended.
func (w *World) complete(id int, r OpResult, why Refusal) {
	op := w.opRef(id)
	op.Result, op.Refusal, op.Reason, op.CompleteUs = r, why, why.String(), w.now
	switch r {
	case OpTimeout:
		op.Reason = reasonTimeout
	case OpConflict:
		op.Reason = "the key was at revision " + strconv.FormatUint(op.FoundRev, 10) + ", not " + strconv.FormatUint(op.IfRev, 10)
	}
	for i, p := range w.pending {
		if p == id {
			w.pending = append(w.pending[:i], w.pending[i+1:]...)
			break
		}
	}
	w.record(TraceEvent{Kind: TraceOpComplete, Node: op.Node, Op: id, Index: op.Index, Text: string(r)})
	op.CompleteEvent = w.trace.count
	if op.Controller != 0 {
		w.controllerHeard(*op)
	}
	if op.Kube != KubeNone {
		w.kubeHeard(op)
	}
	if op.Informer != 0 {
		w.informerHeard(*op)
	}
	w.forget()
}

// failPendingAt refuses every waiting operation of a machine that crashed:
// the client's connection broke.
func (w *World) failPendingAt(id NodeID) {
	for i := 0; i < len(w.pending); i++ {
		op := w.opRef(w.pending[i])
		if op.Node == id {
			w.complete(op.ID, OpRefused, RefusedCrashed)
			i--
		}
	}
}

// ForgottenOps counts the client operations a world with
// Config.HistoryLimit no longer keeps, by how they ended (none was still
// waiting), so that tallies over the whole run stay right.
type ForgottenOps struct {
	Count    int `json:"count"`
	Writes   int `json:"writes"` // writes and deletes; the rest were reads
	OK       int `json:"ok"`
	Conflict int `json:"conflict"`
	Timeout  int `json:"timeout"`
	Refused  int `json:"refused"`
	// Kube tallies, of them, those Kubernetes made, by KubeUse (a
	// kubelet's renewals and listings, the controller's reads and
	// writes), so that a reader's own requests can be told apart. The
	// summary keeps to the totals.
	Kube [KubeUses]OpTally `json:"-"`
}

// OpTally counts operations by how they ended: Failed are those that
// timed out or were refused.
type OpTally struct {
	Count, OK, Conflict, Failed int
}

// Add counts op, by its result.
func (t *OpTally) Add(op *Op) {
	t.Count++
	switch op.Result {
	case OpOK:
		t.OK++
	case OpConflict:
		t.Conflict++
	case OpTimeout, OpRefused:
		t.Failed++
	}
}

// ForgottenOps counts the operations forgotten so far.
func (w *World) ForgottenOps() ForgottenOps { return w.forgotten }

// ForgotWriteTo reports whether the history forgot a write or delete of
// key, whatever its answer: the key's history in Ops is then not whole,
// and a read of it cannot be judged on Ops alone (a read may return a
// forgotten write's value, or that of one that timed out and took effect
// later).
func (w *World) ForgotWriteTo(key string) bool {
	_, ok := w.forgottenKeys[key]
	return ok
}

// forget drops the oldest answered operations while more than
// Config.HistoryLimit answered ones are kept. It drops a prefix of the
// history, cut where every operation before the cut had finished before
// the one after it was sent, so that:
//   - every operation still waiting is kept, and ids stay offsets (opRef);
//   - every forgotten operation finished before every kept one began, so
//     the stale-read rule needs of the forgotten writes only, by key, the
//     highest index one took effect at (checker.forget);
//   - operations that overlap are forgotten together or not at all; every
//     operation ends within Config.ClientTimeoutMs, so the history stays
//     bounded unless requests overlap without a pause for good.
//
// The dropped operations stay in the array ops was cut from, which a
// world kept by Keep may share; appending past the capacity moves the
// history to a new array, and the old one is freed with the last sharer.
func (w *World) forget() {
	limit := w.cfg.HistoryLimit
	if limit == 0 {
		return
	}
	most := len(w.ops) - len(w.pending) - limit // operations that may go
	cut, last := 0, -1                          // last: the latest to finish before k
	for k := 0; k < most && k+1 < len(w.ops); k++ {
		op := &w.ops[k]
		if !op.Done() {
			break
		}
		if l := &w.ops[max(last, 0)]; last < 0 || op.CompleteUs > l.CompleteUs ||
			op.CompleteUs == l.CompleteUs && op.CompleteEvent > l.CompleteEvent {
			last = k
		}
		if w.ops[last].FinishedBefore(w.ops[k+1]) {
			cut = k + 1
		}
	}
	for _, op := range w.ops[:cut] {
		w.forgetOne(op)
	}
	w.ops = w.ops[cut:]
	if cut > 0 && len(w.checker.tookEffect) > 2*limit {
		w.checker.trimTookEffect(w.lowestProposable(), limit)
	}
}

// lowestProposable is the lowest operation id any log or message still
// holds (an entry of a log, a proposal or append in flight or waiting in
// an inbox, a client's request): the first whose write could yet be
// applied somewhere. Ids below it will never be applied again.
func (w *World) lowestProposable() int {
	low := w.nextOpID()
	entries := func(ents []Entry) {
		for i := range ents {
			if id := ents[i].Data.OpID; id != 0 {
				low = min(low, id)
			}
		}
	}
	message := func(m *Message) {
		entries(m.Entries)
		if m.Client != nil {
			low = min(low, m.Client.OpID)
		}
	}
	for _, n := range w.nodes[1:] {
		entries(n.log.entries)
		for i := range n.pendingReadMsgs {
			message(&n.pendingReadMsgs[i])
		}
	}
	for i := range w.queue {
		if w.queue[i].kind == evDeliver {
			message(&w.queue[i].msg)
		}
	}
	for _, m := range w.machines[1:] {
		for i := range m.work {
			message(&m.work[i])
		}
	}
	return low
}

// forgetOne counts an operation forgotten and hands the checker what it
// must remember of it.
func (w *World) forgetOne(op Op) {
	w.checker.forget(op)
	f := &w.forgotten
	f.Count++
	if op.Kube != KubeNone && int(op.Kube) < len(f.Kube) {
		f.Kube[op.Kube].Add(&op)
	}
	if op.Kind != DoRead {
		f.Writes++
		if w.forgottenKeys == nil {
			w.forgottenKeys = map[string]struct{}{}
		}
		w.forgottenKeys[op.Key] = struct{}{}
	}
	switch op.Result {
	case OpOK:
		f.OK++
	case OpConflict:
		f.Conflict++
	case OpTimeout:
		f.Timeout++
	default:
		f.Refused++
	}
	if op.Result == OpTimeout || op.Result == OpRefused {
		if len(w.failedForgotten) == maxLivenessProblems {
			w.failedForgotten = append(w.failedForgotten[:0:0], w.failedForgotten[1:]...)
		}
		w.failedForgotten = append(w.failedForgotten, op)
	}
}
