package raftcore

// Summary is the JSON a headless run prints: the end state of every machine,
// every client operation and every violation.
type Summary struct {
	Seed            int64         `json:"seed"`
	Protocol        Protocol      `json:"protocol"`
	EndMs           float64       `json:"end_ms"`
	TraceHash       string        `json:"trace_hash"`
	TraceEvents     uint64        `json:"trace_events"`
	Violations      []Violation   `json:"violations"`
	ViolationCounts map[Rule]int  `json:"violation_counts"`
	Nodes           []NodeSummary `json:"nodes"`
	Ops             []OpSummary   `json:"ops"`
	// OpsForgotten counts the operations a world with
	// Config.HistoryLimit forgot (Ops lists only those it kept); absent
	// when none was.
	OpsForgotten *ForgottenOps `json:"ops_forgotten,omitempty"`
	// Elections are the run's election counters, counted as each trace
	// event was recorded: the whole run's, however few events the world
	// kept.
	Elections *ElectionStats `json:"elections,omitempty"`
	// LostUpdates are the lost-update findings, and LostUpdateCount how
	// many there were. They are not violations: a run can lose an update
	// with every Raft rule holding (lostupdate.go).
	LostUpdates     []Finding    `json:"lost_updates,omitempty"`
	LostUpdateCount int          `json:"lost_update_count,omitempty"`
	Controllers     []Controller `json:"controllers,omitempty"`
	// Liveness is the liveness judge's verdict at the end of the run
	// (liveness.go): whether the cluster progressed once it was calm.
	Liveness Liveness `json:"liveness"`
	// Kube is what the workers' Kubernetes did (kubecheck.go); absent
	// without workers.
	Kube *KubeSummary `json:"kube,omitempty"`
	// Reconcile is the deployment controllers, their informers and the
	// reconcile checks' findings (left out when no controller ran).
	Reconcile *ReconcileSummary `json:"reconcile,omitempty"`
}

// ReconcileSummary is what a run's deployment controllers did.
type ReconcileSummary struct {
	Counts      ReconcileCounts        `json:"counts"`
	Facts       []ReconcileFact        `json:"facts"`
	Controllers []DeploymentController `json:"controllers"`
}

// NodeSummary is one machine's state.
type NodeSummary struct {
	ID        NodeID            `json:"id"`
	Name      string            `json:"name"`
	Status    string            `json:"status"`
	Role      string            `json:"role"`
	Term      uint64            `json:"term"`
	Vote      NodeID            `json:"vote"`
	Leader    NodeID            `json:"leader"`
	Commit    uint64            `json:"commit"`
	Applied   uint64            `json:"applied"`
	LastIndex uint64            `json:"last_index"`
	Log       []LogEntry        `json:"log"`
	KV        map[string]string `json:"kv"`
	// Revisions is each key's revision: the log index that last changed it.
	Revisions map[string]uint64 `json:"revisions,omitempty"`
}

// LogEntry is one log entry as summaries show it.
type LogEntry struct {
	Index uint64 `json:"index"`
	Term  uint64 `json:"term"`
	Data  string `json:"data"`
	Op    int    `json:"op,omitempty"`
}

// OpSummary is one client operation, times in milliseconds.
type OpSummary struct {
	ID         int      `json:"id"`
	Kind       Verb     `json:"kind"`
	Node       NodeID   `json:"node"`
	Key        string   `json:"key"`
	Value      string   `json:"value,omitempty"`
	Mode       ReadMode `json:"mode,omitempty"`
	InvokeMs   float64  `json:"invoke_ms"`
	CompleteMs *float64 `json:"complete_ms"`
	Result     OpResult `json:"result"`
	Reason     string   `json:"reason,omitempty"`
	Index      uint64   `json:"index,omitempty"`
	ReadValue  *string  `json:"read_value,omitempty"`
	ReadFound  bool     `json:"read_found,omitempty"`
	ReadAt     uint64   `json:"read_at,omitempty"`
	ReadRev    uint64   `json:"read_rev,omitempty"`
	// A compare-and-swap write: the revision it required and, when it
	// failed (result "conflict"), the one it found.
	Cas        bool   `json:"cas,omitempty"`
	IfRev      uint64 `json:"if_rev,omitempty"`
	FoundRev   uint64 `json:"found_rev,omitempty"`
	Controller int    `json:"controller,omitempty"`
	// BasedOn is the revision a controller's write was computed from.
	BasedOn uint64 `json:"based_on,omitempty"`
	// Informer is the deployment controller that made the request: a
	// list by its informer (List) or a create.
	Informer int  `json:"informer,omitempty"`
	List     bool `json:"list,omitempty"`
	// Verdict and Missed judge an answered read against the whole client
	// history: "linearizable" or "stale", and for a stale read the id of
	// the write it missed. The engine leaves them empty: the judging is a
	// linearizability search outside it (raftsim fills them in).
	Verdict string `json:"verdict,omitempty"`
	Missed  int    `json:"missed,omitempty"`
	Seq     uint64 `json:"seq,omitempty"`
	// Kube and Worker say which part of Kubernetes made the operation
	// and, for a kubelet's, for which worker.
	Kube   KubeUse `json:"kube,omitempty"`
	Worker NodeID  `json:"worker,omitempty"`
}

