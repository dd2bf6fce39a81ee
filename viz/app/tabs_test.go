package app

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestTabLabelsFitTheirTabs: at column width and on a phone, every tab's
// label fits inside its tab.
func TestTabLabelsFitTheirTabs(t *testing.T) {
	for _, size := range [][2]float64{{720, 450}, {350, 560}, {1280, 800}} {
		a := newApp(t, 5, size[0], size[1])
		for _, w := range a.Frame().Tabs {
			assert.LessOrEqual(t, a.measure(w.Label, w.Size), w.Rect.W-6, "%v: tab %q (%.1f px text in a %.1f px tab)", size, w.Label, a.measure(w.Label, w.Size), w.Rect.W)
		}
	}
}
