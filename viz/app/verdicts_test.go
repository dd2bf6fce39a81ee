package app

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"raftlab/viz"
	"raftlab/viz/app/command"
)

// clientText is the client panel's text as the reader sees it, its wrapped
// lines joined again.
func clientText(t *testing.T, a *App) string {
	t.Helper()
	require.NoError(t, a.Do(command.ShowPanel{Panel: viz.PanelClient}))
	for _, p := range a.State().Screen.Panels {
		if p.Kind == viz.PanelClient.String() {
			return strings.Join(p.Text, " ")
		}
	}
	t.Fatalf("no client panel: %+v", a.State().Screen.Panels)
	return ""
}

// TestClientPanelJudgesEveryRead: at the end of cap-reads each answered read
// in the client panel carries the linearizability check's verdict, and the
// minority's local read is the stale one, naming the write it missed.
// Going back to before that read takes the verdict away again.
func TestClientPanelJudgesEveryRead(t *testing.T) {
	a := scenarioApp(t, "cap-reads", true)
	until := int64(a.scen().Spec().UntilMs * 1000)
	var c hostClock
	for a.World().Now() < until {
		c.run(a, 100*time.Millisecond)
	}
	a.clock.SetPaused(true)
	text := clientText(t, a)
	assert.Contains(t, text, "1 stale read")
	assert.Contains(t, text, "#8 read deployments/web locally at etcd-4: replicas=3 (rev 2) (0.0 ms), stale: missed #5")
	assert.Equal(t, 1, strings.Count(text, "stale: missed"), text)
	assert.Equal(t, 4, strings.Count(text, ", fresh"), "every other answered read passes: %s", text)

	a.session.GoTo(4_900_000)
	a.afterWorldMoved()
	text = clientText(t, a)
	assert.NotContains(t, text, "stale", "before the minority's read nothing is stale")
	assert.Equal(t, 3, strings.Count(text, ", fresh"), text)
}
