package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// TestCCContractsAsNVCC compares the floating-point multiplies, adds, subs
// and fmas of kernels in the PTX warpsim cc writes with those of nvcc 13's
// PTX of the same source, recorded on the H100 machine (nvcc -O3
// -arch=sm_90[a]): where nvcc fuses a multiply into an add, clang must too,
// and where nvcc leaves a mul and an add (or sub) without a rounding
// modifier, clang must leave them the same way, so that ptxas (and warpsim's
// engine, internal/ir/contract.go) contracts them alike. The kernels are the
// recorded ones whose two compilations do the same floating-point work (no
// math function nvcc inlines and clang calls, no loop one unrolls and the
// other not). With clang's default (-ffp-contract=fast) the first two
// differ: it fuses the product of c[i] - y[i]*y[j] itself, and fuses a
// square that is also shuffled into the add that reads it.
func TestCCContractsAsNVCC(t *testing.T) {
	needClang(t)
	td := "../../testdata"
	cases := []struct{ src, nvcc, arch, kernel string }{
		{"programs3/streams_events.cu", "programs3/nvcc/ptx/streams_events.nvcc.ptx", "sm_90a", "_Z7combinePKfS0_Pf"},
		{"programs3/barrier_bulk.cu", "programs3/nvcc/ptx/barrier_bulk.nvcc.ptx", "sm_90a", "_Z14normalize_rowsPKfPf"},
		{"programs3/barrier_bulk.cu", "programs3/nvcc/ptx/barrier_bulk.nvcc.ptx", "sm_90a", "_Z8scale_txPKfPff"},
		{"programs3/streams_events.cu", "programs3/nvcc/ptx/streams_events.nvcc.ptx", "sm_90a", "_Z13fp8_roundtripPKfPfif"},
		{"programs3/wmma_smem_gemm.cu", "programs3/nvcc/ptx/wmma_smem_gemm.nvcc.ptx", "sm_90a", "_Z9gemm_smemPK6__halfS1_PKfPfff"},
		{"programs/matmul_shared.cu", "compilers/ptx/matmul_shared.nvcc.ptx", "sm_90", "_Z6matmulPKfS0_Pfi"},
	}
	for _, c := range cases {
		t.Run(c.kernel, func(t *testing.T) {
			clang := readPTXFile(t, buildCU(t, filepath.Join(td, c.src), "-ptx", "-O3", "-arch="+c.arch, "-std=c++17"))
			nvcc := readPTXFile(t, filepath.Join(td, c.nvcc))
			want, got := fpOps(t, nvcc, c.kernel), fpOps(t, clang, c.kernel)
			if got != want {
				t.Errorf("clang's %s, nvcc's %s", got, want)
			}
		})
	}
}

// TestCCKeepsShuffledProduct: llm.c's online softmax (testdata/programs6)
// rescales each lane's sum, sumval *= expf(maxval - gmax), and then adds the
// shuffled sum to it, sumval + __shfl_xor_sync(…, sumval, 16). nvcc keeps
// the product rounded: one mul.f32 whose result is both shuffled and added
// (diag/llmc_softmax_gelu.nvcc.ptx), and the H100 prints the sums of that
// rounded product. clang's default fused the product into the add while
// shuffling the rounded one, which changed five printed lines.
func TestCCKeepsShuffledProduct(t *testing.T) {
	needClang(t)
	dir := "../../testdata/programs6"
	const k = "_Z22softmax_forward_onlinePfPKfii"
	nvcc := readPTXFile(t, filepath.Join(dir, "diag", "llmc_softmax_gelu.nvcc.ptx"))
	clang := readPTXFile(t, buildCU(t, filepath.Join(dir, "llmc_softmax_gelu.cu"), programs6PTX...))
	for _, m := range []struct{ who, ptx string }{{"nvcc", nvcc}, {"clang", clang}} {
		if !shuffledProductAdded(kernelBody(t, m.ptx, k)) {
			t.Errorf("%s's %s has no mul.f32 whose product is both shuffled and added", m.who, k)
		}
	}
}

var programs6PTX = append([]string{"-ptx"}, programs6Base...)

func readPTXFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// kernelBody is kernel k's text in a PTX module.
func kernelBody(t *testing.T, ptx, k string) string {
	t.Helper()
	i := strings.Index(ptx, ".entry "+k+"(")
	if i < 0 {
		t.Fatalf("no kernel %s", k)
	}
	body := ptx[i:]
	if j := strings.Index(body, "\n}"); j >= 0 {
		body = body[:j]
	}
	return body
}

var fpOpRE = regexp.MustCompile(`^(mul|add|sub|fma)((?:\.(?:rn|rz|rm|rp|ftz|sat))*)\.(f32|f64|f16|f16x2|bf16|bf16x2)$`)

