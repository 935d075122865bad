//go:build !amd64 || race || purego

package engine

// Without the AVX2 lane kernels (lanes_amd64.go): the Go forms.

func laneSteps(r *[32]uint64, n uint64) (cons, uniform bool) { return laneStepsGo(r, n) }
func fill32(d *[32]uint64, v uint64)                         { fill32Go(d, v) }
func widen32(d *[32]uint64, s *[32]uint32)                   { widen32Go(d, s) }
func narrow32(s *[32]uint32, v *[32]uint64)                  { narrow32Go(s, v) }
func loadWords32(d *[32]uint64, s *[32]uint32)               { loadWords32Go(d, s) }
func loadWords64(d *[32]uint64, s *[32]uint64)               { loadWords64Go(d, s) }
