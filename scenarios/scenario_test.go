package scenarios

import (
	"encoding/json"
	"flag"
	"regexp"
	"strings"
	"testing"

	"raftlab/raftcore"
)

// wantIDs are the stable ids pages link to; changing one breaks links.
var wantIDs = []string{
	"three-answers", "replicated-memory", "two-worlds", "slow-or-dead", "two-leaders", "majority",
	"contract", "notebooks", "quorum-size", "versioned-truth", "roles", "partition-halts", "commit-latency", "cap-reads",
	"timeout-tuning",
	"clock-drift",
	"failure-domains",
	"node-lease",
	"quorum-and-leases",
	"reconcile",
	"member-add", "replace-member", "joint-consensus", "move-leader", "snapshot-catch-up", "figure-8",
}

// everyVariant returns every scenario under every value of each of its
// knobs (one knob changed at a time from the defaults).
func everyVariant(t testing.TB) []*Scenario {
	var out []*Scenario
	for _, s := range All() {
		out = append(out, s)
		for _, k := range s.Knobs {
			for _, v := range k.Values {
				if v == k.Default {
					continue
				}
				o, err := s.With(k.Name, v)
				if err != nil {
					t.Fatalf("%s.With(%s, %s): %v", s.ID, k.Name, v, err)
				}
				out = append(out, o)
			}
		}
	}
	return out
}

func label(s *Scenario) string {
	if len(s.Settings) == 0 {
		return s.ID
	}
	parts := []string{s.ID}
	for _, st := range s.Settings {
		parts = append(parts, st.Knob+"="+st.Value)
	}
	return strings.Join(parts, " ")
}

func TestAllHasTheStableIDsInOrder(t *testing.T) {
	got := IDs()
	if strings.Join(got, ",") != strings.Join(wantIDs, ",") {
		t.Fatalf("ids:\n got %v\nwant %v", got, wantIDs)
	}
	for i, s := range All() {
		if s.ID != wantIDs[i] {
			t.Fatalf("All()[%d] is %q, want %q", i, s.ID, wantIDs[i])
		}
	}
}

// TestScenariosAreWellFormed checks every variant's data: a valid world,
// actions valid for it and inside the autoplay's time, a story whose first
// step needs nothing and whose later steps each wait for something, and
// words for the reader.
func TestScenariosAreWellFormed(t *testing.T) {
	panels := map[Panel]bool{PanelQuestion: true, PanelContract: true, PanelClient: true, PanelRoles: true, PanelLogs: true, PanelChecker: true, PanelElections: true, PanelClocks: true, PanelLeases: true, PanelInformers: true}
	for _, s := range everyVariant(t) {
		t.Run(label(s), func(t *testing.T) {
			cfg := s.Config(7)
			if err := cfg.Validate(); err != nil {
				t.Fatalf("config: %v", err)
			}
			if cfg.Seed != 7 || len(cfg.Names) != cfg.Nodes {
				t.Fatalf("config seed %d, %d names for %d nodes", cfg.Seed, len(cfg.Names), cfg.Nodes)
			}
			if s.Title == "" || s.Prompt == "" || s.Chapter == "" {
				t.Fatalf("missing title, prompt or chapter: %+v", s)
			}
			if strings.Contains(s.Prompt, "\n") || len(s.Prompt) > 140 {
				t.Fatalf("the prompt should be one short line: %q", s.Prompt)
			}
			// A figure with a pace of its own is held to the same real
			// time at its pace.
			pace := 1.0
			if s.UI.Pace > 0 {
				pace = s.UI.Pace
			}
			if s.UntilMs/pace < 10000 || s.UntilMs/pace > 60000 {
				t.Fatalf("autoplay lasts %g ms, %g s at its pace; want 10 to 60 seconds", s.UntilMs, s.UntilMs/pace/1000)
			}
			for i, a := range s.Autoplay() {
				if err := a.Validate(cfg.Machines()); err != nil {
					t.Fatalf("action %d (%s): %v", i, a, err)
				}
				if a.AtMs > s.UntilMs {
					t.Fatalf("action %d (%s) comes after the autoplay ends", i, a)
				}
				if i > 0 && a.AtMs < s.Autoplay()[i-1].AtMs {
					t.Fatalf("Autoplay is not in time order at %d", i)
				}
			}
			if len(s.Steps) < 3 {
				t.Fatalf("%d steps; a story needs a start and at least two beats", len(s.Steps))
			}
			for i, st := range s.Steps {
				if st.Text == "" {
					t.Fatalf("step %d has no text", i)
				}
				if (i == 0) != (st.When == nil) {
					t.Fatalf("step %d: only the first step may have no condition", i)
				}
			}
			if s.Expect == nil || s.final == nil {
				t.Fatal("missing the Expect check or the closing line")
			}
			if len(s.UI.Panels) == 0 {
				t.Fatal("no panels to show")
			}
			for _, p := range s.UI.Panels {
				if !panels[p] {
					t.Fatalf("unknown panel %q", p)
				}
				if p == PanelQuestion && s.UI.Key == "" {
					t.Fatal("a question panel needs a key to ask about")
				}
			}
			for _, n := range s.UI.Highlight {
				if n < 1 || int(n) > cfg.Nodes {
					t.Fatalf("highlight %d is not a machine", n)
				}
			}
			if c := s.UI.Compare; c != nil {
				if _, err := s.With(c.Knob, c.Value); err != nil || s.Setting(c.Knob) == c.Value {
					t.Fatalf("compare offers %+v: %v", c, err)
				}
			}
			if len(s.Settings) != len(s.Knobs) {
				t.Fatalf("%d settings for %d knobs", len(s.Settings), len(s.Knobs))
			}
		})
	}
}

