package scene

import (
	"math"
	"slices"

	"raftlab/raftcore"
	"raftlab/viz"
	"raftlab/viz/app/command"
	"raftlab/viz/frame"
	"raftlab/viz/words"
)

// buildWorkers draws Kubernetes' worker machines in their band under the
// cluster: each a box with its name, its condition as the node lifecycle
// controller holds it and its kubelet's state, and the links from every
// member to it. A world without workers has none of it.
func (b *Builder) buildWorkers() {
	wv := &b.frame.Workers
	wv.Boxes, wv.Links = wv.Boxes[:0], wv.Links[:0]
	wv.Band, wv.Label, wv.Control = viz.Rect{}, frame.TextItem{}, frame.TextItem{}
	lay := b.lay()
	w := b.World()
	sum, ok := w.Kube()
	if !ok || len(lay.Workers) == 0 {
		return
	}
	wv.Band = lay.WorkerBand
	top := lay.WorkerBand
	top.H = min(top.H, viz.WorkerLabelH)
	wv.Label = b.stripLabel(top, words.WorkersBand, words.WorkersBandShort)
	wv.Control = b.stripLabel(lay.ControlLabel, words.ControlPlane, words.ControlPlaneShort)
	for k, box := range lay.Workers {
		if k >= len(sum.Nodes) {
			break
		}
		wv.Boxes = append(wv.Boxes, b.workerView(box, sum.Nodes[k]))
	}
	var crossed []viz.LinkID
	if b.Rec.Active() {
		crossed = b.Rec.Crossed()
	}
	for _, lk := range lay.WorkerLinks {
		v, _, _ := b.linkView(lk)
		v.Hot = slices.Contains(crossed, lk.LinkID)
		wv.Links = append(wv.Links, v)
	}
}

// stripLabel is a label at the left of a strip, in its long form where it
// fits, else its short one, else none.
func (b *Builder) stripLabel(strip viz.Rect, long, short string) frame.TextItem {
	if strip.H < viz.WorkerLabelSize {
		return frame.TextItem{}
	}
	text := long
	if b.Measure(text, viz.WorkerLabelSize) > strip.W-4 {
		text = short
	}
	if b.Measure(text, viz.WorkerLabelSize) > strip.W-4 {
		return frame.TextItem{}
	}
	return frame.TextItem{Text: text, X: strip.X + 2 + b.Measure(text, viz.WorkerLabelSize)/2, Y: strip.Y + strip.H/2, Size: viz.WorkerLabelSize, Tone: frame.ToneMuted, Bold: true, Center: true}
}

// workerView is one worker's box: its name, then its condition and its
// kubelet's state, each line shortened or left out where the box is too
// narrow for it.
func (b *Builder) workerView(box viz.Worker, n raftcore.KubeNode) frame.WorkerView {
	st := b.World().Status(nodeID(box.Index))
	r := box.Rect
	v := frame.WorkerView{Index: box.Index, Rect: r, Tone: frame.ToneGood,
		Crashed: st == raftcore.StatusCrashed, Paused: st == raftcore.StatusPaused}
	cond := words.NodeReady
	if n.NotReady {
		cond, v.Tone = words.NodeNotReady, frame.ToneBad
	}
	room := r.W - 6
	lineH := viz.WorkerNameSize * viz.CaptionLineHeight
	// A short box (ten workers on a phone) has two lines: the name and
	// the condition, with the kubelet's state after it where it is not
	// up (the box's colour shows it too).
	rows := min(max(int((r.H-2)/lineH), 1), 3)
	top := r.Y + math.Max((r.H-float64(rows)*lineH)/2, 0)
	name := n.Name
	nameSize := b.fitSize(name, viz.WorkerNameSize, room)
	if b.Measure(name, nameSize) > room {
		name = ""
	}
	v.Name = frame.TextItem{Text: name, X: r.Center().X, Y: top + lineH/2, Size: nameSize, Tone: frame.ToneText, Bold: true, Center: true}
	long, short := words.KubeletLine(n.Status)
	lines := [2]string{cond, long}
	if b.Measure(long, viz.WorkerLineSize) > room {
		lines[1] = short
	}
	if rows < 3 {
		if both := cond + " · " + short; st != raftcore.StatusUp && b.Measure(both, viz.WorkerLineSize) <= room {
			lines[0] = both
		}
		lines[1] = ""
	}
	tones := [2]frame.Tone{v.Tone, frame.ToneMuted}
	if st != raftcore.StatusUp {
		tones[1] = frame.ToneWarn
	}
	if rows == 1 {
		b.workerOneLine(&v, n.Name, cond, r.Center().Y)
		return v
	}
	for k, text := range lines {
		y := top + lineH*(float64(k)+1.5)
		if b.Measure(text, viz.WorkerLineSize) > room || y+lineH/2 > r.Bottom()+1 {
			text = ""
		}
		v.Lines[k] = frame.TextItem{Text: text, X: r.Center().X, Y: y, Size: viz.WorkerLineSize, Tone: tones[k], Center: true}
	}
	return v
}

// workerOneLine writes a worker's name and condition on one line, for a
// box with room for no more: the name by its number, as a disc too
// narrow for "etcd-3" shows "3", then the condition, shrunk to fit.
func (b *Builder) workerOneLine(v *frame.WorkerView, name, cond string, y float64) {
	r := v.Rect
	room := r.W - 6
	name = b.discName(name, viz.WorkerNameSize, 0)
	const gap = 4
	nw := b.Measure(name, viz.WorkerNameSize)
	size := b.fitSize(cond, viz.WorkerLineSize, room-nw-gap)
	cw := b.Measure(cond, size)
	if nw+gap+cw > room {
		cond, cw = "", 0
	}
	x := r.Center().X - (nw+gap+cw)/2
	v.Name = frame.TextItem{Text: name, X: x + nw/2, Y: y, Size: viz.WorkerNameSize, Tone: frame.ToneText, Bold: true, Center: true}
	v.Lines[0] = frame.TextItem{Text: cond, X: x + nw + gap + cw/2, Y: y, Size: size, Tone: v.Tone, Center: true}
	v.Lines[1] = frame.TextItem{}
}

