package ir

import (
	"slices"
	"strings"

	"github.com/warpsim/warpsim/internal/tensor"
	"github.com/warpsim/warpsim/ptx"
)

// Tensor-core and asynchronous-copy instructions. OpTensor (Inst.Mode =
// Tensor*) and OpAsync (Inst.Mode = Async*/Mbar*) keep their operands in
// Func.TensorOps[Inst.Imm], as they have more than Inst's slots hold. For
// the liveness estimate and the scoreboard, D and A also hold the first
// destinations and sources.

// OpTensor modes.
const (
	TensorMMA uint8 = iota
	TensorLdmatrix
	TensorStmatrix
	TensorMovmatrix
	TensorWmmaLoad  // wmma.load.{a,b,c}: D = fragment, [Dst], Stride (Trans: column-major)
	TensorWmmaStore // wmma.store.d: [Dst], A = fragment, Stride
	TensorWmmaMMA   // wmma.mma: WMMA, D, A, B, C
	TensorWgmma     // wgmma.mma_async: WGMMA, D, A (registers) or ADesc, BDesc, ScaleD
	TensorWgmmaSync // wgmma.fence, commit_group, wait_group: the engine runs wgmma synchronously
)

// What a TensorWgmmaSync instruction is (Inst.Cmp), for the timing
// model: wgmma.fence, commit_group, or wait_group N (N in Inst.Vec).
const (
	WgmmaFence uint8 = iota
	WgmmaCommit
	WgmmaWait
)

// What an AsyncBulkSync instruction is (Inst.Cmp), for the timing model:
// a tensor-map prefetch, cp.async.bulk.commit_group, or
// cp.async.bulk.wait_group N (N in Inst.Vec; .read or not: the timing
// model does not tell them apart).
const (
	BulkPrefetch uint8 = iota
	BulkCommit
	BulkWait
)

// OpAsync modes.
const (
	AsyncCopy        uint8 = iota // cp.async: Dst/Src addresses, Size bytes, SrcSize slot
	AsyncCommit                   // cp.async.commit_group
	AsyncWaitGroup                // cp.async.wait_group N (N in Num)
	AsyncWaitAll                  // cp.async.wait_all
	AsyncMbarArrive               // cp.async.mbarrier.arrive{.noinc} [Dst] (Flag: noinc)
	MbarInit                      // mbarrier.init [Dst], A[0] count
	MbarArrive                    // mbarrier.arrive{.expect_tx}{_drop} D[0] state, [Dst], A[0] count/tx (-1: 1)
	MbarExpectTx                  // mbarrier.expect_tx [Dst], A[0]
	MbarCompleteTx                // mbarrier.complete_tx [Dst], A[0]
	MbarTestWait                  // mbarrier.test_wait{.parity} D[0] pred, [Dst], A[0] state or parity (Flag: parity)
	MbarTryWait                   // mbarrier.try_wait{.parity}: as test_wait (the engine never suspends)
	MbarPendingCount              // mbarrier.pending_count D[0], A[0] state
	MbarInval                     // mbarrier.inval [Dst]
	AsyncBulkG2S                  // cp.async.bulk.shared.global.mbarrier::complete_tx::bytes [Dst], [Src], A[0] size, [mbarrier in B[0]/Num-less: MbarSlot, MbarOff]
	AsyncBulkS2G                  // cp.async.bulk.global.shared::cta.bulk_group [Dst], [Src], A[0] size
	AsyncBulkSync                 // cp.async.bulk.commit_group, wait_group(.read), prefetch: nothing to wait for
)