func TestGet(t *testing.T) {
	for _, id := range wantIDs {
		s, err := Get(id)
		if err != nil || s.ID != id {
			t.Fatalf("Get(%q) = %v, %v", id, s, err)
		}
		if Check(id) != nil {
			t.Fatalf("Check(%q) failed", id)
		}
	}
	_, err := Get("split-brain")
	if err == nil || !strings.Contains(err.Error(), `"split-brain"`) || !strings.Contains(err.Error(), "three-answers") || !strings.Contains(err.Error(), "commit-latency") {
		t.Fatalf("unknown id: %v", err)
	}
	if _, err := Get(""); err == nil || !strings.Contains(err.Error(), "majority") {
		t.Fatalf("empty id: %v", err)
	}
}

func TestWith(t *testing.T) {
	s, _ := Get("two-leaders")
	if s.Setting("protocol") != "failover" || s.Config(1).Protocol != raftcore.ProtocolFailover {
		t.Fatalf("two-leaders should start under failover, got %s", s.Setting("protocol"))
	}
	r, err := s.With("protocol", "raft")
	if err != nil {
		t.Fatal(err)
	}
	if r.Config(1).Protocol != raftcore.ProtocolRaft || r.Setting("protocol") != "raft" || r.ID != s.ID {
		t.Fatalf("With(protocol, raft) gave %s / %s", r.Config(1).Protocol, r.Setting("protocol"))
	}
	if s.Setting("protocol") != "failover" {
		t.Fatal("With changed the original scenario")
	}
	if _, err := s.With("protocol", "paxos"); err == nil || !strings.Contains(err.Error(), "protocol:") || !strings.Contains(err.Error(), "failover, raft") {
		t.Fatalf("bad value: %v", err)
	}
	if _, err := s.With("members", "3"); err == nil || !strings.Contains(err.Error(), "members:") || !strings.Contains(err.Error(), "protocol") {
		t.Fatalf("bad knob: %v", err)
	}
	roles, _ := Get("roles")
	if _, err := roles.With("protocol", "raft"); err == nil || !strings.Contains(err.Error(), "no settings") {
		t.Fatalf("knob on a scenario without knobs: %v", err)
	}
	q, _ := Get("quorum-size")
	for n := 1; n <= 7; n++ {
		qn, err := q.With("members", string(rune('0'+n)))
		if err != nil {
			t.Fatal(err)
		}
		if got := qn.Config(1).Nodes; got != n {
			t.Fatalf("members=%d gives %d nodes", n, got)
		}
	}
	if _, err := q.With("members", "8"); err == nil {
		t.Fatal("members=8 was accepted")
	}
}

