package viz

import (
	"errors"
	"math"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestParseQueryDefaults(t *testing.T) {
	for _, q := range []string{"", "?", "#", "&&", "https://example.org/lab/", "https://example.org/lab/?#x"} {
		p, probs := ParseQuery(q, nil)
		if p != DefaultParams() || len(probs) != 0 {
			t.Errorf("ParseQuery(%q) = %+v, %v; want the defaults", q, p, probs)
		}
	}
	d := DefaultParams()
	want := Params{Nodes: 5, Protocol: "raft", Seed: 1, Speed: 1, PreVote: true, CheckQuorum: true, Theme: "light"}
	if d != want || d.Check() != nil {
		t.Errorf("defaults = %+v", d)
	}
}

func TestParseQueryValues(t *testing.T) {
	tests := []struct {
		q    string
		want func(p *Params)
	}{
		{"?scenario=split-vote", func(p *Params) { p.Scenario = "split-vote" }},
		{"scenario=", func(p *Params) {}},
		{"nodes=3", func(p *Params) { p.Nodes = 3 }},
		{"nodes=1", func(p *Params) { p.Nodes = 1 }},
		{"nodes=9", func(p *Params) { p.Nodes = 9 }},
		{"nodes=+7", func(p *Params) { p.Nodes = 7 }},
		{"nodes=%204%20", func(p *Params) { p.Nodes = 4 }},
		{"protocol=naive-copy", func(p *Params) { p.Protocol = "naive-copy" }},
		{"protocol=Failover", func(p *Params) { p.Protocol = "failover" }},
		{"seed=-9223372036854775808", func(p *Params) { p.Seed = math.MinInt64 }},
		{"seed=9223372036854775807", func(p *Params) { p.Seed = math.MaxInt64 }},
		{"seed=0", func(p *Params) { p.Seed = 0 }},
		{"speed=0.01", func(p *Params) { p.Speed = 0.01 }},
		{"speed=10", func(p *Params) { p.Speed = 10 }},
		{"speed=2x", func(p *Params) { p.Speed = 2 }},
		{"speed=1/10x", func(p *Params) { p.Speed = 0.1 }},
		{"speed=1%2F4", func(p *Params) { p.Speed = 0.25 }},
		{"prevote=0&checkquorum=no", func(p *Params) { p.PreVote, p.CheckQuorum = false, false }},
		{"prevote=OFF&checkquorum=False", func(p *Params) { p.PreVote, p.CheckQuorum = false, false }},
		{"autoplay=1&embed=yes", func(p *Params) { p.Autoplay, p.Embed = true, true }},
		{"autoplay=on&embed=true", func(p *Params) { p.Autoplay, p.Embed = true, true }},
		{"autoplay&embed", func(p *Params) { p.Autoplay, p.Embed = true, true }},
		{"theme=dark", func(p *Params) { p.Theme = "dark" }},
		{"t=12.5", func(p *Params) { p.T = 12.5 }},
		{"t=1m30s", func(p *Params) { p.T = 90 }},
		{"t=0", func(p *Params) {}},
		{"t=3600", func(p *Params) { p.T = 3600 }},
		{"link=abc-DEF_123", func(p *Params) { p.Link = "abc-DEF_123" }},
		{"link=a%26b%3Dc+d", func(p *Params) { p.Link = "a&b=c d" }},
		{"check-quorum=0&Pre_Vote=0&NODES=2", func(p *Params) { p.CheckQuorum, p.PreVote, p.Nodes = false, false, 2 }},
		{"https://example.org/lab/?nodes=3&theme=dark#frag", func(p *Params) { p.Nodes, p.Theme = 3, "dark" }},
		{"#nodes=4", func(p *Params) { p.Nodes = 4 }},
		{"nodes=3&&&theme=dark&", func(p *Params) { p.Nodes, p.Theme = 3, "dark" }},
	}
	for _, tc := range tests {
		want := DefaultParams()
		tc.want(&want)
		got, probs := ParseQuery(tc.q, nil)
		if got != want || len(probs) != 0 {
			t.Errorf("ParseQuery(%q) = %+v, %v;\nwant %+v", tc.q, got, probs, want)
		}
	}
}

func TestParseQueryProblems(t *testing.T) {
	tests := []struct {
		q       string
		param   string
		message string
		want    func(p *Params) // what is kept from the rest of the query
	}{
		{"nodes=12", "nodes", "nodes=12 is out of range: use 1 to 9; using 5", nil},
		{"nodes=0", "nodes", "nodes=0 is out of range: use 1 to 9; using 5", nil},
		{"nodes=99999999999999999999", "nodes", "nodes=99999999999999999999 is out of range: use 1 to 9; using 5", nil},
		{"nodes=three", "nodes", "nodes=three is not a whole number: use 1 to 9; using 5", nil},
		{"nodes=3.5&theme=dark", "nodes", "nodes=3.5 is not a whole number: use 1 to 9; using 5", func(p *Params) { p.Theme = "dark" }},
		{"nodes=", "nodes", "nodes has no value: use 1 to 9; using 5", nil},
		{"nodes", "nodes", "nodes has no value: use 1 to 9; using 5", nil},
		{"protocol=paxos", "protocol", "protocol=paxos is not a known protocol: use raft, naive-copy or failover; using raft", nil},
		{"seed=abc", "seed", "seed=abc is not a whole number: use a whole number such as 42; using 1", nil},
		{"seed=0x10", "seed", "seed=0x10 is not a whole number: use a whole number such as 42; using 1", nil},
		{"seed=9223372036854775808", "seed", "seed=9223372036854775808 is out of range for a 64-bit seed: use a whole number such as 42; using 1", nil},
		{"speed=50", "speed", "speed=50 is out of range: use 0.01 to 10, such as 0.5, 2x or 1/10; using the default, 1/10x (1x for a figure in a page)", nil},
		{"speed=0.001", "speed", "speed=0.001 is out of range: use 0.01 to 10, such as 0.5, 2x or 1/10; using the default, 1/10x (1x for a figure in a page)", nil},
		{"speed=-1", "speed", "speed=-1 is out of range: use 0.01 to 10, such as 0.5, 2x or 1/10; using the default, 1/10x (1x for a figure in a page)", nil},
		{"speed=0", "speed", "speed=0 is out of range: use 0.01 to 10, such as 0.5, 2x or 1/10; using the default, 1/10x (1x for a figure in a page)", nil},
		{"speed=fast", "speed", "speed=fast is not a positive number: use 0.01 to 10, such as 0.5, 2x or 1/10; using the default, 1/10x (1x for a figure in a page)", nil},
		{"speed=NaN", "speed", "speed=NaN is not a positive number: use 0.01 to 10, such as 0.5, 2x or 1/10; using the default, 1/10x (1x for a figure in a page)", nil},
		{"prevote=maybe", "prevote", "prevote=maybe is not a yes/no value: use 1, 0, true, false, yes, no, on or off; using true", nil},
		{"autoplay=2", "autoplay", "autoplay=2 is not a yes/no value: use 1, 0, true, false, yes, no, on or off; using false", nil},
		{"theme=blue", "theme", "theme=blue is not a known theme: use light or dark; using light", nil},
		{"t=-3", "t", "t=-3 is out of range: use seconds from 0 to 3600, such as 12.5 or 1m30s; using 0", nil},
		{"t=1e9", "t", "t=1e9 is out of range: use seconds from 0 to 3600, such as 12.5 or 1m30s; using 0", nil},
		{"t=Inf", "t", "t=Inf is out of range: use seconds from 0 to 3600, such as 12.5 or 1m30s; using 0", nil},
		{"t=soon", "t", "t=soon is not a number: use seconds from 0 to 3600, such as 12.5 or 1m30s; using 0", nil},
		{"scenario=no%20such", "scenario", `"scenario=no such" is not a scenario id: use a scenario id of letters, digits, '-', '_' or '.'; using none`, nil},
		{"colour=red&nodes=3", "colour", "colour=red is not a known parameter; ignored (known: scenario, nodes, members, protocol, seed, speed, prevote, checkquorum, autoplay, embed, present, theme, t, origins, link)",
			func(p *Params) { p.Nodes = 3 }},
		{"nodes=%zz&theme=dark", "nodes", "nodes=%zz could not be read: it has a broken %-escape; ignored", func(p *Params) { p.Theme = "dark" }},
		{"nodes=3&nodes=4", "nodes", "nodes is given more than once; the last one counts", func(p *Params) { p.Nodes = 4 }},
	}
	for _, tc := range tests {
		want := DefaultParams()
		if tc.want != nil {
			tc.want(&want)
		}
		got, probs := ParseQuery(tc.q, nil)
		if got != want {
			t.Errorf("ParseQuery(%q) = %+v, want %+v", tc.q, got, want)
		}
		if len(probs) != 1 || probs[0].Param != tc.param || probs[0].Message != tc.message {
			t.Errorf("ParseQuery(%q) problems = %q,\nwant one for %s: %q", tc.q, probs, tc.param, tc.message)
		}
	}
	// A bad later value resets an earlier good one, and every bad value is
	// reported while the good ones stand.
	got, probs := ParseQuery("nodes=3&nodes=30&speed=0&theme=dark&zzz", nil)
	want := DefaultParams()
	want.Theme = "dark"
	if got != want || len(probs) != 4 {
		t.Errorf("mixed query = %+v, %q", got, probs)
	}
	// Long values are cut short in messages.
	_, probs = ParseQuery("nodes="+strings.Repeat("9", 200), nil)
	if len(probs) != 1 || utf8.RuneCountInString(probs[0].Message) > 120 || probs[0].Value != strings.Repeat("9", 200) {
		t.Errorf("long value: %q", probs)
	}
}

func TestScenarioCheck(t *testing.T) {
	known := func(id string) error {
		if id == "split-vote" || id == "leader-crash" {
			return nil
		}
		return errors.New("known scenarios are split-vote and leader-crash")
	}
	p, probs := ParseQuery("scenario=split-vote&nodes=3", known)
	if p.Scenario != "split-vote" || p.Nodes != 3 || len(probs) != 0 {
		t.Errorf("known scenario: %+v, %q", p, probs)
	}
	p, probs = ParseQuery("scenario=paxos-made-simple&nodes=3", known)
	wantMsg := "scenario=paxos-made-simple is not available: known scenarios are split-vote and leader-crash; using none"
	if p.Scenario != "" || p.Nodes != 3 || len(probs) != 1 || probs[0].Message != wantMsg {
		t.Errorf("unknown scenario: %+v, %q", p, probs)
	}
	// An empty scenario means free play and is not checked.
	if p, probs := ParseQuery("scenario=", func(string) error { return errors.New("no") }); p.Scenario != "" || len(probs) != 0 {
		t.Errorf("empty scenario: %+v, %q", p, probs)
	}
}

func TestParseArgs(t *testing.T) {
	tests := []struct {
		args  []string
		want  func(p *Params)
		probs int
	}{
		{nil, func(p *Params) {}, 0},
		{[]string{"nodes=3", "theme=dark"}, func(p *Params) { p.Nodes, p.Theme = 3, "dark" }, 0},
		{[]string{"-nodes=3", "--speed=1/2"}, func(p *Params) { p.Nodes, p.Speed = 3, 0.5 }, 0},
		{[]string{"-nodes", "7", "--theme", "dark"}, func(p *Params) { p.Nodes, p.Theme = 7, "dark" }, 0},
		{[]string{"-autoplay", "-embed"}, func(p *Params) { p.Autoplay, p.Embed = true, true }, 0},
		{[]string{"--autoplay", "nodes=3"}, func(p *Params) { p.Autoplay, p.Nodes = true, 3 }, 0},
		{[]string{"-prevote=false", "-check-quorum=off"}, func(p *Params) { p.PreVote, p.CheckQuorum = false, false }, 0},
		{[]string{"link=a%20b"}, func(p *Params) { p.Link = "a%20b" }, 0}, // no unescaping on the command line
		{[]string{"-nodes"}, func(p *Params) {}, 1},
		{[]string{"-nodes", "-autoplay"}, func(p *Params) { p.Autoplay = true }, 1},
		{[]string{"nodes=12", "bogus"}, func(p *Params) {}, 2},
		{[]string{"-autoplay", "false"}, func(p *Params) { p.Autoplay = true }, 1}, // "false" is a stray word
	}
	for _, tc := range tests {
		want := DefaultParams()
		tc.want(&want)
		got, probs := ParseArgs(tc.args, nil)
		if got != want || len(probs) != tc.probs {
			t.Errorf("ParseArgs(%q) = %+v, %q;\nwant %+v with %d problems", tc.args, got, probs, want, tc.probs)
		}
	}
	_, probs := ParseArgs([]string{"--nodes=12"}, nil)
	if len(probs) != 1 || probs[0].Message != "nodes=12 is out of range: use 1 to 9; using 5" {
		t.Errorf("flag problem message: %q", probs)
	}
}

func TestEncode(t *testing.T) {
	if got := DefaultParams().Encode(); got != "" {
		t.Errorf("defaults encode as %q", got)
	}
	p := DefaultParams()
	p.Scenario, p.Nodes, p.Speed, p.PreVote, p.Autoplay, p.T, p.Link = "split-vote", 3, 0.1, false, true, 2.5, "x&y=z"
	want := "scenario=split-vote&nodes=3&speed=0.1&prevote=false&autoplay=true&t=2.5&link=x%26y%3Dz"
	if got := p.Encode(); got != want {
		t.Errorf("Encode = %q, want %q", got, want)
	}
	back, probs := ParseQuery(want, nil)
	if back != p || len(probs) != 0 {
		t.Errorf("round trip: %+v, %q", back, probs)
	}
}

func TestCheck(t *testing.T) {
	bad := []func(p *Params){
		func(p *Params) { p.Nodes = 0 },
		func(p *Params) { p.Nodes = 10 },
		func(p *Params) { p.Protocol = "paxos" },
		func(p *Params) { p.Speed = 0 },
		func(p *Params) { p.Speed = math.NaN() },
		func(p *Params) { p.Theme = "" },
		func(p *Params) { p.T = -1 },
		func(p *Params) { p.T = math.NaN() },
		func(p *Params) { p.Scenario = "a b" },
	}
	for i, f := range bad {
		p := DefaultParams()
		f(&p)
		if p.Check() == nil {
			t.Errorf("case %d: %+v passes Check", i, p)
		}
	}
}

func FuzzParseParams(f *testing.F) {
	for _, s := range []string{
		"", "?scenario=split-vote&nodes=3&speed=2x", "nodes=12&protocol=paxos&seed=x",
		"t=1m&link=%F0%9F%90%A2&theme=DARK", "a=b=c&&=&%", "autoplay&embed=0&prevote=maybe",
		"https://h/p?speed=1/100#t=5", "nodes=9&nodes=-1&t=NaN&speed=Inf",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		rejectAll := func(string) error { return errors.New("no scenarios here") }
		for _, check := range []ScenarioCheck{nil, rejectAll} {
			p, probs := ParseQuery(s, check)
			if err := p.Check(); err != nil {
				t.Fatalf("ParseQuery(%q) = %+v: %v", s, p, err)
			}
			if check != nil && p.Scenario != "" {
				t.Fatalf("rejected scenario %q kept", p.Scenario)
			}
			for _, pr := range probs {
				if pr.Message == "" || strings.Contains(pr.Message, "\n") {
					t.Fatalf("bad problem message %q", pr.Message)
				}
			}
			// Whatever was read writes out and reads back the same, cleanly.
			back, more := ParseQuery(p.Encode(), nil)
			if back != p || len(more) != 0 {
				t.Fatalf("round trip of %+v via %q gave %+v, %q", p, p.Encode(), back, more)
			}
		}
		pa, _ := ParseArgs(strings.Fields(s), nil)
		if err := pa.Check(); err != nil {
			t.Fatalf("ParseArgs(%q) = %+v: %v", s, pa, err)
		}
	})
}
