// Managed memory with CUDA 13's location API: cudaMemAdvise and
// cudaMemPrefetchAsync taking a cudaMemLocation, cudaMemRangeGetAttribute
// read back, kernels and the host touching the same pages, and errors.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void twice(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = 2 * p[i] + 1;
}

static void ranges(const char *what, const void *p, size_t n) {
  int rm = -9, pl = -9, last = -9;
  cudaError_t e1 = cudaMemRangeGetAttribute(&rm, 4, cudaMemRangeAttributeReadMostly, p, n);
  cudaError_t e2 = cudaMemRangeGetAttribute(&pl, 4, cudaMemRangeAttributePreferredLocation, p, n);
  cudaError_t e3 = cudaMemRangeGetAttribute(&last, 4, cudaMemRangeAttributeLastPrefetchLocation, p, n);
  int plType = -9, plId = -9;
  cudaError_t e4 = cudaMemRangeGetAttribute(&plType, 4, cudaMemRangeAttributePreferredLocationType, p, n);
  cudaMemRangeGetAttribute(&plId, 4, cudaMemRangeAttributePreferredLocationId, p, n);
  printf("%-30s readMostly %d (%s) preferred %d (%s) type %d id %d (%s) lastPrefetch %d (%s)\n", what, rm,
         cudaGetErrorName(e1), pl, cudaGetErrorName(e2), plType, plId, cudaGetErrorName(e4), last, cudaGetErrorName(e3));
  cudaGetLastError();
}

int main() {
  int v = -1;
  cudaDeviceGetAttribute(&v, cudaDevAttrManagedMemory, 0);
  printf("managed memory: %d\n", v);
  cudaDeviceGetAttribute(&v, cudaDevAttrConcurrentManagedAccess, 0);
  printf("concurrent managed access: %d\n", v);
  cudaDeviceGetAttribute(&v, cudaDevAttrPageableMemoryAccess, 0);
  printf("pageable memory access: %d\n", v);
  cudaDeviceGetAttribute(&v, cudaDevAttrDirectManagedMemAccessFromHost, 0);
  printf("direct managed access from host: %d\n", v);

  const int n = 1 << 18;
  int *m;
  cudaError_t e = cudaMallocManaged(&m, n * sizeof(int));
  printf("mallocManaged: %s\n", cudaGetErrorName(e));
  for (int i = 0; i < n; i++) m[i] = i;
  ranges("fresh", m, n * sizeof(int));

  cudaMemLocation dev = {};
  dev.type = cudaMemLocationTypeDevice;
  dev.id = 0;
  cudaMemLocation host = {};
  host.type = cudaMemLocationTypeHost;
  host.id = 0;
  e = cudaMemAdvise(m, n * sizeof(int), cudaMemAdviseSetPreferredLocation, dev);
  printf("advise preferred device: %s\n", cudaGetErrorName(e));
  ranges("preferred device", m, n * sizeof(int));
  e = cudaMemAdvise(m, n * sizeof(int), cudaMemAdviseSetReadMostly, dev);
  printf("advise read mostly: %s\n", cudaGetErrorName(e));
  ranges("read mostly", m, n * sizeof(int));
  e = cudaMemAdvise(m, n * sizeof(int), cudaMemAdviseSetAccessedBy, host);
  printf("advise accessed by host: %s\n", cudaGetErrorName(e));

  cudaStream_t s;
  cudaStreamCreate(&s);
  e = cudaMemPrefetchAsync(m, n * sizeof(int), dev, 0, s);
  printf("prefetch to device: %s\n", cudaGetErrorName(e));
  twice<<<n / 256, 256, 0, s>>>(m, n);
  cudaStreamSynchronize(s);
  ranges("after prefetch to device", m, n * sizeof(int));
  e = cudaMemPrefetchAsync(m, n * sizeof(int), host, 0, s);
  printf("prefetch to host: %s\n", cudaGetErrorName(e));
  cudaStreamSynchronize(s);
  ranges("after prefetch to host", m, n * sizeof(int));
  long long sum = 0;
  for (int i = 0; i < n; i++) sum += m[i];
  printf("sum %lld m[12345]=%d\n", sum, m[12345]);

  e = cudaMemAdvise(m, n * sizeof(int), cudaMemAdviseUnsetReadMostly, dev);
  printf("unset read mostly: %s\n", cudaGetErrorName(e));
  e = cudaMemAdvise(m, n * sizeof(int), cudaMemAdviseSetPreferredLocation, host);
  printf("advise preferred host: %s\n", cudaGetErrorName(e));
  ranges("preferred host", m, n * sizeof(int));
  e = cudaMemAdvise(m, 4096, cudaMemAdviseUnsetPreferredLocation, dev);
  printf("unset preferred on the first page: %s\n", cudaGetErrorName(e));
  ranges("first page", m, 4096);
  ranges("whole range (mixed)", m, n * sizeof(int));

  // Stream-attached memory.
  int *ms;
  cudaMallocManaged(&ms, 4096, cudaMemAttachHost);
  e = cudaStreamAttachMemAsync(s, ms, 0, cudaMemAttachSingle);
  printf("attach single: %s\n", cudaGetErrorName(e));
  cudaStreamSynchronize(s);
  for (int i = 0; i < 1024; i++) ms[i] = i;
  twice<<<4, 256, 0, s>>>(ms, 1024);
  cudaStreamSynchronize(s);
  printf("ms[1023]=%d\n", ms[1023]);

  // Errors.
  int *d;
  cudaMalloc(&d, 4096);
  e = cudaMemAdvise(d, 4096, cudaMemAdviseSetReadMostly, dev);
  printf("advise on device memory: %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  e = cudaMemPrefetchAsync(d, 4096, dev, 0, s);
  printf("prefetch device memory: %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  cudaMemLocation bad = {};
  bad.type = cudaMemLocationTypeDevice;
  bad.id = 5;
  e = cudaMemPrefetchAsync(m, 4096, bad, 0, s);
  printf("prefetch to device 5: %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  e = cudaMemAdvise(m, 0, cudaMemAdviseSetReadMostly, dev);
  printf("advise 0 bytes: %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  e = cudaMallocManaged(&ms, 4096, 7);
  printf("mallocManaged bad flags: %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  cudaStreamSynchronize(s);
  printf("last error: %s\n", cudaGetErrorName(cudaGetLastError()));
  return 0;
}
