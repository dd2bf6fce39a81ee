package scene

import (
	"math"

	"raftlab/raftcore"
	"raftlab/viz"
	"raftlab/viz/frame"
	"raftlab/viz/words"
)

// buildOverlays builds the menu, help, banner and hover text.
func (b *Builder) buildOverlays() {
	f := &b.frame
	f.Caption = nil
	switch {
	case b.Figure():
		b.buildFigure()
	case b.Params.Embed:
		f.Caption = b.buildCaption()
	}
	f.Menu = b.buildMenu(b.View.Menu())
	f.Legend = b.buildLegend(f.Logs.Key)
	f.Help = nil
	if b.View.Help() {
		f.Help = b.buildHelp()
	}
	f.Banner = nil
	if !b.Params.Embed {
		f.Banner = b.buildBanner()
	}
	f.Tooltip = b.buildTooltip()
	f.Stroke = f.Stroke[:0]
	if b.Rec.Active() {
		f.Stroke = append(f.Stroke, b.Rec.Stroke()...)
	}
}

func (b *Builder) buildHelp() *frame.HelpView {
	// One column if it fits, else two side by side, else smaller text.
	for _, try := range []struct {
		cols int
		size float64
	}{{1, SizeBody}, {2, SizeBody}, {2, SizeSmall}, {2, SizeSmall - 2}} {
		if hv := b.layoutHelp(try.cols, try.size); hv != nil {
			return hv
		}
	}
	return b.layoutHelpForce()
}

// layoutHelp lays the help out in cols columns at text size size, or
// returns nil when it does not fit the canvas.
func (b *Builder) layoutHelp(cols int, size float64) *frame.HelpView {
	hv := b.helpAt(cols, size)
	if hv.Rect.H > b.Stage.H()-8 || hv.Rect.W > b.Stage.W()-8 {
		return nil
	}
	return hv
}

// layoutHelpForce is the smallest help, whatever its height.
func (b *Builder) layoutHelpForce() *frame.HelpView { return b.helpAt(2, SizeSmall-2) }

func (b *Builder) helpAt(cols int, size float64) *frame.HelpView {
	pad := 14.0
	colW := math.Min(480, (b.Stage.W()-8-2*pad-24*float64(cols-1))/float64(cols))
	top := pad + LineHeight(SizeTitle) + 6
	keys := b.newWriter(pad, top, colW)
	keyW := b.Measure(words.WidestKey, size) + 14
	for _, kb := range viz.KeyBindings() {
		keys.lines = append(keys.lines, frame.TextItem{Text: kb.Label, X: keys.x, Y: keys.y, Size: size, Tone: frame.ToneAccent, Bold: true})
		keys.indent(b.keyDesc(kb.Cmd), size, frame.ToneText, false, keyW)
	}
	more := keys
	if cols == 2 {
		more = b.newWriter(pad+colW+24, top, colW)
	} else {
		more.gap(8)
	}
	for _, t := range b.Voice().Gestures() {
		more.item("•", frame.ToneAccent, t, size, frame.ToneText)
	}
	more.gap(4)
	more.text(b.Voice().CloseHelp(), SizeSmall, frame.ToneMuted, false)
	bw := pad*2 + colW
	h := keys.y + pad
	lines := keys.lines
	if cols == 2 {
		bw += colW + 24
		h = math.Max(h, more.y+pad)
		lines = append(lines, more.lines...)
	}
	x := (b.Stage.W() - bw) / 2
	y := math.Max((b.Stage.H()-h)/2, 4)
	hv := &frame.HelpView{Rect: viz.XYWH(x, y, bw, h)}
	hv.Title = frame.TextItem{Text: words.HelpTitle, X: x + pad, Y: y + pad, Size: SizeTitle, Tone: frame.ToneText, Bold: true}
	for _, l := range lines {
		l.X += x
		l.Y += y
		hv.Lines = append(hv.Lines, l)
	}
	return hv
}

func (b *Builder) buildBanner() *frame.BannerView {
	if b.View.Banner().Text == "" {
		return nil
	}
	// A short note takes the toolbar's free stretch (in place of the
	// status line), where it hides nothing.
	if slot := b.noteSlot; slot.W > 200 {
		size := SizeSmall + 1
		lines := b.wrap(b.Voice().Banner(b.View.Banner().Text), size, slot.W-40)
		if lh := LineHeight(size); len(lines) <= 2 && float64(len(lines))*lh <= slot.H {
			bv := &frame.BannerView{Rect: slot, Tone: b.View.Banner().Tone, InToolbar: true}
			y := slot.Y + (slot.H-float64(len(lines))*lh)/2
			for i, l := range lines {
				bv.Lines = append(bv.Lines, frame.TextItem{Text: l, X: slot.X + 10, Y: y + float64(i)*lh, Size: size, Tone: frame.ToneText})
			}
			bv.Close = closeBanner(viz.XYWH(slot.Right()-26, slot.Y+(slot.H-22)/2, 22, 22))
			b.frame.Status = frame.TextItem{}
			return bv
		}
	}
	pad := 8.0
	close := 22.0
	phone := b.Stage.Sheet() && len(b.lay().Tabs) > 0
	r, wr, cost := b.clusterSpot(pad, close, !phone)
	if phone {
		// On a phone the cluster has no room to spare: the note covers
		// the top of the panels instead.
		r = viz.XYWH(r.X, b.lay().Tabs[0].Rect.Y, r.W, r.H)
	}
	if phone || cost > 0 {
		if lr, lw, ok := b.emptyLogsSpot(pad, close); ok {
			// While every log is empty (the first election), their strips
			// hide nothing but the empty rows, and the rows' names stay in
			// sight.
			r, wr = lr, lw
		}
	}
	bv := &frame.BannerView{Rect: r, Tone: b.View.Banner().Tone}
	for _, l := range wr.lines {
		l.X += r.X
		l.Y += r.Y
		bv.Lines = append(bv.Lines, l)
	}
	bv.Close = closeBanner(viz.XYWH(r.Right()-close-4, r.Y+4, close, close))
	return bv
}

