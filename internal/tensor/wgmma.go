package tensor

import (
	"fmt"
	"math"
	"math/bits"
	"sync"
)

// WGMMA is one wgmma.mma_async shape and type combination (m64nNkK). A
// warpgroup is four warps; warp w of the group owns rows 16w…16w+15 of D, so
// each warp's share can be computed on its own.
type WGMMA struct {
	Name    string
	N, K    int
	D, A, B Elem
	ARegs   bool // A from registers (else a shared-memory descriptor)
	NRegsD  int  // D registers per lane
	NRegsA  int  // A registers per lane when ARegs
	// Satfinite clamps an integer sum to the int32 range (else it wraps).
	Satfinite bool
	model     Model
}

// NewWGMMA describes wgmma.mma_async.sync.aligned.<shape>.<d>.<a>.<b>.
func NewWGMMA(shape string, d, a, b Elem, aRegs bool) (*WGMMA, error) {
	return NewWGMMAInt(shape, d, a, b, aRegs, false, "")
}

// NewWGMMAInt is NewWGMMA with the integer forms' modifiers:
// wgmma.mma_async.sync.aligned.<shape>[.satfinite].s32.<s8|u8>.<s8|u8>, and
// <shape>.s32.b1.b1.<bitop>.popc (bitop "and", the only one sm_90a has).
func NewWGMMAInt(shape string, d, a, b Elem, aRegs, satfinite bool, bitop string) (*WGMMA, error) {
	sat := ""
	if satfinite {
		sat = ".satfinite"
	}
	name := fmt.Sprintf("wgmma.mma_async.sync.aligned.%s%s.%s.%s.%s", shape, sat, d, a, b)
	if bitop != "" {
		name += "." + bitop + ".popc"
	}
	g := &WGMMA{Name: name, D: d, A: a, B: b, ARegs: aRegs, Satfinite: satfinite}
	var M int
	if _, err := fmt.Sscanf(shape, "m%dn%dk%d", &M, &g.N, &g.K); err != nil || M != 64 || g.N < 8 || g.N > 256 || g.N%8 != 0 {
		return nil, fmt.Errorf("%s is not supported yet", name)
	}
	isInt := a == S8 || a == U8 || a == B1
	if isInt || satfinite || bitop != "" || d == S32 {
		switch {
		case d != S32 || (a == B1) != (b == B1) || !isInt || b != S8 && b != U8 && b != B1:
			return nil, fmt.Errorf("%s is not a valid wgmma", name)
		case a == B1 && (bitop != "and" || satfinite || g.K != 256):
			return nil, fmt.Errorf("%s is not a valid wgmma (b1 takes m64nNk256 and .and.popc)", name)
		case a != B1 && (bitop != "" || g.K != 32):
			return nil, fmt.Errorf("%s is not a valid wgmma (s8/u8 take m64nNk32)", name)
		case a == B1 && aRegs:
			return nil, fmt.Errorf("%s is not supported yet (b1 A from registers)", name)
		}
		g.NRegsD = g.N / 2
		g.NRegsA = 4
		return g, nil
	}
	wantK := map[Elem]int{F16: 16, BF16: 16, TF32: 8, E4M3: 32, E5M2: 32}[a]
	okD := d == F32 || (d == F16 && (a == F16 || a == E4M3 || a == E5M2))
	if wantK == 0 || g.K != wantK || !okD || (a == F16 || a == BF16 || a == TF32) && b != a {
		return nil, fmt.Errorf("%s is not supported yet", name)
	}
	g.NRegsD = g.N / 2
	out, rne := fmtF32, false
	if d == F16 {
		g.NRegsD, out, rne = g.N/4, fmtF16, true
	}
	g.NRegsA = 16 * g.K * a.Bits() / 32 / 32
	g.model = Model{Group: g.K, Frac: 25, RNE: rne, Out: out, AlignExp: true}
	if a == E4M3 || a == E5M2 {
		// measured on Triton's fp8 matmuls: 13 fraction bits below the
		// largest exponent, and the f32 result truncated to 13 fraction bits;
		// with f16 accumulators the same sum rounded to f16 to nearest even
		// (testdata/tensor/wgmmatypes)
		g.model.Frac = 13
		if d == F32 {
			g.model.OutFrac = 13
		}
	}
	return g, nil
}

