//go:build amd64 && !race && !purego

package engine

// The fast forms' lane loops and the setp kernels in AVX2 (alu_amd64.s,
// written by gen_amd64.py): four 64-bit lanes a 256-bit register. Each
// computes exactly what its Go form in fastRun or arith.go computes
// (TestALUKernels); lanes_amd64.go says when they run.

//go:noescape
func aluAdd32AVX2(o, a, b *[32]uint64)

//go:noescape
func aluAdd32ImmAVX2(o, a *[32]uint64, b uint64)

//go:noescape
func aluAdd64AVX2(o, a, b *[32]uint64)

//go:noescape
func aluAdd64ImmAVX2(o, a *[32]uint64, b uint64)

//go:noescape
func aluSub32AVX2(o, a, b *[32]uint64)

//go:noescape
func aluSub32ImmAVX2(o, a *[32]uint64, b uint64)

//go:noescape
func aluSub64AVX2(o, a, b *[32]uint64)

//go:noescape
func aluSub64ImmAVX2(o, a *[32]uint64, b uint64)

//go:noescape
func aluMulLo32AVX2(o, a, b *[32]uint64)

//go:noescape
func aluMulLo32ImmAVX2(o, a *[32]uint64, b uint64)

//go:noescape
func aluMulWideU32AVX2(o, a, b *[32]uint64)

//go:noescape
func aluMulWideU32ImmAVX2(o, a *[32]uint64, b uint64)

//go:noescape
func aluMulWideS32AVX2(o, a, b *[32]uint64)

//go:noescape
func aluMulWideS32ImmAVX2(o, a *[32]uint64, b uint64)

//go:noescape
func aluShl32AVX2(o, a, b *[32]uint64)

//go:noescape
func aluShl32ImmAVX2(o, a *[32]uint64, b uint64)

//go:noescape
func aluShrU32AVX2(o, a, b *[32]uint64)

//go:noescape
func aluShrU32ImmAVX2(o, a *[32]uint64, b uint64)

//go:noescape
func aluAnd32AVX2(o, a, b *[32]uint64)

//go:noescape
func aluAnd32ImmAVX2(o, a *[32]uint64, b uint64)

//go:noescape
func aluOr32AVX2(o, a, b *[32]uint64)

//go:noescape
func aluOr32ImmAVX2(o, a *[32]uint64, b uint64)

//go:noescape
func aluXor32AVX2(o, a, b *[32]uint64)

//go:noescape
func aluXor32ImmAVX2(o, a *[32]uint64, b uint64)

//go:noescape
func aluMadLo32AVX2(o, a, b, c *[32]uint64)

// setpImmAVX2 sets d[l] to the sign of ((a[l]'s low word, zero- or, with
// signed, sign-extended) ^ f) + k, and returns those signs as a mask.
//
//go:noescape
func setpImmAVX2(a, d *[32]uint64, f, k uint64, signed bool) uint32

// setpRegAVX2 sets d[l] to the sign of X ^ inv, X being the low words'
// difference (mode 0 unsigned, 1 signed) or, for mode 2, their xor minus
// one, and returns those signs as a mask.
//
//go:noescape
func setpRegAVX2(a, b, d *[32]uint64, mode int, inv uint64) uint32
