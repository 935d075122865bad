package main

import (
	"crypto/sha256"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/warpsim/warpsim/internal/testenv"
)

// programs3Dir holds issue 18's third batch of CUDA 13 programs (tensor
// cores, asynchronous copies, clusters, FP8, half and bf16 math, warp
// reductions, streams), written as users write them and recorded on an
// H100 with nvcc 13 (testdata/programs3/record.sh).
const programs3Dir = "../../testdata/programs3"

// programs3Base are the flags every programs3 program is built with.
var programs3Base = []string{"-std=c++17"}

// programs3 are the batch's programs that warpsim runs bit for bit; a
// program that does not is left out here and listed in the folder's
// README.
var programs3 = []recordedProgram{
	{name: "barrier_bulk"},
	{name: "cg_memcpy_async"},
	{name: "cluster_hist"},
	{name: "cluster_ring"},
	{name: "cp_async_stages"},
	{name: "cuda_pipeline_pc"},
	{name: "fp8_convert"},
	{name: "half_bf16_math"},
	{name: "mma_ldmatrix"},
	{name: "streams_events"},
	{name: "warp_reduce_match"},
	{name: "wmma_bf16"},
	{name: "wmma_f64"},
	{name: "wmma_int8"},
	{name: "wmma_smem_gemm"},
	{name: "wmma_tf32"},
}

// TestCCPrograms3MatchH100 builds every program of testdata/programs3
// unchanged with warpsim cc and compares its stdout, stderr and exit status
// with the H100's. None prints a time, so they run under the functional
// driver, in parallel.
func TestCCPrograms3MatchH100(t *testing.T) {
	checkRecordedBatch(t, programs3Dir, programs3Base, programs3, false)
}

// TestCCFP8HostMatchesDevice: cuda_fp8.h converts in software on the host
// and with sm_89's cvt instructions on the device (the engine's, checked
// against the H100 in internal/scalar). Every float whose top 16 bits are
// i (65536 of them: all exponents, signs, NaN and infinities) must give the
// same E4M3 and E5M2 bytes both ways, and every byte the same half back.
func TestCCFP8HostMatchesDevice(t *testing.T) {
	needClang(t)
	src := filepath.Join(t.TempDir(), "fp8sweep.cu")
	const code = `#include <cstdio>
#include <cuda_fp8.h>
__global__ void k(unsigned *out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float f = __uint_as_float(i << 16 | (i & 0xff) << 4);
  unsigned r = __nv_cvt_float_to_fp8(f, __NV_SATFINITE, __NV_E4M3) | __nv_cvt_float_to_fp8(f, __NV_SATFINITE, __NV_E5M2) << 8;
  __half_raw h = {__half_as_ushort(__float2half(f))};
  r |= __nv_cvt_halfraw_to_fp8(h, __NV_SATFINITE, __NV_E4M3) << 16 | __nv_cvt_halfraw_to_fp8(h, __NV_SATFINITE, __NV_E5M2) << 24;
  out[i] = r;
  if (i < 256) out[65536 + i] = __nv_cvt_fp8_to_halfraw(i, __NV_E4M3).x | __nv_cvt_fp8_to_halfraw(i, __NV_E5M2).x << 16;
}
int main() {
  unsigned *d, *h = new unsigned[65536 + 256];
  cudaMalloc(&d, (65536 + 256) * 4);
  k<<<256, 256>>>(d);
  cudaMemcpy(h, d, (65536 + 256) * 4, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (unsigned i = 0; i < 65536; i++) {
    unsigned b = i << 16 | (i & 0xff) << 4;
    float f;
    __builtin_memcpy(&f, &b, 4);
    __half_raw hr = __half(__float2half(f));
    unsigned r = __nv_cvt_float_to_fp8(f, __NV_SATFINITE, __NV_E4M3) | __nv_cvt_float_to_fp8(f, __NV_SATFINITE, __NV_E5M2) << 8 |
                 __nv_cvt_halfraw_to_fp8(hr, __NV_SATFINITE, __NV_E4M3) << 16 | __nv_cvt_halfraw_to_fp8(hr, __NV_SATFINITE, __NV_E5M2) << 24;
    if (r != h[i] && bad++ < 5) printf("float %08x: host %08x device %08x\n", b, r, h[i]);
  }
  for (unsigned i = 0; i < 256; i++) {
    unsigned r = __nv_cvt_fp8_to_halfraw(i, __NV_E4M3).x | __nv_cvt_fp8_to_halfraw(i, __NV_E5M2).x << 16;
    if (r != h[65536 + i] && bad++ < 10) printf("fp8 %02x: host %08x device %08x\n", i, r, h[65536 + i]);
  }
  printf("%d differ; 448 %02x 57344 %02x 1/3 %02x\n", bad, __nv_fp8_e4m3(448.0f).__x, __nv_fp8_e5m2(57344.0).__x, __nv_fp8_e4m3(1.0f / 3).__x);
  return bad != 0;
}
`
	if err := os.WriteFile(src, []byte(code), 0o644); err != nil {
		t.Fatal(err)
	}
	prog := buildCU(t, src, "-std=c++17")
	out, stderr, err := runProgramEnv(prog, []string{"WARPSIM_MODE=functional"})
	// 448 and 57344 are the formats' largest finite values (0x7e, 0x7b);
	// 1/3 rounds to 0.34375 = 1.011b x 2^-2 (0x2b), as the H100 printed.
	if want := "0 differ; 448 7e 57344 7b 1/3 2b\n"; err != nil || out != want {
		t.Errorf("got %q (%v), want %q\n%s", out, err, want, stderr)
	}
}

