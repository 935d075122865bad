// Package ir lowers a parsed PTX module into pre-decoded programs: per
// function a flat slice of one plain instruction struct whose operands are
// dense register slots, with labels resolved to instruction indices,
// special registers to enums, variables to frame or segment offsets, and
// every branch annotated with its reconvergence point (the immediate
// post-dominator). Lowering validates once, so the engine's hot loop does
// no decoding; anything the engine cannot run is reported here, positioned.
package ir

import (
	"strings"

	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/metrics"
	"github.com/warpsim/warpsim/ptx"
)

// Op is an instruction kind.
type Op uint8

// Instruction kinds. Modifiers that change semantics live in Inst.Flags,
// Inst.Mode, Inst.Rnd and the types.
const (
	OpNop Op = iota
	OpMov
	OpMovSreg // D0 = special register Inst.Imm (Sreg)
	OpMovAddr // D0 = address of a symbol (Sym, SymKind) + Imm
	OpPack    // D0 = {A0..An-1} packed, Vec elements of Type2 width
	OpUnpack  // {D0..Dn-1} = A0 split into Vec elements of Type2
	OpAdd     // Flags: FlagSat, FlagCC, FlagCarryIn
	OpSub
	OpMul // Mode: MulLo/MulHi/MulWide
	OpMad // Mode as OpMul; FlagCC/FlagCarryIn for mad.cc/madc
	OpMul24
	OpMad24
	OpDiv
	OpRem
	OpMin
	OpMax
	OpAbs
	OpNeg
	OpAnd
	OpOr
	OpXor
	OpNot
	OpCnot
	OpShl
	OpShr
	OpLop3 // Imm = lut
	OpPopc
	OpClz
	OpBrev
	OpBfind // FlagShiftAmt
	OpFns
	OpBfe
	OpBfi
	OpPrmt // Mode = PrmtMode
	OpShf  // Mode: bit0 left, bit1 clamp
	OpSad
	OpDp4a // Type = a's type, Type2 = b's type
	OpDp2a // Mode: 0 lo, 1 hi
	OpFma
	OpRcp
	OpSqrt
	OpRsqrt
	OpSin
	OpCos
	OpEx2
	OpLg2
	OpTanh
	OpTestp // Mode = test
	OpCopysign
	OpCvt  // Type = dst, Type2 = src
	OpCvta // Mode: 0 to generic, 1 to space; Space
	OpSelp
	OpSet  // Type = dst, Type2 = compare type; Cmp; BoolOp with A2
	OpSetp // D0 (D1 = complement when pair); Cmp; BoolOp with A2
	OpSlct // Type = dst, Type2 = c's type (s32/f32)
	OpLd   // Space, Type, Vec; address = A0 reg (or -1) + Imm + symbol
	OpSt   // value slots in A1..A4
	OpAtom // Mode = AtomOp; D0 = old; A1 (A2 for cas); .b128: D0/D1, A1/A2 (A3/A4) halves; Vec = element index k of a vector atomic (0: first)
	OpRed
	OpBra
	OpCall // Imm = index into Func.Calls
	OpRet
	OpExit
	OpTrap
	OpBrkpt
	OpBar     // Mode: BarSync/BarArrive/BarRed; A0 = id slot; A1 = count slot or -1
	OpBarWarp // bar.warp.sync
	OpShfl    // Mode = ShflMode; D0, D1 (pred or -1); A0 value, A1 lane/delta, A2 clamp, A3 membermask
	OpVote    // Mode = VoteMode; A0 pred; A1 membermask
	OpMatch   // Mode: 0 any, 1 all; D0; D1 pred or -1; A0 value; A1 membermask
	OpRedux   // Mode = redux op; A0 value; A1 membermask
	OpActivemask
	OpMembar // also fence; no effect in a sequentially consistent engine
	OpPrefetch
	OpVprintf // Imm = index into Func.Calls
	OpLibcall // Imm = index into Func.Calls; Mode = LibcallSinf … (0: another function)
	OpIsspacep
	OpBrx    // brx.idx: A0 = index; Imm = index into Func.BranchTables
	OpDevRT  // device runtime call (dynamic parallelism): Mode = DevRT*; Imm = index into Func.Calls
	OpTex    // tex, tld4: Mode = geometry (Tex1D…); Imm = index into Func.TexOps; Type = dst, Type2 = coordinates
	OpSuld   // suld.b: Mode = geometry; Imm = index into Func.TexOps; Type = element, Vec
	OpSust   // sust.b: as OpSuld, the values in Func.TexOps
	OpExt    // sm_80+ instructions of lower_sm90.go: Mode = Ext*
	OpTensor // mma, ldmatrix, stmatrix, movmatrix: Mode = Tensor*; Imm = index into Func.TensorOps
	OpAsync  // cp.async and mbarrier: Mode = Async*/Mbar*; Imm = index into Func.TensorOps
	OpVideo  // the video instructions (vadd … vmad, vadd2 … vset4): Imm = scalar.VideoInsn; A2 = c
	NumOps
)

