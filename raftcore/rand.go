package raftcore

// Rand is the world's only source of randomness: a small PCG-style generator
// whose whole state is one value, so copying a World copies its future.
// It is written here (rather than using math/rand) so the sequence is fixed by
// this file alone and is identical on every platform and Go version.
type Rand struct {
	state uint64
	inc   uint64
}

// NewRand returns a generator seeded with seed.
func NewRand(seed int64) Rand {
	r := Rand{inc: uint64(seed)<<1 | 1}
	r.next()
	r.state += uint64(seed) ^ 0x9e3779b97f4a7c15
	r.next()
	return r
}

func (r *Rand) next() uint32 {
	old := r.state
	r.state = old*6364136223846793005 + r.inc
	xorshifted := uint32(((old >> 18) ^ old) >> 27)
	rot := uint32(old >> 59)
	return xorshifted>>rot | xorshifted<<((-rot)&31)
}

// Uint64 returns 64 random bits.
func (r *Rand) Uint64() uint64 { return uint64(r.next())<<32 | uint64(r.next()) }

// Intn returns a value in [0, n). n must be positive.
func (r *Rand) Intn(n int) int { return int(r.Int63n(int64(n))) }

// Int63n returns a value in [0, n) for int64 bounds.
func (r *Rand) Int63n(n int64) int64 {
	if n <= 1 {
		return 0
	}
	bound := uint64(n)
	limit := ^uint64(0) - (^uint64(0) % bound)
	for {
		v := r.Uint64()
		if v < limit {
			return int64(v % bound)
		}
	}
}

// Float64 returns a value in [0, 1).
func (r *Rand) Float64() float64 { return float64(r.Uint64()>>11) / (1 << 53) }

// Chance reports true with probability p.
func (r *Rand) Chance(p float64) bool {
	if p <= 0 {
		return false
	}
	if p >= 1 {
		return true
	}
	return r.Float64() < p
}
