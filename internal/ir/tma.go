package ir

import (
	"strings"

	"github.com/warpsim/warpsim/ptx"
)

// The Tensor Memory Accelerator: cp.async.bulk.tensor (global<->shared
// through a tensor map), cp.reduce.async.bulk.tensor, their L2 prefetch,
// tensormap.replace and tensormap.cp_fenceproxy. The engine runs them in
// internal/engine/tma.go; the tensor map's bytes are internal/tmap's.
//
// Operands (TensorOperands): Src/SrcOff the tensor map's address (MapParam:
// a kernel parameter offset), Dst/DstOff the shared-memory box, A the box
// coordinates (Num of them), MbarSlot/MbarOff the mbarrier of a load, B[0]
// the multicast CTA mask (Flag), C an im2col load's offsets (Num-2 of them;
// empty in tile mode), Elem the reduction.

// OpAsync modes of the TMA (after asyncproxy's, tensor.go).
const (
	AsyncTensorG2S        = AsyncBulkSync + 1 + iota // cp.async.bulk.tensor global->shared (mbarrier, multicast)
	AsyncTensorS2G                                   // cp.async.bulk.tensor shared->global (bulk_group)
	AsyncTensorRed                                   // cp.reduce.async.bulk.tensor (Elem: the TMARed* operation)
	AsyncTensormapReplace                            // tensormap.replace (Elem: the Tensormap* field, Num: ord)
	AsyncTensormapCopy                               // tensormap.cp_fenceproxy [Dst], [Src], 128
)

// Reductions of cp.reduce.async.bulk.tensor (TensorOperands.Elem).
const (
	TMARedAdd uint8 = iota
	TMARedMin
	TMARedMax
	TMARedInc
	TMARedDec
	TMARedAnd
	TMARedOr
	TMARedXor
)

var tmaRedOps = map[string]uint8{"add": TMARedAdd, "min": TMARedMin, "max": TMARedMax, "inc": TMARedInc,
	"dec": TMARedDec, "and": TMARedAnd, "or": TMARedOr, "xor": TMARedXor}

// Fields of tensormap.replace (TensorOperands.Elem).
const (
	TensormapGlobalAddress uint8 = iota
	TensormapRank
	TensormapBoxDim
	TensormapGlobalDim
	TensormapGlobalStride
	TensormapElementStride
	TensormapElemType
	TensormapInterleave
	TensormapSwizzle
	TensormapSwizzleAtomicity
	TensormapFillMode
)

var tensormapFields = map[string]uint8{"global_address": TensormapGlobalAddress, "rank": TensormapRank,
	"box_dim": TensormapBoxDim, "global_dim": TensormapGlobalDim, "global_stride": TensormapGlobalStride,
	"element_stride": TensormapElementStride, "elemtype": TensormapElemType,
	"interleave_layout": TensormapInterleave, "swizzle_mode": TensormapSwizzle,
	"swizzle_atomicity": TensormapSwizzleAtomicity, "fill_mode": TensormapFillMode}

// tmaRank is the rank of a ".Nd" modifier (0: none).
func tmaRank(ms []string) int32 {
	for _, m := range ms {
		if len(m) == 2 && m[1] == 'd' && m[0] >= '1' && m[0] <= '5' {
			return int32(m[0] - '0')
		}
	}
	return 0
}

// tmaMap lowers a "[tmap, {c0, ...}]" operand into to's Src, MapParam and A.
func (fl *fnLowerer) tmaMap(src *ptx.Instr, o *ptx.Operand, to *TensorOperands) bool {
	var cs []ptx.Operand
	for i := range o.Elems {
		cs = append(cs, vecElems(&o.Elems[i])...)
	}
	if o.Kind != ptx.OpdAddr || len(cs) != int(to.Num) {
		fl.bad(src, "expected [tensor-map, {%d coordinates}]", to.Num)
		return false
	}
	if o.Name != "" {
		if s, ok := fl.lookup(o.Name); ok && s.kind == symKParam {
			to.MapParam = true
			to.Src, to.SrcOff = -1, int64(s.off)+o.Offset
		}
	}
	if !to.MapParam {
		m := *o
		m.Elems = nil
		var ok bool
		if to.Src, to.SrcOff, ok = fl.addrSlot(src, &m); !ok {
			return false
		}
	}
	for i := range cs {
		to.A = append(to.A, fl.value(src, &cs[i], ptx.S32))
	}
	return true
}

