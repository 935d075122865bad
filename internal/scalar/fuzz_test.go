package scalar

import (
	"math"
	"math/big"
	"testing"

	"github.com/warpsim/warpsim/ptx/ptxtype"
)

var fuzzOps = []string{"add", "sub", "mul", "fma", "div", "sqrt"}

// FuzzF32 checks every f32 operation and mode against the big.Float oracle.
func FuzzF32(f *testing.F) {
	f.Add(uint32(0x3f800001), uint32(0x3f7fffff), uint32(0x28000001), uint8(0), uint8(3))
	f.Add(uint32(0x00000001), uint32(0x3f000000), uint32(0x80000001), uint8(2), uint8(2))
	f.Add(uint32(0x7f7fffff), uint32(0x7f7fffff), uint32(0xff7fffff), uint8(1), uint8(0))
	f.Fuzz(func(t *testing.T, a, b, c uint32, mode, op uint8) {
		if !finiteF32(a, b, c) {
			return
		}
		r := allModes[int(mode)%len(allModes)]
		name := fuzzOps[int(op)%len(fuzzOps)]
		want, ok := refF32(name, a, b, c, r)
		if !ok {
			return
		}
		if got := runF32(name, a, b, c, r, false, false); got != want {
			t.Fatalf("%s.%v.f32(%#08x, %#08x, %#08x) = %#08x, want %#08x", name, r, a, b, c, got, want)
		}
	})
}

// FuzzF64 checks every f64 operation and mode against the oracle.
func FuzzF64(f *testing.F) {
	f.Add(uint64(0x000a26748949662d), uint64(0x05d2ca20eadf7e3f), uint64(0xffb2190a86f2b3fd), uint8(1), uint8(3))
	f.Add(uint64(1), uint64(0x3fe0000000000000), uint64(0), uint8(3), uint8(2))
	f.Fuzz(func(t *testing.T, a, b, c uint64, mode, op uint8) {
		if !finiteF64(a, b, c) {
			return
		}
		r := allModes[int(mode)%len(allModes)]
		name := fuzzOps[int(op)%len(fuzzOps)]
		want, ok := refF64(name, a, b, c, r)
		if !ok {
			return
		}
		if got := runF64(name, a, b, c, r); got != want {
			t.Fatalf("%s.%v.f64(%#016x, %#016x, %#016x) = %#016x, want %#016x", name, r, a, b, c, got, want)
		}
	})
}

// FuzzCvtIntToFloat checks u64/s64 → f32/f64 in every mode.
func FuzzCvtIntToFloat(f *testing.F) {
	f.Add(uint64(1<<63|1<<39|1), uint8(0))
	f.Add(uint64(0xffffffffffffffff), uint8(3))
	f.Fuzz(func(t *testing.T, v uint64, mode uint8) {
		r := allModes[int(mode)%len(allModes)]
		for _, src := range []ptxtype.Type{ptxtype.U64, ptxtype.S64} {
			exact := new(big.Float).SetUint64(v)
			if src == ptxtype.S64 {
				exact = new(big.Float).SetInt64(int64(v))
			}
			if exact.Sign() == 0 {
				continue
			}
			for _, d := range []struct {
				t ptxtype.Type
				f tfmt
			}{{ptxtype.F32, oF32}, {ptxtype.F64, oF64}} {
				if got, want := CvtIntToFloat(v, src, d.t, r), oracleExact(exact, d.f, r); got != want {
					t.Fatalf("cvt.%v.%v.%v(%#x) = %#x, want %#x", r, d.t, src, v, got, want)
				}
			}
		}
	})
}

// FuzzCvtF64ToF32 checks the narrowing conversion in every mode.
func FuzzCvtF64ToF32(f *testing.F) {
	f.Add(math.Float64bits(0x1p-150), uint8(0))
	f.Add(math.Float64bits(0x1.fffffffp127), uint8(3))
	f.Fuzz(func(t *testing.T, v uint64, mode uint8) {
		if !finiteF64(v) || v&^signF64 == 0 {
			return
		}
		r := allModes[int(mode)%len(allModes)]
		want := uint32(oracleExact(bf(math.Float64frombits(v)), oF32, r))
		if got := uint32(CvtFloatToFloat(v, ptxtype.F64, ptxtype.F32, r, false, false, false)); got != want {
			t.Fatalf("cvt.%v.f32.f64(%#x) = %#08x, want %#08x", r, v, got, want)
		}
	})
}
