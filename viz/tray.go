package viz

import "math"

// The tray: a strip along the bottom of the cluster where the spare
// machines, which run but are not in the cluster's configuration, wait
// apart from the members on the ring. A spare dragged out of the tray
// onto the cluster is added; a member dragged into it is removed.

// trayTitleH is the height of the tray's title line, above its discs.
const trayTitleH = 18.0

// layoutWithTray puts the members (spare[i] false) on a ring in the upper
// part of the cluster and the spares in a row in the tray below it, every
// disc of one radius: the largest (up to rMax) at which the ring fits and
// the spares have room side by side. Without spares it is layoutRing.
func (l *Layout) layoutWithTray(n int, spare []bool, rMax float64, sz sizer) placement {
	var members, spares []int
	for i := 0; i < n; i++ {
		if i < len(spare) && spare[i] {
			spares = append(spares, i)
		} else {
			members = append(members, i)
		}
	}
	if len(spares) == 0 || len(members) == 0 {
		return l.layoutRing(n, rMax, sz)
	}
	full := l.Cluster
	var best *Layout
	var bestFit placement
	for r := rMax; r >= minNodeR-1e-9; r -= 2 * rStep {
		z := sz.at(r)
		trayH := trayTitleH + 2*r + captionGap + 2*z.capLine + ringOut
		if trayH > full.H*0.45 {
			continue
		}
		tray, ring := full.cutBottom(trayH, ringOut)
		try := *l
		try.Nodes = append([]Node(nil), l.Nodes...)
		sub := try
		sub.Cluster = ring
		sub.Nodes = make([]Node, len(members))
		pl := sub.layoutRing(len(members), r, sz)
		try.Cluster, try.Tray, try.Ring = full, tray, sub.Ring
		try.NodeRadius, try.LabelSize, try.CaptionSize = sub.NodeRadius, sub.LabelSize, sub.CaptionSize
		for k, i := range members {
			try.Nodes[i].Center, try.Nodes[i].Caption, try.Nodes[i].Label = sub.Nodes[k].Center, sub.Nodes[k].Caption, sub.Nodes[k].Label
		}
		if !try.placeSpares(spares, sz.at(sub.NodeRadius)) && pl.fit > fitDiscs {
			pl.fit = fitDiscs
		}
		if best == nil || pl.better(bestFit) {
			best, bestFit = &try, pl
		}
		if bestFit.fit == fitCaption {
			break
		}
	}
	if best == nil {
		return l.layoutRing(n, rMax, sz)
	}
	*l = *best
	return bestFit
}

// placeSpares puts the spares in a row across the tray, under its title;
// it reports whether their discs and a line of words under each fit.
func (l *Layout) placeSpares(spares []int, z sizes) bool {
	k := float64(len(spares))
	step := l.Tray.W / k
	y := l.Tray.Y + trayTitleH + z.r + ringOut/2
	capW := math.Min(step-textMargin, captionMax)
	for j, i := range spares {
		c := Point{X: l.Tray.X + (float64(j)+0.5)*step, Y: y}
		l.Nodes[i].Spare = true
		l.Nodes[i].Center = c
		l.Nodes[i].Caption = Rect{c.X - capW/2, c.Y + z.r + captionGap, capW, 2 * z.capLine}
		l.Nodes[i].Label = Rect{c.X, c.Y, 0, 0}
		if z.labelW > 0 {
			l.Nodes[i].Label = Rect{c.X - z.labelW/2, c.Y - z.label/2, z.labelW, z.label}
		}
	}
	return step >= 2*z.r+nodeGap && capW >= z.capW
}

// TrayDrop says what dropping node i with its centre at p asks of the
// tray: +1 to add a spare (dropped on the cluster, out of the tray), -1
// to remove a member (dropped in the tray), 0 for nothing.
func (l *Layout) TrayDrop(i int, p Point) int {
	if l.Tray.Empty() || i < 0 || i >= len(l.Nodes) {
		return 0
	}
	switch in := l.Tray.Contains(p); {
	case l.Nodes[i].Spare && !in && l.Cluster.Contains(p):
		return 1
	case !l.Nodes[i].Spare && in:
		return -1
	}
	return 0
}

// NodeAt is the node other than i whose disc p lies on, or -1.
func (l *Layout) NodeAt(p Point, i int) int {
	for j := range l.Nodes {
		if j != i && p.Dist(l.Nodes[j].Center) <= l.NodeRadius {
			return j
		}
	}
	return -1
}
