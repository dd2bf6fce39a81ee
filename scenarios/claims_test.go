package scenarios

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"raftlab/raftcore"
)

// claimSeeds is how many seeds each variant is played with when its steps
// are held to their claims.
func claimSeeds(s *Scenario) int64 {
	if n := seedsFor(s); n < 8 {
		return n
	}
	return 8
}

// playClaims plays s's autoplay with one seed and, at the moment each step
// is reached (when the app would show its words), checks the step's
// claims against the world. It returns every claim that did not hold, and
// every step that makes no checkable claim. A figure opens later than its
// world starts (UI.OpenMs), on the setting its first paragraph takes as
// given: the first step's claims are held there too.
func playClaims(s *Scenario, seed int64) ([]string, error) {
	var bad []string
	_, _, err := s.run(seed, func(i int, v *View) {
		st := s.Steps[i]
		if st.Claims == nil {
			bad = append(bad, fmt.Sprintf("step %d says %q and claims nothing checkable", i, stepText(st, v)))
			return
		}
		if err := st.Claims(v); err != nil {
			bad = append(bad, fmt.Sprintf("step %d at %s (%q): %v", i, ms(v.W.Now()), stepText(st, v), err))
		}
	})
	if err != nil || s.UI.OpenMs == 0 || s.Steps[0].Claims == nil {
		return bad, err
	}
	v, err := opening(s, seed)
	if err != nil {
		return bad, err
	}
	if err := s.Steps[0].Claims(v); err != nil {
		bad = append(bad, fmt.Sprintf("step 0 at the opening, %s (%q): %v", ms(v.W.Now()), s.Steps[0].Text, err))
	}
	return bad, nil
}

// opening plays s's autoplay with one seed up to the moment its figure
// opens (UI.OpenMs), where the first step's words are the setting of the
// figure's first paragraph, and returns the world there as the first
// step's claims see it.
func opening(s *Scenario, seed int64) (*View, error) {
	w, err := raftcore.NewWorld(s.Config(seed))
	if err != nil {
		return nil, err
	}
	t := NewTracker(s)
	open := int64(s.UI.OpenMs * 1000)
	acts := s.Autoplay()
	for i, a := range acts {
		if a.AtUs() > open {
			acts = acts[:i]
			break
		}
	}
	if err := s.play(w, t, acts, open); err != nil {
		return nil, err
	}
	if t.Step() != 0 {
		return nil, fmt.Errorf("%s reached step %d before it opens", s.ID, t.Step())
	}
	return t.view(w), nil
}

func stepText(st Step, v *View) string {
	if st.Live != nil {
		return st.Live(v)
	}
	return st.Text
}

// TestEveryStepIsTrueWhenShown plays every figure under every knob value
// and holds each step to its claims at the moment it is shown.
func TestEveryStepIsTrueWhenShown(t *testing.T) {
	for _, s := range everyVariant(t) {
		t.Run(label(s), func(t *testing.T) {
			for seed := int64(1); seed <= claimSeeds(s); seed++ {
				bad, err := playClaims(s, seed)
				if err != nil {
					t.Fatalf("seed %d: %v", seed, err)
				}
				if len(bad) > 0 {
					t.Fatalf("seed %d:\n%s", seed, strings.Join(bad, "\n"))
				}
			}
		})
	}
}

