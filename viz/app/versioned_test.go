package app

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"raftlab/viz/app/scene"
	"raftlab/viz/frame"
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
			{"the scaler: read"}, {"(rev 2)"}, {"done, rev 3"},
			{"1 lost update"}, {"#5, the scaler's write"}, {"rev 3 (replicas=2"},
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

// TestVersionedTruthShowsItsEvidenceOnAPhone: resting on its last step, at
// a page's and a phone's size, the figure's client panel shows the lost
// update whole, above what the panel's room cuts or fades.
func TestVersionedTruthShowsItsEvidenceOnAPhone(t *testing.T) {
	for _, size := range figureSizes {
		a := figureApp(t, "versioned-truth", size[0], size[1])
		var c hostClock
		for n := 0; !a.scen().ShownDone() && n < 20; n++ {
			playToRest(t, a, &c, 60*time.Second)
		}
		f := a.Frame()
		require.Len(t, f.Panels, 1)
		p := f.Panels[0]
		seen := p.Clip
		if p.More {
			seen.H -= moreFade
		}
		var evidence []frame.TextItem
		for i, l := range p.Lines {
			if strings.Contains(l.Text, "the scaler's write") {
				// The finding's line, and the line it wraps onto.
				evidence = p.Lines[i : i+2]
				break
			}
		}
		require.NotEmpty(t, evidence, "%vx%v: the panel does not name the lost update", size[0], size[1])
		for _, l := range evidence {
			assert.True(t, l.Y >= seen.Y && l.Y+scene.LineHeight(l.Size) <= seen.Bottom()+0.5,
				"%vx%v: %q at y %.0f is outside what the panel shows (%.0f to %.0f)", size[0], size[1], l.Text, l.Y, seen.Y, seen.Bottom())
		}
	}
}

// moreFade is how far up from its bottom a panel that says "more below"
// fades its last lines.
const moreFade = 20
