package ir

import (
	"slices"

	"github.com/warpsim/warpsim/internal/tensor"
	"github.com/warpsim/warpsim/ptx"
)

// WmmaAccess is how ptxas moves one wmma.load or wmma.store fragment
// between registers and memory on sm_90: as Insts SASS loads or stores,
// each a warp-wide request of its own, plus Movm MOVM.16.MT88 register
// transposes. Read from nvcc 13's SASS of every fragment kind
// (testdata/programs3/wmmamem: mb3.cu, expand.py).
//
// The fragment's memory tile is TileRows storage rows (the matrix's rows,
// or its columns when column-major) of TileRowBytes bytes each, Stride
// elements apart. ptxas reads and writes it with the mma fragments'
// lane layout: a block of BlockRows storage rows, 32/BlockRows lanes a
// row, each lane W contiguous bytes (BlockBytes = 32/BlockRows*W bytes of
// each row):
//
//   - an 8-bit operand stored the other way round (A column-major, B
//     row-major): a byte an element, global or shared, 4 rows of 8 bytes
//     a load (s8 m16n16k16 B row-major: eight LDG.E.U8 or LDS.U8, and
//     PRMTs: testdata/programs3/wmmagemm);
//   - 8- and 16-bit elements: 8 rows of 16 bytes, a 32-bit register a lane
//     (LDG.E/LD.E/LDS/STG/STS; f16 m16n16k16 A or B: four, m32n8k16 A:
//     eight, s8 m16n16k16: two, f16 accumulators: four); an operand
//     stored the other way round from the MMA's (A column-major, B
//     row-major) or a column-major f16 accumulator is read as stored,
//     then each register transposed (MOVM.16.MT88);
//   - 32- and 64-bit elements the MMA's way round (A row-major, B
//     column-major, accumulators row-major): 8 rows, four lanes a row,
//     an element a lane for operands (tf32: four LD.E, f64 A/B: one
//     LD.E.64), two adjacent ones for accumulators (f32/s32: four
//     LDG.E.64, f64: one LD.E.128);
//   - 32- and 64-bit elements the other way round: 4 rows of eight lanes,
//     an element a lane (tf32 A column-major: four LD.E of four lines;
//     f32 accumulators column-major: eight LDG.E).
//
// An f16, s8 or u8 operand loaded with .shared is read by LDSM (ldmatrix):
// each block is one 8x8 matrix, four to an instruction (BlocksPerInst),
// each matrix its own shared-memory wavefronts. The state space of the
// PTX decides the instruction, not the address: nvcc writes bf16, tf32
// and f64 wmma.load/store without one (generic LD/ST, whatever the
// address), f16, s8, u8 and the accumulators with .global or .shared.
type WmmaAccess struct {
	TileRows, TileRowBytes int
	BlockRows, BlockBytes  int
	BlocksPerInst          int
	Insts, Movm            int
	// Interleaved: a block's rows are TileRows/BlockRows apart, not
	// adjacent — an 8-bit operand read a byte an element, whose lane%4
	// picks a group of four storage rows and each LDG.E.U8 or LDS.U8 reads
	// one row of every group (wg.sass, gg of s8: rows 0, 4, 8, 12, then
	// 1, 5, 9, 13, ...), which decides its shared-memory bank conflicts
	// and which rows each half of the loads (Groups) reads.
	Interleaved bool
	// Rounds is how many memory round trips a step's MMA waits for this
	// fragment's loads: 1, or more where ptxas places the loaded values'
	// consumers between the step's loads (markWmmaRounds).
	Rounds int
	// Groups is how many of those round trips are the fragment's own
	// loads, each group sent when the data of the one before is back (the
	// rest are the step's other loads): for an 8-bit operand read a byte
	// an element, 2 where it takes eight or sixteen loads (ptxas's two
	// halves of its LDG.E.U8, each packed before the next goes out), 1
	// where it takes four (wmmaByteRounds); else 1 (WmmaGroupRounds).
	Groups int
	// Slices: the groups are the fragment's HMMA.1684 k-slices (an A
	// fragment of tf32 the code converts, markWmmaRounds), each sent when
	// the slice before is back: the k columns of each storage row for A
	// row-major (group k is requests k, k+Groups, ...), the storage rows
	// for A column-major (contiguous requests).
	Slices bool
	// Reuse: an A or B fragment's load inside a loop, whose registers
	// ptxas gives to each k step's fragment in turn, so that it issues
	// after the earlier MMAs of the loop that read them (markWmmaReuse).
	Reuse bool
}

