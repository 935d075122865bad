package ir

import (
	"bufio"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/warpsim/warpsim/ptx"
)

const atomaggDir = "../../testdata/timing/atomagg"

// ptxasAggregation reads classify.txt (classify.py over the H100 machine's
// cuobjdump -sass of agg.cu, hand.ptx and hand2.ptx): per kernel, the
// aggregation forms ptxas chose for its atomics (elect and hw are one warp
// update, AggElect; several when a loop unrolled into atomics whose
// results are used and unused).
func ptxasAggregation(t *testing.T) map[string][]uint8 {
	t.Helper()
	fh, err := os.Open(filepath.Join(atomaggDir, "classify.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	want := map[string][]uint8{}
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 2 || !strings.HasPrefix(f[1], "agg=") {
			continue
		}
		var forms []uint8
		for _, form := range strings.Split(strings.TrimPrefix(f[1], "agg="), "+") {
			switch form {
			case "elect", "hw":
				forms = append(forms, AggElect)
			case "full":
				forms = append(forms, AggFullWarp)
			case "no":
				forms = append(forms, AggNone)
			default:
				t.Fatalf("classify.txt: %q", sc.Text())
			}
		}
		want[f[0]] = forms
	}
	return want
}

func lowerPTXFile(t *testing.T, path string) *Program {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m, err := ptx.Parse(filepath.Base(path), src)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Lower(m, nil)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

var aggNames = map[uint8]string{AggNone: "no", AggElect: "elect", AggFullWarp: "full"}

// notModelled are the recorded kernels where ptxas proves an address
// uniform that the analysis does not (it marks them AggNone, the safe side:
// their time is the per-lane atomics'): value ranges and constant folding
// (%laneid >> 5 and %laneid & 32 are 0, x & 0 is 0), and hand-written PTX
// that reuses a register for an unrelated varying value (the analysis is
// flow-insensitive; nvcc's, clang's and Triton's PTX define each virtual
// register once, but for loop-carried and merged values).
var notModelled = map[string]string{
	"h_laneid":            "%laneid >> 5",
	"r2_a_laneid_and":     "%laneid & 32",
	"r2_a_tid_and0":       "%tid.x & 0",
	"r2_a_clock":          "%clock & 0",
	"r2_a_ballot":         "%r5 reused: the ballot's input, then its result",
	"r2_atom_add_u64_uni": "%rd9 reused: the operand, then the stored result",
}

// TestWarpAggregationMatchesPtxas: for every kernel recorded on the H100
// machine (testdata/timing/atomagg: 103 of nvcc's PTX of agg.cu, 78
// hand-written for ptxas), the aggregation the uniformity analysis marks on
// its atom/red instructions is what ptxas's SASS shows: each mark one of
// the kernel's forms, each form marked (but for notModelled).
func TestWarpAggregationMatchesPtxas(t *testing.T) {
	want := ptxasAggregation(t)
	checked := 0
	for _, file := range []string{"h100/agg.nvcc.ptx", "hand.ptx", "hand2.ptx"} {
		p := lowerPTXFile(t, filepath.Join(atomaggDir, file))
		for _, f := range p.Funcs {
			forms, ok := want[f.Name]
			if !f.Entry || !ok {
				continue
			}
			checked++
			if why, ok := notModelled[f.Name]; ok {
				forms = []uint8{AggNone}
				t.Logf("%s: not modelled (%s): ptxas aggregates, the analysis does not", f.Name, why)
			}
			marked := map[uint8]bool{}
			for pc := range f.Code {
				in := &f.Code[pc]
				if in.Op != OpAtom && in.Op != OpRed {
					continue
				}
				marked[in.Agg] = true
				if !slices.Contains(forms, in.Agg) {
					t.Errorf("%s: %s %q: marked %s, ptxas %v", file, f.Name, f.Text[pc], aggNames[in.Agg], names(forms))
				}
			}
			for _, form := range forms {
				if !marked[form] {
					t.Errorf("%s: %s: ptxas made %s, no atomic is marked so", file, f.Name, aggNames[form])
				}
			}
		}
	}
	if checked != len(want) {
		t.Errorf("%d kernels checked, classify.txt has %d", checked, len(want))
	}
}

func names(forms []uint8) []string {
	var s []string
	for _, f := range forms {
		s = append(s, aggNames[f])
	}
	return s
}

// TestWarpAggregationRule: PTX snippets, each the form of a recorded
// kernel (named; classify.txt has its SASS), marked as ptxas compiles it.
// %rd1 is a kernel parameter (the buffer), %r1 %tid.x, %r2 %ctaid.x, %r3 a
// parameter, %r4 varying (%tid.x * 3).
func TestWarpAggregationRule(t *testing.T) {
	cases := []struct {
		name, body string
		want       uint8
	}{
		{"h_param: add 1", "atom.global.add.u32 %r9, [%rd1], 1; st.global.u32 [%rd1+4], %r9;", AggElect},
		{"k_fn<0,2>: red add 1", "red.global.add.u32 [%rd1], 1;", AggElect},
		{"k_fn<0,1>: result unused", "atom.global.add.u32 %r9, [%rd1], 1;", AggElect},
		{"k_fn<0,3>: add of a parameter", "atom.global.add.u32 %r9, [%rd1], %r3; st.global.u32 [%rd1+4], %r9;", AggElect},
		{"k_fn<0,7>: add.u64", "atom.global.add.u64 %rd9, [%rd1], 1; st.global.u64 [%rd1+8], %rd9;", AggElect},
		{"k_fn<0,4>: varying add, result used", "atom.global.add.u32 %r9, [%rd1], %r4; st.global.u32 [%rd1+4], %r9;", AggFullWarp},
		{"k_fn<0,5>: varying red (REDUX)", "red.global.add.u32 [%rd1], %r4;", AggElect},
		{"r2_red_xor_b32_var: varying red.xor", "red.global.xor.b32 [%rd1], %r4;", AggElect},
		{"r2_red_add_u64_var: varying red.add.u64", "cvt.u64.u32 %rd9, %r4; red.global.add.u64 [%rd1], %rd9;", AggNone},
		{"k_fn<0,8>: f32 add", "atom.global.add.f32 %f1, [%rd1], 0f3F800000; st.global.f32 [%rd1+4], %f1;", AggNone},
		{"k_fn<0,19>: exch", "atom.global.exch.b32 %r9, [%rd1], %r3; st.global.u32 [%rd1+4], %r9;", AggNone},
		{"k_fn<0,15>: min with result", "atom.global.min.u32 %r9, [%rd1], %r3; st.global.u32 [%rd1+4], %r9;", AggNone},
		{"r2_red_inc_u32: red.inc", "red.global.inc.u32 [%rd1], 1000;", AggNone},
		{"r2_sh_atom_add_u64_imm: shared add.u64 (CAS loop)", "atom.shared.add.u64 %rd9, [hs], 1; st.global.u64 [%rd1+8], %rd9;", AggNone},
		{"k_fn<0,24>: shared add 1", "atom.shared.add.u32 %r9, [hs], 1; st.global.u32 [%rd1+4], %r9;", AggElect},
		{"k_fn<1,0>: %ctaid address", "mul.wide.u32 %rd9, %r2, 8; add.s64 %rd9, %rd1, %rd9; atom.global.add.u32 %r9, [%rd9], 1; st.global.u32 [%rd1+4], %r9;", AggElect},
		{"k_fn<3,0>: %tid.x/32 address", "shr.u32 %r9, %r1, 5; mul.wide.u32 %rd9, %r9, 8; add.s64 %rd9, %rd1, %rd9; red.global.add.u32 [%rd9], 1;", AggNone},
		{"h_ldglobal: loaded from a uniform address", "ld.global.u32 %r9, [%rd1+512]; mul.wide.u32 %rd9, %r9, 8; add.s64 %rd9, %rd1, %rd9; red.global.add.u32 [%rd9], 1;", AggElect},
		{"h_ldglobal_tid: loaded from a varying one", "mul.wide.u32 %rd8, %r1, 4; add.s64 %rd8, %rd1, %rd8; ld.global.u32 %r9, [%rd8]; mul.wide.u32 %rd9, %r9, 8; add.s64 %rd9, %rd1, %rd9; red.global.add.u32 [%rd9], 1;", AggNone},
		{"k_fn<7,0>: shfl.idx from lane 0", "shfl.sync.idx.b32 %r9, %r1, 0, 31, -1; mul.wide.u32 %rd9, %r9, 8; add.s64 %rd9, %rd1, %rd9; red.global.add.u32 [%rd9], 1;", AggElect},
		{"r2_a_shfl_var_lane: shfl.idx from a varying lane", "shfl.sync.idx.b32 %r9, %r3, %r1, 31, -1; mul.wide.u32 %rd9, %r9, 8; add.s64 %rd9, %rd1, %rd9; red.global.add.u32 [%rd9], 1;", AggNone},
		{"h_divbranch_in: inside if (tid & 1)", "and.b32 %r9, %r1, 1; setp.eq.u32 %p1, %r9, 1; @%p1 bra L1; red.global.add.u32 [%rd1], 1; L1:", AggElect},
		{"h_divbranch_phi: address merged after if (tid & 1)", "and.b32 %r9, %r1, 1; setp.eq.u32 %p1, %r9, 1; mov.u64 %rd9, %rd1; @%p1 bra L1; add.s64 %rd9, %rd1, 8; L1: red.global.add.u32 [%rd9], 1;", AggNone},
		{"r2_a_div_single_def: address made under divergence, used after", "and.b32 %r9, %r1, 1; setp.eq.u32 %p1, %r9, 1; @%p1 bra L1; add.s64 %rd9, %rd1, 8; L1: red.global.add.u32 [%rd9], 1;", AggNone},
		{"r2_a_divphi_uni_if: merged after a uniform branch", "setp.eq.u32 %p1, %r3, 5; mov.u64 %rd9, %rd1; @%p1 bra L1; add.s64 %rd9, %rd1, 8; L1: red.global.add.u32 [%rd9], 1;", AggElect},
		{"r2_a_guarded_mov: written under a varying guard", "and.b32 %r9, %r1, 1; setp.eq.u32 %p1, %r9, 1; mov.u64 %rd9, %rd1; @%p1 add.s64 %rd9, %rd1, 8; red.global.add.u32 [%rd9], 1;", AggNone},
		{"r2_a_divloop_ctr: counter of a divergent loop", "and.b32 %r8, %r1, 3; mov.u32 %r9, 0; L8: mul.wide.u32 %rd9, %r9, 8; add.s64 %rd9, %rd1, %rd9; red.global.add.u32 [%rd9], 1; add.u32 %r9, %r9, 1; setp.le.u32 %p2, %r9, %r8; @%p2 bra L8;", AggNone},
		{"r2_a_uniloop_ctr: counter of a uniform loop", "mov.u32 %r9, 0; L8: mul.wide.u32 %rd9, %r9, 8; add.s64 %rd9, %rd1, %rd9; red.global.add.u32 [%rd9], 1; add.u32 %r9, %r9, 1; setp.lt.u32 %p2, %r9, %r3; @%p2 bra L8;", AggElect},
	}
	for _, c := range cases {
		src := ".version 8.0\n.target sm_90\n.address_size 64\n.shared .align 8 .b8 hs[64];\n" +
			".visible .entry k(.param .u64 pb, .param .u32 pu)\n{\n" +
			".reg .pred %p<4>; .reg .b32 %r<12>; .reg .f32 %f<4>; .reg .b64 %rd<12>;\n" +
			"ld.param.u64 %rd1, [pb]; cvta.to.global.u64 %rd1, %rd1; ld.param.u32 %r3, [pu];\n" +
			"mov.u32 %r1, %tid.x; mov.u32 %r2, %ctaid.x; mul.lo.u32 %r4, %r1, 3;\n" + c.body + "\nret;\n}\n"
		m, err := ptx.Parse("k.ptx", []byte(src))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		p, err := Lower(m, nil)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		n := 0
		for pc, in := range p.Funcs[0].Code {
			if in.Op == OpAtom || in.Op == OpRed {
				n++
				if in.Agg != c.want {
					t.Errorf("%s: %q marked %s, want %s", c.name, p.Funcs[0].Text[pc], aggNames[in.Agg], aggNames[c.want])
				}
			}
		}
		if n != 1 {
			t.Errorf("%s: %d atomics", c.name, n)
		}
	}
}

// TestInstSize: Inst.Agg lives in the struct's padding; the engine's
// instruction stream stays 88 bytes an instruction.
func TestInstSize(t *testing.T) {
	if n := unsafe.Sizeof(Inst{}); n != 88 {
		t.Errorf("ir.Inst is %d bytes, want 88", n)
	}
}
