// The pre-Volta warp intrinsics without _sync (__shfl, __shfl_up,
// __shfl_down, __shfl_xor, __any, __all, __ballot), which nvcc offers when
// compiling for an arch below sm_70: warpsim builds this with -arch=sm_60.
// CUDA 13 no longer compiles for sm_60, so the GPU recording is of the
// same program built with -DUSE_SYNC for sm_90: the _sync forms with the
// whole warp's mask, the semantics nvcc gives the legacy forms in
// converged code.
#include <cstdio>
#ifdef USE_SYNC
#define FULL 0xffffffffu
#define SHFL(v, l, w) __shfl_sync(FULL, v, l, w)
#define SHFL_UP(v, d, w) __shfl_up_sync(FULL, v, d, w)
#define SHFL_DOWN(v, d, w) __shfl_down_sync(FULL, v, d, w)
#define SHFL_XOR(v, m, w) __shfl_xor_sync(FULL, v, m, w)
#define ANY(p) __any_sync(FULL, p)
#define ALL(p) __all_sync(FULL, p)
#define BALLOT(p) __ballot_sync(FULL, p)
#else
#define SHFL(v, l, w) __shfl(v, l, w)
#define SHFL_UP(v, d, w) __shfl_up(v, d, w)
#define SHFL_DOWN(v, d, w) __shfl_down(v, d, w)
#define SHFL_XOR(v, m, w) __shfl_xor(v, m, w)
#define ANY(p) __any(p)
#define ALL(p) __all(p)
#define BALLOT(p) __ballot(p)
#endif

__global__ void warp_ops(int *out, float *fout, double *dout) {
  int t = threadIdx.x, lane = t % 32;
  int v = t * 7 + 1;
  int *o = out + t * 10;
  o[0] = SHFL(v, 5, 32);
  o[1] = SHFL(v, lane + 3, 8);
  o[2] = SHFL_UP(v, 3, 32);
  o[3] = SHFL_UP(v, 1, 16);
  o[4] = SHFL_DOWN(v, 4, 32);
  o[5] = SHFL_XOR(v, 9, 32);
  o[6] = ANY(t == 40);
  o[7] = ALL(t < 60) + 2 * ALL(t < 64);
  o[8] = (int)BALLOT(lane % 5 == 0 || t == 33);
  // A warp reduction written the pre-Volta way.
  int s = v;
  for (int d = 16; d > 0; d /= 2) s += SHFL_DOWN(s, d, 32);
  o[9] = s;
  float f = t * 0.25f;
  fout[t] = SHFL_XOR(f, 1, 32) + SHFL(f, 0, 4);
  double x = t * 1.5;
  dout[t] = SHFL_DOWN(x, 2, 32) + SHFL_UP(x, 1, 32);
}

int main() {
  const int n = 64;
  int *o;
  float *f;
  double *d;
  cudaMalloc(&o, n * 10 * sizeof(int));
  cudaMalloc(&f, n * sizeof(float));
  cudaMalloc(&d, n * sizeof(double));
  warp_ops<<<1, n>>>(o, f, d);
  cudaError_t err = cudaDeviceSynchronize();
  int h[n * 10];
  float hf[n];
  double hd[n];
  cudaMemcpy(h, o, sizeof h, cudaMemcpyDeviceToHost);
  cudaMemcpy(hf, f, sizeof hf, cudaMemcpyDeviceToHost);
  cudaMemcpy(hd, d, sizeof hd, cudaMemcpyDeviceToHost);
  printf("kernel: %s\n", cudaGetErrorName(err));
  for (int t = 0; t < n; t++) {
    printf("%2d:", t);
    for (int k = 0; k < 10; k++) printf(" %d", h[t * 10 + k]);
    printf(" | %.2f %.2f\n", hf[t], hd[t]);
  }
  printf("Test PASSED\n");
  return 0;
}
