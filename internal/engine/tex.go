package engine

import (
	"encoding/binary"
	"math"

	"github.com/warpsim/warpsim/internal/ir"
	"github.com/warpsim/warpsim/internal/scalar"
	"github.com/warpsim/warpsim/ptx/ptxtype"
)

// Texture and surface objects. A handle is the device address of a
// 128-byte descriptor the runtime (cuda/shim/warpsim_rt_tex.c) writes into
// an allocation of its own when the program creates the object; the
// engine reads it at each fetch, so the engine keeps no table and a
// destroyed object's handle faults. The descriptor's layout, little
// endian (keep in step with struct warpsim_texdesc there):
//
//	0 magic, 4 resource type (0 array, 2 linear, 3 pitch2D), 8 base address,
//	16 row pitch, 24 slice pitch (bytes from one layer or depth slice to the next),
//	32 width, 36 height, 40 depth, 44 layers (0 unless layered; 6 per cubemap),
//	48 array flags, 52 channels, 56 bits per channel, 60 channel kind (0 signed,
//	1 unsigned, 2 float), 64 element bytes, 68 address modes [3], 80 filter mode,
//	84 read mode, 88 normalized coordinates, 92 sRGB, 96 border color [4] (bits),
//	112 size in bytes (linear resources).
const (
	texMagic      = 0x58455457 // "WTEX"
	surfMagic     = 0x46525357 // "WSRF"
	texDescBytes  = 128
	resArray      = 0
	resLinear     = 2
	resPitch2D    = 3
	addrWrap      = 0
	addrClamp     = 1
	addrMirror    = 2
	addrBorder    = 3
	chanSigned    = 0
	chanUnsigned  = 1
	chanFloat     = 2
	arrayCubemap  = 4
	texWeightOne  = 256 // linear filtering weights: 9-bit fixed point, 8 fraction bits
	texMaxTexel64 = 16  // the widest texel: four 32-bit channels
)

// texDesc is a decoded descriptor.
type texDesc struct {
	handle                       uint64
	res                          uint32
	base, pitch, slice, size     uint64
	width, height, depth, layers int
	flags                        uint32
	nchan, bits, kind, elem      int
	addr                         [3]uint8
	linear, normRead, normCoords bool
	border                       [4]uint32
}

// texDescAt reads and checks the descriptor of handle for lane; it faults
// when the handle names no live object of the wanted kind.
func (wp *warp) texDescAt(pc, lane int, h uint64, surface bool, d *texDesc) bool {
	what, magic := "texture", uint32(texMagic)
	if surface {
		what, magic = "surface", surfMagic
	}
	var b []byte
	if a, ok := findAlloc(wp.w.l.allocs, h, texDescBytes); ok {
		b = a.Data[h-a.Base : h-a.Base+texDescBytes]
	}
	if b == nil || binary.LittleEndian.Uint32(b) != magic {
		wp.fault(FaultIllegal, pc, lane, h, true, "%#x is not a live %s object (never created, or destroyed)", h, what)
		return false
	}
	u32 := func(off int) uint32 { return binary.LittleEndian.Uint32(b[off:]) }
	u64 := func(off int) uint64 { return binary.LittleEndian.Uint64(b[off:]) }
	*d = texDesc{
		handle: h, res: u32(4), base: u64(8), pitch: u64(16), slice: u64(24), size: u64(112),
		width: int(u32(32)), height: int(u32(36)), depth: int(u32(40)), layers: int(u32(44)),
		flags: u32(48), nchan: int(u32(52)), bits: int(u32(56)), kind: int(u32(60)), elem: int(u32(64)),
		addr:   [3]uint8{uint8(u32(68)), uint8(u32(72)), uint8(u32(76))},
		linear: u32(80) == 1, normRead: u32(84) == 1, normCoords: u32(88) != 0,
		border: [4]uint32{u32(96), u32(100), u32(104), u32(108)},
	}
	// The program can overwrite the descriptor: check what indexing
	// relies on.
	if d.nchan < 1 || d.nchan > 4 || (d.bits != 8 && d.bits != 16 && d.bits != 32) || d.elem != d.nchan*d.bits/8 ||
		d.elem > texMaxTexel64 || (d.res != resLinear && (d.width < 1 || d.height < 0 || d.depth < 0 || d.layers < 0)) {
		wp.fault(FaultIllegal, pc, lane, h, true, "%s object %#x has a corrupt descriptor", what, h)
		return false
	}
	if d.height < 1 {
		d.height = 1
	}
	if d.depth < 1 {
		d.depth = 1
	}
	return true
}

