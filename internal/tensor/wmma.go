package tensor

import (
	"fmt"
	"math"
	"sync"
)

// wmma fragments. The PTX ISA leaves the distribution of a wmma fragment's
// elements over the lanes unspecified; warpsim's is: lane l holds elements
// l*E … l*E+E-1 of the fragment's matrix in row-major order (E = rows*cols/32),
// packed into registers in order, and where the ISA gives a fragment more
// registers than that (f16 A and B: always 8) the registers repeat.

// Frag is the shape of one wmma fragment.
type Frag struct {
	Rows, Cols int
	Elem       Elem
	PerLane    int // distinct elements per lane
	Regs       int // registers per lane (64-bit registers for f64)
}

// WMMAFrag describes fragment kind ('a', 'b', 'c' or 'd') of shape ("m16n16k16") with element type e.
func WMMAFrag(kind byte, shape string, e Elem) (Frag, error) {
	var M, N, K int
	if _, err := fmt.Sscanf(shape, "m%dn%dk%d", &M, &N, &K); err != nil {
		return Frag{}, fmt.Errorf("bad wmma shape %s", shape)
	}
	if !wmmaShapeOK(shape, e, kind) {
		return Frag{}, fmt.Errorf("wmma .%s .%s fragments are not supported yet", shape, e)
	}
	f := Frag{Elem: e}
	switch kind {
	case 'a':
		f.Rows, f.Cols = M, K
	case 'b':
		f.Rows, f.Cols = K, N
	default:
		f.Rows, f.Cols = M, N
	}
	f.PerLane = f.Rows * f.Cols / 32
	if e == F64 {
		f.Regs = f.PerLane
	} else {
		f.Regs = f.PerLane * e.Bits() / 32
	}
	if e == F16 && (kind == 'a' || kind == 'b') {
		f.Regs = 8
	}
	return f, nil
}

func wmmaShapeOK(shape string, e Elem, kind byte) bool {
	switch shape {
	case "m16n16k16", "m32n8k16", "m8n32k16":
		switch e {
		case F16, F32, S32, S8, U8:
			return true
		case BF16:
			return kind == 'a' || kind == 'b'
		}
	case "m16n16k8":
		return e == TF32 || e == F32
	case "m8n8k4":
		return e == F64
	case "m8n8k32": // sub-byte: s4/u4 A and B, s32 C and D
		return e == S32 || (e == S4 || e == U4) && (kind == 'a' || kind == 'b')
	case "m8n8k128": // b1
		return e == S32 || e == B1 && (kind == 'a' || kind == 'b')
	}
	return false
}

// Pos is where element i of a lane's fragment sits in the matrix.
func (f Frag) Pos(lane, i int) (row, col int) {
	idx := lane*f.PerLane + i
	return idx / f.Cols, idx % f.Cols
}

// RegOf is the register and the element's position (in elements) in it.
func (f Frag) RegOf(i int) (reg, sub int) {
	if f.Elem == F64 {
		return i, 0
	}
	per := 32 / f.Elem.Bits()
	return i / per, i % per
}

// WMMA is one wmma.mma shape and type combination.
type WMMA struct {
	Name       string
	M, N, K    int
	A, B, C, D Elem
	Satfinite  bool
	BitAnd     bool // b1: .and.popc (else .xor.popc)
	FA, FB     Frag
	FC, FD     Frag
	model      Model
}

// NewWMMA describes wmma.mma.sync.aligned.<alayout>.<blayout>.<shape>.<types...>[.satfinite]:
// types are "dtype.ctype" for f16 inputs and "dtype.atype.btype.ctype" otherwise.
func NewWMMA(shape string, types []Elem, satfinite bool) (*WMMA, error) {
	return NewWMMAOp(shape, types, satfinite, "")
}