// Flag bits of Inst.Flags.
const (
	FlagFtz uint16 = 1 << iota
	FlagSat
	FlagApprox
	FlagFull
	FlagCC      // writes the carry flag
	FlagCarryIn // reads the carry flag (addc, subc, madc)
	FlagNaN     // min/max .NaN
	FlagRelu
	FlagUni  // bra.uni / call.uni
	FlagPair // setp with a second (complement) output
	FlagNegB // set/setp boolean operand is negated (!%p)
	FlagShiftAmt
	FlagIntRound // cvt with rni/rzi/rmi/rpi on float→float
	FlagXorSign
	// FlagStrong: a load with .volatile, .relaxed, .acquire or .sc at a
	// scope wider than the CTA (it may see another block's stores as they
	// happen: a poll). It changes nothing in this sequentially consistent
	// engine; the timing model keeps such grids on one thread.
	FlagStrong
	// FlagNC: ld.global.nc, a load of data no store of the kernel writes
	// (the timing model lets it pass the warp's earlier stores).
	FlagNC
)

// Memory-order bits of Inst.Order (atom, red, membar, fence and
// barrier.cluster.arrive, which is .release unless .relaxed): the
// semantics and the scope. Results do not depend on them (the engine is
// sequentially consistent); the timing model charges what they cost.
const (
	OrderAcquire uint8 = 1 << iota // .acquire, .acq_rel, .sc; a fence
	OrderRelease                   // .release, .acq_rel, .sc; a fence
	OrderCluster                   // scope .cluster
	OrderGPU                       // scope .gpu (an atomic's default; membar.gl)
	OrderSys                       // scope .sys
)

// MembarTensormapAcquire is the Mode of fence.proxy.tensormap::generic.acquire
// (an OpMembar): the tensor-map writes a release made are visible to the
// TMA unit after it (the timing model waits for them).
const MembarTensormapAcquire uint8 = 1

// Multiply modes (Inst.Mode of OpMul/OpMad).
const (
	MulLo uint8 = iota
	MulHi
	MulWide
)

// Comparison operators (Inst.Cmp).
const (
	CmpEq uint8 = iota
	CmpNe
	CmpLt
	CmpLe
	CmpGt
	CmpGe
	CmpLo
	CmpLs
	CmpHi
	CmpHs
	CmpEqu
	CmpNeu
	CmpLtu
	CmpLeu
	CmpGtu
	CmpGeu
	CmpNum
	CmpNan
)

// LdWideDest in Inst.Cmp of an OpLd marks 64-bit destination registers.
const LdWideDest uint8 = 1

// LdL2Only in Inst.Mode of an OpLd: a global load whose line does not stay
// in the SM's L1 and is read from the L2 each time — the .cg and .cv cache
// operators, and a strong load beyond the CTA (FlagStrong: the L1 is not
// coherent across SMs, so such a load is served at the L2). Results do not
// depend on it; the timing model reads such a load around the L1.
const LdL2Only uint8 = 1

// Boolean combination of set/setp (Inst.BoolOp).
const (
	BoolNone uint8 = iota
	BoolAnd
	BoolOr
	BoolXor
)

// Rounding modes (Inst.Rnd); values match internal/scalar's Rounding+1 so
// that RndNone (the instruction named none) is distinct.
const (
	RndNone uint8 = iota
	RndRN
	RndRZ
	RndRM
	RndRP
	RndRNA
)

// Atomic operations (Inst.Mode of OpAtom/OpRed/OpRedux).
const (
	AtomAdd uint8 = iota
	AtomMin
	AtomMax
	AtomAnd
	AtomOr
	AtomXor
	AtomExch
	AtomCas
	AtomInc
	AtomDec
)

