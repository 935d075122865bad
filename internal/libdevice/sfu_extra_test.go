package libdevice

import (
	"compress/gzip"
	"encoding/binary"
	"io"
	"os"
	"testing"
)

// TestSFUExtraRecorded checks hand-picked H100 results from the conformance
// recording (testdata/conformance/approx): specials, and cases where the
// hardware differs from the correctly rounded result (sqrt(1.5) is
// 0x3f9cc471 rounded, 2.5/1.5 is 0x3fd55555, tanh(1) in f16 is 0x3a18).
func TestSFUExtraRecorded(t *testing.T) {
	f32 := []struct {
		name string
		fn   func(a, b uint32) uint32
		a, b uint32
		want uint32
	}{
		{"sqrt", sq(SqrtApproxF32), 0x3fc00000, 0, 0x3f9cc470},
		{"sqrt", sq(SqrtApproxF32), 0x40600000, 0, 0x3fef7750},
		{"sqrt", sq(SqrtApproxF32), 0x00000001, 0, 0x1a3504f3}, // subnormal: scaled by 2^24
		{"sqrt", sq(SqrtApproxF32), 0x007fffff, 0, 0x1fffffff},
		{"sqrt", sq(SqrtApproxF32), 0x80000001, 0, 0x7fffffff},
		{"sqrt", sq(SqrtApproxF32), 0x80000000, 0, 0x80000000},
		{"sqrt", sq(SqrtApproxF32), 0xff800000, 0, 0x7fffffff},
		{"sqrt", sq(SqrtApproxF32), 0x7f800000, 0, 0x7f800000},
		{"sqrt", sq(SqrtApproxF32), 0x7f800001, 0, 0x7fffffff},
		{"sqrt", sq(SqrtApproxF32), 0x58f9096e, 0, 0x4c328a5f},
		{"sqrt.ftz", sq(SqrtApproxFtzF32), 0x3fc00000, 0, 0x3f9cc470},
		{"sqrt.ftz", sq(SqrtApproxFtzF32), 0x00000001, 0, 0x00000000},
		{"sqrt.ftz", sq(SqrtApproxFtzF32), 0x807fffff, 0, 0x80000000},
		{"sqrt.ftz", sq(SqrtApproxFtzF32), 0x42b41e93, 0, 0x4117d6f5},
		{"div.full", DivFullF32, 0x40200000, 0x3fc00000, 0x3fd55556},
		{"div.full", DivFullF32, 0xc0200000, 0x3fc00000, 0xbfd55556},
		{"div.full", DivFullF32, 0x501502f9, 0x3fc00000, 0x4fc6aea2},
		{"div.full", DivFullF32, 0x58f9096e, 0xbff96da2, 0xd87f9929},
		{"div.full", DivFullF32, 0x00000001, 0x00000001, 0x3f800000}, // both scaled by 2^24
		{"div.full", DivFullF32, 0x007fffff, 0x00000001, 0x4afffffe},
		{"div.full", DivFullF32, 0x00000001, 0x7f7fffff, 0x00000000}, // both scaled by 1/4
		{"div.full", DivFullF32, 0x00000000, 0x00000000, 0x7fffffff},
		{"div.full", DivFullF32, 0x7f800000, 0x00000000, 0x7f800000},
		{"div.full", DivFullF32, 0x3fc00000, 0x7f800000, 0x00000000},
		{"div.full.ftz", DivFullFtzF32, 0x40200000, 0x3fc00000, 0x3fd55556},
		{"div.full.ftz", DivFullFtzF32, 0x00000001, 0x00000001, 0x7fffffff},
		{"div.full.ftz", DivFullFtzF32, 0x80000001, 0x00000000, 0x7fffffff},
		{"div.full.ftz", DivFullFtzF32, 0x42b41e93, 0x42bd8927, 0x3f73481c},
	}
	for _, c := range f32 {
		if got := c.fn(c.a, c.b); got != c.want {
			t.Errorf("%s(%#08x, %#08x) = %#08x, H100 %#08x", c.name, c.a, c.b, got, c.want)
		}
	}
	f16 := []struct {
		name string
		fn   func(uint16) uint16
		a    uint16
		want uint16
	}{
		{"tanh.f16", TanhApproxF16, 0x3c00, 0x3a17},
		{"tanh.f16", TanhApproxF16, 0xbc00, 0xba17},
		{"tanh.f16", TanhApproxF16, 0x3800, 0x3764},
		{"tanh.f16", TanhApproxF16, 0x3e00, 0x3b3d},
		{"tanh.f16", TanhApproxF16, 0x3802, 0x3767},
		{"tanh.f16", TanhApproxF16, 0x0001, 0x0001},
		{"tanh.f16", TanhApproxF16, 0x8000, 0x8000},
		{"tanh.f16", TanhApproxF16, 0x7c00, 0x3c00},
		{"tanh.f16", TanhApproxF16, 0xfc00, 0xbc00},
		{"tanh.f16", TanhApproxF16, 0x7e00, 0x7fff},
		{"tanh.f16", TanhApproxF16, 0xd315, 0xbc00},
		{"tanh.bf16", TanhApproxBF16, 0x7f80, 0x3f80},
		{"tanh.bf16", TanhApproxBF16, 0xffc0, 0x7fff},
		{"tanh.bf16", TanhApproxBF16, 0x8001, 0x8001},
	}
	for _, c := range f16 {
		if got := c.fn(c.a); got != c.want {
			t.Errorf("%s(%#04x) = %#04x, H100 %#04x", c.name, c.a, got, c.want)
		}
	}
	if got, want := TanhApproxF16x2(0x3c00bc00), uint32(0x3a17ba17); got != want {
		t.Errorf("tanh.f16x2(0x3c00bc00) = %#08x, want %#08x", got, want)
	}
	if got, want := TanhApproxBF16x2(0x7f80ffc0), uint32(0x3f807fff); got != want {
		t.Errorf("tanh.bf16x2(0x7f80ffc0) = %#08x, want %#08x", got, want)
	}
}