// TensorOperands are one tensor-core or asynchronous instruction's operands.
type TensorOperands struct {
	MMA        *tensor.MMA
	D, A, B, C []int32 // register slots (mma: fragments; ldmatrix: D; stmatrix: A; movmatrix: D[0], A[0])
	// Dst and Src are address registers (-1: none) plus offsets; shared
	// addresses are shared-window offsets, as ld.shared takes them.
	Dst, Src       int32
	DstOff, SrcOff int64
	DstSpace       ptx.Space
	Size           int32 // cp.async copy size in bytes
	SrcSize        int32 // slot of cp.async's src-size, -1 when absent
	Num            int32 // ldmatrix/stmatrix: matrices (1, 2, 4); wait_group: N
	Trans          bool
	// BypassL1: cp.async.cg, whose data does not stay in the SM's L1 (the
	// timing model reads it through the L2).
	BypassL1 bool
	Flag     bool  // noinc, parity, expect_tx (see the modes)
	Drop     bool  // mbarrier.arrive_drop
	Elem     uint8 // ldmatrix/stmatrix element bits (16)
	WMMA     *tensor.WMMA
	Frag     tensor.Frag
	// Use is a wmma.load/store fragment's kind: 'a', 'b', 'c' or 'd'.
	Use byte
	// Access is a wmma.load/store's expansion into the requests ptxas
	// makes of it (WmmaAccesses), decided once at lowering.
	Access WmmaAccess
	// RepeatOf is 1 + the pc of the earlier wmma.mma whose value this
	// one computes again in straight code (markWmmaRepeats: ptxas keeps
	// one), 0 for none.
	RepeatOf       int32
	Stride         int32 // wmma.load/store stride slot in elements, -1: the matrix's own width
	WGMMA          *tensor.WGMMA
	ADesc, BDesc   int32 // wgmma descriptor slots (ADesc -1 when A is in registers)
	ScaleD         int32 // wgmma scale-d predicate slot, -1: the immediate in Num (0 or 1)
	NegA, NegB     bool
	TransA, TransB bool
	// MbarSlot and MbarOff address the mbarrier of a bulk copy.
	MbarSlot int32
	MbarOff  int64
	// Meta is the metadata register slot of a sparse mma (mma.sp).
	Meta int32
	// MapParam: a TMA's tensor map address (Src) is a kernel parameter
	// offset, not a generic address (tma.go).
	MapParam bool
	// DType is the element type of an asynchronous store or reduction (a
	// tmap data type, asyncext.go).
	DType uint8
}

// addrSlot resolves an address operand to a register slot (or -1) and an
// offset; a symbol becomes a register holding its address.
func (fl *fnLowerer) addrSlot(src *ptx.Instr, o *ptx.Operand) (int32, int64, bool) {
	if o.Kind != ptx.OpdAddr || len(o.Elems) != 0 {
		fl.bad(src, "expected an address operand [addr]")
		return -1, 0, false
	}
	if o.Name == "" {
		return -1, o.Offset, true
	}
	if s, ok := fl.lookup(o.Name); ok && s.kind == symReg {
		return s.slot, o.Offset, true
	}
	return fl.addrTemp(src, o.Name, o.Offset), 0, true
}

func vecElems(o *ptx.Operand) []ptx.Operand {
	if o.Kind == ptx.OpdVector {
		return o.Elems
	}
	return []ptx.Operand{*o}
}

func modSpace(ms []string) ptx.Space {
	for _, s := range ms {
		if s == "shared" || strings.HasPrefix(s, "shared::") {
			return ptx.SpaceShared
		}
		if s == "global" {
			return ptx.SpaceGlobal
		}
	}
	return ptx.SpaceGeneric
}

func (fl *fnLowerer) emitTensor(op Op, mode uint8, src *ptx.Instr, to TensorOperands, d, a []int32) {
	in := fl.newInst(op, src)
	in.Mode = mode
	if elem, macs := tensorWork(&to); macs > 0 {
		// The timing model's cost of an MMA: its input type in Cmp, its
		// multiply-adds per warp as 256<<Vec (TensorWork).
		in.Cmp = uint8(elem)
		for in.Vec = 0; 256<<in.Vec < macs && in.Vec < 15; in.Vec++ {
		}
		// The scoreboard watches the first len(in.A) sources: the
		// accumulator's first register (the previous MMA of a chain wrote
		// it), then the first and last of A and B (each loaded by one
		// ldmatrix or wmma.load).
		a = mmaScoreSources(&to, a)
	}
	if mode == TensorWmmaLoad || mode == TensorWmmaStore {
		// The SASS instructions ptxas makes of it (WmmaAccesses), for
		// the timing model's issue slots.
		to.Access = WmmaAccesses(&to, mode == TensorWmmaLoad)
		in.Vec = uint8(min(to.Access.Insts+to.Access.Movm, 255))
	}
	for i := 0; i < len(d) && i < len(in.D); i++ {
		in.D[i] = d[i]
	}
	for i := 0; i < len(a) && i < len(in.A); i++ {
		in.A[i] = a[i]
	}
	in.Imm = int64(len(fl.f.TensorOps))
	fl.f.TensorOps = append(fl.f.TensorOps, to)
	fl.emit(in, src)
}

// Work is an MMA's input element type and multiply-adds per warp, exactly
// (TensorWork rounds them for the timing model); 0 for other instructions.
func (to *TensorOperands) Work() (tensor.Elem, uint32) { return tensorWork(to) }

