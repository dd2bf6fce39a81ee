package explore

import (
	"fmt"

	"raftlab/raftcore"
)

// Bounds limit the space explored.
type Bounds struct {
	// Nodes is the number of machines (1 to raftcore.MaxNodes).
	Nodes int `json:"nodes"`
	// Terms is the highest term a machine may reach: a machine at that
	// term is not made to time out.
	Terms int `json:"terms"`
	// Writes is how many client writes a path may make.
	Writes int `json:"writes"`
	// Reads is how many client reads (linearizable or lease) a path may
	// make.
	Reads int `json:"reads"`
	// Depth is how many actions a path may take.
	Depth int `json:"depth"`
	// Faults is how many drops, repeats and crashes a path may take.
	// Restarts are free: they only undo a crash.
	Faults int `json:"faults"`
	// MaxStates stops the search once this many distinct states are
	// known (0: no limit), so that a bound chosen too large fails with a
	// clear message instead of filling the memory. A search stopped this
	// way did not exhaust the space, and Result says so.
	MaxStates int `json:"max_states,omitempty"`
	// Members is how many machines are voters at the start, machines
	// 1..Members; the rest are spares, which a membership change can
	// bring in (0: every machine is a voter). Only Explore, from a fresh
	// world, uses it; ExploreFrom's start has its own.
	Members int `json:"members,omitempty"`
	// Reconfigs is how many membership actions (add, add-learner,
	// promote, remove, joint, transfer-leader) a path may take.
	Reconfigs int `json:"reconfigs,omitempty"`
	// SnapshotCount, when not 0, makes the machines of a fresh world
	// snapshot every SnapshotCount+1 applied entries and compact their
	// logs keeping nothing before the snapshot, so that the short runs a
	// search reaches send and restore snapshots. Only Explore, from a
	// fresh world, uses it; ExploreFrom's start has its own.
	SnapshotCount int `json:"snapshot_count,omitempty"`
}

// MaxDepth bounds Bounds.Depth; far beyond what can be searched anyway.
const MaxDepth = 200

// Validate reports the first bound out of range, naming it as the
// command-line flag does.
func (b Bounds) Validate() error {
	switch {
	case b.Nodes < 1 || b.Nodes > raftcore.MaxNodes:
		return fmt.Errorf("nodes: %d is out of range: use 1 to %d", b.Nodes, raftcore.MaxNodes)
	case b.Terms < 1 || b.Terms > 100:
		return fmt.Errorf("terms: %d is out of range: use 1 to 100", b.Terms)
	case b.Writes < 0 || b.Writes > 100:
		return fmt.Errorf("writes: %d is out of range: use 0 to 100", b.Writes)
	case b.Reads < 0 || b.Reads > 100:
		return fmt.Errorf("reads: %d is out of range: use 0 to 100", b.Reads)
	case b.Depth < 1 || b.Depth > MaxDepth:
		return fmt.Errorf("depth: %d is out of range: use 1 to %d", b.Depth, MaxDepth)
	case b.Faults < 0 || b.Faults > MaxDepth:
		return fmt.Errorf("faults: %d is out of range: use 0 to %d", b.Faults, MaxDepth)
	case b.MaxStates < 0:
		return fmt.Errorf("max-states: %d must not be negative", b.MaxStates)
	case b.Members < 0 || b.Members > b.Nodes:
		return fmt.Errorf("members: %d is out of range: use 1 to nodes (%d), or 0 for every machine", b.Members, b.Nodes)
	case b.Reconfigs < 0 || b.Reconfigs > 100:
		return fmt.Errorf("reconfigs: %d is out of range: use 0 to 100", b.Reconfigs)
	case b.SnapshotCount < 0 || b.SnapshotCount > 100:
		return fmt.Errorf("snapshot-count: %d is out of range: use 0 (the lab's default) to 100", b.SnapshotCount)
	}
	return nil
}

// String is the bounds as the command line writes them.
func (b Bounds) String() string {
	s := fmt.Sprintf("nodes=%d terms=%d writes=%d reads=%d depth=%d faults=%d", b.Nodes, b.Terms, b.Writes, b.Reads, b.Depth, b.Faults)
	if b.Members != 0 {
		s += fmt.Sprintf(" members=%d", b.Members)
	}
	if b.Reconfigs != 0 {
		s += fmt.Sprintf(" reconfigs=%d", b.Reconfigs)
	}
	if b.SnapshotCount != 0 {
		s += fmt.Sprintf(" snapshot-count=%d", b.SnapshotCount)
	}
	return s
}

// Config is the world every exploration starts from: raftcore's defaults
// (etcd's: PreVote and CheckQuorum on, election timeout 10 ticks) for
// Nodes machines, with bugs switched on for tests of the checker. The
// trace keeps only its newest event: a state is cloned for every choice
// tried, and the trace hash, which covers every event, is all a state
// needs of it.
func Config(nodes int, bugs raftcore.Bug) raftcore.Config {
	cfg := raftcore.DefaultConfig()
	cfg.Nodes = nodes
	cfg.Bugs = bugs
	cfg.TraceLimit = 2
	return cfg
}
