package engine

import (
	"encoding/binary"
	"unsafe"

	"github.com/warpsim/warpsim/internal/ir"
	"github.com/warpsim/warpsim/internal/scalar"
	"github.com/warpsim/warpsim/internal/tmap"
	"github.com/warpsim/warpsim/ptx/ptxtype"
)

// The Tensor Memory Accelerator (ir/tma.go): cp.async.bulk.tensor moves a
// box of a tensor described by a tensor map (internal/tmap) between global
// and shared memory, cp.reduce.async.bulk.tensor combines a shared box into
// the tensor, tensormap.replace edits a map in memory. As with the bulk
// copies (asyncproxy.go) the bytes move when the instruction issues: a load
// then completes its box's size in transaction bytes on its mbarrier (on
// every CTA of a multicast), so the data is there by the time the phase
// completes; stores have nothing left for their bulk group to wait for.
//
// What the H100 showed (testdata/tma, TestTMAMatchesH100):
//   - the box is laid out densely in shared memory, dimension 0 fastest,
//     ceil(box/elementStride) elements per dimension; the swizzle XORs the
//     16-byte chunk index of each 128-byte row with the row index modulo
//     2, 4 or 8 (32B, 64B, 128B), on the shared address;
//   - elements outside the tensor are zero, or with
//     FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA the bytes f7 7f repeated (f32
//     0x7ff77ff7, f16/bf16 0x7ff7, f64 0x7ff77ff77ff77ff7); the whole box
//     counts in the transaction bytes;
//   - a store or reduce writes only the elements inside the tensor;
//   - the shared address must be 128-byte aligned (cudaErrorMisalignedAddress),
//     dimension 0's coordinate times the element size a multiple of 16 bytes,
//     and a store's coordinates not negative (cudaErrorIllegalInstruction).

// ParamWindow maps generic addresses onto the kernel parameter buffer
// (cvta.param, the address of a __grid_constant__ parameter).
const ParamWindow = 0x0000_0300_0000_0000

// oobNaN is the H100's out-of-bounds NaN fill, byte by byte.
var oobNaN = [8]byte{0xf7, 0x7f, 0xf7, 0x7f, 0xf7, 0x7f, 0xf7, 0x7f}

func (wp *warp) tmaInst(pc int, in *ir.Inst, to *ir.TensorOperands, exec uint32) {
	if in.Mode == ir.AsyncTensormapCopy {
		// The step record holds the map's global line: the H100 writes it
		// with an atomic exchange a lane (ATOMG.E.EXCH.STRONG.GPU, 32 words),
		// which the timing driver sends through the L2 as an atomic
		// (testdata/timing/tmcold).
		wp.recordTensorBegin()
		defer wp.recordTensorEnd()
	}
	recorded := false
	for l := 0; l < 32; l++ {
		if exec>>l&1 == 0 {
			continue
		}
		switch in.Mode {
		case ir.AsyncTensormapReplace:
			wp.tensormapReplace(pc, to, l)
		case ir.AsyncTensormapCopy:
			d := uint64(to.DstOff)
			if to.Dst >= 0 {
				d += wp.r(to.Dst)[l]
			}
			s := uint64(to.SrcOff)
			if to.Src >= 0 {
				s += wp.r(to.Src)[l]
			}
			db, _ := wp.resolve(pc, ptxtype.SpaceGlobal, d, tmap.Size, l)
			if db == nil {
				return
			}
			sb, _ := wp.resolve(pc, ptxtype.SpaceShared, s, tmap.Size, l)
			if sb == nil {
				return
			}
			copy(db, sb)
			if r := wp.rec; r != nil && !recorded {
				wp.recordTensorPiece(accGlobal, d, tmap.Size, true, true)
				r.AddrDistinct, r.AddrMaxDup = tmap.Size/4, 1
				recorded = true
			}
		default:
			if !wp.tmaCopy(pc, in, to, l) {
				return
			}
		}
	}
}

