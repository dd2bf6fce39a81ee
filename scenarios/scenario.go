package scenarios

import (
	"fmt"
	"sort"
	"strings"

	"raftlab/raftcore"
)

// Scenario is one figure of the book: a world to start from, what the reader
// is asked to try, the steps of the story and a script that plays it.
// Scenarios are built fresh by All, Get and With; a caller may keep and read
// one freely but should not change it.
type Scenario struct {
	// ID is stable: pages link to ?scenario=ID.
	ID    string
	Title string
	// Chapter names the book chapter the figure belongs to.
	Chapter string
	// Prompt tells the reader, in one line, what to try.
	Prompt string
	// Base is the world's configuration; Config sets the seed.
	Base raftcore.Config
	// Steps is the story. Step 0 is where it starts; each later step is
	// reached when its condition holds, in order.
	Steps []Step
	// Script is the autoplay: actions at fixed virtual times that play the
	// figure through without a reader. UntilMs is when autoplay ends.
	Script  []raftcore.Action
	UntilMs float64
	UI      UI
	// Knobs are the choices this scenario offers; Settings holds the value
	// of each, in the same order.
	Knobs    []Knob
	Settings []Setting

	// Expect checks that a finished run made the figure's point: nil if it
	// did, otherwise what was missing. Tests assert it on every autoplay.
	Expect func(w *raftcore.World) error
	// Shows lists the safety rules whose breaking is the figure's point
	// (Expect asks for it): a run that breaks only these made its point,
	// it did not fail.
	Shows []raftcore.Rule

	// final says what just happened, from the run's own numbers.
	final func(v *View) string
}

// Step is one beat of a scenario's story.
type Step struct {
	// Text is what the reader is told when the step is reached.
	Text string
	// When reports whether the step has happened; nil means at once.
	When func(v *View) bool
	// HoldMs, if set, asks that When stay true this long (virtual time)
	// before the step counts: "nothing repairs it" needs time to be seen.
	HoldMs float64
	// Live, if set, replaces Text with words computed from the world at the
	// moment the step is reached (names, terms, times).
	Live func(v *View) string
	// Claims checks that what the step's words say is true of the world at
	// the moment the step is reached, which is when the reader is shown
	// them: nil if every claim holds, otherwise the first that does not.
	// Tests play every figure and hold each step to its claims.
	Claims func(v *View) error
}

// Knob is a choice a scenario offers before it starts. Values are strings so
// they travel in URLs unchanged.
type Knob struct {
	Name    string   // stable, e.g. "protocol", "members", "split"
	Label   string   // what the reader sees
	Values  []string // allowed values, in the order offered
	Default string
	// Says is what the reader sees for each value, in the order of
	// Values, where it is not the value itself (a figure that keeps
	// Raft's name from the reader offers it in its own words).
	Says []string
	// Lab keeps the choice to the full lab: a figure embedded in a page
	// neither shows it nor offers the comparison it makes, where the
	// page's text leaves what it reveals for later. The page's own
	// commands may still set it.
	Lab bool
}

// Say is what the reader sees for one of the knob's values.
func (k Knob) Say(value string) string {
	for i, v := range k.Values {
		if v == value && i < len(k.Says) && k.Says[i] != "" {
			return k.Says[i]
		}
	}
	return value
}

// Setting is a value chosen for a knob.
type Setting struct {
	Knob  string
	Value string
}

// Panel names a panel the app can show beside the cluster.
type Panel string

const (
	// PanelQuestion puts one question to every machine (raftcore.World.Ask).
	PanelQuestion Panel = "question"
	// PanelContract shows the shared-history contract (World.Contract).
	PanelContract Panel = "contract"
	// PanelClient lists client operations, their results and waits.
	PanelClient Panel = "client"
	// PanelRoles is the follower/candidate/leader state diagram.
	PanelRoles Panel = "roles"
	// PanelLogs shows every machine's log as a strip.
	PanelLogs Panel = "logs"
	// PanelChecker lists the safety checker's findings.
	PanelChecker Panel = "checker"
	// PanelElections counts elections, leader changes, time without a
	// leader and failover times (raftcore.ElectionStats).
	PanelElections Panel = "elections"
	// PanelClocks lists each machine's clock offset and the leader's lease.
	PanelClocks Panel = "clocks"
	// PanelLeases is Kubernetes' node heartbeats: each worker's condition
	// as the node lifecycle controller holds it, its kubelet, how long
	// the controller has gone without seeing its Lease renewed against
	// the grace period, its Pods, the zone state and the checks' counts.
	PanelLeases Panel = "leases"
	// PanelInformers shows each deployment controller's informer: its
	// listed revision, its watch, its cache against the store, and the
	// reconcile checks (raftcore.World.DeploymentControllers).
	PanelInformers Panel = "informers"
)