// tensorWork is an MMA's input element type and multiply-adds per warp
// (wgmma: a quarter of the warpgroup's); 0 for other instructions.
func tensorWork(to *TensorOperands) (tensor.Elem, uint32) {
	switch {
	case to.MMA != nil && to.MMA.Sparse:
		// the sparse tensor core skips the zero half of A: the multiply-adds
		// of the dense MMA of half the K
		return to.MMA.A, uint32(to.MMA.M * to.MMA.N * to.MMA.K / 2)
	case to.MMA != nil:
		return to.MMA.A, uint32(to.MMA.MACs())
	case to.WMMA != nil:
		return to.WMMA.A, uint32(to.WMMA.M * to.WMMA.N * to.WMMA.K)
	case to.WGMMA != nil:
		return to.WGMMA.A, uint32(16 * to.WGMMA.N * to.WGMMA.K)
	}
	return tensor.ElemNone, 0
}

// TensorWork is what a tensor-pipe instruction (ClassTensor) costs the
// timing model: its input element type and its multiply-adds per warp.
func TensorWork(in *Inst) (tensor.Elem, uint32) {
	return tensor.Elem(in.Cmp), 256 << in.Vec
}

// mmaScoreSources orders an MMA's sources for the scoreboard, which sees
// only the first len(Inst.A): C's first register, A's first and last, B's
// first and last, then the rest (wgmma: its descriptors after A).
func mmaScoreSources(to *TensorOperands, all []int32) []int32 {
	var out []int32
	add := func(r ...int32) {
		for _, x := range r {
			if x >= 0 && !slices.Contains(out, x) {
				out = append(out, x)
			}
		}
	}
	ends := func(l []int32) {
		if len(l) > 0 {
			add(l[0], l[len(l)-1])
		}
	}
	if len(to.C) > 0 {
		add(to.C[0])
	}
	ends(to.A)
	ends(to.B)
	if to.WGMMA != nil {
		add(to.ADesc, to.BDesc)
	}
	add(all...)
	return out
}

// lowerTensor lowers mma, ldmatrix, stmatrix and movmatrix.
func (fl *fnLowerer) lowerTensor(src *ptx.Instr) {
	ms := src.Mods
	ops := src.Operands
	switch src.Op {
	case "mma":
		fl.lowerMMA(src)
	case "wmma":
		fl.lowerWMMA(src)
	case "wgmma":
		fl.lowerWGMMA(src)
	case "ldmatrix", "stmatrix":
		to := TensorOperands{Dst: -1, Src: -1, SrcSize: -1, DstSpace: modSpace(ms), Elem: 16}
		shape := ""
		for _, m := range ms {
			switch m {
			case "x1":
				to.Num = 1
			case "x2":
				to.Num = 2
			case "x4":
				to.Num = 4
			case "trans":
				to.Trans = true
			case "m8n8":
				shape = m
			case "b16", "sync", "aligned", "shared":
			default:
				if !strings.HasPrefix(m, "shared::") {
					fl.unsupportedf(src.Pos, "%s is not supported yet (warpsim simulates %s.sync.aligned.m8n8.x1/x2/x4{.trans}{.shared}.b16)", opText(src), src.Op)
					return
				}
			}
		}
		if shape == "" || to.Num == 0 || len(ops) != 2 {
			fl.unsupportedf(src.Pos, "%s is not supported yet (warpsim simulates %s.sync.aligned.m8n8.x1/x2/x4{.trans}{.shared}.b16)", opText(src), src.Op)
			return
		}
		regOp, addrOp := &ops[0], &ops[1]
		if src.Op == "stmatrix" {
			regOp, addrOp = &ops[1], &ops[0]
		}
		regs := vecElems(regOp)
		if len(regs) != int(to.Num) {
			fl.bad(src, "expected %d registers", to.Num)
			return
		}
		var ok bool
		if to.Dst, to.DstOff, ok = fl.addrSlot(src, addrOp); !ok {
			return
		}
		if src.Op == "ldmatrix" {
			for i := range regs {
				to.D = append(to.D, fl.reg(src, &regs[i]))
			}
			fl.emitTensor(OpTensor, TensorLdmatrix, src, to, to.D, []int32{to.Dst})
		} else {
			for i := range regs {
				to.A = append(to.A, fl.value(src, &regs[i], ptx.B32))
			}
			fl.emitTensor(OpTensor, TensorStmatrix, src, to, nil, append([]int32{to.Dst}, to.A...))
		}
	case "movmatrix":
		if !hasMod(ms, "m8n8") || !hasMod(ms, "trans") || !hasMod(ms, "b16") || len(ops) != 2 {
			fl.unsupportedf(src.Pos, "%s is not supported yet (warpsim simulates movmatrix.sync.aligned.m8n8.trans.b16)", opText(src))
			return
		}
		to := TensorOperands{Dst: -1, Src: -1, SrcSize: -1}
		to.D = []int32{fl.reg(src, &ops[0])}
		to.A = []int32{fl.value(src, &ops[1], ptx.B32)}
		fl.emitTensor(OpTensor, TensorMovmatrix, src, to, to.D, to.A)
	}
}

