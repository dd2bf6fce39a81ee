package raftcore

import (
	"fmt"
	"strconv"
	"strings"
)

// Config is everything that fixes a world before any action: with the same
// Config and the same actions, a run is reproduced exactly.
type Config struct {
	Nodes int `json:"nodes"`
	// Members is how many of the Nodes machines are voters when the world
	// starts: machines 1..Members. The others are spares: they run and
	// hear the network, but are not in the configuration until a change
	// adds them (membership.go). 0 means every machine is a member.
	Members  int      `json:"members,omitempty"`
	Seed     int64    `json:"seed"`
	Protocol Protocol `json:"protocol"`
	// Names are display names for machines 1..N (e.g. "A", "etcd-1"). Empty
	// means machine ids are shown.
	Names []string `json:"names,omitempty"`
	// Controllers names the controllers (controller.go) in the order they
	// start, as a sentence says them mid-line ("the scaler"); a controller
	// the list does not reach is "controller N". They are only words: a
	// run is the same whatever its controllers are called.
	Controllers []string `json:"controllers,omitempty"`
	// Zones, when set, places every machine in one of 2 to 3 failure
	// domains (zones.go); nil means no zones.
	Zones []Zone `json:"zones,omitempty"`

	PreVote        bool `json:"prevote"`
	CheckQuorum    bool `json:"checkquorum"`
	ElectionTicks  int  `json:"election_ticks"`
	HeartbeatTicks int  `json:"heartbeat_ticks"`
	TickMs         int  `json:"tick_ms"`

	// Network defaults for every link; single links can be changed later.
	LatencyMinMs float64 `json:"latency_min_ms"`
	LatencyMaxMs float64 `json:"latency_max_ms"`
	Loss         float64 `json:"loss"`
	Duplicate    float64 `json:"duplicate"`
	// CrossZoneLatencyMs is [min, max] for links between zones; links
	// inside a zone take LatencyMinMs..LatencyMaxMs. Nil, with zones, means
	// the same latency everywhere.
	CrossZoneLatencyMs []float64 `json:"cross_zone_latency_ms,omitempty"`

	// Sessions gives each client a session (client id and sequence number in
	// every write) so that a write committed twice, say because the network
	// duplicated the proposal, is applied once. On by default, as etcd's
	// clients effectively are; off shows the double apply.
	Sessions bool `json:"sessions"`

	// Idempotent makes deployment controllers' reconciles idempotent
	// (reconcile.go): a ReplicaSet is named by its template's hash and
	// created only if absent. On by default, as Kubernetes' deployment
	// controller does it; off, a ReplicaSet gets a fresh name each time,
	// which shows a second one created.
	Idempotent bool `json:"idempotent"`

	// ClientTimeoutMs is how long a client waits for an answer.
	ClientTimeoutMs int `json:"client_timeout_ms"`
	// InboxLimit bounds the messages a paused machine holds for later.
	InboxLimit int `json:"inbox_limit"`
	// MaxEntriesPerMsg and MaxInflight are etcd's flow-control knobs.
	MaxEntriesPerMsg int `json:"max_entries_per_msg"`
	MaxInflight      int `json:"max_inflight"`
	// TraceLimit keeps only the newest events in memory (0 keeps all). The
	// trace hash always covers every event.
	TraceLimit int `json:"trace_limit"`
	// HistoryLimit bounds the client history kept in memory (0 keeps it
	// all, as tests, raftsim and the explorer need to check a whole
	// history): the newest HistoryLimit answered operations are kept, and
	// every one still waiting (client.go, forget). The safety rules stay
	// exact over what is forgotten; ForgottenOps counts it.
	HistoryLimit int `json:"history_limit,omitempty"`

	// SnapshotCount is how many entries a machine applies between two
	// snapshots of its state machine (etcd's --snapshot-count, 100,000 by
	// default; 0 here takes none and never compacts). CatchUpEntries is
	// how many applied entries before a snapshot stay in the log for
	// followers a little behind (etcd's snapshot catch-up entries, 5,000).
	// The lab's defaults are small, so that a reader sees snapshots and a
	// follower caught up by one within a minute of writes.
	SnapshotCount  int `json:"snapshot_count"`
	CatchUpEntries int `json:"catch_up_entries"`
	// BandwidthKBps is how many kilobytes a link carries per virtual
	// second, so that a large message (a snapshot) takes longer than a
	// small one; 0 is unlimited, where only latency counts.
	BandwidthKBps float64 `json:"bandwidth_kbps"`

	// Bugs breaks Raft on purpose; only the checker's tests set it.
	Bugs Bug `json:"-"`

	// Workers are worker machines numbered after the Nodes, each running
	// a kubelet; Kube holds their intervals and workload (kubeconfig.go).
	Workers int        `json:"workers,omitempty"`
	Kube    KubeConfig `json:"kube"`
}

