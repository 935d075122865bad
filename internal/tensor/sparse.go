package tensor

import (
	"fmt"
	"math"
)

// Sparse MMA (mma.sp / mma.sp::ordered_metadata): A is an MxK matrix with
// structured sparsity, held compressed as MxK/2 elements (in the registers of
// the dense MxK/2 shape), and a metadata register gives each kept element's
// position within its chunk of the row: 2 of every 4 elements for 16- and
// 8-bit types (two 2-bit indices per 4-bit nibble), 1 of every 2 for tf32
// (nibble 0b0100: the first, 0b1110: the second). In each group of four
// lanes, the T lanes (T = chunks per row / 4) the sparsity selector names
// hold the metadata of the group's two rows, groupID and groupID+8 (spMeta).
// Measured on the H100: docs/tensor-cores.md.

// spSupported lists the sparse shapes and types simulated, as "shape.d.a.b.c".
var spSupported = sparseSupported()

func sparseSupported() map[string]bool {
	m := map[string]bool{
		"m16n8k16.f32.f16.f16.f32": true, "m16n8k16.f16.f16.f16.f16": true,
		"m16n8k32.f32.f16.f16.f32": true, "m16n8k32.f16.f16.f16.f16": true,
		"m16n8k16.f32.bf16.bf16.f32": true, "m16n8k32.f32.bf16.bf16.f32": true,
		"m16n8k8.f32.tf32.tf32.f32": true, "m16n8k16.f32.tf32.tf32.f32": true,
	}
	for _, k := range []string{"m16n8k32", "m16n8k64"} {
		for _, a := range []string{"s8", "u8"} {
			for _, b := range []string{"s8", "u8"} {
				m[k+".s32."+a+"."+b+".s32"] = true
			}
		}
	}
	for _, k := range []string{"m16n8k64", "m16n8k128"} {
		for _, a := range []string{"s4", "u4"} {
			for _, b := range []string{"s4", "u4"} {
				m[k+".s32."+a+"."+b+".s32"] = true
			}
		}
	}
	for _, a := range []string{"e4m3", "e5m2"} {
		for _, b := range []string{"e4m3", "e5m2"} {
			m["m16n8k64.f32."+a+"."+b+".f32"] = true
		}
	}
	return m
}

// buildSparseLayouts adds the compressed A and the wider B shapes of the
// sparse forms to the fragment layouts (layout.go).
func buildSparseLayouts(layouts map[layoutKey][]pos) {
	for _, s := range [][3]int{{32, 16, 4}, {16, 32, 4}, {64, 8, 4}, {128, 4, 4}} {
		buildB(layouts, s[0], 8, s[1], s[2])
	}
}

// NewSparseMMA describes mma.sp{::ordered_metadata}.sync.aligned.<shape>.row.col[.satfinite].<d>.<a>.<b>.<c>
// with sparsity selector sel.
func NewSparseMMA(shape, alayout, blayout string, d, a, b, c Elem, satfinite, ordered bool, sel int) (*MMA, error) {
	op := "mma.sp"
	if ordered {
		op += "::ordered_metadata"
	}
	name := op + ".sync.aligned." + shape + "." + alayout + "." + blayout
	if satfinite {
		name += ".satfinite"
	}
	name += "." + d.String() + "." + a.String() + "." + b.String() + "." + c.String()
	m := &MMA{Name: name, A: a, B: b, C: c, D: d, Satfinite: satfinite, Sparse: true}
	if alayout != "row" || blayout != "col" {
		return nil, fmt.Errorf("%s is not valid (sparse mma takes .row.col)", name)
	}
	key := shape + "." + d.String() + "." + a.String() + "." + b.String() + "." + c.String()
	if !spSupported[key] {
		return nil, fmt.Errorf("%s is not supported yet", name)
	}
	if satfinite && d != S32 {
		return nil, fmt.Errorf("%s is not a valid mma.sp", name)
	}
	if _, err := fmt.Sscanf(shape, "m%dn%dk%d", &m.M, &m.N, &m.K); err != nil {
		return nil, fmt.Errorf("%s: bad shape %s", name, shape)
	}
	m.spLanes = m.spChunks() / 4
	if sel < 0 || sel >= 4/m.spLanes {
		return nil, fmt.Errorf("%s: sparsity selector %d out of range (0…%d for this shape)", name, sel, 4/m.spLanes-1)
	}
	m.Sel = sel
	regs := func(rows, cols int, e Elem) int { return rows * cols * e.Bits() / 32 / 32 }
	m.NA, m.NB, m.NC, m.ND = regs(m.M, m.K/2, a), regs(m.K, m.N, b), regs(m.M, m.N, c), regs(m.M, m.N, d)
	out, rne := fmtF32, false
	if d == F16 {
		out, rne = fmtF16, true
	}
	m.model = Model{Group: m.K / 2, Frac: 25, RNE: rne, Out: out, AlignExp: true}
	if a == E4M3 || a == E5M2 {
		m.fp8 = true
	}
	return m, nil
}

