package stage

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"raftlab/viz"
)

// split is a cluster of n on a wide canvas, cleanly split into sides.
func split(n int, sides ...[]int) Input {
	in := cluster(n, 1280, 800)
	in.Sides = sides
	return in
}

// zonesOf is each machine's zone as the layout placed it.
func zonesOf(l *viz.Layout) []int {
	out := make([]int, len(l.Nodes))
	for i, nd := range l.Nodes {
		out[i] = nd.Zone
	}
	return out
}

// A clean partition is drawn one zone per side, each machine in its
// side's zone, and one empty zone more to drop a machine in.
func TestAPartitionIsDrawnOneZonePerSide(t *testing.T) {
	s := New(1280, 800)
	require.True(t, s.Fit(split(5, []int{0, 1, 2}, []int{3, 4})))
	require.Equal(t, ZonesPartition, s.Mode())
	require.Equal(t, [][]int{{0, 1, 2}, {3, 4}}, s.Sides())
	require.Equal(t, []int{0, 0, 0, 1, 1}, s.Zones())
	require.Equal(t, s.Zones(), zonesOf(s.Layout()), "the layout places each machine in its side's zone")
	require.Len(t, s.Layout().Zones, 3, "two sides and a zone to drop a machine in")
}

// No more zones than the layout shows: with as many sides as it has
// zones, there is no empty zone.
func TestTheDropZoneNeedsRoom(t *testing.T) {
	s := New(1280, 800)
	s.Fit(split(5, []int{0, 1}, []int{2, 3}, []int{4}))
	require.Len(t, s.Layout().Zones, viz.MaxZones)
	// More sides than zones: not drawn as a partition.
	s.Fit(split(5, []int{0}, []int{1}, []int{2}, []int{3, 4}))
	require.Equal(t, ZonesNone, s.Mode())
	require.Nil(t, s.Zones())
	require.Empty(t, s.Layout().Zones)
}

// A figure on a phone has a small stage and its own story: no zone waits
// for a drop.
func TestAFigureOnAPhoneHasNoDropZone(t *testing.T) {
	s := New(390, 700)
	in := split(3, []int{0, 1}, []int{2})
	in.W, in.H, in.Panels, in.Buttons, in.Figure = 390, 400, false, []viz.Command{}, true
	s.Fit(in)
	require.Len(t, s.Layout().Zones, 2)
}

// A machine dragged from one side to the other goes there, and the
// machines that stayed stay in their zones, though the network's sides
// come in the order of their first machine.
func TestSidesKeepTheirPlaces(t *testing.T) {
	s := New(1280, 800)
	s.Fit(split(5, []int{0, 1}, []int{2, 3, 4}))
	require.Equal(t, []int{0, 0, 1, 1, 1}, s.Zones())
	// A is dragged to the right: the sides are now {A,C,D,E} and {B}.
	s.Fit(split(5, []int{0, 2, 3, 4}, []int{1}))
	require.Equal(t, []int{1, 0, 1, 1, 1}, s.Zones())
	require.Equal(t, [][]int{{1}, {0, 2, 3, 4}}, s.Sides())
	require.Equal(t, s.Zones(), zonesOf(s.Layout()))
}

// A machine dropped in the empty zone is drawn there, and the side it
// left stays in its zone: a larger side keeps its place before a smaller
// one takes it.
func TestAMachineDroppedInTheEmptyZoneStaysThere(t *testing.T) {
	s := New(1280, 800)
	s.Fit(split(5, []int{0, 1}, []int{2, 3, 4}))
	require.Len(t, s.Layout().Zones, 3)
	s.Fit(split(5, []int{0, 1}, []int{2, 3}, []int{4}))
	require.Equal(t, []int{0, 0, 1, 1, 2}, s.Zones())
}

// After a heal, or in a new world, a partition is placed afresh.
func TestSidesArePlacedAfreshAfterAHealOrANewWorld(t *testing.T) {
	for what, forget := range map[string]func(s *Stage){
		"heal":      func(s *Stage) { s.Fit(cluster(5, 1280, 800)) },
		"new world": func(s *Stage) { s.ForgetWorld() },
	} {
		s := New(1280, 800)
		s.Fit(split(5, []int{0, 1}, []int{2, 3, 4}))
		forget(s)
		s.Fit(split(5, []int{0, 2, 3, 4}, []int{1}))
		assert.Equal(t, []int{0, 1, 0, 0, 0}, s.Zones(), what)
	}
}

// In a world with failure domains the zones are the world's, whatever
// the network does.
func TestAWorldsZonesAreItsFailureDomains(t *testing.T) {
	s := New(1280, 800)
	in := cluster(5, 1280, 800)
	in.WorldZones, in.ZoneCount = []int{0, 1, 2, 0, 1}, 3
	in.Sides = [][]int{{0, 1}, {2, 3, 4}}
	require.True(t, s.Fit(in))
	require.Equal(t, ZonesWorld, s.Mode())
	require.Equal(t, []int{0, 1, 2, 0, 1}, s.Zones())
	require.Nil(t, s.Sides())
	require.Equal(t, s.Zones(), zonesOf(s.Layout()))
	require.Len(t, s.Layout().Zones, 3)

	// A machine moved to another zone is laid out there.
	in.WorldZones = []int{0, 1, 2, 2, 1}
	require.True(t, s.Fit(in))
	require.Equal(t, []int{0, 1, 2, 2, 1}, zonesOf(s.Layout()))
}

// On a phone the empty zone gives way to the words under the machines:
// where three zones would shorten them, two are drawn.
func TestOnAPhoneTheDropZoneGivesWayToTheWords(t *testing.T) {
	in := cluster(5, 320, 560)
	in.Caption, in.Short = "Pre-candidate", "Pre-cand."
	in.Sides = [][]int{{0, 1}, {2, 3, 4}}
	o := options(in)
	o.Zones, o.ZoneCount = []int{0, 0, 1, 1, 1}, 3
	three := viz.ComputeLayout(o)
	require.True(t, !three.WordsFit || three.CaptionShort, "three zones leave the words their room: nothing to give way to")

	s := New(320, 560)
	s.Fit(in)
	require.Len(t, s.Layout().Zones, 2)
	require.True(t, s.Layout().WordsFit)
	require.False(t, s.Layout().CaptionShort)
}