// tmaMapOf reads and decodes lane l's tensor map.
func (wp *warp) tmaMapOf(pc int, to *ir.TensorOperands, l int) (tmap.Map, bool) {
	a := uint64(to.SrcOff)
	if to.Src >= 0 {
		a += wp.r(to.Src)[l]
	}
	space := ptxtype.SpaceGeneric
	if to.MapParam {
		space = ptxtype.SpaceParam
	}
	if a%tmap.Align != 0 {
		wp.fault(FaultMisaligned, pc, l, a, true, "tensor map at %#x is not %d-byte aligned", a, tmap.Align)
		return tmap.Map{}, false
	}
	b, _ := wp.resolveFor(pc, space, a, tmap.Size, l, true)
	if b == nil {
		return tmap.Map{}, false
	}
	if r := wp.rec; r != nil && r.TensorMap == 0 {
		r.TensorMap = a + 1
		if to.MapParam {
			r.TensorMap |= 1 << 63
		}
	}
	m, err := tmap.Decode(b)
	if err != nil {
		wp.fault(FaultIllegal, pc, l, a, true, "tensor map at %#x: %v", a, err)
		return m, false
	}
	return m, true
}

// tmaCopy runs lane l's load, store or reduce.
func (wp *warp) tmaCopy(pc int, in *ir.Inst, to *ir.TensorOperands, l int) bool {
	m, ok := wp.tmaMapOf(pc, to, l)
	if !ok {
		return false
	}
	if int(to.Num) != m.Rank {
		wp.fault(FaultIllegal, pc, l, 0, false, "a .%dd tensor copy through a tensor map of rank %d", to.Num, m.Rank)
		return false
	}
	var c [5]int64
	for i, s := range to.A {
		c[i] = int64(int32(wp.r(s)[l]))
	}
	im2col := len(to.C) > 0
	if im2col != (m.Mode == tmap.ModeIm2col) {
		if im2col {
			wp.fault(FaultIllegal, pc, l, 0, false, "an im2col tensor copy through a tiled tensor map")
		} else {
			wp.fault(FaultIllegal, pc, l, 0, false, "a tile-mode tensor copy through an im2col tensor map")
		}
		return false
	}
	var off [3]int64
	if im2col {
		bits := tmap.OffsetBits(m.Rank)
		for i, s := range to.C {
			off[i] = int64(wp.r(s)[l] & (1<<bits - 1))
		}
		for i := 0; i < m.Rank-2; i++ {
			if c[i+1] < int64(m.Lower[i]) || c[i+1] > m.BoxHigh(i) {
				wp.fault(FaultIllegal, pc, l, 0, false, "im2col tensor copy: the filter base %d in dimension %d lies outside the pixel box (%d to %d): the GPU stops with an illegal instruction (i4_base_out)", c[i+1], i+1, m.Lower[i], m.BoxHigh(i))
				return false
			}
		}
	}
	es := m.Stride[0]
	if uint64(c[0])*es%16 != 0 {
		wp.fault(FaultIllegal, pc, l, 0, false, "tensor copy at coordinate %d: dimension 0 starts %d bytes into a 16-byte unit (the H100 stops with an illegal instruction)", c[0], uint64(c[0])*es%16)
		return false
	}
	if in.Mode != ir.AsyncTensorG2S {
		for i := 0; i < m.Rank; i++ {
			if c[i] < 0 {
				wp.fault(FaultIllegal, pc, l, 0, false, "tensor store at a negative coordinate (%d in dimension %d): the H100 stops with an illegal instruction", c[i], i)
				return false
			}
		}
	}
	sh := wp.operandAddr(ptxtype.SpaceShared, to.Dst, to.DstOff, l)
	if sh%128 != 0 {
		wp.fault(FaultMisaligned, pc, l, sh, true, "tensor copy's shared-memory box at %#x is not 128-byte aligned", sh)
		return false
	}
	total := uint64(m.SharedBytes())
	var n [5]int
	for i := range n {
		n[i] = 1
		if i < m.Rank {
			n[i] = m.Elems(i)
		}
	}
	if r := wp.rec; r != nil {
		// the timing model sees the box's global sectors as one global
		// access of the warp (ir.Class: ClassLdGlobal / ClassStGlobal)
		defer func() {
			r.Space, r.Store = SpaceGlobal, in.Mode != ir.AsyncTensorG2S
			r.Sectors = append(r.Sectors, wp.sectors...)
			r.Bytes += uint32(m.TxBytes())
			wp.sectors, wp.sectorsSorted = wp.sectors[:0], true
		}()
	}
	switch in.Mode {
	case ir.AsyncTensorG2S:
		var rbuf [16]int
		ranks := append(rbuf[:0], -1)
		if to.Flag {
			ranks = ranks[:0]
			mask := wp.r(to.B[0])[l] & 0xffff
			for r := 0; r < 16; r++ {
				if mask>>r&1 != 0 {
					ranks = append(ranks, r)
				}
			}
		}
		mb := wp.operandAddr(ptxtype.SpaceShared, to.MbarSlot, to.MbarOff, l)
		if r := wp.rec; r != nil && r.Mbar == 0 {
			r.Mbar = mb + 1
		}
		for _, r := range ranks {
			d, bar := sh, mb
			if r >= 0 {
				d = uint64(r+1)<<clusterShift | sh&(1<<clusterShift-1)
				bar = uint64(r+1)<<clusterShift | mb&(1<<clusterShift-1)
			}
			dst, _ := wp.resolve(pc, ptxtype.SpaceShared, d, total, l)
			if dst == nil {
				return false
			}
			if !wp.checkPieces(pc, CheckAtomic, ptxtype.SpaceShared, l, d, total) {
				return false
			}
			put := func(off uint64, g []byte) {
				o := tmap.SwizzleOffset(m.Swizzle, sh+off) - sh
				e := dst[o : o+es]
				switch {
				case g != nil && (m.DType == tmap.TF32 || m.DType == tmap.TF32FTZ):
					binary.LittleEndian.PutUint32(e, toTF32(binary.LittleEndian.Uint32(g)))
				case g != nil:
					copy(e, g)
				case m.OOBNaN:
					copy(e, oobNaN[:es])
				default:
					clear(e)
				}
			}
			if im2col && !wp.tmaIm2colWalk(pc, CheckLoad, &m, &c, &off, l, put) ||
				m.Interleave != 0 && !wp.tmaInterleaveWalk(pc, CheckLoad, &m, &c, l, put) ||
				!im2col && m.Interleave == 0 && !wp.tmaWalk(pc, CheckLoad, &m, &c, &n, l, put) {
				return false
			}
			if bar&7 != 0 {
				wp.fault(FaultMisaligned, pc, l, bar, true, "mbarrier object at %#x is not 8-byte aligned", bar)
				return false
			}
			b, _ := wp.resolve(pc, ptxtype.SpaceShared, bar, 8, l)
			if b == nil {
				return false
			}
			mm := loadMbar(b)
			mm.tx -= int64(m.TxBytes())
			mm.store(b)
		}
	default:
		src, _ := wp.resolve(pc, ptxtype.SpaceShared, sh, total, l)
		if src == nil {
			return false
		}
		if !wp.checkPieces(pc, CheckLoad, ptxtype.SpaceShared, l, sh, total) {
			return false
		}
		red := in.Mode == ir.AsyncTensorRed
		if red && !tmaRedOK(m.DType, to.Elem) {
			wp.fault(FaultIllegal, pc, l, 0, false, "cp.reduce.async.bulk.tensor: this reduction is not defined for the tensor map's data type %d", m.DType)
			return false
		}
		gop := CheckStore
		if red {
			gop = CheckAtomic
		}
		put := func(off uint64, g []byte) {
			if g == nil {
				return
			}
			o := tmap.SwizzleOffset(m.Swizzle, sh+off) - sh
			s := src[o : o+es]
			if red {
				// atomically: other blocks' goroutines may reduce onto
				// the same elements (the host address has the device's
				// alignment)
				asyncReduceAtomic(m.DType, to.Elem, g, s, uint64(uintptr(unsafe.Pointer(&g[0]))))
			} else {
				copy(g, s)
			}
		}
		if m.Interleave != 0 && !wp.tmaInterleaveWalk(pc, gop, &m, &c, l, put) ||
			m.Interleave == 0 && !wp.tmaWalk(pc, gop, &m, &c, &n, l, put) {
			return false
		}
	}
	return true
}

