// Issue 16 #1: what the H100 does with a huge cudaLimitMallocHeapSize and a
// 100 GiB device malloc. Usage: heap_limit MODE  (0: limit 2^62, 1: limit
// 200 GiB, 2: default limit, 3: limit 1 GiB)
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
__global__ void grab(unsigned long long n, unsigned long long *ok) {
  void *p = malloc(n);
  ok[0] = p != 0;
  if (p) { ((char *)p)[0] = 1; free(p); }
}
int main(int argc, char **argv) {
  int mode = argc > 1 ? atoi(argv[1]) : 0;
  size_t want[] = {1ULL << 62, 200ULL << 30, 0, 1ULL << 30};
  size_t lim = 0, freeb = 0, total = 0;
  cudaMemGetInfo(&freeb, &total);
  printf("mode %d: free %zu total %zu\n", mode, freeb, total);
  if (want[mode]) {
    cudaError_t e = cudaDeviceSetLimit(cudaLimitMallocHeapSize, want[mode]);
    printf("set limit %zu: %s\n", want[mode], cudaGetErrorName(e));
  }
  cudaError_t g = cudaDeviceGetLimit(&lim, cudaLimitMallocHeapSize);
  printf("get limit: %s %zu\n", cudaGetErrorName(g), lim);
  unsigned long long *ok, h = 7;
  cudaError_t m = cudaMalloc(&ok, 8);
  printf("cudaMalloc: %s\n", cudaGetErrorName(m));
  unsigned long long sizes[] = {100ULL << 30, 16ULL << 30, 1ULL << 30, 1ULL << 20};
  for (unsigned long long n : sizes) {
    grab<<<1, 1>>>(n, ok);
    cudaError_t l = cudaGetLastError();
    cudaError_t s = cudaDeviceSynchronize();
    cudaMemcpy(&h, ok, 8, cudaMemcpyDeviceToHost);
    printf("malloc(%llu): launch %s sync %s non-null %llu\n", n, cudaGetErrorName(l), cudaGetErrorName(s), h);
  }
  g = cudaDeviceGetLimit(&lim, cudaLimitMallocHeapSize);
  printf("get limit after: %s %zu\n", cudaGetErrorName(g), lim);
  cudaMemGetInfo(&freeb, &total);
  printf("free after %zu\n", freeb);
  return 0;
}
