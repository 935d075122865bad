package libdevice

import (
	"encoding/binary"
	"math"
	"sort"
	"sync"

	"github.com/warpsim/warpsim/internal/scalar"
)

// deltaTable is a recorded table of f32 results stored as int8 differences
// from a reference (in units of the last place of the reference's bits);
// entries whose difference does not fit, or whose reference lies so near a
// midpoint between floats that another faithful math library could round it
// the other way, are stored whole (testdata/gen/mksfu.go writes them). The
// file holds n and the number of escapes (uint32), n int8 deltas (-128 for an
// escaped entry) and the escapes as (index, bits) uint32 pairs, little-endian.
type deltaTable struct {
	once   sync.Once
	file   string
	deltas []int8
	escIdx []uint32
	escVal []uint32
}

var (
	lg2Table = deltaTable{file: "sfudata/lg2.bin.gz"}
	sinTable = deltaTable{file: "sfudata/sin.bin.gz"}
)

func (t *deltaTable) load() {
	raw := readSFU(t.file)
	bad := func() { panic("warpsim internal error: libdevice: " + t.file + ": malformed") }
	if len(raw) < 8 {
		bad()
	}
	n, ne := int(binary.LittleEndian.Uint32(raw)), int(binary.LittleEndian.Uint32(raw[4:]))
	if len(raw) != 8+n+8*ne {
		bad()
	}
	t.deltas = make([]int8, n)
	for i, b := range raw[8 : 8+n] {
		t.deltas[i] = int8(b)
	}
	t.escIdx = make([]uint32, ne)
	t.escVal = make([]uint32, ne)
	for k := range ne {
		o := 8 + n + 8*k
		t.escIdx[k] = binary.LittleEndian.Uint32(raw[o:])
		t.escVal[k] = binary.LittleEndian.Uint32(raw[o+4:])
	}
}

// value returns entry i given its reference value.
func (t *deltaTable) value(i int, ref float64) uint32 {
	t.once.Do(t.load)
	d := t.deltas[i]
	if d == -128 {
		k := sort.Search(len(t.escIdx), func(k int) bool { return t.escIdx[k] >= uint32(i) })
		return t.escVal[k]
	}
	return uint32(int32(math.Float32bits(float32(ref))) + int32(d))
}

// lg2Entry is the recorded lg2.approx of (1 + mant·2^-23)·2^-half.
func lg2Entry(mant uint32, half int) float64 {
	x := math.Ldexp(1+float64(mant)*0x1p-23, -half)
	return float64(math.Float32frombits(lg2Table.value(half<<23|int(mant), math.Log(x)/math.Ln2)))
}

// rzF32 rounds v to f32 toward zero.
func rzF32(v float64) uint32 {
	f := float32(v)
	if math.Abs(float64(f)) > math.Abs(v) {
		f = math.Nextafter32(f, 0)
	}
	return math.Float32bits(f)
}

// lg2ApproxFtz is lg2.approx.ftz.f32 (MUFU.LG2).
func lg2ApproxFtz(a uint32) uint32 {
	switch {
	case a&0x7fffffff > 0x7f800000:
		return nanF32
	case a&0x7f800000 == 0:
		return 0xff800000 // ±0 and flushed subnormals
	case a&0x80000000 != 0:
		return nanF32
	case a == 0x7f800000:
		return a
	}
	e := int(a>>23) - 127
	mant := a & 0x7fffff
	switch {
	case e == 0:
		return math.Float32bits(float32(lg2Entry(mant, 0)))
	case e == -1:
		return math.Float32bits(float32(lg2Entry(mant, 1)))
	case e > 0:
		return rzF32(float64(e) + lg2Entry(mant, 0))
	}
	return rzF32(float64(e+1) + lg2Entry(mant, 1))
}

// lg2ApproxF32 is lg2.approx.f32 (without .ftz) as ptxas expands it: a
// subnormal input is scaled by 2^24 and 24 subtracted from the result.
func lg2ApproxF32(a uint32) uint32 {
	if a&0x7fffffff >= 0x00800000 {
		return lg2ApproxFtz(a)
	}
	r := lg2ApproxFtz(b32(f32(a) * 16777216))
	return b32(ieee.add(f32(r), -24))
}

// sinCosApprox is sin.approx.f32 (cos false) or cos.approx.f32: t =
// x·f32(1/2π) rounded toward zero, then MUFU.SIN/COS (see the top of sfu.go).
func sinCosApprox(a uint32, cos bool) uint32 {
	if a&0x7fffffff >= 0x7f800000 {
		return nanF32
	}
	t := scalar.MulF32(a, 0x3e22f983, scalar.RZ, true, false)
	s := revolution25(t & 0x7fffffff)
	if cos {
		s = (s + 1<<23) & (1<<25 - 1)
	}
	q, u := s>>23, s&(1<<23-1)
	if q&1 != 0 {
		u = 1<<23 - 1 - u
	}
	d := sinTable.value(int(u), math.Sin(math.Pi/2*(float64(u)*0x1p-23)))
	if q >= 2 {
		d ^= 0x80000000
	}
	if !cos {
		d ^= t & 0x80000000
	}
	return d
}

// revolution25 returns the fraction of the non-negative f32 t (in
// revolutions) truncated to 25 bits, as an integer in [0, 2^25).
func revolution25(t uint32) uint32 {
	e := int(t >> 23)
	if e == 0 {
		return 0
	}
	m := uint64(t&(1<<23-1) | 1<<23) // t = m·2^(e-150)
	switch sh := e - 125; {
	case sh >= 25:
		return 0
	case sh >= 0:
		return uint32(m << uint(sh) & (1<<25 - 1))
	case sh > -32:
		return uint32(m >> uint(-sh))
	}
	return 0
}

// rcpApproxF32 is rcp.approx.f32 (without .ftz) as ptxas expands it: a
// subnormal input is scaled up by 2^24 and the result by 2^24 again; an input
// whose reciprocal is subnormal (|a| > 2^126) is scaled down by 2^-24 and the
// result likewise, rounded once into the subnormal range.
func rcpApproxF32(a uint32) uint32 {
	if mag := a & 0x7fffffff; mag > 0x7e800000 && mag < 0x7f800000 {
		r := rcpApproxFtz(b32(f32(a) * 0x1p-24))
		return b32(ieee.mul(f32(r), 0x1p-24))
	}
	return b32(rcpApprox(f32(a), false))
}