// DefaultConfig is etcd's defaults: 100 ms ticks, a heartbeat every tick, an
// election timeout of 10 ticks (randomized in [10, 20)), PreVote and
// CheckQuorum on. Latency is tens of milliseconds so that elections can be
// watched.
func DefaultConfig() Config {
	return Config{
		Nodes:            5,
		Seed:             1,
		Protocol:         ProtocolRaft,
		PreVote:          true,
		CheckQuorum:      true,
		Sessions:         true,
		Idempotent:       true,
		ElectionTicks:    10,
		HeartbeatTicks:   1,
		TickMs:           100,
		LatencyMinMs:     20,
		LatencyMaxMs:     40,
		ClientTimeoutMs:  5000,
		InboxLimit:       256,
		MaxEntriesPerMsg: 64,
		MaxInflight:      256,
		SnapshotCount:    DefaultSnapshotCount,
		CatchUpEntries:   DefaultCatchUpEntries,
		Kube:             DefaultKubeConfig(),
	}
}

// DefaultSnapshotCount and DefaultCatchUpEntries are the lab's snapshot
// settings: etcd takes a snapshot every 100,000 applied entries
// (--snapshot-count) and keeps 5,000 entries before it for slow followers;
// the lab does the same with numbers a figure can show.
const (
	DefaultSnapshotCount  = 100
	DefaultCatchUpEntries = 20
)

// MaxSnapshotCount bounds Config.SnapshotCount and Config.CatchUpEntries
// (etcd's own default count).
const MaxSnapshotCount = 100000

// MinBandwidthKBps is the slowest link bandwidth a run may set (10 bytes a
// virtual second): slower ones would make a snapshot's transfer time
// overflow the clock.
const MinBandwidthKBps = 0.01

// MaxNodes is the largest cluster the lab runs.
const MaxNodes = 9

// MaxElectionTicks bounds Config.ElectionTicks.
const MaxElectionTicks = 10000

