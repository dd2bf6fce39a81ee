package scenarios

import (
	"fmt"
	"strings"
	"testing"
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
// every step that makes no checkable claim.
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
	return bad, err
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
