package raftcore

// Scripted transcripts, in the spirit of etcd-io/raft's testdata: each file
// in testdata/*.txt is a small script of timed actions, a line "----", and
// the golden trace the script must produce. The trace is filtered to what a
// reader of the Raft paper follows (roles, terms, votes, truncations,
// commits, applies, client operations and violations) and ends with every
// machine's final state. `go test ./raftcore -run Transcript -update`
// rewrites the goldens; review every change by reading it.
//
// Script lines (times in virtual milliseconds; # starts a comment):
//
//	nodes 5
//	seed 3
//	set prevote=false checkquorum=false latency=10 max_entries=1
//	at 100 timeout 1            (several machines: timeout 1,2)
//	at 900 partition 1,2 | 3,4,5
//	at 900 cut 1->3             (one way; 1-3 cuts both ways)
//	at 900 restore 1->3
//	at 900 latency 1->3 5       (or latency 5-10 for every link)
//	at 900 loss 0.1             (duplicate works alike)
//	at 900 heal
//	at 900 crash 2              (restart, pause, resume alike)
//	at 900 slow 2 50            (drift 2 0.1 alike)
//	at 900 write 1 x=a          (delete 1 x; read 1 x lease)
//	until 5000

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// script is a parsed transcript.
type script struct {
	file    string
	cfg     Config
	steps   []scriptStep
	untilMs float64
	text    string // everything before the "----" line, verbatim
	golden  string // everything after it
}

type scriptStep struct {
	atMs float64
	line int
	acts []Action
	// show prints every machine's state into the trace at this instant.
	show bool
}

// note is text shown in a trace after the event numbered after.
type note struct {
	after uint64
	text  string
}

const goldenSeparator = "----\n"

func parseScript(file string, data []byte) (*script, error) {
	s := &script{file: file, cfg: DefaultConfig()}
	text := string(data)
	if i := strings.Index(text, "\n"+goldenSeparator); i >= 0 {
		s.text, s.golden = text[:i+1], text[i+1+len(goldenSeparator):]
	} else {
		s.text = text
	}
	for n, raw := range strings.Split(s.text, "\n") {
		line := strings.TrimSpace(raw)
		if i := strings.Index(line, "#"); i >= 0 {
			line = strings.TrimSpace(line[:i])
		}
		if line == "" {
			continue
		}
		if err := s.parseLine(n+1, strings.Fields(line)); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", file, n+1, err)
		}
	}
	if s.untilMs == 0 {
		return nil, fmt.Errorf("%s: missing the line \"until MS\"", file)
	}
	if err := s.cfg.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %v", file, err)
	}
	for _, st := range s.steps {
		if st.atMs > s.untilMs {
			return nil, fmt.Errorf("%s:%d: at %g is after until %g", file, st.line, st.atMs, s.untilMs)
		}
		for _, a := range st.acts {
			if err := a.Validate(s.cfg.Nodes); err != nil {
				return nil, fmt.Errorf("%s:%d: %v", file, st.line, err)
			}
		}
	}
	return s, nil
}

func (s *script) parseLine(line int, f []string) error {
	switch f[0] {
	case "nodes", "seed", "until":
		if len(f) != 2 {
			return fmt.Errorf("%s takes one number", f[0])
		}
		v, err := strconv.ParseFloat(f[1], 64)
		if err != nil {
			return fmt.Errorf("%s: %v", f[0], err)
		}
		switch f[0] {
		case "nodes":
			s.cfg.Nodes = int(v)
		case "seed":
			s.cfg.Seed = int64(v)
		default:
			s.untilMs = v
		}
		return nil
	case "set":
		for _, kv := range f[1:] {
			if err := s.set(kv); err != nil {
				return err
			}
		}
		return nil
	case "at":
		if len(f) < 3 {
			return fmt.Errorf("want: at MS ACTION ARGS, or at MS state")
		}
		at, err := strconv.ParseFloat(f[1], 64)
		if err != nil {
			return fmt.Errorf("at: %v", err)
		}
		if n := len(s.steps); n > 0 && at < s.steps[n-1].atMs {
			return fmt.Errorf("at %g comes before the previous line's %g", at, s.steps[n-1].atMs)
		}
		if f[2] == "state" && len(f) == 3 {
			s.steps = append(s.steps, scriptStep{atMs: at, line: line, show: true})
			return nil
		}
		acts, err := parseScriptAction(f[2], f[3:])
		if err != nil {
			return fmt.Errorf("%s: %v", f[2], err)
		}
		for i := range acts {
			acts[i].AtMs = at
		}
		s.steps = append(s.steps, scriptStep{atMs: at, line: line, acts: acts})
		return nil
	}
	return fmt.Errorf("unknown line %q: use nodes, seed, set, at or until", f[0])
}

