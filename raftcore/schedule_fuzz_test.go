package raftcore

import (
	"bytes"
	"strings"
	"testing"
)

// fuzzSeeds are the fuzzer's starting points: schedules that are valid,
// that use every action and option, and that are wrong in each way a person
// writing one by hand might get wrong.
var fuzzSeeds = []string{
	// Valid.
	`{"until_ms":0,"actions":[]}`,
	`{"nodes":3,"workers":3,"kube":{"renew_ms":1000,"grace_ms":2500,"monitor_ms":500,"evict_ms":0,"pods":4},"until_ms":20000,"actions":[
		{"at_ms":3000,"do":"crash","node":4},
		{"at_ms":3500,"do":"partition","groups":[[1,2,3,4,6],[5]]},
		{"at_ms":4000,"do":"pause","node":1},
		{"at_ms":7000,"do":"drift","node":6,"rate":0.3},
		{"at_ms":9000,"do":"resume","node":1},
		{"at_ms":11000,"do":"heal"},
		{"at_ms":12000,"do":"restart","node":4},
		{"at_ms":13000,"do":"cut","from":6,"to":2,"oneway":true}]}`,
	`{"nodes":5,"seed":1,"protocol":"raft","until_ms":14000,"actions":[
		{"at_ms":2500,"do":"write","node":2,"key":"deployments/web","value":"replicas=3"},
		{"at_ms":3000,"do":"partition","groups":[[3,4,5],[1,2]]},
		{"at_ms":3100,"do":"write","node":1,"key":"deployments/web","value":"replicas=2"},
		{"at_ms":6000,"do":"write","node":3,"key":"deployments/web","value":"replicas=5"},
		{"at_ms":9000,"do":"heal"}]}`,
	`{"nodes":3,"seed":7,"protocol":"naive-copy","names":["A","B","C"],"until_ms":3000,"actions":[
		{"at_ms":100,"do":"cut","from":1,"to":3,"oneway":true},
		{"at_ms":200,"do":"write","node":1,"key":"k","value":"v"},
		{"at_ms":300,"do":"restore","from":1,"to":3},
		{"at_ms":400,"do":"delete","node":2,"key":"k"},
		{"at_ms":500,"do":"read","node":3,"key":"k","mode":"local"}]}`,
	`{"nodes":3,"seed":2,"protocol":"failover","until_ms":4000,"actions":[
		{"at_ms":500,"do":"pause","node":1},{"at_ms":2500,"do":"resume","node":1},
		{"at_ms":2600,"do":"crash","node":2},{"at_ms":3000,"do":"restart","node":2}]}`,
	`{"nodes":4,"seed":3,"until_ms":5000,"options":{"prevote":false,"checkquorum":false,"election_ticks":5,
		"heartbeat_ticks":2,"tick_ms":50,"latency_ms":[1,200],"loss":0.1,"duplicate":0.2,"client_timeout_ms":800,
		"inbox_limit":4,"max_entries_per_msg":1,"max_inflight":2},"actions":[
		{"at_ms":10,"do":"latency","latency_ms":[5,50]},
		{"at_ms":20,"do":"latency","from":1,"to":2,"oneway":true,"latency_ms":[0,0]},
		{"at_ms":30,"do":"loss","loss":0.5},{"at_ms":40,"do":"loss","from":3,"to":4,"loss":1},
		{"at_ms":50,"do":"duplicate","duplicate":0.5},
		{"at_ms":60,"do":"slow","node":2,"factor":50},{"at_ms":70,"do":"drift","node":3,"factor":0.5},
		{"at_ms":80,"do":"timeout","node":4},
		{"at_ms":90,"do":"timer","node":1,"ms":250},{"at_ms":90,"do":"timer","node":2,"ms":250},
		{"at_ms":1500,"do":"read","node":1,"key":"a","mode":"lease"},
		{"at_ms":1600,"do":"read","node":2,"key":"a","mode":"linearizable"},
		{"at_ms":1700,"do":"read","node":2,"key":"a","mode":"serializable"}]}`,
	`{"nodes":1,"until_ms":1000,"actions":[{"at_ms":500,"do":"write","node":1,"key":"k","value":"v","after_events":3}]}`,
	// Invalid.
	``,
	`null`,
	`[]`,
	`{"until_ms":10,"actions":[{"at_ms":1,"do":"crash","node":1}`,
	`{"until_ms":10,"bogus":1}`,
	`{"nodes":"five","until_ms":10}`,
	`{"until_ms":10,"actions":[{"at_ms":1,"do":"crash","node":"x"}]}`,
	`{"until_ms":10,"actions":[{"at_ms":-1,"do":"crash","node":1}]}`,
	`{"until_ms":10,"actions":[{"at_ms":1,"do":"explode","node":1}]}`,
	`{"until_ms":10,"actions":[{"at_ms":1,"do":"crash","node":7}]}`,
	`{"until_ms":10,"actions":[{"at_ms":1,"do":"timer","node":1,"ms":0}]}`,
	`{"until_ms":10,"actions":[{"at_ms":1,"do":"timer","node":1,"ms":1e9}]}`,
	`{"until_ms":10,"actions":[{"at_ms":20,"do":"heal"}]}`,
	`{"until_ms":10,"actions":[{"at_ms":1,"do":"drop","id":99}]}`,
	`{"until_ms":10,"actions":[{"at_ms":1,"do":"partition","groups":[[1,2],[2,3]]}]}`,
	`{"until_ms":10,"options":{"latency_ms":[5]}}`,
	`{"until_ms":10,"options":{"election_ticks":9000000000000000000,"heartbeat_ticks":1}}`,
	`{"until_ms":10,"options":{"client_timeout_ms":9000000000000000000}}`,
	`{"nodes":3,"until_ms":2000,"options":{"client_timeout_ms":9223372036854775807},"actions":[{"at_ms":1500,"do":"write","node":1,"key":"k","value":"v"}]}`,
	`{"nodes":3,"until_ms":10,"names":["A"]}`,
	`{"until_ms":1e300}`,
	`{"until_ms":10} {}`,
	// Long: a quiet virtual day of nine machines.
	`{"nodes":9,"until_ms":86400000,"actions":[]}`,
}

