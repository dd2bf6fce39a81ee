package viz

import (
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Params are the settings a page's URL query or the desktop's command line
// gives the app.
type Params struct {
	Scenario string // scenario id; "" for free play
	Nodes    int    // cluster size, 1..MaxNodes
	// Members is how many of the machines start in the cluster (the rest
	// are spares, outside it, under Raft); 0, or Nodes or more, for every
	// machine.
	Members     int
	Protocol    string  // one of Protocols()
	Seed        int64   // simulator seed
	Speed       float64 // virtual seconds per real second, MinSpeed..MaxSpeed
	PreVote     bool    // Raft pre-vote
	CheckQuorum bool    // Raft check-quorum
	Autoplay    bool    // start running at once
	Embed       bool    // embedded in a page: compact chrome
	Present     bool    // presenter mode, for a projector: larger, one panel
	Theme       string  // one of Themes()
	T           float64 // virtual seconds to jump to at start, 0..MaxJump
	Link        string  // share-link payload, passed on unread
	// Origins are the host pages (besides the app's own origin) whose
	// messages may drive an embedded figure, space-separated, as
	// ParseOrigins reads them.
	Origins string
}

// Spares is how many machines start outside the cluster.
func (p Params) Spares() int {
	if p.Members <= 0 || p.Members >= p.Nodes {
		return 0
	}
	return p.Nodes - p.Members
}

// MaxJump is the furthest a T parameter may jump, in virtual seconds.
const MaxJump = 3600.0

// Protocols returns the accepted protocol names, the default first.
func Protocols() []string { return []string{"raft", "naive-copy", "failover"} }

// Themes returns the accepted theme names, the default first.
func Themes() []string { return []string{"light", "dark"} }

// DefaultParams returns the settings used where a parameter is absent or
// bad.
func DefaultParams() Params {
	return Params{
		Nodes: 5, Protocol: "raft", Seed: 1, Speed: 1,
		PreVote: true, CheckQuorum: true, Theme: "light",
	}
}

// ParamProblem is one thing wrong with the given parameters. Param is the
// parameter's name as given, Value the value as given, and Message a
// sentence for the reader saying what was wrong, what is accepted and what
// is used instead.
type ParamProblem struct {
	Param, Value, Message string
	// NoSuchScenario marks a scenario id that is well formed but names no
	// scenario, which the app answers by offering its list.
	NoSuchScenario bool
}

func (p ParamProblem) String() string { return p.Message }

// ScenarioCheck tells whether a scenario id names a scenario; it returns
// nil when it does and otherwise an error saying why not (for example
// listing the known ids).
type ScenarioCheck func(id string) error

// ParseQuery reads parameters from a URL query such as
// "?scenario=split-vote&nodes=3". It also accepts a whole URL (the part
// after "?" is read, a "#" fragment is dropped; a URL with no "?" has no
// parameters) or a fragment ("#nodes=3").
// Bad values never spoil the rest: each falls back to its default and adds
// a problem. check, if not nil, vets the scenario id.
func ParseQuery(query string, check ScenarioCheck) (Params, []ParamProblem) {
	q := strings.TrimPrefix(query, "#")
	if _, after, ok := strings.Cut(q, "?"); ok {
		q = after
	} else if strings.Contains(q, "://") || strings.HasPrefix(q, "/") {
		q = "" // a URL without a query
	}
	if before, _, ok := strings.Cut(q, "#"); ok {
		q = before
	}
	var pairs []paramPair
	var probs []ParamProblem
	for _, piece := range strings.Split(q, "&") {
		if piece == "" {
			continue
		}
		rawKey, rawVal, hasVal := strings.Cut(piece, "=")
		key, err1 := url.QueryUnescape(rawKey)
		val, err2 := url.QueryUnescape(rawVal)
		if err1 != nil || err2 != nil {
			probs = append(probs, ParamProblem{Param: rawKey, Value: rawVal,
				Message: fmt.Sprintf("%s could not be read: it has a broken %%-escape; ignored", shown(piece))})
			continue
		}
		pairs = append(pairs, paramPair{key, val, hasVal})
	}
	p, more := applyParams(pairs, check)
	return p, append(probs, more...)
}

// ParseArgs reads parameters from desktop command-line arguments written
// as key=value, -key=value or --key=value; "-key value" also works, and a
// yes/no parameter given alone ("-autoplay") is switched on. Problems are
// reported as by ParseQuery.
func ParseArgs(args []string, check ScenarioCheck) (Params, []ParamProblem) {
	var pairs []paramPair
	for i := 0; i < len(args); i++ {
		a := strings.TrimPrefix(strings.TrimPrefix(args[i], "-"), "-")
		key, val, hasVal := strings.Cut(a, "=")
		if !hasVal && i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") && !strings.Contains(args[i+1], "=") {
			if s, ok := specFor(key); ok && s.kind != boolParam {
				val, hasVal = args[i+1], true
				i++
			}
		}
		pairs = append(pairs, paramPair{key, val, hasVal})
	}
	return applyParams(pairs, check)
}

