package raftcore

import "fmt"

// RandomOptions shape a random fault run.
type RandomOptions struct {
	Nodes    int      // 0 picks 3, 5 or 7
	Protocol Protocol // "" means raft
	UntilMs  float64  // 0 picks 20 to 40 seconds
	// MeanGapMs is the average time between actions (0 means 400).
	MeanGapMs float64
	// Bugs breaks Raft on purpose (checker tests only).
	Bugs Bug
	// StopOnViolation ends the run at the first violation.
	StopOnViolation bool
}

// RandomRun plays a reproducible run of faults and client requests chosen
// from seed: partitions, one-way cuts, pauses, crashes, restarts, loss,
// duplicates, clock drift, slowness, forced timeouts, writes and reads.
//
// Like a Jepsen nemesis it looks at the world when it picks a fault: it
// crashes, pauses or isolates the current leader more often than chance
// would, since that is where the interesting bugs are. Every choice goes
// through World.Apply, so w.Schedule() reproduces the run exactly. The last
// quarter heals everything so the cluster can converge.
func RandomRun(seed int64, o RandomOptions) *World {
	r := NewRand(seed)
	cfg := DefaultConfig()
	cfg.Seed = seed
	cfg.Nodes = o.Nodes
	if cfg.Nodes == 0 {
		cfg.Nodes = []int{3, 5, 7}[r.Intn(3)]
	}
	if o.Protocol != "" {
		cfg.Protocol = o.Protocol
	}
	cfg.PreVote, cfg.CheckQuorum = r.Chance(0.7), r.Chance(0.7)
	if r.Chance(0.3) {
		cfg.Loss = float64(r.Intn(20)) / 100
	}
	// Small appends make replication advance one entry at a time, which
	// exposes ordering bugs (such as the paper's Figure 8) more often.
	cfg.MaxEntriesPerMsg = []int{1, 4, 64}[r.Intn(3)]
	cfg.Bugs = o.Bugs
	until := o.UntilMs
	if until == 0 {
		until = float64(20000 + r.Intn(20001))
	}
	gap := o.MeanGapMs
	if gap == 0 {
		gap = 400
	}
	w := MustWorld(cfg)
	n := cfg.Nodes
	node := func() int { return 1 + r.Intn(n) }
	other := func(a int) int { return 1 + (a+r.Intn(n-1))%n }
	leader := func() int {
		for i := 1; i <= n; i++ {
			if w.Status(NodeID(i)) == StatusUp && w.Node(NodeID(i)).Role() == RoleLeader {
				return i
			}
		}
		return node()
	}
	calm := msToUs(until * 0.75)
	end := msToUs(until)
	writes := 0
	healed := false
	for {
		w.RunFor(1000 * int64(1+r.Intn(int(2*gap))))
		if w.now >= end || (o.StopOnViolation && w.ViolationCount("") > 0) {
			break
		}
		var acts []Action
		k := r.Intn(100)
		if w.now >= calm {
			k = 100
		}
		if n == 1 && k < 30 {
			k = 30 // no links to cut in a cluster of one
		}
		switch {
		case k < 7:
			perm := make([]int, n)
			for i := range perm {
				perm[i] = i + 1
			}
			for i := n - 1; i > 0; i-- {
				j := r.Intn(i + 1)
				perm[i], perm[j] = perm[j], perm[i]
			}
			cut := 1 + r.Intn(n-1)
			acts = append(acts, Action{Do: DoPartition, Groups: [][]int{perm[:cut], perm[cut:]}})
		case k < 11:
			// Cut the leader off from everyone else.
			l := leader()
			var rest []int
			for i := 1; i <= n; i++ {
				if i != l {
					rest = append(rest, i)
				}
			}
			acts = append(acts, Action{Do: DoPartition, Groups: [][]int{{l}, rest}})
		case k < 16:
			acts = append(acts, Action{Do: DoHeal})
		case k < 22:
			a := node()
			acts = append(acts, Action{Do: DoCut, From: a, To: other(a), OneWay: r.Chance(0.5)})
		case k < 26:
			a := node()
			acts = append(acts, Action{Do: DoRestore, From: a, To: other(a)})
		case k < 36:
			id := node()
			if r.Chance(0.5) {
				id = leader()
			}
			switch w.Status(NodeID(id)) {
			case StatusCrashed:
				acts = append(acts, Action{Do: DoRestart, Node: id})
			case StatusPaused:
				acts = append(acts, Action{Do: DoResume, Node: id})
			default:
				acts = append(acts, Action{Do: DoCrash, Node: id})
			}
		case k < 42:
			id := node()
			if r.Chance(0.5) {
				id = leader()
			}
			switch w.Status(NodeID(id)) {
			case StatusPaused:
				acts = append(acts, Action{Do: DoResume, Node: id})
			case StatusUp:
				acts = append(acts, Action{Do: DoPause, Node: id})
			default:
				acts = append(acts, Action{Do: DoRestart, Node: id})
			}
		case k < 45:
			acts = append(acts, Action{Do: DoDrift, Node: node(), Rate: []float64{0.5, 0.8, 1, 1.25, 2}[r.Intn(5)]})
		case k < 48:
			acts = append(acts, Action{Do: DoSlow, Node: node(), MsPerMessage: []float64{1, 1, 5, 50}[r.Intn(4)]})
		case k < 53:
			acts = append(acts, Action{Do: DoTimeout, Node: node()})
		case k < 56:
			p := float64(r.Intn(4)) / 10
			acts = append(acts, Action{Do: DoDuplicate, Duplicate: &p})
		case k < 85:
			writes++
			a := Action{Do: DoWrite, Node: node(), Key: fmt.Sprintf("deployments/app%d", r.Intn(4)), Value: fmt.Sprintf("v%d", writes)}
			if r.Chance(0.5) {
				a.Node = leader()
			}
			if r.Chance(0.1) {
				a.Do, a.Value = DoDelete, ""
			}
			acts = append(acts, a)
		case k < 100:
			acts = append(acts, Action{Do: DoRead, Node: node(), Key: fmt.Sprintf("deployments/app%d", r.Intn(4)),
				Mode: []ReadMode{ReadLinearizable, ReadLease, ReadLocal}[r.Intn(3)]})
		default:
			if !healed {
				healed = true
				acts = append(acts, Action{Do: DoHeal})
				p := 0.0
				acts = append(acts, Action{Do: DoDuplicate, Duplicate: &p}, Action{Do: DoLoss, Loss: &p})
				for id := 1; id <= n; id++ {
					switch w.Status(NodeID(id)) {
					case StatusCrashed:
						acts = append(acts, Action{Do: DoRestart, Node: id})
					case StatusPaused:
						acts = append(acts, Action{Do: DoResume, Node: id})
					}
					acts = append(acts, Action{Do: DoSlow, Node: id, MsPerMessage: 1}, Action{Do: DoDrift, Node: id, Rate: 1})
				}
			}
			writes++
			acts = append(acts, Action{Do: DoWrite, Node: node(), Key: "deployments/final", Value: fmt.Sprintf("v%d", writes)})
		}
		for _, a := range acts {
			if err := w.Apply(a); err != nil {
				panic(fmt.Sprintf("random run made an invalid action %v: %v", a, err))
			}
		}
	}
	return w
}