// Device runtime functions (OpDevRT's Mode): dynamic parallelism.
const (
	DevRTGetParameterBufferV2  uint8 = iota // (func, grid dim3, block dim3, shmem) → buffer
	DevRTGetParameterBuffer                 // (align, size) → buffer
	DevRTLaunchDeviceV2                     // (buffer, stream) → error
	DevRTLaunchDevice                       // (func, buffer, grid, block, shmem, stream) → error
	DevRTGetLastError                       // () → error, and the thread's last error is reset
	DevRTPeekAtLastError                    // () → error
	DevRTDeviceSynchronize                  // () → error: CDP1's device-side cudaDeviceSynchronize
	DevRTStreamCreateWithFlags              // (stream*, flags) → error
	DevRTStreamDestroy                      // (stream) → error
	DevRTEventCreateWithFlags               // (event*, flags) → error
	DevRTEventRecord                        // (event, stream) → error
	DevRTEventDestroy                       // (event) → error
	DevRTStreamWaitEvent                    // (stream, event, flags) → error
	DevRTMemcpyAsync                        // (dst, src, count, kind, stream) → error
	DevRTMemsetAsync                        // (ptr, value, count, stream) → error
	DevRTMemcpy2DAsync                      // (dst, dpitch, src, spitch, width, height, kind, stream) → error
	DevRTMemset2DAsync                      // (ptr, pitch, value, width, height, stream) → error
)

// The kinds of a call of a libdevice function (OpLibcall, which warpsim
// runs natively) that the timing model costs as ptxas's CALL of
// libdevice's routine (clang leaves libdevice's functions as calls:
// warpsim cc links no libdevice, where nvcc inlines their code): an
// OpLibcall's Mode. The functions measured on their own
// (arch.LibcallFuncs, testdata/libm20) are kinds LibcallFirst on, in that
// list's order; the other math functions of libdevice are LibcallMathF32 or
// LibcallMathF64 (libcallMath); the rest (integer helpers, conversions,
// rounding, fmin, fabs …: one or a few instructions) LibcallOther.
const (
	LibcallOther   uint8 = iota // not a math routine: its issue slots and class latency
	LibcallFolded               // every argument a constant: folded (libcallFolded)
	LibcallMathF32              // a float math function not measured on its own
	LibcallMathF64              // a double one
	LibcallFirst                // arch.LibcallFuncs[0]
	LibcallKinds   = LibcallFirst + uint8(len(arch.LibcallFuncs))
)

// LibcallSinf, LibcallCosf and LibcallSqrtf are the kinds of the three
// functions measured first (testdata/programs3/clangcode/stamps).
const (
	LibcallSinf  = LibcallFirst + iota // __nv_sinf
	LibcallCosf                        // __nv_cosf
	LibcallSqrtf                       // __nv_sqrtf
)

// LibcallNames maps the measured libdevice functions' names (__nv_sinf …)
// to their kind.
var LibcallNames = func() map[string]uint8 {
	m := make(map[string]uint8, len(arch.LibcallFuncs))
	for i, f := range arch.LibcallFuncs {
		m["__nv_"+f] = LibcallFirst + uint8(i)
	}
	return m
}()

// libcallMath are libdevice's math routines by their double name (the
// float one adds an f): calls of tens to hundreds of SASS instructions.
var libcallMath = func() map[string]bool {
	m := map[string]bool{}
	for _, f := range strings.Fields(`exp exp2 exp10 expm1 log log2 log10 log1p pow powi sin cos tan sincos
		sinpi cospi sincospi asin acos atan atan2 sinh cosh tanh asinh acosh atanh erf erfc erfcx erfinv
		erfcinv normcdf normcdfinv cbrt rcbrt hypot rhypot norm3d rnorm3d norm4d rnorm4d norm rnorm fmod
		remainder remquo lgamma tgamma j0 j1 y0 y1 jn yn cyl_bessel_i0 cyl_bessel_i1 sqrt rsqrt`) {
		m[f] = true
	}
	return m
}()