// TestLongPrograms3TimesAgainstH100 compares each kernel's time of the
// programs3 batch in `warpsim prof --print-gpu-trace` (at the H100's base
// clock, 1589 MHz, where Nsight Compute locks it) with Nsight Compute's on
// the H100 (testdata/programs3/times.tsv: nvcc's build), twice: built by
// `warpsim cc` with clang's device code (what a user sees) and with nvcc
// 13's PTX of the same program linked in its place (`--device-ptx
// testdata/programs3/nvcc/ptx/P.nvcc.ptx`: the H100's own program, so the
// difference is the model's). It reports both errors over all kernels and
// over each half of testdata/programs3/SPLIT.md (the study half, which
// the timing model may be tuned on, and the held-out half), how many
// kernels are within 15%, and the worst rows. On 2026-11-27 (tenth round):
// clang's code 15.3% mean, 21 of 32 within 15% (study half 16.8%, held out
// 13.7%), the FP8 dot product's loop worst at +83% (nvcc unrolls it, clang
// does not); nvcc's PTX 12.1%, 23 of 32 (study 10.4%, held out 13.7%), its
// worst the wmma tf32 and s8 GEMMs (-45%, -40%: held out) and the f64 one
// (+34%). Before this round nvcc's PTX of two programs did not run (the f64
// wmma's .rn, half_bf16_math's ".reg.b32"). It fails when a kernel is more
// than 100% off or either mean passes 18%.
func TestLongPrograms3TimesAgainstH100(t *testing.T) {
	testenv.Long(t)
	needClang(t)
	t.Setenv("WARPSIM_TEST_AS_CLI", "1")
	t.Setenv("WARPSIM_PROGRESS", "0")
	rows, err := testenv.ReadNCUTimes(filepath.Join(programs3Dir, "times.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	abs, err := filepath.Abs(programs3Dir)
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		name      string
		study     bool
		hashStudy bool // the hash rule's half, before programs3MovedToStudy
		got, want float64
	}
	byCompiler := map[string]map[string][]float64{}
	for _, compiler := range []string{"clang", "nvcc"} {
		traces := map[string][]float64{}
		for _, p := range programs3 {
			traces[p.name] = timedBatchProgram(t, abs, programs3Base, p, compiler)
		}
		byCompiler[compiler] = traces
		var all []row
		for _, r := range rows {
			tr, ok := traces[r.Workload]
			if !ok {
				continue // a program left out of programs3
			}
			if r.Launch >= len(tr) {
				t.Fatalf("%s (%s): %d kernels in warpsim's trace, the H100 ran launch %d", r.Workload, compiler, len(tr), r.Launch)
			}
			all = append(all, row{r.Workload + "#" + strconv.Itoa(r.Launch) + " " + r.Kernel, programs3Study(r.Workload), programs3HashStudy(r.Workload), tr[r.Launch], r.NS})
			t.Logf("%-5s %-18s %d %-16.16s %7.0f ns, H100 %7.0f (%+.1f%%)", compiler, r.Workload, r.Launch, r.Kernel, tr[r.Launch], r.NS, 100*(tr[r.Launch]-r.NS)/r.NS)
		}
		if len(all) == 0 {
			t.Fatal("no kernel compared")
		}
		var names []string
		var got, want []float64
		within := 0
		var half [3]struct { // study, held out, held out by the hash rule alone
			sum float64
			n   int
		}
		for _, r := range all {
			names, got, want = append(names, r.name), append(got, r.got), append(want, r.want)
			d := (r.got - r.want) / r.want
			if d <= 0.15 && d >= -0.15 {
				within++
			}
			h := &half[0]
			if !r.study {
				h = &half[1]
			}
			h.sum += math.Abs(d)
			h.n++
			if !r.hashStudy {
				half[2].sum += math.Abs(d)
				half[2].n++
			}
		}
		mean, over := testenv.TimeErrors(names, got, want, 1.0)
		sort.Slice(all, func(i, j int) bool {
			ei, ej := (all[i].got-all[i].want)/all[i].want, (all[j].got-all[j].want)/all[j].want
			return ei*ei > ej*ej
		})
		for _, r := range all[:min(5, len(all))] {
			t.Logf("%s worst: %s: %.0f ns, H100 %.0f (%+.1f%%)", compiler, r.name, r.got, r.want, 100*(r.got-r.want)/r.want)
		}
		t.Logf("%s: mean |error| %.1f%% over %d kernels, %d within 15%%; study half %.1f%% (%d kernels), held-out half %.1f%% (%d kernels; %.1f%% over %d with the hash rule's membership)",
			compiler, 100*mean, len(all), within, 100*half[0].sum/float64(max(1, half[0].n)), half[0].n, 100*half[1].sum/float64(max(1, half[1].n)), half[1].n,
			100*half[2].sum/float64(max(1, half[2].n)), half[2].n)
		for _, o := range over {
			t.Errorf("%s: %s: more than 100%% off", compiler, o)
		}
		// nvcc's PTX 11.4%, clang's code 15.5% (twelfth round: wmma.load
		// and wmma.store as ptxas's requests; 11.8% and 15.9% before);
		// nvcc's 10.4% (study 8.8%, held out 12.0%), clang's 15.4% in the
		// fifteenth round (ptxas's order inside a wmma k step, ConstBankLive);
		// nvcc's 10.1% (held out 11.6%) in the sixteenth (a wmma k loop's
		// fragments in the registers of the step before, WmmaReuse: 10.4%
		// and 12.0% without it). Seventeenth round (an 8-bit fragment's
		// second half of byte loads to DRAM, WmmaGroupRounds; its rows
		// interleaved as ptxas reads them): nvcc's 10.5%, held out 12.3%,
		// clang's 15.8% — only igemm moves, its first launch -13.6% ->
		// +4.7%, its second (already +24.9%) -> +45.0% (testdata/programs3/JOURNAL.md,
		// seventeenth round, says why the bounds rose). Eighteenth round
		// (an 8-bit fragment's round trips by its byte-load count,
		// ir.wmmaByteRounds; wmma_int8 moved to the study half first,
		// SPLIT.md): nvcc's 9.4%, held out 10.4% (10.1% with the hash
		// rule's membership, igemm in it), clang's 14.8% — only igemm's
		// u8 m32n8k16 launch moves, +45.0% -> +10.4% (clang's +45.8% ->
		// +11.2%). With a converted tf32 fragment's second k-slice through
		// the memory system too (WmmaSliceGroups; wmma_tf32 -31.7% ->
		// -15.5% on its own), the merged tree (2026-11-28, eighteenth round):
		// nvcc's 8.9%, held out 9.3% (9.1% with the hash rule's membership),
		// clang's 14.8%. Nineteenth round (a libdevice call held as ptxas's
		// CALL of the routine, LibcallCycles): clang's 14.76% -> 14.85%, only
		// h2math moving (+45.4% -> +48.1%: its clang code is 1.65 times
		// nvcc's time on the GPU, programs3CompilerGap).
		// Twentieth round (translation timed in programs, tlb.programs:
		// every launch beyond 15% was a program's first, too fast): nvcc's
		// 8.9% -> 6.2% (held out 9.3% -> 4.9%, 5.5% with the hash rule's
		// membership), 24 -> 30 within 15%; clang's 14.85% -> 12.6%.
		// libm20 (each libdevice call its routine's measured slots, pipes and
		// latency), on its own: clang's 14.85% -> 14.8%, h2math +48.1%.
		bound := map[string]float64{"nvcc": 0.065, "clang": 0.13}[compiler]
		if mean > bound {
			t.Errorf("%s: mean |error| %.1f%%, want under %.2f%%", compiler, 100*mean, 100*bound)
		}
		if held := half[1].sum / float64(max(1, half[1].n)); compiler == "nvcc" && held > 0.055 {
			t.Errorf("%s: held-out half's mean |error| %.1f%%, want under 5.5%%", compiler, 100*held)
		}
		if held := half[2].sum / float64(max(1, half[2].n)); compiler == "nvcc" && held > 0.06 {
			t.Errorf("%s: held-out half's mean |error| with the hash rule's membership %.1f%%, want under 6%%", compiler, 100*held)
		}
	}
	programs3CompilerGap(t, byCompiler["clang"], byCompiler["nvcc"])
}

// programs3CompilerGap compares warpsim's times of clang's code with the
// GPU's times of the same code, the like-for-like figure for what a user
// of warpsim cc sees: the H100's (nvcc/compilers.tsv: nvcc's build with
// clang 22's PTX before ptxas; 28 launches) and, for the launches that had
// no clang build there (half_bf16_math, mma_ldmatrix), an H200's
// (clangcode/compilers_h200.tsv, nineteenth round: the H100's SM, another
// memory). Per launch it checks the compiler's gap: warpsim's clang/nvcc
// time ratio (clang's code and nvcc's PTX, both timed here) against the
// GPU's ratio of its two builds, which does not depend on the GPU's clock
// or memory, so the H200's rows count as the H100's; it fails when the
// mean |error| of the ratios passes 6% or one launch's passes 30%, or when
// clang's code is more than 10.5% off the H100's clang build on average.
// On 2026-11-28 (clang15): ratios 4.3% (study half, 18 launches), 6.5%
// (held out, 14), 5.2% over 32, the worst cp_async_stages' stream_sum
// (H100 1.29, warpsim 0.96) and wmma_tf32's tf32_gemm (0.88, 0.68), both
// held out; against the H100's clang build 10.0% over 28 (study 8.3%,
// held out 11.7%), where against nvcc's times it is 14.8%: fp8_convert's
// k_dot, half_bf16_math's h2math and mma_ldmatrix's mma_ldsm, 1.72, 1.65
// and 1.23-1.33 times nvcc's time on the GPU with clang's code, are the
// compilers' (and warpsim's headers') difference, not the model's.
func programs3CompilerGap(t *testing.T, clang, nvcc map[string][]float64) {
	t.Helper()
	type gpuRow struct {
		workload, kernel, gpu string
		launch                int
		nvccNS, clangNS       float64
	}
	var rows []gpuRow
	for _, f := range []struct{ path, gpu string }{
		{filepath.Join(programs3Dir, "nvcc", "compilers.tsv"), "H100"},
		{filepath.Join(programs3Dir, "clangcode", "compilers_h200.tsv"), "H200"},
	} {
		data, err := os.ReadFile(f.path)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(data), "\n") {
			c := strings.Split(line, "\t")
			if len(c) < 7 || strings.HasPrefix(line, "#") || c[6] == "" {
				continue // a header, or a launch with no clang build on that GPU
			}
			launch, err1 := strconv.Atoi(c[1])
			n, err2 := strconv.ParseFloat(c[5], 64)
			cl, err3 := strconv.ParseFloat(c[6], 64)
			if err1 != nil || err2 != nil || err3 != nil || n <= 0 || cl <= 0 {
				t.Fatalf("%s: bad row %q", f.path, line)
			}
			rows = append(rows, gpuRow{c[0], c[2], f.gpu, launch, n, cl})
		}
	}
	type acc struct {
		sum float64
		n   int
	}
	var gap, same [2]acc // [0] the study half, [1] held out
	worst := 0.0
	for _, r := range rows {
		tc, tn := clang[r.workload], nvcc[r.workload]
		if r.launch >= len(tc) || r.launch >= len(tn) {
			t.Fatalf("%s#%d: not in warpsim's traces", r.workload, r.launch)
		}
		h := 0
		if !programs3Study(r.workload) {
			h = 1
		}
		want, got := r.clangNS/r.nvccNS, tc[r.launch]/tn[r.launch]
		e := (got - want) / want
		gap[h].sum += math.Abs(e)
		gap[h].n++
		worst = max(worst, math.Abs(e))
		line := fmt.Sprintf("gap %-17s %d %-14.14s %s clang/nvcc %.2f, warpsim %.2f (%+.1f%%)", r.workload, r.launch, r.kernel, r.gpu, want, got, 100*e)
		if r.gpu == "H100" {
			d := (tc[r.launch] - r.clangNS) / r.clangNS
			same[h].sum += math.Abs(d)
			same[h].n++
			line += fmt.Sprintf("; clang's code %.0f ns, the H100's clang build %.0f (%+.1f%%)", tc[r.launch], r.clangNS, 100*d)
		}
		t.Log(line)
	}
	mean := func(a [2]acc, i int) float64 { // i -1: both halves
		if i < 0 {
			return (a[0].sum + a[1].sum) / float64(max(1, a[0].n+a[1].n))
		}
		return a[i].sum / float64(max(1, a[i].n))
	}
	t.Logf("the compilers' gap (warpsim's clang/nvcc ratio against the GPU's): mean |error| %.1f%% over %d launches; study half %.1f%% (%d), held out %.1f%% (%d)",
		100*mean(gap, -1), gap[0].n+gap[1].n, 100*mean(gap, 0), gap[0].n, 100*mean(gap, 1), gap[1].n)
	t.Logf("clang's code against the H100's clang build: mean |error| %.1f%% over %d launches; study half %.1f%% (%d), held out %.1f%% (%d)",
		100*mean(same, -1), same[0].n+same[1].n, 100*mean(same, 0), same[0].n, 100*mean(same, 1), same[1].n)
	if m := mean(gap, -1); m > 0.06 {
		t.Errorf("the compilers' gap: mean |error| %.1f%%, want under 6%%", 100*m)
	}
	if worst > 0.30 {
		t.Errorf("the compilers' gap: a launch's ratio %.1f%% off, want under 30%%", 100*worst)
	}
	// 10.0% -> 6.4% in the twentieth round (translation timed in programs).
	if m := mean(same, -1); m > 0.07 {
		t.Errorf("clang's code against the H100's clang build: mean |error| %.1f%%, want under 7%%", 100*m)
	}
}

