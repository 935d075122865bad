package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestCCBytePermSelector: __byte_perm uses the low three bits of each
// selector nibble, as the H100 did for selector 0x7a3c in
// testdata/programs4/math_corners (not prmt's sign-replicating mode). With
// bytes 0..7 = 44 33 22 11 88 77 66 55, nibbles c, 3, a, 7 (low first) pick
// bytes 4, 3, 2, 7: 0x55221188 (replication would give 0x55ff11ff).
func TestCCBytePermSelector(t *testing.T) {
	needClang(t)
	src := filepath.Join(t.TempDir(), "perm.cu")
	const code = `#include <cstdio>
__global__ void k(unsigned *o, unsigned a, unsigned b, unsigned s) { o[0] = __byte_perm(a, b, s); o[1] = __byte_perm(a, b, 0x7a3c); }
int main() {
  unsigned *d, h[2];
  cudaMalloc(&d, 8);
  k<<<1, 1>>>(d, 0x11223344u, 0x55667788u, 0xffff7a3cu);
  cudaMemcpy(h, d, 8, cudaMemcpyDeviceToHost);
  printf("%08x %08x\n", h[0], h[1]);
  return 0;
}
`
	if err := os.WriteFile(src, []byte(code), 0o644); err != nil {
		t.Fatal(err)
	}
	prog := buildCUIn(t, t.TempDir(), src, "-std=c++17")
	out, stderr, err := runProgramEnv(prog, []string{"WARPSIM_MODE=functional"})
	if want := "55221188 55221188\n"; err != nil || out != want {
		t.Errorf("got %q (%v), want %q\n%s", out, err, want, stderr)
	}
}