// Summarize describes the world as it is now.
func (w *World) Summarize() Summary {
	w.thaw()
	s := Summary{
		Seed:            w.cfg.Seed,
		Protocol:        w.cfg.Protocol,
		EndMs:           float64(w.now) / 1000,
		TraceHash:       HashString(w.trace.hash),
		TraceEvents:     w.trace.count,
		Violations:      append([]Violation{}, w.checker.list...),
		ViolationCounts: map[Rule]int{},
		Nodes:           []NodeSummary{},
		Ops:             []OpSummary{},
	}
	for r, c := range w.checker.counts {
		s.ViolationCounts[r] = c
	}
	e := w.trace.elections.total(w.now)
	s.Elections = &e
	s.Liveness = w.Liveness()
	s.LostUpdates = append([]Finding(nil), w.checker.findings...)
	s.LostUpdateCount = w.checker.lostUpdates
	if k, ok := w.Kube(); ok {
		s.Kube = &k
	}
	s.Controllers = w.Controllers()
	if len(s.Controllers) == 0 {
		s.Controllers = nil
	}
	if w.deploy != nil {
		s.Reconcile = &ReconcileSummary{Counts: w.ReconcileCounts(), Facts: append([]ReconcileFact{}, w.ReconcileFacts()...), Controllers: w.DeploymentControllers()}
	}
	for i := 1; i <= w.cfg.Nodes; i++ {
		n := w.nodes[i]
		ns := NodeSummary{
			ID: n.ID, Name: w.cfg.Name(n.ID), Status: w.machines[i].status.String(), Role: n.role.String(),
			Term: n.term, Vote: n.vote, Leader: n.lead, Commit: n.commit, Applied: n.applied,
			LastIndex: n.log.lastIndex(), Log: []LogEntry{}, KV: n.kv.Snapshot(),
		}
		if n.kv.Len() > 0 {
			ns.Revisions = n.kv.Revisions()
		}
		for _, e := range n.log.entries {
			ns.Log = append(ns.Log, LogEntry{Index: e.Index, Term: e.Term, Data: e.Data.String(), Op: e.Data.OpID})
		}
		s.Nodes = append(s.Nodes, ns)
	}
	if f := w.forgotten; f.Count > 0 {
		s.OpsForgotten = &f
	}
	for _, op := range w.ops {
		os := OpSummary{ID: op.ID, Kind: op.Kind, Node: op.Node, Key: op.Key, Value: op.Value, Mode: op.Mode,
			InvokeMs: float64(op.InvokeUs) / 1000, Result: op.Result, Reason: op.Reason, Index: op.Index,
			Cas: op.Cas, IfRev: op.IfRev, FoundRev: op.FoundRev, Controller: op.Controller, BasedOn: op.BasedOn, Seq: op.Seq,
			Kube: op.Kube, Worker: op.Worker, Informer: op.Informer, List: op.List}
		if op.Done() {
			c := float64(op.CompleteUs) / 1000
			os.CompleteMs = &c
		}
		if op.Kind == DoRead && op.Result == OpOK {
			v := op.ReadValue
			os.ReadValue = &v
			os.ReadFound = op.ReadFound
			os.ReadAt = op.ReadAt
			os.ReadRev = op.ReadRev
		}
		s.Ops = append(s.Ops, os)
	}
	return s
}