// programs3Study says whether a programs3 program is in SPLIT.md's study
// half: the first hex digit of the SHA-256 of its name in 0-7
// (programs3HashStudy), or moved there (programs3MovedToStudy).
func programs3Study(name string) bool {
	return programs3HashStudy(name) || programs3MovedToStudy[name] != ""
}

// programs3HashStudy is SPLIT.md's hash rule alone: the first hex digit of
// the SHA-256 of the program's name in 0-7.
func programs3HashStudy(name string) bool {
	h := sha256.Sum256([]byte(name))
	return h[0]>>4 < 8
}

// programs3MovedToStudy names the programs SPLIT.md moved from the held-out
// half to the study half, with the study probe that holds their own
// configuration (SPLIT.md, "Programs moved to the study half").
var programs3MovedToStudy = map[string]string{
	"wmma_int8": "testdata/programs3/wshape", // igemm's s8 m16n16k16 and u8 m32n8k16, A and B row-major
	"wmma_bf16": "testdata/programs3/nvcc",   // taken apart by name in the twentieth round (its SASS and stalls there)
}

// TestCCHalfBF16HostMatchesDevice: cuda_fp16.h and cuda_bf16.h round with
// PTX (cvt.rz/rm/rp.f16.f32, add.sat.f16, fma.rn.relu.f16, max.NaN.f16) in
// device code and in software on the host; 4096 floats spread over every
// exponent, NaN and infinities included, must give the same bits both ways.
func TestCCHalfBF16HostMatchesDevice(t *testing.T) {
	needClang(t)
	src := filepath.Join(t.TempDir(), "h16sweep.cu")
	const code = `#include <cstdio>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#define N 4096
__host__ __device__ void conv(unsigned i, unsigned *o) {
  float f = __uint_as_float(i * 1048573u);
  __half h = __float2half(f), g = __float2half(1.0f - f * 0.001f);
  __nv_bfloat16 b = __float2bfloat16(f);
  o[0] = __half_as_ushort(__float2half_rz(f)) | __half_as_ushort(__float2half_rd(f)) << 16;
  o[1] = __half_as_ushort(__float2half_ru(f)) | __bfloat16_as_ushort(__float2bfloat16_rz(f)) << 16;
  o[2] = __bfloat16_as_ushort(__float2bfloat16_rd(f)) | __bfloat16_as_ushort(__float2bfloat16_ru(f)) << 16;
  o[3] = __half_as_ushort(__hadd_sat(h, g)) | __half_as_ushort(__hfma_relu(h, g, h)) << 16;
  o[4] = __half_as_ushort(__hmax_nan(h, g)) | (unsigned)__half2int_rn(g) << 16;
  o[5] = __bfloat16_as_ushort(__hmax(b, __float2bfloat16(0.5f))) | (unsigned)__bfloat162int_rn(b) << 16;
}
__global__ void k(unsigned *o) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  conv(i, o + 6 * i);
}
int main() {
  unsigned *d, *h = new unsigned[6 * N], w[6];
  cudaMalloc(&d, 6 * N * 4);
  k<<<N / 128, 128>>>(d);
  cudaMemcpy(h, d, 6 * N * 4, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (unsigned i = 0; i < N; i++) {
    conv(i, w);
    for (int j = 0; j < 6; j++)
      if (w[j] != h[6 * i + j] && bad++ < 8) printf("i %u o[%d]: host %08x device %08x\n", i, j, w[j], h[6 * i + j]);
  }
  printf("%d differ\n", bad);
  return bad != 0;
}
`
	if err := os.WriteFile(src, []byte(code), 0o644); err != nil {
		t.Fatal(err)
	}
	prog := buildCU(t, src, "-std=c++17")
	out, stderr, err := runProgramEnv(prog, []string{"WARPSIM_MODE=functional"})
	if err != nil || out != "0 differ\n" {
		t.Errorf("got %q (%v)\n%s", out, err, stderr)
	}
}

