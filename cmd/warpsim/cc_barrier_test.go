package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestCCCudaBarrierPipelineMatchesH100 builds testdata/tensor/barrier_prog.cu
// (cuda::barrier with per-thread and whole-block cuda::memcpy_async,
// arrival tokens and arrive_and_drop; cuda::pipeline over
// pipeline_shared_state, 2 and 3 stages, with producer/consumer roles, and at
// thread scope) with warpsim cc and warpsim's own <cuda/barrier> and
// <cuda/pipeline>, and compares its output with the H100's (run3.sh).
func TestCCCudaBarrierPipelineMatchesH100(t *testing.T) {
	needClang(t)
	dir, err := filepath.Abs("../../testdata/tensor")
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join(dir, "out", "barrier_prog.txt"))
	if err != nil {
		t.Fatal(err)
	}
	prog := buildCU(t, filepath.Join(dir, "barrier_prog.cu"))
	got, stderr, err := runProgramEnv(prog, []string{"WARPSIM_MODE=functional"})
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if got != string(want) {
		t.Errorf("stdout differs from the H100's:\ngot:\n%s\nwant:\n%s", got, want)
	}
}

// TestCCCudaBarrierUnsupportedScope: what warpsim's <cuda/barrier> does not
// provide is a compile error that says so.
func TestCCCudaBarrierUnsupportedScope(t *testing.T) {
	needClang(t)
	for _, c := range []struct{ decl, want string }{
		{"__device__ cuda::barrier<cuda::thread_scope_device> b;", "device- and system-scope barriers are not supported yet"},
		{"struct F { __device__ void operator()() noexcept {} }; __shared__ cuda::barrier<cuda::thread_scope_block, F> b;", "completion function is not supported yet"},
	} {
		src := filepath.Join(t.TempDir(), "k.cu")
		body := "#include <cuda/barrier>\n__global__ void k() {\n" + c.decl + "\n (void)b.arrive();\n}\nint main() { k<<<1, 1>>>(); return 0; }\n"
		if strings.HasPrefix(c.decl, "__device__") {
			body = "#include <cuda/barrier>\n" + c.decl + "\n__global__ void k() { (void)b.arrive(); }\nint main() { k<<<1, 1>>>(); return 0; }\n"
		}
		if err := os.WriteFile(src, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		code, stderr := ccOutcome(t, src)
		if code == 0 || !strings.Contains(stderr, c.want) {
			t.Errorf("%s: exit %d, stderr %q; want a failure saying %q", c.decl, code, stderr, c.want)
		}
	}
}

// TestCCCudaBarrierBulkTx builds testdata/tensor/barrier_tx.cu
// (cuda::device::memcpy_async_tx with barrier_arrive_tx, and with
// barrier_expect_tx): not recorded on the H100, it checks its results
// against sums its host code computes and prints "ok" per kernel.
func TestCCCudaBarrierBulkTx(t *testing.T) {
	needClang(t)
	src, err := filepath.Abs("../../testdata/tensor/barrier_tx.cu")
	if err != nil {
		t.Fatal(err)
	}
	prog := buildCU(t, src)
	got, stderr, err := runProgramEnv(prog, []string{"WARPSIM_MODE=functional"})
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if want := "arrive_tx ok\nexpect_tx ok\n"; got != want {
		t.Errorf("got %q, want %q\n%s", got, want, stderr)
	}
}

// TestCCCudaBarrierWaitPollsAsNVCC: warpsim's cuda::barrier::wait (and
// arrive_and_wait) compiles to the poll loop nvcc's libcu++ (CUDA 13.0)
// compiles it to, which the H100 ran: testdata/timing/btx/h100/btx_mb.nvcc.ptx,
// nvcc's PTX of testdata/timing/btx/btx_mb.cu, is the reference. For each
// barrier kernel the two PTX files have the same number of try_wait polls,
// %globaltimer reads and nanosleeps, and the same backoff constants: the
// 4 ms and 40 us bounds on the time waited and the 1 ms sleep. (Before, the
// header waited in a plain try_wait loop: no timer, no sleep.)
func TestCCCudaBarrierWaitPollsAsNVCC(t *testing.T) {
	needClang(t)
	dir := "../../testdata/timing/btx"
	nvcc, err := os.ReadFile(filepath.Join(dir, "h100", "btx_mb.nvcc.ptx"))
	if err != nil {
		t.Fatal(err)
	}
	out := compileCU(t, filepath.Join(dir, "btx_mb.cu")) // kept between runs
	clang, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"_Z4k_txILb1EEvPKiPiiPx", "_Z4k_txILb0EEvPKiPiiPx", "_Z9k_barrierPKiPiiPx"} {
		want, got := waitShape(t, string(nvcc), k), waitShape(t, string(clang), k)
		if got != want {
			t.Errorf("%s: clang's wait loops %s, nvcc's %s", k, got, want)
		}
	}
}

