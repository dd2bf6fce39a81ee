package app

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// controlByID finds control id among what the keyboard can reach.
func controlByID(t *testing.T, a *App, id string) Control {
	t.Helper()
	for _, c := range a.Controls() {
		if c.ID == id {
			return c
		}
	}
	t.Fatalf("no control %q among %v", id, a.Controls())
	return Control{}
}

func TestKeyboardReachesMachinesLinksAndTheirMenus(t *testing.T) {
	a := newApp(t, 3, 1280, 800)
	m := controlByID(t, a, "machine:2")
	assert.Equal(t, "machines", m.Group)
	assert.Contains(t, m.Label, "Machine B")
	l := controlByID(t, a, "link:1-3")
	assert.Equal(t, "links", l.Group)
	assert.Contains(t, l.Label, "Link A–C, up")

	// Pressing a machine opens its menu, whose controls come first and
	// pause it through Do, recorded as an action.
	require.NoError(t, a.Press("machine:2"))
	cs := a.Controls()
	require.NotEmpty(t, cs)
	assert.Equal(t, "menu", cs[0].Group, "the open menu's controls come first")
	require.NoError(t, a.Press("node.pause"))
	assert.Equal(t, "paused", a.World().Status(2).String())

	// A link's menu cuts it.
	require.NoError(t, a.Press("link:1-3"))
	require.NoError(t, a.Press("link.cut"))
	assert.False(t, a.World().Link(1, 3).Up)
	assert.Contains(t, controlByID(t, a, "link:1-3").Label, "cut")

	for _, bad := range []string{"machine:9", "machine:x", "link:1-1", "link:1", "nothing"} {
		assert.Error(t, a.Press(bad), bad)
	}
}

func TestArrowKeysMoveTheSliders(t *testing.T) {
	a := newApp(t, 3, 1280, 800)
	before := a.Speed()
	require.NoError(t, a.Nudge("speed", 1))
	assert.Greater(t, a.Speed(), before)
	require.NoError(t, a.Nudge("speed", -1))
	assert.Equal(t, before, a.Speed())
	assert.Error(t, a.Nudge("machine:1", 1))
}