// DPos is the row (within the warp's 16) and column of D element i of a lane
// (two per register for f16).
func (g *WGMMA) DPos(lane, i int) (int, int) {
	gid, t := lane>>2, lane&3
	return gid + 8*((i>>1)&1), 8*(i>>2) + 2*t + i&1
}

// ElemBytes is the size of the unit aAt and bAt address: an element, or a
// byte of 8 b1 elements.
func (g *WGMMA) ElemBytes() int {
	if g.A == B1 {
		return 1
	}
	return g.A.Bits() / 8
}

// Exec computes warp w's 16 rows: d[lane][reg] holds the accumulator in and
// out; aAt(m, k) and bAt(k, n) return raw elements (m within 0…63; b1: k is
// a byte index, each byte 8 elements). scaleD false ignores the accumulator;
// negA/negB negate the inputs.
func (g *WGMMA) Exec(w int, d *[32][128]uint64, scaleD, negA, negB bool, aAt func(m, k int) uint64, bAt func(k, n int) uint64) {
	if g.D == S32 {
		g.execInt(w, d, scaleD, aAt, bAt)
		return
	}
	// B is held column by column (column n's K terms at bt[n*K:]), so
	// that each output's dot product reads its row of A and column of B in
	// place.
	sc := wgmmaScratchPool.Get().(*wgmmaScratch)
	defer wgmmaScratchPool.Put(sc)
	K, N := g.K, g.N
	bt := sc.bt[:N*K]
	// Zero elements (memory never written) are common: decoded once.
	zeroB, zeroA := decode(g.B, 0), decode(g.A, 0)
	for k := 0; k < K; k++ {
		for n := 0; n < N; n++ {
			t := zeroB
			if v := bAt(k, n); v != 0 {
				t = decode(g.B, v)
			}
			if negB {
				t.negate()
			}
			bt[n*K+k] = t
		}
	}
	A := sc.a[:16*K]
	zeros := false // a row of A or a column of B all zeros
	for r := 0; r < 16; r++ {
		for k := 0; k < K; k++ {
			t := zeroA
			if v := aAt(16*w+r, k); v != 0 {
				t = decode(g.A, v)
			}
			if negA {
				t.negate()
			}
			A[r*K+k] = t
		}
		sc.as[r] = summarize(A[r*K : r*K+K])
		zeros = zeros || sc.as[r].zero
	}
	for n := 0; n < N; n++ {
		sc.bs[n] = summarize(bt[n*K : n*K+K])
		zeros = zeros || sc.bs[n].zero
	}
	per := 1
	if g.D == F16 {
		per = 2
	}
	for l := 0; l < 32; l++ {
		for i := 0; i < g.NRegsD*per; i++ {
			r, c := g.DPos(l, i)
			reg := i / per
			sh := uint(16 * (i % per))
			cv := d[l][reg]
			var acc term
			if g.D == F16 {
				acc = decode(F16, cv>>sh&0xffff)
			} else {
				acc = decode(F32, cv&0xffffffff)
			}
			if !scaleD {
				acc = term{mb: acc.mb}
			}
			var v uint64
			if sa, sb := &sc.as[r], &sc.bs[c]; zeros && zeroProducts(sa, sb) {
				v = g.model.dotZeros(K, sa.neg^sb.neg, acc)
			} else {
				v = g.model.dot(A[r*K:r*K+K], bt[c*K:c*K+K], acc)
			}
			if g.D == F16 {
				d[l][reg] = d[l][reg]&^(0xffff<<sh) | v<<sh
			} else {
				d[l][reg] = v
			}
		}
	}
}

// wgmmaScratch holds a floating-point Exec's operands (their decoded
// terms and summaries): 203 KB, too large to clear or
// allocate on every call, and WGMMAs run on several goroutines at once (the
// functional driver's workers).
type wgmmaScratch struct {
	bt [256 * 32]term
	a  [16 * 32]term
	as [16]termsSummary  // of A's rows
	bs [256]termsSummary // of B's columns
}

