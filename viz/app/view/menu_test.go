package view

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"raftlab/viz"
	"raftlab/viz/frame"
)

// Menus are named as the page's snapshot names them, counting machines
// from 1.
func TestMenusAreNamedAsTheSnapshotNamesThem(t *testing.T) {
	for want, m := range map[string]Menu{
		"":           {},
		"node:3":     {Kind: MenuNode, Node: 2},
		"link:1-4":   {Kind: MenuLink, Link: viz.LinkID{I: 0, J: 3}},
		"message:42": {Kind: MenuMsg, Msg: 42},
		"setup":      {Kind: MenuMain},
		"scenarios":  {Kind: MenuScenarios},
		"zone:2":     {Kind: MenuZone, Zone: 1},
	} {
		assert.Equal(t, want, m.String())
		assert.Equal(t, want != "", m.Open(), "%q open", want)
	}
}

// Opening the menu that is open closes it; opening another replaces it.
// Either way the help closes.
func TestOpenMenuTogglesAndClosesTheHelp(t *testing.T) {
	v := New(frame.ThemeLight)
	a, b := Menu{Kind: MenuNode, Node: 1}, Menu{Kind: MenuLink, Link: viz.LinkID{I: 0, J: 1}}
	v.SetHelp(true)
	v.OpenMenu(a)
	require.Equal(t, a, v.Menu())
	require.False(t, v.Help())
	v.OpenMenu(b)
	require.Equal(t, b, v.Menu())
	v.OpenMenu(b)
	require.False(t, v.Menu().Open(), "the open menu opened again closes")
	v.OpenMenu(a)
	v.CloseMenu()
	require.False(t, v.Menu().Open())
}

// The help covers any menu; closing the help opens none again.
func TestTheHelpClosesTheMenu(t *testing.T) {
	v := New(frame.ThemeLight)
	v.OpenMenu(Menu{Kind: MenuMain})
	v.SetHelp(false)
	require.True(t, v.Menu().Open(), "hiding the help closes nothing")
	v.SetHelp(true)
	require.True(t, v.Help())
	require.False(t, v.Menu().Open())
}

func TestDismissClosesMenuHelpAndKey(t *testing.T) {
	v := New(frame.ThemeLight)
	v.OpenMenu(Menu{Kind: MenuZone, Zone: 0})
	v.SetLegend(true)
	v.Dismiss()
	assert.False(t, v.Menu().Open())
	assert.False(t, v.Legend())
	v.SetHelp(true)
	v.Dismiss()
	assert.False(t, v.Help())
}
