package scene

import (
	"math"

	"raftlab/viz"
	"raftlab/viz/app/view"
	"raftlab/viz/frame"
	"raftlab/viz/words"
)

// hoverKey is what the mouse hovers over in the frame built so far (all
// but its hover text), or nothing while no mouse hovers or a press, a
// gesture or the help is under way.
func (b *Builder) hoverKey() view.HoverTarget {
	p, ok := b.View.Hover()
	if !ok || b.Rec.Active() || b.Pressing || b.View.Help() {
		return view.HoverTarget{}
	}
	b.scratch.dots = Dots(&b.frame, b.scratch.dots[:0])
	return HoverAt(&b.frame, b.lay(), p, b.scratch.dots)
}

func (b *Builder) buildTooltip() *frame.TooltipView {
	t := b.hoverKey()
	if t.Kind == "" || t == b.View.Quiet() {
		return nil
	}
	hp, _ := b.View.Hover()
	w := b.World()
	var lines []string
	switch t.Kind {
	case "widget":
		for _, wd := range b.frame.Toolbar {
			if wd.ID == t.Widget && wd.Kind == frame.WidgetIcon {
				lines = append(lines, wd.Label)
			}
		}
	case "mark":
		if marks := b.Session.Marks(); t.A < len(b.frame.Timeline.Marks) {
			if k := b.frame.Timeline.Marks[t.A].Source; k < len(marks) {
				lines = append(lines, b.Voice().MarkText(marks[k]))
			}
		}
	case "entry":
		nd := w.Node(nodeID(t.A))
		if t.ID < nd.FirstIndex() || t.ID > nd.LastIndex() {
			return nil
		}
		e := nd.Entry(t.ID)
		lines = b.Voice().EntryTip(e, e.Index <= nd.Commit())
	case "snap":
		nd := w.Node(nodeID(t.A))
		s, ok := nd.SnapshotAt()
		if !ok || nd.FirstIndex() <= 1 {
			return nil
		}
		lines = b.Voice().SnapTip(s, nd.FirstIndex()-1)
	case "node":
		id := nodeID(t.A)
		nd := w.Node(id)
		lines = b.Voice().MachineTip(b.cfg().Name(id), nd.Role(), w.Status(id), nd.LastIndex(), nd.Commit(), nd.Applied())
	case "worker":
		if sum, ok := w.Kube(); ok && t.A-w.Size() < len(sum.Nodes) {
			n := sum.Nodes[t.A-w.Size()]
			lines = words.WorkerTip(n.Name, words.NodeCondition(n.NotReady), n.Status, n.LastRenewedMs, n.Pods)
		}
	case "link":
		ni, nj := b.cfg().Name(nodeID(t.A)), b.cfg().Name(nodeID(t.B))
		lines = words.LinkTip(ni, nj, w.Link(nodeID(t.A), nodeID(t.B)).Up, w.Link(nodeID(t.B), nodeID(t.A)).Up)
	case "msg":
		for _, m := range w.InFlight() {
			if m.ID == t.ID {
				lines = b.Voice().MessageTip(&m)
			}
		}
	}
	if len(lines) == 0 {
		return nil
	}
	maxW := math.Min(320, b.Stage.W()-16)
	pad := 6.0
	var items []frame.TextItem
	width := 0.0
	y := pad
	for _, l := range lines {
		for _, s := range b.wrap(l, SizeSmall, maxW-2*pad) {
			items = append(items, frame.TextItem{Text: s, X: pad, Y: y, Size: SizeSmall, Tone: frame.ToneText})
			width = math.Max(width, b.Measure(s, SizeSmall))
			y += LineHeight(SizeSmall)
		}
	}
	bw, bh := width+2*pad, y+pad-2
	x := hp.X + 14
	if x+bw > b.Stage.W()-4 {
		x = hp.X - 14 - bw
	}
	ty := hp.Y + 18
	if ty+bh > b.Stage.H()-4 {
		ty = hp.Y - 10 - bh
	}
	x, ty = math.Max(x, 4), math.Max(ty, 4)
	for k := range items {
		items[k].X += x
		items[k].Y += ty
	}
	return &frame.TooltipView{Rect: viz.XYWH(x, ty, bw, bh), Lines: items}
}