// NewWMMAOp is NewWMMA with b1's operation: wmma.mma.<bitop>.popc (bitop
// "xor" or "and"; "" for the other types).
func NewWMMAOp(shape string, types []Elem, satfinite bool, bitop string) (*WMMA, error) {
	w := &WMMA{Satfinite: satfinite, BitAnd: bitop == "and"}
	name := "wmma.mma"
	if bitop != "" {
		name += "." + bitop + ".popc"
	}
	name += ".sync.aligned." + shape
	for _, t := range types {
		name += "." + t.String()
	}
	w.Name = name
	switch len(types) {
	case 2:
		w.D, w.C, w.A, w.B = types[0], types[1], F16, F16
	case 4:
		w.D, w.A, w.B, w.C = types[0], types[1], types[2], types[3]
	default:
		return nil, fmt.Errorf("%s is not supported yet", name)
	}
	var err error
	if w.FA, err = WMMAFrag('a', shape, w.A); err != nil {
		return nil, fmt.Errorf("%s is not supported yet", name)
	}
	if w.FB, err = WMMAFrag('b', shape, w.B); err != nil {
		return nil, fmt.Errorf("%s is not supported yet", name)
	}
	if w.FC, err = WMMAFrag('c', shape, w.C); err != nil {
		return nil, fmt.Errorf("%s is not supported yet", name)
	}
	if w.FD, err = WMMAFrag('d', shape, w.D); err != nil {
		return nil, fmt.Errorf("%s is not supported yet", name)
	}
	w.M, w.N, w.K = w.FA.Rows, w.FB.Cols, w.FA.Cols
	if (w.A == B1) != (bitop != "") || w.A.Bits() < 8 && (w.B != w.A || satfinite && w.A == B1) {
		return nil, fmt.Errorf("%s is not a valid wmma.mma", name)
	}
	out, rne := fmtF32, false
	if w.D == F16 {
		out, rne = fmtF16, true
	}
	w.model = Model{Group: 16, Frac: 25, RNE: rne, Out: out, AlignExp: true}
	if w.A == TF32 {
		// measured: nvcc's wmma m16n16k8 tf32 runs as two k=4 steps
		// (mma.sync m16n8k8 tf32 is one step of 8)
		w.model.Group = 4
	}
	return w, nil
}

// Exec runs the warp's wmma.mma on fragment registers a[lane][reg] … (64-bit
// values, the low 32 bits significant for 32-bit registers).
func (w *WMMA) Exec(a, b, c, d *[32][8]uint64) {
	if w.A.Bits() < 8 {
		w.execSubByte(a, b, c, d)
		return
	}
	get := func(f Frag, r *[32][8]uint64, lane, i int) uint64 {
		reg, sub := f.RegOf(i)
		v := r[lane][reg]
		if f.Elem == F64 {
			return v
		}
		bits := f.Elem.Bits()
		if bits == 32 {
			return v & 0xffffffff
		}
		return v >> (uint(sub) * uint(bits)) & (1<<bits - 1)
	}
	// gather lays out the raw elements of A and B, row-major, up to 32x16
	// and 16x32.
	gather := func(A *[32][16]uint64, B *[16][32]uint64) {
		for l := 0; l < 32; l++ {
			for i := 0; i < w.FA.PerLane; i++ {
				r, c := w.FA.Pos(l, i)
				A[r][c] = get(w.FA, a, l, i)
			}
			for i := 0; i < w.FB.PerLane; i++ {
				r, c := w.FB.Pos(l, i)
				B[r][c] = get(w.FB, b, l, i)
			}
		}
	}
	put := func(l, i int, r uint64) {
		reg, sub := w.FD.RegOf(i)
		if w.D == F16 {
			sh := 16 * uint(sub)
			d[l][reg] = d[l][reg]&^(0xffff<<sh) | r<<sh
		} else {
			d[l][reg] = r
		}
	}
	if w.A.IsFloat() && w.A != F64 {
		// The float inputs' terms, decoded once each (B's by column), not
		// once for every output element that reads them; and not again
		// when the same fragments come back (a loop's MMAs on the same A
		// and B), since the terms are a function of the fragments' bits.
		op := wmmaOperandsPool.Get().(*wmmaOperands)
		defer wmmaOperandsPool.Put(op)
		if op.w != w || op.a != *a || op.b != *b {
			op.w = nil // until the terms are whole
			var A [32][16]uint64
			var B [16][32]uint64
			gather(&A, &B)
			for r := 0; r < w.M; r++ {
				for k := 0; k < w.K; k++ {
					op.at[r][k] = decode(w.A, A[r][k])
				}
			}
			for n := 0; n < w.N; n++ {
				for k := 0; k < w.K; k++ {
					op.bt[n][k] = decode(w.B, B[k][n])
				}
			}
			op.zeros = false
			for r := 0; r < w.M; r++ {
				op.as[r] = summarize(op.at[r][:w.K])
				op.zeros = op.zeros || op.as[r].zero
			}
			for n := 0; n < w.N; n++ {
				op.bs[n] = summarize(op.bt[n][:w.K])
				op.zeros = op.zeros || op.bs[n].zero
			}
			op.w, op.a, op.b = w, *a, *b
		}
		At, Bt := &op.at, &op.bt
		for l := 0; l < 32; l++ {
			for i := 0; i < w.FD.PerLane; i++ {
				row, col := w.FD.Pos(l, i)
				cv := get(w.FC, c, l, i)
				if sa, sb := &op.as[row], &op.bs[col]; op.zeros && zeroProducts(sa, sb) {
					put(l, i, w.model.dotZeros(w.K, sa.neg^sb.neg, decode(w.C, cv)))
				} else {
					put(l, i, w.model.dot(At[row][:w.K], Bt[col][:w.K], decode(w.C, cv)))
				}
			}
		}
		return
	}
	var A [32][16]uint64
	var B [16][32]uint64
	gather(&A, &B)
	for l := 0; l < 32; l++ {
		for i := 0; i < w.FD.PerLane; i++ {
			row, col := w.FD.Pos(l, i)
			cv := get(w.FC, c, l, i)
			var r uint64
			if w.A == F64 {
				r = cv
				for k := 0; k < w.K; k++ {
					r = fma64(A[row][k], B[k][col], r)
				}
			} else {
				acc := int64(int32(uint32(cv)))
				for k := 0; k < w.K; k++ {
					x, y := int64(A[row][k]), int64(B[k][col])
					if w.A == S8 {
						x = int64(int8(x))
					}
					if w.B == S8 {
						y = int64(int8(y))
					}
					acc += x * y
				}
				if w.Satfinite {
					acc = max(min(acc, math.MaxInt32), math.MinInt32)
				}
				r = uint64(uint32(acc))
			}
			put(l, i, r)
		}
	}
}

