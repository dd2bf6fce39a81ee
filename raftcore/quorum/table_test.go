package quorum

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestTables runs the cases of testdata/*.txt, one a line, in the format
// each file's header describes. Each case is checked three ways: against
// the answer written in the file, against the definition counted here with
// none of the package's arithmetic (definedCommit, definedVote), and against
// configurations that must answer the same (a majority joined with itself
// or with the empty one; a joint pair with its halves swapped).
func TestTables(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no tables in testdata (%v)", err)
	}
	for _, file := range files {
		cases, err := readTable(file)
		if err != nil {
			t.Fatal(err)
		}
		if len(cases) == 0 {
			t.Fatalf("%s holds no case", file)
		}
		for _, tc := range cases {
			t.Run(tc.where, tc.run)
		}
	}
}

// tableCase is one line of a table.
type tableCase struct {
	where  string // file:line
	text   string
	cmd    string // "committed" or "vote"
	halves []MajorityConfig
	acks   ackMap      // committed: the index each voter is known to hold
	votes  map[ID]bool // vote: each answer given
	want   string      // as written: an index, ∞, won, lost or pending
}

func (tc tableCase) run(t *testing.T) {
	var got, defined string
	var same map[string]string // other configurations that must agree, by name
	switch tc.cmd {
	case "committed":
		got, defined = tc.config().CommittedIndex(tc.acks).String(), definedCommit(tc.halves, tc.acks).String()
		same = tc.equivalents(func(j JointConfig) string { return j.CommittedIndex(tc.acks).String() })
	default:
		votes := voteMap(tc.votes)
		got, defined = tc.config().VoteResult(votes).String(), definedVote(tc.halves, tc.votes).String()
		same = tc.equivalents(func(j JointConfig) string { return j.VoteResult(votes).String() })
	}
	if got != tc.want {
		t.Errorf("%s\ngot %s, want %s\n%s", tc.text, got, tc.want, tc.describe())
	}
	if defined != tc.want {
		t.Errorf("%s\nthe definition gives %s, the table says %s", tc.text, defined, tc.want)
	}
	for name, other := range same {
		if other != got {
			t.Errorf("%s\n%s gives %s, the configuration itself %s", tc.text, name, other, got)
		}
	}
}

// config is the case's configuration: a JointConfig either way, since a
// pair with an empty second half is the plain majority configuration.
func (tc tableCase) config() JointConfig {
	if len(tc.halves) == 1 {
		return JointConfig{tc.halves[0]}
	}
	return JointConfig{tc.halves[0], tc.halves[1]}
}

// equivalents asks answer of configurations that must give the same answer
// as the case's own.
func (tc tableCase) equivalents(answer func(JointConfig) string) map[string]string {
	if len(tc.halves) == 2 {
		return map[string]string{"with its halves swapped": answer(JointConfig{tc.halves[1], tc.halves[0]})}
	}
	c := tc.halves[0]
	out := map[string]string{
		"joined with itself":            answer(JointConfig{c, c}),
		"joined after the empty config": answer(JointConfig{{}, c}),
	}
	// The majority configuration asked directly, not through a JointConfig.
	if tc.cmd == "committed" {
		out["as a MajorityConfig"] = c.CommittedIndex(tc.acks).String()
	} else {
		out["as a MajorityConfig"] = c.VoteResult(voteMap(tc.votes)).String()
	}
	return out
}

func (tc tableCase) describe() string {
	if tc.cmd == "committed" {
		return tc.config().Describe(tc.acks)
	}
	return fmt.Sprintf("votes %v", tc.votes)
}

// readTable parses a table file; a malformed line is an error naming the
// file and the line.
func readTable(file string) ([]tableCase, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var cases []tableCase
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		tc, err := parseCase(text)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", file, line, err)
		}
		tc.where = fmt.Sprintf("%s:%d", filepath.Base(file), line)
		cases = append(cases, tc)
	}
	return cases, sc.Err()
}

// parseCase reads "CMD CONFIG ASSIGNMENTS => WANT".
func parseCase(text string) (tableCase, error) {
	tc := tableCase{text: text}
	cmd, rest, _ := strings.Cut(text, " ")
	lhs, want, ok := strings.Cut(rest, "=>")
	if !ok {
		return tc, fmt.Errorf("no \"=> answer\" in %q", text)
	}
	tc.cmd, tc.want = cmd, strings.TrimSpace(want)
	end := strings.LastIndexByte(lhs, ')')
	if end < 0 {
		return tc, fmt.Errorf("no configuration such as (1 2 3) in %q", text)
	}
	var err error
	if tc.halves, err = parseConfig(strings.TrimSpace(lhs[:end+1])); err != nil {
		return tc, err
	}
	switch cmd {
	case "committed":
		tc.acks = ackMap{}
		if _, err := strconv.ParseUint(tc.want, 10, 64); err != nil && tc.want != "∞" {
			return tc, fmt.Errorf("answer %q is not an index or ∞", tc.want)
		}
	case "vote":
		tc.votes = map[ID]bool{}
		if tc.want != "won" && tc.want != "lost" && tc.want != "pending" {
			return tc, fmt.Errorf("answer %q is not won, lost or pending", tc.want)
		}
	default:
		return tc, fmt.Errorf("unknown command %q (want committed or vote)", cmd)
	}
	for _, a := range strings.Fields(lhs[end+1:]) {
		if err := tc.assign(a); err != nil {
			return tc, err
		}
	}
	return tc, nil
}

// parseConfig reads "(1 2 3)" or "(1 2 3)&&(3 4 5)".
func parseConfig(s string) ([]MajorityConfig, error) {
	parts := strings.Split(s, "&&")
	if len(parts) > 2 {
		return nil, fmt.Errorf("%q joins more than two configurations", s)
	}
	var halves []MajorityConfig
	for _, p := range parts {
		p = strings.TrimSpace(p)
		inner, ok := strings.CutPrefix(p, "(")
		if inner, ok = strings.CutSuffix(inner, ")"); !ok || !strings.HasPrefix(p, "(") {
			return nil, fmt.Errorf("configuration %q is not of the form (1 2 3)", p)
		}
		var ids []ID
		for _, f := range strings.Fields(inner) {
			id, err := strconv.ParseUint(f, 10, 64)
			if err != nil {
				return nil, fmt.Errorf("voter %q in %q is not a number", f, p)
			}
			ids = append(ids, ID(id))
		}
		halves = append(halves, NewMajorityConfig(ids...))
	}
	return halves, nil
}

// assign reads one "id=index" (committed) or "id=y"/"id=n" (vote).
func (tc *tableCase) assign(a string) error {
	k, v, ok := strings.Cut(a, "=")
	id, err := strconv.ParseUint(k, 10, 64)
	if !ok || err != nil {
		return fmt.Errorf("%q is not of the form voter=value", a)
	}
	if _, dup := tc.acks[ID(id)]; dup {
		return fmt.Errorf("voter %d is given twice", id)
	}
	if _, dup := tc.votes[ID(id)]; dup {
		return fmt.Errorf("voter %d is given twice", id)
	}
	if tc.cmd == "committed" {
		idx, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			return fmt.Errorf("index %q of voter %d is not a number", v, id)
		}
		tc.acks[ID(id)] = Index(idx)
		return nil
	}
	switch v {
	case "y", "n":
		tc.votes[ID(id)] = v == "y"
		return nil
	}
	return fmt.Errorf("vote %q of voter %d is not y or n", v, id)
}

// ackMap is an AckedIndexer for tests: it looks voters up, never ranges
// over them.
type ackMap map[ID]Index

func (m ackMap) AckedIndex(id ID) (Index, bool) {
	idx, ok := m[id]
	return idx, ok
}

func voteMap(m map[ID]bool) Votes {
	return func(id ID) (granted, voted bool) {
		granted, voted = m[id]
		return granted, voted
	}
}

// definedCommit is the committed index by definition, counted without the
// package's code: the highest index that more than half of every non-empty
// half holds (∞ when every half is empty). It tries every index given.
func definedCommit(halves []MajorityConfig, acks ackMap) Index {
	best, anyVoters := Index(0), false
	candidates := []Index{0}
	for _, idx := range acks {
		candidates = append(candidates, idx)
	}
	for _, cand := range candidates {
		onAll := true
		for _, h := range halves {
			if len(h.ids) == 0 {
				continue
			}
			anyVoters = true
			holders := 0
			for _, id := range h.ids {
				if idx, ok := acks[id]; ok && idx >= cand {
					holders++
				}
			}
			if cand > 0 && 2*holders <= len(h.ids) {
				onAll = false
			}
		}
		if onAll && cand > best {
			best = cand
		}
	}
	if !anyVoters {
		return Index(^uint64(0))
	}
	return best
}

// definedVote is the outcome by definition: lost when some half can no
// longer give more than half its voters' yes, won when every half has, and
// pending otherwise. An empty half has nothing to give and never loses.
func definedVote(halves []MajorityConfig, votes map[ID]bool) VoteResult {
	won := true
	for _, h := range halves {
		if len(h.ids) == 0 {
			continue
		}
		yes, couldBeYes := 0, 0
		for _, id := range h.ids {
			granted, voted := votes[id]
			if granted {
				yes++
			}
			if granted || !voted {
				couldBeYes++
			}
		}
		if 2*couldBeYes <= len(h.ids) {
			return VoteLost
		}
		if 2*yes <= len(h.ids) {
			won = false
		}
	}
	if won {
		return VoteWon
	}
	return VotePending
}
