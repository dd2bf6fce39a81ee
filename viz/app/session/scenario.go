package session

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"raftlab/raftcore"
	"raftlab/scenarios"
)

// Catalog is the list of scenarios the app offers. The built-in one makes
// each figure's definition when it is first asked for: a figure embedded
// in a page needs only its own, and making all of them was a tenth of its
// start-up in the browser; the full app's menus ask for the whole list.
type Catalog struct{ c *catalog }

type catalog struct {
	ids  []string
	make func(id string) (*scenarios.Scenario, error)

	mu   sync.Mutex
	made map[string]*scenarios.Scenario
	list []*scenarios.Scenario // List's answer, once every figure is made
}

// NewCatalog offers the given scenarios.
func NewCatalog(list []*scenarios.Scenario) Catalog {
	c := &catalog{made: map[string]*scenarios.Scenario{}}
	for _, s := range list {
		c.ids = append(c.ids, s.ID)
		c.made[s.ID] = s
	}
	return Catalog{c}
}

// BuiltinScenarios is the catalog of the book's figures.
func BuiltinScenarios() Catalog {
	return Catalog{&catalog{ids: scenarios.IDs(), make: scenarios.Get, made: map[string]*scenarios.Scenario{}}}
}

// Len is how many scenarios are offered.
func (c Catalog) Len() int {
	if c.c == nil {
		return 0
	}
	return len(c.c.ids)
}

// List is the scenarios offered, in order. The list is made once and
// shared: the scenarios menu asks for it every frame it is open, so the
// caller must not change it.
func (c Catalog) List() []*scenarios.Scenario {
	if c.c == nil {
		return nil
	}
	c.c.mu.Lock()
	list := c.c.list
	c.c.mu.Unlock()
	if list != nil {
		return list
	}
	list = make([]*scenarios.Scenario, 0, c.Len())
	for _, id := range c.c.ids {
		if s, ok := c.scenario(id); ok {
			list = append(list, s)
		}
	}
	c.c.mu.Lock()
	c.c.list = list
	c.c.mu.Unlock()
	return list
}

// scenario returns scenario id's definition, made the first time.
func (c Catalog) scenario(id string) (*scenarios.Scenario, bool) {
	if c.c == nil {
		return nil, false
	}
	c.c.mu.Lock()
	defer c.c.mu.Unlock()
	if s, ok := c.c.made[id]; ok {
		return s, true
	}
	if c.c.make == nil || !slices.Contains(c.c.ids, id) {
		return nil, false
	}
	s, err := c.c.make(id)
	if err != nil {
		return nil, false
	}
	c.c.made[id] = s
	return s, true
}

// Check says whether id names a scenario (for viz.ParseQuery).
func (c Catalog) Check(id string) error {
	if c.Len() == 0 {
		return fmt.Errorf("no scenarios are built in")
	}
	if slices.Contains(c.c.ids, id) {
		return nil
	}
	return fmt.Errorf("no scenario is called %q; known: %s", id, strings.Join(c.c.ids, ", "))
}

// Get is a fresh play of scenario id.
func (c Catalog) Get(id string) (*Scenario, error) {
	if s, ok := c.scenario(id); ok {
		return NewScenario(s), nil
	}
	return nil, c.Check(id)
}

// MachineNames are the display names of a free-play cluster of n, as the
// book calls its machines: A, B, C...
func MachineNames(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = string(rune('A' + i))
	}
	return out
}

// Scenario is a scenario being played: the figure (with its knob
// settings), the tracker following the story, and whether the app plays
// the figure's script itself.
type Scenario struct {
	s        *scenarios.Scenario
	tr       *scenarios.Tracker
	script   []raftcore.Action
	autoplay bool
	// next is the script's next action to apply.
	next     int
	lastStep int
	// shown is the step whose words are on screen, or StepCount for the
	// closing line once the story is over. The full app shows the latest
	// step reached; a figure shows one at a time, so that it can rest on
	// each, even when several were reached at one moment, and on the last
	// step before its closing line.
	shown int
}

// NewScenario is a fresh play of s.
func NewScenario(s *scenarios.Scenario) *Scenario {
	return &Scenario{s: s, tr: scenarios.NewTracker(s), script: s.Autoplay()}
}

