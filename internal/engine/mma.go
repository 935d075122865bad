package engine

import (
	"encoding/binary"

	"github.com/warpsim/warpsim/internal/ir"
	"github.com/warpsim/warpsim/internal/tensor"
	"github.com/warpsim/warpsim/ptx/ptxtype"
)

// Tensor-core instructions (OpTensor): mma.sync, ldmatrix, stmatrix and
// movmatrix, executed by the whole warp; the arithmetic and the fragment
// layouts are internal/tensor's.

func (wp *warp) tensorInst(pc int, in *ir.Inst, exec uint32) {
	to := &wp.fn.TensorOps[in.Imm]
	if in.Class == ir.ClassTensor {
		_, macs := to.Work()
		wp.w.c.TensorInst++
		wp.w.c.TensorMACs += uint64(macs)
	}
	switch in.Mode {
	case ir.TensorMMA:
		wp.mma(to, exec)
	case ir.TensorLdmatrix, ir.TensorStmatrix:
		wp.ldstmatrix(pc, in, to, exec)
	case ir.TensorWmmaLoad, ir.TensorWmmaStore:
		wp.wmmaLoadStore(pc, in, to, exec)
	case ir.TensorWmmaMMA:
		var a, b, c, d [32][8]uint64
		gather := func(dst *[32][8]uint64, slots []int32) {
			for i, s := range slots {
				r := wp.r(s)
				for l := 0; l < 32; l++ {
					dst[l][i] = r[l]
				}
			}
		}
		gather(&a, to.A)
		gather(&b, to.B)
		gather(&c, to.C)
		to.WMMA.Exec(&a, &b, &c, &d)
		for i, s := range to.D {
			r := wp.r(s)
			for l := 0; l < 32; l++ {
				if exec>>l&1 != 0 {
					r[l] = d[l][i]
				}
			}
		}
	case ir.TensorWgmmaSync:
	case ir.TensorWgmma:
		wp.wgmma(pc, to, exec)
	case ir.TensorMovmatrix:
		src := wp.r(to.A[0])
		var out [32]uint64
		for l := 0; l < 32; l++ {
			// element (r, c) of the 8x8 matrix is in lane 4r+c/2, half c%2;
			// lane l receives (2(l%4), l/4) and (2(l%4)+1, l/4).
			r0, c := 2*(l&3), l>>2
			lo := src[4*r0+c/2] >> (16 * uint(c&1)) & 0xffff
			hi := src[4*(r0+1)+c/2] >> (16 * uint(c&1)) & 0xffff
			out[l] = lo | hi<<16
		}
		d := wp.r(to.D[0])
		for l := 0; l < 32; l++ {
			if exec>>l&1 != 0 {
				d[l] = out[l]
			}
		}
	}
}

func (wp *warp) mma(to *ir.TensorOperands, exec uint32) {
	m := to.MMA
	var a, b, c, d tensor.Regs
	gather := func(dst *tensor.Regs, slots []int32) {
		for i, s := range slots {
			r := wp.r(s)
			for l := 0; l < 32; l++ {
				dst[l][i] = r[l]
			}
		}
	}
	gather(&a, to.A)
	gather(&b, to.B)
	gather(&c, to.C)
	if m.Sparse {
		m.ExecMeta(&a, &b, &c, &d, wp.r(to.Meta))
	} else {
		m.Exec(&a, &b, &c, &d)
	}
	for i, s := range to.D {
		r := wp.r(s)
		for l := 0; l < 32; l++ {
			if exec>>l&1 != 0 {
				r[l] = d[l][i]
			}
		}
	}
}