// lowerTMA lowers cp.async.bulk.tensor, cp.reduce.async.bulk.tensor and
// cp.async.bulk.prefetch.tensor.
func (fl *fnLowerer) lowerTMA(src *ptx.Instr) {
	ms := src.Mods
	ops := src.Operands
	to := TensorOperands{Dst: -1, Src: -1, SrcSize: -1, Stride: -1, ADesc: -1, BDesc: -1, ScaleD: -1, MbarSlot: -1}
	if to.Num = tmaRank(ms); to.Num == 0 {
		fl.bad(src, "expected a .1d to .5d rank")
		return
	}
	if hasMod(ms, "im2col_no_offs") || hasMod(ms, "im2col::w") || hasMod(ms, "im2col::w::128") ||
		hasMod(ms, "tile::gather4") || hasMod(ms, "tile::scatter4") {
		fl.unsupportedf(src.Pos, "%s is not supported yet (im2col_no_offs, im2col::w and gather modes)", opText(src))
		return
	}
	im2col := hasMod(ms, "im2col")
	if im2col && to.Num < 3 {
		fl.bad(src, "im2col mode needs a .3d to .5d tensor")
		return
	}
	for _, m := range ms {
		if strings.HasPrefix(m, "cta_group") {
			fl.unsupported(src)
			return
		}
	}
	if hasMod(ms, "prefetch") {
		if len(ops) < 1 || !fl.tmaMap(src, &ops[0], &to) {
			return
		}
		fl.emitTensor(OpAsync, AsyncBulkSync, src, to, nil, nil)
		return
	}
	hint := 0
	if hasMod(ms, "L2::cache_hint") {
		hint = 1 // the cache policy operand is a hint: accepted, ignored
	}
	var ok bool
	if ms[0] == "reduce" || ms[2] == "tensor" && len(ms) > 4 && ms[4] == "global" {
		// [tmap, {coords}], [smem]
		if im2col {
			fl.unsupportedf(src.Pos, "%s is not supported (tensor stores and reductions have no im2col mode with offsets)", opText(src))
			return
		}
		if len(ops) != 2+hint {
			fl.bad(src, "expected [tensor-map, {coordinates}], [shared]")
			return
		}
		if !fl.tmaMap(src, &ops[0], &to) {
			return
		}
		if to.Dst, to.DstOff, ok = fl.addrSlot(src, &ops[1]); !ok {
			return
		}
		to.DstSpace = ptx.SpaceShared
		mode := AsyncTensorS2G
		if ms[0] == "reduce" {
			mode = AsyncTensorRed
			found := false
			for _, m := range ms {
				if op, isOp := tmaRedOps[m]; isOp {
					to.Elem, found = op, true
				}
			}
			if !found {
				fl.bad(src, "expected a reduction (.add, .min, .max, .inc, .dec, .and, .or, .xor)")
				return
			}
		}
		srcs := append([]int32{to.Dst, to.Src}, to.A...)
		fl.emitTensor(OpAsync, mode, src, to, nil, srcs)
		return
	}
	// [smem], [tmap, {coords}], [mbar]{, im2col offsets}{, ctaMask}{, policy}
	to.Flag = hasMod(ms, "multicast::cluster")
	want := 3 + hint
	if to.Flag {
		want++
	}
	if im2col {
		want++
	}
	if len(ops) != want || !hasMod(ms, "mbarrier::complete_tx::bytes") {
		fl.unsupported(src)
		return
	}
	if to.Dst, to.DstOff, ok = fl.addrSlot(src, &ops[0]); !ok {
		return
	}
	if !fl.tmaMap(src, &ops[1], &to) {
		return
	}
	if to.MbarSlot, to.MbarOff, ok = fl.addrSlot(src, &ops[2]); !ok {
		return
	}
	next := 3
	if im2col {
		if !fl.im2colOffsets(src, &ops[3], &to) {
			return
		}
		next++
	}
	if to.Flag {
		to.B = []int32{fl.value(src, &ops[next], ptx.U16)}
	}
	to.DstSpace = ptx.SpaceShared
	srcs := append([]int32{to.Dst, to.Src, to.MbarSlot}, to.A...)
	srcs = append(srcs, to.B...)
	srcs = append(srcs, to.C...)
	fl.emitTensor(OpAsync, AsyncTensorG2S, src, to, nil, srcs)
}

