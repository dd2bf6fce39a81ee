package scene

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"raftlab/raftcore"
	"raftlab/viz/frame"
)

// writes has the leader of l take writes until some machine's log is
// longer than its row by more.
func writes(t *testing.T, l *lab, more int) {
	t.Helper()
	lead := l.untilLeader(t)
	_, capacity := l.b.LogWindow(l.Parts)
	require.Positive(t, capacity)
	for k := 0; k < 10*capacity && l.World().Node(raftcore.NodeID(lead+1)).LastIndex() < uint64(capacity+more); k++ {
		l.act(t, raftcore.Action{Do: raftcore.DoWrite, Node: lead + 1, Key: "k", Value: "v"})
		l.run(t, l.Session.NowUs()+20_000)
	}
	l.run(t, l.Session.NowUs()+1_000_000)
}

// newest is the newest index in any log of l.
func newest(l *lab) (last uint64) {
	for i := 1; i <= l.World().Size(); i++ {
		last = max(last, l.World().Node(raftcore.NodeID(i)).LastIndex())
	}
	return last
}

// A row holds as many entries as fit its strip, and the window starts at
// the first entry while every entry fits.
func TestTheLogWindowStartsAtTheFirstEntry(t *testing.T) {
	l := freeLab(t, 3, 1280, 800)
	first, capacity := l.b.LogWindow(l.Parts)
	assert.Equal(t, uint64(1), first)
	strip := l.Stage.Layout().Nodes[0].LogStrip
	assert.Equal(t, int(strip.W/LogCellWidth(l.Stage.Layout())), capacity)
	assert.Zero(t, l.b.LogMaxBack(l.Parts))
}

// With more entries than a row holds, the window ends at the newest entry
// anywhere and says how many lie before it; scrolled back, it shows
// older ones, as far as the first, and says how many are newer.
func TestTheLogWindowFollowsTheNewestEntryAndScrollsBack(t *testing.T) {
	l := freeLab(t, 3, 390, 800)
	writes(t, l, 6)
	first, capacity := l.b.LogWindow(l.Parts)
	last := newest(l)
	require.Greater(t, last, uint64(capacity))
	assert.Equal(t, last-uint64(capacity)+1, first)
	most := l.b.LogMaxBack(l.Parts)
	assert.Equal(t, last-uint64(capacity), most)
	f := l.build()
	assert.NotEmpty(t, f.Logs.Before.Text)
	assert.Empty(t, f.Logs.After.Text)
	shown(t, f.Logs.Rows[0].Cells, first, capacity)

	l.View.ScrollLogs(3, most)
	back, _ := l.b.LogWindow(l.Parts)
	assert.Equal(t, first-3, back)
	f = l.build()
	assert.NotEmpty(t, f.Logs.After.Text)
	shown(t, f.Logs.Rows[0].Cells, back, capacity)

	l.View.ScrollLogs(most-1, most)
	second, _ := l.b.LogWindow(l.Parts)
	require.Equal(t, uint64(2), second)
	assert.NotEmpty(t, l.build().Logs.Before.Text, "one entry lies before")

	l.View.ScrollLogs(most+50, most+50)
	start, _ := l.b.LogWindow(l.Parts)
	assert.Equal(t, uint64(1), start, "no further back than the first entry")
	assert.Empty(t, l.build().Logs.Before.Text)
}

// shown checks that cells are the entries from first, at most capacity.
func shown(t *testing.T, cells []frame.LogCell, first uint64, capacity int) {
	t.Helper()
	require.NotEmpty(t, cells)
	require.LessOrEqual(t, len(cells), capacity)
	for k, c := range cells {
		assert.Equal(t, first+uint64(k), c.Index)
	}
}
