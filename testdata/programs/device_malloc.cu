// Device-side malloc and free: allocations come from a heap of
// cudaLimitMallocHeapSize bytes (8 MiB unless set before the first launch
// that uses malloc); malloc returns NULL when the heap cannot serve it.
#include <cstdio>
#include <cuda_runtime.h>
__global__ void perThread(unsigned long long *ptrs, int *sums) {
  int t = threadIdx.x;
  int *p = (int *)malloc(256 * sizeof(int));
  ptrs[t] = (unsigned long long)p;
  if (!p) return;
  for (int i = 0; i < 256; i++) p[i] = t + i;
  int s = 0;
  for (int i = 0; i < 256; i++) s += p[i];
  sums[t] = s;
  free(p);
}
__global__ void big(size_t n, int *ok) {
  char *p = (char *)malloc(n);
  ok[0] = p != NULL;
  if (p) {
    p[0] = 1;
    p[n - 1] = 2;
    ok[1] = p[0] + p[n - 1];
    free(p);
  }
}
int main() {
  size_t v = 0;
  cudaDeviceGetLimit(&v, cudaLimitMallocHeapSize);
  printf("default heap: %zu\n", v);
  printf("set heap 32 MiB: %s\n", cudaGetErrorName(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 32 << 20)));
  cudaDeviceGetLimit(&v, cudaLimitMallocHeapSize);
  printf("heap now: %zu\n", v);
  unsigned long long *ptrs;
  int *sums, *ok;
  cudaMalloc(&ptrs, 64 * sizeof *ptrs);
  cudaMalloc(&sums, 64 * sizeof(int));
  cudaMalloc(&ok, 2 * sizeof(int));
  perThread<<<1, 64>>>(ptrs, sums);
  printf("perThread: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  unsigned long long hp[64];
  int hs[64];
  cudaMemcpy(hp, ptrs, sizeof hp, cudaMemcpyDeviceToHost);
  cudaMemcpy(hs, sums, sizeof hs, cudaMemcpyDeviceToHost);
  int nonnull = 0, sumsok = 1;
  for (int i = 0; i < 64; i++) {
    nonnull += hp[i] != 0;
    sumsok &= hs[i] == 256 * i + 255 * 256 / 2;
  }
  printf("non-null %d sums %s\n", nonnull, sumsok ? "ok" : "wrong");
  int h[2];
  size_t sizes[] = {1 << 20, 16 << 20, 64 << 20};
  for (size_t n : sizes) {
    h[0] = h[1] = -1;
    cudaMemcpy(ok, h, sizeof h, cudaMemcpyHostToDevice);
    big<<<1, 1>>>(n, ok);
    cudaError_t e = cudaDeviceSynchronize();
    cudaMemcpy(h, ok, sizeof h, cudaMemcpyDeviceToHost);
    printf("malloc(%zu): %s, got %s, value %d\n", n, cudaGetErrorName(e), h[0] ? "memory" : "NULL", h[0] ? h[1] : 0);
  }
  printf("set heap after launch: %s\n", cudaGetErrorName(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 64 << 20)));
  cudaGetLastError();
  cudaDeviceGetLimit(&v, cudaLimitMallocHeapSize);
  printf("heap after: %zu\n", v);
  printf("Test PASSED\n");
  return 0;
}