// borderRaw is the border color stored as a texel of the texture's
// format, as the H100 returns it: for integer element reads the color's
// bits cut to the channel's width, for normalized reads the color
// converted to the format (truncated), for float formats the color.
func (d *texDesc) borderRaw() (raw [4]uint64) {
	cb := d.bits / 8
	for c := 0; c < d.nchan; c++ {
		bits := d.border[c]
		switch {
		case d.kind == chanFloat && cb == 2:
			raw[c] = uint64(scalar.F32ToF16(bits, scalar.RN, false, false))
		case d.kind == chanFloat || !d.normRead || cb == 4:
			raw[c] = uint64(bits)
		default:
			f := float64(math.Float32frombits(bits))
			max := float64(uint64(1)<<(8*cb) - 1)
			lo := 0.0
			if d.kind == chanSigned {
				max = float64(uint64(1)<<(8*cb-1) - 1)
				lo = -max
			}
			v := math.Trunc(f * max)
			if v != v {
				v = 0
			}
			v = math.Max(lo, math.Min(max, v))
			raw[c] = uint64(int64(v))
		}
		if cb < 4 {
			raw[c] &= uint64(1)<<(8*cb) - 1
		}
	}
	return raw
}

// borderTexel is the border color as a fetch returns it.
func (d *texDesc) borderTexel() texel {
	raw := d.borderRaw()
	var t texel
	for c := 0; c < d.nchan; c++ {
		t[c] = convertChannel(raw[c], d.bits/8, d.kind, d.normRead)
	}
	return t
}

// texel is one texel's channels as a fetch returns them: float bits for
// float formats and normalized reads, 32-bit integers for element reads.
type texel [4]uint32

// texelAt reads texel (i, j, k) of d (k: depth slice or layer) for lane,
// converted as the read mode says; it notes the access for the counters.
// ok is false after a fault.
func (wp *warp) texelAt(pc, lane int, d *texDesc, i, j, k int, st *memStats) (t texel, ok bool) {
	raw, ok := wp.texelRaw(pc, lane, d, i, j, k, st)
	if !ok {
		return t, false
	}
	for c := 0; c < d.nchan; c++ {
		t[c] = convertChannel(raw[c], d.bits/8, d.kind, d.normRead)
	}
	return t, true
}

// texelRaw reads the channels of texel (i, j, k) as stored.
func (wp *warp) texelRaw(pc, lane int, d *texDesc, i, j, k int, st *memStats) (raw [4]uint64, ok bool) {
	addr := d.base + uint64(k)*d.slice + uint64(j)*d.pitch + uint64(i)*uint64(d.elem)
	n := uint64(d.elem)
	b, kind := wp.resolve(pc, ptxtype.SpaceGlobal, addr, n, lane)
	if b == nil {
		return raw, false
	}
	wp.noteAccess(st, kind, addr, n)
	cb := d.bits / 8
	for c := 0; c < d.nchan; c++ {
		switch cb {
		case 1:
			raw[c] = uint64(b[c])
		case 2:
			raw[c] = uint64(binary.LittleEndian.Uint16(b[2*c:]))
		default:
			raw[c] = uint64(binary.LittleEndian.Uint32(b[4*c:]))
		}
	}
	return raw, true
}

