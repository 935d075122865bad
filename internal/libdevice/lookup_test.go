package libdevice

import (
	"math"
	"testing"

	"github.com/warpsim/warpsim/ptx/ptxtype"
)

func TestLookup(t *testing.T) {
	cases := []struct {
		name string
		args []ptxtype.Type
		ret  ptxtype.Type
		outs []ptxtype.Type
	}{
		{"__nv_sinf", []ptxtype.Type{ptxtype.F32}, ptxtype.F32, nil},
		{"__nv_pow", []ptxtype.Type{ptxtype.F64, ptxtype.F64}, ptxtype.F64, nil},
		{"__nv_frexpf", []ptxtype.Type{ptxtype.F32}, ptxtype.F32, []ptxtype.Type{ptxtype.S32}},
		{"__nv_sincos", []ptxtype.Type{ptxtype.F64}, ptxtype.TypeNone, []ptxtype.Type{ptxtype.F64, ptxtype.F64}},
		{"__nv_popcll", []ptxtype.Type{ptxtype.U64}, ptxtype.S32, nil},
		{"__nv_ldexp", []ptxtype.Type{ptxtype.F64, ptxtype.S32}, ptxtype.F64, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f, ok := Lookup(c.name)
			if !ok {
				t.Fatal("not found")
			}
			if f.Name != c.name || f.Ret != c.ret || !equalTypes(f.Args, c.args) || !equalTypes(f.Outs, c.outs) {
				t.Errorf("got %s(%v) %v outs %v", f.Name, f.Args, f.Ret, f.Outs)
			}
			if f.Impl == nil || len(f.Outs) > 0 && f.ImplOut == nil {
				t.Error("missing implementation")
			}
		})
	}
	for _, name := range []string{"__nv_nosuch", "sinf", ""} {
		if _, ok := Lookup(name); ok {
			t.Errorf("Lookup(%q) found something", name)
		}
	}
}

func equalTypes(a, b []ptxtype.Type) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestLookupFTZ checks that the flush-to-zero table differs where libdevice's
// does (subnormal f32 inputs) and falls back to the default elsewhere.
func TestLookupFTZ(t *testing.T) {
	const tiny = 0x00000400 // a subnormal f32
	plain, _ := Lookup("__nv_fmaf_rn")
	flush, _ := LookupFTZ("__nv_fmaf_rn")
	one := uint64(math.Float32bits(1))
	if got := plain.Impl([]uint64{tiny, one, 0}); got != tiny {
		t.Errorf("fmaf_rn(tiny, 1, 0) = %#x, want %#x", got, tiny)
	}
	if got := flush.Impl([]uint64{tiny, one, 0}); got != 0 {
		t.Errorf("ftz fmaf_rn(tiny, 1, 0) = %#x, want 0", got)
	}
	d, _ := Lookup("__nv_sin")
	df, ok := LookupFTZ("__nv_sin")
	if !ok || d != df {
		t.Error("LookupFTZ(__nv_sin) does not fall back to the default table")
	}
	if len(Names()) < 300 {
		t.Errorf("only %d functions", len(Names()))
	}
}

// TestSFUTables checks facts about the recorded SFU tables that do not need
// the GPU recordings: exact results where the hardware is exact.
func TestSFUTables(t *testing.T) {
	for _, c := range []struct {
		name      string
		got, want uint32
	}{
		{"rcp(1)", rcpApproxFtz(0x3f800000), 0x3f800000},
		{"rcp(2)", rcpApproxFtz(0x40000000), 0x3f000000},
		{"rcp(-0)", rcpApproxFtz(0x80000000), 0xff800000},
		{"rcp(subnormal)", rcpApproxFtz(0x00000001), 0x7f800000},
		{"rsqrt(4)", rsqrtApproxFtz(0x40800000), 0x3f000000},
		{"rsqrt(-1)", rsqrtApproxFtz(0xbf800000), nanF32},
		{"ex2(0)", ex2ApproxFtz(0), 0x3f800000},
		{"ex2(3)", ex2ApproxFtz(0x40400000), 0x41000000},
		{"ex2(-1)", ex2ApproxFtz(0xbf800000), 0x3f000000},
		{"ex2(-inf)", ex2ApproxFtz(0xff800000), 0},
		{"ex2(200)", ex2ApproxFtz(0x43480000), 0x7f800000},
	} {
		if c.got != c.want {
			t.Errorf("%s = %#x, want %#x", c.name, c.got, c.want)
		}
	}
}

func BenchmarkSinf(b *testing.B) {
	f, _ := Lookup("__nv_sinf")
	args := []uint64{uint64(math.Float32bits(1.25))}
	for b.Loop() {
		f.Impl(args)
	}
}

func BenchmarkExp(b *testing.B) {
	f, _ := Lookup("__nv_exp")
	args := []uint64{math.Float64bits(1.25)}
	for b.Loop() {
		f.Impl(args)
	}
}

// TestHighBitsIgnored checks that 32-bit arguments are read from the low
// half only, whatever the engine leaves in the high half.
func TestHighBitsIgnored(t *testing.T) {
	const junk = 0xdeadbeef00000000
	for _, name := range []string{"__nv_sinf", "__nv_expf", "__nv_float_as_int", "__nv_popc", "__nv_fmaf"} {
		f, _ := Lookup(name)
		clean := make([]uint64, len(f.Args))
		dirty := make([]uint64, len(f.Args))
		for i := range clean {
			clean[i] = uint64(math.Float32bits(0.75))
			dirty[i] = clean[i] | junk
		}
		if a, b := f.Impl(clean)&0xffffffff, f.Impl(dirty)&0xffffffff; a != b {
			t.Errorf("%s: %#x with clean arguments, %#x with high bits set", name, a, b)
		}
	}
}