func (s *script) set(kv string) error {
	k, v, ok := strings.Cut(kv, "=")
	if !ok {
		return fmt.Errorf("set: want key=value, got %q", kv)
	}
	c := &s.cfg
	var err error
	switch k {
	case "prevote":
		c.PreVote, err = strconv.ParseBool(v)
	case "checkquorum":
		c.CheckQuorum, err = strconv.ParseBool(v)
	case "latency":
		var r []float64
		if r, err = parseRange(v); err == nil {
			c.LatencyMinMs, c.LatencyMaxMs = r[0], r[1]
		}
	case "election_ticks":
		c.ElectionTicks, err = strconv.Atoi(v)
	case "heartbeat_ticks":
		c.HeartbeatTicks, err = strconv.Atoi(v)
	case "max_entries":
		c.MaxEntriesPerMsg, err = strconv.Atoi(v)
	case "client_timeout_ms":
		c.ClientTimeoutMs, err = strconv.Atoi(v)
	default:
		return fmt.Errorf("set: unknown key %q", k)
	}
	if err != nil {
		return fmt.Errorf("set %s: %v", k, err)
	}
	return nil
}

// parseRange reads "10" as [10, 10] and "10-30" as [10, 30].
func parseRange(s string) ([]float64, error) {
	lo, hi, ok := strings.Cut(s, "-")
	if !ok {
		hi = lo
	}
	a, err := strconv.ParseFloat(lo, 64)
	if err != nil {
		return nil, err
	}
	b, err := strconv.ParseFloat(hi, 64)
	if err != nil {
		return nil, err
	}
	return []float64{a, b}, nil
}

// parseLink reads "1-2" (both ways) and "1->2" (one way).
func parseLink(s string) (from, to int, oneWay bool, err error) {
	sep := "-"
	if strings.Contains(s, "->") {
		sep, oneWay = "->", true
	}
	a, b, ok := strings.Cut(s, sep)
	if !ok {
		return 0, 0, false, fmt.Errorf("want a link like 1-2 or 1->2, got %q", s)
	}
	if from, err = strconv.Atoi(a); err == nil {
		to, err = strconv.Atoi(b)
	}
	return from, to, oneWay, err
}

func parseNodes(s string) ([]int, error) {
	var out []int
	for _, p := range strings.Split(s, ",") {
		id, err := strconv.Atoi(p)
		if err != nil {
			return nil, fmt.Errorf("want machine ids like 1,2, got %q", s)
		}
		out = append(out, id)
	}
	return out, nil
}

