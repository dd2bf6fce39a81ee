package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"raftlab/raftcore"
)

const partitionExample = "../../docs/examples/partition-3-2.json"

// cmd runs raftsim in-process with stdin and returns what it did.
func cmd(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = raftsim(args, strings.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

// summary decodes a run's standard output strictly: a key the summary
// struct does not have would fail here.
func summary(t *testing.T, stdout string) raftcore.Summary {
	t.Helper()
	var s raftcore.Summary
	dec := json.NewDecoder(strings.NewReader(stdout))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		t.Fatalf("summary is not the documented JSON: %v\n%s", err, stdout)
	}
	return s
}

func mustRun(t *testing.T, want int, stdin string, args ...string) string {
	t.Helper()
	code, out, errOut := cmd(t, stdin, args...)
	if code != want {
		t.Fatalf("raftsim %s: exit %d, want %d\nstderr: %s", strings.Join(args, " "), code, want, errOut)
	}
	return out
}

func TestBadInputExitsTwoNamingTheProblem(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing", "schedule.json")
	tests := []struct {
		name  string
		stdin string
		args  []string
		want  string
	}{
		{"no command", "", nil, "Usage:"},
		{"unknown command", "", []string{"walk"}, `unknown command "walk"`},
		{"unknown flag", "", []string{"run", "-f", "-", "-x"}, "flag provided but not defined: -x"},
		{"bad flag value", "", []string{"random", "-seed", "many"}, `invalid value "many" for flag -seed`},
		{"stray argument", "", []string{"run", "-f", "-", "extra"}, `unexpected argument "extra"`},
		{"nothing to run", "", []string{"run"}, "nothing to run: give -f FILE"},
		{"file and scenario", "", []string{"run", "-f", "x.json", "-scenario", "majority"}, "-f and -scenario cannot be used together"},
		{"seed with a file", "", []string{"run", "-f", "x.json", "-seed", "3"}, `-seed goes with -scenario`},
		{"empty file name", "", []string{"run", "-f", ""}, "-f: empty file name"},
		{"snapshot count out of range", `{"until_ms":10,"actions":[]}`, []string{"run", "-f", "-", "-snapshot-count", "-1"},
			"-snapshot-count: -1 is out of range: use 0 (no snapshots) to 100000"},
		{"catch-up entries out of range", `{"until_ms":10,"actions":[]}`, []string{"run", "-f", "-", "-catch-up-entries", "100001"},
			"-catch-up-entries: 100001 is out of range: use 0 to 100000"},
		{"snapshot flags with a scenario", "", []string{"run", "-scenario", "majority", "-snapshot-count", "5"},
			"-snapshot-count and -catch-up-entries go with -f"},
		{"snapshot count in a schedule", `{"until_ms":10,"options":{"snapshot_count":-3},"actions":[]}`, []string{"run", "-f", "-"},
			"options.snapshot_count: -3 is out of range"},
		{"unreadable file", "", []string{"run", "-f", missing}, "-f: open " + missing + ": no such file or directory"},
		{"unwritable trace", `{"until_ms":10,"actions":[]}`, []string{"run", "-f", "-", "-trace", missing}, "-trace: open " + missing},
		{"empty input", "", []string{"run", "-f", "-"}, "standard input: schedule is empty"},
		{"malformed JSON", "{\"until_ms\": 10,\n \"actions\": [}", []string{"run", "-f", "-"}, "schedule is not valid JSON at line 2, column 15"},
		{"truncated JSON", `{"until_ms": 10, "actions": [`, []string{"run", "-f", "-"}, "schedule is not valid JSON: it ends in the middle"},
		{"unknown field", `{"until_ms":10,"actions":[{"at_ms":1,"do":"heal","nod":1}]}`, []string{"run", "-f", "-"},
			`actions[0]: unknown field "nod"; known fields: at_ms, do, node`},
		{"unknown action", `{"until_ms":10,"actions":[{"at_ms":1,"do":"explode"}]}`, []string{"run", "-f", "-"},
			`actions[0].do: unknown action "explode"; use one of partition, heal`},
		{"missing action", `{"until_ms":10,"actions":[{"at_ms":1}]}`, []string{"run", "-f", "-"}, "actions[0].do: missing"},
		{"node out of range", `{"nodes":5,"until_ms":10,"actions":[{"at_ms":1,"do":"crash","node":7}]}`, []string{"run", "-f", "-"},
			"actions[0].node: 7 is out of range: use 1 to 5"},
		{"group out of range", `{"nodes":3,"until_ms":10,"actions":[{"at_ms":1,"do":"partition","groups":[[1],[2,4]]}]}`, []string{"run", "-f", "-"},
			"actions[0].groups[1]: 4 is out of range: use 1 to 3"},
		{"negative time", `{"until_ms":10,"actions":[{"at_ms":-5,"do":"heal"}]}`, []string{"run", "-f", "-"}, "actions[0].at_ms: -5 is negative"},
		{"action after the end", `{"until_ms":10,"actions":[{"at_ms":20,"do":"heal"}]}`, []string{"run", "-f", "-"}, "actions[0].at_ms: 20 is after until_ms (10)"},
		{"wrong type", `{"until_ms":10,"actions":[{"at_ms":1,"do":"heal"},{"at_ms":2,"do":"crash","node":"two"}]}`, []string{"run", "-f", "-"},
			"actions[1].node: want a whole number, got JSON string"},
		{"wrong type at top", `{"nodes":"five","until_ms":10}`, []string{"run", "-f", "-"}, "nodes: want a whole number, got JSON string"},
		{"bad option", `{"until_ms":10,"options":{"latency_ms":[50,10]}}`, []string{"run", "-f", "-"}, "options.latency_ms: [50, 10] is not a range"},
		{"unknown protocol", `{"until_ms":10,"protocol":"paxos"}`, []string{"run", "-f", "-"}, `protocol: unknown protocol "paxos"`},
		{"drop of nothing", `{"until_ms":10,"actions":[{"at_ms":1,"do":"drop","id":99}]}`, []string{"run", "-f", "-"}, "id: message 99 is not in flight"},
		{"event counts going back", `{"nodes":3,"until_ms":8000,"actions":[{"at_ms":3000,"do":"write","node":1,"key":"k","value":"a","after_events":12},{"at_ms":1000,"do":"heal","after_events":40}]}`,
			[]string{"run", "-f", "-"}, "actions[0].after_events: the write at 3000 ms comes after 12 events, fewer than the 40 of actions[1] (heal at 1000 ms)"},
		{"clock running backwards", `{"nodes":3,"until_ms":8000,"actions":[{"at_ms":3000,"do":"write","node":1,"key":"k","value":"a","after_events":5}]}`,
			[]string{"run", "-f", "-"}, "actions[0] (write at 3000ms): after_events: 5 events are handled by"},
		{"random without seed", "", []string{"random"}, "-seed N is required"},
		{"random nodes", "", []string{"random", "-seed", "1", "-nodes", "12"}, "-nodes: 12 is out of range: use 1 to 9"},
		{"random protocol", "", []string{"random", "-seed", "1", "-protocol", "paxos"}, `-protocol: unknown protocol "paxos"`},
		{"random strict without run", "", []string{"random", "-seed", "1", "-strict"}, "-strict goes with -run"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := cmd(t, tc.stdin, tc.args...)
			if code != exitInput {
				t.Fatalf("exit %d, want %d; stderr: %s", code, exitInput, errOut)
			}
			if out != "" {
				t.Errorf("bad input printed to stdout: %s", out)
			}
			if !strings.Contains(errOut, tc.want) {
				t.Errorf("stderr %q does not contain %q", errOut, tc.want)
			}
		})
	}
	if _, err := os.Stat(missing); err == nil {
		t.Errorf("a failed run left %s behind", missing)
	}
}