// lowerMMA lowers mma.sync.aligned.<shape>.<alayout>.<blayout>[.satfinite].<d>.<a>.<b>.<c>[.<op>.popc]
// and the sparse mma.sp{::ordered_metadata}.sync.aligned… d, a, b, c, e, f.
func (fl *fnLowerer) lowerMMA(src *ptx.Instr) {
	var shape, bitop string
	var lay []string
	var types []tensor.Elem
	sat := false
	sparse, ordered := false, false
	for _, m := range src.Mods {
		switch {
		case m == "sp":
			sparse = true
		case m == "sp::ordered_metadata":
			sparse, ordered = true, true
		case m == "sync" || m == "aligned" || m == "popc":
		case m == "row" || m == "col":
			lay = append(lay, m)
		case m == "satfinite":
			sat = true
		case m == "xor" || m == "and":
			bitop = m
		case len(m) > 1 && m[0] == 'm' && strings.Contains(m, "n") && strings.Contains(m, "k"):
			shape = m
		default:
			e, ok := tensor.ParseElem(m)
			if !ok {
				fl.unsupportedf(src.Pos, "%s is not supported yet (modifier .%s)", opText(src), m)
				return
			}
			types = append(types, e)
		}
	}
	if len(lay) != 2 || len(types) != 4 || shape == "" || sparse && bitop != "" {
		fl.unsupportedf(src.Pos, "%s is not supported yet", opText(src))
		return
	}
	ops := src.Operands
	var mm *tensor.MMA
	var err error
	if sparse {
		if len(ops) != 6 {
			fl.bad(src, "expected d, a, b, c fragments, the metadata and the sparsity selector")
			return
		}
		if ops[5].Kind != ptx.OpdInt {
			fl.bad(src, "the sparsity selector must be an integer constant")
			return
		}
		mm, err = tensor.NewSparseMMA(shape, lay[0], lay[1], types[0], types[1], types[2], types[3], sat, ordered, int(int64(ops[5].Bits)))
	} else {
		mm, err = tensor.NewMMA(shape, lay[0], lay[1], types[0], types[1], types[2], types[3], sat, bitop)
	}
	if err != nil {
		fl.unsupportedf(src.Pos, "%s", err.Error())
		return
	}
	if !sparse && len(ops) != 4 {
		fl.bad(src, "expected d, a, b, c fragments")
		return
	}
	want := [4]int{mm.ND, mm.NA, mm.NB, mm.NC}
	var lists [4][]int32
	for i := range ops[:4] {
		es := vecElems(&ops[i])
		if len(es) != want[i] {
			fl.bad(src, "fragment %d has %d registers, %s takes %d", i, len(es), mm.Name, want[i])
			return
		}
		for j := range es {
			if i == 0 {
				lists[i] = append(lists[i], fl.reg(src, &es[j]))
			} else {
				t := ptx.B32
				if mm.A == tensor.F64 {
					t = ptx.F64
				} else if i == 3 && mm.C == tensor.F32 {
					t = ptx.F32
				}
				lists[i] = append(lists[i], fl.value(src, &es[j], t))
			}
		}
	}
	to := TensorOperands{MMA: mm, D: lists[0], A: lists[1], B: lists[2], C: lists[3], Dst: -1, Src: -1, SrcSize: -1, Meta: -1}
	srcs := append(append(append([]int32{}, to.A...), to.B...), to.C...)
	if sparse {
		to.Meta = fl.value(src, &ops[4], ptx.B32)
		srcs = append(srcs, to.Meta)
	}
	fl.emitTensor(OpTensor, TensorMMA, src, to, to.D, srcs)
}

