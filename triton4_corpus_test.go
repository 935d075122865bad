package warpsim_test

// The fourth Triton batch (testdata/triton4, recorded by testdata/triton4/
// triton_corpus4.py on an H100), held out as a whole: what today's LLM and
// Triton users run and batches 1 and 3 lack (paged-attention decode,
// grouped-query attention, flash-attention backward, fused MoE, fp8 and int8
// scaled matmuls, batched 3-D dots, conv2d as an implicit GEMM, group norm,
// per-token quantization, tl.device_print, a failing tl.device_assert, warp
// specialization, num_stages 1 and 5, num_warps 1, 2 and 16, top-k, tuple
// scans, interleave/join/split/flip/cat, an embedding bag, the paged KV-cache
// write, uint8/int16/float64 arithmetic, float64 dots, odd strided shapes),
// run from Triton's own PTX on the recorded inputs. Every output buffer must
// equal the H100's byte for byte; a kernel that prints must print the H100's
// lines; the failing assert must stop with the H100's error and messages.

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/internal/testenv"
	"github.com/warpsim/warpsim/launchfile"
)

const triton4Dir = "testdata/triton4"

// triton4Expect lists every recorded kernel/arch of the batch and what it
// must give: tritonExact (bytes, and printed lines where recorded) or
// triton4Assert (the recorded error and messages).
var triton4Expect = map[string]string{
	"add_layernorm_bf16_w16/sm90": tritonExact,
	"add_layernorm_bf16_w16/sm80": tritonExact,
	"attn_bwd_dkdv_f16/sm90":      tritonExact,
	"attn_bwd_dkdv_f16/sm80":      tritonExact,
	"attn_bwd_dq_f16/sm90":        tritonExact,
	"attn_bwd_dq_f16/sm80":        tritonExact,
	"bmm3d_f16/sm90":              tritonExact,
	"bmm3d_f16/sm80":              tritonExact,
	"conv2d_igemm_f16/sm90":       tritonExact,
	"conv2d_igemm_f16/sm80":       tritonExact,
	"device_assert_i32/sm90":      triton4Assert,
	"device_assert_i32/sm80":      triton4Assert,
	"device_print_f32/sm90":       tritonExact,
	"device_print_f32/sm80":       tritonExact,
	"dot_f64/sm90":                tritonExact,
	"dot_f64/sm80":                tritonExact,
	"embedding_bag_f32/sm90":      tritonExact,
	"embedding_bag_f32/sm80":      tritonExact,
	"fp8_block_mm_bf16/sm90":      tritonExact,
	"fp8_rowwise_mm_bf16/sm90":    tritonExact,
	"fused_moe_f16/sm90":          tritonExact,
	"fused_moe_f16/sm80":          tritonExact,
	"gqa_fwd_bf16/sm90":           tritonExact,
	"gqa_fwd_bf16/sm80":           tritonExact,
	"group_norm_f32/sm90":         tritonExact,
	"group_norm_f32/sm80":         tritonExact,
	"mm_stages1_f16/sm90":         tritonExact,
	"mm_stages1_f16/sm80":         tritonExact,
	"mm_stages5_bf16/sm90":        tritonExact,
	"mm_stages5_bf16/sm80":        tritonExact,
	"mm_w16_f16/sm90":             tritonExact,
	"mm_w16_f16/sm80":             tritonExact,
	"mm_w1_bf16/sm90":             tritonExact,
	"mm_w1_bf16/sm80":             tritonExact,
	"mm_w2_tf32/sm90":             tritonExact,
	"mm_w2_tf32/sm80":             tritonExact,
	"moe_align_i32/sm90":          tritonExact,
	"moe_align_i32/sm80":          tritonExact,
	"odd_mask2d_f32/sm90":         tritonExact,
	"odd_mask2d_f32/sm80":         tritonExact,
	"paged_attn_decode_f16/sm90":  tritonExact,
	"paged_attn_decode_f16/sm80":  tritonExact,
	"quant_fp8_token/sm90":        tritonExact,
	"quant_int8_token/sm90":       tritonExact,
	"quant_int8_token/sm80":       tritonExact,
	"reshape_and_cache_f16/sm90":  tritonExact,
	"rope_gptj_bf16/sm90":         tritonExact,
	"rope_gptj_bf16/sm80":         tritonExact,
	"scan_tuple_f32/sm90":         tritonExact,
	"scan_tuple_f32/sm80":         tritonExact,
	"shape_ops2_f16/sm90":         tritonExact,
	"shape_ops2_f16/sm80":         tritonExact,
	"small_int_f64/sm90":          tritonExact,
	"small_int_f64/sm80":          tritonExact,
	"topk_f32/sm90":               tritonExact,
	"topk_f32/sm80":               tritonExact,
	"w8a8_mm_f16/sm90":            tritonExact,
	"w8a8_mm_f16/sm80":            tritonExact,
	"ws_mm_f16/sm90":              tritonExact,
	"ws_mm_f16/sm80":              tritonExact,
}