// convertChannel turns one channel's raw bits into what a fetch returns.
func convertChannel(raw uint64, bytes, kind int, norm bool) uint32 {
	switch kind {
	case chanFloat:
		if bytes == 2 {
			return math.Float32bits(float32(scalar.F16ToF64(uint16(raw))))
		}
		return uint32(raw)
	case chanSigned:
		v := int32(sext(raw, bytes))
		if norm && bytes < 4 {
			max := float32(int32(1)<<(8*bytes-1) - 1)
			f := float32(v) / max
			if f < -1 {
				f = -1
			}
			return math.Float32bits(f)
		}
		return uint32(v)
	}
	if norm && bytes < 4 {
		return math.Float32bits(float32(raw) / float32(uint64(1)<<(8*bytes)-1))
	}
	return uint32(raw)
}

// axis is where a coordinate falls on one axis of n texels.
type axis struct {
	i0, i1   int  // the texels (i1 = i0+1 before the address mode) after the address mode
	out0     bool // i0 is outside and the mode is border
	out1     bool
	w        int // the weight of i1 in 1/256 (linear filtering)
	linear   bool
	zeroFill bool // integer coordinates outside a linear resource: the fetch returns 0
}

// wrapIndex applies an address mode to texel index i on an axis of n
// texels; out reports a border texel.
func wrapIndex(i, n int, mode uint8) (idx int, out bool) {
	switch mode {
	case addrWrap:
		i %= n
		if i < 0 {
			i += n
		}
		return i, false
	case addrMirror:
		p := i % (2 * n)
		if p < 0 {
			p += 2 * n
		}
		if p >= n {
			p = 2*n - 1 - p
		}
		return p, false
	case addrBorder:
		return i, i < 0 || i >= n
	}
	if i < 0 {
		return 0, false
	}
	if i >= n {
		return n - 1, false
	}
	return i, false
}

// floorInt is floor(x) as an int, saturated far outside any texture.
func floorInt(x float32) int {
	f := math.Floor(float64(x))
	switch {
	case f < -(1 << 40):
		return -(1 << 40)
	case f > 1<<40:
		return 1 << 40
	case f != f:
		return 0
	}
	return int(f)
}

// texCoordFrac is the number of fraction bits of the fixed-point
// coordinates the texture unit computes with: a normalized coordinate is
// truncated to them before it is scaled by the texture's size, an
// unnormalized one is truncated likewise. Measured on an H100: with 0.2
// of 5 texels it selects texel 0 (testdata/textures: 11 to 25 bits fit),
// and simpleSurfaceWrite's rotation of a 512×512 texture matches the
// H100's image to 2 pixels of 262,144 with 18 to 21 bits (3,084 differ
// with 16, 1,640 with 17).
const texCoordFrac = 20

// toFixed truncates c to texCoordFrac fraction bits, saturating far
// outside any texture (NaN becomes 0).
func toFixed(c float32) int64 {
	f := math.Floor(float64(c) * (1 << texCoordFrac))
	switch {
	case f != f:
		return 0
	case f < -(1 << 60):
		return -(1 << 60)
	case f > 1<<60:
		return 1 << 60
	}
	return int64(f)
}

// mapAxis places float coordinate c on an axis of n texels.
func mapAxis(c float32, n int, norm, linear bool, mode uint8) axis {
	if !norm && (mode == addrWrap || mode == addrMirror) {
		mode = addrClamp // wrap and mirror need normalized coordinates; the GPU clamps
	}
	x := toFixed(c)
	if norm {
		x *= int64(n)
	}
	var a axis
	if !linear {
		a.i0, a.out0 = wrapIndex(int(x>>texCoordFrac), n, mode)
		return a
	}
	xb := x - 1<<(texCoordFrac-1)
	i := int(xb >> texCoordFrac)
	frac := xb & (1<<texCoordFrac - 1)
	a.linear = true
	// The weight: 9-bit fixed point, 8 fraction bits, rounded half up.
	a.w = int((frac + 1<<(texCoordFrac-9)) >> (texCoordFrac - 8))
	a.i0, a.out0 = wrapIndex(i, n, mode)
	a.i1, a.out1 = wrapIndex(i+1, n, mode)
	return a
}

