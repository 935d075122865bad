//go:build amd64 && !race && !purego

package engine

import "golang.org/x/sys/cpu"

// The whole-warp lane kernels with AVX2 (lanes_amd64.s): four lanes in
// one 256-bit register, where the Go forms (lanes.go, laneStepsGo) take an
// instruction or more per lane for each load, operation and store. They
// compute exactly what the Go forms compute (TestLaneKernels). Without
// AVX2, and under the race detector (which does not see accesses made in
// assembly) or the purego tag, the Go forms run (lanes_other.go).

// hasAVX2 is whether the lane kernels may use AVX2.
var hasAVX2 = cpu.X86.HasAVX2

//go:noescape
func laneStepsAVX2(r *[32]uint64, n uint64) (cons, uniform bool)

//go:noescape
func fill32AVX2(d *[32]uint64, v uint64)

//go:noescape
func widen32AVX2(d *[32]uint64, s *[32]uint32)

//go:noescape
func narrow32AVX2(s *[32]uint32, v *[32]uint64)

//go:noescape
func copy32AVX2(d, s *[32]uint64)

// laneSteps reports whether the 32 lanes of r step by n (consecutive: lane
// l holds r[0] + l*n, modulo 2^64) or all hold r[0] (uniform), in one pass.
func laneSteps(r *[32]uint64, n uint64) (cons, uniform bool) {
	if hasAVX2 {
		return laneStepsAVX2(r, n)
	}
	return laneStepsGo(r, n)
}

// fill32 sets every lane of d to v.
func fill32(d *[32]uint64, v uint64) {
	if hasAVX2 {
		fill32AVX2(d, v)
		return
	}
	fill32Go(d, v)
}

// widen32 sets lane l of d to word l of s, zero-extended.
func widen32(d *[32]uint64, s *[32]uint32) {
	if hasAVX2 {
		widen32AVX2(d, s)
		return
	}
	widen32Go(d, s)
}

// narrow32 sets word l of s to the low 32 bits of lane l of v.
func narrow32(s *[32]uint32, v *[32]uint64) {
	if hasAVX2 {
		narrow32AVX2(s, v)
		return
	}
	narrow32Go(s, v)
}

// loadWords32 is widen32 reading global memory, which other workers'
// blocks may update with atomics at the same moment: each aligned word is
// read whole (a vector load of aligned words reads each word at once, as
// a plain move does, on the CPUs that have AVX2).
func loadWords32(d *[32]uint64, s *[32]uint32) {
	if hasAVX2 {
		widen32AVX2(d, s)
		return
	}
	loadWords32Go(d, s)
}

// loadWords64 sets lane l of d to doubleword l of s, each read whole.
func loadWords64(d *[32]uint64, s *[32]uint64) {
	if hasAVX2 {
		copy32AVX2(d, s)
		return
	}
	loadWords64Go(d, s)
}
