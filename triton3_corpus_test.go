package warpsim_test

// The third Triton batch (testdata/triton3, recorded by testdata/triton3/
// triton_corpus3.py on an H100): kernels the first corpus lacks (dropout,
// backward passes, scans, sort, histogram, gather, integer and float64 math,
// libdevice, atomics and spin locks, block pointers, int8/fp8/f16-accumulator
// /ieee/tf32x3 dots, causal attention, a persistent TMA matmul, programmatic
// dependent launch, an int4 dequant GEMM), run from Triton's own PTX on the
// recorded inputs; every output buffer must equal the H100's byte for byte.
// A kernel missing from triton3Expect, or named there but not recorded,
// fails the test.

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/launchfile"
	"github.com/warpsim/warpsim/ptx"
)

const triton3Dir = "testdata/triton3"

// triton3Expect lists every recorded kernel/arch of the batch; all run
// bit-exact (tritonExact).
var triton3Expect = map[string]string{
	"argmin_f32/sm90":          tritonExact,
	"argmin_f32/sm80":          tritonExact,
	"atomic_f16_bf16/sm90":     tritonExact,
	"atomic_f16_bf16/sm80":     tritonExact,
	"atomic_minmax_f32/sm90":   tritonExact,
	"atomic_minmax_f32/sm80":   tritonExact,
	"atomic_sem/sm90":          tritonExact,
	"atomic_sem/sm80":          tritonExact,
	"attn_causal_bf16/sm90":    tritonExact,
	"attn_causal_bf16/sm80":    tritonExact,
	"blockptr_mm_f16/sm90":     tritonExact,
	"blockptr_mm_f16/sm80":     tritonExact,
	"cache_hints_f32/sm90":     tritonExact,
	"cache_hints_f32/sm80":     tritonExact,
	"clamp_nan_f32/sm90":       tritonExact,
	"clamp_nan_f32/sm80":       tritonExact,
	"cluster_mm_f16/sm90":      tritonExact,
	"dequant_int4_mm_f16/sm90": tritonExact,
	"dequant_int4_mm_f16/sm80": tritonExact,
	"dot_f16acc/sm90":          tritonExact,
	"dot_f16acc/sm80":          tritonExact,
	"dot_fp8e5m2_f32/sm90":     tritonExact,
	"dot_fp8e5m2_f32/sm80":     tritonExact,
	"dot_i8_i32/sm90":          tritonExact,
	"dot_i8_i32/sm80":          tritonExact,
	"dot_ieee_f32/sm90":        tritonExact,
	"dot_ieee_f32/sm80":        tritonExact,
	"dot_scaled_e4m3/sm90":     tritonExact,
	"dot_tf32x3_f32/sm90":      tritonExact,
	"dot_tf32x3_f32/sm80":      tritonExact,
	"dropout_f32/sm90":         tritonExact,
	"dropout_f32/sm80":         tritonExact,
	"f64_math/sm90":            tritonExact,
	"f64_math/sm80":            tritonExact,
	"fp8_cvt/sm90":             tritonExact,
	"gather_f32/sm90":          tritonExact,
	"gather_f32/sm80":          tritonExact,
	"gdc_pdl_f32/sm90":         tritonExact,
	"half_math/sm90":           tritonExact,
	"half_math/sm80":           tritonExact,
	"histogram_i32/sm90":       tritonExact,
	"histogram_i32/sm80":       tritonExact,
	"inline_asm_multi/sm90":    tritonExact,
	"inline_asm_multi/sm80":    tritonExact,
	"int64_int16/sm90":         tritonExact,
	"int64_int16/sm80":         tritonExact,
	"intmath_i32/sm90":         tritonExact,
	"intmath_i32/sm80":         tritonExact,
	"ld_f64/sm90":              tritonExact,
	"ld_f64/sm80":              tritonExact,
	"ld_f64_round/sm90":        tritonExact,
	"ld_f64_round/sm80":        tritonExact,
	"ld_round_f32/sm90":        tritonExact,
	"ld_round_f32/sm80":        tritonExact,
	"ld_special_f32/sm90":      tritonExact,
	"ld_special_f32/sm80":      tritonExact,
	"libdevice_a_f32/sm90":     tritonExact,
	"libdevice_a_f32/sm80":     tritonExact,
	"libdevice_b_f32/sm90":     tritonExact,
	"libdevice_b_f32/sm80":     tritonExact,
	"ln_bwd_lock_f32/sm90":     tritonExact,
	"ln_bwd_lock_f32/sm80":     tritonExact,
	"persistent_tma_f16/sm90":  tritonExact,
	"persistent_tma_f16/sm80":  tritonExact,
	"philox_more/sm90":         tritonExact,
	"philox_more/sm80":         tritonExact,
	"pipelined_mm_bf16/sm90":   tritonExact,
	"pipelined_mm_bf16/sm80":   tritonExact,
	"reduce_custom/sm90":       tritonExact,
	"reduce_custom/sm80":       tritonExact,
	"rmsnorm_bf16_w16/sm90":    tritonExact,
	"rmsnorm_bf16_w16/sm80":    tritonExact,
	"rope_f16_grid3d/sm90":     tritonExact,
	"rope_f16_grid3d/sm80":     tritonExact,
	"scan_f32/sm90":            tritonExact,
	"scan_f32/sm80":            tritonExact,
	"shape_ops_f32/sm90":       tritonExact,
	"shape_ops_f32/sm80":       tritonExact,
	"softmax_bwd_f32/sm90":     tritonExact,
	"softmax_bwd_f32/sm80":     tritonExact,
	"sort_f32/sm90":            tritonExact,
	"sort_f32/sm80":            tritonExact,
	"splitk_f16_atomic/sm90":   tritonExact,
	"splitk_f16_atomic/sm80":   tritonExact,
	"swiglu_bf16_w1/sm90":      tritonExact,
	"swiglu_bf16_w1/sm80":      tritonExact,
	"tma_bf16_w8/sm90":         tritonExact,
	"vec_hints_i8/sm90":        tritonExact,
	"vec_hints_i8/sm80":        tritonExact,
	"xent_f32/sm90":            tritonExact,
	"xent_f32/sm80":            tritonExact,
}

