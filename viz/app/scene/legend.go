package scene

import (
	"iter"
	"math"

	"raftlab/raftcore"
	"raftlab/viz"
	"raftlab/viz/frame"
	"raftlab/viz/words"
)

// Widget ids of the key to the marks.
const (
	IDLegend      = "legend"
	IDLegendClose = "legend.close"
)

// legendKey is the control that opens and closes the key, over the log
// rows' name tags.
func (b *Builder) legendKey() frame.Widget {
	size := SizeSmall - 1
	w := frame.Widget{ID: IDLegend, Kind: frame.WidgetButton, Label: words.KeyTitle, On: b.View.Legend(), Enabled: true, Size: size,
		Do: onOff("legend", !b.View.Legend())}
	if len(b.lay().Nodes) == 0 {
		return frame.Widget{}
	}
	// Where machines' words lie all along the header (five members split
	// on a phone), the key keeps its first place, over some words.
	first := true
	for r := range b.keySpots(b.Measure(w.Label, size)+12, size+6) {
		if first {
			w.Rect, first = r, false
		}
		if b.keyClear(r) {
			w.Rect = r
			break
		}
	}
	return w
}

// keySpots are the places the key's button may take, w by h, in order of
// preference: over the log rows' name tags, or, where a machine's words
// come down that far (a small stage in zones), at the other end of the
// rows' header, or anywhere along it in between.
func (b *Builder) keySpots(w, h float64) iter.Seq[viz.Rect] {
	return func(yield func(viz.Rect) bool) {
		x, y, right := b.lay().Nodes[0].LogLabel.X, b.lay().Logs.Y-h-3, b.lay().Logs.Right()-w
		if !yield(viz.XYWH(x, y, w, h)) || !yield(viz.XYWH(right, y, w, h)) {
			return
		}
		for sx := x + 6; sx < right; sx += 6 {
			if !yield(viz.XYWH(sx, y, w, h)) {
				return
			}
		}
	}
}

// keyClear reports whether the key's button at r keeps off every machine,
// the words drawn under it (the frame's machines are built before the
// logs), and the canvas edge.
func (b *Builder) keyClear(r viz.Rect) bool {
	if r.Bottom() > b.Stage.H() || r.Y < 0 {
		return false
	}
	for _, wk := range b.frame.Workers.Boxes {
		if r.Overlaps(wk.Rect) {
			return false
		}
	}
	for _, n := range b.frame.Nodes {
		if r.Overlaps(viz.XYWH(n.Center.X-n.R, n.Center.Y-n.R, 2*n.R, 2*n.R)) {
			return false
		}
		for _, t := range n.Lines {
			if t.Text == "" {
				continue
			}
			// The em box, as Frame.Overflows measures words.
			w, h := b.Measure(t.Text, t.Size), t.Size
			if r.Overlaps(viz.XYWH(t.X-w/2, t.Y-h/2, w, h)) {
				return false
			}
		}
	}
	return true
}

// sampleEntry is the text and colour of an entry on screen that is
// committed (or not), as its cell shows them; ok is false when no machine
// holds one.
func (b *Builder) sampleEntry(committed bool) (text string, color int, ok bool) {
	w := b.World()
	for i := 1; i <= w.Size(); i++ {
		nd := w.Node(raftcore.NodeID(i))
		for idx := nd.LastIndex(); idx >= nd.FirstIndex(); idx-- {
			if (idx <= nd.Commit()) == committed {
				e := nd.Entry(idx)
				return b.entryText(e), b.entryColor(e), true
			}
		}
	}
	return "", 0, false
}

// buildLegend lays the key out over the stage, above the log rows, or
// returns nil when it is closed.
func (b *Builder) buildLegend(key frame.Widget) *frame.LegendView {
	if !b.View.Legend() {
		return nil
	}
	// Wide enough that most lines take one line, so the card is short
	// enough to stand above the log rows.
	width := math.Min(b.Stage.W()-16, 560)
	c := b.newLegendCard(width)
	naive := b.cfg().Protocol != raftcore.ProtocolRaft
	c.addEntryRows(naive)
	c.addMachineRows()
	c.addMessageRows(naive)
	lv := c.lv
	h := c.y - 4 + c.pad
	off := b.legendOrigin(key, width, h)
	lv.Rect = viz.XYWH(off.X, off.Y, width, h)
	moveLegend(lv, off)
	s := SizeTitle + 8
	lv.CloseIcon = viz.XYWH(lv.Rect.Right()-s-4, lv.Rect.Y+4, s, s)
	lv.Close = frame.Widget{ID: IDLegendClose, Kind: frame.WidgetIcon, Icon: "close", Rect: lv.Rect, Enabled: true, Label: words.CloseKey, Do: "legend off"}
	return lv
}