// tmaWalk visits the box's elements in shared-memory order: f gets the
// element's byte offset in the (unswizzled) box and its bytes in global
// memory, nil when it lies outside the tensor.
func (wp *warp) tmaWalk(pc int, op uint8, m *tmap.Map, c *[5]int64, n *[5]int, l int, f func(off uint64, g []byte)) bool {
	es := m.Stride[0]
	pitch := uint64(m.RowPitch())
	row := uint64(0)
	for j4 := 0; j4 < n[4]; j4++ {
		for j3 := 0; j3 < n[3]; j3++ {
			for j2 := 0; j2 < n[2]; j2++ {
				for j1 := 0; j1 < n[1]; j1++ {
					j := [5]int{0, j1, j2, j3, j4}
					in := true
					base := m.Addr
					for i := 1; i < m.Rank; i++ {
						x := c[i] + int64(j[i])*int64(m.EStride[i])
						if x < 0 || uint64(x) >= m.Dim[i] {
							in = false
						}
						base += uint64(x) * m.Stride[i]
					}
					off := row * pitch
					row++
					for j0 := 0; j0 < n[0]; j0++ {
						x := c[0] + int64(j0)
						if !in || x < 0 || uint64(x) >= m.Dim[0] {
							f(off, nil)
						} else {
							a := base + uint64(x)*es
							g, _ := wp.resolveFor(pc, ptxtype.SpaceGlobal, a, es, l, true)
							if g == nil || !wp.checkOne(pc, op, ptxtype.SpaceGlobal, l, a, es) {
								return false
							}
							if wp.rec != nil {
								wp.noteSectors(a, es)
							}
							f(off, g)
						}
						off += es
					}
				}
			}
		}
	}
	return true
}