// TestPartitionThreeTwo plays docs/examples/partition-3-2.json: the leader
// (machine 1) and machine 2 are cut off from 3, 4 and 5, and a client writes
// on each side. Only the majority's write may survive the heal.
func TestPartitionThreeTwo(t *testing.T) {
	tracePath := filepath.Join(t.TempDir(), "trace.jsonl")
	s := summary(t, mustRun(t, exitOK, "", "run", "-f", partitionExample, "-trace", tracePath))
	if len(s.Violations) != 0 {
		t.Fatalf("raft broke rules: %+v", s.Violations)
	}
	if len(s.Nodes) != 5 || len(s.Ops) != 3 {
		t.Fatalf("want 5 nodes and 3 ops, got %d and %d", len(s.Nodes), len(s.Ops))
	}
	minority, majority := s.Ops[1], s.Ops[2]
	if minority.Node != 1 || majority.Node != 3 {
		t.Fatalf("ops are not the example's writes: %+v %+v", minority, majority)
	}
	if majority.Result != raftcore.OpOK || majority.Index == 0 {
		t.Fatalf("the majority side's write did not commit: %+v", majority)
	}
	if minority.Result == raftcore.OpOK {
		t.Fatalf("the minority side's write was acknowledged: %+v", minority)
	}
	minorityData := minority.Key + "=" + minority.Value
	majorityData := majority.Key + "=" + majority.Value
	for _, n := range s.Nodes {
		if n.Commit < majority.Index || n.Applied < majority.Index {
			t.Errorf("machine %d has commit %d, applied %d; the majority's write is at %d", n.ID, n.Commit, n.Applied, majority.Index)
		}
		if got := n.Log[majority.Index-1]; got.Index != majority.Index || got.Data != majorityData {
			t.Errorf("machine %d holds %+v at index %d, want %s", n.ID, got, majority.Index, majorityData)
		}
		if n.KV[majority.Key] != majority.Value {
			t.Errorf("machine %d has %s=%q, want %q", n.ID, majority.Key, n.KV[majority.Key], majority.Value)
		}
		for _, e := range n.Log {
			if e.Data == minorityData {
				t.Errorf("machine %d still holds the minority's write at index %d", n.ID, e.Index)
			}
		}
	}
	// The trace shows what the end state cannot: the old leader did append
	// the minority's write, never applied it, and had it replaced.
	truncated := false
	for _, e := range readTrace(t, tracePath) {
		if e.Kind == "apply" && e.Op == minority.ID {
			t.Errorf("machine %d applied the minority's write: %+v", e.Node, e)
		}
		if e.Kind == "truncate" && e.Node == 1 {
			truncated = true
		}
	}
	if !truncated {
		t.Error("the old leader never replaced its uncommitted entries")
	}
}

