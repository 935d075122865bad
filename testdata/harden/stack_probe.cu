// Probes the per-thread stack on a GPU: the deepest recursion of deep()
// that runs at several cudaLimitStackSize values, the error a deeper one
// gets, and the frame size ptxas reports (compile with -Xptxas -v).
#include <cstdio>
#include <cuda_runtime.h>
__device__ __noinline__ int deep(int n) {
  volatile int pad[16];
  for (int i = 0; i < 16; i++) pad[i] = n + i;
  if (n <= 0) return pad[3];
  return deep(n - 1) + pad[n & 15];
}
__global__ void recurse(int n, int *out) { out[threadIdx.x] = deep(n); }
static cudaError_t try_depth(size_t stack, int n) {
  cudaDeviceReset();
  cudaError_t e = cudaDeviceSetLimit(cudaLimitStackSize, stack);
  if (e) return e;
  int *d;
  cudaMalloc(&d, 32 * sizeof(int));
  recurse<<<1, 32>>>(n, d);
  e = cudaDeviceSynchronize();
  return e;
}
int main() {
  cudaFuncAttributes a;
  cudaFuncGetAttributes(&a, recurse);
  printf("recurse localSizeBytes %zu\n", a.localSizeBytes);
  size_t stacks[] = {256, 1024, 2048, 4096, 65536};
  for (size_t s : stacks) {
    int lo = 0, hi = 1 << 16;  // lo runs, hi fails
    cudaError_t fail = try_depth(s, hi);
    if (fail == cudaSuccess) { printf("stack %zu: depth %d runs\n", s, hi); continue; }
    while (hi - lo > 1) {
      int mid = (lo + hi) / 2;
      cudaError_t e = try_depth(s, mid);
      if (e == cudaSuccess) lo = mid; else { hi = mid; fail = e; }
    }
    size_t got = 0;
    cudaDeviceGetLimit(&got, cudaLimitStackSize);
    printf("stack %zu (reads back %zu): deepest depth that runs %d; depth %d: %s\n", s, got, lo, hi, cudaGetErrorName(fail));
  }
  return 0;
}