// Group is which of g groups request i of n is in: for k-slices (Slices)
// of a tile stored the MMA's way round (its storage rows are M or N, the
// k values along each row) each block row's columns, i%g; else the
// requests in order, g runs of n/g.
func (a WmmaAccess) Group(i, n, g int) int {
	if a.Slices && a.TileRows != 4*g {
		return i % g
	}
	return i * g / n
}

// Blocks is the number of blocks the tile is read in.
func (a WmmaAccess) Blocks() int {
	if a.BlockRows == 0 || a.BlockBytes == 0 {
		return 0
	}
	return (a.TileRows / a.BlockRows) * (a.TileRowBytes / a.BlockBytes)
}

// WmmaAccesses is to's expansion (a wmma.load when load, else a
// wmma.store). A tile the blocks do not divide (no sm_90 shape) is one
// request: Insts 1, no blocks.
func WmmaAccesses(to *TensorOperands, load bool) WmmaAccess {
	f := to.Frag
	bits := f.Elem.Bits()
	if f.Elem == tensor.F64 {
		bits = 64
	}
	a := WmmaAccess{TileRows: f.Rows, TileRowBytes: f.Cols * bits / 8, BlocksPerInst: 1}
	if to.Trans {
		a.TileRows, a.TileRowBytes = f.Cols, f.Rows*bits/8
	}
	use := to.Use
	if use == 'd' {
		use = 'c'
	}
	// The MMA's own order: A and accumulators row-major, B column-major.
	natural := to.Trans == (use == 'b')
	switch {
	case bits == 8 && use != 'c' && !natural:
		// MOVM and LDSM move 16-bit elements: an 8-bit operand stored
		// the other way round is read a byte an element (LDG.E.U8,
		// LDS.U8: a lane's 4 k values of one column a register, packed
		// by PRMT), lane%4 picking a group of four storage rows, lane/4
		// the byte: each load one row of every group, 4 rows of 8 bytes
		// (Interleaved), eight loads for s8 m16n16k16 B row-major
		// (testdata/programs3/wmmagemm, wg.sass: gg and gs of s8).
		a.BlockRows, a.BlockBytes, a.Interleaved = 4, 8, true
	case bits < 32:
		a.BlockRows, a.BlockBytes = 8, 16
		if load && use != 'c' && to.DstSpace == ptx.SpaceShared && bits >= 8 {
			a.BlocksPerInst = 4 // LDSM.x4 (.x2, .x1 for fewer)
		} else if !natural {
			a.Movm = 1 // a MOVM a register (a block), counted below
		}
	case natural:
		w := bits / 8
		if use == 'c' {
			w *= 2
		}
		a.BlockRows, a.BlockBytes = 8, 4*w
	default:
		a.BlockRows, a.BlockBytes = 4, 8*bits/8
	}
	n := a.Blocks()
	if n == 0 || a.TileRows%a.BlockRows != 0 || a.TileRowBytes%a.BlockBytes != 0 {
		return WmmaAccess{TileRows: a.TileRows, TileRowBytes: a.TileRowBytes, Insts: 1}
	}
	a.Insts = (n + a.BlocksPerInst - 1) / a.BlocksPerInst
	a.Movm *= n
	a.Rounds, a.Groups = 1, 1
	if load && a.Interleaved {
		a.Rounds, a.Groups = wmmaByteRounds(a.Insts)
	}
	return a
}

// wmmaByteRounds is how many memory round trips a k step's MMA waits for
// an 8-bit fragment that ptxas reads a byte an element in n byte loads
// (LDG.E.U8 or LDS.U8: 4, 8 or 16 by shape and layout), and how many of
// them are groups of the fragment's own loads, each sent when the one
// before's data is back. Read from nvcc 13's SASS of an 8-bit wmma k loop
// in every shape and A/B layout (testdata/programs3/wshape, rounds.py: the
// times a load follows a consumer of earlier loads in a body of four
// steps; testdata/programs3/wmmagemm and wmmagemm2 for eight loads):
//
//   - 4 loads (m32n8k16 B row-major, m8n32k16 A column-major): one group.
//     The step's four bytes go out with the next step's and the other
//     operand's first loads, before any PRMT; the pack and the first
//     IMMA.16816 wait for them and the step's other loads follow that
//     IMMA: two round trips (7 rounds a body of four steps);
//   - 8 loads (m16n16k16): two groups of four, each packed (IMAD) before
//     the next goes out, then the other operand's loads after the PRMT:
//     three (4 LDG.E.U8, IMAD; 4 LDG.E.U8, IMAD, PRMT; 2 LDG.E; 10–11
//     rounds a body);
//   - 16 loads (m32n8k16 A column-major, m8n32k16 B row-major): about ten
//     loads, then the rest between the packs of the first (two groups),
//     and the other operand's after them: four (15 rounds a body).
//
// Each doubling of the loads adds a round trip: 2 + log2(n/4). Where both
// operands are read a byte an element, each fragment keeps its own count
// and the MMA waits for the later; ptxas's m32n8k16 and m8n32k16 with A
// column-major and B row-major (20 byte loads a step) take about five, a
// round trip more than that (registers), which is not modelled.
func wmmaByteRounds(n int) (rounds, groups int) {
	switch {
	case n <= 0:
		return 1, 1
	case n <= 4:
		return 2, 1
	case n <= 8:
		return 3, 2
	default:
		return 4, 2
	}
}

