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
	"os"
	"path/filepath"
	"testing"
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

func TestTriton3Corpus(t *testing.T) {
	seen := map[string]bool{}
	metas, err := filepath.Glob(filepath.Join(triton3Dir, "*", "meta.json"))
	if err != nil || len(metas) == 0 {
		t.Fatalf("no Triton kernels under %s (%v)", triton3Dir, err)
	}
	for _, mp := range metas {
		dir := filepath.Dir(mp)
		name := filepath.Base(dir)
		for _, a := range []struct{ arch, launch string }{{"sm90", "launch.json"}, {"sm80", "launch_sm80.json"}} {
			lf := filepath.Join(dir, a.launch)
			if _, err := os.Stat(lf); err != nil {
				continue
			}
			key := name + "/" + a.arch
			seen[key] = true
			want, ok := triton3Expect[key]
			t.Run(key, func(t *testing.T) {
				if !ok {
					t.Fatalf("%s is not in triton3Expect", key)
				}
				t.Parallel()
				runTritonKernel(t, dir, lf, a.arch, want)
			})
		}
	}
	for k := range triton3Expect {
		if !seen[k] {
			t.Errorf("triton3Expect names %s, which the batch does not have", k)
		}
	}
}