// LibcallKind is the kind of a call of the extern function name (not
// LibcallFolded, which lowering sets from the call's arguments).
func LibcallKind(name string) uint8 {
	if k, ok := LibcallNames[name]; ok {
		return k
	}
	f, ok := strings.CutPrefix(name, "__nv_")
	switch {
	case !ok:
		return LibcallOther
	case libcallMath[f]:
		return LibcallMathF64
	case strings.HasSuffix(f, "f") && libcallMath[f[:len(f)-1]]:
		return LibcallMathF32
	}
	return LibcallOther
}

// DevRTNames maps the device runtime's extern function names to their kind:
// CUDA 11's names (CDP1, and what clang emits), CUDA 12's __cudaCDP2 names.
var DevRTNames = map[string]uint8{
	"__cudaCDP2GetParameterBufferV2":            DevRTGetParameterBufferV2,
	"cudaGetParameterBufferV2":                  DevRTGetParameterBufferV2,
	"__cudaCDP2GetParameterBuffer":              DevRTGetParameterBuffer,
	"cudaGetParameterBuffer":                    DevRTGetParameterBuffer,
	"__cudaCDP2LaunchDeviceV2":                  DevRTLaunchDeviceV2,
	"cudaLaunchDeviceV2":                        DevRTLaunchDeviceV2,
	"__cudaCDP2LaunchDevice":                    DevRTLaunchDevice,
	"cudaLaunchDevice":                          DevRTLaunchDevice,
	"__cudaCDP2GetLastError":                    DevRTGetLastError,
	"cudaGetLastError":                          DevRTGetLastError,
	"__cudaCDP2PeekAtLastError":                 DevRTPeekAtLastError,
	"cudaPeekAtLastError":                       DevRTPeekAtLastError,
	"cudaDeviceSynchronize":                     DevRTDeviceSynchronize,
	"cudaDeviceSynchronizeDeprecationAvoidance": DevRTDeviceSynchronize,
	"__cudaCDP2StreamCreateWithFlags":           DevRTStreamCreateWithFlags,
	"cudaStreamCreateWithFlags":                 DevRTStreamCreateWithFlags,
	"__cudaCDP2StreamDestroy":                   DevRTStreamDestroy,
	"cudaStreamDestroy":                         DevRTStreamDestroy,
	"__cudaCDP2EventCreateWithFlags":            DevRTEventCreateWithFlags,
	"cudaEventCreateWithFlags":                  DevRTEventCreateWithFlags,
	"__cudaCDP2EventRecord":                     DevRTEventRecord,
	"cudaEventRecord":                           DevRTEventRecord,
	"__cudaCDP2EventDestroy":                    DevRTEventDestroy,
	"cudaEventDestroy":                          DevRTEventDestroy,
	"__cudaCDP2StreamWaitEvent":                 DevRTStreamWaitEvent,
	"cudaStreamWaitEvent":                       DevRTStreamWaitEvent,
	"__cudaCDP2MemcpyAsync":                     DevRTMemcpyAsync,
	"cudaMemcpyAsync":                           DevRTMemcpyAsync,
	"__cudaCDP2MemsetAsync":                     DevRTMemsetAsync,
	"cudaMemsetAsync":                           DevRTMemsetAsync,
	"__cudaCDP2Memcpy2DAsync":                   DevRTMemcpy2DAsync,
	"cudaMemcpy2DAsync":                         DevRTMemcpy2DAsync,
	"__cudaCDP2Memset2DAsync":                   DevRTMemset2DAsync,
	"cudaMemset2DAsync":                         DevRTMemset2DAsync,
}

// CallsDeviceSync reports whether f calls CDP1's device-side
// cudaDeviceSynchronize directly.
func (f *Func) CallsDeviceSync() bool {
	for _, c := range f.Calls {
		if m, ok := DevRTNames[c.Extern]; ok && m == DevRTDeviceSynchronize {
			return true
		}
	}
	return false
}

// Shuffle modes.
const (
	ShflUp uint8 = iota
	ShflDown
	ShflBfly
	ShflIdx
)

// Vote modes.
const (
	VoteAll uint8 = iota
	VoteAny
	VoteUni
	VoteBallot
)

// Barrier modes.
const (
	BarSync uint8 = iota
	BarArrive
	BarRedPopc
	BarRedAnd
	BarRedOr
)

// Testp tests.
const (
	TestFinite uint8 = iota
	TestInfinite
	TestNumber
	TestNotANumber
	TestNormal
	TestSubnormal
)