// tmaInterleaveWalk visits an interleaved copy's elements in shared-memory
// order, as tmaWalk does, as the H100 moves them (testdata/tma/il_cases.txt,
// docs/async-copies.md): runs of InterleaveRun contiguous bytes of global
// memory, packed one after the other in shared memory, each starting at
// coordinate 0's interleave chunk c[0] plus the other coordinates times their
// strides, stepping through InterleaveDims (the first fastest) by their
// element strides. A run whose start lies outside the tensor (any
// coordinate) is filled; one that starts inside reads on, past the end of
// its row or of the tensor.
func (wp *warp) tmaInterleaveWalk(pc int, op uint8, m *tmap.Map, c *[5]int64, l int, f func(off uint64, g []byte)) bool {
	es := m.Stride[0]
	il := int64(m.InterleaveBytes())
	run := uint64(m.InterleaveRun())
	dims := m.InterleaveDims()
	var n, j [3]int
	steps := 1
	for k, i := range dims {
		n[k] = m.Elems(i)
		steps *= n[k]
	}
	off := uint64(0)
	for s := 0; s < steps; s++ {
		x := *c
		for k, i := range dims {
			x[i] += int64(j[k]) * int64(m.EStride[i])
		}
		in := true
		a := m.Addr
		for i := 0; i < m.Rank; i++ {
			if x[i] < 0 || uint64(x[i]) >= m.Dim[i] {
				in = false
			}
			if i == 0 {
				a += uint64(x[0] * il)
			} else {
				a += uint64(x[i]) * m.Stride[i]
			}
		}
		for e := uint64(0); e < run; e += es {
			if !in {
				f(off+e, nil)
				continue
			}
			g, _ := wp.resolveFor(pc, ptxtype.SpaceGlobal, a+e, es, l, true)
			if g == nil || !wp.checkOne(pc, op, ptxtype.SpaceGlobal, l, a+e, es) {
				return false
			}
			if wp.rec != nil {
				wp.noteSectors(a+e, es)
			}
			f(off+e, g)
		}
		off += run
		for k := range dims {
			if j[k]++; j[k] < n[k] {
				break
			}
			j[k] = 0
		}
	}
	return true
}