// UI is how the app should present a scenario.
type UI struct {
	// Panels to show, the most important first.
	Panels []Panel
	// Highlight names machines the story is about.
	Highlight []raftcore.NodeID
	// Key is the default key for the question panel and for writes the
	// reader makes.
	Key string
	// Compare, when set, is the setting to offer once the story is over, so
	// the reader can see the same figure under the other protocol.
	Compare *Setting
	// Focus is the one panel the figure's paragraph is about: the one an
	// embedded figure shows beside its machines. PanelLogs means the
	// machines' histories, which then take the panel's place, drawn
	// large, each entry saying which write it holds in every protocol.
	Focus Panel
	// LogsTitle and LogsKey are, where the histories are the focus, the
	// story's words for them: their heading ("Notebooks") and a line
	// under them saying what an entry is. Empty: the app's own.
	LogsTitle, LogsKey string
	// OpenMs is the moment (virtual time) the figure opens at: where its
	// first paragraph starts, after any setup the paragraph takes as
	// given (a leader already elected). It comes before the story's second
	// step.
	OpenMs float64
	// Replication: the figure's paragraph is about replication, so its
	// histories show, for each follower, how far the leader knows it holds
	// the leader's log (its match index) and where the leader's next
	// append to it starts (its next index). The free lab always shows them.
	Replication bool
	// Words is the rung of the book's ladder of words the figure speaks.
	Words Words
	// HideRule: the figure is an exercise that asks the reader to find
	// when there is enough agreement to accept a write; it shows what
	// happens (writes go on or stop) and never states the rule (a
	// majority, so many of so many needed). The book stops one step
	// before it.
	HideRule bool
	// Cache, when set, is a cache in front of the cluster (as CoreDNS is
	// in front of the API server) that the figure shows answering beside
	// the members: it answers from its last read, even when it can no
	// longer reach them.
	Cache *Cache
	// Pace is how fast the figure plays when the reader chose no speed,
	// in simulated seconds per real second (within the app's speed
	// range); 0 leaves the app's own. A figure about Kubernetes' leases
	// runs in seconds of renewal and grace, not in Raft's milliseconds:
	// its pace lets 50 s of grace pass in a few real seconds, and its
	// clock then reads in seconds (SecondsClock).
	Pace float64
}

// SecondsClock reports whether the figure's clock reads in seconds to a
// tenth ("t = 73.4 s") rather than to the millisecond: its story runs in
// seconds, at a pace of its own.
func (u UI) SecondsClock() bool { return u.Pace > 0 }

// Words is a rung of the book's ladder of words: how much of Raft's
// vocabulary a figure may speak, wherever it speaks (on the canvas, in its
// story, to a screen reader), by where the book places it. The chapter
// "One authoritative history" never shows Raft's mechanism: it speaks of
// machines, copies and history, then of a machine in charge and of
// groups, names Raft once after its contract, and leaves terms, votes,
// candidates, heartbeats, elections and leases to the lesson. Its figures
// climb the ladder with it; the lesson's figures and the free lab speak
// Raft's own words.
type Words uint8

const (
	// WordsRaft are Raft's own words: leader, follower, candidate, term,
	// vote, heartbeat, election and lease. The default: the free lab and
	// the lesson's figures.
	WordsRaft Words = iota
	// WordsContract are the chapter's words from its contract on: a
	// machine in charge, groups, accepted and waiting writes, and Raft by
	// name (the chapter names it there), but none of its mechanism.
	WordsContract
	// WordsInCharge are the chapter's words from "The Two Leaders" to its
	// contract: a machine in charge (an authority), the others, groups;
	// Raft is not named yet.
	WordsInCharge
	// WordsCopies are the chapter's words before "The Two Leaders":
	// machines, their copies and histories, active, silent, accepted,
	// waiting. No machine leads, follows or is in charge, even when Raft
	// runs underneath: one that does is the machine that takes the writes.
	// Nor does a majority decide: enough machines agree.
	WordsCopies
)

// mechanism is Raft's mechanism, which the chapter keeps hidden: its
// roles, terms, votes, heartbeats, elections and leases, and its options'
// names.
var mechanism = []string{
	"leader", "leaders", "leadership", "follower", "followers",
	"candidate", "candidates", "pre-candidate", "pre-candidates",
	"term", "terms", "vote", "votes", "voted", "voting", "voter", "voters",
	"pre-vote", "pre-votes", "prevote", "heartbeat", "heartbeats",
	"election", "elections", "elect", "elects", "elected", "electing",
	"lease", "leases", "checkquorum", "readindex",
	"linearizable", "linearizably", "linearizability",
}

