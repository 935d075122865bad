// Package tensor is the semantics of the tensor-core instructions: the
// fragment layouts of mma.sync, ldmatrix, stmatrix and movmatrix, and the
// arithmetic of one matrix multiply-accumulate as the H100 computes it
// (measured: docs/tensor-cores.md). It works on the register values of one
// warp's 32 lanes; the engine gathers and scatters them.
package tensor

import (
	"fmt"
	"math"
	"math/bits"
	"sync"
)

// MMA is one mma.sync shape and type combination.
type MMA struct {
	Name           string // the PTX instruction, e.g. mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
	M, N, K        int
	A, B, C, D     Elem
	Satfinite      bool
	BitAnd         bool // b1: and.popc (else xor.popc)
	NA, NB, NC, ND int  // registers per lane (an f64 register is one 64-bit register)
	model          Model
	fp8            bool // e4m3/e5m2: two f16 tensor-core steps and a rounded add of C
	// m884: m8n8k4 with f16 inputs (m884.go), four quad-pair products with
	// the A and B layouts aCol (A .col) and bRow (B .row).
	m884, aCol, bRow bool
	// Sparse: mma.sp (sparse.go): A is compressed to MxK/2 elements and a
	// metadata register (ExecMeta's e) places them; Sel is the sparsity
	// selector, spLanes the lanes per group of four that hold metadata.
	Sparse  bool
	Sel     int
	spLanes int
}

// supported lists the shapes and types simulated, as "shape.d.a.b.c".
var supported = map[string]bool{
	"m16n8k16.f32.f16.f16.f32": true, "m16n8k16.f16.f16.f16.f16": true,
	"m16n8k8.f32.f16.f16.f32": true, "m16n8k8.f16.f16.f16.f16": true,
	"m16n8k16.f32.bf16.bf16.f32": true, "m16n8k8.f32.bf16.bf16.f32": true,
	"m16n8k8.f32.tf32.tf32.f32": true, "m16n8k4.f32.tf32.tf32.f32": true,
	"m16n8k32.f32.e4m3.e4m3.f32": true, "m16n8k32.f32.e5m2.e5m2.f32": true,
	"m16n8k32.f32.e4m3.e5m2.f32": true, "m16n8k32.f32.e5m2.e4m3.f32": true,
	"m8n8k4.f64.f64.f64.f64": true,
	// sm_90's f64 shapes (PTX 7.8), e.g. Triton's float64 tl.dot for sm_90
	"m16n8k4.f64.f64.f64.f64": true, "m16n8k8.f64.f64.f64.f64": true, "m16n8k16.f64.f64.f64.f64": true,
	// PTX 8.7's fp8 forms (sm_89+): m16n8k16, and f16 accumulators
	"m16n8k16.f32.e4m3.e4m3.f32": true, "m16n8k16.f32.e5m2.e5m2.f32": true,
	"m16n8k16.f32.e4m3.e5m2.f32": true, "m16n8k16.f32.e5m2.e4m3.f32": true,
	"m16n8k16.f16.e4m3.e4m3.f16": true, "m16n8k16.f16.e5m2.e5m2.f16": true,
	"m16n8k16.f16.e4m3.e5m2.f16": true, "m16n8k16.f16.e5m2.e4m3.f16": true,
	"m16n8k32.f16.e4m3.e4m3.f16": true, "m16n8k32.f16.e5m2.e5m2.f16": true,
	"m16n8k32.f16.e4m3.e5m2.f16": true, "m16n8k32.f16.e5m2.e4m3.f16": true,
	"m16n8k32.s32.s8.s8.s32": true, "m16n8k32.s32.u8.u8.s32": true, "m16n8k32.s32.s8.u8.s32": true, "m16n8k32.s32.u8.s8.s32": true,
	"m16n8k16.s32.s8.s8.s32": true, "m16n8k16.s32.u8.u8.s32": true, "m16n8k16.s32.s8.u8.s32": true, "m16n8k16.s32.u8.s8.s32": true,
	"m8n8k16.s32.s8.s8.s32": true, "m8n8k16.s32.u8.u8.s32": true, "m8n8k16.s32.s8.u8.s32": true, "m8n8k16.s32.u8.s8.s32": true,
	"m16n8k64.s32.s4.s4.s32": true, "m16n8k64.s32.u4.u4.s32": true, "m16n8k64.s32.s4.u4.s32": true, "m16n8k64.s32.u4.s4.s32": true,
	"m16n8k32.s32.s4.s4.s32": true, "m16n8k32.s32.u4.u4.s32": true, "m16n8k32.s32.s4.u4.s32": true, "m16n8k32.s32.u4.s4.s32": true,
	"m8n8k32.s32.s4.s4.s32": true, "m8n8k32.s32.u4.u4.s32": true, "m8n8k32.s32.s4.u4.s32": true, "m8n8k32.s32.u4.s4.s32": true,
	"m16n8k256.s32.b1.b1.s32": true, "m16n8k128.s32.b1.b1.s32": true, "m8n8k128.s32.b1.b1.s32": true,
}

