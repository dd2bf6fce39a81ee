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
	side := make([]int, n)
	for i := range side {
		side[i] = -1
	}
	var groups [][]int
	for i := 0; i < n; i++ {
		if side[i] >= 0 {
			continue
		}
		g := len(groups)
		side[i] = g
		members := []int{i}
		for j := i + 1; j < n; j++ {
			if side[j] < 0 && w.Link(raftcore.NodeID(i+1), raftcore.NodeID(j+1)).Up && w.Link(raftcore.NodeID(j+1), raftcore.NodeID(i+1)).Up {
				side[j] = g
				members = append(members, j)
			}
		}
		groups = append(groups, members)
	}
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if i != j && w.Link(raftcore.NodeID(i+1), raftcore.NodeID(j+1)).Up != (side[i] == side[j]) {
				return nil
			}
		}
	}
	if len(groups) < 2 {
		return nil
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
