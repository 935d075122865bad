package libdevice

import (
	"bytes"
	"compress/gzip"
	"embed"
	"encoding/binary"
	"io"
	"math"
	"sync"
)

// The SFU's approximate instructions (MUFU.RCP, MUFU.RSQ, MUFU.EX2, MUFU.LG2,
// MUFU.SIN/COS, MUFU.RSQ64H) are not specified bit for bit, so they are
// reproduced here from tables recorded on an H100/H200 (sm_90) by
// testdata/gen/sfutables.cu and sfutables2.cu: for each point of a dense grid,
// the hardware's result as a difference from a reference Go can recompute.
// With the rules below (each checked on the GPU over every exponent, and
// against recorded exp2f, tanf, atanf … results) they reproduce the hardware
// exactly:
//
//   - rcp.approx.ftz.f32: depends only on the significand; the exponent is
//     negated exactly; results below 2^-126 flush to zero.
//   - rsqrt.approx.ftz.f32: depends on the significand and the exponent's
//     parity (2^24 entries); the rest of the exponent only scales the result.
//   - ex2.approx.ftz.f32: |x| is truncated to 23 fractional bits; 2^x is the
//     table's 2^±frac scaled by 2^±int (sign-magnitude, not floor).
//   - lg2.approx.ftz.f32: x = m·2^e; the SFU forms e + log2(m) in fixed point
//     and truncates it (toward zero) to f32. The results for e = 0 and e = -1
//     hold all that the truncation can see of log2(m): for e > 0 the result
//     is RZ(e + lg2(m)), for e < -1 it is RZ(e + 1 + lg2(m/2)), computed
//     exactly in float64.
//   - sin/cos.approx.f32: t = x·f32(1/2π) rounded toward zero; the SFU takes
//     |t|'s fraction of a revolution truncated to 25 bits, folds it into a
//     quadrant and a 23-bit position mirrored in odd quadrants, and reads one
//     quarter-wave table (sin at u·2^-25 revolutions, u < 2^23); cos is sin a
//     quarter turn on; sin takes t's sign.
//   - rcp/rsqrt.approx.ftz.f64 (MUFU.RCP64H/RSQ64H): the f32 tables at the top
//     20 significand bits of the high word, the result truncated to the high
//     word (low word zero).

//go:embed sfudata/*.bin.gz sfu_extra_data/sqrt.bin.gz sfu_extra_data/tanh_f16.bin.gz sfu_extra_data/tanh_bf16.bin.gz
var sfuFiles embed.FS

// sfuTable is a recorded SFU table: the file holds one signed byte per
// entry, the difference (−2…+1) from a reference Go recomputes; it is
// loaded on first use and kept as delta+2, four entries to a byte.
type sfuTable struct {
	once   sync.Once
	file   string
	size   int // entries the file must hold; 0: any
	packed []byte
}

var (
	rcpTable   = sfuTable{file: "sfudata/rcp.bin.gz"}
	rsqrtTable = sfuTable{file: "sfudata/rsqrt.bin.gz"}
	ex2Table   = sfuTable{file: "sfudata/ex2.bin.gz"}
)

// readSFU returns the decompressed embedded file.
func readSFU(file string) []byte {
	data, err := sfuFiles.ReadFile(file)
	if err != nil {
		panic("warpsim internal error: libdevice: " + err.Error())
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		panic("warpsim internal error: libdevice: " + file + ": " + err.Error())
	}
	// The gzip trailer's last word is the data's size (mod 2^32): read it
	// into a buffer of that size at once, not through io.ReadAll's
	// doublings (16 MiB tables: twice the memory to allocate and touch).
	var raw []byte
	if len(data) >= 4 {
		raw = make([]byte, binary.LittleEndian.Uint32(data[len(data)-4:]))
	}
	n, err := io.ReadFull(zr, raw)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		panic("warpsim internal error: libdevice: " + file + ": " + err.Error())
	}
	// The rest, if the trailer said less (and the end, where the
	// checksum is checked).
	rest, err := io.ReadAll(zr)
	if err != nil {
		panic("warpsim internal error: libdevice: " + file + ": " + err.Error())
	}
	return append(raw[:n], rest...)
}