// sample filters the texels around the mapped axes (ax; ay when dims > 1;
// az when dims > 2) of slice k (the layer or cubemap face; 0 otherwise)
// and returns the result.
func (wp *warp) sample(pc, lane int, d *texDesc, dims int, ax, ay, az *axis, k int, st *memStats) (texel, bool) {
	if !ax.linear {
		i, oi := ax.i0, ax.out0
		j, oj := 0, false
		z := k
		if dims > 1 {
			j, oj = ay.i0, ay.out0
		}
		if dims > 2 {
			z, oj = az.i0, oj || az.out0
		}
		if oi || oj {
			return d.borderTexel(), true
		}
		return wp.texelAt(pc, lane, d, i, j, z, st)
	}
	var w [8]int
	n := texWeights(dims, ax.w, ay.w, az.w, &w)
	unorm := d.normRead && d.kind != chanFloat
	// Normalized integers filter in 16-bit fixed point (normValue): the
	// weighted sum is rounded half up to 1/65535 (unsigned) or 1/32767
	// (signed).
	var num [4]int64
	var hi, lo [4]float64
	first := true
	for c := 0; c < n; c++ {
		if w[c] == 0 {
			continue
		}
		i, oi := ax.i0, ax.out0
		if c&1 != 0 {
			i, oi = ax.i1, ax.out1
		}
		j, oj := 0, false
		if dims > 1 {
			j, oj = ay.i0, ay.out0
			if c&2 != 0 {
				j, oj = ay.i1, ay.out1
			}
		}
		z, oz := k, false
		if dims > 2 {
			z, oz = az.i0, az.out0
			if c&4 != 0 {
				z, oz = az.i1, az.out1
			}
		}
		if unorm {
			var raw [4]uint64
			border := oi || oj || oz
			if !border {
				var ok bool
				if raw, ok = wp.texelRaw(pc, lane, d, i, j, z, st); !ok {
					return texel{}, false
				}
			}
			if border {
				raw = d.borderRaw()
			}
			for ch := 0; ch < d.nchan; ch++ {
				num[ch] += int64(w[c]) * normValue(raw[ch], d)
			}
			continue
		}
		var t texel
		if oi || oj || oz {
			t = d.borderTexel()
		} else {
			var ok bool
			if t, ok = wp.texelAt(pc, lane, d, i, j, z, st); !ok {
				return t, false
			}
		}
		for ch := 0; ch < d.nchan; ch++ {
			// A 9-bit weight times a 24-bit significand is exact in
			// float64; the sum is kept exact as a pair (hi, lo). (The
			// channels the format lacks read as +0, res's zeros.)
			p := float64(w[c]) * float64(math.Float32frombits(t[ch]))
			if first {
				hi[ch] = p // so that -0 stays -0
				continue
			}
			var e float64
			hi[ch], e = twoSum(hi[ch], p)
			lo[ch] += e
		}
		first = false
	}
	var res texel
	if unorm {
		full := int64(32767)
		if d.kind == chanUnsigned {
			full = 65535
		}
		den := int64(texWeightOne * 128)
		for ch := 0; ch < d.nchan; ch++ {
			q := floorDiv(2*num[ch]+den, 2*den) // rounded half up to 1/full
			res[ch] = math.Float32bits(float32(float64(q) / float64(full)))
		}
		return res, true
	}
	half := d.kind == chanFloat && d.bits == 16
	for ch := 0; ch < d.nchan; ch++ {
		h, l := hi[ch], lo[ch]
		if l != 0 {
			h, l = twoSum(h, l)
		}
		if l != l { // infinities: no error term
			h, l = hi[ch], 0
		}
		h, l = h/texWeightOne, l/texWeightOne
		if half {
			// Half floats filter in half precision.
			res[ch] = math.Float32bits(roundHalfTiesAway(h, l))
			continue
		}
		res[ch] = math.Float32bits(roundTiesAway(h, l))
	}
	return res, true
}