// SymKind says what an instruction's symbol reference is relative to.
type SymKind uint8

const (
	SymNone     SymKind = iota
	SymGlobal           // module .global/.const variable Sym: device address
	SymShared           // shared variable Sym: offset in the block's shared memory
	SymFrame            // per-thread parameter scratch: the function's parameters, return values and .param variables (Imm is the offset in its scratch)
	SymFrameTop         // per-thread frame: its .local variables (Imm is the offset from the frame's top, FrameBytes)
	SymKParam           // kernel parameter buffer (Imm is the offset)
	SymFunc             // address of function Sym (for indirect calls)
)

// Sreg is a special register.
type Sreg uint8

const (
	SregTidX Sreg = iota
	SregTidY
	SregTidZ
	SregNtidX
	SregNtidY
	SregNtidZ
	SregCtaidX
	SregCtaidY
	SregCtaidZ
	SregNctaidX
	SregNctaidY
	SregNctaidZ
	SregLaneid
	SregWarpid
	SregNwarpid
	SregSmid
	SregNsmid
	SregGridid
	SregLanemaskEq
	SregLanemaskLt
	SregLanemaskLe
	SregLanemaskGt
	SregLanemaskGe
	SregClock
	SregClock64
	SregGlobaltimer
	SregGlobaltimerLo
	SregGlobaltimerHi
	SregDynamicSmemSize
	SregTotalSmemSize
	SregWarpSize
	SregPm
	SregEnvreg // %envreg0..31: driver-defined; 0 here
	// SregEnvreg1 and SregEnvreg2 are the high and low halves of the
	// grid workspace pointer (0 before the first cooperative launch),
	// which nvcc's grid_group::sync() and is_valid() read.
	SregEnvreg1
	SregEnvreg2
)

// Inst is one pre-decoded instruction. Register operands are slots of the
// function's register file; immediates were turned into constant slots, so
// every source is a slot. -1 means "no operand".
type Inst struct {
	Op       Op
	Type     ptx.Type
	Type2    ptx.Type
	Space    ptx.Space
	Cmp      uint8
	BoolOp   uint8
	Rnd      uint8
	Mode     uint8
	Vec      uint8
	SymKind  SymKind
	GuardNeg bool
	Flags    uint16
	Order    uint8 // memory order of atom, red and fences (Order* bits); 0: relaxed
	Agg      uint8 // atom, red: how ptxas aggregates it across the warp (Agg*, uniform.go)
	Guard    int32 // predicate slot, -1 when unguarded
	D        [4]int32
	A        [5]int32
	Sym      int32 // module variable index (SymGlobal/SymShared)
	Imm      int64
	Target   int32 // branch target pc
	Reconv   int32 // reconvergence pc of a branch (immediate post-dominator); -1 when none
	Backward bool  // branch target <= pc
	Fast     Fast  // specialized form, FastNone when none
	Class    Class // the pipe it issues to (timing)
}

// Param is one parameter's place in a kernel's parameter buffer or a
// function's frame.
type Param struct {
	Name                string
	Offset, Size, Align int
	Type                ptx.Type // the declared type (.b8 for a byte array)
}

// CallSite is one call's argument and return copies, in frame offsets.
type CallSite struct {
	Callee int32 // index in Program.Funcs; -1 for externs and indirect calls
	// Indirect calls take the callee from register slot Target.
	Indirect bool
	Target   int32
	Extern   string // vprintf, __nv_* …
	Args     []Param
	Rets     []Param
	ArgType  []ptx.Type
	RetType  ptx.Type
}

// Const is a constant slot's value, filled in every lane when a frame is
// set up; constant slots are never written.
type Const struct {
	Slot  int32
	Value uint64
}

// LineInfo is the source position of one instruction.
type LineInfo = metrics.LineInfo

