package raftcore

import (
	"fmt"
	"testing"
)

// BenchmarkDeploymentController plays a minute of virtual time on three
// members with a client changing a Deployment every half second, with and
// without a deployment controller watching it (whose watch is cut every
// ten seconds): what the informer, its watch and its reconcile loop cost
// over the run they ride on.
func BenchmarkDeploymentController(b *testing.B) {
	for _, controllers := range []int{0, 1} {
		b.Run(fmt.Sprintf("controllers=%d", controllers), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				cfg := DefaultConfig()
				cfg.Nodes = 3
				w := MustWorld(cfg)
				w.RunFor(2_000_000)
				if controllers > 0 {
					if err := w.Apply(Action{Do: DoDeployController, Node: 1, To: 2}); err != nil {
						b.Fatal(err)
					}
				}
				for s := 0; s < 120; s++ {
					if err := w.Apply(Action{Do: DoWrite, Key: "deployments/web", Value: fmt.Sprintf("replicas=%d image=web:%d", 1+s%3, s/10)}); err != nil {
						b.Fatal(err)
					}
					if controllers > 0 && s%20 == 19 {
						if err := w.Apply(Action{Do: DoWatchCut}); err != nil {
							b.Fatal(err)
						}
					}
					w.RunFor(500_000)
				}
				if controllers > 0 && w.ReconcileCounts().Creates < 12 {
					b.Fatalf("counts %+v", w.ReconcileCounts())
				}
			}
		})
	}
}
