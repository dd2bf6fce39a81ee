package raftcore

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestKeptWorldIsIndependent: a world put away with Keep while writes are
// still waiting shares only its answered operations with the original.
// The original goes on (answering the waiting writes, taking new ones)
// and the kept copy, stepped later, runs exactly as a world that was
// never kept; it holds of its own only the operations from the first
// still waiting.
func TestKeptWorldIsIndependent(t *testing.T) {
	build := func() *World {
		w := newTestWorld(t, func(c *Config) { c.Nodes = 3 })
		mustApply(t, w, Action{Do: DoTimeout, Node: 1})
		w.RunFor(1_000_000)
		for i := 0; i < 20; i++ {
			mustApply(t, w, Action{Do: DoWrite, Node: 1 + i%3, Key: "k", Value: fmt.Sprint(i)})
			w.RunFor(50_000)
		}
		// Two writes still waiting.
		mustApply(t, w, Action{Do: DoWrite, Node: 2, Key: "k", Value: "late"})
		mustApply(t, w, Action{Do: DoWrite, Node: 3, Key: "k", Value: "later"})
		return w
	}
	goOn := func(w *World) {
		w.RunFor(500_000)
		mustApply(t, w, Action{Do: DoWrite, Node: 1, Key: "k", Value: "after"})
		w.RunFor(500_000)
	}
	w := build()
	// The two writes just sent, and perhaps the last of the loop, wait;
	// the answered ones before them are shared.
	require.GreaterOrEqual(t, w.KeptOps(), 2)
	require.Less(t, w.KeptOps(), 5)
	kept := w.Keep()
	goOn(w) // the original answers the waiting writes and takes another
	again := kept.Clone()
	goOn(again)
	goOn(kept)
	alone := build()
	goOn(alone)
	for _, got := range []*World{w, again, kept} {
		assert.Equal(t, alone.TraceHash(), got.TraceHash())
		assert.Equal(t, alone.Ops(), got.Ops())
	}
	for _, op := range kept.Ops() {
		assert.True(t, op.Done(), "op %d", op.ID)
	}
}
