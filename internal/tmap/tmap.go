// Package tmap is warpsim's encoding of the CUDA tensor map (CUtensorMap):
// the 128 bytes that cuTensorMapEncodeTiled fills on the host and the TMA
// instructions (cp.async.bulk.tensor, cp.reduce.async.bulk.tensor) read on
// the device. On the GPU the bytes are opaque and NVIDIA's; warpsim uses its
// own layout, written by the C runtime (cuda/shim/warpsim_rt_tensormap.c,
// which must keep the same offsets), by launch files (launchfile's
// "tensor_map" argument) and by tensormap.replace, and read by the engine.
//
// Layout (little endian):
//
//	0   u64     global address
//	8   u32[5]  global dims minus one (dims 1..2^32)
//	32  u64[4]  global strides of dims 1..4, in bytes
//	64  u16[5]  box dims (1..256)
//	74  u8[5]   element strides minus one (1..8)
//	79  u8      rank minus one
//	80  u8      data type (CUtensorMapDataType)
//	81  u8      interleave, 82 swizzle, 83 L2 promotion, 84 float OOB fill
//	85  u8      mode (0 tiled, 1 im2col)
//	86  u16     im2col: channels per pixel (1..256; also box dim 0)
//	88  u16     im2col: pixels per column (1..1024)
//	90  i16[3]  im2col: pixel box lower corner (W, H, D)
//	96  i16[3]  im2col: pixel box upper corner (W, H, D)
//
// Every field's zero is valid, so a map built from zeroed bytes by
// tensormap.replace (as Triton's device-side descriptors are) decodes.
package tmap

import (
	"encoding/binary"
	"fmt"
)

// Size is a tensor map's size in bytes; Align its required alignment.
const (
	Size  = 128
	Align = 64
)

// Data types (CUtensorMapDataType).
const (
	U8 uint8 = iota
	U16
	U32
	S32
	U64
	S64
	F16
	F32
	F64
	BF16
	F32FTZ
	TF32
	TF32FTZ
	numTypes
)

// Swizzle modes (CUtensorMapSwizzle).
const (
	SwizzleNone uint8 = iota
	Swizzle32B
	Swizzle64B
	Swizzle128B
)

// Interleaved layouts (CUtensorMapInterleave).
const (
	InterleaveNone uint8 = iota
	Interleave16B
	Interleave32B
)

// Modes of a tensor map.
const (
	ModeTiled uint8 = iota
	ModeIm2col
)

// Map is a decoded tensor map. In im2col mode Box[0] is the channels per
// pixel and the other box dims are 1.
type Map struct {
	Addr       uint64
	Rank       int
	Dim        [5]uint64 // elements
	Stride     [5]uint64 // bytes; Stride[0] is the element size
	Box        [5]uint32
	EStride    [5]uint32
	DType      uint8
	Interleave uint8
	Swizzle    uint8
	L2         uint8
	OOBNaN     bool
	Mode       uint8
	// im2col mode: pixels per column and the pixel box's corners in the
	// spatial dimensions 1..Rank-2 (index 0 is W, dimension 1).
	Pixels       uint32
	Lower, Upper [3]int32
}

// ElemSize is the size in bytes of a data type's element (0: unknown).
func ElemSize(t uint8) int {
	switch t {
	case U8:
		return 1
	case U16, F16, BF16:
		return 2
	case U32, S32, F32, F32FTZ, TF32, TF32FTZ:
		return 4
	case U64, S64, F64:
		return 8
	}
	return 0
}

// IsFloat says whether a data type is a floating-point one.
func IsFloat(t uint8) bool { return t >= F16 }

// SwizzleBytes is a swizzle mode's span in bytes (0 for none).
func SwizzleBytes(s uint8) int {
	switch s {
	case Swizzle32B:
		return 32
	case Swizzle64B:
		return 64
	case Swizzle128B:
		return 128
	}
	return 0
}