// TestCCHalfPairOperatorsAndClusterIndex: what users write with CUDA 12's
// headers beyond the recorded programs: compound operators and comparisons
// of __half2 and __nv_bfloat162, ++/-- on __half, integer constructors
// (`__nv_bfloat16 z = 0`), make_half2/make_bfloat162, __ldg of pairs, and
// grid_group's cluster queries. The expected values are exact small-integer
// arithmetic (worked out by hand in the comments), and a grid of 6 blocks in
// clusters of 2 has 3 clusters, block b in cluster b/2.
func TestCCHalfPairOperatorsAndClusterIndex(t *testing.T) {
	needClang(t)
	src := filepath.Join(t.TempDir(), "pairs.cu")
	const code = `#include <cstdio>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void __cluster_dims__(2, 1, 1) k(float *o, const __half2 *hp, const __nv_bfloat162 *bp) {
  cg::grid_group g = cg::this_grid();
  if (threadIdx.x == 0)
    o[8 + blockIdx.x] = g.num_clusters() * 100 + g.cluster_rank() * 10 + g.dim_clusters().x + g.cluster_index().x * 1000;
  if (blockIdx.x != 0 || threadIdx.x != 0) return;
  __half2 a = make_half2(__float2half(1.0f), __float2half(2.0f)), b = __floats2half2_rn(3, 4);
  a += b; /* (4,6) */ a *= b; /* (12,24) */ a -= b; /* (9,20) */ a /= b; /* (3,5) */
  o[0] = __low2float(a) * 10 + __high2float(a);                 /* 35 */
  o[1] = (a == b) + 2 * (a != b) + 4 * (a < b) + 8 * (a >= b) + 16 * (-a < a); /* == 0; != (both unequal) 0; < 0; >= (3>=3, 5>=4) 8; -a < a 16 */
  __half h = 0, h1 = 1.5f;
  h += h1; h++; ++h; h--;                                     /* 2.5 */
  o[2] = __half2float(h);
  __nv_bfloat16 z = 0, bz = 2;
  z += bz; z = -z;                                            /* -2 */
  __nv_bfloat162 p = __floats2bfloat162_rn(1, 2), q = make_bfloat162(z, bz);
  p += q; /* (-1,4) */ p *= q; /* (2,8) */
  o[3] = __low2float(p) * 10 + __high2float(p);               /* 28 */
  o[4] = (p == q) + 2 * (p > q);                              /* 2 */
  o[5] = __low2float(__ldg(hp)) + __high2float(__ldg(bp));    /* 0.5 + 7 */
  __half s = (short)3, l = 5LL;
  o[6] = __half2float(s) * __half2float(l);                   /* 15 */
  __nv_bfloat16 u = 9u;
  o[7] = __bfloat162float(u++) + __bfloat162float(u);         /* 9 + 10 */
}
int main() {
  float *o, h[14];
  __half2 *hp; __nv_bfloat162 *bp;
  cudaMalloc(&o, sizeof h); cudaMalloc(&hp, 4); cudaMalloc(&bp, 4);
  __half2 hv = __floats2half2_rn(0.5f, 1.0f);
  __nv_bfloat162 bv = __floats2bfloat162_rn(3.0f, 7.0f);
  cudaMemcpy(hp, &hv, 4, cudaMemcpyHostToDevice);
  cudaMemcpy(bp, &bv, 4, cudaMemcpyHostToDevice);
  k<<<6, 32>>>(o, hp, bp);
  cudaMemcpy(h, o, sizeof h, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 14; i++) printf("%g ", h[i]);
  printf("\n");
  return 0;
}
`
	if err := os.WriteFile(src, []byte(code), 0o644); err != nil {
		t.Fatal(err)
	}
	prog := buildCU(t, src, "-std=c++17")
	out, stderr, err := runProgramEnv(prog, []string{"WARPSIM_MODE=functional"})
	// Blocks 0..5: 3 clusters (300), rank b/2 (x10), 3 clusters along x (+3), index b/2 (x1000).
	want := "35 24 2.5 28 2 7.5 15 19 303 303 1313 1313 2323 2323 \n"
	if err != nil || out != want {
		t.Errorf("got %q (%v), want %q\n%s", out, err, want, stderr)
	}
}

