package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warpsim/warpsim/cuda/cc"
	"github.com/warpsim/warpsim/internal/ir"
	"github.com/warpsim/warpsim/ptx"
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
// what it prints against what nvcc 13.0's build of it printed on the H100
// (run.sh: recorded/ptx_wrappers.*; that <cuda/ptx> has no elect_sync, so
// nvcc's build uses elect.sync in asm) and against ptxWrappersWant, the
// values derived from the program's definition, built by warpsim cc from
// clang's PTX and again from nvcc's (recorded/ptx_wrappers.ptx,
// --device-ptx). A missing recording, or one whose build or run failed,
// fails the test.
func TestCUDAPTXWrappers(t *testing.T) {
	needClang(t)
	rec := filepath.Join(cudaptxDir, "recorded", "ptx_wrappers")
	st, err := os.ReadFile(rec + ".status")
	if err != nil {
		t.Fatalf("no H100 recording: %v", err)
	}
	if s := strings.TrimSpace(string(st)); s != "0" {
		nvcc, _ := os.ReadFile(rec + ".nvcc.txt")
		t.Fatalf("the H100's recording failed (status %s): nvcc said:\n%s", s, nvcc)
	}
	h100, err := os.ReadFile(rec + ".stdout")
	if err != nil {
		t.Fatal(err)
	}
	if string(h100) != ptxWrappersWant() {
		t.Errorf("the H100 printed:\n%s\nptxWrappersWant says:\n%s", h100, ptxWrappersWant())
	}
	src := filepath.Join(cudaptxDir, "ptx_wrappers.cu")
	for _, b := range []struct {
		name  string
		flags []string
	}{
		{"clang", []string{"-arch=sm_90a"}},
		// nvcc's PTX of the program with CUDA 13.0's own <cuda/ptx>
		{"nvcc-ptx", []string{"-arch=sm_90a", "--device-ptx", rec + ".ptx"}},
	} {
		t.Run(b.name, func(t *testing.T) {
			stdout, stderr := runProgram(t, buildCU(t, src, b.flags...))
			if stdout != string(h100) {
				t.Errorf("stdout:\n%s\nwant (H100):\n%s\nstderr:\n%s", stdout, h100, stderr)
			}
			if want := ptxWrappersWant(); stdout != want {
				t.Errorf("stdout:\n%s\nwant (derived):\n%s", stdout, want)
			}
		})
	}
}