func parseScriptAction(verb string, args []string) ([]Action, error) {
	want := func(n int, usage string) error {
		if len(args) != n {
			return fmt.Errorf("want: %s %s", verb, usage)
		}
		return nil
	}
	a := Action{Do: Verb(verb)}
	switch verb {
	case "heal":
		return []Action{a}, want(0, "")
	case "partition":
		for _, g := range strings.Split(strings.Join(args, ""), "|") {
			ids, err := parseNodes(g)
			if err != nil {
				return nil, err
			}
			a.Groups = append(a.Groups, ids)
		}
		return []Action{a}, nil
	case "cut", "restore":
		if err := want(1, "1-2 or 1->2"); err != nil {
			return nil, err
		}
		var err error
		a.From, a.To, a.OneWay, err = parseLink(args[0])
		return []Action{a}, err
	case "latency", "loss", "duplicate":
		if len(args) == 2 {
			var err error
			if a.From, a.To, a.OneWay, err = parseLink(args[0]); err != nil {
				return nil, err
			}
			args = args[1:]
		}
		if err := want(1, "[LINK] VALUE"); err != nil {
			return nil, err
		}
		if verb == "latency" {
			r, err := parseRange(args[0])
			a.LatencyMs = r
			return []Action{a}, err
		}
		p, err := strconv.ParseFloat(args[0], 64)
		if verb == "loss" {
			a.Loss = &p
		} else {
			a.Duplicate = &p
		}
		return []Action{a}, err
	case "pause", "resume", "crash", "restart", "timeout":
		if err := want(1, "N or N,M"); err != nil {
			return nil, err
		}
		ids, err := parseNodes(args[0])
		var out []Action
		for _, id := range ids {
			out = append(out, Action{Do: Verb(verb), Node: id})
		}
		return out, err
	case "slow", "drift":
		if err := want(2, "N FACTOR"); err != nil {
			return nil, err
		}
		var err error
		if a.Node, err = strconv.Atoi(args[0]); err == nil {
			var f float64
			f, err = strconv.ParseFloat(args[1], 64)
			if a.Do == DoSlow {
				a.MsPerMessage = f
			} else {
				a.Rate = f
			}
		}
		return []Action{a}, err
	case "write":
		if err := want(2, "N key=value"); err != nil {
			return nil, err
		}
		var ok bool
		if a.Key, a.Value, ok = strings.Cut(args[1], "="); !ok {
			return nil, fmt.Errorf("want: write N key=value")
		}
		var err error
		a.Node, err = strconv.Atoi(args[0])
		return []Action{a}, err
	case "delete", "read":
		if len(args) < 2 || len(args) > 3 || (verb == "delete" && len(args) != 2) {
			return nil, fmt.Errorf("want: delete N key, or read N key [linearizable|lease|local]")
		}
		a.Key = args[1]
		if len(args) == 3 {
			a.Mode = ReadMode(args[2])
		}
		var err error
		a.Node, err = strconv.Atoi(args[0])
		return []Action{a}, err
	}
	return nil, fmt.Errorf("unknown action; use one of %s", verbList())
}

// run plays the script in a new world built from cfg, stopping once the
// clock reaches stopMs (the script's end when stopMs is 0).
func (s *script) run(t testing.TB, cfg Config, stopMs float64) (*World, []note) {
	t.Helper()
	if stopMs == 0 {
		stopMs = s.untilMs
	}
	w, err := NewWorld(cfg)
	if err != nil {
		t.Fatalf("%s: %v", s.file, err)
	}
	return w, s.play(t, w, -1, stopMs)
}

// play applies the steps timed in (fromMs, toMs] and runs the world to toMs.
func (s *script) play(t testing.TB, w *World, fromMs, toMs float64) []note {
	t.Helper()
	var notes []note
	for _, st := range s.steps {
		if st.atMs <= fromMs || st.atMs > toMs {
			continue
		}
		w.RunUntil(msToUs(st.atMs))
		if st.show {
			notes = append(notes, note{after: w.TraceCount(), text: fmt.Sprintf("%10s state\n%s", fmtMs(w.Now()), formatNodes(w))})
		}
		for _, a := range st.acts {
			if err := w.Apply(a); err != nil {
				t.Fatalf("%s:%d: %v", s.file, st.line, err)
			}
		}
	}
	w.RunUntil(msToUs(toMs))
	return notes
}