var wgmmaScratchPool = sync.Pool{New: func() any { return new(wgmmaScratch) }}

// APos is the (row within the warp's 16, k) of element sub of register reg
// of an A fragment held in registers: the mma.m16n8k16 A layout (tf32: m16n8k8).
func (g *WGMMA) APos(lane, reg, sub int) (int, int) {
	return aPos(16, g.K, g.A.Bits(), g.NRegsA, lane, reg, sub)
}

// DescAddr is the shared-memory byte address of element (mn, k) of a
// K-major (trans false) or MN-major operand described by a wgmma matrix
// descriptor, with the descriptor's swizzle applied (and its matrix base
// offset, bits 49-51, which shifts the swizzle pattern's rows).
func DescAddr(desc uint64, mn, k, elemBytes int, trans bool) uint64 {
	start := (desc & 0x3fff) << 4
	lbo := (desc >> 16 & 0x3fff) << 4
	sbo := (desc >> 32 & 0x3fff) << 4
	mode := desc >> 62
	width := [4]uint64{16, 128, 64, 32}[mode] // a swizzle mode's row width in bytes
	var off uint64
	if !trans { // K-major: rows along MN, K contiguous
		kb := uint64(k * elemBytes)
		if mode == 0 {
			off = uint64(mn%8)*16 + uint64(mn/8)*sbo + kb%16 + kb/16*lbo
		} else {
			off = uint64(mn%8)*width + uint64(mn/8)*sbo + kb
		}
	} else { // MN-major: MN contiguous
		mb := uint64(mn * elemBytes)
		if mode == 0 {
			off = mb%16 + mb/16*sbo + uint64(k%8)*16 + uint64(k/8)*lbo
		} else {
			off = mb%width + mb/width*lbo + uint64(k%8)*width + uint64(k/8)*sbo
		}
	}
	a := start + off
	// The XOR takes the address's 128-byte row (bits 7-9) less the
	// descriptor's matrix base offset (bits 49-51): the row of the swizzle
	// pattern the address is in when the pattern starts base-offset rows
	// before a repeat boundary (testdata/tensor/mma884's bo_* recordings).
	ph := a>>7 - desc>>49&7
	switch mode {
	case 1:
		a ^= (ph & 7) << 4
	case 2:
		a ^= (ph & 3) << 4
	case 3:
		a ^= (ph & 1) << 4
	}
	return a
}

// execInt: exact integer sums (s8/u8 products, or popcounts of a AND b for
// b1) added to the accumulator with 32-bit wrap-around, or clamped with
// .satfinite; measured on the H100 (wgmma_int_probe.cu).
func (g *WGMMA) execInt(w int, d *[32][128]uint64, scaleD bool, aAt func(m, k int) uint64, bAt func(k, n int) uint64) {
	kn := g.K
	if g.A == B1 {
		kn = g.K / 8
	}
	var A [16][32]int64
	var Bt [256][32]int64 // by column, as A is by row: each sum reads both in place
	for r := 0; r < 16; r++ {
		for k := 0; k < kn; k++ {
			A[r][k] = intVal(g.A, aAt(16*w+r, k))
		}
	}
	for k := 0; k < kn; k++ {
		for n := 0; n < g.N; n++ {
			Bt[n][k] = intVal(g.B, bAt(k, n))
		}
	}
	for l := 0; l < 32; l++ {
		for i := 0; i < g.NRegsD; i++ {
			r, c := g.DPos(l, i)
			var acc int64
			if scaleD {
				acc = int64(int32(uint32(d[l][i])))
			}
			a, b := A[r][:kn], Bt[c][:kn]
			if g.A == B1 {
				for k, x := range a {
					acc += int64(bits.OnesCount8(uint8(x & b[k])))
				}
			} else {
				for k, x := range a {
					acc += x * b[k]
				}
			}
			if g.Satfinite {
				acc = max(min(acc, math.MaxInt32), math.MinInt32)
			}
			d[l][i] = uint64(uint32(acc))
		}
	}
}
