//go:build !amd64 || race || purego

package engine

import "github.com/warpsim/warpsim/internal/ir"

// Without the AVX2 lane kernels (lanes_amd64.go): the Go forms.

func laneSteps(r *[32]uint64, n uint64) (cons, uniform bool) { return laneStepsGo(r, n) }
func fill32(d *[32]uint64, v uint64)                         { fill32Go(d, v) }
func widen32(d *[32]uint64, s *[32]uint32)                   { widen32Go(d, s) }
func narrow32(s *[32]uint32, v *[32]uint64)                  { narrow32Go(s, v) }
func loadWords32(d *[32]uint64, s *[32]uint32)               { loadWords32Go(d, s) }
func loadWords64(d *[32]uint64, s *[32]uint64)               { loadWords64Go(d, s) }

// hasAVX2 is false: the AVX2 kernels below are never called.
const hasAVX2 = false

func (wp *warp) fastAVX2(in *ir.Inst, o, a *[32]uint64) bool { return false }

func setpImmAVX2(a, d *[32]uint64, f, k uint64, signed bool) uint32 { panic("no AVX2 kernels") }
func setpRegAVX2(a, b, d *[32]uint64, mode int, inv uint64) uint32  { panic("no AVX2 kernels") }
