package app

import (
	"fmt"
	"strings"

	"raftlab/raftcore"
	"raftlab/viz"
)

// Catalog is the list of scenarios the app offers.
type Catalog struct {
	list []ScenarioInfo
	make func(id string) (ScenarioSource, error)
}

// ScenarioInfo names a scenario in the picker.
type ScenarioInfo struct {
	ID    string
	Title string
}

// ScenarioSource is what the app needs of a scenario: its world, the
// actions that set it up, its words, and a tracker of the reader's
// progress.
type ScenarioSource interface {
	Title() string
	Prompt() string
	Config(seed int64) raftcore.Config
	// Setup are actions applied at the start, before anything runs.
	Setup() []raftcore.Action
	// Zones places machines in failure domains (nil for a ring), with the
	// zones' names.
	Zones() ([]int, []string)
	// Buttons are the toolbar commands an embedded figure shows.
	Buttons() []viz.Command
	// AskKey is the key the question panel asks about ("" for the
	// default).
	AskKey() string
	// Observe lets the tracker look at the world after it moved.
	Observe(w *raftcore.World)
	// Step is the number of the current step (from 0) and Steps the count.
	Step() int
	Steps() int
	StepText() string
	Done() bool
	// Summary is the closing "what just happened", once done.
	Summary() string
}

// NewCatalog makes a catalog from a list and a constructor.
func NewCatalog(list []ScenarioInfo, make func(id string) (ScenarioSource, error)) Catalog {
	return Catalog{list: list, make: make}
}

// Check says whether id names a scenario (for viz.ParseQuery).
func (c Catalog) Check(id string) error {
	for _, s := range c.list {
		if s.ID == id {
			return nil
		}
	}
	ids := make([]string, len(c.list))
	for i, s := range c.list {
		ids[i] = s.ID
	}
	if len(ids) == 0 {
		return fmt.Errorf("no scenarios are built in")
	}
	return fmt.Errorf("no scenario is called %q; known: %s", id, strings.Join(ids, ", "))
}

func (c Catalog) get(id string) (*scenarioRun, error) {
	if err := c.Check(id); err != nil {
		return nil, err
	}
	src, err := c.make(id)
	if err != nil {
		return nil, err
	}
	s := &scenarioRun{id: id, src: src, title: src.Title(), buttons: src.Buttons(), askKey: src.AskKey()}
	s.zones, s.zoneNames = src.Zones()
	return s, nil
}

// scenarioRun is a scenario being played.
type scenarioRun struct {
	id        string
	src       ScenarioSource
	title     string
	zones     []int
	zoneNames []string
	buttons   []viz.Command
	askKey    string
	lastStep  int
}

func (s *scenarioRun) config(seed int64) raftcore.Config { return s.src.Config(seed) }

// begin applies the scenario's setup actions to a fresh world.
func (s *scenarioRun) begin(a *App) error {
	for _, x := range s.src.Setup() {
		if err := a.hist.Act(x); err != nil {
			return fmt.Errorf("scenario %s: %v", s.id, err)
		}
	}
	s.src.Observe(a.World())
	s.lastStep = s.src.Step()
	return nil
}

// observe feeds the tracker and announces a new step.
func (s *scenarioRun) observe(a *App) {
	s.src.Observe(a.World())
	if st := s.src.Step(); st != s.lastStep {
		s.lastStep = st
		a.changed()
	}
}

func (s *scenarioRun) zoneName(z int) string {
	if z >= 0 && z < len(s.zoneNames) {
		return s.zoneNames[z]
	}
	return "Zone " + string(rune('A'+z))
}

func (s *scenarioRun) panel(a *App, wr *writer) {
	wr.text(s.src.Prompt(), sizeBody, ToneText, false)
	wr.gap(6)
	if n := s.src.Steps(); n > 0 {
		step := min(s.src.Step()+1, n)
		wr.text(fmt.Sprintf("Step %d of %d", step, n), sizeSmall, ToneMuted, true)
	}
	if t := s.src.StepText(); t != "" {
		wr.text(t, sizeBody, ToneAccent, true)
	}
	if s.src.Done() {
		wr.gap(6)
		wr.text("What just happened", sizeBody, ToneText, true)
		wr.text(s.src.Summary(), sizeBody, ToneText, false)
	}
	wr.gap(6)
	wr.buttons(0, button("scenario.restart", "Start again"), button("scenarios", "Other scenarios"), button("scenario:", "Free play"))
}

// contract is how each clause of the shared-history contract stands now,
// judged from the checker's findings and the machines' states.
func (a *App) contract() []Clause {
	w := a.World()
	var out []Clause
	forks := w.ViolationCount(raftcore.RuleStateMachineSafety) + w.ViolationCount(raftcore.RuleLogMatching) +
		w.ViolationCount(raftcore.RuleLeaderCompleteness) + w.ViolationCount(raftcore.RuleMajority) +
		w.ViolationCount(raftcore.RuleSingleAuthority)
	one := Clause{Title: "One history", State: ClauseHolding, Text: "there is one committed sequence of events."}
	if forks > 0 {
		one.State, one.Text = ClauseBroken, "machines committed different histories."
	}
	out = append(out, one)
	conv := Clause{Title: "Everyone converges", State: ClauseHolding, Text: "every running machine has applied the same history."}
	var applied uint64
	var digest uint64
	first := true
	differ := false
	for i := 1; i <= w.Size(); i++ {
		id := raftcore.NodeID(i)
		if w.Status(id) != raftcore.StatusUp {
			continue
		}
		nd := w.Node(id)
		if first {
			applied, digest, first = nd.Applied(), nd.KV().Digest(), false
			continue
		}
		if nd.Applied() != applied || nd.KV().Digest() != digest {
			differ = true
		}
	}
	if differ {
		conv.State, conv.Text = ClauseNotYet, "running machines still hold different states."
		if forks > 0 {
			conv.State = ClauseBroken
			conv.Text = "their histories differ, and nothing will reconcile them."
		}
	}
	out = append(out, conv)
	fork := Clause{Title: "Never forks", State: ClauseHolding, Text: "no two machines applied different entries at one place."}
	if n := w.ViolationCount(raftcore.RuleStateMachineSafety); n > 0 {
		fork.State, fork.Text = ClauseBroken, "two machines applied different entries at the same index."
	}
	out = append(out, fork)
	dec := Clause{Title: "Decisions use shared history", State: ClauseHolding, Text: "every read saw every write finished before it."}
	if w.ViolationCount(raftcore.RuleStaleRead) > 0 {
		dec.State, dec.Text = ClauseBroken, "a read answered from a history that was out of date."
	}
	out = append(out, dec)
	return out
}