// Decode reads a tensor map from its 128 bytes.
func Decode(b []byte) (Map, error) {
	var m Map
	if len(b) < Size {
		return m, fmt.Errorf("a tensor map is %d bytes, got %d", Size, len(b))
	}
	le := binary.LittleEndian
	m.Addr = le.Uint64(b[0:])
	m.Rank = int(b[79]) + 1
	m.DType = b[80]
	m.Interleave, m.Swizzle, m.L2 = b[81], b[82], b[83]
	m.OOBNaN = b[84] == 1
	m.Mode = b[85]
	if m.Mode > ModeIm2col {
		return m, fmt.Errorf("tensor map mode %d is not supported", m.Mode)
	}
	if m.Rank > 5 {
		return m, fmt.Errorf("tensor map rank %d is out of range", m.Rank)
	}
	es := ElemSize(m.DType)
	if es == 0 {
		return m, fmt.Errorf("tensor map data type %d is not supported", m.DType)
	}
	if m.Interleave > Interleave32B {
		return m, fmt.Errorf("tensor map interleave %d is not a CUtensorMapInterleave", m.Interleave)
	}
	if m.Interleave != 0 && m.Mode == ModeIm2col {
		return m, fmt.Errorf("im2col tensor map with interleave %d is not supported yet", m.Interleave)
	}
	if m.Swizzle > Swizzle128B {
		return m, fmt.Errorf("tensor map swizzle mode %d is not supported yet", m.Swizzle)
	}
	m.Stride[0] = uint64(es)
	for i := 0; i < 5; i++ {
		m.Dim[i] = uint64(le.Uint32(b[8+4*i:])) + 1
		m.Box[i] = uint32(le.Uint16(b[64+2*i:]))
		m.EStride[i] = uint32(b[74+i]) + 1
		if i > 0 {
			m.Stride[i] = le.Uint64(b[32+8*(i-1):])
		}
	}
	for i := m.Rank; i < 5; i++ {
		m.Dim[i], m.Box[i], m.EStride[i] = 1, 1, 1 // unused
	}
	if m.Mode == ModeIm2col {
		if m.Rank < 3 {
			return m, fmt.Errorf("an im2col tensor map of rank %d (3 to 5)", m.Rank)
		}
		m.Box = [5]uint32{uint32(le.Uint16(b[86:])), 1, 1, 1, 1}
		m.Pixels = uint32(le.Uint16(b[88:]))
		if m.Pixels == 0 || m.Pixels > 1024 {
			return m, fmt.Errorf("im2col tensor map: %d pixels per column (1 to 1024)", m.Pixels)
		}
		for i := 0; i < 3; i++ {
			m.Lower[i] = int32(int16(le.Uint16(b[90+2*i:])))
			m.Upper[i] = int32(int16(le.Uint16(b[96+2*i:])))
		}
	}
	for i := 0; i < m.Rank; i++ {
		if m.Box[i] == 0 || m.Box[i] > 256 {
			return m, fmt.Errorf("tensor map box dimension %d is %d (1 to 256)", i, m.Box[i])
		}
	}
	return m, nil
}

// Encode writes m into b's first 128 bytes (the rest of them zero).
func (m *Map) Encode(b []byte) {
	clear(b[:Size])
	le := binary.LittleEndian
	le.PutUint64(b[0:], m.Addr)
	for i := 0; i < 5; i++ {
		d, box, e := m.Dim[i], m.Box[i], m.EStride[i]
		if i >= m.Rank {
			d, box, e = 1, 1, 1
		}
		le.PutUint32(b[8+4*i:], uint32(d-1))
		le.PutUint16(b[64+2*i:], uint16(box))
		b[74+i] = uint8(e - 1)
		if i > 0 && i < m.Rank {
			le.PutUint64(b[32+8*(i-1):], m.Stride[i])
		}
	}
	b[79] = uint8(m.Rank - 1)
	b[80], b[81], b[82], b[83] = m.DType, m.Interleave, m.Swizzle, m.L2
	if m.OOBNaN {
		b[84] = 1
	}
	if m.Mode == ModeIm2col {
		b[85] = ModeIm2col
		for i := 1; i < 5; i++ {
			le.PutUint16(b[64+2*i:], 1)
		}
		le.PutUint16(b[86:], uint16(m.Box[0]))
		le.PutUint16(b[88:], uint16(m.Pixels))
		for i := 0; i < 3; i++ {
			le.PutUint16(b[90+2*i:], uint16(m.Lower[i]))
			le.PutUint16(b[96+2*i:], uint16(m.Upper[i]))
		}
	}
}

// Result codes of EncodeTiled (CUresult).
const (
	Success      = 0
	InvalidValue = 1
)

// Tiled are cuTensorMapEncodeTiled's arguments.
type Tiled struct {
	DType      uint8
	Rank       uint32
	Addr       uint64
	Dim        []uint64 // rank entries
	Stride     []uint64 // rank-1 entries: dims 1..rank-1, bytes
	Box        []uint32 // rank entries
	EStride    []uint32 // rank entries
	Interleave uint8
	Swizzle    uint8
	L2         uint8
	OOBFill    uint8
}