// NewMMA describes mma.sync.aligned.<shape>.<alayout>.<blayout>[.satfinite].<d>.<a>.<b>.<c>[.<bitop>.popc].
// Anything not simulated yet is an error naming the instruction.
func NewMMA(shape, alayout, blayout string, d, a, b, c Elem, satfinite bool, bitop string) (*MMA, error) {
	name := "mma.sync.aligned." + shape + "." + alayout + "." + blayout
	if satfinite {
		name += ".satfinite"
	}
	name += "." + d.String() + "." + a.String() + "." + b.String() + "." + c.String()
	if bitop != "" {
		name += "." + bitop + ".popc"
	}
	m := &MMA{Name: name, A: a, B: b, C: c, D: d, Satfinite: satfinite, BitAnd: bitop == "and"}
	if shape == "m8n8k4" && a == F16 {
		return newM884(m, alayout, blayout)
	}
	if alayout != "row" || blayout != "col" {
		// the PTX ISA has other layouts only for m8n8k4 with f16 inputs
		return nil, fmt.Errorf("%s is not a valid mma.sync (this shape and type take only .row.col)", name)
	}
	key := shape + "." + d.String() + "." + a.String() + "." + b.String() + "." + c.String()
	if !supported[key] {
		return nil, fmt.Errorf("%s is not supported yet", name)
	}
	if (a == B1) != (bitop != "") || (satfinite && d != S32) {
		return nil, fmt.Errorf("%s is not a valid mma.sync", name)
	}
	if _, err := fmt.Sscanf(shape, "m%dn%dk%d", &m.M, &m.N, &m.K); err != nil {
		return nil, fmt.Errorf("%s: bad shape %s", name, shape)
	}
	regs := func(rows, cols int, e Elem) int {
		if e == F64 {
			return rows * cols / 32
		}
		return rows * cols * e.Bits() / 32 / 32
	}
	m.NA, m.NB, m.NC, m.ND = regs(m.M, m.K, a), regs(m.K, m.N, b), regs(m.M, m.N, c), regs(m.M, m.N, d)
	out := fmtF32
	rne := false
	if d == F16 {
		out, rne = fmtF16, true
	}
	m.model = Model{Group: m.K, Frac: 25, RNE: rne, Out: out, AlignExp: true}
	if a == E4M3 || a == E5M2 {
		m.fp8 = true
		m.model.Group = 16
	}
	return m, nil
}

// Regs holds one fragment of a warp: Regs[lane][i] is the lane's register i
// (a 32-bit register's value in the low 32 bits; up to 8 registers).
type Regs [32][8]uint64

// Exec runs the instruction for one warp: a[lane][reg] … are register
// values (the low 32 bits of 32-bit registers); d receives the results.
// Every lane's registers are read, as the hardware does (mma.sync is
// executed by the whole warp).
func (m *MMA) Exec(a, b, c, d *Regs) { m.ExecMeta(a, b, c, d, nil) }

// ExecMeta is Exec with the metadata register of a sparse MMA (e[lane]; nil
// for a dense one).
func (m *MMA) ExecMeta(a, b, c, d *Regs, e *[32]uint64) {
	switch {
	case m.Sparse:
		m.execSparse(a, b, c, d, e)
	case m.m884:
		m.execM884(a, b, c, d)
	case m.A == F64:
		m.execF64(a, b, c, d)
	case m.A.IsFloat():
		m.execFloat(a, b, c, d)
	default:
		m.execInt(a, b, c, d)
	}
}

// elem extracts element (row, col) of a matrix held in registers, by
// searching the layout; layouts are small so the tables are built once.
type pos struct{ lane, reg, sub uint8 }

func (m *MMA) aAt(i, k int) pos { return layoutA(m.M, m.K, m.A.Bits(), m.NA)[i*m.K+k] }
func (m *MMA) bAt(k, j int) pos { return layoutB(m.K, m.N, m.B.Bits(), m.NB)[k*m.N+j] }