// lowerAsync lowers cp.async (the non-bulk forms) and mbarrier.
func (fl *fnLowerer) lowerAsync(src *ptx.Instr) {
	ms := src.Mods
	ops := src.Operands
	to := TensorOperands{Dst: -1, Src: -1, SrcSize: -1, DstSpace: modSpace(ms)}
	if src.Op == "cp" && fl.lowerAsyncExt(src) { // asyncext.go
		return
	}
	if src.Op == "cp" {
		if len(ms) > 1 && ms[0] == "async" && ms[1] == "bulk" {
			fl.lowerBulk(src)
			return
		}
		if len(ms) > 2 && ms[0] == "reduce" && ms[1] == "async" && ms[2] == "bulk" && hasMod(ms, "tensor") {
			fl.lowerTMA(src) // tma.go
			return
		}
		if len(ms) == 0 || ms[0] != "async" || hasMod(ms, "reduce") {
			fl.unsupported(src)
			return
		}
		switch {
		case hasMod(ms, "commit_group"):
			fl.emitTensor(OpAsync, AsyncCommit, src, to, nil, nil)
		case hasMod(ms, "wait_all"):
			fl.emitTensor(OpAsync, AsyncWaitAll, src, to, nil, nil)
		case hasMod(ms, "wait_group"):
			if len(ops) != 1 || ops[0].Kind != ptx.OpdInt {
				fl.bad(src, "expected an integer constant")
				return
			}
			to.Num = int32(ops[0].Bits)
			fl.emitTensor(OpAsync, AsyncWaitGroup, src, to, nil, nil)
		case hasMod(ms, "mbarrier"):
			if len(ops) != 1 {
				fl.bad(src, "expected [mbarrier]")
				return
			}
			var ok bool
			if to.Dst, to.DstOff, ok = fl.addrSlot(src, &ops[0]); !ok {
				return
			}
			to.Flag = hasMod(ms, "noinc")
			fl.emitTensor(OpAsync, AsyncMbarArrive, src, to, nil, []int32{to.Dst})
		default:
			// cp.async.ca/cg.shared{::cta}.global{.level::cache_hint}{.level::prefetch_size} [dst], [src], cp-size{, src-size}{, cache-policy}
			if !hasMod(ms, "ca") && !hasMod(ms, "cg") || len(ops) < 3 {
				fl.unsupported(src)
				return
			}
			if hasMod(ms, "L2::cache_hint") {
				// the trailing cache-policy operand is a hint: accepted, ignored
				if len(ops) < 4 {
					fl.bad(src, "expected a cache-policy operand after .L2::cache_hint")
					return
				}
				ops = ops[:len(ops)-1]
			}
			var ok bool
			if to.Dst, to.DstOff, ok = fl.addrSlot(src, &ops[0]); !ok {
				return
			}
			if to.Src, to.SrcOff, ok = fl.addrSlot(src, &ops[1]); !ok {
				return
			}
			if ops[2].Kind != ptx.OpdInt || (ops[2].Bits != 4 && ops[2].Bits != 8 && ops[2].Bits != 16) {
				fl.bad(src, "cp-size must be 4, 8 or 16")
				return
			}
			to.Size = int32(ops[2].Bits)
			to.BypassL1 = hasMod(ms, "cg")
			if hasMod(ms, "cg") && to.Size != 16 {
				fl.bad(src, "cp.async.cg copies 16 bytes")
				return
			}
			if len(ops) > 3 {
				to.SrcSize = fl.value(src, &ops[3], ptx.U32)
			}
			fl.emitTensor(OpAsync, AsyncCopy, src, to, nil, []int32{to.Dst, to.Src, to.SrcSize})
		}
		return
	}
	// mbarrier
	if len(ms) == 0 {
		fl.unsupported(src)
		return
	}
	if to.DstSpace == ptx.SpaceGlobal {
		fl.bad(src, "an mbarrier lives in shared memory")
		return
	}
	kind := ms[0]
	for _, m := range ms {
		// a block's arrivals and transactions may name another block's
		// mbarrier (mapa's shared::cluster addresses); its waits and its
		// initialization only its own
		if strings.HasPrefix(m, "shared::cluster") && kind != "arrive" && kind != "arrive_drop" && kind != "expect_tx" && kind != "complete_tx" {
			fl.unsupported(src)
			return
		}
	}
	addr := func(i int) bool {
		if i >= len(ops) {
			fl.bad(src, "missing [mbarrier] operand")
			return false
		}
		var ok bool
		to.Dst, to.DstOff, ok = fl.addrSlot(src, &ops[i])
		return ok
	}
	switch kind {
	case "init":
		if len(ops) != 2 || !addr(0) {
			fl.bad(src, "expected [mbarrier], count")
			return
		}
		to.A = []int32{fl.value(src, &ops[1], ptx.U32)}
		fl.emitTensor(OpAsync, MbarInit, src, to, nil, []int32{to.Dst, to.A[0]})
	case "arrive", "arrive_drop":
		to.Drop = kind == "arrive_drop"
		to.Flag = hasMod(ms, "expect_tx")
		if len(ops) < 2 || len(ops) > 3 || !addr(1) {
			fl.bad(src, "expected state, [mbarrier]{, count}")
			return
		}
		to.D = []int32{fl.reg(src, &ops[0])}
		to.A = []int32{-1}
		if len(ops) == 3 {
			to.A[0] = fl.value(src, &ops[2], ptx.U32)
		} else if to.Flag {
			fl.bad(src, "expected the transaction count")
			return
		}
		fl.emitTensor(OpAsync, MbarArrive, src, to, to.D, []int32{to.Dst, to.A[0]})
	case "expect_tx", "complete_tx":
		if len(ops) != 2 || !addr(0) {
			fl.bad(src, "expected [mbarrier], txCount")
			return
		}
		to.A = []int32{fl.value(src, &ops[1], ptx.U32)}
		mode := MbarExpectTx
		if kind == "complete_tx" {
			mode = MbarCompleteTx
		}
		fl.emitTensor(OpAsync, mode, src, to, nil, []int32{to.Dst, to.A[0]})
	case "test_wait", "try_wait":
		to.Flag = hasMod(ms, "parity")
		if len(ops) < 3 || len(ops) > 4 || !addr(1) {
			fl.bad(src, "expected waitComplete, [mbarrier], state{, suspendTimeHint}")
			return
		}
		to.D = []int32{fl.reg(src, &ops[0])}
		t := ptx.B64
		if to.Flag {
			t = ptx.U32
		}
		to.A = []int32{fl.value(src, &ops[2], t)}
		mode := MbarTestWait
		if kind == "try_wait" {
			mode = MbarTryWait
		}
		fl.emitTensor(OpAsync, mode, src, to, to.D, []int32{to.Dst, to.A[0]})
	case "pending_count":
		if len(ops) != 2 {
			fl.bad(src, "expected count, state")
			return
		}
		to.D = []int32{fl.reg(src, &ops[0])}
		to.A = []int32{fl.value(src, &ops[1], ptx.B64)}
		fl.emitTensor(OpAsync, MbarPendingCount, src, to, to.D, to.A)
	case "inval":
		if len(ops) != 1 || !addr(0) {
			fl.bad(src, "expected [mbarrier]")
			return
		}
		fl.emitTensor(OpAsync, MbarInval, src, to, nil, []int32{to.Dst})
	default:
		fl.unsupported(src)
	}
}