// leading is what the chapter keeps until "The Two Leaders": one machine
// deciding for the others, and a majority deciding.
var leading = []string{
	"majority", "majorities",
	"lead", "leads", "leading", "follow", "follows", "followed", "following",
	"in charge", "took charge", "take charge", "takes charge", "authority", "authorities",
	"take over", "takes over", "took over", "taking over",
}

// Withheld lists the words and phrases a figure on this rung never says
// (matched whole, in any case): none for Raft's own words.
func (w Words) Withheld() []string {
	var out []string
	if w == WordsRaft {
		return out
	}
	out = append(out, mechanism...)
	if w >= WordsInCharge {
		out = append(out, "raft")
	}
	if w >= WordsCopies {
		out = append(out, leading...)
	}
	return out
}

// ruleWords are what a figure that withholds the rule of enough agreement
// (UI.HideRule) never says: the rule's name and its arithmetic.
var ruleWords = []string{"majority", "majorities", "more than half", "needed", "quorum", "quorums"}

// Withheld lists the words and phrases the figure never says, anywhere it
// speaks, but in its title (the book's own heading): its rung's, and the
// rule's where it hides the rule.
func (u UI) Withheld() []string {
	out := u.Words.Withheld()
	if u.HideRule {
		out = append(out, ruleWords...)
	}
	return out
}

// Result is what an autoplay run produced.
type Result struct {
	// StepsReached lists the step indexes reached, in order, and
	// ReachedAtMs the virtual time each was reached.
	StepsReached []int
	ReachedAtMs  []float64
	// Texts are the step texts as the reader saw them.
	Texts []string
	// Final is the closing "what just happened" line.
	Final string
	// Expect is nil when the run made the figure's point, and otherwise says
	// what was missing.
	Expect error
}

// Complete reports whether every step of s was reached.
func (r Result) Complete(s *Scenario) bool { return len(r.StepsReached) == len(s.Steps) }

// def is how a scenario is registered: its knobs and a builder that makes the
// scenario for one value of each.
type def struct {
	id    string
	knobs []Knob
	build func(k values) *Scenario
}

// values are knob settings by name.
type values []Setting

func (v values) get(name string) string {
	for _, s := range v {
		if s.Knob == name {
			return s.Value
		}
	}
	return ""
}

// registry lists the scenarios in the order the app offers them: the book's
// chapters in order, figures in page order.
var registry = []def{
	threeAnswers, replicatedMemory, twoWorlds, slowOrDead, twoLeaders, majority, contractDef, notebooks, quorumSize,
	versionedTruth,
	roles, partitionHalts, commitLatency, capReads,
	timeoutTuning,
	clockDrift,
	failureDomains,
	nodeLease,
	quorumAndLeases,
	reconcileFig,
	memberAdd, replaceMember, jointConsensus, moveLeader, snapshotCatchUp, figure8,
}

func (d def) make(k values) *Scenario {
	s := d.build(k)
	s.ID = d.id
	s.Knobs = d.knobs
	s.Settings = append([]Setting(nil), k...)
	return s
}

func (d def) defaults() values {
	v := make(values, len(d.knobs))
	for i, kn := range d.knobs {
		v[i] = Setting{Knob: kn.Name, Value: kn.Default}
	}
	return v
}

// All returns every scenario with its default settings, in a stable order.
func All() []*Scenario {
	out := make([]*Scenario, len(registry))
	for i, d := range registry {
		out[i] = d.make(d.defaults())
	}
	return out
}

// IDs returns every scenario id in the order of All.
func IDs() []string {
	out := make([]string, len(registry))
	for i, d := range registry {
		out[i] = d.id
	}
	return out
}

// Get returns the scenario with the given id and its default settings.
func Get(id string) (*Scenario, error) {
	for _, d := range registry {
		if d.id == id {
			return d.make(d.defaults()), nil
		}
	}
	if id == "" {
		return nil, fmt.Errorf("scenario: no id given; use one of %s", strings.Join(IDs(), ", "))
	}
	return nil, fmt.Errorf("scenario: unknown id %q; use one of %s", id, strings.Join(IDs(), ", "))
}

// Check is Get for callers that only need to know whether id is valid.
func Check(id string) error {
	_, err := Get(id)
	return err
}