// TestTriton3Corpus runs the third batch's 91 launch files and compares
// every output buffer with the H100's bytes.
func TestTriton3Corpus(t *testing.T) { runTritonBatch(t, triton3Dir, triton3Expect, "triton3Expect") }

// TestTriton3Workers runs the batch's kernels whose blocks meet in global
// memory (atomics, the layer-norm backward's spin locks, the split-K sums,
// the cluster matmul) with one worker and with eight: the bytes must be the
// H100's either way (results never depend on the number of workers).
func TestTriton3Workers(t *testing.T) {
	checkSM90AtWorkers(t, triton3Dir, "ln_bwd_lock_f32", "splitk_f16_atomic", "atomic_f16_bf16", "atomic_minmax_f32",
		"atomic_sem", "histogram_i32", "cluster_mm_f16")
}

// TestTriton3RoundTrip parses every PTX file of the batch, prints it and
// parses the print again: no errors, and the second print equals the first
// (the parser's round trip, as ptx/ checks it for the first corpus).
func TestTriton3RoundTrip(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(triton3Dir, "*", "sm*.ptx"))
	if len(files) != triton3PTXFiles {
		t.Fatalf("%d PTX files, want %d", len(files), triton3PTXFiles)
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		m, err := ptx.Parse(f, src)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		out := ptx.Format(m)
		m2, err := ptx.Parse(f, out)
		if err != nil {
			t.Errorf("%s: the printed module does not parse: %v", f, err)
			continue
		}
		if out2 := ptx.Format(m2); !bytes.Equal(out2, out) {
			t.Errorf("%s: printing the reparsed module differs", f)
		}
	}
}

// triton3PTXFiles is the batch's PTX files: 48 sm_90 and 43 sm_80.
const triton3PTXFiles = 91

// TestTriton3TimingWorkers: in timing mode the same kernels take the same
// simulated time with 1 worker as with 8.
func TestTriton3TimingWorkers(t *testing.T) {
	for _, name := range []string{"ln_bwd_lock_f32", "splitk_f16_atomic", "atomic_sem", "cluster_mm_f16", "persistent_tma_f16"} {
		t.Run(name, func(t *testing.T) {
			f, err := launchfile.Load(filepath.Join(triton3Dir, name, "launch.json"))
			if err != nil {
				t.Fatal(err)
			}
			var ns [2]float64
			for i, workers := range []int{1, 8} {
				dev := warpsim.NewDevice(arch.MustLookup("h100"), warpsim.Options{Stdout: &syncBuffer{}, Workers: workers,
					Mode: warpsim.ModeTiming, Timing: warpsim.TimingOptions{ClockMHz: ncuClockMHz}})
				out, err := f.Execute(dev, launchfile.ExecOptions{})
				if err != nil {
					t.Fatal(err)
				}
				ns[i] = out.Launches[0].DurationNS
			}
			if ns[0] != ns[1] || ns[0] <= 0 {
				t.Errorf("%.1f ns with 1 worker, %.1f ns with 8", ns[0], ns[1])
			}
		})
	}
}