// tmaIm2colWalk visits an im2col load's elements in shared-memory order,
// as tmaWalk does: Pixels pixels of Box[0] channels each, one row apiece.
// The filter base starts at the coordinates and steps through the pixel
// box, W fastest by its element stride, wrapping to the lower corner and
// stepping the next spatial dimension, after the last one N (by its element
// stride); each pixel is read at the base plus the im2col offsets, its
// channels from c[0] on (the channel element stride is ignored). What
// lies outside the tensor is filled (testdata/tma/im2col_cases.txt).
func (wp *warp) tmaIm2colWalk(pc int, op uint8, m *tmap.Map, c *[5]int64, offs *[3]int64, l int, f func(off uint64, g []byte)) bool {
	es := m.Stride[0]
	pitch := uint64(m.RowPitch())
	ns := m.Rank - 2
	nd := m.Rank - 1
	var pos [3]int64
	copy(pos[:], c[1:1+ns])
	n := c[nd]
	for p := uint64(0); p < uint64(m.Pixels); p++ {
		in := n >= 0 && uint64(n) < m.Dim[nd]
		base := m.Addr + uint64(n)*m.Stride[nd]
		for i := 0; i < ns; i++ {
			x := pos[i] + offs[i]
			if x < 0 || uint64(x) >= m.Dim[i+1] {
				in = false
			}
			base += uint64(x) * m.Stride[i+1]
		}
		off := p * pitch
		for j := int64(0); j < int64(m.Box[0]); j++ {
			x := c[0] + j
			if !in || x < 0 || uint64(x) >= m.Dim[0] {
				f(off, nil)
			} else {
				a := base + uint64(x)*es
				g, _ := wp.resolveFor(pc, ptxtype.SpaceGlobal, a, es, l, true)
				if g == nil || !wp.checkOne(pc, op, ptxtype.SpaceGlobal, l, a, es) {
					return false
				}
				if wp.rec != nil {
					wp.noteSectors(a, es)
				}
				f(off, g)
			}
			off += es
		}
		i := 0
		for ; i < ns; i++ {
			pos[i] += int64(m.EStride[i+1])
			if pos[i] <= m.BoxHigh(i) {
				break
			}
			pos[i] = int64(m.Lower[i])
		}
		if i == ns {
			n += int64(m.EStride[nd])
		}
	}
	return true
}

// tmaRedOK says whether a reduction is defined for a data type.
func tmaRedOK(t, op uint8) bool {
	switch op {
	case ir.TMARedAdd:
		return t == tmap.U32 || t == tmap.S32 || t == tmap.U64 || t == tmap.F32 || t == tmap.F16 || t == tmap.BF16 ||
			t == tmap.F32FTZ || t == tmap.TF32 || t == tmap.TF32FTZ
	case ir.TMARedMin, ir.TMARedMax:
		return t == tmap.U32 || t == tmap.S32 || t == tmap.U64 || t == tmap.S64 || t == tmap.F16 || t == tmap.BF16
	case ir.TMARedInc, ir.TMARedDec:
		return t == tmap.U32
	default:
		return t == tmap.U32 || t == tmap.S32 || t == tmap.U64 || t == tmap.S64
	}
}