// cudaPTXUses calls every function warpsim's <cuda/ptx> declares, one
// kernel per group, as a program would; the shared::cluster mbarrier forms
// are left out (warpsim does not simulate cluster-scope mbarriers yet:
// docs/async-copies.md).
const cudaPTXUses = `#include <cuda/ptx>
namespace ptx = cuda::ptx;
__device__ uint64_t sink64;
__device__ unsigned sink;
extern "C" __global__ void mbar(int *g) {
  __shared__ uint64_t b;
  ptx::mbarrier_init(&b, 2);
  ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
  uint64_t s = ptx::mbarrier_arrive(&b);
  s ^= ptx::mbarrier_arrive(&b, 1u);
  s ^= ptx::mbarrier_arrive(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &b);
  s ^= ptx::mbarrier_arrive(ptx::sem_release, ptx::scope_cluster, ptx::space_shared, &b, 2u);
  s ^= ptx::mbarrier_arrive(ptx::sem_relaxed, ptx::scope_cta, ptx::space_shared, &b);
  s ^= ptx::mbarrier_arrive(ptx::sem_relaxed, ptx::scope_cluster, ptx::space_shared, &b, 1u);
  s ^= ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &b, 16u);
  s ^= ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cluster, ptx::space_shared, &b, 16u);
  ptx::mbarrier_expect_tx(ptx::sem_relaxed, ptx::scope_cta, ptx::space_shared, &b, 16u);
  ptx::mbarrier_expect_tx(ptx::sem_relaxed, ptx::scope_cluster, ptx::space_shared, &b, 16u);
  unsigned r = ptx::mbarrier_test_wait(&b, s) + ptx::mbarrier_test_wait(ptx::sem_acquire, ptx::scope_cta, &b, s) +
               ptx::mbarrier_test_wait(ptx::sem_acquire, ptx::scope_cluster, &b, s) +
               ptx::mbarrier_test_wait_parity(&b, 0u) +
               ptx::mbarrier_test_wait_parity(ptx::sem_acquire, ptx::scope_cta, &b, 1u) +
               ptx::mbarrier_test_wait_parity(ptx::sem_acquire, ptx::scope_cluster, &b, 1u) +
               ptx::mbarrier_try_wait(&b, s) + ptx::mbarrier_try_wait(&b, s, 100u) +
               ptx::mbarrier_try_wait(ptx::sem_acquire, ptx::scope_cta, &b, s) +
               ptx::mbarrier_try_wait(ptx::sem_acquire, ptx::scope_cluster, &b, s, 100u) +
               ptx::mbarrier_try_wait_parity(&b, 0u) + ptx::mbarrier_try_wait_parity(&b, 0u, 100u) +
               ptx::mbarrier_try_wait_parity(ptx::sem_acquire, ptx::scope_cta, &b, 1u) +
               ptx::mbarrier_try_wait_parity(ptx::sem_acquire, ptx::scope_cluster, &b, 1u, 100u);
  ptx::cp_async_mbarrier_arrive(&b);
  ptx::cp_async_mbarrier_arrive_noinc(&b);
  ptx::mbarrier_inval(&b);
  sink64 = s;
  sink = r;
}
extern "C" __global__ void bulk(int *g, const void *tmap) {
  __shared__ alignas(128) int buf[256];
  __shared__ uint64_t b;
  int32_t c1[1] = {0}, c2[2] = {0, 0}, c3[3] = {0, 0, 0}, c4[4] = {0, 0, 0, 0}, c5[5] = {0, 0, 0, 0, 0};
  ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, buf, g, 64u, &b);
  ptx::cp_async_bulk(ptx::space_shared, ptx::space_global, buf, g, 64u, &b);
  ptx::cp_async_bulk(ptx::space_global, ptx::space_shared, g, buf, 64u);
  ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, buf, tmap, c1, &b);
  ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, buf, tmap, c2, &b);
  ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, buf, tmap, c3, &b);
  ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, buf, tmap, c4, &b);
  ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, buf, tmap, c5, &b);
  ptx::cp_async_bulk_tensor(ptx::space_shared, ptx::space_global, buf, tmap, c2, &b);
  ptx::cp_async_bulk_tensor(ptx::space_shared, ptx::space_global, buf, tmap, c5, &b);
  ptx::cp_async_bulk_tensor(ptx::space_global, ptx::space_shared, tmap, c1, buf);
  ptx::cp_async_bulk_tensor(ptx::space_global, ptx::space_shared, tmap, c3, buf);
  ptx::cp_async_bulk_tensor(ptx::space_global, ptx::space_shared, tmap, c5, buf);
  ptx::cp_async_bulk_commit_group();
  ptx::cp_async_bulk_wait_group(ptx::n32_t<1>());
  ptx::cp_async_bulk_wait_group_read(ptx::n32_t<0>());
}
extern "C" __global__ void fences(const void *tmap) {
  ptx::fence(ptx::sem_sc, ptx::scope_cta);
  ptx::fence(ptx::sem_sc, ptx::scope_gpu);
  ptx::fence(ptx::sem_acq_rel, ptx::scope_cluster);
  ptx::fence(ptx::sem_acq_rel, ptx::scope_sys);
  ptx::fence_proxy_async();
  ptx::fence_proxy_async(ptx::space_global);
  ptx::fence_proxy_async(ptx::space_shared);
  ptx::fence_proxy_async(ptx::space_cluster);
  ptx::fence_proxy_tensormap_generic(ptx::sem_release, ptx::scope_gpu);
  ptx::fence_proxy_tensormap_generic(ptx::sem_acquire, ptx::scope_gpu, tmap, ptx::n32_t<128>());
}
extern "C" __global__ void sregs(unsigned *o, unsigned long long *o64) {
  o[0] = ptx::elect_sync(0xffffffffu);
  o[1] = ptx::get_sreg_tid_x() + ptx::get_sreg_tid_y() + ptx::get_sreg_tid_z() + ptx::get_sreg_ntid_x() +
         ptx::get_sreg_ntid_y() + ptx::get_sreg_ntid_z() + ptx::get_sreg_laneid() + ptx::get_sreg_warpid() +
         ptx::get_sreg_nwarpid() + ptx::get_sreg_ctaid_x() + ptx::get_sreg_ctaid_y() + ptx::get_sreg_ctaid_z() +
         ptx::get_sreg_nctaid_x() + ptx::get_sreg_nctaid_y() + ptx::get_sreg_nctaid_z() + ptx::get_sreg_smid() +
         ptx::get_sreg_nsmid();
  o[2] = ptx::get_sreg_clusterid_x() + ptx::get_sreg_clusterid_y() + ptx::get_sreg_clusterid_z() +
         ptx::get_sreg_nclusterid_x() + ptx::get_sreg_nclusterid_y() + ptx::get_sreg_nclusterid_z() +
         ptx::get_sreg_cluster_ctaid_x() + ptx::get_sreg_cluster_ctaid_y() + ptx::get_sreg_cluster_ctaid_z() +
         ptx::get_sreg_cluster_nctaid_x() + ptx::get_sreg_cluster_nctaid_y() + ptx::get_sreg_cluster_nctaid_z() +
         ptx::get_sreg_cluster_ctarank() + ptx::get_sreg_cluster_nctarank() + ptx::get_sreg_is_explicit_cluster();
  o[3] = ptx::get_sreg_lanemask_eq() + ptx::get_sreg_lanemask_le() + ptx::get_sreg_lanemask_lt() +
         ptx::get_sreg_lanemask_ge() + ptx::get_sreg_lanemask_gt() + ptx::get_sreg_clock() +
         ptx::get_sreg_globaltimer_lo() + ptx::get_sreg_globaltimer_hi() + ptx::get_sreg_total_smem_size() +
         ptx::get_sreg_dynamic_smem_size();
  o64[0] = ptx::get_sreg_gridid() + ptx::get_sreg_clock64() + ptx::get_sreg_globaltimer();
}
`

// TestCUDAPTXHeaderLowers compiles a call of every function of warpsim's
// <cuda/ptx> (cudaPTXUses) with clang and lowers the PTX: each wrapper's
// instruction is one warpsim simulates (none is refused as unsupported).
func TestCUDAPTXHeaderLowers(t *testing.T) {
	needClang(t)
	d, err := cc.NewDriver(os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "uses.cu")
	if err := os.WriteFile(path, []byte(cudaPTXUses), 0o644); err != nil {
		t.Fatal(err)
	}
	text, err := d.PTX(&cc.Options{Inputs: []string{path}, OptLevel: "-O3", Arch: "sm_90a"}, path)
	if err != nil {
		t.Fatal(err)
	}
	m, err := ptx.Parse("uses.ptx", text)
	if err != nil {
		t.Fatal(err)
	}
	p, err := ir.Lower(m, nil)
	if err != nil {
		t.Fatalf("%v", err)
	}
	for _, k := range []string{"mbar", "bulk", "fences", "sregs"} {
		i, ok := p.FuncByName[k]
		if !ok {
			t.Fatalf("no kernel %s", k)
		}
		if u := p.Funcs[i].Unsupported; u != "" {
			t.Errorf("%s: %s", k, u)
		}
	}
}