// ldstmatrix moves 8x8 matrices of 16-bit elements between shared memory
// and registers: row r of matrix i is at the address in lane 8i+r; lane l's
// register i holds row l/4, columns 2(l%4) and 2(l%4)+1 (.trans: the
// transposed matrix).
func (wp *warp) ldstmatrix(pc int, in *ir.Inst, to *ir.TensorOperands, exec uint32) {
	load := in.Mode == ir.TensorLdmatrix
	var rows [4][8][]byte
	wp.recordTensorBegin()
	defer wp.recordTensorEnd()
	for i := 0; i < int(to.Num); i++ {
		for r := 0; r < 8; r++ {
			lane := 8*i + r
			addr := wp.operandAddr(to.DstSpace, to.Dst, to.DstOff, lane)
			if addr&15 != 0 {
				wp.fault(FaultMisaligned, pc, lane, addr, true, "ldmatrix/stmatrix row address %#x is not 16-byte aligned", addr)
				return
			}
			op := CheckLoad
			if !load {
				op = CheckStore
			}
			if !wp.checkOne(pc, op, to.DstSpace, lane, addr, 16) {
				return
			}
			bs, acc := wp.resolve(pc, to.DstSpace, addr, 16, lane)
			if bs == nil {
				return
			}
			wp.recordTensorPiece(acc, addr, 16, !load, true)
			rows[i][r] = bs
		}
	}
	for i := 0; i < int(to.Num); i++ {
		var reg *[32]uint64
		if load {
			reg = wp.r(to.D[i])
		} else {
			reg = wp.r(to.A[i])
		}
		for l := 0; l < 32; l++ {
			for h := 0; h < 2; h++ {
				r, c := l>>2, 2*(l&3)+h
				if to.Trans {
					r, c = c, r
				}
				cell := rows[i][r][2*c : 2*c+2]
				if load {
					if exec>>l&1 != 0 {
						v := uint64(binary.LittleEndian.Uint16(cell))
						reg[l] = reg[l]&^(0xffff<<(16*uint(h))) | v<<(16*uint(h))
					}
				} else if exec>>l&1 != 0 {
					binary.LittleEndian.PutUint16(cell, uint16(reg[l]>>(16*uint(h))))
				}
			}
		}
		if load {
			for l := 0; l < 32; l++ {
				if exec>>l&1 != 0 {
					reg[l] &= 0xffffffff
				}
			}
		}
	}
}

// wmmaLoadStore moves one wmma fragment between memory and registers:
// element (r, c) of the matrix is at p + (r*stride + c) elements, or
// p + (c*stride + r) for column-major (Trans).
func (wp *warp) wmmaLoadStore(pc int, in *ir.Inst, to *ir.TensorOperands, exec uint32) {
	f := to.Frag
	load := in.Mode == ir.TensorWmmaLoad
	bits := uint64(f.Elem.Bits())
	size := bits / 8
	packed := bits < 8 // s4/u4/b1: elements packed in bytes, the lowest index in the lowest bits
	if packed {
		size = 1
	}
	if f.Elem == tensor.F64 {
		bits, size = 64, 8
	}
	slots := to.A
	if load {
		slots = to.D
	}
	base := f.PerLane * int(bits) / 32 // distinct 32-bit registers (f64: PerLane)
	if f.Elem == tensor.F64 {
		base = f.PerLane
	}
	// recordWmmaParts records the footprint of a tiled access in place of
	// the elements' (recordTensorPiece).
	footprint := to.Access.Blocks() == 0
	per := 1 // elements a register: 1, 2, 4, 8 or 32
	if f.Elem != tensor.F64 {
		per = 32 / f.Elem.Bits()
	}
	perShift, perMask := 0, per-1
	for 1<<perShift < per {
		perShift++
	}
	wp.recordTensorBegin()
	// The requests ptxas makes of it, from the first lane's address and
	// stride (the instruction is .aligned: the warp's are one), are
	// recorded when the access is done (parts), before the access's end;
	// one defer, not one in the loop (a defer in a loop is allocated).
	var parts bool
	var partsAt, partsStride uint64
	defer func() {
		if parts {
			wp.recordWmmaParts(to, partsAt, partsStride)
		}
		wp.recordTensorEnd()
	}()
	first := true
	for l := 0; l < 32; l++ {
		if exec>>l&1 == 0 {
			continue
		}
		p := wp.operandAddr(to.DstSpace, to.Dst, to.DstOff, l)
		stride := uint64(f.Cols)
		if to.Trans {
			stride = uint64(f.Rows)
		}
		if to.Stride >= 0 {
			stride = wp.r(to.Stride)[l] & 0xffffffff
		}
		if first && wp.rec != nil {
			parts, partsAt, partsStride = true, p, stride*bits/8
		}
		first = false
		var regs [8]uint64
		if !load {
			for i, s := range slots {
				regs[i] = wp.r(s)[l]
			}
		}
		r, c := f.Pos(l, 0) // then stepped along the row: f.Pos(l, i)
		for i := 0; i < f.PerLane; i, c = i+1, c+1 {
			if c == f.Cols {
				r, c = r+1, 0
			}
			off := uint64(r)*stride + uint64(c)
			if to.Trans {
				off = uint64(c)*stride + uint64(r)
			}
			addr := p + off*size
			var bitOff uint64
			if packed {
				addr, bitOff = p+off*bits/8, off*bits%8
			}
			if addr&(size-1) != 0 { // size a power of two
				wp.fault(FaultMisaligned, pc, l, addr, true, "wmma element at %#x is not %d-byte aligned", addr, size)
				return
			}
			op := CheckLoad
			if !load {
				op = CheckStore
			}
			if !wp.checkOne(pc, op, to.DstSpace, l, addr, size) {
				return
			}
			b, acc := wp.resolve(pc, to.DstSpace, addr, size, l)
			if b == nil {
				return
			}
			wp.recordTensorPiece(acc, addr, size, !load, footprint)
			reg, sub := i>>perShift, i&perMask // f.RegOf(i): i/per, i%per
			sh := uint(sub) * uint(bits)
			if load {
				v := loadLE(b, int(size))
				if packed {
					v = v >> bitOff & (1<<bits - 1)
				}
				regs[reg] |= v << sh
			} else {
				storeLE(b, int(size), regs[reg]>>sh)
			}
		}
		if load {
			for i, s := range slots {
				v := regs[i]
				if i >= base {
					v = regs[i%base]
				}
				wp.r(s)[l] = v
			}
		}
	}
}