// im2colOffsets lowers an im2col load's "{o0, ...}" offsets (Num-2 16-bit
// values) into to.C, whose presence marks the load as im2col.
func (fl *fnLowerer) im2colOffsets(src *ptx.Instr, o *ptx.Operand, to *TensorOperands) bool {
	es := vecElems(o)
	if len(es) != int(to.Num)-2 {
		fl.bad(src, "expected {%d im2col offsets} after the mbarrier", to.Num-2)
		return false
	}
	for i := range es {
		to.C = append(to.C, fl.value(src, &es[i], ptx.U16))
	}
	return true
}

// lowerTensormap lowers tensormap.replace and tensormap.cp_fenceproxy.
func (fl *fnLowerer) lowerTensormap(src *ptx.Instr) {
	ms := src.Mods
	ops := src.Operands
	to := TensorOperands{Dst: -1, Src: -1, SrcSize: -1, Stride: -1, ADesc: -1, BDesc: -1, ScaleD: -1, MbarSlot: -1}
	var ok bool
	switch {
	case len(ms) > 0 && ms[0] == "cp_fenceproxy":
		// tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.scope.sync.aligned [dst], [src], 128
		if len(ops) != 3 || ops[2].Kind != ptx.OpdInt || ops[2].Bits != 128 {
			fl.bad(src, "expected [global], [shared], 128")
			return
		}
		if to.Dst, to.DstOff, ok = fl.addrSlot(src, &ops[0]); !ok {
			return
		}
		if to.Src, to.SrcOff, ok = fl.addrSlot(src, &ops[1]); !ok {
			return
		}
		to.DstSpace = ptx.SpaceGlobal
		fl.emitTensor(OpAsync, AsyncTensormapCopy, src, to, nil, []int32{to.Dst, to.Src})
	case len(ms) > 2 && ms[0] == "replace" && ms[1] == "tile":
		f, known := tensormapFields[ms[2]]
		if !known {
			fl.unsupported(src)
			return
		}
		to.Elem = f
		to.DstSpace = modSpace(ms[3:])
		withOrd := f >= TensormapBoxDim && f <= TensormapElementStride
		n := 2
		if withOrd {
			n = 3
		}
		if len(ops) != n {
			fl.bad(src, "expected %d operands", n)
			return
		}
		if to.Dst, to.DstOff, ok = fl.addrSlot(src, &ops[0]); !ok {
			return
		}
		if withOrd {
			if ops[1].Kind != ptx.OpdInt || ops[1].Bits > 4 {
				fl.bad(src, "the ordinal must be a constant 0 to 4")
				return
			}
			to.Num = int32(ops[1].Bits)
		}
		t := ptx.U32
		if hasMod(ms, "b64") {
			t = ptx.U64
		}
		to.A = []int32{fl.value(src, &ops[n-1], t)}
		fl.emitTensor(OpAsync, AsyncTensormapReplace, src, to, nil, []int32{to.Dst, to.A[0]})
	default:
		fl.unsupported(src)
	}
}
