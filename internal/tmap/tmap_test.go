package tmap

import (
	"strings"
	"testing"
)

// TestEncodeDecode: a map survives its 128 bytes, and tensormap.replace
// fields on zeroed bytes (as Triton builds device-side descriptors) give
// the map cuTensorMapEncodeTiled makes.
func TestEncodeDecode(t *testing.T) {
	a := Tiled{DType: F16, Rank: 3, Addr: 0x7f0000001000, Dim: []uint64{40, 12, 1 << 32}, Stride: []uint64{96, 1152},
		Box: []uint32{16, 4, 256}, EStride: []uint32{1, 3, 8}, Swizzle: Swizzle64B, L2: 3, OOBFill: 1}
	m, code, why := EncodeTiled(a)
	if code != Success {
		t.Fatal(why)
	}
	b := make([]byte, Size)
	m.Encode(b)
	got, err := Decode(b)
	if err != nil || got != m {
		t.Fatalf("decoded %+v (%v), want %+v", got, err, m)
	}
	z := make([]byte, Size)
	steps := []struct {
		f, ord int
		v      uint64
	}{
		{FieldGlobalAddress, 0, a.Addr}, {FieldRank, 0, 2}, {FieldElemType, 0, 6}, {FieldSwizzle, 0, 2}, {FieldFillMode, 0, 1},
		{FieldBoxDim, 0, 16}, {FieldBoxDim, 1, 4}, {FieldBoxDim, 2, 256},
		{FieldGlobalDim, 0, 40}, {FieldGlobalDim, 1, 12}, {FieldGlobalDim, 2, 1 << 32},
		{FieldGlobalStride, 0, 96}, {FieldGlobalStride, 1, 1152},
		{FieldElementStride, 0, 1}, {FieldElementStride, 1, 3}, {FieldElementStride, 2, 8},
	}
	for _, s := range steps {
		if err := Replace(z, s.f, s.ord, s.v); err != nil {
			t.Fatal(err)
		}
	}
	z[83] = 3 // L2 promotion has no tensormap.replace field
	if got, err := Decode(z); err != nil || got != m {
		t.Errorf("replaced %+v (%v), want %+v", got, err, m)
	}
}

func TestReplaceRefuses(t *testing.T) {
	for _, c := range []struct {
		f, ord int
		v      uint64
		want   string
	}{
		{FieldRank, 0, 5, "rank"}, {FieldBoxDim, 0, 257, "box dim"}, {FieldElementStride, 1, 9, "element stride"},
		{FieldGlobalStride, 4, 16, "ordinal"}, {FieldElemType, 0, 13, "element type"}, {FieldSwizzleAtomicity, 0, 1, "atomicity"},
		{FieldGlobalDim, 0, 0, "global dim"},
	} {
		if err := Replace(make([]byte, Size), c.f, c.ord, c.v); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("field %d ord %d value %d: %v, want %q", c.f, c.ord, c.v, err, c.want)
		}
	}
}

// TestSwizzleOffset: the XOR patterns of CUTLASS's Swizzle<1|2|3, 4, 3>,
// checked on a few offsets by hand.
func TestSwizzleOffset(t *testing.T) {
	for _, c := range []struct {
		sw       uint8
		off, out uint64
	}{
		{SwizzleNone, 0x1f0, 0x1f0}, {Swizzle32B, 0x80, 0x90}, {Swizzle32B, 0x100, 0x100},
		{Swizzle64B, 0x180, 0x1b0}, {Swizzle64B, 0x200, 0x200}, {Swizzle128B, 0x380, 0x3f0}, {Swizzle128B, 0x395, 0x3e5},
	} {
		if got := SwizzleOffset(c.sw, c.off); got != c.out {
			t.Errorf("swizzle %d of %#x: %#x, want %#x", c.sw, c.off, got, c.out)
		}
	}
}

// TestIm2colEncodeDecode: an im2col map (corners at the rank's limits,
// negative ones included) survives its 128 bytes, at every rank, and a map
// of rank 2 marked im2col, or with no pixels, does not decode.
func TestIm2colEncodeDecode(t *testing.T) {
	for _, a := range []Im2col{
		{DType: F32, Rank: 3, Addr: 0x7f0000000100, Dim: []uint64{8, 70000, 3}, Stride: []uint64{32, 32 * 70000},
			Lower: []int32{-32768}, Upper: []int32{32767}, Channels: 8, Pixels: 1024, EStride: []uint32{1, 8, 2}, OOBFill: 1},
		{DType: F16, Rank: 4, Addr: 0x7f0000000200, Dim: []uint64{64, 9, 6, 2}, Stride: []uint64{128, 1152, 6912},
			Lower: []int32{-128, 3}, Upper: []int32{127, -2}, Channels: 64, Pixels: 32, EStride: []uint32{1, 2, 3, 1},
			Swizzle: Swizzle128B},
		{DType: U8, Rank: 5, Addr: 0x7f0000000300, Dim: []uint64{16, 5, 4, 3, 2}, Stride: []uint64{16, 80, 320, 960},
			Lower: []int32{-16, 0, -16}, Upper: []int32{15, -1, 15}, Channels: 16, Pixels: 1, EStride: []uint32{1, 1, 1, 1, 1}},
	} {
		m, code, why := EncodeIm2col(a)
		if code != Success {
			t.Fatalf("rank %d: %s", a.Rank, why)
		}
		b := make([]byte, Size)
		m.Encode(b)
		got, err := Decode(b)
		if err != nil || got != m {
			t.Fatalf("decoded %+v (%v), want %+v", got, err, m)
		}
		if got.TxBytes() != int(a.Channels*a.Pixels)*ElemSize(a.DType) {
			t.Errorf("rank %d: %d transaction bytes", a.Rank, got.TxBytes())
		}
		bad := append([]byte{}, b...)
		bad[88], bad[89] = 0, 0
		if _, err := Decode(bad); err == nil || !strings.Contains(err.Error(), "pixels per column") {
			t.Errorf("rank %d: no pixels decoded (%v)", a.Rank, err)
		}
		bad = append([]byte{}, b...)
		bad[79] = 1
		if _, err := Decode(bad); err == nil || !strings.Contains(err.Error(), "rank 2") {
			t.Errorf("rank 2 im2col map decoded (%v)", err)
		}
	}
}
