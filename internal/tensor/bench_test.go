package tensor

import "testing"

// The tensor arithmetic the timing package's wmma and wgmma
// microbenchmarks spend most of their time in (TestLongWmmaPipeMicrobenchmarks,
// TestLongWgmmaMicrobenchmarks): one warp's wmma.mma m16n16k16 f32.f32, and
// one warp's share of wgmma m64n256k16 f32.f16.f16 and m64n256k32
// s32.s8.s8, on operands of mixed signs and exponents.

func benchBits(seed uint64) uint64 {
	seed ^= seed << 13
	seed ^= seed >> 7
	seed ^= seed << 17
	return seed
}

func BenchmarkWMMAExecF16(b *testing.B) {
	w, err := NewWMMA("m16n16k16", []Elem{F32, F32}, false)
	if err != nil {
		b.Fatal(err)
	}
	var a, bb, c, d [32][8]uint64
	s := uint64(88172645463325252)
	for l := range 32 {
		for r := range 8 {
			s = benchBits(s)
			a[l][r] = s & 0x3bff3bff // f16 pairs of magnitude < 1
			s = benchBits(s)
			bb[l][r] = s & 0xbbffbbff
			s = benchBits(s)
			c[l][r] = s & 0xbf7fffff
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		w.Exec(&a, &bb, &c, &d)
	}
}

func BenchmarkWGMMAExecF16(b *testing.B) {
	g, err := NewWGMMA("m64n256k16", F32, F16, F16, false)
	if err != nil {
		b.Fatal(err)
	}
	var d [32][128]uint64
	at := func(m, k int) uint64 { return benchBits(uint64(m*977+k*131+1)) & 0xbbff }
	bt := func(k, n int) uint64 { return benchBits(uint64(k*313+n*7+5)) & 0x3bff }
	b.ReportAllocs()
	for b.Loop() {
		g.Exec(1, &d, true, false, false, at, bt)
	}
}

func BenchmarkWGMMAExecS8(b *testing.B) {
	g, err := NewWGMMAInt("m64n256k32", S32, S8, S8, false, false, "")
	if err != nil {
		b.Fatal(err)
	}
	var d [32][128]uint64
	at := func(m, k int) uint64 { return benchBits(uint64(m*977+k*131+1)) & 0xff }
	bt := func(k, n int) uint64 { return benchBits(uint64(k*313+n*7+5)) & 0xff }
	b.ReportAllocs()
	for b.Loop() {
		g.Exec(1, &d, true, false, false, at, bt)
	}
}

// BenchmarkWGMMAExecF16Zero is BenchmarkWGMMAExecF16 on zero operands: the
// timing package's wgmma microbenchmarks multiply shared memory they never
// wrote.
func BenchmarkWGMMAExecF16Zero(b *testing.B) {
	g, err := NewWGMMA("m64n256k16", F32, F16, F16, false)
	if err != nil {
		b.Fatal(err)
	}
	var d [32][128]uint64
	at := func(m, k int) uint64 { return 0 }
	bt := func(k, n int) uint64 { return 0 }
	b.ReportAllocs()
	for b.Loop() {
		g.Exec(1, &d, true, false, false, at, bt)
	}
}
