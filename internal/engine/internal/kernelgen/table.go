// Package kernelgen writes the engine's whole-warp lane kernels and the Go
// that dispatches to them, from the tables in this file: the AVX2 assembly
// (alu_amd64.s, lanes_amd64.s), its declarations and the wrappers that pick
// the assembly or the Go form (kernels_amd64.go, kernels_other.go), and the
// Go forms of the fast forms' lane loops (fastgo.go). internal/engine's
// gen_kernels.go writes them (go generate); TestKernelFilesGenerated
// wants the committed files equal to what Files returns.
//
// Adding an integer fast form: a row in aluOps (its lane function in
// internal/engine's fastlanes.go, its AVX2 instructions if it has them),
// its ir.Fast constant, then go generate ./internal/engine.
package kernelgen

// shape is how a fast form's sources reach its kernel.
type shape int

const (
	shapeCopy shape = iota // one source, copied whole (mov)
	shapeAB                // two register sources, a and b
	shapeABC               // three register sources, a, b and c
)

// An aluOp is one fast form (ir.Fast) of the engine's straight runs, and,
// with imm, its form whose second source is a constant (ir.FastXImm).
type aluOp struct {
	fast  string // the ir.Fast constant without its "Fast" prefix
	shape shape
	imm   bool // there is a FastXImm form
	// avx2 is the kernel's work on one 4-lane step: Y0 holds a's lanes,
	// Y1 b's (or the constant), Y2 c's, Y15 0xffffffff in each lane; the
	// result is left in Y0. Nil: no AVX2 kernel, the Go form always runs.
	avx2 []string
	// lane names the Go function (internal/engine/fastlanes.go) of one
	// lane: lane(a, b) or lane(a, b, c) on 64-bit registers.
	lane string
	// kernel names the AVX2 kernel when it is one of laneKernels (mov's
	// 32-lane copy) rather than one written from avx2.
	kernel string
}

// aluOps are the fast forms that run as one lane loop; the setp forms and
// fma.rn.f32 have forms of their own in internal/engine (fastRun). The
// order is the order of alu_amd64.s.
var aluOps = []aluOp{
	{fast: "Add32", shape: shapeAB, imm: true, avx2: []string{"VPADDQ Y1, Y0, Y0", "VPAND Y15, Y0, Y0"}, lane: "laneAdd32"},
	{fast: "Add64", shape: shapeAB, imm: true, avx2: []string{"VPADDQ Y1, Y0, Y0"}, lane: "laneAdd64"},
	{fast: "Sub32", shape: shapeAB, imm: true, avx2: []string{"VPSUBQ Y1, Y0, Y0", "VPAND Y15, Y0, Y0"}, lane: "laneSub32"},
	{fast: "Sub64", shape: shapeAB, avx2: []string{"VPSUBQ Y1, Y0, Y0"}, lane: "laneSub64"},
	{fast: "MulLo32", shape: shapeAB, imm: true, avx2: []string{"VPMULUDQ Y1, Y0, Y0", "VPAND Y15, Y0, Y0"}, lane: "laneMulLo32"},
	{fast: "MulWideU32", shape: shapeAB, imm: true, avx2: []string{"VPMULUDQ Y1, Y0, Y0"}, lane: "laneMulWideU32"},
	{fast: "MulWideS32", shape: shapeAB, imm: true, avx2: []string{"VPMULDQ Y1, Y0, Y0"}, lane: "laneMulWideS32"},
	// VPSLLVQ and VPSRLVQ give 0 for amounts of 64 or more; the masks make
	// the amount its low word and the result (or the shifted word) 32 bits.
	{fast: "Shl32", shape: shapeAB, imm: true, avx2: []string{"VPAND Y15, Y1, Y1", "VPSLLVQ Y1, Y0, Y0", "VPAND Y15, Y0, Y0"}, lane: "laneShl32"},
	{fast: "ShrU32", shape: shapeAB, imm: true, avx2: []string{"VPAND Y15, Y1, Y1", "VPAND Y15, Y0, Y0", "VPSRLVQ Y1, Y0, Y0"}, lane: "laneShrU32"},
	{fast: "And32", shape: shapeAB, imm: true, avx2: []string{"VPAND Y1, Y0, Y0", "VPAND Y15, Y0, Y0"}, lane: "laneAnd32"},
	{fast: "Or32", shape: shapeAB, imm: true, avx2: []string{"VPOR Y1, Y0, Y0", "VPAND Y15, Y0, Y0"}, lane: "laneOr32"},
	{fast: "Xor32", shape: shapeAB, imm: true, avx2: []string{"VPXOR Y1, Y0, Y0", "VPAND Y15, Y0, Y0"}, lane: "laneXor32"},
	// VPMULUDQ multiplies the low words: mad.lo.u32 is their product plus c,
	// low 32 bits.
	{fast: "MadLo32", shape: shapeABC, avx2: []string{"VPMULUDQ Y1, Y0, Y0", "VPADDQ Y2, Y0, Y0", "VPAND Y15, Y0, Y0"}, lane: "laneMadLo32"},
	{fast: "Mov", shape: shapeCopy, kernel: "copy32AVX2"},
	{fast: "AddF32", shape: shapeAB, lane: "addF32"},
	{fast: "MulF32", shape: shapeAB, lane: "mulF32"},
}

