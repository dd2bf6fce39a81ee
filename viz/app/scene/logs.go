package scene

import (
	"math"

	"raftlab/raftcore"
	"raftlab/viz"
	"raftlab/viz/frame"
	"raftlab/viz/words"
)

// logCellWidth is the width of one log entry in the strips.
func (b *Builder) logCellWidth() float64 { return LogCellWidth(b.lay()) }

// LogCellWidth is the width of one log entry in the strips of layout lay.
func LogCellWidth(lay *viz.Layout) float64 {
	if len(lay.Nodes) == 0 {
		return 0
	}
	h := lay.Nodes[0].LogStrip.H
	return math.Min(math.Max(h*1.15, 14), 28)
}

// logWindow is the first index shown and how many entries fit. Every row
// shows the same indexes, so entries line up across machines. By default
// the window ends at the newest entry anywhere; the view's LogBack
// scrolls it back, as far as the first entry some machine still holds
// (older ones are compacted into snapshots everywhere).
func (b *Builder) logWindow() (first uint64, capacity int) {
	sp := b.logSpan()
	if sp.capacity == 0 {
		return 1, 0
	}
	back := min(b.View.LogBack(), b.logMaxBack())
	if sp.last <= uint64(sp.capacity) {
		return 1, sp.capacity
	}
	return sp.last - uint64(sp.capacity) + 1 - back, sp.capacity
}

// logExtent is what the log rows have to show: the newest index in any
// log, the lowest first index (entries before it are compacted on every
// machine), how many entries a row holds, and the width at the start of
// every row kept for the snapshot blocks (0 while no log is compacted).
type logExtent struct {
	last, low uint64
	capacity  int
	lead      float64
}

// logSpan measures the logs against the rows.
func (b *Builder) logSpan() logExtent {
	if len(b.lay().Nodes) == 0 {
		return logExtent{}
	}
	cw := b.logCellWidth()
	w := b.World()
	sp := logExtent{low: math.MaxUint64}
	compacted := false
	for i := 1; i <= w.Size(); i++ {
		nd := w.Node(raftcore.NodeID(i))
		sp.last = max(sp.last, nd.LastIndex())
		sp.low = min(sp.low, nd.FirstIndex())
		compacted = compacted || nd.FirstIndex() > 1
	}
	if w.Size() == 0 {
		sp.low = 1
	}
	strip := b.lay().Nodes[0].LogStrip.W
	if compacted {
		// Two cells at the start of every row for the snapshot blocks,
		// while the strip keeps room for entries beside them.
		if lead := 2 * cw; strip-lead >= 4*cw {
			sp.lead = lead
		}
	}
	sp.capacity = max(int((strip-sp.lead)/cw), 1)
	return sp
}

// logMaxBack is how far back the logs can scroll: to the first entry
// some machine still holds.
func (b *Builder) logMaxBack() uint64 {
	sp := b.logSpan()
	low := max(sp.low, 1)
	if sp.last <= uint64(sp.capacity) || sp.last+1 <= uint64(sp.capacity)+low {
		return 0
	}
	return sp.last + 1 - uint64(sp.capacity) - low
}

// LogRowAt is the machine whose log row holds p in layout lay, or -1.
func LogRowAt(lay *viz.Layout, p viz.Point) int {
	for i, nd := range lay.Nodes {
		if nd.LogLabel.Contains(p) || nd.LogStrip.Contains(p) {
			return i
		}
	}
	return -1
}

// entryColor is the palette index of an entry: its term under Raft; under
// the naive protocols, which have no terms, and where the histories are a
// figure's focus (ownlogs.go), the machine the write was given to, so that
// diverging histories show as different colours.
func (b *Builder) entryColor(e raftcore.Entry) int {
	if b.cfg().Protocol == raftcore.ProtocolRaft && !b.ownLogs() {
		return int(e.Term)
	}
	if op, ok := b.World().Op(e.Data.OpID); ok {
		return int(op.Node)
	}
	return 0
}

// entryText is what a cell says: the term under Raft, the written replica
// count (or a mark for deletes) otherwise, where the screen speaks plain
// words, which have no terms, and where the histories are a figure's
// focus, whose squares mean the same in every protocol.
func (b *Builder) entryText(e raftcore.Entry) string {
	if b.cfg().Protocol == raftcore.ProtocolRaft && !b.Plain() && !b.ownLogs() {
		return words.Utoa(e.Term)
	}
	return words.Cell(e.Data)
}

// logColumns is the part of the histories the log rows show: entries
// first to last, capacity cells of width cw.
type logColumns struct {
	first, last uint64
	capacity    int
	cw          float64
	// lead is the width before the first column, where a row's
	// snapshot block stands.
	lead float64
}