// TestCCClusterIntrinsicsAndCacheHints: sm_90_rt.h's cluster intrinsics
// (__clusterDimIsSpecified … __cluster_map_shared_rank, the split cluster
// barrier) on a grid of 4 blocks in clusters of 2, and the cache-hinted
// loads and stores (__ldcg … __stwt) of 1- to 16-byte types copying values
// unchanged. Block b is rank b%2 of cluster b/2 and reads its partner's
// shared word b^1 (10 + partner).
func TestCCClusterIntrinsicsAndCacheHints(t *testing.T) {
	needClang(t)
	src := filepath.Join(t.TempDir(), "cintr.cu")
	const code = `#include <cstdio>
__global__ void __cluster_dims__(2, 1, 1) k(unsigned *o, const float4 *f4, float4 *g4, const char *c, short *s, double *d) {
  __shared__ unsigned word;
  if (threadIdx.x == 0) word = 10 + blockIdx.x;
  __cluster_barrier_arrive();
  __cluster_barrier_wait();
  if (threadIdx.x == 0) {
    unsigned *peer = __cluster_map_shared_rank(&word, __clusterRelativeBlockRank() ^ 1);
    unsigned *r = o + 8 * blockIdx.x;
    r[0] = __clusterDimIsSpecified(); r[1] = __clusterRelativeBlockRank(); r[2] = __clusterSizeInBlocks();
    r[3] = __clusterIdx().x; r[4] = __clusterGridDimInClusters().x; r[5] = __clusterRelativeBlockIdx().x;
    r[6] = __clusterDim().x; r[7] = *peer;
  }
  __cluster_barrier_arrive_relaxed();
  __cluster_barrier_wait();
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    __stcg(g4, __ldcs(f4)); __stcs(g4 + 1, __ldcg(f4 + 1)); __stwt(g4 + 2, __ldlu(f4 + 2)); __stwb(g4 + 3, __ldca(f4 + 3));
    __stcg(s, (short)(__ldcv(c) * 3)); __stwt(d, __ldcg(d) * 2.0);
  }
}
int main() {
  unsigned *o, h[32];
  float4 hf[4] = {{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11, 12}, {13, 14, 15, 16}}, hg[4];
  char hc = 7; short hs = 0; double hd = 1.25;
  float4 *f, *g; char *c; short *s; double *d;
  cudaMalloc(&o, sizeof h); cudaMalloc(&f, sizeof hf); cudaMalloc(&g, sizeof hg);
  cudaMalloc(&c, 1); cudaMalloc(&s, 2); cudaMalloc(&d, 8);
  cudaMemcpy(f, hf, sizeof hf, cudaMemcpyHostToDevice);
  cudaMemcpy(c, &hc, 1, cudaMemcpyHostToDevice);
  cudaMemcpy(d, &hd, 8, cudaMemcpyHostToDevice);
  k<<<4, 64>>>(o, f, g, c, s, d);
  cudaError_t e = cudaDeviceSynchronize();
  cudaMemcpy(h, o, sizeof h, cudaMemcpyDeviceToHost);
  cudaMemcpy(hg, g, sizeof hg, cudaMemcpyDeviceToHost);
  cudaMemcpy(&hs, s, 2, cudaMemcpyDeviceToHost);
  cudaMemcpy(&hd, d, 8, cudaMemcpyDeviceToHost);
  printf("%s\n", cudaGetErrorName(e));
  for (int b = 0; b < 4; b++) {
    for (int i = 0; i < 8; i++) printf("%u ", h[8 * b + i]);
    printf("\n");
  }
  printf("%g %g %g %g %d %g\n", hg[0].x, hg[1].y, hg[2].z, hg[3].w, hs, hd);
  return 0;
}
`
	if err := os.WriteFile(src, []byte(code), 0o644); err != nil {
		t.Fatal(err)
	}
	prog := buildCU(t, src, "-std=c++17")
	out, stderr, err := runProgramEnv(prog, []string{"WARPSIM_MODE=functional"})
	want := "cudaSuccess\n" +
		"1 0 2 0 2 0 2 11 \n" +
		"1 1 2 0 2 1 2 10 \n" +
		"1 0 2 1 2 0 2 13 \n" +
		"1 1 2 1 2 1 2 12 \n" +
		"1 6 11 16 21 2.5\n"
	if err != nil || out != want {
		t.Errorf("got %q (%v), want %q\n%s", out, err, want, stderr)
	}
}