// Func is one lowered function.
type Func struct {
	Name       string
	Entry      bool
	Code       []Inst
	NumSlots   int // register slots, constants included
	Consts     []Const
	Params     []Param // kernel: offsets in the parameter buffer; function: frame offsets
	ParamBytes int
	Rets       []Param // scratch offsets of .func return parameters
	// FrameBytes is the function's frame in the thread's stack: its
	// .local variables. Its parameters, return values and the .param
	// variables of the calls it makes, which ptxas passes in registers,
	// take ScratchBytes of the thread's parameter scratch instead, outside
	// the stack (engine/stack.go).
	FrameBytes   int
	ScratchBytes int
	LocalBytes   int // .local variables only (report)
	// Unsupported, when not empty, is the first construct of the
	// function's own body the engine cannot run yet ("file:line:col: msg");
	// the function's code is then incomplete and must not run.
	Unsupported string
	Locals      []Param // .local variables: frame offset and size (the sanitizer's --check-local)
	Calls       []CallSite
	// BranchTables are the .branchtargets lists of brx.idx, as pcs.
	BranchTables [][]int32
	// TexOps are the operands of the texture and surface instructions.
	TexOps []TexOperands
	// TensorOps are the operands of OpTensor and OpAsync (tensor.go).
	TensorOps []TensorOperands
	Lines     []LineInfo // per pc
	Text      []string   // per pc, the instruction as written (for fault reports)
	// Inlined is, per pc, the innermost inlined call the instruction's
	// source line lies in when the compiler inlined a function there
	// (nvcc's ".loc …, function_name L, inlined_at …"): 1 + its index in
	// InlineSites, 0 for the function's own lines; nil when the function
	// has none. It may be shorter than Code (InlinedFunc, InlineFrames).
	Inlined []int32
	// InlineSites are the inlined calls Inlined names, each with the call
	// it lies in (nested inlining: ptx.Inline).
	InlineSites []InlineSite
	// Shared lists the module shared variables this function (with its
	// callees) uses; kernels lay them out in this order.
	UsesDynShared bool
	// RegEstimate is a kernel's registers per thread as ptxas would
	// allocate them (regsched.go); 0 for a device function.
	RegEstimate int
	// LiveWords is, per pc, the 32-bit registers live right after the
	// instruction in the PTX's order, with the address arithmetic ptxas
	// folds into memory instructions taken out: the liveness the register
	// estimate starts from (regEstimate). The timing model bounds the
	// loads a warp hoists above their earlier loads' consumers by what
	// the kernel's registers leave beside it (Params.HoistLoads). Nil for
	// a device function.
	LiveWords []uint16
	// LiveWordsConst is LiveWords without the values ptxas reads from the
	// constant bank where it uses them (a parameter, a __constant__ at a
	// fixed address, their cvta.to.global: constantBankWidths), for the
	// timing model's Params.ConstBankLive; nil when the kernel has none.
	LiveWordsConst []uint16
	// HoistRegs is the registers (by ptxas's count) the kernel needs with
	// each block's loads scheduled as early as their operands allow, none
	// held back (the register estimate's scheduled order): a kernel with
	// that many hoists them all; one with fewer hoists them while they
	// fit (Params.HoistLoads). 0 for a device function.
	HoistRegs int
	// UnrolledLoadWords is the most 32-bit registers the global and
	// local loads of one PTX body of a loop ptxas unrolls again
	// (BraUnrolled) write: ptxas's body holds UnrollFactor of them, so
	// hoisting every load of its body needs that many more registers per
	// further copy than HoistRegs, which schedules the PTX's body
	// (testdata/timing/hoist). 0 when the kernel has no such loop.
	UnrolledLoadWords int
	ReqNTID           [3]int
	MaxNTID           [3]int
	MinBlocks         int
	MaxNReg           int
	// ClusterDims is .reqnctapercluster (__cluster_dims__); zero when the
	// kernel does not fix its cluster shape.
	ClusterDims [3]int
	calls       []int32
	sharedUsed  []int32
	// noUnroll lists the pcs of the function's `.pragma "nounroll"`
	// statements (the instruction after each): ptxas leaves the loop
	// holding one as it is (unrolledGuards).
	noUnroll []int32
	// slotWidths is each register slot's width in 32-bit registers, as
	// the register estimate counts them (tests).
	slotWidths []uint8
}

// SlotWords is register slot s's width in 32-bit registers, as the
// register estimate counts it (0 for a predicate or an unknown slot).
func (f *Func) SlotWords(s int32) int {
	if s < 0 || int(s) >= len(f.slotWidths) {
		return 0
	}
	return int(f.slotWidths[s])
}

// Var is a module-scope variable.
type Var struct {
	Name  string
	Space ptx.Space
	Size  int
	Align int
	Init  []byte
	// Relocs are initializer elements that hold addresses of other module
	// variables, patched when the module is loaded.
	Relocs []Reloc
	Extern bool
}