// traceLine is a trace event as the file holds it: kinds, roles, causes
// and message types by name.
type traceLine struct {
	Seq      uint64          `json:"seq"`
	AtUs     int64           `json:"at_us"`
	Kind     string          `json:"kind"`
	Node     raftcore.NodeID `json:"node"`
	Peer     raftcore.NodeID `json:"peer"`
	Term     uint64          `json:"term"`
	Index    uint64          `json:"index"`
	Msg      uint64          `json:"msg"`
	Op       int             `json:"op"`
	Text     string          `json:"text"`
	Cause    string          `json:"cause"`
	FromRole string          `json:"from_role"`
	ToRole   string          `json:"to_role"`
	MsgType  string          `json:"msg_type"`
	Rule     string          `json:"rule"`
	Verb     string          `json:"verb"`
}

func readTrace(t *testing.T, path string) []traceLine {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []traceLine
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var e traceLine
		dec := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&e); err != nil {
			t.Fatalf("trace line %d is not a trace event: %v: %s", len(lines)+1, err, sc.Text())
		}
		lines = append(lines, e)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return lines
}

func TestTraceFileHoldsEveryEventOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "trace.jsonl")
	s := summary(t, mustRun(t, exitOK, "", "run", "-f", partitionExample, "-trace", path))
	lines := readTrace(t, path)
	if uint64(len(lines)) != s.TraceEvents || len(lines) < 100 {
		t.Fatalf("trace file has %d events, the summary counts %d", len(lines), s.TraceEvents)
	}
	if len(lines) <= 2*runTraceKeep {
		t.Fatalf("the run has %d events: too few to show that the file gets those the run no longer keeps", len(lines))
	}
	kinds := map[string]int{}
	var last int64
	for i, e := range lines {
		if e.Seq != uint64(i+1) {
			t.Fatalf("line %d has seq %d", i+1, e.Seq)
		}
		if e.AtUs < last || e.AtUs > int64(s.EndMs*1000) {
			t.Fatalf("line %d at %dus is out of order or past the end", i+1, e.AtUs)
		}
		last = e.AtUs
		kinds[e.Kind]++
		// The typed keys are there for the kinds they belong to, even
		// when their value is the first of its type (a follower, a
		// PreVote).
		switch e.Kind {
		case "send", "deliver":
			if e.MsgType == "" {
				t.Errorf("line %d: a %s names no msg_type", i+1, e.Kind)
			}
		case "drop":
			if e.MsgType == "" || e.Cause == "" || e.Cause != e.Text {
				t.Errorf("line %d: a drop with msg_type %q, cause %q and text %q", i+1, e.MsgType, e.Cause, e.Text)
			}
		case "role":
			if e.FromRole == "" || e.ToRole == "" || e.Cause == "" {
				t.Errorf("line %d: a role change from %q to %q for %q says %q", i+1, e.FromRole, e.ToRole, e.Cause, e.Text)
			}
		case "fault", "op-invoke":
			if e.Verb == "" {
				t.Errorf("line %d: a %s names no verb", i+1, e.Kind)
			}
		}
	}
	// Every action of the example is a fault event, and each of its three
	// writes is invoked and completed.
	if kinds["fault"] != 5 || kinds["op-invoke"] != 3 || kinds["op-complete"] != 3 {
		t.Errorf("event kinds %v: want 5 faults, 3 invokes, 3 completions", kinds)
	}
	for _, k := range []string{"send", "deliver", "role", "term", "vote", "append", "commit", "apply", "drop", "truncate"} {
		if kinds[k] == 0 {
			t.Errorf("no %q event in the trace", k)
		}
	}
}