// legendCard is the key being laid out from its own top-left corner: the
// rows so far, where the next one starts, and the sizes of its samples.
type legendCard struct {
	b                     *Builder
	lv                    *frame.LegendView
	lw                    words.Legend
	y, pad, size          float64
	cellW, cellH          float64
	nodeR, msgR           float64
	sampleW, textX, textW float64
}

// newLegendCard starts a key width wide with its title in place.
func (b *Builder) newLegendCard(width float64) *legendCard {
	lw := b.Voice().Legend()
	if b.cfg().Protocol == raftcore.ProtocolRaft && !b.Voice().Plain() && b.showsProgress() {
		lw.Progress = words.ProgressKey
	}
	c := &legendCard{b: b, lv: &frame.LegendView{}, lw: lw, pad: 10, size: SizeSmall,
		cellH: 16, cellW: 20, nodeR: 7, msgR: math.Max(b.lay().MessageRadius, 4)}
	if b.Stage.W() < 500 {
		c.size = SizeSmall - 1
	}
	c.sampleW = 3*c.cellW + 4
	c.textX = c.pad + c.sampleW + 10
	c.textW = width - c.textX - c.pad
	c.y = c.pad
	c.lv.Title = frame.TextItem{Text: words.KeyTitle, X: c.pad, Y: c.y, Size: SizeTitle, Tone: frame.ToneText, Bold: true}
	c.y += LineHeight(SizeTitle) + 4
	return c
}

// row adds a line of the key: a sample sampleH high beside its words,
// the two centred on each other.
func (c *legendCard) row(sampleH float64, text string) *frame.LegendRow {
	wr := c.b.newWriter(c.textX, c.y, c.textW)
	wr.text(text, c.size, frame.ToneText, false)
	h := math.Max(sampleH, wr.height())
	r := frame.LegendRow{Sample: viz.XYWH(c.pad, c.y+(h-sampleH)/2, c.sampleW, sampleH), Lines: wr.lines}
	// Centre the words on the sample when they are shorter.
	if d := (h - wr.height()) / 2; d > 0 {
		for i := range r.Lines {
			r.Lines[i].Y += d
		}
	}
	c.y += h + 4
	c.lv.Rows = append(c.lv.Rows, r)
	return &c.lv.Rows[len(c.lv.Rows)-1]
}

// cells draws a strip of log cells as r's sample, one committed (or not)
// per flag, each like an entry on screen.
func (c *legendCard) cells(r *frame.LegendRow, committed ...bool) *frame.LogRow {
	b, cellW, cellH := c.b, c.cellW, c.cellH
	lr := &frame.LogRow{Strip: viz.XYWH(r.Sample.X, r.Sample.Y, float64(len(committed))*cellW, cellH), CommitX: -1, AppliedX: -1, MatchX: -1, NextX: -1}
	for i, done := range committed {
		text, color, ok := b.sampleEntry(done)
		if !ok {
			text, color, ok = b.sampleEntry(!done)
		}
		if !ok {
			text, color = b.fallbackEntry(done)
		}
		lr.Cells = append(lr.Cells, frame.LogCell{Rect: viz.XYWH(lr.Strip.X+float64(i)*cellW+1, lr.Strip.Y+1, cellW-2, cellH-2), Index: uint64(i + 1), Color: color, Committed: done, Text: text})
	}
	r.Log = lr
	return lr
}

// addEntryRows explains the log cells: filled, hollow, and the commit
// line.
func (c *legendCard) addEntryRows(naive bool) {
	c.cells(c.row(c.cellH, c.lw.Filled), true)
	if c.lw.Hollow != "" {
		c.cells(c.row(c.cellH, c.lw.Hollow), false)
	}
	r := c.row(c.cellH+8, c.lw.Commit)
	r.Sample.Y += 2
	r.Sample.H -= 8
	lr := c.cells(r, true, true, naive)
	if naive {
		lr.CommitX, lr.AppliedX = lr.Strip.Right(), lr.Strip.Right()
	} else {
		lr.CommitX, lr.AppliedX = lr.Strip.X+2*c.cellW, lr.Strip.X+2*c.cellW
	}
	if c.lw.Progress != "" {
		lr := c.cells(c.row(c.cellH+6, c.lw.Progress), true, false)
		lr.MatchX, lr.NextX = lr.Strip.X+c.cellW, lr.Strip.X+c.cellW
	}
}