// waitShape summarises the mbarrier wait loops of kernel k in a PTX module.
func waitShape(t *testing.T, ptx, k string) string {
	t.Helper()
	body := kernelBody(t, ptx, k)
	count := func(s string) int { return strings.Count(body, s) }
	var consts []string
	for _, l := range strings.Split(body, "\n") {
		f := strings.Fields(strings.TrimSuffix(strings.TrimSpace(l), ";"))
		if len(f) == 4 && strings.HasPrefix(f[0], "setp.") && strings.HasSuffix(f[0], ".s64") {
			consts = append(consts, f[3])
		}
		if len(f) == 3 && (f[0] == "mov.u32" || f[0] == "mov.b32") && f[2] == "1000000" {
			consts = append(consts, "sleep="+f[2])
		}
	}
	sort.Strings(consts) // block order is the compiler's
	return fmt.Sprintf("try_wait=%d globaltimer=%d nanosleep=%d consts=%v",
		count("mbarrier.try_wait"), count("%globaltimer;"), count("nanosleep.u32"), consts)
}

// longWaitCU: thread 0 of each block arrives on a cuda::barrier 100 us late,
// so that the other threads' arrive_and_wait passes the backoff's 40 us
// bound and runs its nanosleep branch. The host checks the values the
// barrier publishes and that the waits lasted about as long as the delay.
const longWaitCU = `#include <cuda/barrier>
#include <cstdio>

__device__ unsigned long long now() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// Thread 0 arrives 50 us late: the other threads' waits pass the backoff's
// 40 us bound and sleep (nanosleep) between polls.
__global__ void k(int *out, unsigned long long delay, unsigned long long *waited) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  __shared__ int v;
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned long long t0 = now();
    while (now() - t0 < delay) {
    }
    v = 7 + blockIdx.x;
  }
  unsigned long long t0 = now();
  bar.arrive_and_wait();
  unsigned long long t1 = now();
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
  if (threadIdx.x == 64) waited[blockIdx.x] = t1 - t0;
}

int main() {
  const int blocks = 2, threads = 128;
  const unsigned long long delay = 50000;
  int *out, h[blocks * threads];
  unsigned long long *waited, hw[blocks];
  cudaMalloc(&out, sizeof h);
  cudaMalloc(&waited, sizeof hw);
  k<<<blocks, threads>>>(out, delay, waited);
  cudaError_t e = cudaDeviceSynchronize();
  cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  cudaMemcpy(hw, waited, sizeof hw, cudaMemcpyDeviceToHost);
  int bad = 0, longw = 0;
  for (int i = 0; i < blocks * threads; i++) bad += h[i] != 7 + i / threads;
  for (int b = 0; b < blocks; b++) longw += hw[b] >= delay * 9 / 10;
  printf("%s\n", e != cudaSuccess ? cudaGetErrorString(e) : bad ? "MISMATCH" : "ok");
  printf("waits past the delay: %d of %d\n", longw, blocks);
  return 0;
}
`

// TestCCCudaBarrierLongWait: a wait long enough to reach libcu++'s backoff
// sleeps (nanosleep between polls) still ends when the barrier completes,
// with the same results, under the functional and the timing driver (where
// nanosleep suspends nothing: docs/async-copies.md).
func TestCCCudaBarrierLongWait(t *testing.T) {
	needClang(t)
	dir := t.TempDir()
	src := filepath.Join(dir, "longwait.cu")
	if err := os.WriteFile(src, []byte(longWaitCU), 0o644); err != nil {
		t.Fatal(err)
	}
	prog := buildCU(t, src) // cached by its content (testenv.CachedBuild)
	for _, mode := range []string{"functional", "timing"} {
		got, stderr, err := runProgramEnv(prog, []string{"WARPSIM_MODE=" + mode})
		if err != nil {
			t.Fatalf("%s: %v\n%s", mode, err, stderr)
		}
		if want := "ok\nwaits past the delay: 2 of 2\n"; got != want {
			t.Errorf("%s: got %q, want %q\n%s", mode, got, want, stderr)
		}
	}
}