// lowerWMMA lowers wmma.load, wmma.store and wmma.mma.
func (fl *fnLowerer) lowerWMMA(src *ptx.Instr) {
	ms := src.Mods
	ops := src.Operands
	if len(ms) < 2 {
		fl.unsupported(src)
		return
	}
	var shape, bitop string
	var types []tensor.Elem
	var lay []string
	sat, rn := false, false
	for _, m := range ms[1:] {
		switch {
		case m == "sync" || m == "aligned" || m == "a" || m == "b" || m == "c" || m == "d" || m == "global" || m == "shared" || strings.HasPrefix(m, "shared::") || m == "popc":
		case m == "rn" && ms[0] == "mma":
			// f64 wmma.mma's optional rounding: .rn is round to nearest
			// even, what it does without one (nvcc 13 writes it); .rz, .rm
			// and .rp stay unsupported below.
			rn = true
		case m == "xor" || m == "and":
			bitop = m
		case m == "row" || m == "col":
			lay = append(lay, m)
		case m == "satfinite":
			sat = true
		case len(m) > 1 && m[0] == 'm' && strings.Contains(m, "n") && strings.Contains(m, "k"):
			shape = m
		default:
			e, ok := tensor.ParseElem(m)
			if !ok {
				fl.unsupportedf(src.Pos, "%s is not supported yet (modifier .%s)", opText(src), m)
				return
			}
			types = append(types, e)
		}
	}
	to := TensorOperands{Dst: -1, Src: -1, SrcSize: -1, Stride: -1, DstSpace: modSpace(ms)}
	switch ms[0] {
	case "load", "store":
		if len(lay) != 1 || len(types) != 1 || len(ms) < 2 || len(ops) < 2 || len(ops) > 3 {
			fl.unsupported(src)
			return
		}
		kind := ms[1][0]
		f, err := tensor.WMMAFrag(kind, shape, types[0])
		if err != nil {
			fl.unsupportedf(src.Pos, "%s is not supported yet: %v", opText(src), err)
			return
		}
		to.Frag = f
		to.Use = kind
		to.Trans = lay[0] == "col"
		regOp, addrOp := &ops[0], &ops[1]
		if ms[0] == "store" {
			regOp, addrOp = &ops[1], &ops[0]
		}
		regs := vecElems(regOp)
		if len(regs) != f.Regs {
			fl.bad(src, "expected %d registers, found %d", f.Regs, len(regs))
			return
		}
		var ok bool
		if to.Dst, to.DstOff, ok = fl.addrSlot(src, addrOp); !ok {
			return
		}
		if len(ops) == 3 {
			to.Stride = fl.value(src, &ops[2], ptx.U32)
		}
		t := ptx.B32
		if f.Elem == tensor.F64 {
			t = ptx.F64
		}
		if ms[0] == "load" {
			for i := range regs {
				to.D = append(to.D, fl.reg(src, &regs[i]))
			}
			fl.emitTensor(OpTensor, TensorWmmaLoad, src, to, to.D, []int32{to.Dst, to.Stride})
		} else {
			for i := range regs {
				to.A = append(to.A, fl.value(src, &regs[i], t))
			}
			fl.emitTensor(OpTensor, TensorWmmaStore, src, to, nil, append([]int32{to.Dst, to.Stride}, to.A...))
		}
	case "mma":
		if rn && (len(types) == 0 || types[0] != tensor.F64) {
			fl.unsupportedf(src.Pos, "%s is not supported yet (modifier .rn: a rounding mode is f64's only)", opText(src))
			return
		}
		w, err := tensor.NewWMMAOp(shape, types, sat, bitop)
		if err != nil {
			fl.unsupportedf(src.Pos, "%s", err.Error())
			return
		}
		if len(ops) != 4 {
			fl.bad(src, "expected d, a, b, c fragments")
			return
		}
		want := [4]int{w.FD.Regs, w.FA.Regs, w.FB.Regs, w.FC.Regs}
		var lists [4][]int32
		for i := range ops {
			es := vecElems(&ops[i])
			if len(es) != want[i] {
				fl.bad(src, "fragment %d has %d registers, %s takes %d", i, len(es), w.Name, want[i])
				return
			}
			for j := range es {
				if i == 0 {
					lists[i] = append(lists[i], fl.reg(src, &es[j]))
				} else {
					t := ptx.B32
					if w.A == tensor.F64 {
						t = ptx.F64
					}
					lists[i] = append(lists[i], fl.value(src, &es[j], t))
				}
			}
		}
		to.WMMA = w
		to.D, to.A, to.B, to.C = lists[0], lists[1], lists[2], lists[3]
		srcs := append(append(append([]int32{}, to.A...), to.B...), to.C...)
		fl.emitTensor(OpTensor, TensorWmmaMMA, src, to, to.D, srcs)
	default:
		fl.unsupported(src)
	}
}