var scenarioSeeds = flag.Int("scenario-seeds", 0, "seeds per scenario variant for TestEveryScenarioReachesItsLastStep (0: 20, fewer with -short)")

// seedsFor keeps the GOOS=js -short run modest: every default scenario gets
// all 20 seeds, the other variants fewer. -scenario-seeds sweeps further.
func seedsFor(s *Scenario) int64 {
	if *scenarioSeeds > 0 {
		return int64(*scenarioSeeds)
	}
	if !testing.Short() {
		return 20
	}
	for i, st := range s.Settings {
		if st.Value != s.Knobs[i].Default {
			return 5
		}
	}
	return 20
}

// TestEveryScenarioReachesItsLastStep plays every variant's autoplay with 20
// seeds: every step must be reached, in time order, the Expect check must
// pass and the closing line must be there.
func TestEveryScenarioReachesItsLastStep(t *testing.T) {
	for _, s := range everyVariant(t) {
		t.Run(label(s), func(t *testing.T) {
			for seed := int64(1); seed <= seedsFor(s); seed++ {
				_, r, err := s.Run(seed)
				if err != nil {
					t.Fatalf("seed %d: %v", seed, err)
				}
				if !r.Complete(s) {
					t.Fatalf("seed %d: reached %d of %d steps; stuck after %q", seed, len(r.StepsReached), len(s.Steps), r.Texts[len(r.Texts)-1])
				}
				if r.Expect != nil {
					t.Fatalf("seed %d: the run did not make its point: %v", seed, r.Expect)
				}
				if r.Final == "" {
					t.Fatalf("seed %d: no closing line", seed)
				}
				for i := 1; i < len(r.ReachedAtMs); i++ {
					if r.ReachedAtMs[i] < r.ReachedAtMs[i-1] || r.StepsReached[i] != i {
						t.Fatalf("seed %d: steps out of order: %v at %v", seed, r.StepsReached, r.ReachedAtMs)
					}
				}
			}
		})
	}
}

// TestScheduleReplaysTheAutoplay: the exported schedule, through JSON and
// back, reproduces Run's world exactly.
func TestScheduleReplaysTheAutoplay(t *testing.T) {
	for _, s := range everyVariant(t) {
		w, _, err := s.Run(3)
		if err != nil {
			t.Fatal(err)
		}
		js, err := json.Marshal(s.Schedule(3))
		if err != nil {
			t.Fatal(err)
		}
		sch, err := raftcore.ParseSchedule(js)
		if err != nil {
			t.Fatalf("%s: the exported schedule does not parse: %v\n%s", label(s), err, js)
		}
		r, err := sch.Run()
		if err != nil {
			t.Fatalf("%s: %v", label(s), err)
		}
		if r.TraceHash() != w.TraceHash() || r.Now() != w.Now() {
			t.Fatalf("%s: replaying the schedule gave trace %x at %d, Run gave %x at %d", label(s), r.TraceHash(), r.Now(), w.TraceHash(), w.Now())
		}
	}
}

// TestRunIsDeterministic: same seed, same world; another seed, another.
func TestRunIsDeterministic(t *testing.T) {
	s, _ := Get("majority")
	a, ra, _ := s.Run(5)
	b, rb, _ := s.Run(5)
	c, _, _ := s.Run(6)
	if a.TraceHash() != b.TraceHash() || ra.Final != rb.Final {
		t.Fatal("two runs with one seed differ")
	}
	if a.TraceHash() == c.TraceHash() {
		t.Fatal("two seeds gave the same run")
	}
}