// tmaReduce combines the shared element s into the global element g.
func tmaReduce(t, op uint8, g, s []byte) {
	le := binary.LittleEndian
	switch t {
	case tmap.F32, tmap.F32FTZ, tmap.TF32, tmap.TF32FTZ:
		le.PutUint32(g, scalar.AddF32(le.Uint32(g), le.Uint32(s), scalar.RN, tmaFTZ, false))
		return
	case tmap.F16, tmap.BF16:
		a, b := le.Uint16(g), le.Uint16(s)
		le.PutUint16(g, tmaHalf(t, op, a, b))
		return
	}
	var a, b uint64
	signed := t == tmap.S32 || t == tmap.S64
	if len(g) == 4 {
		a, b = uint64(le.Uint32(g)), uint64(le.Uint32(s))
		if signed {
			a, b = uint64(int64(int32(a))), uint64(int64(int32(b)))
		}
	} else {
		a, b = le.Uint64(g), le.Uint64(s)
	}
	less := a < b
	if signed {
		less = int64(a) < int64(b)
	}
	var r uint64
	switch op {
	case ir.TMARedAdd:
		r = a + b
	case ir.TMARedMin:
		r = a
		if !less {
			r = b
		}
	case ir.TMARedMax:
		r = b
		if !less {
			r = a
		}
	case ir.TMARedInc:
		r = a + 1
		if a >= b {
			r = 0
		}
	case ir.TMARedDec:
		r = a - 1
		if a == 0 || a > b {
			r = b
		}
	case ir.TMARedAnd:
		r = a & b
	case ir.TMARedOr:
		r = a | b
	case ir.TMARedXor:
		r = a ^ b
	}
	if len(g) == 4 {
		le.PutUint32(g, uint32(r))
	} else {
		le.PutUint64(g, r)
	}
}

// tmaHalf is a 16-bit float reduction: add rounds to nearest even (no
// flush), min and max as min.f16/max.f16 (a NaN loses to a number).
func tmaHalf(t, op uint8, a, b uint16) uint16 {
	bf := t == tmap.BF16
	switch {
	case op == ir.TMARedMin && bf:
		return scalar.MinBF16(a, b, false)
	case op == ir.TMARedMax && bf:
		return scalar.MaxBF16(a, b, false)
	case op == ir.TMARedMin:
		return scalar.MinF16(a, b, false, false)
	case op == ir.TMARedMax:
		return scalar.MaxF16(a, b, false, false)
	case bf:
		return scalar.AddBF16(a, b, scalar.RN, false, false)
	}
	return scalar.AddF16(a, b, scalar.RN, false, false)
}

// tensormapReplace runs lane l's tensormap.replace on the map in shared or
// global memory.
func (wp *warp) tensormapReplace(pc int, to *ir.TensorOperands, l int) {
	a := uint64(to.DstOff)
	if to.Dst >= 0 {
		a += wp.r(to.Dst)[l]
	}
	space := to.DstSpace
	if space == ptxtype.SpaceShared {
		a &= 0xffffffff
	}
	b, _ := wp.resolve(pc, space, a, tmap.Size, l)
	if b == nil {
		return
	}
	if err := tmap.Replace(b, int(to.Elem), int(to.Num), wp.r(to.A[0])[l]); err != nil {
		wp.fault(FaultIllegal, pc, l, a, true, "tensormap.replace: %v", err)
	}
}

// toTF32 is a TMA load's conversion of an f32 to tf32 (TFLOAT32 maps):
// round to nearest even, to 10 mantissa bits (t2_tf32_spec: 0x3f801000
// gives 0x3f800000); infinities stay, every NaN becomes 0x7fffe000 (the
// canonical NaN's tf32 bits).
func toTF32(x uint32) uint32 {
	if x&0x7f800000 == 0x7f800000 {
		if x&0x7fffff != 0 {
			return 0x7fffe000
		}
		return x
	}
	return (x + 0xfff + x>>13&1) &^ 0x1fff
}

// tmaFTZ: whether f32 reductions flush subnormals (t2_radd_f32sp).
const tmaFTZ = false