// clusterSpot lays the banner out where it hides least of the machines
// and their words: across the top or the bottom of the cluster, or, with
// corners, a narrower note in one of its corners. cost is how much it
// hides (quietestCost); the wider note wins a tie.
func (b *Builder) clusterSpot(pad, close float64, corners bool) (viz.Rect, *writer, float64) {
	c := b.lay().Cluster
	var best viz.Rect
	var bestW *writer
	bestCost := math.Inf(1)
	widths := []float64{math.Min(c.W-16, 560)}
	if corners {
		widths = append(widths, math.Min(c.W*0.4, 360))
	}
	for _, bw := range widths {
		if bw < 120 {
			bw = math.Min(b.Stage.W()-16, 560)
		}
		wr := b.newWriter(pad, pad, bw-2*pad-close)
		wr.text(b.Voice().Banner(b.View.Banner().Text), SizeBody, frame.ToneText, false)
		h := wr.y + pad - 2
		mid := math.Max(c.X+(c.W-bw)/2, 4)
		left, right := c.X+4, math.Max(c.Right()-bw-4, 4)
		top, bottom := c.Y+4, c.Bottom()-h-4
		tries := []viz.Rect{viz.XYWH(mid, top, bw, h), viz.XYWH(mid, bottom, bw, h)}
		if corners && bw < c.W-16 {
			tries = append(tries, viz.XYWH(left, top, bw, h), viz.XYWH(right, top, bw, h),
				viz.XYWH(left, bottom, bw, h), viz.XYWH(right, bottom, bw, h))
		}
		r, cost := b.quietestCost(tries...)
		if cost < bestCost-1 {
			best, bestW, bestCost = r, wr, cost
		}
	}
	return best, bestW, bestCost
}

// emptyLogsSpot is the banner laid out over the log rows, when every log is
// still empty and the note fits there (down to the tabs on a phone, to the
// timeline elsewhere).
func (b *Builder) emptyLogsSpot(pad, close float64) (viz.Rect, *writer, bool) {
	lg := b.lay().Logs
	w := b.World()
	for id := raftcore.NodeID(1); int(id) <= w.Size(); id++ {
		if w.Node(id).LastIndex() > 0 {
			return viz.Rect{}, nil, false
		}
	}
	if lg.W < 160 {
		return viz.Rect{}, nil, false
	}
	bottom := b.lay().Timeline.Y
	if b.Stage.Sheet() && len(b.lay().Tabs) > 0 {
		bottom = b.lay().Tabs[0].Rect.Y
	}
	if bottom <= 0 {
		bottom = b.Stage.H()
	}
	// Beside the rows' names, which stay in sight, if the note fits
	// there; over the whole rows if not (a phone).
	xs := []float64{lg.X}
	if ns := b.lay().Nodes; len(ns) > 0 && !ns[0].LogStrip.Empty() {
		xs = []float64{ns[0].LogStrip.X, lg.X}
	}
	for _, x := range xs {
		bw := math.Min(lg.Right()-x, 560)
		for _, size := range []float64{SizeBody, SizeSmall + 1, SizeSmall} {
			wr := b.newWriter(pad, pad/2, bw-2*pad-close)
			wr.text(b.Voice().Banner(b.View.Banner().Text), size, frame.ToneText, false)
			if h := wr.y + pad/2; lg.Y+h <= bottom-2 {
				return viz.XYWH(x, lg.Y, bw, h), wr, true
			}
		}
	}
	return viz.Rect{}, nil, false
}

// quietestCost is the place among tries that hides least of the machines,
// their words and the zones' labels, the first of equals, with how much it
// hides (0: nothing).
func (b *Builder) quietestCost(tries ...viz.Rect) (viz.Rect, float64) {
	best, bestCost := tries[0], math.Inf(1)
	for _, try := range tries {
		cost := 0.0
		for _, n := range b.lay().Nodes {
			R := b.lay().NodeRadius
			// The disc, its badges above and its two lines below.
			around := viz.XYWH(n.Center.X-R-30, n.Center.Y-R-22, 2*R+60, 2*R+58)
			cost += overlapArea(try, around)
		}
		for _, z := range b.lay().Zones {
			cost += overlapArea(try, z.Label)
		}
		if cost < bestCost-1 {
			best, bestCost = try, cost
		}
	}
	return best, bestCost
}

func overlapArea(a, b viz.Rect) float64 {
	w := math.Min(a.Right(), b.Right()) - math.Max(a.X, b.X)
	h := math.Min(a.Bottom(), b.Bottom()) - math.Max(a.Y, b.Y)
	if w <= 0 || h <= 0 {
		return 0
	}
	return w * h
}

// closeBanner is the banner's close button at r.
func closeBanner(r viz.Rect) frame.Widget {
	return frame.Widget{ID: IDBannerClose, Kind: frame.WidgetIcon, Icon: "close", Rect: r, Enabled: true, Label: words.Dismiss, Do: "close-note"}
}