// TestTheChapterClimbsTheLadderOfWords: the chapter "One authoritative
// history" speaks of copies until "The Two Leaders", of a machine in
// charge from there, and names Raft only from its contract on; it never
// speaks Raft's mechanism, which the lesson's figures do. Only the quorum
// exercise hides the rule of enough agreement.
func TestTheChapterClimbsTheLadderOfWords(t *testing.T) {
	rung := WordsCopies
	for _, s := range everyVariant(t) {
		switch s.ID {
		case "two-leaders":
			rung = WordsInCharge
		case "contract":
			rung = WordsContract
		}
		want := rung
		if s.Chapter != chapterHistory {
			want = WordsRaft
		}
		if s.UI.Words != want {
			t.Errorf("%s: words %d, want %d", label(s), s.UI.Words, want)
		}
		if s.UI.HideRule != (s.ID == "quorum-size") {
			t.Errorf("%s: hides the rule: %v", label(s), s.UI.HideRule)
		}
	}
}

// TestEachRungWithholdsWhatTheOneAboveWithholds: climbing the ladder only
// ever adds words; the chapter's rungs all withhold Raft's mechanism, and
// only the rungs before its contract withhold Raft's name.
func TestEachRungWithholdsWhatTheOneAboveWithholds(t *testing.T) {
	has := func(w Words, word string) bool {
		for _, x := range w.Withheld() {
			if x == word {
				return true
			}
		}
		return false
	}
	for w := WordsContract; w <= WordsCopies; w++ {
		for _, word := range (w - 1).Withheld() {
			if !has(w, word) {
				t.Errorf("rung %d says %q, which rung %d above it withholds", w, word, w-1)
			}
		}
		for _, word := range []string{"term", "vote", "candidate", "heartbeat", "election", "lease", "leader", "follower"} {
			if !has(w, word) {
				t.Errorf("rung %d says %q", w, word)
			}
		}
	}
	if len(WordsRaft.Withheld()) != 0 || has(WordsContract, "raft") || !has(WordsInCharge, "raft") ||
		has(WordsInCharge, "in charge") || !has(WordsCopies, "in charge") || !has(WordsCopies, "leads") {
		t.Error("the rungs do not withhold what the chapter keeps for later")
	}
	ui := UI{Words: WordsContract, HideRule: true}
	if got := ui.Withheld(); len(got) == len(WordsContract.Withheld()) {
		t.Errorf("a figure that hides the rule withholds only its rung's words: %v", got)
	}
}

// TestChapterFiguresWriteTheirRungsWords: every word a chapter figure
// writes in advance (its prompt, each step's words before the world fills
// them in, its knobs' labels and choices) keeps to its rung of the ladder;
// the app's test plays each figure and hears the rest.
func TestChapterFiguresWriteTheirRungsWords(t *testing.T) {
	for _, s := range everyVariant(t) {
		withheld := s.UI.Withheld()
		if len(withheld) == 0 {
			continue
		}
		re := regexp.MustCompile(`(?i)\b(` + strings.Join(withheld, "|") + `)\b`)
		texts := []string{s.Prompt}
		for _, st := range s.Steps {
			texts = append(texts, st.Text)
		}
		for _, k := range s.Knobs {
			texts = append(texts, k.Label)
			for _, v := range k.Values {
				texts = append(texts, k.Say(v))
			}
		}
		for _, text := range texts {
			if m := re.FindString(text); m != "" {
				t.Errorf("%s says %q: %q", label(s), m, text)
			}
		}
	}
}

// TestTheNotebooksAskFirst: the exercise asks the reader to predict before
// anything is revealed, so under every protocol the figure opens on the
// question (its prompt), and its first step asks it again.
func TestTheNotebooksAskFirst(t *testing.T) {
	s, err := Get("notebooks")
	if err != nil {
		t.Fatal(err)
	}
	k, _ := s.Knob("protocol")
	for _, p := range k.Values {
		v, err := s.With("protocol", p)
		if err != nil {
			t.Fatal(err)
		}
		for where, text := range map[string]string{"prompt": v.Prompt, "first step": v.Steps[0].Text} {
			if !strings.Contains(text, "Predict first") {
				t.Errorf("under %s the %s does not ask for a prediction: %q", p, where, text)
			}
		}
	}
}
