package main

import (
	"os"
	"path/filepath"
	"testing"
)

// programs7Dir holds the seventh batch of CUDA 13 programs (the runtime API
// beyond programs5: stream capture and explicit graphs, conditional nodes
// and graph memory, stream-ordered memory pools, symbols, pitched and 3-D
// memory and arrays, texture and surface objects, pointer attributes of
// every kind of memory, managed memory advice with CUDA 13's locations,
// event and device flags, the driver API beside the runtime), written as
// users write them and recorded on an H100 with nvcc 13
// (testdata/programs7/record.sh).
const programs7Dir = "../../testdata/programs7"

// programs7 are the batch's programs that warpsim runs bit for bit, with
// the flags nvcc needed beyond -O3 -arch=sm_90 -std=c++17
// (testdata/programs7/flags.txt); the others are listed, with what differs,
// in the folder's README.
var programs7 = []recordedProgram{
	{name: "driver_api", flags: []string{"-lcuda"}},
	{name: "events_flags"},
	{name: "graph_capture"},
	{name: "graph_conditional"},
	{name: "graph_explicit"},
	{name: "managed_advise"},
	{name: "pitched3d"},
	{name: "pointer_attrs"},
	{name: "symbols"},
	{name: "tex_surf"},
}

// TestCCPrograms7MatchH100 builds every matching program of
// testdata/programs7 unchanged with warpsim cc and compares its stdout,
// stderr and exit status with the H100's, under the functional driver (none
// prints a time), in parallel.
func TestCCPrograms7MatchH100(t *testing.T) {
	checkRecordedBatch(t, programs7Dir, []string{"-O3", "-arch=sm_90", "-std=c++17"}, programs7, false)
}

// TestCCRegisteredHostPointer: after cudaHostRegister, the host pointer is
// the range's device pointer (cudaHostGetDevicePointer gives it back, as
// on the H100: testdata/programs7/pointer_attrs), a kernel handed it reads
// and writes the host's bytes, and after cudaHostUnregister the runtime no
// longer knows the range.
func TestCCRegisteredHostPointer(t *testing.T) {
	needClang(t)
	src := filepath.Join(t.TempDir(), "reg.cu")
	const code = `#include <cstdio>
#include <cstdlib>
__global__ void twice(int *p, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) p[i] = 2 * p[i] + 1; }
int main() {
  int *h = (int *)aligned_alloc(4096, 8192);
  for (int i = 0; i < 2048; i++) h[i] = i;
  cudaError_t r = cudaHostRegister(h, 8192, cudaHostRegisterDefault);
  void *d = nullptr;
  cudaError_t g = cudaHostGetDevicePointer(&d, h, 0);
  twice<<<8, 256>>>(h + 1, 2047);
  cudaError_t s = cudaDeviceSynchronize();
  cudaError_t u = cudaHostUnregister(h);
  cudaError_t g2 = cudaHostGetDevicePointer(&d, h, 0);
  printf("%d %d %d same=%d %d %d %d | %d %d %d\n", r, g, s, d == h, u, g2, h[0], h[1], h[1000], h[2047]);
  return 0;
}
`
	if err := os.WriteFile(src, []byte(code), 0o644); err != nil {
		t.Fatal(err)
	}
	prog := buildCU(t, src, "-std=c++17") // keyed by the source's content
	out, stderr, err := runProgramEnv(prog, []string{"WARPSIM_MODE=functional"})
	if want := "0 0 0 same=1 0 1 0 | 3 2001 4095\n"; err != nil || out != want {
		t.Errorf("got %q (%v), want %q\n%s", out, err, want, stderr)
	}
}