// normValue is a stored normalized integer in 16-bit fixed point with 7
// more fraction bits: 1.0 is 65535·128 (unsigned) or 32767·128 (signed).
// 8-bit values scale by 257 (unsigned) or 258.0078125 (signed) as the
// H100 does; a signed minimum reads as -1.
func normValue(raw uint64, d *texDesc) int64 {
	switch {
	case d.kind == chanUnsigned && d.bits == 8:
		return int64(raw) * 257 * 128
	case d.kind == chanUnsigned:
		return int64(raw) * 128
	}
	max := int64(1)<<(d.bits-1) - 1
	v := int64(sext(raw, d.bits/8))
	if v < -max {
		v = -max
	}
	if d.bits == 8 {
		return v * 33025
	}
	return v * 128
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// texWeights fills w with the integer weights (in 1/256, summing to 256)
// of the 2^dims texels of a linear fetch, corner c taking the upper texel
// on axis x when bit 0 of c is set, y bit 1, z bit 2; it returns 2^dims.
// The H100 rounds the products of the axis weights so that they still sum
// to 256: in 2D the weight of the far corner is rounded half up and the
// others are what remains of each axis's weight. In 3D it weighs x and z
// so, then splits each of those by y (rounding the lower share half up,
// the upper gets the rest); that matches the H100 in 97% of the recorded
// fetches (testdata/textures), the rest differ in a weight by 1/256. A 1D
// fetch is a 2D one at y = 0, which matters in border mode.
func texWeights(dims, a, b, c int, w *[8]int) int {
	switch dims {
	case 1:
		w[0], w[1] = texWeightOne-a, a
		return 2
	case 2:
		w11 := (a*b + texWeightOne/2) / texWeightOne
		w[0], w[1], w[2], w[3] = texWeightOne-a-b+w11, a-w11, b-w11, w11
		return 4
	}
	xz11 := (a*c + texWeightOne/2) / texWeightOne
	xz := [4]int{texWeightOne - a - c + xz11, a - xz11, c - xz11, xz11} // (x, z) = 00, 10, 01, 11
	for n, q := range xz {
		lower := (q*(texWeightOne-b) + texWeightOne/2) / texWeightOne
		x, z := n&1, n>>1
		w[x|z<<2] = lower
		w[x|2|z<<2] = q - lower
	}
	return 8
}

// roundHalfTiesAway rounds hi+lo to half precision (to nearest, ties
// away from zero) and returns it as a float32.
func roundHalfTiesAway(hi, lo float64) float32 {
	v := hi
	if lo != 0 {
		v += lo // (-0 + 0 would lose the sign)
	}
	if v != v || math.IsInf(v, 0) || v == 0 {
		return float32(v)
	}
	a := math.Abs(v)
	e := math.Floor(math.Log2(a))
	if e < -14 {
		e = -14 // subnormal halves: a fixed step of 2^-24
	}
	step := math.Exp2(e - 10)
	r := math.Floor(a/step+0.5) * step
	if r > 65504 {
		r = math.Inf(1)
	}
	return float32(math.Copysign(r, v))
}

// twoSum returns a+b and its rounding error (Knuth's TwoSum).
func twoSum(a, b float64) (s, e float64) {
	s = a + b
	bb := s - a
	e = (a - (s - bb)) + (b - bb)
	return s, e
}

// roundTiesAway rounds hi+lo (|lo| at most half an ulp of hi) to float32,
// to nearest with ties away from zero, as the texture unit's filter
// rounds.
//
// Most filtered values need no tie rule: with lo zero and hi in float32's
// normal range, Go's conversion (to nearest, ties to even) rounds the same
// way unless hi lies exactly halfway between two float32 values, which is
// when the 29 bits of its float64 significand that the conversion drops
// are 1 followed by zeros. A fetch at a texel's centre (one weight of 256)
// is such a value, and the texture samples fetch there (convolutionTexture);
// roundTiesAwayExact handles the rest.
func roundTiesAway(hi, lo float64) float32 {
	if lo == 0 {
		b := math.Float64bits(hi)
		e := int(b>>52) & 0x7ff
		if b&(1<<29-1) != 1<<28 && e >= 1023-126 && e <= 1023+126 || b<<1 == 0 {
			return float32(hi)
		}
	}
	return roundTiesAwayExact(hi, lo)
}

// roundTiesAwayExact is roundTiesAway for any hi and lo.
func roundTiesAwayExact(hi, lo float64) float32 {
	if hi != hi || math.IsInf(hi, 0) {
		return float32(hi)
	}
	neg := hi < 0 || hi == 0 && lo < 0
	if neg {
		hi, lo = -hi, -lo
	}
	r := float32(hi)
	d := hi - float64(r) // exact: how far rounding hi moved it
	up := math.Nextafter32(r, float32(math.Inf(1)))
	down := math.Nextafter32(r, 0)
	halfUp := (float64(up) - float64(r)) / 2
	halfDown := (float64(r) - float64(down)) / 2
	out := r
	switch {
	case d-halfUp == -lo || d+lo > halfUp: // at or past the midpoint above r: away from zero
		out = up
	case r > 0 && d+lo < -halfDown && d+halfDown != -lo: // below the midpoint under r
		out = down
	}
	if neg {
		out = -out
	}
	return out
}

// cubeFace picks the face a direction points at and the face's normalized
// coordinates, as the CUDA programming guide's cubemap table does.
func cubeFace(x, y, z float32) (face int, u, v float32) {
	ax, ay, az := abs32(x), abs32(y), abs32(z)
	var m, s, t float32
	// On a tie z wins over y and y over x, as on the H100.
	switch {
	case az >= ax && az >= ay:
		m = az
		if z >= 0 {
			face, s, t = 4, x, -y
		} else {
			face, s, t = 5, -x, -y
		}
	case ay >= ax:
		m = ay
		if y >= 0 {
			face, s, t = 2, x, z
		} else {
			face, s, t = 3, x, -z
		}
	default:
		m = ax
		if x >= 0 {
			face, s, t = 0, -z, -y
		} else {
			face, s, t = 1, z, -y
		}
	}
	u = (s/m + 1) * 0.5
	v = (t/m + 1) * 0.5
	return face, u, v
}

func abs32(f float32) float32 { return math.Float32frombits(math.Float32bits(f) &^ (1 << 31)) }

// texInst executes a texture or surface instruction.
func (wp *warp) texInst(pc int, in *ir.Inst, exec uint32) {
	if in.Op == ir.OpTex {
		wp.texFetch(pc, in, exec)
		return
	}
	wp.surface(pc, in, exec)
}

// texFetch executes tex and tld4 for the lanes exec.
func (wp *warp) texFetch(pc int, in *ir.Inst, exec uint32) {
	to := &wp.fn.TexOps[in.Imm]
	var st memStats
	var d texDesc
	have := false
	intCoords := in.Type2 == ptxtype.S32 || in.Type2 == ptxtype.U32
	for l := 0; l < 32; l++ {
		if exec>>l&1 == 0 {
			continue
		}
		h := wp.regs[int(to.Handle)*32+l]
		if !have || h != d.handle {
			if !wp.texDescAt(pc, l, h, false, &d) {
				return
			}
			have = true
		}
		// The coordinates as floats (integer ones converted), and the
		// first as an integer (a layer, or tex1Dfetch's index).
		var fc [4]float32
		first := int(int32(wp.regs[int(to.Coords[0])*32+l]))
		for i, s := range to.Coords {
			if s < 0 {
				break
			}
			v := wp.regs[int(s)*32+l]
			if intCoords {
				fc[i] = float32(int32(v))
			} else {
				fc[i] = math.Float32frombits(uint32(v))
			}
		}
		var t texel
		ok := true
		switch {
		case d.res == resLinear:
			// tex1Dfetch: integer indices, no address mode; outside the
			// buffer the fetch returns zeros.
			i := first
			if !intCoords {
				i = floorInt(fc[0])
			}
			n := int(d.size / uint64(d.elem))
			if i >= 0 && i < n {
				t, ok = wp.texelAt(pc, l, &d, i, 0, 0, &st)
			}
		default:
			t, ok = wp.texLookup(pc, l, in, to, &d, &fc, first, intCoords, &st)
		}
		if !ok {
			return
		}
		for v := 0; v < int(in.Vec); v++ {
			if in.D[v] >= 0 {
				wp.regs[int(in.D[v])*32+l] = uint64(t[v])
			}
		}
	}
	wp.flushStats(in, &st, false)
}

// texLookup fetches from an array or pitch2D resource.
func (wp *warp) texLookup(pc, l int, in *ir.Inst, to *ir.TexOperands, d *texDesc, fc *[4]float32, first int, intCoords bool, st *memStats) (texel, bool) {
	linear := d.linear && !intCoords
	norm := d.normCoords && !intCoords
	layer := -1
	layerIdx := func() int {
		n := d.layers
		if d.flags&arrayCubemap != 0 {
			n /= 6
		}
		// The layer is unsigned and clamped: a negative one is the last.
		if first < 0 || first >= n {
			return n - 1
		}
		return first
	}
	var x, y, z float32
	dims := 1
	switch in.Mode {
	case ir.Tex1D:
		x = fc[0]
	case ir.Tex2D:
		x, y, dims = fc[0], fc[1], 2
	case ir.Tex3D:
		x, y, z, dims = fc[0], fc[1], fc[2], 3
	case ir.TexA1D:
		layer = layerIdx()
		x = fc[1]
	case ir.TexA2D:
		layer = layerIdx()
		x, y, dims = fc[1], fc[2], 2
	case ir.TexCube, ir.TexACube:
		off := 0
		base := 0
		if in.Mode == ir.TexACube {
			off = 1
			base = 6 * layerIdx()
		}
		f, u, v := cubeFace(fc[off], fc[off+1], fc[off+2])
		layer = base + f
		x, y, dims, norm = u, v, 2, true
	}
	if to.Kind == ir.TexGather {
		return wp.gather(pc, l, d, x, y, norm, to.Comp, st)
	}
	ax := mapAxis(x, d.width, norm, linear, d.addr[0])
	var ay, az axis
	if dims > 1 {
		ay = mapAxis(y, d.height, norm, linear, d.addr[1])
	} else if linear && in.Mode == ir.Tex1D {
		// A 1D texture filters as a 2D one of height 1 at y = 0: half
		// the weight falls on row -1, the border in border mode. (Not
		// a 1D layered one.)
		ay = mapAxis(0, 1, false, true, d.addr[1])
		dims = 2
	}
	if dims > 2 {
		az = mapAxis(z, d.depth, norm, linear, d.addr[2])
	}
	k := 0
	if layer >= 0 {
		k = layer
	}
	return wp.sample(pc, l, d, dims, &ax, &ay, &az, k, st)
}

// gather returns component comp of the four texels bilinear filtering at
// (x, y) would weigh, in tld4's order: (i0,j1), (i1,j1), (i1,j0), (i0,j0).
func (wp *warp) gather(pc, l int, d *texDesc, x, y float32, norm bool, comp uint8, st *memStats) (texel, bool) {
	ax := mapAxis(x, d.width, norm, true, d.addr[0])
	ay := mapAxis(y, d.height, norm, true, d.addr[1])
	pick := [4][2]int{{0, 1}, {1, 1}, {1, 0}, {0, 0}}
	var res texel
	for n, p := range pick {
		i, oi := ax.i0, ax.out0
		if p[0] == 1 {
			i, oi = ax.i1, ax.out1
		}
		j, oj := ay.i0, ay.out0
		if p[1] == 1 {
			j, oj = ay.i1, ay.out1
		}
		t := d.borderTexel()
		if !oi && !oj {
			var ok bool
			if t, ok = wp.texelAt(pc, l, d, i, j, 0, st); !ok {
				return res, false
			}
		}
		res[n] = t[comp]
	}
	return res, true
}

// surface executes suld.b and sust.b for the lanes exec. The x coordinate
// is in bytes; the boundary mode decides what an access outside the
// array does: trap faults (cudaErrorIllegalAddress, as on the GPU), clamp
// moves it to the nearest element, zero reads zeros and drops stores.
func (wp *warp) surface(pc int, in *ir.Inst, exec uint32) {
	to := &wp.fn.TexOps[in.Imm]
	store := in.Op == ir.OpSust
	size := ir.TypeSize(in.Type)
	n := size * int(in.Vec)
	var st memStats
	var d texDesc
	have := false
	if store {
		wp.stored = true
	}
	for l := 0; l < 32; l++ {
		if exec>>l&1 == 0 {
			continue
		}
		h := wp.regs[int(to.Handle)*32+l]
		if !have || h != d.handle {
			if !wp.texDescAt(pc, l, h, true, &d) {
				return
			}
			have = true
		}
		c := func(i int) int { return int(int32(wp.regs[int(to.Coords[i])*32+l])) }
		x, y, k := 0, 0, 0
		ny, nk := 1, 1
		switch in.Mode {
		case ir.Tex1D:
			x = c(0)
		case ir.Tex2D:
			x, y, ny = c(0), c(1), d.height
		case ir.Tex3D:
			x, y, k, ny, nk = c(0), c(1), c(2), d.height, d.depth
		case ir.TexA1D:
			k, x, nk = c(0), c(1), d.layers
		case ir.TexA2D:
			k, x, y, ny, nk = c(0), c(1), c(2), d.height, d.layers
		}
		rowBytes := d.width * d.elem
		inside := x >= 0 && x+n <= rowBytes && y >= 0 && y < ny && k >= 0 && k < nk
		if !inside {
			switch to.Boundary {
			case ir.SurfTrap:
				wp.fault(FaultOutOfBounds, pc, l, d.base, false,
					"surface access of %d bytes at (x %d bytes, y %d, layer or z %d) is outside the %d×%d×%d array of %d-byte elements (cudaBoundaryModeTrap)",
					n, x, y, k, d.width, ny, nk, d.elem)
				return
			case ir.SurfZero:
				if !store {
					for v := 0; v < int(in.Vec); v++ {
						if in.D[v] >= 0 {
							wp.regs[int(in.D[v])*32+l] = 0
						}
					}
				}
				continue
			}
			x = clampInt(x, 0, rowBytes-n)
			y = clampInt(y, 0, ny-1)
			k = clampInt(k, 0, nk-1)
		}
		addr := d.base + uint64(k)*d.slice + uint64(y)*d.pitch + uint64(x)
		b, kind := wp.resolve(pc, ptxtype.SpaceGlobal, addr, uint64(n), l)
		if b == nil {
			return
		}
		wp.noteAccess(&st, kind, addr, uint64(n))
		for v := 0; v < int(in.Vec); v++ {
			if store {
				storeLE(b[v*size:], size, wp.regs[int(to.Vals[v])*32+l])
			} else if in.D[v] >= 0 {
				wp.regs[int(in.D[v])*32+l] = loadLE(b[v*size:], size)
			}
		}
	}
	wp.flushStats(in, &st, store)
}

func clampInt(v, lo, hi int) int {
	if v < lo {
		return lo
	}
	if v > hi {
		return hi
	}
	return v
}
