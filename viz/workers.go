package viz

import "math"

// Worker is where one worker machine is drawn: a box in the layout's
// WorkerBand, apart from the cluster's discs, since a worker is a
// Kubernetes node and no Raft machine (it has no role, term or log).
type Worker struct {
	// Index is the machine's index, counted as the nodes are: the
	// first worker's is the node count.
	Index int
	Rect  Rect
}

// Sizes of the worker band.
const (
	// WorkerLabelH is the strip for the band's label and for the
	// cluster's, at WorkerLabelSize.
	WorkerLabelH    = 16.0
	WorkerLabelSize = 11.0
	// WorkerNameSize and WorkerLineSize are the text sizes inside a
	// worker's box: its name, then two lines (its condition, its
	// kubelet).
	WorkerNameSize = 11.0
	WorkerLineSize = 9.5
	workerBoxH     = 3*WorkerNameSize*CaptionLineHeight + 6
	// workerLineBoxH is a compact box's height: one line.
	workerLineBoxH = WorkerNameSize*CaptionLineHeight + 5
	workerBoxMinW  = 62.0
	workerBoxMaxW  = 120.0
	workerGap      = 5.0
	// keyRoom is the room the log rows' key button takes over them,
	// kept between the worker band and the rows under it.
	keyRoom = 20.0
)

// workerGrid is how many columns and rows k worker boxes take in a band
// w wide.
func workerGrid(w float64, k int) (cols, rows int) {
	cols = clampInt(int((w+workerGap)/(workerBoxMinW+workerGap)), 1, k)
	rows = (k + cols - 1) / cols
	// Rows as even as can be: ten workers in two rows of five, not six
	// and four.
	cols = (k + rows - 1) / rows
	return cols, rows
}

// cutWorkerBand takes the worker band off the bottom of the cluster, gap
// apart from it and below clear under it, and the control plane's label
// strip off its top, when there are workers.
func (l *Layout) cutWorkerBand(gap, below float64) {
	l.WorkerBand, l.ControlLabel = Rect{}, Rect{}
	if l.workers == 0 {
		return
	}
	_, l.Cluster = l.Cluster.cutBottom(math.Min(below, l.Cluster.H*0.1), 0)
	_, rows := workerGrid(l.Cluster.W, l.workers)
	h := WorkerLabelH + float64(rows)*l.workerBoxH() + float64(rows-1)*workerGap
	// At most a share of the cluster: the members come first. A box too
	// short for its lines says less (see the scene's workerView).
	h = math.Min(h, l.Cluster.H*0.45)
	l.WorkerBand, l.Cluster = l.Cluster.cutBottom(h, gap)
	l.ControlLabel, l.Cluster = l.Cluster.cutTop(math.Min(WorkerLabelH, l.Cluster.H*0.1), 0)
}

// layoutWorkers places the worker boxes in rows in the band, under its
// label, and the links from every node's disc to every worker's box.
func (l *Layout) layoutWorkers() {
	l.Workers, l.WorkerLinks = nil, nil
	k := l.workers
	if k == 0 {
		return
	}
	n := len(l.Nodes)
	_, body := l.WorkerBand.cutTop(WorkerLabelH, 0)
	cols, rows := workerGrid(body.W, k)
	boxH := math.Min(l.workerBoxH(), math.Max((body.H-float64(rows-1)*workerGap)/float64(rows), 0))
	boxW := math.Min(workerBoxMaxW, math.Max((body.W-float64(cols-1)*workerGap)/float64(cols), 0))
	for w := 0; w < k; w++ {
		row, col := w/cols, w%cols
		inRow := min(cols, k-row*cols)
		rowW := float64(inRow)*boxW + float64(inRow-1)*workerGap
		x := body.X + (body.W-rowW)/2 + float64(col)*(boxW+workerGap)
		y := body.Y + float64(row)*(boxH+workerGap)
		l.Workers = append(l.Workers, Worker{Index: n + w, Rect: Rect{x, y, boxW, boxH}})
	}
	r := l.NodeRadius
	off := clamp(r*0.16, 0, 6) * 0.6
	l.WorkerLinks = make([]Link, 0, k*n)
	for _, wk := range l.Workers {
		end := Point{wk.Rect.Center().X, wk.Rect.Y}
		for i := 0; i < n; i++ {
			c := l.Nodes[i].Center
			d := end.Sub(c).Unit()
			a := c.Add(d.Mul(r))
			side := d.Perp().Mul(off)
			l.WorkerLinks = append(l.WorkerLinks, Link{
				LinkID: LinkID{i, wk.Index},
				Seg:    Segment{a, end},
				Lanes:  [2]Segment{{a.Add(side), end.Add(side)}, {end.Sub(side), a.Sub(side)}},
			})
		}
	}
}

// workerBoxH is the height of a worker's box: three lines, or one in a
// compact band.
func (l *Layout) workerBoxH() float64 {
	if l.compactWorkers {
		return workerLineBoxH
	}
	return workerBoxH
}

// workerLink is the link between node a and worker b, in either order.
func (l *Layout) workerLink(a, b int) (Link, bool) {
	if a > b {
		a, b = b, a
	}
	n := len(l.Nodes)
	if a < 0 || a >= n || b < n || b >= n+len(l.Workers) {
		return Link{}, false
	}
	return l.WorkerLinks[(b-n)*n+a], true
}

// WorkerAt is the machine index of the worker whose box holds p, or -1.
func (l *Layout) WorkerAt(p Point) int {
	for _, w := range l.Workers {
		if w.Rect.Contains(p) {
			return w.Index
		}
	}
	return -1
}