// markWmmaRounds sets the Rounds of f's wmma.load fragments that the code
// converts before its MMA (tf32's cvt.rna.tf32.f32 of each element,
// through movs): ptxas takes such a step one hardware MMA's k-slice at a
// time — the slice's loads, their conversions (FSETP + IADD in place),
// the slice's HMMA.1684s, then the next slice's loads (wg.sass, gg of
// tf32: five LD.E, four conversions, two HMMA, three more LD.E ...) — so
// the MMA has the fragment K/4 round trips after its first load. An A
// fragment's slices are its own groups of requests (Groups, Slices): A
// row-major's second slice reads the first's 32-byte sectors (an L1 hit),
// A column-major's four other storage rows, whose fetch it waits for
// (testdata/timing/wmmatf32, wt.sass's gv of tf32: no load of A's second
// slice before the first slice's HMMAs). B keeps its later rounds as L2
// hits: ptxas's first group of a row-major B step already reads a line of
// its second slice (wg.sass's gg: the fifth LD.E). A fragment the MMA
// reads as loaded (f16, bf16: every load of the step above its first
// HMMA) keeps one round.
func markWmmaRounds(f *Func) {
	for pc := range f.Code {
		in := &f.Code[pc]
		if in.Op != OpTensor || in.Mode != TensorWmmaLoad || int(in.Imm) >= len(f.TensorOps) {
			continue
		}
		to := &f.TensorOps[in.Imm]
		if to.Frag.Elem != tensor.TF32 || to.Use != 'a' && to.Use != 'b' || to.Access.Rounds != 1 {
			continue
		}
		k := to.Frag.Cols
		if to.Use == 'b' {
			k = to.Frag.Rows
		}
		if k/4 > 1 && convertedBeforeUse(f, pc, to.D) {
			to.Access.Rounds = k / 4
			if to.Use == 'a' {
				to.Access.Groups, to.Access.Slices = k/4, true
			}
		}
	}
}

// convertedBeforeUse says whether a register of frag, loaded at pc, is
// converted to tf32 (directly or through movs) in the code that follows
// before the block's end.
func convertedBeforeUse(f *Func, pc int, frag []int32) bool {
	held := append([]int32(nil), frag...)
	for i := pc + 1; i < len(f.Code) && i < pc+256; i++ {
		in := &f.Code[i]
		if in.Op == OpBra || in.Op == OpExit || in.Op == OpBar {
			return false
		}
		if len(in.A) == 0 || !slices.Contains(held, in.A[0]) {
			continue
		}
		switch {
		case in.Op == OpExt && in.Mode == ExtCvt && in.Cmp == CvtKF32ToTF32:
			return true
		case in.Op == OpMov && in.D[0] >= 0:
			held = append(held, in.D[0])
		}
	}
	return false
}

// markWmmaReuse sets Access.Reuse on f's wmma.loads of an A or B
// fragment inside a loop (between a backward branch's target and the
// branch). ptxas allocates one set of registers to a loop's fragments of
// each operand, whatever the PTX's unrolled steps name them, and loads a
// step's fragment into them after the previous step's MMAs have read
// them: in the SASS of every tiled k loop recorded (testdata/programs3/
// wmmagemm/h100/wg.sass.gz, gg of f16, bf16, tf32 and s8, each unrolled
// four times; gs's shared-memory fragments, LDSM into the registers the
// sub-step before read), no load of a k step is above the previous
// step's MMAs. Straight code keeps fresh registers while there are some
// (programs3's wmma_f64: ten of sixteen fragment loads above the first
// DMMA), which the register bound models (registerGate).
func markWmmaReuse(f *Func) {
	for b := range f.Code {
		br := &f.Code[b]
		if br.Op != OpBra || br.Target < 0 || int(br.Target) > b {
			continue
		}
		for pc := int(br.Target); pc < b; pc++ {
			in := &f.Code[pc]
			if in.Op != OpTensor || in.Mode != TensorWmmaLoad || int(in.Imm) >= len(f.TensorOps) {
				continue
			}
			if to := &f.TensorOps[in.Imm]; to.Use == 'a' || to.Use == 'b' {
				to.Access.Reuse = true
			}
		}
	}
}
