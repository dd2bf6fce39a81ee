package app

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"raftlab/viz"
	"raftlab/viz/app/command"
	"raftlab/viz/app/scene"
	"raftlab/viz/app/session"
	"raftlab/viz/frame"
)

// TestAMissingFigureOffersTheList: a figure id that names nothing is said
// in one dismissable line, and the list of figures is open to pick from,
// at column width and on a phone.
func TestAMissingFigureOffersTheList(t *testing.T) {
	cat := session.BuiltinScenarios()
	params, problems := viz.ParseQuery("?scenario=nope&nodes=5", cat.Check)
	msgs, missing := SortProblems(problems)
	require.Empty(t, msgs, "the unknown figure is not a banner message of its own")
	require.Equal(t, "nope", missing)

	for _, size := range [][2]float64{{720, 450}, {350, 560}} {
		a, err := New(Options{Params: params, Width: size[0], Height: size[1], Scenarios: cat, MissingFigure: missing})
		require.NoError(t, err)
		f := a.Frame()
		assert.Nil(t, f.Banner, "%v: a banner besides the list", size)
		require.NotNil(t, f.Menu, "%v: the list of figures is not open", size)
		require.NotEmpty(t, f.Menu.Lines, "%v: the list does not say what is missing", size)
		line := f.Menu.Lines[0]
		assert.Contains(t, line.Text, `"nope"`)
		assert.Equal(t, frame.ToneBad, line.Tone)
		assert.Len(t, f.Menu.Lines, 1, "%v: more than one line", size)
		assert.GreaterOrEqual(t, line.Y, f.Menu.Rect.Y, "%v: the line is above the list", size)
		assert.LessOrEqual(t, line.Y+scene.LineHeight(line.Size), f.Menu.Rect.Bottom(), "%v: the line is below the list", size)
		found := false
		for _, row := range f.Menu.Rows {
			for _, w := range row.Widgets {
				if w.ID == "scenario:majority" {
					found = true
				}
			}
		}
		assert.True(t, found, "%v: the open menu offers no figure", size)

		// Closing the list dismisses the line for good.
		require.NoError(t, a.Do(command.Dismiss{}))
		require.NoError(t, a.Do(command.OpenScenarios{}))
		f = a.Frame()
		require.NotNil(t, f.Menu)
		assert.Empty(t, f.Menu.Lines, "%v: the line came back", size)
	}

	// Other problems still reach the banner, and a good id is no problem.
	_, problems = viz.ParseQuery("?scenario=majority&nodes=99", cat.Check)
	msgs, missing = SortProblems(problems)
	assert.Len(t, msgs, 1)
	assert.Empty(t, missing)
}