func get(r *Regs, p pos, bitsPer int) uint64 {
	v := r[p.lane][p.reg]
	if bitsPer >= 32 {
		if bitsPer == 32 {
			return v & 0xffffffff
		}
		return v
	}
	return v >> (uint(p.sub) * uint(bitsPer)) & (1<<bitsPer - 1)
}

func (m *MMA) execFloat(a, b, c, d *Regs) {
	// A by row and B by column, so that each output's dot product reads
	// both in place; decoded again only when the registers differ from
	// the last ones this thread decoded (mmaOperands).
	op := mmaOperandsPool.Get().(*mmaOperands)
	defer mmaOperandsPool.Put(op)
	if op.m != m || op.a != *a || op.b != *b {
		op.m = nil // until the terms are whole
		la := layoutA(m.M, m.K, m.A.Bits(), m.NA)
		lb := layoutB(m.K, m.N, m.B.Bits(), m.NB)
		for i := 0; i < m.M; i++ {
			for k := 0; k < m.K; k++ {
				op.at[i][k] = decode(m.A, get(a, la[i*m.K+k], m.A.Bits()))
			}
		}
		for k := 0; k < m.K; k++ {
			for j := 0; j < m.N; j++ {
				op.bt[j][k] = decode(m.B, get(b, lb[k*m.N+j], m.B.Bits()))
			}
		}
		op.m, op.a, op.b = m, *a, *b
	}
	at, bt := &op.at, &op.bt
	cb, db := m.C.Bits(), m.D.Bits()
	for l := 0; l < 32; l++ {
		for e := 0; e < m.M*m.N/32; e++ {
			i, j := cPos(m.M, l, e)
			cw := c[l][e*cb/32] & 0xffffffff
			if cb == 16 {
				cw = cw >> (16 * uint(e&1)) & 0xffff
			}
			ra, rb := at[i][:m.K], bt[j][:m.K]
			var r uint64
			if m.fp8 {
				r = m.dotFP8(ra, rb, cw)
			} else {
				r = m.model.dot(ra, rb, decode(m.C, cw))
			}
			dr := &d[l][e*db/32]
			if db == 16 {
				sh := 16 * uint(e&1)
				*dr = *dr&^(0xffff<<sh) | r<<sh
			} else {
				*dr = r
			}
		}
	}
}

// mmaOperands is a float MMA's decoded A (by row) and B (by column) and the
// registers and MMA they came from: the last ones decoded on this thread
// (the pool's), which the next call with the same registers reuses (a
// loop's MMAs on the same A and B). Only the rows and columns the MMA
// writes are read back.
type mmaOperands struct {
	m    *MMA
	a, b Regs
	at   [16][32]term
	bt   [8][32]term
}

var mmaOperandsPool = sync.Pool{New: func() any { return new(mmaOperands) }}

// dotFP8: the H100 runs an 8-bit-float mma.sync as two f16 tensor-core
// steps of K/2 products each (the products of k%4 in {0,1}, then those of
// k%4 in {2,3}, starting from +0; HMMA.16816 for m16n8k32, HMMA.1688 for
// m16n8k16, after F2FP conversions) and adds C with a float add rounded to
// nearest even (FADD for f32 accumulators, HADD2 for f16).
func (m *MMA) dotFP8(a, b []term, c uint64) uint64 {
	var p0a, p0b, p1a, p1b [16]term
	n0, n1 := 0, 0
	for k := range a {
		if k%4 < 2 {
			p0a[n0], p0b[n0] = asF16(a[k]), asF16(b[k])
			n0++
		} else {
			p1a[n1], p1b[n1] = asF16(a[k]), asF16(b[k])
			n1++
		}
	}
	s1 := m.model.step(p0a[:n0], p0b[:n0], term{mb: 23})
	s2 := m.model.step(p1a[:n1], p1b[:n1], decodeFmt(m.model.Out, s1))
	if m.D == F16 {
		return addF16(s2, c)
	}
	r := math.Float32frombits(uint32(s2)) + math.Float32frombits(uint32(c))
	if r != r {
		return canonNaN32
	}
	return uint64(math.Float32bits(r))
}

// asF16 is an 8-bit float as the f16 that F2FP.F16.E4M3/E5M2.UNPACK_B makes
// of it (exactly the same value): an e4m3 subnormal becomes an f16 normal
// number, whose exponent is what the f16 step aligns to (e5m2×e4m3: a
// product of the largest e5m2 and an e4m3 subnormal; testdata/tensor/wgmmatypes).
func asF16(t term) term {
	if t.nan || t.inf || t.mant == 0 {
		t.mb = 10
		return t
	}
	n := bits.Len64(t.mant)
	if e := int(t.exp) + n - 1; e >= -14 {
		t.mant <<= uint(11 - n)
		t.exp = int32(e - 10)
	} else {
		t.mant <<= uint(int(t.exp) + 24)
		t.exp = -24
	}
	t.mb = 10
	return t
}

