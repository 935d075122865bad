// sfutables.cu: records the H100's SFU approximations (MUFU.RCP, MUFU.RSQ,
// MUFU.EX2 behind rcp/rsqrt/ex2.approx.ftz.f32) on dense grids, as int8
// differences from a correctly rounded reference, so that warpsim can tell
// whether a table reproduces them (see ../../sfu.go).
//   rcp.bin:   x = 1 + i·2^-23, i < 2^23;  ref = rcp.rn(x)
//   rsqrt.bin: x = 1 + i·2^-23, i < 2^24 (x in [1, 3));  ref = RN(1/sqrt((double)x))
//              (superseded: sfudata/rsqrt.bin.gz now comes from sfutables2.cu, which covers [1, 4))
//   ex2.bin:   x = i·2^-23 - 1, i < 2^24 (x in [-1, 1));  ref = RN(exp2((double)x))
// Build: nvcc -O3 -arch=sm_90 -o sfutables sfutables.cu; run: ./sfutables OUTDIR
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <vector>
#include <string>
#include <cuda_runtime.h>

__global__ void k(int which, int8_t* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x, r, ref;
  if (which == 0) {
    x = 1.0f + i * 0x1p-23f;
    asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
    ref = __frcp_rn(x);
  } else if (which == 1) {
    x = 1.0f + i * 0x1p-23f;
    asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
    ref = (float)(1.0 / sqrt((double)x));
  } else {
    x = (float)((double)i * 0x1p-23 - 1.0);
    asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
    ref = (float)exp2((double)x);
  }
  int d = __float_as_int(r) - __float_as_int(ref);
  out[i] = (int8_t)(d < -127 ? -128 : d > 127 ? 127 : d);
}

int main(int argc, char** argv) {
  const char* names[] = {"rcp.bin", "rsqrt.bin", "ex2.bin"};
  const int sizes[] = {1 << 23, 1 << 24, 1 << 24};
  for (int w = 0; w < 3; w++) {
    int n = sizes[w];
    int8_t* d;
    cudaMalloc(&d, n);
    k<<<(n + 255) / 256, 256>>>(w, d, n);
    std::vector<int8_t> h(n);
    cudaMemcpy(h.data(), d, n, cudaMemcpyDeviceToHost);
    cudaFree(d);
    long hist[256] = {0};
    for (int i = 0; i < n; i++) hist[(uint8_t)h[i]]++;
    printf("%s:", names[w]);
    for (int v = -128; v < 128; v++)
      if (hist[(uint8_t)v]) printf(" %d:%ld", v, hist[(uint8_t)v]);
    printf("\n");
    std::string p = std::string(argv[1]) + "/" + names[w];
    FILE* f = fopen(p.c_str(), "wb");
    fwrite(h.data(), 1, n, f);
    fclose(f);
  }
  return 0;
}