// x is where entry idx's cell starts on a row's strip.
func (lc logColumns) x(strip viz.Rect, idx uint64) float64 {
	return strip.X + lc.lead + (float64(idx)-float64(lc.first))*lc.cw
}

// buildLogs lays out every machine's history in its row, with the
// notes and index numbers over the rows.
func (b *Builder) buildLogs() {
	f := &b.frame
	w := b.World()
	n := w.Size()
	L := &f.Logs
	L.Rect = b.lay().Logs
	var lc logColumns
	lc.first, lc.capacity = b.logWindow()
	lc.cw = b.logCellWidth()
	lc.last = lc.first + uint64(lc.capacity) - 1
	sp := b.logSpan()
	lc.lead = sp.lead
	maxLast := sp.last
	lead := b.leader()
	var leadNode *raftcore.Node
	if lead >= 0 && b.cfg().Protocol == raftcore.ProtocolRaft {
		leadNode = w.Node(nodeID(lead))
	}
	if cap(L.Rows) < n {
		L.Rows = make([]frame.LogRow, 0, n)
	}
	L.Rows = L.Rows[:n]
	for i := 0; i < n && i < len(b.lay().Nodes); i++ {
		b.buildLogRow(&L.Rows[i], i, lc, lead, leadNode)
	}
	// Say what lies outside the window rather than cutting it silently.
	L.Before, L.After = frame.TextItem{}, frame.TextItem{}
	L.Header = L.Header[:0]
	L.Key = frame.Widget{}
	if n > 0 && len(b.lay().Nodes) > 0 && !L.Rect.Empty() {
		L.Key = b.legendKey()
	}
	L.Card, L.Title, L.Notes = viz.Rect{}, frame.TextItem{}, L.Notes[:0]
	if b.ownLogs() && n > 0 {
		b.buildOwnLogsCard(L)
	}
	if n > 0 && len(b.lay().Nodes) > 0 {
		b.buildLogHeader(L, lc, maxLast, max(sp.low, 1))
	}
}

// showsProgress reports whether the log rows mark each follower's match
// and next index: always in the lab, and in a figure whose paragraph is
// about replication.
func (b *Builder) showsProgress() bool {
	if !b.Figure() {
		return true
	}
	return b.scen().Spec().UI.Replication
}

// buildLogRow fills row with machine i's history: its name tag, the
// cells in the window, and where its commit and applied marks fall, and,
// under Raft, where the leader (lead, leadNode) thinks it stands.
func (b *Builder) buildLogRow(row *frame.LogRow, i int, lc logColumns, lead int, leadNode *raftcore.Node) {
	w := b.World()
	first, last, cw := lc.first, lc.last, lc.cw
	id := nodeID(i)
	nd := w.Node(id)
	ln := b.lay().Nodes[i]
	tone, _, _ := roleLook(b.cfg().Protocol, b.lookRole(id))
	st := w.Status(id)
	*row = frame.LogRow{Node: i, Label: ln.LogLabel, Strip: ln.LogStrip, Tone: tone, Cells: row.Cells[:0],
		CommitX: -1, AppliedX: -1, MatchX: -1, NextX: -1, Faded: st != raftcore.StatusUp, Selected: i == b.View.Selected()}
	// The name sits in the middle of its tag, smaller if it is long.
	name := b.cfg().Name(id)
	c := ln.LogLabel.Center()
	row.Name = frame.TextItem{Text: name, X: c.X, Y: c.Y, Size: b.fitSize(name, SizeSmall, ln.LogLabel.W-2), Tone: frame.ToneText, Bold: true, Center: true}
	top := min(nd.LastIndex(), last)
	// Entries before the log's first index were compacted into the
	// machine's snapshot: they are gone, and no cell stands for them; one
	// block at the row's start does, over the columns they would take.
	row.Snap = frame.LogSnap{}
	if fi := nd.FirstIndex(); fi > 1 && lc.lead > 0 {
		end := lc.x(ln.LogStrip, max(first, fi))
		row.Snap = frame.LogSnap{Rect: viz.XYWH(ln.LogStrip.X+1, ln.LogStrip.Y+1, end-ln.LogStrip.X-3, ln.LogStrip.H-2), Index: fi - 1}
		t := words.SnapBlock(fi - 1)
		size := min(row.Snap.Rect.H*0.62, 11)
		if b.Measure(t, size) > row.Snap.Rect.W-4 {
			t = words.Utoa(fi - 1)
		}
		row.Snap.Text = frame.TextItem{Text: t, X: row.Snap.Rect.X + row.Snap.Rect.W/2, Y: row.Snap.Rect.Y + row.Snap.Rect.H/2, Size: size, Center: true}
	}
	for idx := max(first, nd.FirstIndex()); idx <= top; idx++ {
		e := nd.Entry(idx)
		c := frame.LogCell{Rect: viz.XYWH(lc.x(ln.LogStrip, idx)+1, ln.LogStrip.Y+1, cw-2, ln.LogStrip.H-2),
			Index: idx, Term: e.Term, Color: b.entryColor(e), Committed: idx <= nd.Commit()}
		if cw >= 14 {
			c.Text = b.entryText(e)
		}
		c.Conflict = b.entryConflicts(i, e, leadNode)
		row.Cells = append(row.Cells, c)
	}
	if c := nd.Commit(); c >= first && c <= last {
		row.CommitX = lc.x(ln.LogStrip, c) + cw
	} else if c > last {
		row.CommitX = lc.x(ln.LogStrip, last+1)
	}
	if ap := nd.Applied(); ap >= first && ap <= last {
		row.AppliedX = lc.x(ln.LogStrip, ap) + cw
	}
	if leadNode != nil && i != lead && b.showsProgress() {
		if pr, ok := leadNode.Progress(id); ok {
			if pr.Match >= first && pr.Match <= last {
				row.MatchX = lc.x(ln.LogStrip, pr.Match) + cw
			}
			if pr.Next >= first && pr.Next <= last+1 {
				row.NextX = lc.x(ln.LogStrip, pr.Next)
			}
		}
	}
}