// leasesSection writes the node Leases panel: what its gauges measure,
// then per worker a line with its name and a gauge of how long the node
// lifecycle controller has gone, on its own clock, without seeing its
// Lease renewed, which runs full when the grace period is out (marked ✓
// while the controller holds the node Ready, ✗ once NotReady), and under
// it the condition, the kubelet and its Pods; then whether the controller
// can read at all, its zone state and the checks' counts. Its short form,
// for a figure with little room, keeps only the workers' gauge lines and
// says under them, in short, what the gauges measure.
func (b *Builder) leasesSection(wr *writer) {
	w := b.World()
	sum, ok := w.Kube()
	if !ok {
		return
	}
	graceUs := int64(b.cfg().Kube.GraceMs) * 1000
	if !wr.compact {
		wr.text(words.LeasesKey(graceUs, false), SizeSmall, frame.ToneMuted, false)
		wr.gap(2)
	}
	size := SizeBody - 1
	in := b.Measure("✓ ", size) + 2
	nameW := 0.0
	for _, n := range sum.Nodes {
		nameW = max(nameW, b.Measure(n.Name, size))
	}
	for _, n := range sum.Nodes {
		cond, mark, tone := words.NodeReady, "✓", frame.ToneGood
		if n.NotReady {
			cond, mark, tone = words.NodeNotReady, "✗", frame.ToneBad
		}
		age, seen := w.KubeLeaseAge(n.ID)
		said := words.LeaseAge(age, graceUs, seen, wr.compact)
		sayW := b.Measure(said, SizeSmall)
		lh := LineHeight(size)
		wr.paras = append(wr.paras, len(wr.lines))
		wr.lines = append(wr.lines,
			frame.TextItem{Text: mark, X: wr.x, Y: wr.y, Size: size, Tone: tone, Bold: true},
			frame.TextItem{Text: n.Name, X: wr.x + in, Y: wr.y, Size: size, Tone: frame.ToneText},
			frame.TextItem{Text: said, X: wr.x + wr.w - sayW, Y: wr.y + (size-SizeSmall)/2, Size: SizeSmall, Tone: frame.ToneMuted})
		g := frame.Gauge{Tone: frame.ToneGood}
		if seen {
			g.Fill = float64(age) / float64(graceUs)
			switch {
			case age > graceUs:
				g.Tone = frame.ToneBad
			case 2*age > graceUs:
				g.Tone = frame.ToneWarn
			}
		}
		x := wr.x + in + nameW + 8
		g.Rect = viz.XYWH(x, wr.y+lh/2-4, max(wr.x+wr.w-sayW-8-x, 0), 8)
		wr.gauges = append(wr.gauges, g)
		wr.y += lh
		if !wr.compact {
			kubelet, _ := words.KubeletLine(n.Status)
			wr.indent(words.LeaseState(cond, kubelet, n.Pods), SizeSmall, frame.ToneMuted, false, in)
			wr.gap(3)
		}
	}
	wr.gap(2)
	if wr.compact {
		// Where room is short the gauges come first, and what they
		// measure under them.
		wr.text(words.LeasesKey(graceUs, true), SizeSmall, frame.ToneMuted, false)
	}
	if w.KubeBlind() {
		wr.text(words.ControllerBlind, size, frame.ToneWarn, false)
	}
	c := sum.Counts
	tone := frame.ToneMuted
	if c.SpuriousNotReady+c.SlowNotReady+c.PodTwice > 0 {
		tone = frame.ToneBad
	}
	wr.text(words.LeaseZone(sum.Zone)+" · "+words.LeaseCounts(c.SpuriousNotReady, c.SlowNotReady, c.PodTwice), SizeSmall, tone, false)
}

// workerBox is the box of worker machine i, if i is one drawn.
func (b *Builder) workerBox(i int) (viz.Worker, bool) {
	for _, wk := range b.lay().Workers {
		if wk.Index == i {
			return wk, true
		}
	}
	return viz.Worker{}, false
}

// workerMenu writes a worker machine's menu: its condition and kubelet,
// then crash or restart, pause or resume, how long it takes per message
// and its clock's rate, each a recorded action. It returns the menu's title.
func (b *Builder) workerMenu(wr *writer, box viz.Worker, labelW float64) string {
	w := b.World()
	id := nodeID(box.Index)
	st := w.Status(id)
	if sum, ok := w.Kube(); ok && box.Index-w.Size() < len(sum.Nodes) {
		n := sum.Nodes[box.Index-w.Size()]
		long, _ := words.KubeletLine(n.Status)
		wr.text(words.LeaseLine(words.NodeCondition(n.NotReady), long, n.LastRenewedMs, n.Pods), SizeSmall, frame.ToneMuted, false)
		wr.gap(2)
	}
	m := command.Machine(box.Index)
	verb := func(v raftcore.Verb, label string) frame.Widget {
		return button("node."+string(v), label, string(v)+" "+m)
	}
	wr.row(words.RowRun, labelW, runButtons(st, verb)...)
	b.speedAndClockRows(wr, box.Index, labelW)
	return words.Worker(b.cfg().WorkerName(id))
}