// fpOps counts kernel k's floating-point mul, add, sub and fma instructions
// by opcode, rounding modifier and type (an fma always carries one, so its
// .rn is left out), as "add.f32×3 fma.f32×2 …".
func fpOps(t *testing.T, ptx, k string) string {
	t.Helper()
	n := map[string]int{}
	for _, l := range strings.Split(kernelBody(t, ptx, k), "\n") {
		f := strings.Fields(strings.TrimSpace(l))
		if len(f) > 0 && strings.HasPrefix(f[0], "@") {
			f = f[1:]
		}
		if len(f) == 0 {
			continue
		}
		m := fpOpRE.FindStringSubmatch(f[0])
		if m == nil {
			continue
		}
		mods := m[2]
		if m[1] == "fma" {
			mods = strings.Replace(mods, ".rn", "", 1)
		}
		n[m[1]+mods+"."+m[3]]++
	}
	var s []string
	for op, c := range n {
		s = append(s, fmt.Sprintf("%s×%d", op, c))
	}
	sort.Strings(s)
	return strings.Join(s, " ")
}

// shuffledProductAdded reports whether some mul.f32's result is read by a
// shfl.sync (directly or through one mov.b32) and by an add.f32.
func shuffledProductAdded(body string) bool {
	var lines [][]string
	for _, l := range strings.Split(body, "\n") {
		l = strings.TrimSuffix(strings.TrimSpace(l), ";")
		f := strings.Fields(strings.ReplaceAll(l, ",", " "))
		if len(f) > 0 {
			lines = append(lines, f)
		}
	}
	reads := func(f []string, r string) bool {
		for _, o := range f[2:] {
			if o == r {
				return true
			}
		}
		return false
	}
	for _, m := range lines {
		if m[0] != "mul.f32" || len(m) < 4 {
			continue
		}
		p := m[1]
		names := []string{p}
		for _, f := range lines { // nvcc moves the product to a b32 register first
			if f[0] == "mov.b32" && len(f) == 3 && f[2] == p {
				names = append(names, f[1])
			}
		}
		shuffled, added := false, false
		for _, f := range lines {
			if len(f) < 3 {
				continue
			}
			for _, r := range names {
				if strings.HasPrefix(f[0], "shfl.sync") && reads(f, r) {
					shuffled = true
				}
			}
			if f[0] == "add.f32" && reads(f, p) {
				added = true
			}
		}
		if shuffled && added {
			return true
		}
	}
	return false
}

// TestCCContractProbesMatchH100 builds testdata/contract's probes (56
// kernels, one contraction pattern each, f32, f64, f16, half2) with warpsim
// cc and compares the hashes of their outputs with the H100's run of nvcc's
// build: clang's PTX and warpsim's engine must round every probe as nvcc's
// PTX and ptxas did. With clang's default contraction and the engine's
// single-reader rule, 15 of the 56 differed.
func TestCCContractProbesMatchH100(t *testing.T) {
	checkRecordedBatch(t, "../../testdata/contract", programs6Base, []recordedProgram{{name: "probes"}}, false)
}

// TestCCHoistedProductsFuseAsPtxas runs testdata/programs9/probe/hoist.cu:
// ten kernels, each adding a loop-invariant product computed before its
// loop, whose operands are registers, kernel parameters, __constant__
// values or an immediate. ptxas fuses the product into the loop's adds when
// an operand is a constant-bank value or an immediate (FFMA in the H100's
// SASS, probe/hoist.sass.gz) and keeps FMUL + FADD otherwise. Built from
// clang's code and from nvcc's PTX (probe/hoist.nvcc.ptx), warpsim must
// print the H100's hashes; before the engine counted constant-bank operands
// as immediates, 7 of the 10 differed. (The probe's stdout and exit status
// were recorded; it writes nothing to stderr.)
func TestCCHoistedProductsFuseAsPtxas(t *testing.T) {
	needClang(t)
	dir, err := filepath.Abs("../../testdata/programs9/probe")
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join(dir, "hoist.h100.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		flags []string
	}{
		{"clang", nil},
		{"nvcc", []string{"--device-ptx", filepath.Join(dir, "hoist.nvcc.ptx")}},
	} {
		t.Run(c.name, func(t *testing.T) {
			prog := buildCU(t, filepath.Join(dir, "hoist.cu"), append([]string{"-O3", "-arch=sm_90"}, c.flags...)...)
			got, stderr, err := runProgramEnv(prog, []string{"WARPSIM_MODE=functional"})
			if err != nil {
				t.Fatalf("%v\n%s", err, stderr)
			}
			if got != string(want) {
				t.Errorf("stdout differs from the H100's:\ngot:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}