func TestSameScheduleSameTrace(t *testing.T) {
	a := summary(t, mustRun(t, exitOK, "", "run", "-f", partitionExample))
	b := summary(t, mustRun(t, exitOK, "", "run", "-f", partitionExample))
	data, err := os.ReadFile(partitionExample)
	if err != nil {
		t.Fatal(err)
	}
	c := summary(t, mustRun(t, exitOK, string(data), "run", "-f", "-"))
	if a.TraceHash != b.TraceHash || a.TraceHash != c.TraceHash || a.TraceEvents != c.TraceEvents {
		t.Fatalf("same schedule, different traces: %s/%d, %s/%d, %s/%d", a.TraceHash, a.TraceEvents, b.TraceHash, b.TraceEvents, c.TraceHash, c.TraceEvents)
	}
	// The hash does depend on the run: another seed changes it.
	other := strings.Replace(string(data), `"seed": 1,`, `"seed": 2,`, 1)
	if other == string(data) {
		t.Fatal("the example no longer has \"seed\": 1")
	}
	d := summary(t, mustRun(t, exitOK, other, "run", "-f", "-"))
	if d.TraceHash == a.TraceHash {
		t.Fatalf("seeds 1 and 2 gave the same trace %s", a.TraceHash)
	}
}

// naiveSplit writes on both sides of a partition of three machines.
const naiveSplit = `{"nodes":3,"seed":1,"protocol":"PROTOCOL","until_ms":3000,"actions":[
	{"at_ms":500,"do":"partition","groups":[[1,2],[3]]},
	{"at_ms":1000,"do":"write","node":1,"key":"deployments/web","value":"replicas=3"},
	{"at_ms":1000,"do":"write","node":3,"key":"deployments/web","value":"replicas=1"},
	{"at_ms":2000,"do":"heal"}]}`