type paramPair struct {
	key, val string
	hasVal   bool
}

type paramKind int

const (
	textParam paramKind = iota
	boolParam
)

// paramSpec describes one parameter: how to read it into Params, what it
// accepts (for messages) and how to write it back.
type paramSpec struct {
	name    string
	kind    paramKind
	accepts string
	// set stores v in p, or returns why it cannot ("is out of range").
	set func(p *Params, v string) string
	// get writes p's value as set reads it.
	get func(p Params) string
	// reset puts the default back.
	reset func(p *Params, d Params)
}

const (
	notWhole  = "is not a whole number"
	outRange  = "is out of range"
	notNumber = "is not a number"
	notYesNo  = "is not a yes/no value"
)

var paramSpecs = []paramSpec{
	{name: "scenario", accepts: "use a scenario id of letters, digits, '-', '_' or '.'",
		set: func(p *Params, v string) string {
			if v != "" && !validScenarioID(v) {
				return "is not a scenario id"
			}
			p.Scenario = v
			return ""
		},
		get:   func(p Params) string { return p.Scenario },
		reset: func(p *Params, d Params) { p.Scenario = d.Scenario }},
	wholeSpec("nodes", fmt.Sprintf("use 1 to %d", MaxNodes), 1, func(p *Params) *int { return &p.Nodes }),
	wholeSpec("members", fmt.Sprintf("use 1 to %d (the other machines start as spares), or 0 for every machine", MaxNodes), 0,
		func(p *Params) *int { return &p.Members }),
	{name: "protocol", accepts: "use " + orList(Protocols()),
		set: func(p *Params, v string) string {
			return setChoice(&p.Protocol, v, Protocols(), "is not a known protocol")
		},
		get:   func(p Params) string { return p.Protocol },
		reset: func(p *Params, d Params) { p.Protocol = d.Protocol }},
	{name: "seed", accepts: "use a whole number such as 42",
		set: func(p *Params, v string) string {
			s, err := strconv.ParseInt(v, 10, 64)
			switch {
			case errors.Is(err, strconv.ErrRange):
				return "is out of range for a 64-bit seed"
			case err != nil:
				return notWhole
			}
			p.Seed = s
			return ""
		},
		get:   func(p Params) string { return strconv.FormatInt(p.Seed, 10) },
		reset: func(p *Params, d Params) { p.Seed = d.Seed }},
	{name: "speed", accepts: "use 0.01 to 10, such as 0.5, 2x or 1/10",
		set: func(p *Params, v string) string {
			s, err := ParseSpeed(v)
			f, ferr := strconv.ParseFloat(v, 64)
			switch {
			case err != nil && ferr == nil && f <= 0:
				// A number, only not a speed: zero or backwards.
				return outRange
			case err != nil:
				return "is not a positive number"
			case s < MinSpeed || s > MaxSpeed:
				return outRange
			}
			p.Speed = s
			return ""
		},
		get:   func(p Params) string { return strconv.FormatFloat(p.Speed, 'g', -1, 64) },
		reset: func(p *Params, d Params) { p.Speed = d.Speed }},
	boolSpec("prevote", func(p *Params) *bool { return &p.PreVote }),
	boolSpec("checkquorum", func(p *Params) *bool { return &p.CheckQuorum }),
	boolSpec("autoplay", func(p *Params) *bool { return &p.Autoplay }),
	boolSpec("embed", func(p *Params) *bool { return &p.Embed }),
	boolSpec("present", func(p *Params) *bool { return &p.Present }),
	{name: "theme", accepts: "use " + orList(Themes()),
		set:   func(p *Params, v string) string { return setChoice(&p.Theme, v, Themes(), "is not a known theme") },
		get:   func(p Params) string { return p.Theme },
		reset: func(p *Params, d Params) { p.Theme = d.Theme }},
	{name: "t", accepts: fmt.Sprintf("use seconds from 0 to %g, such as 12.5 or 1m30s", MaxJump),
		set: func(p *Params, v string) string {
			t, err := strconv.ParseFloat(v, 64)
			if err != nil {
				d, derr := time.ParseDuration(v)
				if derr != nil {
					return notNumber
				}
				t = d.Seconds()
			}
			if !(t >= 0 && t <= MaxJump) {
				return outRange
			}
			p.T = t
			return ""
		},
		get:   func(p Params) string { return strconv.FormatFloat(p.T, 'g', -1, 64) },
		reset: func(p *Params, d Params) { p.T = d.T }},
	{name: "origins", accepts: "use origins such as https://book.example, separated by spaces or commas",
		set: func(p *Params, v string) string {
			list, err := ParseOrigins(v)
			if err != nil {
				return err.Error()
			}
			p.Origins = strings.Join(list, " ")
			return ""
		},
		get:   func(p Params) string { return p.Origins },
		reset: func(p *Params, d Params) { p.Origins = d.Origins }},
	{name: "link", accepts: "use a share link (the whole address Copy link gives, or its link= part)",
		set:   func(p *Params, v string) string { p.Link = v; return "" },
		get:   func(p Params) string { return p.Link },
		reset: func(p *Params, d Params) { p.Link = d.Link }},
}