// Spec is the scenario as the book wrote it, with its knobs as set.
func (r *Scenario) Spec() *scenarios.Scenario { return r.s }

// ID is the scenario's id.
func (r *Scenario) ID() string { return r.s.ID }

// Tracker follows the story.
func (r *Scenario) Tracker() *scenarios.Tracker { return r.tr }

// Config is the scenario's world with the session's trace bound.
func (r *Scenario) Config(seed int64) raftcore.Config {
	cfg := r.s.Config(seed)
	cfg.TraceLimit = TraceLimit
	if len(cfg.Names) == 0 {
		cfg.Names = MachineNames(cfg.Nodes)
	}
	return cfg
}

// With is a fresh play of the scenario with one knob set.
func (r *Scenario) With(knob, value string) (*Scenario, error) {
	s, err := r.s.With(knob, value)
	if err != nil {
		return nil, err
	}
	return NewScenario(s), nil
}

// begin starts following a fresh world.
func (r *Scenario) begin(w *raftcore.World) {
	r.tr = scenarios.NewTracker(r.s)
	r.tr.Observe(w)
	r.lastStep = r.tr.Step()
	r.shown = r.Latest()
	r.next = 0
}

// Autoplay reports whether the app plays the script itself.
func (r *Scenario) Autoplay() bool { return r.autoplay }

// SetAutoplay has the app play the script itself, or stop.
func (r *Scenario) SetAutoplay(on bool) { r.autoplay = on }

// Step is the step shown (see Shown); never one not reached.
func (r *Scenario) Step() int { return min(r.shown, r.tr.Step()) }

// Shown is the step whose words are on screen (StepCount: the closing
// line).
func (r *Scenario) Shown() int { return r.shown }

// Show puts step k's words on screen.
func (r *Scenario) Show(k int) { r.shown = k }

// Latest is the furthest the words can be: the latest step reached, or the
// closing line once the story is over.
func (r *Scenario) Latest() int {
	if r.tr.Done() {
		return r.tr.StepCount()
	}
	return r.tr.Step()
}

// ShownDone reports whether the closing line is shown: the story is over
// on screen.
func (r *Scenario) ShownDone() bool { return r.tr.Done() && r.shown >= r.tr.StepCount() }

// Observe feeds the tracker the world; it reports whether the story
// reached another step.
func (r *Scenario) Observe(w *raftcore.World) bool {
	r.tr.Observe(w)
	if st := r.tr.Step(); st != r.lastStep {
		r.lastStep = st
		return true
	}
	return false
}

// Highlighted reports whether the story is about machine id.
func (r *Scenario) Highlighted(id raftcore.NodeID) bool {
	for _, h := range r.s.UI.Highlight {
		if h == id {
			return true
		}
	}
	return false
}

// ScriptEndUs is when the figure's script has played out.
func (r *Scenario) ScriptEndUs() int64 {
	end := int64(r.s.UntilMs * 1000)
	for _, x := range r.script {
		end = max(end, x.AtUs())
	}
	return end
}

// Knobs are the scenario's settings that differ from their defaults, by
// knob name (nil if none), as a share link records them.
func (r *Scenario) Knobs() map[string]string {
	var m map[string]string
	for _, k := range r.s.Knobs {
		if v := r.s.Setting(k.Name); v != k.Default {
			if m == nil {
				m = map[string]string{}
			}
			m[k.Name] = v
		}
	}
	return m
}

// Again is a fresh play of the same scenario, with its knobs as set and
// the app playing its script or not, as now.
func (r *Scenario) Again() *Scenario {
	n := NewScenario(r.s)
	n.autoplay = r.autoplay
	return n
}

// ClientKey is the key the lab's client requests write and read: the
// book's Deployment, whose replica count each write changes.
const ClientKey = "deployments/web"

// QuestionKey is the key the question panel asks every machine about:
// the scenario's, or the lab's client key.
func (s *Session) QuestionKey() string {
	if s.scen != nil && s.scen.s.UI.Key != "" {
		return s.scen.s.UI.Key
	}
	return ClientKey
}