func TestNaiveProtocolsExitZeroUnlessStrict(t *testing.T) {
	for _, p := range []string{"naive-copy", "failover"} {
		t.Run(p, func(t *testing.T) {
			in := strings.Replace(naiveSplit, "PROTOCOL", p, 1)
			code, out, errOut := cmd(t, in, "run", "-f", "-")
			if code != exitOK {
				t.Fatalf("exit %d, want 0; stderr: %s", code, errOut)
			}
			s := summary(t, out)
			if string(s.Protocol) != p || len(s.Violations) == 0 {
				t.Fatalf("a %s split with writes on both sides broke no rule: %+v", p, s)
			}
			if !strings.Contains(errOut, "-strict makes this exit 1") {
				t.Errorf("stderr does not explain the exit code: %q", errOut)
			}
			code, strictOut, _ := cmd(t, in, "run", "-f", "-", "-strict")
			if code != exitViolation {
				t.Fatalf("-strict: exit %d, want 1", code)
			}
			if strictOut != out {
				t.Error("-strict changed the summary")
			}
		})
	}
}

// TestRaftViolationExitsOne plays docs/examples/stale-lease-read.json, where
// Raft itself breaks a rule, as in the book's clock-drift figure: the
// leader's clock runs at a tenth of real time, so once cut off it trusts its
// lease ten times too long and serves a lease read that misses a write the
// new leader has committed.
func TestRaftViolationExitsOne(t *testing.T) {
	data, err := os.ReadFile("../../docs/examples/stale-lease-read.json")
	if err != nil {
		t.Fatal(err)
	}
	code, out, errOut := cmd(t, "", "run", "-f", "../../docs/examples/stale-lease-read.json")
	if code != exitViolation {
		t.Fatalf("exit %d, want 1; stderr: %s", code, errOut)
	}
	s := summary(t, out)
	if s.ViolationCounts[raftcore.RuleStaleRead] != 1 || !strings.Contains(errOut, "stale-read") {
		t.Fatalf("want one stale read, got %v; stderr %q", s.ViolationCounts, errOut)
	}
	// With an exact clock the same schedule is safe: the old leader's
	// lease runs out before the read.
	exact := strings.Replace(string(data), `"rate": 0.1`, `"rate": 1`, 1)
	if exact == string(data) {
		t.Fatal("the example no longer drifts with \"rate\": 0.1")
	}
	s = summary(t, mustRun(t, exitOK, exact, "run", "-f", "-"))
	if len(s.Violations) != 0 {
		t.Fatalf("with an exact clock: %+v", s.Violations)
	}
	// A linearizable read at the old leader waits for a majority that it
	// cannot reach, instead of answering wrong.
	linear := strings.Replace(string(data), `"mode": "lease"`, `"mode": "linearizable"`, 1)
	s = summary(t, mustRun(t, exitOK, linear, "run", "-f", "-"))
	if len(s.Violations) != 0 || len(s.Ops) != 2 || s.Ops[1].Result == raftcore.OpOK {
		t.Fatalf("linearizable read: violations %+v, ops %+v", s.Violations, s.Ops)
	}
}

// TestHandEditedClockRunningBackwardsIsRefused: a recorded run whose
// write is pinned, by hand, after fewer events than came before its time
// would move the clock past those events and then back to handle them
// (its client would be answered before it asked). raftsim refuses it as
// bad input before it prints anything, naming the action by its place and
// verb: from the counts alone when an earlier action was pinned after more
// events, and otherwise once the count is reached too early.
func TestHandEditedClockRunningBackwardsIsRefused(t *testing.T) {
	var s raftcore.Schedule
	if err := json.Unmarshal([]byte(mustRun(t, exitOK, "", "random", "-seed", "3", "-nodes", "3")), &s); err != nil {
		t.Fatal(err)
	}
	i := len(s.Actions) - 1
	for s.Actions[i].Do != raftcore.DoWrite || s.Actions[i].AfterEvents < 100 {
		i--
	}
	s.Actions[i].AfterEvents = 50
	refused := func(want string) {
		t.Helper()
		edited, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		code, out, errOut := cmd(t, string(edited), "run", "-f", "-")
		if code != exitInput || out != "" || !strings.Contains(errOut, want) {
			t.Fatalf("exit %d, stdout %q, stderr %q; want exit 2 and %q", code, out, errOut, want)
		}
	}
	refused(fmt.Sprintf("actions[%d].after_events: the write at %g ms comes after 50 events, fewer than", i, s.Actions[i].AtMs))
	for j := range s.Actions {
		if j != i {
			s.Actions[j].AfterEvents = 0
		}
	}
	refused(fmt.Sprintf("actions[%d] (write at %gms): after_events: 50 events are handled by", i, s.Actions[i].AtMs))
}