func boolSpec(name string, field func(p *Params) *bool) paramSpec {
	return paramSpec{name: name, kind: boolParam,
		accepts: "use 1, 0, true, false, yes, no, on or off",
		set: func(p *Params, v string) string {
			switch strings.ToLower(v) {
			case "1", "true", "yes", "on":
				*field(p) = true
			case "0", "false", "no", "off":
				*field(p) = false
			default:
				return notYesNo
			}
			return ""
		},
		get:   func(p Params) string { return strconv.FormatBool(*field(&p)) },
		reset: func(p *Params, d Params) { *field(p) = *field(&d) }}
}

// specFor finds the parameter a key names. Keys are case-insensitive and
// '-' and '_' in them are ignored, so "check-quorum" and "CheckQuorum" both
// name checkquorum.
func specFor(key string) (paramSpec, bool) {
	k := plainKey(key)
	for _, s := range paramSpecs {
		if s.name == k {
			return s, true
		}
	}
	return paramSpec{}, false
}

// plainKey is a parameter's key as specFor and SpeedGiven read it: its
// spaces trimmed, lower case, without '-' and '_'.
func plainKey(key string) string {
	key = strings.TrimSpace(key)
	if strings.ContainsAny(key, "-_") {
		b := make([]byte, 0, len(key))
		for i := 0; i < len(key); i++ {
			if c := key[i]; c != '-' && c != '_' {
				b = append(b, c)
			}
		}
		key = string(b)
	}
	return strings.ToLower(key)
}

