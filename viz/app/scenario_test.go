package app

import (
	"strings"
	"testing"
	"time"

	"raftlab/scenarios"
	"raftlab/viz"
	"raftlab/viz/app/session"
)

func scenarioApp(t *testing.T, id string, autoplay bool) *App {
	t.Helper()
	p := viz.DefaultParams()
	p.Scenario, p.Autoplay, p.Speed = id, autoplay, 10
	a, err := New(Options{Params: p, SpeedGiven: true, Width: 1280, Height: 800, Scenarios: session.BuiltinScenarios()})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestAutoplayMatchesTheScenario plays every figure in the app and checks
// that the run and the story are exactly those of the scenario's own
// autoplay: same trace, same steps, same closing line.
func TestAutoplayMatchesTheScenario(t *testing.T) {
	for _, s := range scenarios.All() {
		t.Run(s.ID, func(t *testing.T) {
			want, res, err := s.Run(viz.DefaultParams().Seed)
			if err != nil {
				t.Fatal(err)
			}
			a := scenarioApp(t, s.ID, true)
			until := int64(s.UntilMs * 1000)
			var c hostClock
			for a.World().Now() < until {
				c.run(a, 100*time.Millisecond)
				if a.World().Now() > until {
					break
				}
			}
			// The app runs in frames; compare at the scenario's end.
			a.clock.SetPaused(true)
			a.session.GoTo(until)
			a.afterWorldMoved()
			if got := a.World().TraceHash(); got != want.TraceHash() {
				t.Errorf("the app's autoplay gives trace %x, the scenario's %x", got, want.TraceHash())
			}
			st := a.State().Scenario
			if st == nil || st.ID != s.ID {
				t.Fatalf("snapshot scenario %+v", st)
			}
			if st.Step != res.StepsReached[len(res.StepsReached)-1] {
				t.Errorf("the app reached step %d (%q), the scenario's autoplay %d", st.Step, st.StepText, res.StepsReached[len(res.StepsReached)-1])
			}
			if res.Complete(s) && (!st.Done || st.Final != res.Final) {
				t.Errorf("done %v with %q, want the closing line %q", st.Done, st.Final, res.Final)
			}
		})
	}
}

func TestScenarioPanelKnobsAndTakeOver(t *testing.T) {
	var withKnob *scenarios.Scenario
	for _, s := range scenarios.All() {
		if len(s.Knobs) > 0 {
			withKnob = s
			break
		}
	}
	if withKnob == nil {
		t.Skip("no scenario has knobs")
	}
	a := scenarioApp(t, withKnob.ID, false)
	k := withKnob.Knobs[0]
	var other string
	for _, v := range k.Values {
		if v != withKnob.Setting(k.Name) {
			other = v
		}
	}
	id := "knob:" + k.Name + "=" + other
	if _, ok := widgetRect(a, id); !ok {
		t.Fatalf("the scenario panel has no %s chip; controls: %v", id, widgetIDs(a))
	}
	if err := a.Click(id); err != nil {
		t.Fatal(err)
	}
	var got string
	for _, s := range a.State().Scenario.Settings {
		if s.Knob == k.Name {
			got = s.Value
		}
	}
	if got != other {
		t.Errorf("after choosing %s the setting is %q", other, got)
	}
	// Playing it, then acting, hands the figure to the reader.
	if err := a.Click("scenario.autoplay"); err != nil {
		t.Fatal(err)
	}
	if !a.State().Scenario.Autoplay {
		t.Fatal("the play button did not start the autoplay")
	}
	a.Key("c")
	if a.State().Scenario.Autoplay {
		t.Error("acting did not stop the autoplay")
	}
	if !strings.Contains(a.State().Banner, "no longer plays itself") {
		t.Errorf("the banner says %q", a.State().Banner)
	}
}

func TestUnknownScenarioIsReported(t *testing.T) {
	_, probs := viz.ParseQuery("?scenario=nope", session.BuiltinScenarios().Check)
	if len(probs) != 1 || !strings.Contains(probs[0].Message, "nope") || !strings.Contains(probs[0].Message, "majority") {
		t.Errorf("problems %v, want one naming the bad id and the known ones", probs)
	}
}

func TestFoldedPanelsOpenOnAPress(t *testing.T) {
	a := scenarioApp(t, "contract", false)
	var folded []string
	for _, p := range a.Frame().Panels {
		if p.Folded {
			folded = append(folded, p.Kind.Title())
		}
	}
	if len(folded) == 0 {
		t.Skip("the contract scenario folds no panel on this canvas")
	}
	r, ok := widgetRect(a, "open:"+folded[0])
	if !ok {
		t.Fatalf("folded panel %s has no control to open it", folded[0])
	}
	var c hostClock
	press(a, &c, r.Center(), r.Center(), 0)
	for _, p := range a.Frame().Panels {
		if p.Kind.Title() == folded[0] && (p.Folded || len(p.Lines) == 0) {
			t.Errorf("panel %s is still folded after a press on it", folded[0])
		}
	}
}

// TestShareLinkKeepsTheScenarioSettings: a link made while a figure plays
// with a knob changed reopens the figure with that setting, not its
// default, since the story, zones and checks depend on it.
func TestShareLinkKeepsTheScenarioSettings(t *testing.T) {
	s, err := scenarios.Get("majority")
	if err != nil {
		t.Fatal(err)
	}
	k := s.Knobs[0]
	other := k.Values[len(k.Values)-1]
	if other == k.Default {
		other = k.Values[0]
	}
	a := scenarioApp(t, s.ID, true)
	if err := a.setKnob(k.Name, other); err != nil {
		t.Fatal(err)
	}
	var c hostClock
	c.run(a, 2*time.Second)
	_, payload, ok := strings.Cut(a.ShareLink(), "link=")
	if !ok {
		t.Fatal("the share link has no payload")
	}
	p := viz.DefaultParams()
	p.Link = payload
	b, err := New(Options{Params: p, Width: 1280, Height: 800, Scenarios: session.BuiltinScenarios()})
	if err != nil {
		t.Fatal(err)
	}
	if b.scen() == nil || b.scen().Spec().Setting(k.Name) != other {
		t.Fatalf("the link reopened %s with %s=%q, want %q", s.ID, k.Name, b.scenKnob(k.Name), other)
	}
	if b.World().TraceHash() != a.World().TraceHash() {
		t.Error("the link reopened another run")
	}
}

// scenKnob is the value of a knob of the scenario played, or "".
func (a *App) scenKnob(name string) string {
	if a.scen() == nil {
		return ""
	}
	return a.scen().Spec().Setting(name)
}