// Knob returns the knob with the given name.
func (s *Scenario) Knob(name string) (Knob, bool) {
	for _, k := range s.Knobs {
		if k.Name == name {
			return k, true
		}
	}
	return Knob{}, false
}

// Setting returns the value of the named knob ("" if there is no such knob).
func (s *Scenario) Setting(name string) string { return values(s.Settings).get(name) }

// With returns the scenario rebuilt with knob name set to value; the other
// knobs keep their current values. Errors name the knob and list what it
// accepts.
func (s *Scenario) With(name, value string) (*Scenario, error) {
	var d *def
	for i := range registry {
		if registry[i].id == s.ID {
			d = &registry[i]
		}
	}
	if d == nil {
		return nil, fmt.Errorf("scenario %q is not registered", s.ID)
	}
	k, ok := s.Knob(name)
	if !ok {
		if len(s.Knobs) == 0 {
			return nil, fmt.Errorf("%s: scenario %s has no settings", name, s.ID)
		}
		names := make([]string, len(s.Knobs))
		for i, kn := range s.Knobs {
			names[i] = kn.Name
		}
		return nil, fmt.Errorf("%s: scenario %s has no such setting; it has %s", name, s.ID, strings.Join(names, ", "))
	}
	found := false
	for _, v := range k.Values {
		found = found || v == value
	}
	if !found {
		return nil, fmt.Errorf("%s: %q is not offered by scenario %s; use one of %s", name, value, s.ID, strings.Join(k.Values, ", "))
	}
	next := append(values(nil), s.Settings...)
	for i := range next {
		if next[i].Knob == name {
			next[i].Value = value
		}
	}
	return d.make(next), nil
}

// Config returns the scenario's world configuration with the given seed.
func (s *Scenario) Config(seed int64) raftcore.Config {
	c := s.Base
	c.Seed = seed
	c.Names = append([]string(nil), s.Base.Names...)
	return c
}

// Autoplay returns a copy of the scripted actions, in time order.
func (s *Scenario) Autoplay() []raftcore.Action {
	out := append([]raftcore.Action(nil), s.Script...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].AtMs < out[j].AtMs })
	return out
}

// Schedule writes the autoplay as a schedule (the `raftsim run -f` format):
// running it gives exactly the world Run gives.
func (s *Scenario) Schedule(seed int64) raftcore.Schedule {
	w := raftcore.MustWorld(s.Config(seed))
	sch := w.Schedule()
	sch.Actions = s.Autoplay()
	sch.UntilMs = s.UntilMs
	return sch
}

// Run plays the autoplay from a new world with the given seed up to UntilMs,
// watching the steps after every event. The error is for a scenario that
// cannot be played at all; whether the run made its point is Result.Expect.
func (s *Scenario) Run(seed int64) (*raftcore.World, Result, error) {
	return s.run(seed, nil)
}

// run is Run calling onReach, if set, each time a step is reached, with the
// world as it is at that moment.
func (s *Scenario) run(seed int64, onReach func(i int, v *View)) (*raftcore.World, Result, error) {
	w, err := raftcore.NewWorld(s.Config(seed))
	if err != nil {
		return nil, Result{}, fmt.Errorf("scenario %s: %v", s.ID, err)
	}
	t := NewTracker(s)
	t.onReach = onReach
	if err := s.play(w, t, s.Autoplay(), int64(s.UntilMs*1000)); err != nil {
		return w, Result{}, err
	}
	res := Result{Final: s.final(t.view(w)), Expect: s.Expect(w)}
	for i, r := range t.reached {
		res.StepsReached = append(res.StepsReached, i)
		res.ReachedAtMs = append(res.ReachedAtMs, float64(r.atUs)/1000)
		res.Texts = append(res.Texts, r.text)
	}
	return w, res, nil
}

// play applies acts to w, each at its time, and runs it on to until, with
// t following the story after every event.
func (s *Scenario) play(w *raftcore.World, t *Tracker, acts []raftcore.Action, until int64) error {
	t.Observe(w)
	for i, a := range acts {
		runObserved(w, t, a.AtUs())
		if err := w.Apply(a); err != nil {
			return fmt.Errorf("scenario %s: autoplay action %d (%s): %v", s.ID, i, a, err)
		}
		t.Observe(w)
	}
	runObserved(w, t, until)
	return nil
}

// runObserved advances w to time t like World.RunUntil, letting the tracker
// look after every event so that no step is missed between two events.
func runObserved(w *raftcore.World, t *Tracker, until int64) {
	for {
		next, ok := w.NextEventAt()
		if !ok || next > until {
			break
		}
		w.Step()
		t.Observe(w)
	}
	w.RunUntil(until)
}