// TestCCTensorMapThroughDriverEntryPoint: a TMA program as CUDA 12/13 users
// write it without linking libcuda: cudaTypedefs.h's
// PFN_cuTensorMapEncodeTiled_v12000 from cudaGetDriverEntryPointByVersion,
// a 16x16 box at column 16 of a 64x64 float matrix holding its own indices,
// loaded by cuda::ptx::cp_async_bulk_tensor onto a cuda::barrier: element
// (r, c) of the box is 64r + 16 + c (0,0 -> 16; 1,1 -> 81; 15,15 -> 991).
func TestCCTensorMapThroughDriverEntryPoint(t *testing.T) {
	needClang(t)
	src := filepath.Join(t.TempDir(), "tmaentry.cu")
	const code = `#include <cstdio>
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda/barrier>
#include <cuda/ptx>
using barrier = cuda::barrier<cuda::thread_scope_block>;
namespace ptx = cuda::ptx;

__global__ void k(const __grid_constant__ CUtensorMap tm, float* o) {
  __shared__ alignas(128) float s[16 * 16];
  __shared__ barrier bar;
  if (threadIdx.x == 0) { init(&bar, blockDim.x); ptx::fence_proxy_async(ptx::space_shared); }
  __syncthreads();
  barrier::arrival_token tok;
  if (threadIdx.x == 0) {
    int c[2] = {16, 0};
    ptx::cp_async_bulk_tensor(ptx::space_shared, ptx::space_global, s, &tm, c, cuda::device::barrier_native_handle(bar));
    tok = cuda::device::barrier_arrive_tx(bar, 1, sizeof(s));
  } else tok = bar.arrive();
  bar.wait(std::move(tok));
  o[threadIdx.x] = s[threadIdx.x];
}
int main() {
  float* g; cudaMalloc(&g, 64 * 64 * 4);
  float h[64 * 64]; for (int i = 0; i < 64 * 64; i++) h[i] = i;
  cudaMemcpy(g, h, sizeof h, cudaMemcpyHostToDevice);
  PFN_cuTensorMapEncodeTiled_v12000 enc = nullptr;
  cudaDriverEntryPointQueryResult q;
  cudaError_t e = cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", (void**)&enc, 12000, cudaEnableDefault, &q);
  printf("entry %s %d\n", cudaGetErrorName(e), q == cudaDriverEntryPointSuccess);
  CUtensorMap tm;
  cuuint64_t dims[2] = {64, 64}, strides[1] = {64 * 4};
  cuuint32_t box[2] = {16, 16}, es[2] = {1, 1};
  CUresult r = enc(&tm, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, g, dims, strides, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE,
                   CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  float* o; cudaMalloc(&o, 256 * 4);
  k<<<1, 256>>>(tm, o);
  float out[256]; cudaMemcpy(out, o, sizeof out, cudaMemcpyDeviceToHost);
  printf("%d %s %g %g %g\n", (int)r, cudaGetErrorString(cudaDeviceSynchronize()), out[0], out[17], out[255]);
  return 0;
}
`
	if err := os.WriteFile(src, []byte(code), 0o644); err != nil {
		t.Fatal(err)
	}
	prog := buildCU(t, src, "-std=c++17")
	out, stderr, err := runProgramEnv(prog, []string{"WARPSIM_MODE=functional"})
	if want := "entry cudaSuccess 1\n0 no error 16 81 991\n"; err != nil || out != want {
		t.Errorf("got %q (%v), want %q\n%s", out, err, want, stderr)
	}
}

