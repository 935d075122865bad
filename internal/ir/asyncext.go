package ir

import (
	"strings"

	"github.com/warpsim/warpsim/internal/tmap"
	"github.com/warpsim/warpsim/ptx"
)

// The asynchronous stores and reductions into another block's shared
// memory (st.async, red.async), the shared::cta -> shared::cluster bulk
// copy and the non-tensor bulk reductions (cp.reduce.async.bulk). Each
// completes its bytes on an mbarrier of the destination's block
// (.mbarrier::complete_tx::bytes) or joins the bulk group (.bulk_group).
// Operands (TensorOperands): Dst/DstOff the destination, Src/SrcOff a bulk
// source in shared memory, A the size (bulk) or the values (st.async: Num
// of them; red.async: one), MbarSlot/MbarOff the mbarrier, Elem the
// reduction (TMARed*), DType its element type (a tmap data type), Size the
// bytes of one element.

// OpAsync modes of this file, numbered apart from the others (tensor.go,
// tma.go) so that modes added there cannot collide with them.
const (
	AsyncBulkS2S uint8 = 200 + iota // cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [Dst], [Src], A[0] size, [mbarrier]
	AsyncBulkRed                    // cp.reduce.async.bulk: DstSpace global (bulk_group) or shared (shared::cluster, mbarrier)
	AsyncStore                      // st.async [Dst], A values, [mbarrier]
	AsyncRed                        // red.async [Dst], A[0] value, [mbarrier]
)

// asyncType maps an element type modifier to its tmap data type and size.
// Bit-size types reduce as unsigned ones.
func asyncType(m string) (dt uint8, size int32, ok bool) {
	switch m {
	case "b32", "u32":
		return tmap.U32, 4, true
	case "s32":
		return tmap.S32, 4, true
	case "b64", "u64":
		return tmap.U64, 8, true
	case "s64":
		return tmap.S64, 8, true
	case "f32":
		return tmap.F32, 4, true
	case "f64":
		return tmap.F64, 8, true
	case "f16":
		return tmap.F16, 2, true
	case "bf16":
		return tmap.BF16, 2, true
	}
	return 0, 0, false
}

// asyncRedOK says whether reduction op is defined on dt for these
// instructions (the PTX ISA's tables; ptxas refuses the others, e.g. an
// xor of .b64 in the shared::cluster form, testdata/isa/out/build_52.log).
func asyncRedOK(op, dt uint8, cluster bool) bool {
	switch op {
	case TMARedAdd:
		return dt != tmap.S64 || !cluster
	case TMARedMin, TMARedMax:
		return dt != tmap.F32 && dt != tmap.F64
	case TMARedInc, TMARedDec:
		return dt == tmap.U32
	default: // and, or, xor: bit types (b32, b64; the cluster form b32 only)
		return (dt == tmap.U32 || dt == tmap.U64) && !(cluster && dt == tmap.U64)
	}
}

