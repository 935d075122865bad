package main

import (
	"os"
	"path/filepath"
	"testing"
)

// programs5Dir holds the fifth batch of CUDA 13 programs (the runtime API's
// corners beyond the kernels: device queries, occupancy and function
// attributes, streams and events, pinned and registered memory, error
// strings, launch errors, limits and the device heap, launch attributes and
// clusters; CUB, Thrust with device lambdas, C++ objects and templates in
// kernels, printf from many threads), written as users write them and
// recorded on an H100 with nvcc 13 (testdata/programs5/record.sh).
const programs5Dir = "../../testdata/programs5"

// programs5 are the batch's programs that warpsim runs bit for bit, with
// the flags nvcc needed beyond -O3 -arch=sm_90 -std=c++17
// (testdata/programs5/flags.txt); the others are listed, with what differs,
// in the folder's README.
var programs5 = []recordedProgram{
	{name: "async_memory"},
	{name: "cpp_templates"},
	{name: "cpp_virtual"},
	{name: "cub_block"},
	{name: "cub_device"},
	{name: "device_query"},
	{name: "error_strings"},
	{name: "func_attrs"},
	{name: "launch_errors"},
	{name: "launch_ex"},
	{name: "limits_heap"},
	{name: "occupancy_api"},
	{name: "printf_many"},
	{name: "stream_events"},
	{name: "thrust_lambda", flags: []string{"--extended-lambda"}},
}

// TestCCPrograms5MatchH100 builds every matching program of
// testdata/programs5 unchanged with warpsim cc and compares its stdout,
// stderr and exit status with the H100's, under the functional driver (none
// prints a time), in parallel.
func TestCCPrograms5MatchH100(t *testing.T) {
	checkRecordedBatch(t, programs5Dir, []string{"-O3", "-arch=sm_90", "-std=c++17"}, programs5, false)
}

// TestCCDeviceAttributeValues: cudaDevAttrMaxPersistingL2CacheSize is 108
// and cudaDevAttrMaxAccessPolicyWindowSize 109 (as in CUDA's header; they
// were 107 and 108), and the attributes testdata/programs5/device_query
// found refused answer as the H100 did: stream priorities, global and
// local L1 caching, compute preemption and ECC 1, host native atomics 0,
// the single-to-double ratio 2.
func TestCCDeviceAttributeValues(t *testing.T) {
	needClang(t)
	src := filepath.Join(t.TempDir(), "attr.cu")
	const code = `#include <cstdio>
int main() {
  int a[] = {108, 109, 78, 79, 80, 90, 32, 86, 87};
  for (int x : a) { int v = -1; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)x, 0); printf("%d=%d%s ", x, v, e ? "!" : ""); }
  printf("%d %d\n", (int)cudaDevAttrMaxPersistingL2CacheSize, (int)cudaDevAttrMaxAccessPolicyWindowSize);
  return 0;
}
`
	if err := os.WriteFile(src, []byte(code), 0o644); err != nil {
		t.Fatal(err)
	}
	prog := buildCU(t, src, "-std=c++17")
	out, stderr, err := runProgramEnv(prog, []string{"WARPSIM_MODE=functional"})
	if want := "108=32768000 109=134217728 78=1 79=1 80=1 90=1 32=1 86=0 87=2 108 109\n"; err != nil || out != want {
		t.Errorf("got %q (%v), want %q\n%s", out, err, want, stderr)
	}
}

// TestCCDeviceLimits: the printf FIFO (default 8650752 bytes) and the L2
// fetch granularity (default 64) read back what cudaDeviceSetLimit set, and
// a limit CUDA does not define is cudaErrorInvalidValue (1), as on the H100
// in testdata/programs5/limits_heap.
func TestCCDeviceLimits(t *testing.T) {
	needClang(t)
	src := filepath.Join(t.TempDir(), "limits.cu")
	const code = `#include <cstdio>
int main() {
  size_t a = 0, b = 0, c = 0, d = 0;
  cudaDeviceGetLimit(&a, cudaLimitPrintfFifoSize);
  cudaDeviceGetLimit(&b, cudaLimitMaxL2FetchGranularity);
  cudaDeviceSetLimit(cudaLimitPrintfFifoSize, 1 << 20);
  cudaDeviceSetLimit(cudaLimitMaxL2FetchGranularity, 128);
  cudaDeviceGetLimit(&c, cudaLimitPrintfFifoSize);
  cudaDeviceGetLimit(&d, cudaLimitMaxL2FetchGranularity);
  int e = cudaDeviceSetLimit((cudaLimit)99, 1), f = cudaDeviceGetLimit(&a, (cudaLimit)99);
  printf("%zu %zu %zu %zu %d %d\n", a, b, c, d, e, f);
  return 0;
}
`
	if err := os.WriteFile(src, []byte(code), 0o644); err != nil {
		t.Fatal(err)
	}
	prog := buildCU(t, src, "-std=c++17")
	out, stderr, err := runProgramEnv(prog, []string{"WARPSIM_MODE=functional"})
	if want := "8650752 64 1048576 128 1 1\n"; err != nil || out != want {
		t.Errorf("got %q (%v), want %q\n%s", out, err, want, stderr)
	}
}