// TestCCXptxasValueIsNotVerbose: in `warpsim cc -Xptxas -v k.cu`, -v is
// -Xptxas's value (nvcc's usual "print register usage"), not the cc
// command's own -v; the build succeeds with a note that -Xptxas has no
// effect here.
func TestCCXptxasValueIsNotVerbose(t *testing.T) {
	needClang(t)
	dir := t.TempDir()
	src := filepath.Join(dir, "k.cu")
	if err := os.WriteFile(src, []byte("__global__ void k(int *p) { *p = 1; }\nint main() { return 0; }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stderr := ccOutcome(t, src, "-arch=sm_90a", "-Xptxas", "-v") // kept between runs
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	if !strings.Contains(stderr, "-Xptxas has no effect here") || strings.Contains(stderr, "clang-22 ") {
		t.Errorf("stderr %q: want the -Xptxas note and no verbose command lines", stderr)
	}
}

// TestCCNumericsFlags: nvcc's --fmad=false and --ftz=true reach the device
// code. With a = 1 + 2^-12, a*a - (1 + 2^-11) is exactly 2^-24: an FMA keeps
// it (nvcc's default contracts the multiply-add), a separate multiply rounds
// it away (0). 1e-40 * a is a single-precision denormal, flushed to 0 under
// --ftz=true. -maxrregcount puts .maxnreg on the kernel.
func TestCCNumericsFlags(t *testing.T) {
	needClang(t)
	dir := t.TempDir()
	src := filepath.Join(dir, "fm.cu")
	const code = `#include <cstdio>
__global__ void k(float *o, float a, float b, float c) { o[0] = a * b + c; o[1] = 1e-40f * a; }
int main() {
  float *d, h[2];
  cudaMalloc(&d, 8);
  float a = 1.0f + 1.0f / (1 << 12);
  k<<<1, 1>>>(d, a, a, -(1.0f + 1.0f / (1 << 11)));
  cudaMemcpy(h, d, 8, cudaMemcpyDeviceToHost);
  printf("%a %d\n", h[0], h[1] != 0.0f);
  return 0;
}
`
	if err := os.WriteFile(src, []byte(code), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		flag, want string
	}{{"-O3", "0x1p-24 1\n"}, {"--fmad=false", "0x0p+0 1\n"}, {"--ftz=true", "0x1p-24 0\n"}} {
		prog := buildCU(t, src, c.flag)
		out, stderr, err := runProgramEnv(prog, []string{"WARPSIM_MODE=functional"})
		if err != nil || out != c.want {
			t.Errorf("%s: got %q (%v), want %q\n%s", c.flag, out, err, c.want, stderr)
		}
	}
	ptx := buildCU(t, src, "-ptx", "-maxrregcount=32") // the PTX, kept between runs
	if b, err := os.ReadFile(ptx); err != nil || !strings.Contains(string(b), ".maxnreg 32\n{") {
		t.Errorf("-maxrregcount=32: no .maxnreg 32 before the kernel's body (%v)", err)
	}
}

// TestCCVectorAtomicAdd: sm_90's atomicAdd on float2 and float4 from 64
// threads adding (1, 2) and (1, 2, 3, 4): the sums are exact, (64, 128) and
// (64, 128, 192, 256), and the old values returned are 64 distinct
// multiples of the increment, so their sum is 0+1+…+63 = 2016 times it.
func TestCCVectorAtomicAdd(t *testing.T) {
	needClang(t)
	src := filepath.Join(t.TempDir(), "vatom.cu")
	const code = `#include <cstdio>
__global__ void k(float2 *a, float4 *b, float *olds) {
  float2 o2 = atomicAdd(a, make_float2(1, 2));
  float4 o4 = atomicAdd(b, make_float4(1, 2, 3, 4));
  atomicAdd(olds, o2.x + o2.y);
  atomicAdd(olds + 1, o4.x + o4.y + o4.z + o4.w);
}
int main() {
  float2 *a; float4 *b; float *o, h[8];
  cudaMalloc(&a, 8); cudaMalloc(&b, 16); cudaMalloc(&o, 8);
  cudaMemset(a, 0, 8); cudaMemset(b, 0, 16); cudaMemset(o, 0, 8);
  k<<<2, 32>>>(a, b, o);
  cudaMemcpy(h, a, 8, cudaMemcpyDeviceToHost);
  cudaMemcpy(h + 2, b, 16, cudaMemcpyDeviceToHost);
  cudaMemcpy(h + 6, o, 8, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 8; i++) printf("%g ", h[i]);
  printf("\n");
  return 0;
}
`
	if err := os.WriteFile(src, []byte(code), 0o644); err != nil {
		t.Fatal(err)
	}
	prog := buildCU(t, src, "-std=c++17")
	out, stderr, err := runProgramEnv(prog, []string{"WARPSIM_MODE=functional"})
	// 2016*3 = 6048, 2016*10 = 20160.
	if want := "64 128 64 128 192 256 6048 20160 \n"; err != nil || out != want {
		t.Errorf("got %q (%v), want %q\n%s", out, err, want, stderr)
	}
}

// TestCCCGMemcpyAsyncIsCpAsync: cooperative_groups::memcpy_async from
// global to shared memory compiles to cp.async as CUDA's does on sm_80+
// (16-byte .cg pieces when the addresses and size allow, 4-byte .ca
// otherwise, one commit per call), wait to cp.async.wait_all and
// wait_prior<1> to cp.async.wait_group 1; the timing model then sees
// nvcc's asynchronous copy, not loads and stores.
func TestCCCGMemcpyAsyncIsCpAsync(t *testing.T) {
	needClang(t)
	dir := t.TempDir()
	src := filepath.Join(dir, "cgm.cu")
	const code = `#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
namespace cg = cooperative_groups;
__global__ void k(const int4 *a, const float *b, float *out) {
  __shared__ int4 s[64];
  __shared__ float f[65];
  auto block = cg::this_thread_block();
  cg::memcpy_async(block, s, a, sizeof(s));
  cg::memcpy_async(block, f + 1, b + 1, 64 * sizeof(float));
  cg::wait_prior<1>(block);
  out[threadIdx.x] = s[threadIdx.x].x;
  cg::wait(block);
  out[threadIdx.x] += f[threadIdx.x + 1];
}
`
	if err := os.WriteFile(src, []byte(code), 0o644); err != nil {
		t.Fatal(err)
	}
	ptx := buildCU(t, src, "-ptx") // the PTX, kept between runs
	b, err := os.ReadFile(ptx)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"cp.async.cg.shared.global [", ", 16;", "cp.async.ca.shared.global [", ", 4;", "cp.async.commit_group", "cp.async.wait_group 1", "cp.async.wait_all"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("the PTX lacks %q", want)
		}
	}
}

