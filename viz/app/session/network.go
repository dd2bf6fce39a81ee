package session

import "raftlab/raftcore"

// Sides are the sides of the network when it is cleanly
// split: within a side every link is up both ways and between sides every
// link is down both ways. Sides hold layout indexes and come in the order
// of their first machine. Anything else (one-way cuts, single links)
// gives nil.
func (s *Session) Sides() [][]int {
	w := s.World()
	n := w.Size()
	// The side of each machine; a small array serves the figures' sizes
	// without allocating, since a frame asks this of a whole network.
	var small [16]int
	side := small[:0]
	if n > len(small) {
		side = make([]int, 0, n)
	}
	for range n {
		side = append(side, -1)
	}
	count := 0
	for i := 0; i < n; i++ {
		if side[i] >= 0 {
			continue
		}
		side[i] = count
		for j := i + 1; j < n; j++ {
			if side[j] < 0 && w.Link(raftcore.NodeID(i+1), raftcore.NodeID(j+1)).Up && w.Link(raftcore.NodeID(j+1), raftcore.NodeID(i+1)).Up {
				side[j] = count
			}
		}
		count++
	}
	if count < 2 {
		return nil
	}
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if i != j && w.Link(raftcore.NodeID(i+1), raftcore.NodeID(j+1)).Up != (side[i] == side[j]) {
				return nil
			}
		}
	}
	groups := make([][]int, count)
	for i, g := range side {
		groups[g] = append(groups[g], i)
	}
	return groups
}

// Isolated reports whether machine i hears nobody and nobody hears it.
func (s *Session) Isolated(i int) bool {
	w := s.World()
	if w.Size() < 2 {
		return false
	}
	for x := 0; x < w.Size(); x++ {
		if x != i && (w.Link(raftcore.NodeID(i+1), raftcore.NodeID(x+1)).Up || w.Link(raftcore.NodeID(x+1), raftcore.NodeID(i+1)).Up) {
			return false
		}
	}
	return true
}
