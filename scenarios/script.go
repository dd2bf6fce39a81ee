package scenarios

import (
	"fmt"

	"raftlab/raftcore"
)

// Helpers to write scenario scripts and configurations compactly. The ones
// the builders call most (at, write, act, config) are go:noinline: each runs
// once when a figure is built, and inlined they were copied into the builders
// at every call, loop and Action or Config literal included (see claims.go).

// script is an autoplay under construction.
type script []raftcore.Action

// at adds actions at ms milliseconds of virtual time.
//
//go:noinline
func (s *script) at(ms float64, acts ...raftcore.Action) {
	for _, a := range acts {
		a.AtMs = ms
		*s = append(*s, a)
	}
}

//go:noinline
func write(n int, key, value string) raftcore.Action {
	return raftcore.Action{Do: raftcore.DoWrite, Node: n, Key: key, Value: value}
}

func readLocal(n int, key string) raftcore.Action {
	return raftcore.Action{Do: raftcore.DoRead, Node: n, Key: key, Mode: raftcore.ReadLocal}
}

func partition(groups ...[]int) raftcore.Action {
	return raftcore.Action{Do: raftcore.DoPartition, Groups: groups}
}

func heal() raftcore.Action { return raftcore.Action{Do: raftcore.DoHeal} }

// act is an action on one machine: pause, resume, crash, restart, timeout.
//
//go:noinline
func act(do raftcore.Verb, n int) raftcore.Action { return raftcore.Action{Do: do, Node: n} }

// lossOneWay sets the loss probability of the from->to direction only.
func lossOneWay(from, to int, p float64) raftcore.Action {
	return raftcore.Action{Do: raftcore.DoLoss, From: from, To: to, OneWay: true, Loss: &p}
}

// latency sets the latency of the link between two machines, both ways.
func latency(a, b int, lo, hi float64) raftcore.Action {
	return raftcore.Action{Do: raftcore.DoLatency, From: a, To: b, LatencyMs: []float64{lo, hi}}
}

// config is the etcd-like default configuration with the given protocol
// and machine names.
//
//go:noinline
func config(p raftcore.Protocol, names []string) raftcore.Config {
	c := raftcore.DefaultConfig()
	c.Protocol = p
	c.Nodes = len(names)
	c.Names = names
	return c
}

var (
	abc   = []string{"A", "B", "C"}
	abcde = []string{"A", "B", "C", "D", "E"}
)

// etcdNames names n members the way an etcd cluster's pods are named.
func etcdNames(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("etcd-%d", i+1)
	}
	return out
}

// protocolKnob offers a choice of protocols, the first being the default.
func protocolKnob(ps ...raftcore.Protocol) Knob {
	k := Knob{Name: "protocol", Label: "Protocol", Default: string(ps[0])}
	for _, p := range ps {
		k.Values = append(k.Values, string(p))
	}
	return k
}

// compareWith offers the protocol other than p among ps.
func compareWith(p raftcore.Protocol, ps ...raftcore.Protocol) *Setting {
	for _, q := range ps {
		if q != p {
			return &Setting{Knob: "protocol", Value: string(q)}
		}
	}
	return nil
}

const chapterHistory = "One authoritative history"
const chapterFundamentals = "Distributed systems fundamentals"

// Keys read like Kubernetes objects, as the book's examples do.
const (
	keyWeb = "deployments/web"
	keyAPI = "deployments/api"
	keyDB  = "deployments/db"
)

// The protocols the figures run, by short name.
const (
	naive    = raftcore.ProtocolNaiveCopy
	failover = raftcore.ProtocolFailover
	raft     = raftcore.ProtocolRaft
)
