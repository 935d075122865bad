// Device limits (stack, printf FIFO, malloc heap), device-side malloc/free,
// cudaDeviceSetLimit, and the device's cache and shared-memory configuration.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void heap_user(int **ptrs, int n, int *fails) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int *p = (int *)malloc(n * sizeof(int));
  if (!p) { atomicAdd(fails, 1); ptrs[i] = nullptr; return; }
  for (int k = 0; k < n; k++) p[k] = i * n + k;
  ptrs[i] = p;
}
__global__ void heap_sum(int **ptrs, int n, long long *sum) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int *p = ptrs[i];
  if (!p) return;
  long long s = 0;
  for (int k = 0; k < n; k++) s += p[k];
  atomicAdd((unsigned long long *)sum, (unsigned long long)s);
  free(p);
}

static void show(const char *n, cudaLimit l) {
  size_t v = 0;
  cudaError_t e = cudaDeviceGetLimit(&v, l);
  printf("%-26s %zu (%s)\n", n, v, cudaGetErrorName(e));
}

int main() {
  show("StackSize", cudaLimitStackSize);
  show("PrintfFifoSize", cudaLimitPrintfFifoSize);
  show("MallocHeapSize", cudaLimitMallocHeapSize);
  show("DevRuntimeSyncDepth", cudaLimitDevRuntimeSyncDepth);
  show("DevRuntimePendingLaunch", cudaLimitDevRuntimePendingLaunchCount);
  show("MaxL2FetchGranularity", cudaLimitMaxL2FetchGranularity);
  show("PersistingL2CacheSize", cudaLimitPersistingL2CacheSize);
  cudaError_t e = cudaDeviceSetLimit(cudaLimitStackSize, 4096);
  printf("set stack 4096: %s\n", cudaGetErrorName(e));
  show("StackSize", cudaLimitStackSize);
  e = cudaDeviceSetLimit(cudaLimitMallocHeapSize, 64 << 20);
  printf("set heap 64 MB: %s\n", cudaGetErrorName(e));
  show("MallocHeapSize", cudaLimitMallocHeapSize);
  e = cudaDeviceSetLimit(cudaLimitPrintfFifoSize, 1 << 20);
  printf("set printf fifo 1 MB: %s\n", cudaGetErrorName(e));
  show("PrintfFifoSize", cudaLimitPrintfFifoSize);
  e = cudaDeviceSetLimit(cudaLimitMaxL2FetchGranularity, 128);
  printf("set L2 fetch 128: %s\n", cudaGetErrorName(e));
  show("MaxL2FetchGranularity", cudaLimitMaxL2FetchGranularity);
  const int T = 1024, n = 100;
  int **ptrs, *fails;
  long long *sum;
  cudaMalloc(&ptrs, T * sizeof(int *));
  cudaMalloc(&fails, 4);
  cudaMalloc(&sum, 8);
  cudaMemset(fails, 0, 4);
  cudaMemset(sum, 0, 8);
  heap_user<<<T / 128, 128>>>(ptrs, n, fails);
  heap_sum<<<T / 128, 128>>>(ptrs, n, sum);
  e = cudaDeviceSynchronize();
  int hf;
  long long hs;
  cudaMemcpy(&hf, fails, 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(&hs, sum, 8, cudaMemcpyDeviceToHost);
  printf("heap: %s fails %d sum %lld (expect %lld)\n", cudaGetErrorName(e), hf, hs, (long long)T * n * (T * n - 1) / 2);
  e = cudaDeviceSetLimit(cudaLimitMallocHeapSize, 1 << 20);
  printf("set heap after use: %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  // A heap too small: 1024 threads x 64 KB in 64 MB.
  cudaMemset(fails, 0, 4);
  cudaMemset(sum, 0, 8);
  heap_user<<<T / 128, 128>>>(ptrs, 16384, fails);
  heap_sum<<<T / 128, 128>>>(ptrs, 16384, sum);
  e = cudaDeviceSynchronize();
  cudaMemcpy(&hf, fails, 4, cudaMemcpyDeviceToHost);
  printf("big allocations: %s some failed %d all failed %d\n", cudaGetErrorName(e), hf > 0, hf == T);
  cudaFuncCache c;
  cudaDeviceGetCacheConfig(&c);
  printf("cache config %d\n", (int)c);
  e = cudaDeviceSetCacheConfig(cudaFuncCachePreferShared);
  cudaDeviceGetCacheConfig(&c);
  printf("set PreferShared: %s now %d\n", cudaGetErrorName(e), (int)c);
  unsigned flags = 0;
  e = cudaGetDeviceFlags(&flags);
  printf("device flags: %s %u\n", cudaGetErrorName(e), flags);
  e = cudaDeviceSetLimit((cudaLimit)99, 1);
  printf("bad limit: %s\n", cudaGetErrorName(e));
  printf("last error: %s\n", cudaGetErrorName(cudaGetLastError()));
  return 0;
}
