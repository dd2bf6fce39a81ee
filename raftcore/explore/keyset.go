package explore

// keySet is a set of 64-bit state keys: open addressing with linear
// probing, eight bytes a key, where a Go map would take several times that
// and millions of states are kept. The key 0 is stored apart, as an empty
// slot holds 0.
type keySet struct {
	slots   []uint64
	n       int
	hasZero bool
}

func newKeySet() *keySet { return &keySet{slots: make([]uint64, 1<<16)} }

// add inserts k and reports whether it was new.
func (s *keySet) add(k uint64) bool {
	if k == 0 {
		was := s.hasZero
		s.hasZero = true
		return !was
	}
	if 2*(s.n+1) > len(s.slots) {
		s.grow()
	}
	mask := uint64(len(s.slots) - 1)
	for i := k & mask; ; i = (i + 1) & mask {
		switch s.slots[i] {
		case k:
			return false
		case 0:
			s.slots[i] = k
			s.n++
			return true
		}
	}
}

func (s *keySet) grow() {
	old := s.slots
	s.slots = make([]uint64, 2*len(old))
	mask := uint64(len(s.slots) - 1)
	for _, k := range old {
		if k == 0 {
			continue
		}
		i := k & mask
		for s.slots[i] != 0 {
			i = (i + 1) & mask
		}
		s.slots[i] = k
	}
}