// lowerWGMMA lowers wgmma.mma_async and the wgmma fence and group operations.
func (fl *fnLowerer) lowerWGMMA(src *ptx.Instr) {
	ms := src.Mods
	ops := src.Operands
	to := TensorOperands{Dst: -1, Src: -1, SrcSize: -1, Stride: -1, ADesc: -1, BDesc: -1, ScaleD: -1}
	if len(ms) == 0 {
		fl.unsupported(src)
		return
	}
	switch ms[0] {
	case "fence":
		fl.emitTensor(OpTensor, TensorWgmmaSync, src, to, nil, nil)
		return
	case "commit_group":
		fl.emitTensor(OpTensor, TensorWgmmaSync, src, to, nil, nil)
		fl.f.Code[len(fl.f.Code)-1].Cmp = WgmmaCommit
		return
	case "wait_group":
		fl.emitTensor(OpTensor, TensorWgmmaSync, src, to, nil, nil)
		in := &fl.f.Code[len(fl.f.Code)-1]
		in.Cmp = WgmmaWait
		if len(ops) == 1 && ops[0].Kind == ptx.OpdInt && ops[0].Bits < 256 {
			in.Vec = uint8(ops[0].Bits)
		}
		return
	case "mma_async":
	default:
		fl.unsupported(src)
		return
	}
	var shape, bitop string
	var types []tensor.Elem
	sat := false
	for _, m := range ms[1:] {
		switch {
		case m == "sync" || m == "aligned" || m == "popc":
		case m == "satfinite":
			sat = true
		case m == "and" || m == "xor" || m == "or":
			bitop = m
		case len(m) > 1 && m[0] == 'm' && strings.Contains(m, "n") && strings.Contains(m, "k"):
			shape = m
		default:
			e, ok := tensor.ParseElem(m)
			if !ok {
				fl.unsupported(src)
				return
			}
			types = append(types, e)
		}
	}
	if len(types) != 3 || len(ops) < 4 {
		fl.unsupported(src)
		return
	}
	aRegs := ops[1].Kind == ptx.OpdVector
	g, err := tensor.NewWGMMAInt(shape, types[0], types[1], types[2], aRegs, sat, bitop)
	if err != nil {
		fl.unsupportedf(src.Pos, "%s", err.Error())
		return
	}
	ds := vecElems(&ops[0])
	if len(ds) != g.NRegsD {
		fl.bad(src, "expected %d accumulator registers, found %d", g.NRegsD, len(ds))
		return
	}
	for i := range ds {
		to.D = append(to.D, fl.reg(src, &ds[i]))
	}
	if aRegs {
		as := ops[1].Elems
		if len(as) != g.NRegsA {
			fl.bad(src, "expected %d A registers, found %d", g.NRegsA, len(as))
			return
		}
		for i := range as {
			to.A = append(to.A, fl.value(src, &as[i], ptx.B32))
		}
	} else {
		to.ADesc = fl.value(src, &ops[1], ptx.B64)
	}
	to.BDesc = fl.value(src, &ops[2], ptx.B64)
	if ops[3].Kind == ptx.OpdInt {
		to.Num = int32(ops[3].Bits & 1)
	} else {
		to.ScaleD = fl.value(src, &ops[3], ptx.Pred)
	}
	imm := func(i int) int64 {
		if i >= len(ops) {
			return -1
		}
		if ops[i].Kind != ptx.OpdInt {
			fl.bad(src, "operand %d must be an immediate", i+1)
			return 0
		}
		return int64(ops[i].Bits)
	}
	rest := len(ops) - 4
	if rest >= 2 {
		to.NegA = imm(4) == -1 || uint64(imm(4)) == ^uint64(0)
		to.NegB = imm(5) == -1 || uint64(imm(5)) == ^uint64(0)
	}
	switch {
	case aRegs && rest == 3:
		to.TransB = imm(6) == 1
	case !aRegs && rest == 4:
		to.TransA, to.TransB = imm(6) == 1, imm(7) == 1
	}
	to.WGMMA = g
	srcs := append(append([]int32{}, to.A...), to.ADesc, to.BDesc)
	fl.emitTensor(OpTensor, TensorWgmma, src, to, to.D, srcs)
}