// TestAWrongClaimIsCaught: words that say something the world does not
// show fail the check. "C leads" at the start of slow-or-dead is false
// (nobody leads yet), and so is "C is silent" once C has come back.
func TestAWrongClaimIsCaught(t *testing.T) {
	s, _ := Get("slow-or-dead")
	s.Steps[0].Claims = claims(leadsAlone(node(3)))
	bad, err := playClaims(s, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(bad) != 1 || !strings.Contains(bad[0], "step 0") || !strings.Contains(bad[0], "C alone is in charge") {
		t.Fatalf("a false claim at step 0 was not caught: %q", bad)
	}
	s, _ = Get("slow-or-dead")
	last := len(s.Steps) - 1
	s.Steps[last].Claims = claims(silentNow(node(3)))
	bad, _ = playClaims(s, 1)
	if len(bad) != 1 || !strings.Contains(bad[0], fmt.Sprintf("step %d", last)) || !strings.Contains(bad[0], "C is silent") {
		t.Fatalf("a false claim at the last step was not caught: %q", bad)
	}
	s, _ = Get("two-worlds")
	s.Steps[len(s.Steps)-1].Claims = claims(sameHistories(nil))
	if bad, _ = playClaims(s, 1); len(bad) != 1 {
		t.Fatalf("two-worlds said to end in agreement, and nothing objected: %q", bad)
	}
}

// TestTheLeaseFiguresOpenOnWhatTheWorldDid: the first words of node-lease
// and quorum-and-leases say that three kubelets renew and a controller
// judges them at the figure's intervals, and the claim reads what the
// world did by the opening. A world run at another renew interval or
// monitor period than the words give, or with a kubelet that never
// renewed, makes it false; one whose kubelet's clock runs fast, renewing
// at its own clock's interval, does not.
func TestTheLeaseFiguresOpenOnWhatTheWorldDid(t *testing.T) {
	for _, c := range []struct {
		name   string
		untrue []string // what the claim may say instead (any of them); nil: it holds
		change func(s *Scenario)
	}{
		{"as built", nil, func(*Scenario) {}},
		{"a kubelet whose clock runs 10% fast", nil, func(s *Scenario) {
			s.Script = append(s.Script, raftcore.Action{Do: raftcore.DoDrift, Node: 5, Rate: 1.1})
		}},
		{"renewing every 5 s", []string{"renewal reached the API server"}, func(s *Scenario) { s.Base.Kube.RenewMs = 5000 }},
		{"renewing every 9.5 s", []string{"renewal reached the API server"}, func(s *Scenario) { s.Base.Kube.RenewMs = 9500 }},
		// Renewing less often, a kubelet may have renewed only once by the opening.
		{"renewing every 11 s", []string{"renewal reached the API server", "renewal committed", "one interval after another"}, func(s *Scenario) { s.Base.Kube.RenewMs = 11000 }},
		{"looking every 4 s", []string{"the node lifecycle controller looked at the Leases"}, func(s *Scenario) { s.Base.Kube.MonitorMs = 4000 }},
		{"looking every 6 s", []string{"the node lifecycle controller looked at the Leases"}, func(s *Scenario) { s.Base.Kube.MonitorMs = 6000 }},
		{"a worker crashed from the start", []string{"worker-2 has had 0 renewals committed"}, func(s *Scenario) {
			s.Script = append(s.Script, raftcore.Action{Do: raftcore.DoCrash, Node: 5})
		}},
		{"a worker paused from the start", []string{"worker-3 has had 0 renewals committed"}, func(s *Scenario) {
			s.Script = append(s.Script, raftcore.Action{Do: raftcore.DoPause, Node: 6})
		}},
	} {
		for _, fig := range []string{"node-lease", "quorum-and-leases"} {
			t.Run(fig+"/"+c.name, func(t *testing.T) {
				for seed := int64(1); seed <= 3; seed++ {
					s, _ := Get(fig)
					c.change(s)
					v, err := opening(s, seed)
					if err != nil {
						t.Fatal(err)
					}
					err = s.Steps[0].Claims(v)
					switch {
					case c.untrue == nil && err != nil:
						t.Fatalf("seed %d: %v", seed, err)
					case c.untrue != nil && (err == nil || !slices.ContainsFunc(c.untrue, func(u string) bool { return strings.Contains(err.Error(), u) })):
						t.Fatalf("seed %d: want the opening's words untrue (%q), got %v", seed, c.untrue, err)
					}
					// At the start nothing has happened that could contradict them.
					w, _ := raftcore.NewWorld(s.Config(seed))
					if err := s.Steps[0].Claims(&View{W: w, h: newHistory()}); err != nil {
						t.Fatalf("seed %d, at the start: %v", seed, err)
					}
				}
			})
		}
	}
}

// TestTheLeaseFiguresFirstWordsHoldUntilTheSecondStep: the full lab shows
// a figure's first words from the start of its world, before the kubelets
// have renewed; the lease figures' first claims hold at every moment from
// there until the second step is reached (once the actions of a moment
// are all applied), on every setting.
func TestTheLeaseFiguresFirstWordsHoldUntilTheSecondStep(t *testing.T) {
	for _, s := range everyVariant(t) {
		if s.ID != "node-lease" && s.ID != "quorum-and-leases" {
			continue
		}
		t.Run(label(s), func(t *testing.T) {
			for seed := int64(1); seed <= claimSeeds(s); seed++ {
				w := raftcore.MustWorld(s.Config(seed))
				tr := NewTracker(s)
				tr.Observe(w)
				acts := s.Autoplay()
				for tr.Step() == 0 {
					next, ok := w.NextEventAt()
					if len(acts) > 0 && (!ok || acts[0].AtUs() <= next) {
						w.RunUntil(acts[0].AtUs())
						if err := w.Apply(acts[0]); err != nil {
							t.Fatal(err)
						}
						acts = acts[1:]
					} else if !w.Step() {
						t.Fatalf("seed %d: the world stopped at step 0", seed)
					}
					tr.Observe(w)
					if next, ok := w.NextEventAt(); tr.Step() > 0 || (ok && next == w.Now()) || (len(acts) > 0 && acts[0].AtUs() == w.Now()) {
						continue
					}
					if err := s.Steps[0].Claims(tr.view(w)); err != nil {
						t.Fatalf("seed %d at %s: %v", seed, ms(w.Now()), err)
					}
				}
			}
		})
	}
}
