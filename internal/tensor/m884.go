package tensor

import (
	"fmt"
	"math"

	"github.com/warpsim/warpsim/internal/scalar"
)

// mma.sync.aligned.m8n8k4 with f16 inputs: Volta's quad-pair shape. A warp
// computes four independent 8x8x4 products, one per quad pair q (lanes
// 4q..4q+3 and 4q+16..4q+19); lane l is thread t = l%4 + 4·(l>=16) of its
// pair. The fragments (PTX ISA, "Matrix Fragments for mma.m8n8k4 with .f16"):
//   - A .row: thread t holds row t, k = 0..3 (two f16x2 registers, k%2 the
//     half); .col: lane holds column k = l%4, rows 4·(l>=16) + 0..3.
//   - B .col: thread t holds column t, k = 0..3; .row: row k = l%4, columns
//     4·(l>=16) + 0..3.
//   - C/D f16: thread t holds row t, columns 0..7 (four f16x2 registers);
//     f32: register i of lane l is row l%2 + 2·(i/2%2) + 4·(l>=16), column
//     i%2 + 2·(l/2%2) + 4·(i/4).
//
// The H100 has no such tensor-core instruction: ptxas (sm_90a) emulates it
// with warp shuffles and f32 FMAs (testdata/tensor/mma884/out/sass.txt), and
// its arithmetic is that of those instructions, measured bit for bit
// (docs/tensor-cores.md): f32 D is C + ((((+0 + a0·b0) + a1·b1) + a2·b2) + a3·b3),
// each product-sum one f32 FFMA rounded to nearest even and the last an FADD;
// f16 D is (C + (a0·b0 + a1·b1)) + (a2·b2 + a3·b3) with the pairs an FMUL and
// an FFMA, the sums FADDs, all f32 rounded to nearest even, then rounded to f16
// to nearest even. NaN results are the canonical NaN.

// newM884 completes m for mma.sync.aligned.m8n8k4.<alayout>.<blayout>.<d>.f16.f16.<c>:
// every .row/.col pairing; D and C f16 or f32 except f16 D with f32 C, which
// ptxas refuses (".dtype must be '.f32' when .ctype is '.f32'").
func newM884(m *MMA, alayout, blayout string) (*MMA, error) {
	okLay := func(s string) bool { return s == "row" || s == "col" }
	if !okLay(alayout) || !okLay(blayout) || m.B != F16 || m.Satfinite || m.C != F16 && m.C != F32 ||
		m.D != F16 && m.D != F32 || m.D == F16 && m.C == F32 {
		return nil, fmt.Errorf("%s is not a valid mma.sync", m.Name)
	}
	m.M, m.N, m.K = 8, 8, 4
	m.m884, m.aCol, m.bRow = true, alayout == "col", blayout == "row"
	m.NA, m.NB = 2, 2
	m.NC, m.ND = 8, 8
	if m.C == F16 {
		m.NC = 4
	}
	if m.D == F16 {
		m.ND = 4
	}
	return m, nil
}

// MACs is the multiply-adds of one warp's instruction (m8n8k4 f16: four
// quad pairs' 8x8x4 products).
func (m *MMA) MACs() int {
	if m.m884 {
		return 4 * m.M * m.N * m.K
	}
	return m.M * m.N * m.K
}

// m884Lane is the lane of thread t (0..7) of quad pair q.
func m884Lane(q, t int) int { return 4*q + t&3 + 16*(t>>2) }

// m884A is the register (reg, half) and lane of A's element (m, k) of pair q.
func (m *MMA) m884A(q, i, k int) pos {
	if m.aCol {
		v := i & 3
		return pos{uint8(4*q + k + 16*(i>>2)), uint8(v >> 1), uint8(v & 1)}
	}
	return pos{uint8(m884Lane(q, i)), uint8(k >> 1), uint8(k & 1)}
}

// m884B is the register and lane of B's element (k, n) of pair q.
func (m *MMA) m884B(q, k, j int) pos {
	if m.bRow {
		v := j & 3
		return pos{uint8(4*q + k + 16*(j>>2)), uint8(v >> 1), uint8(v & 1)}
	}
	return pos{uint8(m884Lane(q, j)), uint8(k >> 1), uint8(k & 1)}
}

// m884C is the (row, column) of register element e of lane l (f16: e is the
// element index 0..7, two a register; f32: the register).
func m884C(f16 bool, l, e int) (int, int) {
	t := l&3 + 4*(l>>4)
	if f16 {
		return t, e
	}
	return l&1 + 2*(e>>1&1) + 4*(l>>4), e&1 + 2*(l>>1&1) + 4*(e>>2)
}

// f16to32 widens an f16 pattern to f32 exactly (HADD2.F32); a NaN stays a NaN.
func f16to32(h uint64) uint32 {
	x := scalar.F16ToF64(uint16(h))
	if x != x {
		return scalar.CanonicalNaNF32
	}
	return math.Float32bits(float32(x))
}

func (m *MMA) execM884(a, b, c, d *Regs) {
	cf16, df16 := m.C == F16, m.D == F16
	for l := 0; l < 32; l++ {
		q := l >> 2 & 3
		for e := 0; e < 8; e++ {
			i, j := m884C(cf16, l, e)
			var av, bv [4]uint32
			for k := 0; k < 4; k++ {
				av[k] = f16to32(get(a, m.m884A(q, i, k), 16))
				bv[k] = f16to32(get(b, m.m884B(q, k, j), 16))
			}
			var cw uint32
			if cf16 {
				cw = f16to32(c[l][e>>1] >> (16 * uint(e&1)) & 0xffff)
			} else {
				cw = uint32(c[l][e])
			}
			var r uint32
			if df16 {
				s01 := scalar.FmaRnF32(av[1], bv[1], scalar.MulF32(av[0], bv[0], scalar.RN, false, false))
				s23 := scalar.FmaRnF32(av[3], bv[3], scalar.MulF32(av[2], bv[2], scalar.RN, false, false))
				r = scalar.AddF32(scalar.AddF32(cw, s01, scalar.RN, false, false), s23, scalar.RN, false, false)
			} else {
				s := uint32(0)
				for k := 0; k < 4; k++ {
					s = scalar.FmaRnF32(av[k], bv[k], s)
				}
				r = scalar.AddF32(cw, s, scalar.RN, false, false)
			}
			if !df16 {
				// D's f32 layout may differ from C's f16 one: place by (i, j)
				dl, de := m884Place(l, i, j)
				d[dl][de] = uint64(r)
				continue
			}
			h := uint64(scalar.F32ToF16(r, scalar.RN, false, false))
			dr := &d[l][e>>1]
			sh := 16 * uint(e&1)
			*dr = *dr&^(0xffff<<sh) | h<<sh
		}
	}
}

// m884Place is the lane and register of f32 D's element (i, j) of the quad
// pair of lane l.
func m884Place(l, i, j int) (int, int) {
	q := l >> 2 & 3
	lane := 4*q + i&1 + 2*(j>>1&1) + 16*(i>>2)
	e := j&1 + 2*(i>>1&1) + 4*(j>>2)
	return lane, e
}