// lowerBulk lowers the non-tensor bulk copies: global to shared completing
// on an mbarrier, shared to global in bulk groups, and their group waits.
func (fl *fnLowerer) lowerBulk(src *ptx.Instr) {
	ms := src.Mods
	ops := src.Operands
	to := TensorOperands{Dst: -1, Src: -1, SrcSize: -1, Stride: -1, ADesc: -1, BDesc: -1, ScaleD: -1, MbarSlot: -1}
	switch {
	case hasMod(ms, "tensor"):
		fl.lowerTMA(src) // tma.go
		return
	case hasMod(ms, "multicast::cluster") || len(ms) > 2 && ms[2] == "reduce":
		fl.unsupported(src)
		return
	case hasMod(ms, "commit_group") || hasMod(ms, "wait_group") || hasMod(ms, "prefetch"):
		fl.emitTensor(OpAsync, AsyncBulkSync, src, to, nil, nil)
		in := &fl.f.Code[len(fl.f.Code)-1]
		switch {
		case hasMod(ms, "commit_group"):
			in.Cmp = BulkCommit
		case hasMod(ms, "wait_group"):
			in.Cmp = BulkWait
			if len(ops) == 1 && ops[0].Kind == ptx.OpdInt && ops[0].Bits < 256 {
				in.Vec = uint8(ops[0].Bits)
			}
		}
		return
	}
	if hasMod(ms, "L2::cache_hint") {
		// the trailing cache-policy operand is a hint: accepted, ignored
		if len(ops) < 4 || ops[len(ops)-1].Kind != ptx.OpdReg {
			fl.bad(src, "expected a cache-policy register after .L2::cache_hint")
			return
		}
		ops = ops[:len(ops)-1]
	}
	// destination space first, then the source's
	var spaces []ptx.Space
	for _, m := range ms[2:] {
		switch {
		case m == "global":
			spaces = append(spaces, ptx.SpaceGlobal)
		case m == "shared" || strings.HasPrefix(m, "shared::"):
			spaces = append(spaces, ptx.SpaceShared)
		}
	}
	if len(spaces) != 2 || len(ops) < 3 {
		fl.unsupported(src)
		return
	}
	var ok bool
	if to.Dst, to.DstOff, ok = fl.addrSlot(src, &ops[0]); !ok {
		return
	}
	if to.Src, to.SrcOff, ok = fl.addrSlot(src, &ops[1]); !ok {
		return
	}
	to.A = []int32{fl.value(src, &ops[2], ptx.U32)}
	switch {
	case spaces[0] == ptx.SpaceShared && spaces[1] == ptx.SpaceGlobal:
		if len(ops) != 4 {
			fl.unsupported(src)
			return
		}
		if to.MbarSlot, to.MbarOff, ok = fl.addrSlot(src, &ops[3]); !ok {
			return
		}
		to.DstSpace = ptx.SpaceShared
		fl.emitTensor(OpAsync, AsyncBulkG2S, src, to, nil, []int32{to.Dst, to.Src, to.A[0], to.MbarSlot})
	case spaces[0] == ptx.SpaceGlobal && spaces[1] == ptx.SpaceShared && len(ops) == 3:
		to.DstSpace = ptx.SpaceGlobal
		fl.emitTensor(OpAsync, AsyncBulkS2G, src, to, nil, []int32{to.Dst, to.Src, to.A[0]})
	default:
		fl.unsupported(src)
	}
}
