// Managed memory with the calls that steer it: prefetch, advice, stream
// attachment. The host sees a kernel's writes once it has synchronized.
#include "check.h"

__global__ void scale(float *p, int n, float by) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] *= by;
}

int main() {
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  printf("managedMemory %d\n", prop.managedMemory);
  const int n = 1 << 16;
  float *m;
  CHECK(cudaMallocManaged(&m, n * sizeof(float)));
  for (int i = 0; i < n; i++) m[i] = (float)(i % 100);
  cudaMemLocation gpu;
  gpu.type = cudaMemLocationTypeDevice;
  gpu.id = 0;
  cudaMemLocation host;
  host.type = cudaMemLocationTypeHost;
  host.id = 0;
  CHECK(cudaMemAdvise(m, n * sizeof(float), cudaMemAdviseSetPreferredLocation, gpu));
  CHECK(cudaMemAdvise(m, n * sizeof(float), cudaMemAdviseSetAccessedBy, gpu));
  CHECK(cudaMemPrefetchAsync(m, n * sizeof(float), gpu, 0, 0));
  scale<<<n / 256, 256>>>(m, n, 2.0f);
  CHECK(cudaMemPrefetchAsync(m, n * sizeof(float), host, 0, 0));
  CHECK(cudaDeviceSynchronize());
  double s = 0;
  for (int i = 0; i < n; i++) s += m[i];
  printf("after prefetch, kernel, prefetch back: sum %.1f\n", s);

  // A stream with the allocation attached to it alone.
  cudaStream_t st;
  CHECK(cudaStreamCreate(&st));
  float *own;
  CHECK(cudaMallocManaged(&own, n * sizeof(float), cudaMemAttachHost));
  for (int i = 0; i < n; i++) own[i] = 1.0f;
  CHECK(cudaStreamAttachMemAsync(st, own, 0, cudaMemAttachSingle));
  CHECK(cudaStreamSynchronize(st));
  scale<<<n / 256, 256, 0, st>>>(own, n, 3.0f);
  CHECK(cudaStreamSynchronize(st));
  s = 0;
  for (int i = 0; i < n; i++) s += own[i];
  printf("attached to one stream: sum %.1f\n", s);

  // Host writes between kernels are seen by the next kernel.
  own[0] = 10.0f;
  scale<<<1, 1, 0, st>>>(own, 1, 0.5f);
  CHECK(cudaStreamSynchronize(st));
  printf("host write, kernel, host read: %.1f\n", own[0]);
  CHECK(cudaMemAdvise(own, n * sizeof(float), cudaMemAdviseSetReadMostly, gpu));
  printf("advice of an unknown kind: %s\n", cudaGetErrorName(cudaMemAdvise(own, 4, (cudaMemoryAdvise)77, gpu)));
  cudaGetLastError();
  float copy = 0;
  CHECK(cudaMemcpy(&copy, own + 1, sizeof copy, cudaMemcpyDefault));
  printf("cudaMemcpy from managed memory: %.1f\n", copy);
  CHECK(cudaMemset(own, 0, n * sizeof(float)));
  CHECK(cudaDeviceSynchronize());
  printf("after cudaMemset: %.1f\n", own[5]);
  CHECK(cudaStreamDestroy(st));
  CHECK(cudaFree(m));
  CHECK(cudaFree(own));
  printf("Test PASSED\n");
  return 0;
}