// A laneKernel is a whole-warp move or test of the memory paths: the
// function the engine calls (wrapper), which runs the AVX2 kernel where it
// may and the Go form (internal/engine/lanes.go, ldst_global.go) elsewhere.
type laneKernel struct {
	wrapper string
	params  string // the parameters and results, as Go writes them
	args    string // the parameters, as the wrapper passes them on
	avx2    string // the kernel, one of asmKernels
	goForm  string
	doc     string
}

var laneKernels = []laneKernel{
	{"laneSteps", "(r *[32]uint64, n uint64) (cons, uniform bool)", "r, n", "laneStepsAVX2", "laneStepsGo",
		"laneSteps reports whether the 32 lanes of r step by n (consecutive: lane\n" +
			"l holds r[0] + l*n, modulo 2^64) or all hold r[0] (uniform), in one pass."},
	{"fill32", "(d *[32]uint64, v uint64)", "d, v", "fill32AVX2", "fill32Go", "fill32 sets every lane of d to v."},
	{"widen32", "(d *[32]uint64, s *[32]uint32)", "d, s", "widen32AVX2", "widen32Go",
		"widen32 sets lane l of d to word l of s, zero-extended."},
	{"narrow32", "(s *[32]uint32, v *[32]uint64)", "s, v", "narrow32AVX2", "narrow32Go",
		"narrow32 sets word l of s to the low 32 bits of lane l of v."},
	{"loadWords32", "(d *[32]uint64, s *[32]uint32)", "d, s", "widen32AVX2", "loadWords32Go",
		"loadWords32 is widen32 reading global memory, which other workers'\n" +
			"blocks may update with atomics at the same moment: each aligned word is\n" +
			"read whole (a vector load of aligned words reads each word at once, as\n" +
			"a plain move does, on the CPUs that have AVX2)."},
	{"loadWords64", "(d *[32]uint64, s *[32]uint64)", "d, s", "copy32AVX2", "loadWords64Go",
		"loadWords64 sets lane l of d to doubleword l of s, each read whole."},
}

// A setpKernel is one of the integer setp loops of a whole warp (arith.go's
// setpMask32 and setpMask32Imm pick them): d[l] = pred(lane l), the lanes
// gathered as a mask. With AVX2 it calls avx2, one of the two setp kernels
// with the arguments that make it compute pred; otherwise pred
// (internal/engine/fastlanes.go) runs on four lanes a step.
type setpKernel struct {
	name   string
	params string // the parameters after a
	avx2   string // the kernel call
	pred   string // the lane function
	args   string // pred's arguments after lane l of a
	doc    string
}

var setpKernels = []setpKernel{
	{"setpEq32", "b, d *[32]uint64, inv uint64", "setpRegAVX2(a, b, d, 2, -inv)", "predEq32", "b[l], inv",
		"setpEq32 sets d[l] to (a[l] == b[l]) ^ inv on the low 32 bits."},
	{"setpSubU32", "b, d *[32]uint64, inv uint64", "setpRegAVX2(a, b, d, 0, -inv)", "predLtU32", "b[l], inv",
		"setpSubU32 sets d[l] to (a[l] < b[l]) ^ inv, unsigned 32-bit."},
	{"setpSubS32", "b, d *[32]uint64, inv uint64", "setpRegAVX2(a, b, d, 1, -inv)", "predLtS32", "b[l], inv",
		"setpSubS32 sets d[l] to (a[l] < b[l]) ^ inv, signed 32-bit."},
	{"setpEq32Imm", "c uint32, d *[32]uint64", "setpImmAVX2(a, d, uint64(c), ^uint64(0), false)", "predEq32Imm", "c",
		"setpEq32Imm sets d[l] to a[l] == c on the low 32 bits."},
	{"setpNe32Imm", "c uint32, d *[32]uint64", "setpImmAVX2(a, d, ^uint64(c), 1, false)", "predNe32Imm", "c",
		"setpNe32Imm sets d[l] to a[l] != c on the low 32 bits."},
	{"setpSignU32", "k uint64, d *[32]uint64", "setpImmAVX2(a, d, 0, k, false)", "predSignU32", "k",
		"setpSignU32 sets d[l] to the sign of a[l] + k, a[l] zero-extended from\n32 bits."},
	{"setpSignU32Flip", "k uint64, d *[32]uint64", "setpImmAVX2(a, d, ^uint64(0), k, false)", "predSignU32Flip", "k",
		"setpSignU32Flip sets d[l] to the sign of ^a[l] + k, a[l] zero-extended\nfrom 32 bits."},
	{"setpSignS32", "k uint64, d *[32]uint64", "setpImmAVX2(a, d, 0, k, true)", "predSignS32", "k",
		"setpSignS32 is setpSignU32 with a[l] sign-extended from 32 bits."},
	{"setpSignS32Flip", "k uint64, d *[32]uint64", "setpImmAVX2(a, d, ^uint64(0), k, true)", "predSignS32Flip", "k",
		"setpSignS32Flip is setpSignU32Flip with a[l] sign-extended from 32 bits."},
}