// Reloc is an address stored in a variable's initializer.
type Reloc struct {
	Offset  int   // byte offset in the variable
	Size    int   // 4 or 8
	Var     int32 // target module variable (-1: see Func)
	Func    int32 // target function for a function address, else -1
	Addend  int64
	Generic bool
	// Mask selects bytes of the address, for LLVM's byte-wise form
	// "0xFF00(generic(x)+4)": the value stored is (address & Mask) shifted
	// right by Mask's trailing zero bits. 0: the whole address.
	Mask uint64

	name     string
	funcName string
	pos      ptx.Pos
}

// FuncAddrBase is where function addresses live in the device address
// space: function i is at FuncAddrBase + 16*i. Nothing is mapped there, so
// loading through a function pointer faults.
const FuncAddrBase = 0x0000_0300_0000_0000

// Program is a lowered module.
type Program struct {
	Filename   string
	Funcs      []*Func
	Vars       []*Var
	FuncByName map[string]int
	VarByName  map[string]int
	// SharedLayout is, per kernel (index in Funcs), each used shared module
	// variable's offset (-1 when unused), and StaticShared the total.
	SharedOffsets  [][]int32
	StaticShared   []int
	DynSharedAlign []int
	// Unsupported are the errors of Lower that name constructs the engine
	// cannot run yet inside a function body (each function's first is also
	// its Func.Unsupported). When they are all of Lower's errors, the
	// program is complete but for those functions.
	Unsupported ptx.ErrorList
}

// Kernels returns the indices of the entry functions.
func (p *Program) Kernels() []int {
	var ks []int
	for i, f := range p.Funcs {
		if f.Entry {
			ks = append(ks, i)
		}
	}
	return ks
}

// InlineSite is one call the compiler inlined: the function called (its
// mangled name), where the call stood (the caller's source file and line),
// the inlined call the caller's code lies in (1 + its index in
// Func.InlineSites; 0 when the caller is the function itself), and the
// first pc of the call's inlined code. Cut marks a call whose caller is not
// known: a Parent of 0 in a file none of the function's own lines lies in
// is a chain cut short (warpsim cc's PTX gives a nested chain's innermost
// call alone, cuda/cc/inlines.go), not a call the function made.
type InlineSite struct {
	Func   string
	File   string
	Line   int
	Parent int32
	PC     int
	Cut    bool
}

// site is 1 + the index in f.InlineSites of the innermost inlined call the
// instruction at pc lies in; 0 when it is f's own.
func (f *Func) site(pc int) int32 {
	if pc < 0 || pc >= len(f.Inlined) {
		return 0
	}
	return f.Inlined[pc]
}

// InlinedFunc is the mangled name of the inlined function the instruction
// at pc comes from ("" when it is f's own).
func (f *Func) InlinedFunc(pc int) string {
	if s := f.site(pc); s > 0 {
		return f.InlineSites[s-1].Func
	}
	return ""
}

// InlineFrame is one caller of an inlined function: the caller's mangled
// name ("" for f itself), and the call's source file and line and pc.
type InlineFrame struct {
	Func string
	File string
	Line int
	PC   int
}

// InlineFrames are the callers of the inlined code the instruction at pc
// lies in, innermost first, f itself last; nil when the instruction is f's
// own, and stopping before a call whose caller is not known (Cut). A
// call's pc is the first instruction of its inlined code, over the
// whole function: an inlining record (function, call position, enclosing
// call) is all the PTX says of an inlined call, so every copy of it (an
// unrolled loop's) is one call, as ptxas records it for compute-sanitizer,
// which gives the lowest code offset of the call's code
// (docs/sanitizer.md, "Inlined frames").
func (f *Func) InlineFrames(pc int) []InlineFrame {
	var out []InlineFrame
	for s := f.site(pc); s > 0; {
		site := f.InlineSites[s-1]
		if site.Cut {
			break
		}
		caller := ""
		if site.Parent > 0 {
			caller = f.InlineSites[site.Parent-1].Func
		}
		out = append(out, InlineFrame{Func: caller, File: site.File, Line: site.Line, PC: site.PC})
		if site.Parent >= s { // a caller is recorded before its calls
			break
		}
		s = site.Parent
	}
	return out
}
