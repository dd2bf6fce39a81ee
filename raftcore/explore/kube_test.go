package explore

import (
	"strings"
	"testing"

	"raftlab/raftcore"
)

// A start state with workers is refused with a message, not searched.
func TestExploreRefusesWorkers(t *testing.T) {
	cfg := Config(3, 0)
	cfg.Workers = 2
	w := raftcore.MustWorld(cfg)
	_, err := ExploreFrom(w, Bounds{Nodes: 3, Terms: 2, Depth: 3, MaxStates: 100})
	if err == nil || !strings.Contains(err.Error(), "workers: the start state has 2 worker machines") {
		t.Fatalf("got %v", err)
	}
}