// addMachineRows explains a machine's timer ring and the highlight a
// figure puts on one.
func (c *legendCard) addMachineRows() {
	ring := 2*c.nodeR + 20
	if c.lw.Timer != "" {
		n := c.machine(c.row(ring, c.lw.Timer))
		n.Timer, n.TimerTone = 0.6, frame.ToneMuted
	}
	if c.b.scen() != nil {
		c.machine(c.row(ring, c.lw.Highlight)).Highlight = true
	}
}

// machine draws a plain machine as r's sample.
func (c *legendCard) machine(r *frame.LegendRow) *frame.NodeView {
	n := frame.NodeView{Center: viz.Pt(r.Sample.X+c.nodeR+12, r.Sample.Y+r.Sample.H/2)}
	n.R, n.Shape, n.Tone, n.Timer = c.nodeR, frame.ShapeCircle, frame.ToneFollower, -1
	r.Nodes = append(r.Nodes, n)
	return &r.Nodes[len(r.Nodes)-1]
}

// addMessageRows explains the dots in flight and the ones lost.
func (c *legendCard) addMessageRows(naive bool) {
	msgR := c.msgR
	r := c.row(2*msgR+4, c.lw.Dots)
	p := viz.Pt(r.Sample.X+msgR+4, r.Sample.Y+r.Sample.H/2)
	if naive && c.b.cfg().Protocol == raftcore.ProtocolNaiveCopy {
		r.Msgs = append(r.Msgs, frame.MsgView{Pos: p, R: msgR, Tone: frame.ToneCopy})
	} else {
		tone := frame.ToneAppend
		r.Msgs = append(r.Msgs, frame.MsgView{Pos: p, R: msgR, Tone: tone},
			frame.MsgView{Pos: p.Add(viz.Pt(3*msgR, 0)), R: msgR, Tone: tone, Hollow: true},
			frame.MsgView{Pos: p.Add(viz.Pt(6*msgR, 0)), R: msgR, Tone: tone, Hollow: true, Reject: true})
	}
	r = c.row(2*msgR+10, c.lw.Lost)
	r.Msgs = append(r.Msgs, frame.MsgView{Pos: viz.Pt(r.Sample.X+msgR+4, r.Sample.Y+msgR), R: msgR, Tone: frame.ToneBad, Fall: 0.35})
}

// legendOrigin is where the key, width by h, stands: above its button if
// there is room, else under the log rows, else in the middle; lined up
// with the log rows' name tags when it fits.
func (b *Builder) legendOrigin(key frame.Widget, width, h float64) viz.Point {
	x := math.Max((b.Stage.W()-width)/2, 8)
	if len(b.lay().Nodes) > 0 {
		x = math.Max(math.Min(b.lay().Nodes[0].LogLabel.X, b.Stage.W()-width-8), 8)
	}
	top := key.Rect.Y - 6 - h
	if below := b.lay().Logs.Bottom() + 6; top < 4 && below+h <= b.Stage.H()-4 {
		top = below
	}
	if key.Rect.Empty() || top < 4 {
		top = math.Max((b.Stage.H()-h)/2, 4)
	}
	return viz.Pt(x, top)
}

// moveLegend moves everything inside the key, laid out from its own
// corner, by off onto the stage.
func moveLegend(lv *frame.LegendView, off viz.Point) {
	lv.Title.X += off.X
	lv.Title.Y += off.Y
	for i := range lv.Rows {
		r := &lv.Rows[i]
		r.Sample = shift(r.Sample, off)
		for j := range r.Lines {
			r.Lines[j].X += off.X
			r.Lines[j].Y += off.Y
		}
		if r.Log != nil {
			r.Log.Strip = shift(r.Log.Strip, off)
			for j := range r.Log.Cells {
				r.Log.Cells[j].Rect = shift(r.Log.Cells[j].Rect, off)
			}
			if r.Log.CommitX >= 0 {
				r.Log.CommitX += off.X
			}
			if r.Log.AppliedX >= 0 {
				r.Log.AppliedX += off.X
			}
		}
		for j := range r.Nodes {
			r.Nodes[j].Center = r.Nodes[j].Center.Add(off)
		}
		for j := range r.Msgs {
			r.Msgs[j].Pos = r.Msgs[j].Pos.Add(off)
		}
	}
}

// fallbackEntry is the text and colour of a made-up entry, for a key
// opened before anything is written.
func (b *Builder) fallbackEntry(committed bool) (string, int) {
	if b.cfg().Protocol == raftcore.ProtocolRaft && !b.Plain() {
		if committed {
			return "1", 1
		}
		return "2", 2
	}
	if committed {
		return "7", 1
	}
	return "8", 2
}

// shift is r moved by off.
func shift(r viz.Rect, off viz.Point) viz.Rect { return viz.XYWH(r.X+off.X, r.Y+off.Y, r.W, r.H) }
