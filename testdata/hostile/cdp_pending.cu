// Issue 16 #14: cudaLimitDevRuntimePendingLaunchCount set to 0 and small
// values, then a flood of device-side launches. Usage: cdp_pending VALUE|-
// Build with -rdc=true -lcudadevrt.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>
__global__ void leaf(int *c) { atomicAdd(c, 1); }
__global__ void flood(int *c, int *fails, int n) {
  for (int i = 0; i < n; i++) {
    leaf<<<1, 1>>>(c);
    if (cudaGetLastError() != cudaSuccess) atomicAdd(fails, 1);
  }
}
int main(int argc, char **argv) {
  size_t v = 0;
  if (argc > 1 && strcmp(argv[1], "-") != 0) {
    size_t want = strtoull(argv[1], 0, 0);
    cudaError_t e = cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, want);
    printf("set %zu: %s\n", want, cudaGetErrorName(e));
  }
  cudaError_t g = cudaDeviceGetLimit(&v, cudaLimitDevRuntimePendingLaunchCount);
  printf("get: %s %zu\n", cudaGetErrorName(g), v);
  int *c, *f;
  cudaMalloc(&c, 4);
  cudaMalloc(&f, 4);
  int shapes[][2] = {{1, 5000}, {32, 200}};
  for (auto &sh : shapes) {
    int hc = 0, hf = 0;
    cudaMemset(c, 0, 4);
    cudaMemset(f, 0, 4);
    flood<<<1, sh[0]>>>(c, f, sh[1]);
    cudaError_t l = cudaGetLastError();
    cudaError_t s = cudaDeviceSynchronize();
    cudaMemcpy(&hc, c, 4, cudaMemcpyDeviceToHost);
    cudaMemcpy(&hf, f, 4, cudaMemcpyDeviceToHost);
    printf("%d threads x %d launches: launch %s sync %s children ran %d failed launches %d\n", sh[0], sh[1], cudaGetErrorName(l), cudaGetErrorName(s), hc, hf);
  }
  g = cudaDeviceGetLimit(&v, cudaLimitDevRuntimePendingLaunchCount);
  printf("get after: %s %zu\n", cudaGetErrorName(g), v);
  return 0;
}
