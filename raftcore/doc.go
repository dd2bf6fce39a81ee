// Package raftcore is raftlab's engine: a deterministic Raft cluster and the
// simulated world it lives in.
//
// Everything a reader sees in the app is state held here. The package has
// three parts:
//
//   - Node: one machine. For the "raft" protocol it follows etcd-io/raft's
//     semantics (PreVote, CheckQuorum, the empty entry on election, proposal
//     forwarding, ReadIndex and lease reads, probe/replicate flow control).
//     The two naive protocols ("naive-copy" and "failover") share the same
//     Node type so that the app can draw them alike.
//   - World: the clock, the network, faults and clients, and the zones
//     (failure domains) machines may be placed in. It is single
//     threaded: one seeded random source, one virtual clock in microseconds
//     and one event queue ordered by (time, sequence). Nothing reads the wall
//     clock or iterates a map, so the same seed and the same actions give the
//     same trace, byte for byte, on every platform.
//   - Checker: the safety properties of the Raft paper (Figure 3), checked
//     after every event, each violation explained in one sentence.
//
// The arithmetic of majorities is the subpackage quorum, in etcd-io/raft's
// shape: which index a majority of the machines holds, and whether a count
// of answers is won, lost or still open. Node commits (raft.go), counts its
// pre-votes and votes (raft.go), its CheckQuorum round (clock.go) and its
// ReadIndex heartbeat answers (read.go) with it, and the Checker its
// majority rule (checker.go).
//
// Kubernetes stands on the store when Config.Workers is set: worker
// machines, numbered after the members, run kubelets that renew their
// node Leases through the members' API servers, and a node lifecycle
// controller marks nodes NotReady and moves their Pods (kubelet.go,
// nodelifecycle.go); kubecheck.go judges it. Its decisions (backoff, a
// node's health on the controller's clock, zone states) are the
// subpackage kube, which, like quorum, imports nothing of raftcore.
//
// On top of the replicated store run Kubernetes' controllers: deployment
// controllers whose informers list and watch the store through an etcd
// member's API server and whose reconcile loops work from the informers'
// caches (watch.go, informer.go, reconcile.go), judged by checks of their
// own (an object created twice, a cache that missed a change).
//
// The World changes only through Actions, which are recorded, so any run can
// be replayed exactly from its Config and its action log.
package raftcore