// EncodeTiled checks the arguments as the H100's driver does
// (testdata/tma/out/log.txt records its answers) and returns the map, or
// InvalidValue with the reason.
func EncodeTiled(a Tiled) (Map, int, string) {
	var m Map
	bad := func(f string, args ...any) (Map, int, string) { return m, InvalidValue, fmt.Sprintf(f, args...) }
	if a.DType >= numTypes {
		return bad("data type %d is not a CUtensorMapDataType", a.DType)
	}
	es := uint64(ElemSize(a.DType))
	if a.Rank < 1 || a.Rank > 5 {
		return bad("rank %d is not 1 to 5", a.Rank)
	}
	r := int(a.Rank)
	if len(a.Dim) < r || len(a.Box) < r || len(a.EStride) < r || len(a.Stride) < r-1 {
		return bad("fewer dims, boxes, element strides or strides than the rank")
	}
	if a.Interleave > 2 {
		return bad("interleave %d is not a CUtensorMapInterleave", a.Interleave)
	}
	if a.Interleave != 0 && a.Rank < 3 {
		return bad("an interleaved layout needs rank 3 to 5, not %d", a.Rank)
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
	align := uint64(16)
	if a.Interleave == Interleave32B {
		align = 32 // the address and the strides (ive_il32_ga16, ive_il32_s16)
	}
	if a.Addr%align != 0 { // a null address passes (the driver's answer)
		return bad("global address %#x is not %d-byte aligned", a.Addr, align)
	}
	m = Map{Addr: a.Addr, Rank: r, DType: a.DType, Interleave: a.Interleave, Swizzle: a.Swizzle, L2: a.L2, OOBNaN: a.OOBFill == 1}
	m.Stride[0] = es
	for i := 0; i < r; i++ {
		if a.Dim[i] == 0 || a.Dim[i] > 1<<32 {
			return bad("global dim %d is %d (1 to 2^32)", i, a.Dim[i])
		}
		if a.Box[i] == 0 || a.Box[i] > 256 {
			return bad("box dim %d is %d (1 to 256)", i, a.Box[i])
		}
		if a.EStride[i] == 0 || a.EStride[i] > 8 {
			return bad("element stride %d is %d (1 to 8)", i, a.EStride[i])
		}
		m.Dim[i], m.Box[i], m.EStride[i] = a.Dim[i], a.Box[i], a.EStride[i]
		if i > 0 {
			s := a.Stride[i-1]
			if s%align != 0 || s >= 1<<40 {
				return bad("global stride %d is %d (a multiple of %d below 2^40)", i, s, align)
			}
			m.Stride[i] = s
		}
	}
	for i := r; i < 5; i++ {
		m.Dim[i], m.Box[i], m.EStride[i] = 1, 1, 1 // as Decode gives them
	}
	inner := uint64(a.Box[0]) * es
	if inner%16 != 0 {
		return bad("the box's inner dimension is %d bytes (a multiple of 16)", inner)
	}
	// an interleaved box's inner dimension may be wider than the swizzle
	// span (ive_il32_sw32w, ive_il32_sw128w)
	if sw := SwizzleBytes(a.Swizzle); sw > 0 && inner > uint64(sw) && a.Interleave == 0 {
		return bad("the box's inner dimension is %d bytes, more than the %d-byte swizzle", inner, sw)
	}
	return m, Success, ""
}

// Elems is the number of elements the box holds in dimension i: the
// traversal steps by the element stride, except in dimension 0, whose
// stride the H100 ignores (es_21 in testdata/tma: all box[0] elements).
func (m *Map) Elems(i int) int {
	if i == 0 {
		return int(m.Box[0])
	}
	return int((m.Box[i] + m.EStride[i] - 1) / m.EStride[i])
}

// TxBytes is what a load completes on its mbarrier: the bytes of the
// elements it moves (Elems in each dimension). With an element stride in
// dimension 0 an expectation of ceil(box[0]/stride) elements left the phase
// complete on the H100 and incomplete on an H200 (es_21, t2_es0_tx in
// testdata/tma): the hardware's count is not that, and the data says the
// whole box[0] moves.
func (m *Map) TxBytes() int {
	n := int(m.Stride[0])
	if m.Interleave != 0 {
		return m.SharedBytes()
	}
	if m.Mode == ModeIm2col {
		return n * int(m.Box[0]) * int(m.Pixels)
	}
	for i := 0; i < m.Rank; i++ {
		n *= m.Elems(i)
	}
	return n
}

// RowPitch is the shared-memory distance between rows (dimension 0 runs)
// of the box: their bytes, padded to the swizzle span when narrower
// (sw128_f32_64B in testdata/tma: 64-byte rows 128 bytes apart).
func (m *Map) RowPitch() int {
	p := int(m.Box[0]) * int(m.Stride[0])
	if sw := SwizzleBytes(m.Swizzle); p < sw {
		p = sw
	}
	return p
}

// InterleaveBytes is the interleave chunk of an interleaved map (16 or 32
// bytes), 0 for other maps.
func (m *Map) InterleaveBytes() int {
	switch m.Interleave {
	case Interleave16B:
		return 16
	case Interleave32B:
		return 32
	}
	return 0
}

// InterleaveRun is an interleaved copy's unit, as the H100 moves it
// (testdata/tma/il_cases.txt): box[0] interleave chunks, one contiguous run
// of global memory; the runs step through dimensions 1 … rank-1 except
// rank-2 (InterleaveDims), whose box the H100 ignores.
func (m *Map) InterleaveRun() int { return int(m.Box[0]) * m.InterleaveBytes() }

// InterleaveDims lists the dimensions an interleaved copy steps through,
// the first fastest: 2 for rank 3, 1 and 3 for rank 4, 1, 2 and 4 for rank 5.
func (m *Map) InterleaveDims() []int {
	switch m.Rank {
	case 3:
		return []int{2}
	case 4:
		return []int{1, 3}
	case 5:
		return []int{1, 2, 4}
	}
	return nil
}

// SharedBytes is the box's footprint in shared memory.
func (m *Map) SharedBytes() int {
	if m.Interleave != 0 {
		n := m.InterleaveRun()
		for _, i := range m.InterleaveDims() {
			n *= m.Elems(i)
		}
		return n
	}
	n := m.RowPitch()
	if m.Mode == ModeIm2col {
		return n * int(m.Pixels)
	}
	for i := 1; i < m.Rank; i++ {
		n *= m.Elems(i)
	}
	return n
}

// SwizzleOffset maps the byte offset off of a box in shared memory (whose
// address is aligned to the swizzle pattern's repeat) to where the swizzle
// places it: the 16-byte chunk index within a 128-byte row is XORed with
// the row index modulo the pattern (CUTLASS's Swizzle<B,4,3>).
func SwizzleOffset(sw uint8, off uint64) uint64 {
	switch sw {
	case Swizzle32B:
		return off ^ (off>>7&1)<<4
	case Swizzle64B:
		return off ^ (off>>7&3)<<4
	case Swizzle128B:
		return off ^ (off>>7&7)<<4
	}
	return off
}

// Fields of tensormap.replace (the order of ir.Tensormap*).
const (
	FieldGlobalAddress = iota
	FieldRank
	FieldBoxDim
	FieldGlobalDim
	FieldGlobalStride
	FieldElementStride
	FieldElemType
	FieldInterleave
	FieldSwizzle
	FieldSwizzleAtomicity
	FieldFillMode
)

// ptxElemType maps tensormap.replace's .elemtype values (the PTX ISA's
// numbering: u8 u16 u32 s32 u64 s64 f16 f32 f32.ftz f64 bf16 tf32
// tf32.ftz) to data types.
var ptxElemType = [...]uint8{U8, U16, U32, S32, U64, S64, F16, F32, F32FTZ, F64, BF16, TF32, TF32FTZ}

// Replace writes one field of the map in b as tensormap.replace does: the
// rank as rank-1, dims, box dims and element strides as their values,
// global strides (ord 0 is dimension 1's) in bytes. It returns an error for
// a value the encoding cannot hold.
func Replace(b []byte, field, ord int, v uint64) error {
	le := binary.LittleEndian
	if ord < 0 || ord > 4 {
		return fmt.Errorf("ordinal %d is out of range", ord)
	}
	switch field {
	case FieldGlobalAddress:
		le.PutUint64(b[0:], v)
	case FieldRank:
		if v > 4 {
			return fmt.Errorf("rank-1 of %d is out of range", v)
		}
		b[79] = uint8(v)
	case FieldBoxDim:
		if v == 0 || v > 256 {
			return fmt.Errorf("box dim %d is out of range", v)
		}
		le.PutUint16(b[64+2*ord:], uint16(v))
	case FieldGlobalDim:
		if v == 0 {
			return fmt.Errorf("global dim 0")
		}
		le.PutUint32(b[8+4*ord:], uint32(v-1))
	case FieldGlobalStride:
		if ord > 3 {
			return fmt.Errorf("global stride ordinal %d is out of range", ord)
		}
		le.PutUint64(b[32+8*ord:], v)
	case FieldElementStride:
		if v == 0 || v > 8 {
			return fmt.Errorf("element stride %d is out of range", v)
		}
		b[74+ord] = uint8(v - 1)
	case FieldElemType:
		if v >= uint64(len(ptxElemType)) {
			return fmt.Errorf("element type %d is not supported", v)
		}
		b[80] = ptxElemType[v]
	case FieldInterleave:
		b[81] = uint8(v)
	case FieldSwizzle:
		b[82] = uint8(v)
	case FieldSwizzleAtomicity:
		if v != 0 {
			return fmt.Errorf("swizzle atomicity %d is not supported yet", v)
		}
	case FieldFillMode:
		b[84] = uint8(v)
	default:
		return fmt.Errorf("unknown field %d", field)
	}
	return nil
}