// spChunks is the number of metadata chunks in a row of A: 4 elements each
// (2 kept), 2 each (1 kept) for tf32, and 8 each for 4-bit integers, whose
// elements are kept in pairs (the metadata's two indices name 2 of the
// chunk's 4 pairs: the 8-bit rule applied to the bytes).
func (m *MMA) spChunks() int {
	switch {
	case m.A == TF32:
		return m.K / 2
	case m.A.Bits() == 4:
		return m.K / 8
	}
	return m.K / 4
}

// spCol is the column of A (0…K-1) of row i's compressed element cc, read
// from the metadata registers e.
func (m *MMA) spCol(e *[32]uint64, i, cc int) int {
	if m.A.Bits() == 4 { // 4 kept elements a chunk: two pairs
		ch := cc / 4
		lane, bit := spMeta(m, i, ch)
		nib := e[lane] >> bit & 0xf
		idx := nib & 3
		if cc%4 >= 2 {
			idx = nib >> 2 & 3
		}
		return 8*ch + 2*int(idx) + cc%2
	}
	per := 2
	if m.A == TF32 {
		per = 1
	}
	ch := cc / per
	lane, bit := spMeta(m, i, ch)
	nib := e[lane] >> bit & 0xf
	if m.A == TF32 {
		return 2*ch + int(nib&3)>>1
	}
	idx := nib & 3
	if cc%2 == 1 {
		idx = nib >> 2 & 3
	}
	return 4*ch + int(idx)
}

func (m *MMA) execSparse(a, b, c, d *Regs, e *[32]uint64) {
	kc := m.K / 2
	la := layoutA(m.M, kc, m.A.Bits(), m.NA)
	lb := layoutB(m.K, m.N, m.B.Bits(), m.NB)
	var col [16][64]int
	for i := 0; i < m.M; i++ {
		for cc := 0; cc < kc; cc++ {
			col[i][cc] = m.spCol(e, i, cc)
		}
	}
	cb, db := m.C.Bits(), m.D.Bits()
	var ra, rb [32]term
	for l := 0; l < 32; l++ {
		for el := 0; el < m.M*m.N/32; el++ {
			i, j := cPos(m.M, l, el)
			cw := c[l][el*cb/32] & 0xffffffff
			if cb == 16 {
				cw = cw >> (16 * uint(el&1)) & 0xffff
			}
			var r uint64
			if m.A.IsFloat() {
				for cc := 0; cc < kc; cc++ {
					ra[cc] = decode(m.A, get(a, la[i*kc+cc], m.A.Bits()))
					rb[cc] = decode(m.B, get(b, lb[col[i][cc]*m.N+j], m.B.Bits()))
				}
				if m.fp8 {
					r = m.dotSparseFP8(ra[:kc], rb[:kc], uint32(cw))
				} else {
					r = m.model.dot(ra[:kc], rb[:kc], decode(m.C, cw))
				}
			} else {
				acc := int64(int32(uint32(cw)))
				for cc := 0; cc < kc; cc++ {
					acc += intVal(m.A, get(a, la[i*kc+cc], m.A.Bits())) * intVal(m.B, get(b, lb[col[i][cc]*m.N+j], m.B.Bits()))
				}
				if m.Satfinite {
					acc = max(min(acc, math.MaxInt32), math.MinInt32)
				}
				r = uint64(uint32(acc))
			}
			dr := &d[l][el*db/32]
			if db == 16 {
				sh := 16 * uint(el&1)
				*dr = *dr&^(0xffff<<sh) | r<<sh
			} else {
				*dr = r
			}
		}
	}
}

// dotSparseFP8: the H100 runs an 8-bit-float mma.sp as two f16 sparse steps,
// as it does the dense form (the compressed products of c%4 in {0,1}, then
// those of c%4 in {2,3}, from +0), and adds C with a float add rounded to
// nearest even.
func (m *MMA) dotSparseFP8(a, b []term, c uint32) uint64 { return m.dotFP8(a, b, uint64(c)) }

func intVal(e Elem, v uint64) int64 {
	switch e {
	case S8:
		return int64(int8(v))
	case S4:
		return int64(v<<60) >> 60
	}
	return int64(v)
}

// spMeta is the metadata lane and bit of row i's chunk ch. 16-bit and tf32
// types: lane sel*T + ch/4, row groupID in bits 0–15 and groupID+8 in bits
// 16–31, 4 bits per chunk. 8- and 4-bit types: a register holds 8 chunks of one row,
// lane sel*T + (row ≥ 8) + 2*(ch/8). (The selector picks a lane or a pair of
// lanes of the group of four; with T = 4 it is 0.)
func spMeta(m *MMA, i, ch int) (int, uint) {
	base := 4*(i&7) + m.Sel*m.spLanes
	if m.A.Bits() <= 8 {
		return base + i>>3 + 2*(ch/8), uint(4 * (ch % 8))
	}
	return base + ch/4, 4*uint(ch&3) + 16*uint(i>>3)
}