// addF16 is an f16 add rounded to nearest even (HADD2): an exact zero sum is
// +0 unless both operands are -0; a NaN result is the canonical 0x7fff.
func addF16(x, y uint64) uint64 {
	a, b := decode(F16, x&0xffff), decode(F16, y&0xffff)
	switch {
	case a.nan || b.nan || a.inf && b.inf && a.neg != b.neg:
		return 0x7fff
	case a.inf:
		return x & 0xffff
	case b.inf:
		return y & 0xffff
	}
	// both finite: exact as multiples of 2^-24, the f16 subnormal unit
	v := func(t term) int64 {
		n := int64(t.mant << uint(t.exp+24))
		if t.neg {
			return -n
		}
		return n
	}
	s := v(a) + v(b)
	if s == 0 {
		if a.neg && b.neg {
			return 0x8000
		}
		return 0
	}
	neg := s < 0
	if neg {
		s = -s
	}
	return round(fmtF16, neg, uint64(s), -24, true, false)
}

func (m *MMA) execF64(a, b, c, d *Regs) {
	// Each element of D is one chain of fused multiply-adds in K order onto
	// C (measured for m8n8k4; the sm_90 shapes m16n8k4/8/16 run as that
	// chain over their whole K: testdata/triton4/dot_f64's sm_90 matmul).
	// Layouts (PTX ISA, "Matrix Fragments for mma.m8n8k4 / mma.m16n8k*"
	// with .f64): A[i][k] in lane 4(i%8)+k%4, register i/8 + 2(k/4) (one
	// register, i/8 = k/4 = 0, for m8n8k4); B[k][j] in lane 4j+k%4,
	// register k/4; C/D as cPos.
	for l := 0; l < 32; l++ {
		for e := 0; e < m.ND; e++ {
			i, j := cPos(m.M, l, e)
			x := c[l][e]
			for k := 0; k < m.K; k++ {
				x = fma64(a[4*(i%8)+k%4][i/8+2*(k/4)], b[4*j+k%4][k/4], x)
			}
			d[l][e] = x
		}
	}
}

// fma64 is one IEEE fused multiply-add in f64, rounded to nearest even;
// a NaN operand gives the first NaN of (b, c, a), quieted (as measured:
// a NaN of B wins over the running sum, the running sum over a NaN of A),
// an invalid operation the H100's default NaN 0xfff8000000000000.
func fma64(a, b, c uint64) uint64 {
	for _, x := range [3]uint64{b, c, a} {
		if x&0x7ff0000000000000 == 0x7ff0000000000000 && x&0xfffffffffffff != 0 {
			return x | 1<<51
		}
	}
	r := math.FMA(math.Float64frombits(a), math.Float64frombits(b), math.Float64frombits(c))
	if r != r {
		return 0xfff8000000000000
	}
	return math.Float64bits(r)
}

func (m *MMA) execInt(a, b, c, d *Regs) {
	la := layoutA(m.M, m.K, m.A.Bits(), m.NA)
	lb := layoutB(m.K, m.N, m.B.Bits(), m.NB)
	ab, bb := m.A.Bits(), m.B.Bits()
	val := func(e Elem, v uint64) int64 {
		switch e {
		case S8:
			return int64(int8(v))
		case S4:
			return int64(v<<60) >> 60
		}
		return int64(v)
	}
	for l := 0; l < 32; l++ {
		for e := 0; e < m.M*m.N/32; e++ {
			i, j := cPos(m.M, l, e)
			acc := int64(int32(uint32(c[l][e])))
			if m.A == B1 {
				// 32-bit words of the row of A and the column of B
				var cnt int64
				for k := 0; k < m.K; k++ {
					x := get(a, la[i*m.K+k], 1)
					y := get(b, lb[k*m.N+j], 1)
					if m.BitAnd {
						cnt += int64(x & y)
					} else {
						cnt += int64(x ^ y)
					}
				}
				acc += cnt
			} else {
				for k := 0; k < m.K; k++ {
					acc += val(m.A, get(a, la[i*m.K+k], ab)) * val(m.B, get(b, lb[k*m.N+j], bb))
				}
			}
			if m.Satfinite {
				if acc > math.MaxInt32 {
					acc = math.MaxInt32
				} else if acc < math.MinInt32 {
					acc = math.MinInt32
				}
			}
			d[l][e] = uint64(uint32(acc))
		}
	}
}