func sq(f func(uint32) uint32) func(a, b uint32) uint32 {
	return func(a, _ uint32) uint32 { return f(a) }
}

// TestSFUExtraGolden compares sqrt.approx and div.full, with and without
// .ftz, with 4096 H100 results (sfu_extra_data/golden.bin.gz, written by
// sfu_extra_rec.cu): random bits, subnormals, tiny and huge operands,
// significands with few bits set. (The whole recording, 2^18 cases, matched
// as well when the tables were made: TestSFUExtraMake.)
func TestSFUExtraGolden(t *testing.T) {
	f, err := os.Open("sfu_extra_data/golden.bin.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) != 4096*24 {
		t.Fatalf("golden file: %d bytes, want %d", len(data), 4096*24)
	}
	le := binary.LittleEndian
	ops := []struct {
		name string
		fn   func(a, b uint32) uint32
	}{
		{"sqrt.approx.f32", sq(SqrtApproxF32)},
		{"sqrt.approx.ftz.f32", sq(SqrtApproxFtzF32)},
		{"div.full.f32", DivFullF32},
		{"div.full.ftz.f32", DivFullFtzF32},
	}
	for k, op := range ops {
		bad := 0
		for off := 0; off < len(data); off += 24 {
			a, b, want := le.Uint32(data[off:]), le.Uint32(data[off+4:]), le.Uint32(data[off+8+4*k:])
			if got := op.fn(a, b); got != want {
				if bad++; bad <= 5 {
					t.Errorf("%s(%#08x, %#08x) = %#08x, H100 %#08x", op.name, a, b, got, want)
				}
			}
		}
		if bad > 0 {
			t.Errorf("%s: %d of 4096 differ", op.name, bad)
		}
	}
}

// TestSFUExtraTablesNear checks the recorded tables stay within one unit of
// the correctly rounded results they are stored against, and that MUFU.SQRT
// only scales with the exponent.
func TestSFUExtraTablesNear(t *testing.T) {
	for i := 0; i < 1<<24; i += 977 {
		if d := sqrtTable.delta(i); d < -1 || d > 1 {
			t.Fatalf("sqrt table entry %#x: delta %d", i, d)
		}
	}
	for i := 0; i < 1<<16; i++ {
		for _, tab := range []*sfuTable{&tanhF16Table, &tanhBF16Table} {
			if d := tab.delta(i); d < -1 || d > 0 {
				t.Fatalf("%s entry %#04x: delta %d", tab.file, i, d)
			}
		}
	}
	// sqrt(4x) = 2 sqrt(x) exactly on the SFU.
	for _, a := range []uint32{0x3fc00000, 0x3f800001, 0x40600000, 0x3fffffff} {
		for k := uint32(1); k < 60; k += 7 {
			if got, want := SqrtApproxFtzF32(a+2*k<<23), SqrtApproxFtzF32(a)+k<<23; got != want {
				t.Errorf("sqrt.approx.ftz(%#08x) = %#08x, want %#08x", a+2*k<<23, got, want)
			}
		}
	}
}