// TestLivenessIsReported: the slowed machine whose timer was set while
// messages waited catches up, and the summary says the run is live; a raft
// run the judge finds not live exits 1 and says why, as a broken rule
// does, while a naive protocol is never judged.
func TestLivenessIsReported(t *testing.T) {
	s := summary(t, mustRun(t, exitOK, "", "run", "-f", "../../raftcore/testdata/slowed-machine-timer.json"))
	if s.Liveness.Verdict != raftcore.Live || s.Liveness.CalmSinceMs != 2500 {
		t.Fatalf("liveness: %+v", s.Liveness)
	}
	stuck := raftcore.Summary{Protocol: raftcore.ProtocolRaft, Liveness: raftcore.Liveness{Verdict: raftcore.NotLive,
		Problems: []string{"machine 3 is pre-candidate in term 1, not following 1, the leader of term 1"}}}
	var errOut bytes.Buffer
	c := &cli{stderr: &errOut}
	if code := c.verdict(stuck, false); code != exitViolation || !strings.Contains(errOut.String(), "raftsim: not live: machine 3 is pre-candidate") {
		t.Fatalf("not live: exit %d, stderr %q", code, errOut.String())
	}
	if err := json.Unmarshal([]byte(mustRun(t, exitOK, "", "run", "-scenario", "three-answers")), &s); err != nil {
		t.Fatal(err)
	}
	if s.Liveness.Verdict != raftcore.NotJudged || !strings.Contains(s.Liveness.Note, "naive-copy promises no progress") {
		t.Fatalf("naive-copy: %+v", s.Liveness)
	}
}

// TestDuplicatedWriteExitsOneWithoutSessions plays the duplicated-proposal
// examples: with sessions off the write applied twice is an exactly-once
// violation and exit 1; with them on the run is clean and the read sees b.
func TestDuplicatedWriteExitsOneWithoutSessions(t *testing.T) {
	code, out, errOut := cmd(t, "", "run", "-f", "../../docs/examples/duplicate-proposal-no-sessions.json")
	if code != exitViolation || !strings.Contains(errOut, "exactly-once") {
		t.Fatalf("exit %d, want 1 naming exactly-once; stderr: %s", code, errOut)
	}
	s := summary(t, out)
	if s.ViolationCounts[raftcore.RuleExactlyOnce] != 1 || s.Ops[2].ReadValue == nil || *s.Ops[2].ReadValue != "a" {
		t.Fatalf("want one exactly-once violation and a read of a: %v, %+v", s.ViolationCounts, s.Ops)
	}
	s = summary(t, mustRun(t, exitOK, "", "run", "-f", "../../docs/examples/duplicate-proposal.json"))
	if len(s.Violations) != 0 || s.Ops[2].ReadValue == nil || *s.Ops[2].ReadValue != "b" {
		t.Fatalf("with sessions: violations %+v, ops %+v", s.Violations, s.Ops)
	}
}

func TestRandomPrintsAReplayableSchedule(t *testing.T) {
	for _, p := range []string{"raft", "failover"} {
		sched := mustRun(t, exitOK, "", "random", "-seed", "7", "-nodes", "3", "-protocol", p)
		parsed, err := raftcore.ParseSchedule([]byte(sched))
		if err != nil {
			t.Fatalf("random printed an invalid schedule: %v", err)
		}
		if parsed.Seed != 7 || parsed.Nodes != 3 || parsed.Protocol != p || len(parsed.Actions) < 10 {
			t.Fatalf("schedule does not match the flags: seed %d, %d nodes, %s, %d actions", parsed.Seed, parsed.Nodes, parsed.Protocol, len(parsed.Actions))
		}
		direct := summary(t, mustRun(t, exitOK, "", "random", "-seed", "7", "-nodes", "3", "-protocol", p, "-run"))
		replay := summary(t, mustRun(t, exitOK, sched, "run", "-f", "-"))
		if direct.TraceHash != replay.TraceHash {
			t.Fatalf("%s: random -run gave trace %s, its schedule replays to %s", p, direct.TraceHash, replay.TraceHash)
		}
		if p == "failover" && len(direct.Violations) > 0 {
			code, _, _ := cmd(t, "", "random", "-seed", "7", "-nodes", "3", "-protocol", p, "-run", "-strict")
			if code != exitViolation {
				t.Errorf("failover -run -strict with violations: exit %d, want 1", code)
			}
		}
	}
	// A cluster of one has no links to cut; the run must still work.
	one := summary(t, mustRun(t, exitOK, "", "random", "-seed", "3", "-nodes", "1", "-run"))
	if len(one.Nodes) != 1 || one.Nodes[0].Role != "leader" {
		t.Fatalf("one machine: %+v", one.Nodes)
	}
}