func loadScript(t testing.TB, name string) *script {
	t.Helper()
	path := filepath.Join("testdata", name)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s, err := parseScript(path, data)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// scriptAction writes an action back in script syntax.
func scriptAction(a Action) string {
	link := func() string {
		if a.From == 0 && a.To == 0 {
			return ""
		}
		if a.OneWay {
			return fmt.Sprintf(" %d->%d", a.From, a.To)
		}
		return fmt.Sprintf(" %d-%d", a.From, a.To)
	}
	g := func(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
	switch a.Do {
	case DoPartition:
		groups := make([]string, len(a.Groups))
		for i, grp := range a.Groups {
			ids := make([]string, len(grp))
			for j, id := range grp {
				ids[j] = strconv.Itoa(id)
			}
			groups[i] = strings.Join(ids, ",")
		}
		return "partition " + strings.Join(groups, " | ")
	case DoCut, DoRestore:
		return string(a.Do) + link()
	case DoLatency:
		r := g(a.LatencyMs[0])
		if a.LatencyMs[1] != a.LatencyMs[0] {
			r += "-" + g(a.LatencyMs[1])
		}
		return string(a.Do) + link() + " " + r
	case DoLoss:
		return string(a.Do) + link() + " " + g(*a.Loss)
	case DoDuplicate:
		return string(a.Do) + link() + " " + g(*a.Duplicate)
	case DoSlow:
		return fmt.Sprintf("%s %d %s", a.Do, a.Node, g(a.MsPerMessage))
	case DoDrift:
		return fmt.Sprintf("%s %d %s", a.Do, a.Node, g(a.Rate))
	case DoWrite:
		return fmt.Sprintf("write %d %s=%s", a.Node, a.Key, a.Value)
	case DoDelete:
		return fmt.Sprintf("delete %d %s", a.Node, a.Key)
	case DoRead:
		mode, _ := ParseReadMode(string(a.Mode))
		return fmt.Sprintf("read %d %s %s", a.Node, a.Key, mode)
	case DoHeal:
		return "heal"
	}
	return fmt.Sprintf("%s %d", a.Do, a.Node)
}

// formatTrace renders the events a reader of the paper follows, one per
// line, with the notes in place, and then each machine's final state.
func formatTrace(w *World, notes []note) string {
	var b strings.Builder
	faults := 0
	for _, e := range w.Trace() {
		for len(notes) > 0 && notes[0].after < e.Seq {
			b.WriteString(notes[0].text)
			notes = notes[1:]
		}
		var line string
		if e.Kind == TraceFault {
			// Each action leaves exactly one fault event, in order.
			line = "* " + scriptAction(w.Actions()[faults])
			faults++
		} else {
			line = formatEvent(w, e)
		}
		if line == "" {
			continue
		}
		fmt.Fprintf(&b, "%10s %s\n", fmtMs(e.AtUs), line)
	}
	for _, n := range notes {
		b.WriteString(n.text)
	}
	fmt.Fprintf(&b, "%10s end\n%s", fmtMs(w.Now()), formatNodes(w))
	return b.String()
}

func formatNodes(w *World) string {
	var b strings.Builder
	for i := 1; i <= w.Size(); i++ {
		b.WriteString(formatNode(w, NodeID(i)))
		b.WriteByte('\n')
	}
	return b.String()
}

func fmtMs(us int64) string {
	if us%1000 == 0 {
		return fmt.Sprintf("%dms", us/1000)
	}
	return fmt.Sprintf("%d.%03dms", us/1000, us%1000)
}

func formatEvent(w *World, e TraceEvent) string {
	switch e.Kind {
	case TraceRole:
		if e.Cause == CauseStart {
			// A machine starting (or restarting) as a follower; the
			// restart itself is already shown as an action.
			return ""
		}
		return fmt.Sprintf("n%d %s (term %d)", e.Node, e.Text, e.Term)
	case TraceTerm:
		return fmt.Sprintf("n%d term %d", e.Node, e.Term)
	case TraceVote:
		return fmt.Sprintf("n%d votes for n%d in term %d", e.Node, e.Peer, e.Term)
	case TraceTruncate:
		return fmt.Sprintf("n%d replaces its log from index %d", e.Node, e.Index)
	case TraceCommit:
		return fmt.Sprintf("n%d commit %d", e.Node, e.Index)
	case TraceApply:
		return fmt.Sprintf("n%d apply %d (term %d) %s", e.Node, e.Index, e.Term, entryText(w.Node(e.Node), e.Index, e.Term, e.Op))
	case TraceOpInvoke:
		return fmt.Sprintf("op%d %s at n%d", e.Op, e.Text, e.Node)
	case TraceOpComplete:
		op, _ := w.Op(e.Op)
		return fmt.Sprintf("op%d %s", e.Op, opOutcome(op))
	case TraceViolation:
		return "VIOLATION " + string(e.Rule()) + ": " + e.Text
	}
	return ""
}

// entryText names what an applied entry did. The node's log may have changed
// since, so the entry is identified by its client operation, if any.
func entryText(n *Node, index, term uint64, opID int) string {
	if opID == 0 {
		return "(empty)"
	}
	if index <= n.log.lastIndex() && n.log.term(index) == term {
		return n.log.entry(index).Data.String()
	}
	return fmt.Sprintf("op%d", opID)
}

func opOutcome(op Op) string {
	switch {
	case op.Result != OpOK:
		return fmt.Sprintf("%s: %s", op.Result, op.Reason)
	case op.Kind != DoRead:
		return fmt.Sprintf("ok at index %d", op.Index)
	case op.ReadFound:
		return fmt.Sprintf("ok: read %s=%s (applied %d)", op.Key, op.ReadValue, op.ReadAt)
	}
	return fmt.Sprintf("ok: read %s missing (applied %d)", op.Key, op.ReadAt)
}

func formatNode(w *World, id NodeID) string {
	n := w.Node(id)
	var b strings.Builder
	if w.Status(id) == StatusCrashed {
		// Only what is on disk is meaningful for a crashed machine.
		fmt.Fprintf(&b, "  n%d crashed term %d vote %d log [%s]", id, n.Term(), n.Vote(), logTerms(n))
		return b.String()
	}
	fmt.Fprintf(&b, "  n%d %s", id, n.Role())
	if w.Status(id) == StatusPaused {
		b.WriteString(" (paused)")
	}
	fmt.Fprintf(&b, " term %d vote %d lead %d commit %d applied %d log [%s]", n.Term(), n.Vote(), n.Lead(), n.Commit(), n.Applied(), logTerms(n))
	if keys := n.KV().Keys(); len(keys) > 0 {
		for i, k := range keys {
			v, _ := n.KV().Get(k)
			keys[i] = k + "=" + v.Value
		}
		fmt.Fprintf(&b, " kv %s", strings.Join(keys, ","))
	}
	return b.String()
}

// logTerms writes a log as its entries' terms, runs shortened: "1 2x3 4"
// is one entry of term 1, three of term 2 and one of term 4.
func logTerms(n *Node) string {
	var parts []string
	for i := uint64(1); i <= n.LastIndex(); {
		t, j := n.TermAt(i), i
		for j+1 <= n.LastIndex() && n.TermAt(j+1) == t {
			j++
		}
		if j == i {
			parts = append(parts, strconv.FormatUint(t, 10))
		} else {
			parts = append(parts, fmt.Sprintf("%dx%d", t, j-i+1))
		}
		i = j + 1
	}
	return strings.Join(parts, " ")
}

// TestTranscripts plays every script in testdata and compares its trace with
// the golden one. The scripts run correct Raft, so a violation also fails.
func TestTranscripts(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no transcripts in testdata")
	}
	for _, path := range files {
		name := filepath.Base(path)
		t.Run(strings.TrimSuffix(name, ".txt"), func(t *testing.T) {
			s := loadScript(t, name)
			w, notes := s.run(t, s.cfg, 0)
			got := formatTrace(w, notes)
			if *update {
				if err := os.WriteFile(path, []byte(s.text+goldenSeparator+got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if got != s.golden {
				t.Errorf("%s: trace differs from the golden one (rerun with -update and review the diff):\n%s", path, lineDiff(s.golden, got))
			}
			if v := w.Violations(); len(v) > 0 {
				t.Errorf("%s: correct Raft broke a rule: %+v", path, v)
			}
		})
	}
}

// lineDiff shows the first lines where want and got differ.
func lineDiff(want, got string) string {
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b bytes.Buffer
	shown := 0
	for i := 0; i < len(wl) || i < len(gl); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			fmt.Fprintf(&b, "line %d:\n  want %q\n  got  %q\n", i+1, w, g)
			if shown++; shown == 5 {
				break
			}
		}
	}
	return b.String()
}