func (t *sfuTable) load() {
	raw := readSFU(t.file)
	if t.size != 0 && len(raw) != t.size {
		panic("warpsim internal error: libdevice: " + t.file + ": wrong size")
	}
	t.packed = make([]byte, (len(raw)+3)/4)
	for i, d := range raw {
		v := int8(d) + 2
		if v < 0 || v > 3 {
			panic("warpsim internal error: libdevice: " + t.file + ": delta out of range")
		}
		t.packed[i/4] |= byte(v) << (2 * (i % 4))
	}
}

// delta returns entry i.
func (t *sfuTable) delta(i int) int32 {
	t.once.Do(t.load)
	return int32(t.packed[i/4]>>(2*(i%4))&3) - 2
}

// rcpApproxFtz is rcp.approx.ftz.f32.
func rcpApproxFtz(a uint32) uint32 {
	sign := a & 0x80000000
	e := int32(a >> 23 & 0xff)
	switch {
	case a&0x7fffffff > 0x7f800000:
		return nanF32
	case e == 0:
		return sign | 0x7f800000
	case e == 255:
		return sign
	}
	mant := a & 0x7fffff
	m := math.Float32frombits(0x3f800000 | mant)
	ref := math.Float32bits(float32(1 / float64(m)))
	r := math.Float32frombits(uint32(int32(ref) + rcpTable.delta(int(mant))))
	y := float64(r) * math.Ldexp(1, int(127-e))
	if y < 0x1p-126 {
		return sign
	}
	return sign | math.Float32bits(float32(y))
}

// rsqrtApproxFtz is rsqrt.approx.ftz.f32.
func rsqrtApproxFtz(a uint32) uint32 {
	e := int32(a >> 23 & 0xff)
	switch {
	case a&0x7fffffff > 0x7f800000:
		return nanF32
	case e == 0:
		return a&0x80000000 | 0x7f800000
	case a&0x80000000 != 0:
		return nanF32
	case e == 255:
		return 0
	}
	mant := a & 0x7fffff
	ue := e - 127
	p := ue & 1
	x := math.Ldexp(1+float64(mant)*0x1p-23, int(p))
	ref := math.Float32bits(float32(1 / math.Sqrt(x)))
	t := uint32(int32(ref) + rsqrtTable.delta(int(p)<<23|int(mant)))
	return math.Float32bits(float32(float64(math.Float32frombits(t)) * math.Ldexp(1, int(-(ue-p)/2))))
}

// ex2ApproxFtz is ex2.approx.ftz.f32.
func ex2ApproxFtz(a uint32) uint32 {
	if a&0x7fffffff > 0x7f800000 {
		return nanF32
	}
	if a&0x7f800000 == 0 {
		return 0x3f800000
	}
	x := float64(math.Float32frombits(a))
	ax := math.Abs(x)
	if ax >= 256 {
		if x > 0 {
			return 0x7f800000
		}
		return 0
	}
	g := int64(ax * 0x1p23) // exact, then truncated
	k := int(g >> 23)
	fi := int(g & (1<<23 - 1))
	var i int
	if x > 0 {
		i = fi + 1<<23
	} else {
		i = 1<<23 - fi
		k = -k
	}
	ref := math.Float32bits(float32(math.Exp2(float64(i)*0x1p-23 - 1)))
	t := math.Float32frombits(uint32(int32(ref) + ex2Table.delta(i)))
	y := float64(t) * math.Ldexp(1, k)
	switch {
	case y < 0x1p-126:
		return 0
	case y >= 0x1p128:
		return 0x7f800000
	}
	return math.Float32bits(float32(y))
}

// divApproxFtz is div.approx.ftz.f32: a times the SFU reciprocal of b, except
// for 2^126 < |b| < 2^128, where the result is zero (NaN for infinite a).
func divApproxFtz(a, b float32) float32 {
	a, b = flushSub(a), flushSub(b)
	if mag := b32(b) & 0x7fffffff; mag > 0x7e800000 && mag < 0x7f800000 {
		if a != a || b32(a)&0x7fffffff == 0x7f800000 {
			return f32(nanF32)
		}
		return f32((b32(a) ^ b32(b)) & 0x80000000)
	}
	return flushed.mul(a, f32(rcpApproxFtz(b32(b))))
}