// triton4Assert marks a kernel whose recording is a failed assert
// (expected/<arch>/error.txt, stdout.txt, stderr.txt).
const triton4Assert = "assert"

// triton4Plain are the kernels the plain `go test` runs (a cheap subset:
// one per kind of feature); WARPSIM_LONG=1 runs all of them.
var triton4Plain = map[string]bool{
	"paged_attn_decode_f16": true, "device_print_f32": true, "device_assert_i32": true, "topk_f32": true,
	"moe_align_i32": true, "shape_ops2_f16": true, "small_int_f64": true, "embedding_bag_f32": true,
	"quant_int8_token": true, "reshape_and_cache_f16": true, "dot_f64": true, "quant_fp8_token": true,
}

// TestTriton4Corpus runs the plain subset of the fourth batch.
func TestTriton4Corpus(t *testing.T) { runTriton4(t, false) }

// TestLongTriton4Corpus runs every launch file of the fourth batch.
func TestLongTriton4Corpus(t *testing.T) {
	testenv.Long(t)
	runTriton4(t, true)
}

func runTriton4(t *testing.T, all bool) {
	metas, err := filepath.Glob(filepath.Join(triton4Dir, "*", "meta.json"))
	if err != nil || len(metas) == 0 {
		t.Fatalf("no Triton kernels under %s (%v)", triton4Dir, err)
	}
	seen := map[string]bool{}
	for _, mp := range metas {
		kdir := filepath.Dir(mp)
		kernel := filepath.Base(kdir)
		for _, a := range []struct{ arch, launch string }{{"sm90", "launch.json"}, {"sm80", "launch_sm80.json"}} {
			lf := filepath.Join(kdir, a.launch)
			if _, err := os.Stat(lf); err != nil {
				continue
			}
			key := kernel + "/" + a.arch
			seen[key] = true
			want, ok := triton4Expect[key]
			if !all && !triton4Plain[kernel] {
				continue
			}
			t.Run(key, func(t *testing.T) {
				if !ok {
					t.Fatalf("%s is not in triton4Expect", key)
				}
				t.Parallel()
				runTriton4Kernel(t, kdir, lf, a.arch, want)
			})
		}
	}
	for k := range triton4Expect {
		if !seen[k] {
			t.Errorf("triton4Expect names %s, which %s does not have", k, triton4Dir)
		}
	}
}

func runTriton4Kernel(t *testing.T, dir, lfPath, archName, want string) {
	f, err := launchfile.Load(lfPath)
	if err != nil {
		t.Fatal(err)
	}
	stdout := &syncBuffer{}
	dev := warpsim.NewDevice(arch.MustLookup("h100"), warpsim.Options{Stdout: stdout})
	type result struct {
		out *launchfile.Outcome
		err error
	}
	done := make(chan result, 1)
	go func() {
		out, err := f.Execute(dev, launchfile.ExecOptions{})
		done <- result{out, err}
	}()
	var r result
	select {
	case r = <-done:
	case <-time.After(tritonTimeout):
		t.Fatalf("%s: not finished after %v", lfPath, tritonTimeout)
	}
	expDir := filepath.Join(dir, "expected", archName)
	if want == triton4Assert {
		checkTriton4Assert(t, expDir, r.err, stdout.String())
		return
	}
	if r.err != nil {
		t.Fatalf("%s: %v", lfPath, r.err)
	}
	checkRecordedBuffers(t, expDir, r.out)
	// A kernel the H100 printed nothing for has no stdout.txt: it must print
	// nothing here either (a printing kernel whose recording went missing
	// fails instead of going unchecked).
	wantOut, err := os.ReadFile(filepath.Join(expDir, "stdout.txt"))
	switch {
	case os.IsNotExist(err):
		if stdout.String() != "" {
			t.Errorf("printed %q; the H100 printed nothing (no %s)", stdout.String(), filepath.Join(expDir, "stdout.txt"))
		}
	case err != nil:
		t.Fatal(err)
	default:
		checkTriton4Lines(t, "stdout", stdout.String(), string(wantOut))
	}
}

