package engine

import "sync/atomic"

// The whole-warp moves of the memory paths and the broadcasts of special
// registers and parameters, four lanes a step as the fast forms run their
// lanes: the lane loops of one lane a step spent about as much on the loop
// as on the move.

// fill32Go sets every lane of d to v.
func fill32Go(d *[32]uint64, v uint64) {
	for l := 0; l < 32; l += 4 {
		d[l], d[l+1], d[l+2], d[l+3] = v, v, v, v
	}
}

// widen32Go sets lane l of d to word l of s, zero-extended.
func widen32Go(d *[32]uint64, s *[32]uint32) {
	for l := 0; l < 32; l += 4 {
		d[l], d[l+1], d[l+2], d[l+3] = uint64(s[l]), uint64(s[l+1]), uint64(s[l+2]), uint64(s[l+3])
	}
}

// narrow32Go sets word l of s to the low 32 bits of lane l of v.
func narrow32Go(s *[32]uint32, v *[32]uint64) {
	for l := 0; l < 32; l += 4 {
		s[l], s[l+1], s[l+2], s[l+3] = uint32(v[l]), uint32(v[l+1]), uint32(v[l+2]), uint32(v[l+3])
	}
}

// loadWords32Go is widen32 reading s atomically (global memory, which other
// workers' blocks may write).
func loadWords32Go(d *[32]uint64, s *[32]uint32) {
	for l := 0; l < 32; l += 4 {
		d[l] = uint64(atomic.LoadUint32(&s[l]))
		d[l+1] = uint64(atomic.LoadUint32(&s[l+1]))
		d[l+2] = uint64(atomic.LoadUint32(&s[l+2]))
		d[l+3] = uint64(atomic.LoadUint32(&s[l+3]))
	}
}

// loadWords64Go sets lane l of d to doubleword l of s, read atomically.
func loadWords64Go(d *[32]uint64, s *[32]uint64) {
	for l := 0; l < 32; l += 4 {
		d[l] = atomic.LoadUint64(&s[l])
		d[l+1] = atomic.LoadUint64(&s[l+1])
		d[l+2] = atomic.LoadUint64(&s[l+2])
		d[l+3] = atomic.LoadUint64(&s[l+3])
	}
}