// lowerAsyncExt lowers st.async, red.async, the shared-to-cluster bulk
// copy and cp.reduce.async.bulk; it reports whether src was one of them.
func (fl *fnLowerer) lowerAsyncExt(src *ptx.Instr) bool {
	ms := src.Mods
	ops := src.Operands
	to := TensorOperands{Dst: -1, Src: -1, SrcSize: -1, Stride: -1, ADesc: -1, BDesc: -1, ScaleD: -1, MbarSlot: -1}
	var ok bool
	mbar := func(i int) bool {
		if i >= len(ops) {
			fl.bad(src, "missing [mbarrier] operand")
			return false
		}
		to.MbarSlot, to.MbarOff, ok = fl.addrSlot(src, &ops[i])
		return ok
	}
	typ := func() bool {
		for _, m := range ms {
			if dt, n, isType := asyncType(m); isType {
				to.DType, to.Size = dt, n
				return true
			}
		}
		fl.unsupported(src)
		return false
	}
	redOp := func() bool {
		for _, m := range ms {
			if op, isOp := tmaRedOps[m]; isOp {
				to.Elem = op
				return true
			}
		}
		fl.unsupported(src)
		return false
	}
	isBulkRed := src.Op == "cp" && len(ms) > 3 && ms[0] == "reduce" && ms[1] == "async" && ms[2] == "bulk" && !hasMod(ms, "tensor")
	isBulkS2S := src.Op == "cp" && len(ms) > 3 && ms[0] == "async" && ms[1] == "bulk" && ms[2] == "shared::cluster" && ms[3] == "shared::cta"
	if src.Op == "cp" && !isBulkRed && !isBulkS2S {
		return false
	}
	for _, m := range ms {
		if strings.HasPrefix(m, "L2::cache_hint") || m == "cp_mask" {
			fl.unsupportedf(src.Pos, "%s is not supported yet (%s)", opText(src), m)
			return true
		}
	}
	switch {
	case src.Op == "st" || src.Op == "red":
		// st.async{.sem}{.scope}.shared::cluster.mbarrier::complete_tx::bytes{.vec}.type [a], b, [mbar]
		// red.async{.sem}{.scope}.shared::cluster.mbarrier::complete_tx::bytes.op.type [a], b, [mbar]
		if !hasMod(ms, "shared::cluster") || !hasMod(ms, "mbarrier::complete_tx::bytes") || len(ops) != 3 {
			fl.unsupported(src)
			return true
		}
		if !typ() {
			return true
		}
		if to.Dst, to.DstOff, ok = fl.addrSlot(src, &ops[0]); !ok || !mbar(2) {
			return true
		}
		t, _ := ptx.TypeByName(map[int32]string{2: "b16", 4: "b32", 8: "b64"}[to.Size])
		mode := AsyncStore
		if src.Op == "red" {
			mode = AsyncRed
			if !redOp() {
				return true
			}
			if to.DType == tmap.F16 || to.DType == tmap.BF16 || to.DType == tmap.F32 || to.DType == tmap.F64 || !asyncRedOK(to.Elem, to.DType, true) {
				fl.bad(src, "red.async does not take this operation on this type")
				return true
			}
		}
		v := ops[1]
		if v.Kind == ptx.OpdVector {
			if mode == AsyncRed || len(v.Elems) != 2 && len(v.Elems) != 4 {
				fl.bad(src, "expected a value or a vector of 2 or 4")
				return true
			}
			for i := range v.Elems {
				to.A = append(to.A, fl.value(src, &v.Elems[i], t))
			}
		} else {
			to.A = []int32{fl.value(src, &v, t)}
		}
		to.Num = int32(len(to.A))
		to.DstSpace = ptx.SpaceShared
		fl.emitTensor(OpAsync, mode, src, to, nil, append([]int32{to.Dst, to.MbarSlot}, to.A...))
		return true
	case isBulkRed:
		// cp.reduce.async.bulk.global.shared::cta.bulk_group.op{.noftz}.type [dst], [src], size
		// cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.op.type [dst], [src], size, [mbar]
		if !typ() || !redOp() {
			return true
		}
		cluster := ms[3] == "shared::cluster"
		if !cluster && (ms[3] != "global" || !hasMod(ms, "bulk_group")) || cluster && !hasMod(ms, "mbarrier::complete_tx::bytes") {
			fl.unsupported(src)
			return true
		}
		if !asyncRedOK(to.Elem, to.DType, cluster) || cluster && (to.DType == tmap.F16 || to.DType == tmap.BF16 || to.DType == tmap.F64) {
			fl.bad(src, "cp.reduce.async.bulk does not take this operation on this type")
			return true
		}
		if len(ops) != 3+btoi(cluster) {
			fl.bad(src, "expected [dst], [src], size%s", map[bool]string{true: ", [mbarrier]"}[cluster])
			return true
		}
		if to.Dst, to.DstOff, ok = fl.addrSlot(src, &ops[0]); !ok {
			return true
		}
		if to.Src, to.SrcOff, ok = fl.addrSlot(src, &ops[1]); !ok {
			return true
		}
		to.A = []int32{fl.value(src, &ops[2], ptx.U32)}
		to.DstSpace = ptx.SpaceGlobal
		if cluster {
			to.DstSpace = ptx.SpaceShared
			if !mbar(3) {
				return true
			}
		}
		fl.emitTensor(OpAsync, AsyncBulkRed, src, to, nil, []int32{to.Dst, to.Src, to.A[0], to.MbarSlot})
		return true
	case isBulkS2S:
		// cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [dst], [src], size, [mbar]
		if !hasMod(ms, "mbarrier::complete_tx::bytes") || len(ops) != 4 {
			fl.unsupported(src)
			return true
		}
		if to.Dst, to.DstOff, ok = fl.addrSlot(src, &ops[0]); !ok {
			return true
		}
		if to.Src, to.SrcOff, ok = fl.addrSlot(src, &ops[1]); !ok || !mbar(3) {
			return true
		}
		to.A = []int32{fl.value(src, &ops[2], ptx.U32)}
		to.DstSpace = ptx.SpaceShared
		fl.emitTensor(OpAsync, AsyncBulkS2S, src, to, nil, []int32{to.Dst, to.Src, to.A[0], to.MbarSlot})
		return true
	}
	return false
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