// TestPrograms3SplitMatchesRule checks that testdata/programs3/SPLIT.md's
// table lists every program of the batch in the half its rule (the first
// hex digit of the SHA-256 of the name, except the programs moved to the
// study half: programs3MovedToStudy, each of which the hash rule had held
// out and SPLIT.md names) puts it in, as programs3Study computes it for
// TestLongPrograms3TimesAgainstH100.
func TestPrograms3SplitMatchesRule(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(programs3Dir, "SPLIT.md"))
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{} // program: in the study half
	for _, line := range strings.Split(string(data), "\n") {
		study := strings.HasPrefix(line, "| study")
		if !study && !strings.HasPrefix(line, "| held out") {
			continue
		}
		cells := strings.Split(line, "|")
		for _, p := range strings.Split(cells[2], ",") {
			if f := strings.Fields(p); len(f) > 0 {
				listed[f[0]] = study
			}
		}
	}
	if len(listed) != len(programs3) {
		t.Errorf("SPLIT.md lists %d programs, programs3 has %d", len(listed), len(programs3))
	}
	for _, p := range programs3 {
		study, ok := listed[p.name]
		if !ok {
			t.Errorf("%s: not in SPLIT.md", p.name)
		} else if study != programs3Study(p.name) {
			t.Errorf("%s: SPLIT.md says study=%v, the rule %v", p.name, study, programs3Study(p.name))
		}
	}
	for name := range programs3MovedToStudy {
		if programs3HashStudy(name) {
			t.Errorf("%s: moved to the study half, but the hash rule already puts it there", name)
		}
		if !strings.Contains(string(data), "- **"+name+"**") {
			t.Errorf("%s: moved to the study half, but SPLIT.md does not say when and why", name)
		}
	}
}