// rcpApproxFtz64 is rcp.approx.ftz.f64 (MUFU.RCP64H): the f32 reciprocal
// table at the top 20 bits of the significand, its result truncated to 20
// bits in the high word; the low word is zero.
func rcpApproxFtz64(a uint64) uint64 {
	a &^= 0xffffffff // the SFU reads the high word only
	sign := a & (1 << 63)
	e := int64(a >> 52 & 0x7ff)
	switch {
	case isNaN64(a):
		return 0x7fffffff00000000
	case e == 0:
		return sign | 0x7ff0000000000000
	case e == 0x7ff:
		return sign
	}
	mant := uint32(a>>32) & 0xfffff << 3
	m := math.Float32frombits(0x3f800000 | mant)
	ref := math.Float32bits(float32(1 / float64(m)))
	t := uint32(int32(ref) + rcpTable.delta(int(mant)))
	de := int64(t>>23&0xff) - 127 + 2046 - e
	if de <= 0 {
		return sign
	}
	if de >= 0x7ff {
		return sign | 0x7ff0000000000000
	}
	return sign | uint64(de)<<52 | uint64(t&0x7fffff>>3)<<32
}

// rsqrtApproxF64 is rsqrt.approx.f64 as ptxas expands it: the SFU's
// estimate refined by one fma step, with the special cases handled apart and
// subnormal inputs scaled by 2^54.
func rsqrtApproxF64(a uint64) uint64 {
	hi := uint32(a >> 32)
	if hi-0x00100000 >= 0x7fe00000 {
		x := math.Float64frombits(a)
		switch {
		case x == 0:
			return a&(1<<63) | 0x7ff0000000000000
		case x != x:
			return a | 1<<51
		case a>>63 != 0:
			return nanF64
		case math.IsInf(x, 1):
			return 0
		}
		s := rsqrtApproxF64(math.Float64bits(x * 0x1p54))
		return math.Float64bits(math.Float64frombits(s) * 0x1p27)
	}
	x := math.Float64frombits(a)
	y := math.Float64frombits(rsqrtApproxFtz64(a))
	e := math.FMA(x, -(y * y), 1)
	c := math.FMA(e, 0.375, 0.5)
	return math.Float64bits(math.FMA(c, y*e, y))
}

// rsqrtApproxFtz64 is rsqrt.approx.ftz.f64 (MUFU.RSQ64H): the f32 table at
// the top 20 bits of the significand, truncated to the high word, as for
// rcpApproxFtz64.
func rsqrtApproxFtz64(a uint64) uint64 {
	a &^= 0xffffffff
	e := int64(a >> 52 & 0x7ff)
	switch {
	case isNaN64(a):
		return 0x7fffffff00000000
	case e == 0:
		return a&(1<<63) | 0x7ff0000000000000
	case a>>63 != 0:
		return 0x7fffffff00000000
	case e == 0x7ff:
		return 0
	}
	mant := uint32(a>>32) & 0xfffff << 3
	ue := e - 1023
	p := ue & 1
	x := math.Ldexp(1+float64(mant)*0x1p-23, int(p))
	ref := math.Float32bits(float32(1 / math.Sqrt(x)))
	t := uint32(int32(ref) + rsqrtTable.delta(int(p)<<23|int(mant)))
	de := int64(t>>23&0xff) - 127 - (ue-p)/2 + 1023
	return uint64(de)<<52 | uint64(t&0x7fffff>>3)<<32
}

func registerSfu() {
	regBits("__nv_rcp64h", "d", "d", func(a []uint64) uint64 { return rcpApproxFtz64(a[0]) })
	regBits("__nv_rsqrt", "d", "d", func(a []uint64) uint64 { return rsqrtApproxF64(a[0]) })
}
