package scenarios

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEveryFigureHasAFocusAndOpensBeforeItsStory: an embedded figure shows
// one panel and opens at a moment of its first step, so every figure names
// a panel it offers and opens before its second step is reached.
func TestEveryFigureHasAFocusAndOpensBeforeItsStory(t *testing.T) {
	for _, s := range everyVariant(t) {
		t.Run(label(s), func(t *testing.T) {
			require.NotEmpty(t, s.UI.Focus, "no focus panel")
			if s.UI.Focus != PanelLogs {
				assert.True(t, slices.Contains(s.UI.Panels, s.UI.Focus), "focus %s is not among the panels %v", s.UI.Focus, s.UI.Panels)
			}
			_, r, err := s.Run(1)
			require.NoError(t, err)
			require.Greater(t, len(r.ReachedAtMs), 1)
			assert.Less(t, s.UI.OpenMs, r.ReachedAtMs[1], "the figure opens after its second step (%q)", r.Texts[1])
			for _, a := range s.Autoplay() {
				if a.AtMs > s.UI.OpenMs {
					break
				}
				assert.Equal(t, "timeout", string(a.Do), "the figure opens after %s at %v ms, which its paragraph does not take as given", a.Do, a.AtMs)
			}
		})
	}
}
