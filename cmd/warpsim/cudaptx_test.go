package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// cudaptxDir holds programs for warpsim's <cuda/ptx> and for the cache-hint
// qualifiers, with what nvcc 13 built from them printed on an H100
// (run.sh, recorded/).
const cudaptxDir = "../../testdata/cudaptx"

// TestCacheHintsMatchH100 runs cache_hints.cu — ld, st, atom, red and
// cp.async with .L2::cache_hint policies from createpolicy, .L1::evict_*,
// .L1::no_allocate, .L2::64B/128B/256B, prefetch and applypriority — built
// by warpsim cc from clang's PTX and again from nvcc's PTX of the same
// program (recorded/cache_hints.ptx, --device-ptx), and compares both
// outputs with the H100's: the hints change no result.
func TestCacheHintsMatchH100(t *testing.T) {
	needClang(t)
	want, err := os.ReadFile(filepath.Join(cudaptxDir, "recorded", "cache_hints.stdout"))
	if err != nil {
		t.Fatal(err)
	}
	level, err := os.ReadFile(filepath.Join(cudaptxDir, "recorded", "cache_hints.level"))
	if err != nil {
		t.Fatal(err)
	}
	flags := []string{"-arch=sm_90a"}
	if f := strings.TrimSpace(strings.TrimPrefix(string(level), "flags:")); f != "" {
		flags = append(flags, f) // the forms the H100's ptxas took (run.sh)
	}
	src := filepath.Join(cudaptxDir, "cache_hints.cu")
	for _, b := range []struct {
		name  string
		flags []string
	}{
		{"clang", flags},
		{"nvcc-ptx", append(append([]string{}, flags...), "--device-ptx", filepath.Join(cudaptxDir, "recorded", "cache_hints.ptx"))},
	} {
		t.Run(b.name, func(t *testing.T) {
			stdout, stderr := runProgram(t, buildCU(t, src, b.flags...))
			if stdout != string(want) {
				t.Errorf("stdout:\n%s\nwant (H100):\n%s\nstderr:\n%s", stdout, want, stderr)
			}
		})
	}
}

// ptxWrappersWant is what ptx_wrappers.cu must print, derived from the
// program's definition: a 64x32 matrix of h[i] = i whose 16x8 tile at
// (16, 8) gets 1000*t added at element t (row-major in the tile); a flat
// array f[i] = 7i - 100 whose first 128 elements become 3f+1 and the rest
// 5f+2; one elected thread; the barrier's phase 0 complete and phase 1 not.
func ptxWrappersWant() string {
	const W, H, TW, TH, N = 64, 32, 16, 8, 256
	h := make([]int64, W*H)
	for i := range h {
		h[i] = int64(i)
	}
	for t := 0; t < TW*TH; t++ {
		h[(8+t/TW)*W+16+t%TW] += 1000 * int64(t)
	}
	var sum, wsum int64
	for i, v := range h {
		sum += v
		wsum += v * int64(i%97)
	}
	var fsum int64
	fo := make([]int64, N)
	for i := range fo {
		f := int64(7*i - 100)
		if i < 128 {
			fo[i] = 3*f + 1
		} else {
			fo[i] = 5*f + 2
		}
		fsum += fo[i] * int64(i+1)
	}
	return fmt.Sprintf("encode: 0\nsync: cudaSuccess\n"+
		"matrix sum %d weighted %d; h[8*64+16]=%d h[15*64+31]=%d h[7*64+16]=%d\n"+
		"flat weighted %d; fo[0]=%d fo[255]=%d\n"+
		"elected 1 test_wait 1 parity1 0 ntid 128 nctaid 1 nctarank 1 explicit 0 dynsmem 0\n"+
		"lane 5 tid 37 lanemask_lt 0x1f\n",
		sum, wsum, h[8*W+16], h[15*W+31], h[7*W+16], fsum, fo[0], fo[255])
}

// TestCUDAPTXWrappers builds ptx_wrappers.cu, a program written against
// CUDA 13's cuda::ptx API (mbarrier_*, cp_async_bulk, cp_async_bulk_tensor,
// fences, elect_sync, get_sreg_*), with warpsim's own <cuda/ptx> and checks
// every value it prints against ptxWrappersWant, and against the H100's
// output when run.sh's recording of it succeeded (the first, nvcc 13.0,
// failed to compile it: that <cuda/ptx> has no elect_sync).
func TestCUDAPTXWrappers(t *testing.T) {
	needClang(t)
	stdout, stderr := runProgram(t, buildCU(t, filepath.Join(cudaptxDir, "ptx_wrappers.cu"), "-arch=sm_90a"))
	if want := ptxWrappersWant(); stdout != want {
		t.Errorf("stdout:\n%s\nwant:\n%s\nstderr:\n%s", stdout, want, stderr)
	}
	rec := filepath.Join(cudaptxDir, "recorded", "ptx_wrappers")
	if st, err := os.ReadFile(rec + ".status"); err == nil && strings.TrimSpace(string(st)) == "0" {
		want, err := os.ReadFile(rec + ".stdout")
		if err != nil {
			t.Fatal(err)
		}
		if stdout != string(want) {
			t.Errorf("stdout:\n%s\nwant (H100):\n%s", stdout, want)
		}
	}
}