// fuzzMachineTicks is how much of each schedule's run the fuzzer plays
// (MachineTicks: three machines for ten virtual minutes, nine for three
// and a half), so that a long run is played as far as that rather than
// skipped: the fuzzer calls an input that takes ten seconds a hang, and a
// quiet virtual day of nine machines takes several.
const fuzzMachineTicks = 18_000

// fuzzCut shortens s to the time at which its run has asked for ticks
// machine ticks, dropping the actions after it.
func fuzzCut(s Schedule, ticks float64) Schedule {
	if s.MachineTicks() <= ticks {
		return s
	}
	cfg := s.Config()
	lo, hi := 0.0, s.UntilMs
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if MachineTicks(cfg, s.Actions, msToUs(mid)) <= ticks {
			lo = mid
		} else {
			hi = mid
		}
	}
	s.UntilMs = lo
	kept := s.Actions[:0:0]
	for _, a := range s.Actions {
		if a.AtMs <= s.UntilMs {
			kept = append(kept, a)
		}
	}
	s.Actions = kept
	return s
}

// FuzzDecodeSchedule feeds arbitrary bytes to DecodeSchedule. Decoding must
// never panic, every rejection must be a message a person can act on, and
// every accepted schedule must run (cut short) without panicking and replay
// from its own export to the same trace.
func FuzzDecodeSchedule(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := DecodeSchedule(bytes.NewReader(data))
		if err != nil {
			msg := err.Error()
			// These would mean an error went out undescribed: a Go type
			// name or encoding/json's own wording instead of the field.
			for _, leak := range []string{"raftcore.", "json: ", "[]interface", "map["} {
				if strings.Contains(msg, leak) {
					t.Fatalf("error %q shows %q instead of describing the problem", msg, leak)
				}
			}
			return
		}
		s = fuzzCut(s, fuzzMachineTicks)
		// Virtual time never runs backwards, whatever the configuration;
		// the run keeps only a few events and the check reads them all
		// as they are recorded.
		var last int64
		w, err := s.RunTraced(16, func(e TraceEvent) {
			if e.AtUs < last {
				t.Fatalf("trace event %d at %dus comes after one at %dus", e.Seq, e.AtUs, last)
			}
			last = e.AtUs
		})
		if err != nil {
			// Only an action that depends on the run itself (a drop of
			// a message that is not in flight) may fail after decoding.
			if !strings.HasPrefix(err.Error(), "actions[") {
				t.Fatalf("valid schedule failed to run: %v", err)
			}
			return
		}
		for _, op := range w.Summarize().Ops {
			if op.CompleteMs != nil && *op.CompleteMs < op.InvokeMs {
				t.Fatalf("op %d completed at %gms, before it was invoked at %gms", op.ID, *op.CompleteMs, op.InvokeMs)
			}
		}
		again, err := w.Schedule().RunTraced(16, nil)
		if err != nil {
			t.Fatalf("replaying the exported schedule: %v", err)
		}
		if again.TraceHash() != w.TraceHash() {
			t.Fatalf("replay of the exported schedule gave trace %x, want %x", again.TraceHash(), w.TraceHash())
		}
	})
}
