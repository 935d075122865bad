package engine

import (
	"math"

	"github.com/warpsim/warpsim/internal/scalar"
)

//go:generate go run gen_kernels.go

// The fast forms' lanes (ir.Fast): what one lane of each computes, on the
// 64-bit registers, results of 32-bit forms zero-extended. fastgo.go runs
// them four lanes a step; the AVX2 kernels (alu_amd64.s) compute the same
// four lanes a register (TestALUKernels). Both are written by
// gen_kernels.go from the table of internal/kernelgen, which names these.

func laneAdd32(a, b uint64) uint64      { return uint64(uint32(a) + uint32(b)) }
func laneAdd64(a, b uint64) uint64      { return a + b }
func laneSub32(a, b uint64) uint64      { return uint64(uint32(a) - uint32(b)) }
func laneSub64(a, b uint64) uint64      { return a - b }
func laneMulLo32(a, b uint64) uint64    { return uint64(uint32(a) * uint32(b)) }
func laneMulWideU32(a, b uint64) uint64 { return uint64(uint32(a)) * uint64(uint32(b)) }
func laneMulWideS32(a, b uint64) uint64 { return uint64(int64(int32(a)) * int64(int32(b))) }
func laneShl32(a, b uint64) uint64      { return uint64(scalar.Shl32(uint32(a), uint32(b))) }
func laneShrU32(a, b uint64) uint64     { return uint64(scalar.ShrU32(uint32(a), uint32(b))) }
func laneAnd32(a, b uint64) uint64      { return (a & b) & 0xffffffff }
func laneOr32(a, b uint64) uint64       { return (a | b) & 0xffffffff }
func laneXor32(a, b uint64) uint64      { return (a ^ b) & 0xffffffff }

func laneMadLo32(a, b, c uint64) uint64 { return uint64(uint32(a)*uint32(b) + uint32(c)) }

// addF32 and mulF32 are add.f32 and mul.f32 rounding to nearest, NaN
// results canonical.
func addF32(a, b uint64) uint64 { return uint64(scalar.AddRnF32(uint32(a), uint32(b))) }

func mulF32(a, b uint64) uint64 { return uint64(scalar.MulRnF32(uint32(a), uint32(b))) }

// The setp forms' lanes (setpKernels in kernelgen; arith.go's setpMask32
// and setpMask32Imm say which computes which comparison): each predicate
// is the sign of one 64-bit value, 1 or 0.

func predEq32(a, b, inv uint64) uint64  { return (uint64(uint32(a)^uint32(b))-1)>>63 ^ inv }
func predLtU32(a, b, inv uint64) uint64 { return (uint64(uint32(a))-uint64(uint32(b)))>>63 ^ inv }
func predLtS32(a, b, inv uint64) uint64 { return uint64(int64(int32(a))-int64(int32(b)))>>63 ^ inv }

func predEq32Imm(a uint64, c uint32) uint64 { return (uint64(uint32(a)^c) - 1) >> 63 }
func predNe32Imm(a uint64, c uint32) uint64 { return -uint64(uint32(a)^c) >> 63 }

func predSignU32(a, k uint64) uint64     { return (uint64(uint32(a)) + k) >> 63 }
func predSignU32Flip(a, k uint64) uint64 { return (^uint64(uint32(a)) + k) >> 63 }
func predSignS32(a, k uint64) uint64     { return (uint64(int64(int32(a))) + k) >> 63 }
func predSignS32Flip(a, k uint64) uint64 { return (^uint64(int64(int32(a))) + k) >> 63 }

// fmaRnF32Lanes is the fast form of fma.rn.f32 (ir.FastFmaF32), o = a*b + c
// in each lane.
func fmaRnF32Lanes(o, a, b, c *[32]uint64) {
	// fma.rn.f32 (scalar.FmaRnF32) with its common case inline: the
	// exact product plus c, rounded once to float64, rounds to the
	// same f32 as the exact sum unless that float64 lies exactly
	// halfway between two f32 values (its low 29 mantissa bits are
	// 1<<28), below f32's normal range (where the discarded bits
	// differ, though an exact zero is right) or is not finite; only
	// those take scalar.FmaRnF32's round to odd (and canonical NaNs).
	for l := range o {
		s := float64(math.Float32frombits(uint32(a[l])))*float64(math.Float32frombits(uint32(b[l]))) + float64(math.Float32frombits(uint32(c[l])))
		sb := math.Float64bits(s)
		if e := (sb >> 52) & 0x7ff; sb&(1<<29-1) != 1<<28 && e >= 1023-126 && e != 0x7ff || sb<<1 == 0 {
			o[l] = uint64(math.Float32bits(float32(s)))
		} else {
			o[l] = uint64(scalar.FmaRnF32(uint32(a[l]), uint32(b[l]), uint32(c[l])))
		}
	}
}