// buildLogHeader writes over the log rows how many entries lie before
// and after the window (maxLast the longest history; entries before low
// are compacted on every machine and not counted) and, where those
// notes leave room, the index numbers over the columns.
func (b *Builder) buildLogHeader(L *frame.LogsView, lc logColumns, maxLast, low uint64) {
	first, last, cw := lc.first, lc.last, lc.cw
	strip := b.lay().Nodes[0].LogStrip
	y := L.Rect.Y - SizeSmall - 3
	every := uint64(5)
	if cw < 18 {
		every = 10
	}
	left, right := strip.X-1e9, strip.Right()+1e9
	bx := b.lay().Nodes[0].LogLabel.X
	if !L.Key.Rect.Empty() {
		bx = L.Key.Rect.Right() + 6
		left = bx - 2
	}
	if first > low {
		L.Before = frame.TextItem{Text: words.Earlier(first - low), X: bx, Y: y, Size: SizeSmall - 1, Tone: frame.ToneAccent}
		left = L.Before.X + b.Measure(L.Before.Text, L.Before.Size) + 6
	}
	if maxLast > last {
		t := words.Newer(maxLast - last)
		L.After = frame.TextItem{Text: t, X: strip.Right() - b.Measure(t, SizeSmall-1), Y: y, Size: SizeSmall - 1, Tone: frame.ToneAccent}
		right = L.After.X - 6
	}
	for idx := first; idx <= min(last, max(maxLast, first)); idx++ {
		if (idx%every != 0 && idx != first) || idx < low {
			// Over columns compacted on every machine stand only the
			// snapshot blocks, which say their own index.
			continue
		}
		t := words.Utoa(idx)
		x := lc.x(strip, idx) + cw/2
		if hw := b.Measure(t, SizeSmall-2) / 2; x-hw < left || x+hw > right {
			continue
		}
		L.Header = append(L.Header, frame.TextItem{Text: t, X: x, Y: y + SizeSmall/2, Size: SizeSmall - 2, Tone: frame.ToneMuted, Center: true})
	}
}

// entryConflicts reports whether machine i's entry differs from what the
// others hold at the same index: under Raft from the leader's entry, under
// the naive protocols from any other machine's.
func (b *Builder) entryConflicts(i int, e raftcore.Entry, lead *raftcore.Node) bool {
	w := b.World()
	if b.cfg().Protocol == raftcore.ProtocolRaft {
		if lead == nil || lead.LastIndex() < e.Index || e.Index < lead.FirstIndex() {
			// Past the leader's log, or compacted into its snapshot,
			// which holds only committed entries.
			return false
		}
		return lead.Entry(e.Index).Chain != e.Chain
	}
	for j := 1; j <= w.Size(); j++ {
		if j-1 == i {
			continue
		}
		o := w.Node(raftcore.NodeID(j))
		if o.LastIndex() >= e.Index && e.Index >= o.FirstIndex() && o.Entry(e.Index).Chain != e.Chain {
			return true
		}
	}
	return false
}

// LogMaxBack is how far back the logs of the parts can scroll: to their
// first entry.
func (b *Builder) LogMaxBack(p Parts) uint64 {
	b.Parts = p
	return b.logMaxBack()
}

// LogWindow is the first index the log rows of the parts show and how
// many entries they hold.
func (b *Builder) LogWindow(p Parts) (first uint64, capacity int) {
	b.Parts = p
	return b.logWindow()
}