// checkTriton4Lines compares printed lines as a multiset: the GPU's printf
// buffer holds the warps' lines in the order they reached it, which no
// simulator is asked to reproduce; every line itself must be the H100's.
func checkTriton4Lines(t *testing.T, what, got, want string) {
	t.Helper()
	g, w := strings.Split(strings.TrimSuffix(got, "\n"), "\n"), strings.Split(strings.TrimSuffix(want, "\n"), "\n")
	sort.Strings(g)
	sort.Strings(w)
	if strings.Join(g, "\n") == strings.Join(w, "\n") {
		return
	}
	wantSet := map[string]int{}
	for _, l := range w {
		wantSet[l]++
	}
	var extra []string
	for _, l := range g {
		if wantSet[l] > 0 {
			wantSet[l]--
		} else if len(extra) < 5 {
			extra = append(extra, l)
		}
	}
	var missing []string
	for _, l := range w {
		if wantSet[l] > 0 && len(missing) < 5 {
			missing = append(missing, l)
			wantSet[l]--
		}
	}
	t.Errorf("%s: %d lines, want %d; printed but not recorded: %q; recorded but not printed: %q",
		what, len(g), len(w), extra, missing)
}

// checkTriton4Assert: the launch must stop with the fault CUDA reports as
// the recorded error (CUDA_ERROR_ASSERT, 710), and the assert's messages
// must be the lines the H100's process printed.
func checkTriton4Assert(t *testing.T, expDir string, err error, stdout string) {
	t.Helper()
	wantErr, rerr := os.ReadFile(filepath.Join(expDir, "error.txt"))
	if rerr != nil {
		t.Fatal(rerr)
	}
	var f *warpsim.Fault
	if !errors.As(err, &f) {
		t.Fatalf("error %v, want a fault (the H100: %s)", err, strings.TrimSpace(string(wantErr)))
	}
	if !strings.Contains(string(wantErr), "CUDA_ERROR_ASSERT") || f.Kind.CUDAError() != 710 {
		t.Errorf("fault %v (CUDA error %d), the H100: %s", f.Kind, f.Kind.CUDAError(), strings.TrimSpace(string(wantErr)))
	}
	var rec []byte
	for _, n := range []string{"stdout.txt", "stderr.txt"} {
		b, err := os.ReadFile(filepath.Join(expDir, n))
		if err != nil {
			t.Fatal(err)
		}
		rec = append(rec, b...)
	}
	checkTriton4Lines(t, "assert messages", stdout+f.Output, string(rec))
}

// TestTriton4Meta: every kernel directory's meta.json names its kernel and
// outputs, and the recording of every launch file is there.
func TestTriton4Meta(t *testing.T) {
	metas, _ := filepath.Glob(filepath.Join(triton4Dir, "*", "meta.json"))
	if len(metas) != triton4Kernels {
		t.Fatalf("%d kernels, want %d", len(metas), triton4Kernels)
	}
	for _, mp := range metas {
		var m struct {
			Kernel  string   `json:"kernel"`
			Outputs []string `json:"outputs"`
		}
		b, err := os.ReadFile(mp)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &m); err != nil || m.Kernel == "" || len(m.Outputs) == 0 {
			t.Errorf("%s: %v %+v", mp, err, m)
		}
	}
}

// triton4Kernels is the batch's kernel directories.
const triton4Kernels = 32

// TestTriton4Workers runs the batch's kernels whose blocks meet in global
// memory (the embedding bag's atomic adds, the KV-cache scatter, the MoE
// scatter by sorted ids) with one worker and with eight: the bytes must be
// the H100's either way.
func TestTriton4Workers(t *testing.T) {
	checkSM90AtWorkers(t, triton4Dir, "embedding_bag_f32", "reshape_and_cache_f16", "fused_moe_f16")
}