// wmmaOperands is a float WMMA's decoded A (by row) and B (by column) and
// the fragments and WMMA they came from: the last ones decoded on this
// thread (the pool's), which the next call with the same fragments reuses.
// Only the rows and columns the WMMA writes are read back.
type wmmaOperands struct {
	w      *WMMA
	a, b   [32][8]uint64
	at, bt [32][16]term
	as, bs [32]termsSummary // of at's rows and bt's
	zeros  bool             // a row of at or bt all zeros (zeroProducts)
}

var wmmaOperandsPool = sync.Pool{New: func() any { return new(wmmaOperands) }}

// execSubByte runs m8n8k32 (s4/u4) and m8n8k128 (b1): exact integer sums of
// the products (b1: the popcount of a XOR or AND b over K bits) added to C,
// wrapping, or clamped with .satfinite; measured on the H100
// (testdata/tensor/wgmmatypes: it runs them as IMMA.8816 and BMMA.88128.AND.POPC).
func (w *WMMA) execSubByte(a, b, c, d *[32][8]uint64) {
	var A [8][128]uint8
	var B [128][8]uint8
	bits := w.A.Bits()
	for l := 0; l < 32; l++ {
		for i := 0; i < w.FA.PerLane; i++ {
			reg, sub := w.FA.RegOf(i)
			r, k := w.FA.Pos(l, i)
			A[r][k] = uint8(a[l][reg] >> (uint(sub) * uint(bits)) & (1<<bits - 1))
		}
		for i := 0; i < w.FB.PerLane; i++ {
			reg, sub := w.FB.RegOf(i)
			k, n := w.FB.Pos(l, i)
			B[k][n] = uint8(b[l][reg] >> (uint(sub) * uint(bits)) & (1<<bits - 1))
		}
	}
	for l := 0; l < 32; l++ {
		for i := 0; i < w.FD.PerLane; i++ {
			row, col := w.FD.Pos(l, i)
			reg, _ := w.FC.RegOf(i)
			acc := int64(int32(uint32(c[l][reg])))
			for k := 0; k < w.K; k++ {
				x, y := A[row][k], B[k][col]
				switch {
				case w.A == B1 && w.BitAnd:
					acc += int64(x & y)
				case w.A == B1:
					acc += int64(x ^ y)
				default:
					acc += intVal(w.A, uint64(x)) * intVal(w.B, uint64(y))
				}
			}
			if w.Satfinite {
				acc = max(min(acc, math.MaxInt32), math.MinInt32)
			}
			dr, _ := w.FD.RegOf(i)
			d[l][dr] = uint64(uint32(acc))
		}
	}
}
