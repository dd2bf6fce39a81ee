package raftcore

import "testing"

// BenchmarkKubeMinute5x10 runs a virtual minute of 5 members and 10
// workers at Kubernetes' intervals: kubelets renewing and listing, the
// controller looking every 5 s. It reports the world's events per
// virtual second.
func BenchmarkKubeMinute5x10(b *testing.B) {
	cfg := DefaultConfig()
	cfg.Workers, cfg.Kube.Pods = 10, 20
	var events uint64
	for i := 0; i < b.N; i++ {
		w := MustWorld(cfg)
		w.RunFor(60 * sec)
		events = w.Processed()
	}
	b.ReportMetric(float64(events)/60, "events/vsec")
}
