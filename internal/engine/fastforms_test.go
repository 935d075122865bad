package engine

import (
	"math"
	"math/rand"
	"testing"

	"github.com/warpsim/warpsim/internal/ir"
	"github.com/warpsim/warpsim/internal/scalar"
	"github.com/warpsim/warpsim/ptx"
)

// TestFmaRnF32Inline: the inlined fma.rn.f32 gives scalar.FmaRnF32's bits
// on random operands, on operands with short mantissas (whose sums land
// exactly halfway between two f32 values, the case that needs round to
// odd), near f32's subnormal range, and on specials.
func TestFmaRnF32Inline(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	short := func() uint32 { // a few significant bits, exponent near 1
		return uint32(rng.Intn(2))<<31 | uint32(120+rng.Intn(16))<<23 | uint32(rng.Intn(1<<6))<<17
	}
	specials := []uint32{0, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0x7fa00000, 1, 0x807fffff, 0x00800000, 0x7f7fffff, 0x3f800000}
	halfway := 0
	check := func(a, b, c uint32) {
		t.Helper()
		if got, want := fmaRnF32(a, b, c), scalar.FmaRnF32(a, b, c); got != want {
			t.Fatalf("fma(%#x, %#x, %#x) = %#x, want %#x", a, b, c, got, want)
		}
		s := float64(math.Float32frombits(a))*float64(math.Float32frombits(b)) + float64(math.Float32frombits(c))
		if math.Float64bits(s)&(1<<29-1) == 1<<28 {
			halfway++
		}
	}
	for i := 0; i < 200000; i++ {
		check(rng.Uint32(), rng.Uint32(), rng.Uint32())
		check(short(), short(), short()|uint32(rng.Intn(1<<17)))
		// Small products: results around and below 2^-126.
		check(uint32(rng.Intn(2))<<31|uint32(40+rng.Intn(30))<<23|uint32(rng.Intn(1<<23)),
			uint32(rng.Intn(2))<<31|uint32(40+rng.Intn(30))<<23|uint32(rng.Intn(1<<23)), uint32(rng.Intn(1<<24)))
	}
	for _, a := range specials {
		for _, b := range specials {
			for _, c := range specials {
				check(a, b, c)
			}
		}
	}
	if halfway < 100 {
		t.Errorf("only %d sums fell halfway between two f32 values: the test misses the round-to-odd case", halfway)
	}
}

// TestSetpFastForm: setp on 32-bit integers runs as ir.FastSetp32 and
// agrees with the general comparison for every comparison and sign.
func TestSetpFastForm(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	vals := []uint64{0, 1, 2, 0x7fffffff, 0x80000000, 0xffffffff, 0xfffffffe, 1 << 40}
	for i := 0; i < 24; i++ {
		vals = append(vals, uint64(rng.Uint32()))
	}
	for _, t2 := range []ptx.Type{ptx.S32, ptx.U32, ptx.B32} {
		for _, cmp := range []uint8{ir.CmpEq, ir.CmpNe, ir.CmpLt, ir.CmpLe, ir.CmpGt, ir.CmpGe, ir.CmpLo, ir.CmpLs, ir.CmpHi, ir.CmpHs} {
			in := ir.Inst{Op: ir.OpSetp, Type: ptx.Pred, Type2: t2, Cmp: cmp}
			var a, b, d [32]uint64
			for k := 0; k < len(vals)*len(vals); k += 32 {
				for l := range a {
					a[l], b[l] = vals[(k+l)/len(vals)%len(vals)], vals[(k+l)%len(vals)]
				}
				if !setpFull32(in.Cmp, t2 == ptx.S32, &a, &b, &d) {
					t.Fatalf("%v cmp %d: not handled", t2, cmp)
				}
				for l := range d {
					if want := b2u(compare(cmp, t2, a[l]&0xffffffff, b[l]&0xffffffff)); d[l] != want {
						t.Fatalf("setp %d.%v %#x, %#x = %d, want %d", cmp, t2, a[l], b[l], d[l], want)
					}
				}
			}
		}
	}
}