// Validate reports the first thing wrong with c, naming the field.
func (c Config) Validate() error {
	switch {
	case c.Nodes < 1 || c.Nodes > MaxNodes:
		return fmt.Errorf("nodes: %d is out of range: use 1 to %d", c.Nodes, MaxNodes)
	case c.ElectionTicks < 1 || c.ElectionTicks > MaxElectionTicks:
		// The bound keeps the randomized timeout (up to twice this) from
		// overflowing.
		return fmt.Errorf("election_ticks: %d is out of range: use 1 to %d", c.ElectionTicks, MaxElectionTicks)
	case c.HeartbeatTicks < 1:
		return fmt.Errorf("heartbeat_ticks: %d must be at least 1", c.HeartbeatTicks)
	case c.HeartbeatTicks >= c.ElectionTicks:
		return fmt.Errorf("heartbeat_ticks: %d must be smaller than election_ticks (%d)", c.HeartbeatTicks, c.ElectionTicks)
	case c.TickMs < 1 || c.TickMs > 10000:
		return fmt.Errorf("tick_ms: %d is out of range: use 1 to 10000", c.TickMs)
	case c.LatencyMinMs < 0 || c.LatencyMaxMs < c.LatencyMinMs || c.LatencyMaxMs > 60000:
		return fmt.Errorf("latency_ms: [%g, %g] is not a range of 0 to 60000 ms with min <= max", c.LatencyMinMs, c.LatencyMaxMs)
	case c.Loss < 0 || c.Loss > 1:
		return fmt.Errorf("loss: %g is not a probability between 0 and 1", c.Loss)
	case c.Duplicate < 0 || c.Duplicate > 1:
		return fmt.Errorf("duplicate: %g is not a probability between 0 and 1", c.Duplicate)
	case c.ClientTimeoutMs < 1 || c.ClientTimeoutMs > MaxUntilMs:
		// Beyond a virtual day the deadline in microseconds could overflow
		// and fall before the request.
		return fmt.Errorf("client_timeout_ms: %d is out of range: use 1 to %d", c.ClientTimeoutMs, MaxUntilMs)
	case c.InboxLimit < 0:
		return fmt.Errorf("inbox_limit: %d must not be negative", c.InboxLimit)
	case c.MaxEntriesPerMsg < 1:
		return fmt.Errorf("max_entries_per_msg: %d must be at least 1", c.MaxEntriesPerMsg)
	case c.MaxInflight < 1:
		return fmt.Errorf("max_inflight: %d must be at least 1", c.MaxInflight)
	case c.TraceLimit < 0:
		return fmt.Errorf("trace_limit: %d must not be negative", c.TraceLimit)
	case c.HistoryLimit < 0:
		return fmt.Errorf("history_limit: %d must not be negative", c.HistoryLimit)
	case c.SnapshotCount < 0 || c.SnapshotCount > MaxSnapshotCount:
		return fmt.Errorf("snapshot_count: %d is out of range: use 0 (no snapshots) to %d", c.SnapshotCount, MaxSnapshotCount)
	case c.CatchUpEntries < 0 || c.CatchUpEntries > MaxSnapshotCount:
		return fmt.Errorf("catch_up_entries: %d is out of range: use 0 to %d", c.CatchUpEntries, MaxSnapshotCount)
	case !(c.BandwidthKBps >= 0) || c.BandwidthKBps > 1e9 || (c.BandwidthKBps > 0 && c.BandwidthKBps < MinBandwidthKBps):
		return fmt.Errorf("bandwidth_kbps: %g is out of range: use 0 (unlimited) or %g to 1e9", c.BandwidthKBps, MinBandwidthKBps)
	case c.Members < 0 || c.Members > c.Nodes:
		return fmt.Errorf("members: %d is out of range: use 1 to nodes (%d), or 0 for every machine", c.Members, c.Nodes)
	case c.Members != 0 && c.Members != c.Nodes && c.Protocol != ProtocolRaft:
		return fmt.Errorf("members: spare machines need the raft protocol; %s has no configuration to add them to", c.Protocol)
	case len(c.Names) != 0 && len(c.Names) != c.Nodes:
		return fmt.Errorf("names: %d names given for %d nodes", len(c.Names), c.Nodes)
	}
	for i, name := range c.Controllers {
		if name == "" || len(name) > maxControllerName || strings.ContainsAny(name, "\n\r\t") {
			return fmt.Errorf("controllers[%d]: %q is not a controller's name: use 1 to %d characters on one line", i, name, maxControllerName)
		}
	}
	if _, err := ParseProtocol(string(c.Protocol)); err != nil {
		return fmt.Errorf("protocol: %v", err)
	}
	if err := c.validateKube(); err != nil {
		return err
	}
	return c.validateZones()
}

// members is how many machines are voters at the start.
func (c Config) members() int {
	if c.Members == 0 {
		return c.Nodes
	}
	return c.Members
}

// Name is the display name of machine id.
func (c Config) Name(id NodeID) string {
	if int(id) >= 1 && int(id) <= len(c.Names) {
		return c.Names[id-1]
	}
	return fmt.Sprintf("%d", id)
}

// maxControllerName bounds the length of a controller's name.
const maxControllerName = 40

// ControllerName is the name of controller id (numbered from 1 in the
// order controllers start), as a sentence says it mid-line.
func (c Config) ControllerName(id int) string {
	if id >= 1 && id <= len(c.Controllers) {
		return c.Controllers[id-1]
	}
	return "controller " + strconv.Itoa(id)
}

// msToUs rounds milliseconds to whole microseconds. The explicit float64
// conversion of the product forbids the compiler from fusing the multiply
// and add into one instruction (the Go spec allows that on some CPUs), so the
// result, and with it the trace, is the same on every platform.
func msToUs(ms float64) int64 {
	us := float64(ms * 1000)
	if us >= 0 {
		return int64(us + 0.5)
	}
	return int64(us - 0.5)
}
