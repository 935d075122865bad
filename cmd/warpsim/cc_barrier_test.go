package main

import (
	"bytes"
	"os"
	"path/filepath"
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
		var stdout, stderr bytes.Buffer
		code := run([]string{"cc", src, "-o", filepath.Join(t.TempDir(), "k")}, &stdout, &stderr)
		if code == 0 || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("%s: exit %d, stderr %q; want a failure saying %q", c.decl, code, stderr.String(), c.want)
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
