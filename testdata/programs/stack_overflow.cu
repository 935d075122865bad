// The per-thread stack: cudaLimitStackSize bytes (1024 by default). A
// recursion that fits runs; one far deeper than the stack faults, and the
// error is sticky.
#include <cstdio>
#include <cuda_runtime.h>
__device__ __noinline__ int deep(int n) {
  volatile int pad[16];
  for (int i = 0; i < 16; i++) pad[i] = n + i;
  if (n <= 0) return pad[3];
  return deep(n - 1) + pad[n & 15];
}
__global__ void recurse(int n, int *out) { out[threadIdx.x] = deep(n); }
int main() {
  size_t v = 0;
  cudaDeviceGetLimit(&v, cudaLimitStackSize);
  printf("default stack: %zu\n", v);
  int *d, h = 0;
  cudaMalloc(&d, 32 * sizeof(int));
  recurse<<<1, 32>>>(3, d);
  cudaError_t e = cudaDeviceSynchronize();
  cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("depth 3: %s, result %d\n", cudaGetErrorName(e), h);
  printf("set stack 256 KiB: %s\n", cudaGetErrorName(cudaDeviceSetLimit(cudaLimitStackSize, 256 << 10)));
  recurse<<<1, 32>>>(1000, d);
  e = cudaDeviceSynchronize();
  cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("depth 1000 in 256 KiB: %s, result %d\n", cudaGetErrorName(e), h);
  printf("set stack 1024: %s\n", cudaGetErrorName(cudaDeviceSetLimit(cudaLimitStackSize, 1024)));
  recurse<<<1, 32>>>(100000, d);
  printf("launch: %s\n", cudaGetErrorName(cudaGetLastError()));
  e = cudaDeviceSynchronize();
  printf("depth 100000 in 1024: %s: %s\n", cudaGetErrorName(e), cudaGetErrorString(e));
  printf("later malloc: %s\n", cudaGetErrorName(cudaMalloc(&d, 4)));
  return 0;
}