func TestHelp(t *testing.T) {
	for _, args := range [][]string{{"help"}, {"-h"}, {"--help"}, {"run", "-h"}, {"random", "-help"}} {
		code, out, errOut := cmd(t, "", args...)
		if code != exitOK || out != usage || errOut != "" {
			t.Errorf("raftsim %s: exit %d, stdout %d bytes, stderr %q", strings.Join(args, " "), code, len(out), errOut)
		}
	}
	// The usage names every command and flag the commands accept.
	for _, w := range []string{"run -f FILE", "run -scenario ID", "list", "export -scenario ID", "random -seed N",
		"-trace FILE", "-strict", "-nodes N", "-protocol P", "-run", "Exit status:", "Examples:"} {
		if !strings.Contains(usage, w) {
			t.Errorf("usage lacks %q", w)
		}
	}
}

// TestDocsDescribeEverything keeps docs/raftsim.md in step with the code:
// the usage text verbatim, and every action, schedule key, summary key and
// trace kind by name.
func TestDocsDescribeEverything(t *testing.T) {
	data, err := os.ReadFile("../../docs/raftsim.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	if !strings.Contains(doc, "```text\n"+usage+"```") {
		t.Error("docs/raftsim.md does not show the current usage text")
	}
	for _, a := range raftcore.Verbs {
		if !strings.Contains(doc, "| `"+string(a)+"` |") {
			t.Errorf("action %q has no row in the actions table", a)
		}
	}
	for _, v := range []any{raftcore.Schedule{}, raftcore.ScheduleOptions{}, raftcore.Action{}, raftcore.Summary{},
		raftcore.NodeSummary{}, raftcore.LogEntry{}, raftcore.OpSummary{}, raftcore.Violation{}, raftcore.TraceEvent{},
		raftcore.ReconcileSummary{}, raftcore.ReconcileCounts{}, raftcore.ReconcileFact{}, raftcore.DeploymentController{}, raftcore.Informer{},
		scenarioSummary{}, reachedStep{}} {
		typ := reflect.TypeOf(v)
		for i := 0; i < typ.NumField(); i++ {
			name, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
			if name != "" && !strings.Contains(doc, "`"+name+"`") {
				t.Errorf("%s key %q is not in the docs", typ.Name(), name)
			}
		}
	}
	for k := raftcore.TraceKind(0); !strings.HasPrefix(k.String(), "trace("); k++ {
		if !strings.Contains(doc, "| `"+k.String()+"` |") {
			t.Errorf("trace kind %q has no row in the docs", k)
		}
	}
}

// TestNoisyNetworkExample plays docs/examples/noisy-network.json: with a
// 300 ms election timeout on a network that delays messages by 10 to
// 400 ms and loses 30%, the summary counts many elections; with etcd's
// 1000 ms the same network and seed elect far less often.
func TestNoisyNetworkExample(t *testing.T) {
	data, err := os.ReadFile("../../docs/examples/noisy-network.json")
	if err != nil {
		t.Fatal(err)
	}
	short := summary(t, mustRun(t, exitOK, string(data), "run", "-f", "-"))
	long := strings.Replace(string(data), `"election_ticks": 3`, `"election_ticks": 10`, 1)
	if long == string(data) {
		t.Fatal("the example no longer sets \"election_ticks\": 3")
	}
	def := summary(t, mustRun(t, exitOK, long, "run", "-f", "-"))
	if short.Elections == nil || def.Elections == nil {
		t.Fatal("the summary has no election counters")
	}
	if short.Elections.Elections < 3*def.Elections.Elections || short.Elections.Elections < 10 {
		t.Fatalf("elections: %d with a 300 ms timeout, %d with 1000 ms", short.Elections.Elections, def.Elections.Elections)
	}
}

