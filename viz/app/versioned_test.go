package app

import (
	"strings"
	"testing"
)

// hasText reports whether some text shown contains every one of parts.
func hasText(texts map[string]string, parts ...string) bool {
	for s := range texts {
		all := true
		for _, p := range parts {
			all = all && strings.Contains(s, p)
		}
		if all {
			return true
		}
	}
	return false
}

// TestVersionedTruthShowsRevisionsAndTheLostUpdate: played through, the
// figure's client panel shows the revisions read and written and, with
// plain writes, the lost update apart from the rules; with cas, the swap
// that failed and no lost update.
func TestVersionedTruthShowsRevisionsAndTheLostUpdate(t *testing.T) {
	for _, size := range [][2]float64{{720, 450}, {350, 560}} {
		plain := playedTexts(t, "versioned-truth", "", "", size[0], size[1], true)
		// Panel lines wrap, so each check is a piece short enough to
		// stay on one line.
		for _, want := range [][]string{
			{"controller 1: read"}, {"(rev 2)"}, {"done, rev 3"},
			{"1 lost update"}, {"#5, controller 1's write"}, {"rev 3 (replicas=2"},
		} {
			if !hasText(plain, want...) {
				t.Errorf("%vx%v plain: no text shows %q", size[0], size[1], want)
			}
		}
		cas := playedTexts(t, "versioned-truth", "writes", "cas", size[0], size[1], true)
		if !hasText(cas, "swap failed") || !hasText(cas, "found rev 3") || !hasText(cas, "if at rev 2") {
			t.Errorf("%vx%v cas: the failed swap is not shown", size[0], size[1])
		}
		if !hasText(cas, "swap refused") {
			t.Errorf("%vx%v cas: the tally does not count the refused swap", size[0], size[1])
		}
		if hasText(cas, "lost update") {
			t.Errorf("%vx%v cas: a lost update is shown", size[0], size[1])
		}
	}
}