// wgmma runs this warp's share (16 rows of D) of a warpgroup MMA, at once:
// wgmma.commit_group and wait_group have nothing left to wait for.
func (wp *warp) wgmma(pc int, to *ir.TensorOperands, exec uint32) {
	g := to.WGMMA
	lane0 := 0
	for lane0 < 31 && exec>>lane0&1 == 0 {
		lane0++
	}
	scaleD := to.Num != 0
	if to.ScaleD >= 0 {
		scaleD = wp.r(to.ScaleD)[lane0]&1 != 0
	}
	var bdesc, adesc uint64
	bdesc = wp.r(to.BDesc)[lane0]
	if to.ADesc >= 0 {
		adesc = wp.r(to.ADesc)[lane0]
	}
	es := g.ElemBytes()
	faulted := false
	sh := wp.blk.shared
	read := func(addr uint64) uint64 {
		if faulted {
			return 0
		}
		if addr < 1<<clusterShift && addr+uint64(es) <= uint64(len(sh)) {
			// the block's own bytes, as resolve finds them (the operands'
			// thousands of reads a warp: resolve only for the rest)
			return loadLE(sh[addr:], es)
		}
		b, _ := wp.resolve(pc, ptxtype.SpaceShared, addr, uint64(es), lane0)
		if b == nil {
			faulted = true
			return 0
		}
		return loadLE(b, es)
	}
	var aRegs [16][32]uint64
	if to.ADesc < 0 {
		for i, s := range to.A {
			r := wp.r(s)
			for l := 0; l < 32; l++ {
				per := 32 / g.A.Bits()
				for sub := 0; sub < per; sub++ {
					row, k := g.APos(l, i, sub)
					aRegs[row][k] = r[l] >> (uint(sub) * uint(g.A.Bits())) & (1<<g.A.Bits() - 1)
				}
			}
		}
	}
	w := wp.idx % 4
	aAt := func(m, k int) uint64 {
		if to.ADesc < 0 {
			return aRegs[m-16*w][k]
		}
		return read(tensor.DescAddr(adesc, m, k, es, to.TransA))
	}
	bAt := func(k, n int) uint64 { return read(tensor.DescAddr(bdesc, n, k, es, to.TransB)) }
	var d [32][128]uint64
	for i, s := range to.D {
		r := wp.r(s)
		for l := 0; l < 32; l++ {
			d[l][i] = r[l]
		}
	}
	g.Exec(w, &d, scaleD, to.NegA, to.NegB, aAt, bAt)
	if faulted {
		return
	}
	for i, s := range to.D {
		r := wp.r(s)
		for l := 0; l < 32; l++ {
			if exec>>l&1 != 0 {
				r[l] = d[l][i]
			}
		}
	}
}