// TestZoneLossExample plays docs/examples/zone-loss.json: with 2, 2 and 1
// members in three zones, losing the leader's zone leaves a majority, and
// the write made then commits.
func TestZoneLossExample(t *testing.T) {
	code, out, errOut := cmd(t, "", "run", "-f", "../../docs/examples/zone-loss.json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var sum struct {
		Ops []struct {
			Result     string  `json:"result"`
			InvokeMs   float64 `json:"invoke_ms"`
			CompleteMs float64 `json:"complete_ms"`
		} `json:"ops"`
	}
	if err := json.Unmarshal([]byte(out), &sum); err != nil {
		t.Fatal(err)
	}
	if len(sum.Ops) != 2 || sum.Ops[0].Result != "ok" || sum.Ops[1].Result != "ok" {
		t.Fatalf("ops: %+v", sum.Ops)
	}
	if wait := sum.Ops[0].CompleteMs - sum.Ops[0].InvokeMs; wait < 80 {
		t.Fatalf("the first write took %g ms, less than a round trip between zones", wait)
	}
}

// TestBadZonesExitTwo: a schedule with a bad placement or an unknown zone
// is refused with the field named.
func TestBadZonesExitTwo(t *testing.T) {
	cases := map[string]string{
		`{"nodes":3,"seed":1,"until_ms":10,"zones":[{"name":"a","nodes":[1]},{"name":"b","nodes":[2]}],"actions":[]}`:                                              "zones: machine 3 is in no zone",
		`{"nodes":3,"seed":1,"until_ms":10,"zones":[{"name":"a","nodes":[1,2]},{"name":"b","nodes":[3]}],"actions":[{"at_ms":1,"do":"zone-crash","zone":"c"}]}`:    `actions[0].zone: unknown zone "c"; the zones are a, b`,
		`{"nodes":3,"seed":1,"until_ms":10,"zones":[{"name":"a","nodes":[1,2]},{"name":"b","nodes":[3]}],"actions":[{"at_ms":1,"do":"move","node":9,"zone":"a"}]}`: "actions[0].node: 9 is out of range",
	}
	for in, want := range cases {
		code, _, errOut := cmd(t, in, "run", "-f", "-")
		if code != 2 || !strings.Contains(errOut, want) {
			t.Errorf("exit %d, %q; want exit 2 and %q", code, errOut, want)
		}
	}
}

// TestNodeLeaseExample plays docs/examples/node-lease.json: a worker
// crashes and another is cut off from the control plane; both are marked
// NotReady, none spuriously or late, and the cut-off one is Ready again
// after the heal. The summary carries what Kubernetes did.
func TestNodeLeaseExample(t *testing.T) {
	s := summary(t, mustRun(t, exitOK, "", "run", "-f", "../../docs/examples/node-lease.json"))
	k := s.Kube
	if k == nil {
		t.Fatal("the summary has no kube part")
	}
	c := k.Counts
	if c.NotReady != 2 || c.ReadyAgain != 1 || c.Renewals == 0 || c.Looks == 0 || c.Evictions == 0 {
		t.Errorf("counts %+v", c)
	}
	if c.SpuriousNotReady+c.SlowNotReady != 0 {
		t.Errorf("findings %+v", k.Findings)
	}
	if len(k.Nodes) != 3 || !k.Nodes[0].NotReady || k.Nodes[1].NotReady || k.Nodes[0].Status != "crashed" {
		t.Errorf("nodes %+v", k.Nodes)
	}
	renewals := 0
	for _, op := range s.Ops {
		if op.Kube == raftcore.KubeRenew && op.Result == raftcore.OpOK {
			renewals++
		}
	}
	if renewals < c.Renewals {
		t.Errorf("%d renewals acknowledged, only %d applied", c.Renewals, renewals)
	}
}