func applyParams(pairs []paramPair, check ScenarioCheck) (Params, []ParamProblem) {
	def := DefaultParams()
	p := def
	var probs []ParamProblem
	seen := map[string]bool{}
	for _, pr := range pairs {
		s, ok := specFor(pr.key)
		if !ok {
			names := make([]string, len(paramSpecs))
			for i, sp := range paramSpecs {
				names[i] = sp.name
			}
			probs = append(probs, ParamProblem{Param: pr.key, Value: pr.val, Message: fmt.Sprintf(
				"%s is not a known parameter; ignored (known: %s)", shown(pairText(pr)), strings.Join(names, ", "))})
			continue
		}
		if seen[s.name] {
			probs = append(probs, ParamProblem{Param: pr.key, Value: pr.val, Message: fmt.Sprintf(
				"%s is given more than once; the last one counts", s.name)})
		}
		seen[s.name] = true
		v := pr.val
		if s.name != "link" {
			v = strings.TrimSpace(v)
		}
		if !pr.hasVal && s.kind == boolParam {
			v = "1"
		}
		using := s.get(def)
		switch s.name {
		case "scenario":
			using = "none"
		case "origins":
			using = "only the app's own origin"
		case "speed":
			using = fmt.Sprintf("the default, %s (%s for a figure in a page)", FormatSpeed(DefaultSpeed), FormatSpeed(FigureSpeed))
		}
		var why string
		missing := false
		switch {
		case (!pr.hasVal && s.kind != boolParam) || (v == "" && s.name != "link" && s.name != "scenario"):
			why = fmt.Sprintf("%s has no value: %s; using %s", pr.key, s.accepts, using)
		default:
			if reason := s.set(&p, v); reason != "" {
				why = fmt.Sprintf("%s %s: %s; using %s", shown(pr.key+"="+v), reason, s.accepts, using)
			} else if s.name == "scenario" && v != "" && check != nil {
				if err := check(v); err != nil {
					why = fmt.Sprintf("%s is not available: %v; using none", shown(pr.key+"="+v), err)
					missing = true
				}
			}
		}
		if why != "" {
			s.reset(&p, def)
			probs = append(probs, ParamProblem{Param: pr.key, Value: pr.val, Message: why, NoSuchScenario: missing})
		}
	}
	return p, probs
}

// Encode writes p as a URL query (without the "?") holding only the values
// that differ from the defaults, in a fixed order; ParseQuery reads it back
// to p. All defaults give "".
func (p Params) Encode() string {
	def := DefaultParams()
	var parts []string
	for _, s := range paramSpecs {
		if v := s.get(p); v != s.get(def) {
			parts = append(parts, s.name+"="+url.QueryEscape(v))
		}
	}
	return strings.Join(parts, "&")
}

// Check returns nil when every field of p is within its accepted range,
// else an error naming the first that is not.
func (p Params) Check() error {
	switch {
	case p.Scenario != "" && !validScenarioID(p.Scenario):
		return fmt.Errorf("scenario %q is not a scenario id", p.Scenario)
	case p.Nodes < 1 || p.Nodes > MaxNodes:
		return fmt.Errorf("nodes %d is out of range", p.Nodes)
	case p.Members < 0 || p.Members > MaxNodes:
		return fmt.Errorf("members %d is out of range", p.Members)
	case !slices.Contains(Protocols(), p.Protocol):
		return fmt.Errorf("protocol %q is not known", p.Protocol)
	case !(p.Speed >= MinSpeed && p.Speed <= MaxSpeed):
		return fmt.Errorf("speed %v is out of range", p.Speed)
	case !slices.Contains(Themes(), p.Theme):
		return fmt.Errorf("theme %q is not known", p.Theme)
	case !(p.T >= 0 && p.T <= MaxJump):
		return fmt.Errorf("t %v is out of range", p.T)
	}
	return nil
}

func validScenarioID(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}

// wholeSpec is a parameter holding a whole number from lo to MaxNodes.
func wholeSpec(name, accepts string, lo int, field func(p *Params) *int) paramSpec {
	return paramSpec{name: name, accepts: accepts,
		set: func(p *Params, v string) string {
			n, err := strconv.Atoi(v)
			switch {
			case err != nil && !errors.Is(err, strconv.ErrRange):
				return notWhole
			case err != nil || n < lo || n > MaxNodes:
				return outRange
			}
			*field(p) = n
			return ""
		},
		get:   func(p Params) string { return strconv.Itoa(*field(&p)) },
		reset: func(p *Params, d Params) { *field(p) = *field(&d) }}
}

func setChoice(field *string, v string, choices []string, reason string) string {
	v = strings.ToLower(v)
	if !slices.Contains(choices, v) {
		return reason
	}
	*field = v
	return ""
}

// orList writes "a, b or c".
func orList(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " or " + items[len(items)-1]
}

func pairText(pr paramPair) string {
	if pr.hasVal {
		return pr.key + "=" + pr.val
	}
	return pr.key
}

// shown makes text safe and short for a message: quoted when it holds
// spaces or odd characters, cut after 40 characters.
func shown(s string) string {
	if utf8.RuneCountInString(s) > 40 {
		s = string([]rune(s)[:40]) + "…"
	}
	if strconv.Quote(s) != `"`+s+`"` || strings.ContainsAny(s, " \t") || s == "" {
		return strconv.Quote(s)
	}
	return s
}
