package tmap

import "fmt"

// Im2col are cuTensorMapEncodeIm2col's arguments: a tensor of rank 3 to 5
// laid out C, W[, H[, D]], N (dimension 0 the channels), the pixel box's
// corners in the spatial dimensions (Rank-2 entries each, W first), and how
// many channels of how many pixels one load gathers.
type Im2col struct {
	DType        uint8
	Rank         uint32
	Addr         uint64
	Dim          []uint64 // rank entries
	Stride       []uint64 // rank-1 entries: dims 1..rank-1, bytes
	Lower, Upper []int32  // rank-2 entries
	Channels     uint32
	Pixels       uint32
	EStride      []uint32 // rank entries
	Interleave   uint8
	Swizzle      uint8
	L2           uint8
	OOBFill      uint8
}

// CornerBits is the width of a pixel box corner of an im2col map of the
// given rank (signed), and OffsetBits that of the im2col offsets of its
// loads (unsigned): the PTX ISA's ranges, which the driver enforces
// (testdata/tma/im2col_cases.txt, ie*_lo_* and ie*_up_*) and the loads
// wrap to (i4_off_hi).
func CornerBits(rank int) uint {
	switch rank {
	case 3:
		return 16
	case 4:
		return 8
	}
	return 5
}

// OffsetBits: see CornerBits.
func OffsetBits(rank int) uint {
	return CornerBits(rank)
}

// EncodeIm2col checks the arguments as the driver does (testdata/tma,
// out/log_im2col_h200.txt) and returns the map, or InvalidValue with the
// reason.
func EncodeIm2col(a Im2col) (Map, int, string) {
	var m Map
	bad := func(f string, args ...any) (Map, int, string) { return m, InvalidValue, fmt.Sprintf(f, args...) }
	if a.DType >= numTypes {
		return bad("data type %d is not a CUtensorMapDataType", a.DType)
	}
	es := uint64(ElemSize(a.DType))
	if a.Rank < 3 || a.Rank > 5 {
		return bad("an im2col tensor map's rank is 3 to 5, not %d", a.Rank)
	}
	r := int(a.Rank)
	if len(a.Dim) < r || len(a.EStride) < r || len(a.Stride) < r-1 || len(a.Lower) < r-2 || len(a.Upper) < r-2 {
		return bad("fewer dims, element strides, strides or corners than the rank")
	}
	if a.Interleave > 2 {
		return bad("interleave %d is not a CUtensorMapInterleave", a.Interleave)
	}
	if a.Swizzle > Swizzle128B {
		return bad("swizzle %d is not a CUtensorMapSwizzle", a.Swizzle)
	}
	if a.L2 > 3 {
		return bad("L2 promotion %d is not a CUtensorMapL2promotion", a.L2)
	}
	if a.OOBFill > 1 {
		return bad("OOB fill %d is not a CUtensorMapFloatOOBfill", a.OOBFill)
	}
	if a.OOBFill == 1 && !IsFloat(a.DType) {
		return bad("NaN out-of-bounds fill needs a floating-point data type")
	}
	// Interleaved layouts encode as the driver accepts them (ie_il16,
	// ie_il32; a 32-byte interleave wants 32-byte aligned addresses and
	// strides, ive_il32_* in il_cases.txt), but im2col loads through them
	// are not simulated yet: Decode refuses the map.
	align := uint64(16)
	if a.Interleave == 2 {
		align = 32
	}
	if a.Addr%align != 0 {
		return bad("global address %#x is not %d-byte aligned", a.Addr, align)
	}
	m = Map{Addr: a.Addr, Rank: r, DType: a.DType, Interleave: a.Interleave, Swizzle: a.Swizzle, L2: a.L2,
		OOBNaN: a.OOBFill == 1, Mode: ModeIm2col, Pixels: a.Pixels}
	m.Stride[0] = es
	for i := 0; i < r; i++ {
		if a.Dim[i] == 0 || a.Dim[i] > 1<<32 {
			return bad("global dim %d is %d (1 to 2^32)", i, a.Dim[i])
		}
		if a.EStride[i] == 0 || a.EStride[i] > 8 {
			return bad("element stride %d is %d (1 to 8)", i, a.EStride[i])
		}
		m.Dim[i], m.EStride[i] = a.Dim[i], a.EStride[i]
		if i > 0 {
			s := a.Stride[i-1]
			if s%align != 0 || s >= 1<<40 {
				return bad("global stride %d is %d (a multiple of %d below 2^40)", i, s, align)
			}
			m.Stride[i] = s
		}
	}
	for i := r; i < 5; i++ {
		m.Dim[i], m.EStride[i] = 1, 1
	}
	bits := CornerBits(r)
	lim := int32(1) << (bits - 1)
	for i := 0; i < r-2; i++ {
		lo, up := a.Lower[i], a.Upper[i]
		if lo < -lim || lo >= lim || up < -lim || up >= lim {
			return bad("pixel box corner %d is %d..%d (a rank-%d map's corners are %d to %d)", i, lo, up, r, -lim, lim-1)
		}
		if int64(lo) > int64(a.Dim[i+1])-1+int64(up) {
			return bad("the pixel box is empty in dimension %d (%d to %d%+d)", i+1, lo, a.Dim[i+1]-1, up)
		}
		m.Lower[i], m.Upper[i] = lo, up
	}
	if a.Channels == 0 || a.Channels > 256 {
		return bad("%d channels per pixel (1 to 256)", a.Channels)
	}
	if a.Pixels == 0 || a.Pixels > 1024 {
		return bad("%d pixels per column (1 to 1024)", a.Pixels)
	}
	m.Box = [5]uint32{a.Channels, 1, 1, 1, 1}
	inner := uint64(a.Channels) * es
	if inner%16 != 0 {
		return bad("a pixel's channels are %d bytes (a multiple of 16)", inner)
	}
	if sw := SwizzleBytes(a.Swizzle); sw > 0 && inner > uint64(sw) {
		return bad("a pixel's channels are %d bytes, more than the %d-byte swizzle", inner, sw)
	}
	return m, Success, ""
}

// BoxHigh is the last filter base position of the pixel box in spatial
// dimension i (0: W): the dimension's last element plus the upper corner.
func (m *Map) BoxHigh(i int) int64 {
	return int64(m.Dim[i+1]) - 1 + int64(m.Upper[i])
}
