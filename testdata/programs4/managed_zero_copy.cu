// Unified memory (CUDA 13 prefetch/advise with cudaMemLocation, __managed__
// variables), zero-copy mapped host memory, and __constant__ symbols.
#include <cstdio>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s:%d %s\n", #x, __LINE__, cudaGetErrorName(e_)); return 1; } } while (0)

__managed__ int counter = 5;
__managed__ float table[64];
__constant__ float coef[8];
__constant__ int offsets[4] = {1, 2, 3, 4};
__device__ int devResult[4];

__global__ void useManaged(float *m, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float c = coef[i % 8];
    m[i] = m[i] * c + table[i % 64] + offsets[i % 4];
    atomicAdd(&counter, 1);
  }
}
__global__ void zeroCopy(volatile int *flags, int *mapped, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) mapped[i] = mapped[i] * 3 + 1;
  if (i == 0) { flags[0] = 42; devResult[0] = counter; devResult[1] = offsets[3]; }
}

int main() {
  int dev = 0, cma = 0, pageable = 0, canMap = 0;
  cudaDeviceGetAttribute(&cma, cudaDevAttrConcurrentManagedAccess, dev);
  cudaDeviceGetAttribute(&pageable, cudaDevAttrPageableMemoryAccess, dev);
  cudaDeviceGetAttribute(&canMap, cudaDevAttrCanMapHostMemory, dev);
  printf("canMap %d\n", canMap);
  const int n = 4096;
  float *m;
  CK(cudaMallocManaged(&m, n * sizeof(float)));
  for (int i = 0; i < n; i++) m[i] = i * 0.125f;
  for (int i = 0; i < 64; i++) table[i] = -i;
  float hc[8] = {1, 2, 0.5f, -1, 4, 0.25f, 3, -2};
  CK(cudaMemcpyToSymbol(coef, hc, sizeof hc));
  int no[2] = {10, 20};
  CK(cudaMemcpyToSymbol(offsets, no, sizeof no, 2 * sizeof(int)));
  cudaMemLocation loc = {};
  loc.type = cudaMemLocationTypeDevice;
  loc.id = dev;
  CK(cudaMemAdvise(m, n * sizeof(float), cudaMemAdviseSetPreferredLocation, loc));
  CK(cudaMemPrefetchAsync(m, n * sizeof(float), loc, 0, 0));
  useManaged<<<n / 256, 256>>>(m, n);
  CK(cudaDeviceSynchronize());
  double s = 0;
  for (int i = 0; i < n; i++) s += m[i];
  printf("managed sum %.9g m[9] %a counter %d\n", s, m[9], counter);
  cudaMemLocation host = {};
  host.type = cudaMemLocationTypeHost;
  CK(cudaMemPrefetchAsync(m, n * sizeof(float), host, 0, 0));
  CK(cudaDeviceSynchronize());

  int *hostMapped, *flagsH;
  CK(cudaHostAlloc(&hostMapped, 256 * sizeof(int), cudaHostAllocMapped));
  CK(cudaHostAlloc(&flagsH, sizeof(int), cudaHostAllocMapped | cudaHostAllocPortable));
  for (int i = 0; i < 256; i++) hostMapped[i] = i;
  *flagsH = 0;
  int *dMapped, *dFlags;
  CK(cudaHostGetDevicePointer(&dMapped, hostMapped, 0));
  CK(cudaHostGetDevicePointer(&dFlags, flagsH, 0));
  zeroCopy<<<1, 256>>>(dFlags, dMapped, 256);
  CK(cudaDeviceSynchronize());
  int r[4];
  CK(cudaMemcpyFromSymbol(r, devResult, 2 * sizeof(int)));
  int ob[4];
  CK(cudaMemcpyFromSymbol(ob, offsets, sizeof ob));
  size_t sz;
  CK(cudaGetSymbolSize(&sz, coef));
  float *coefAddr;
  CK(cudaGetSymbolAddress((void **)&coefAddr, coef));
  float c5;
  CK(cudaMemcpy(&c5, coefAddr + 5, 4, cudaMemcpyDeviceToHost));
  printf("mapped %d %d %d flag %d devResult %d %d offsets %d %d %d %d coef size %zu c5 %g\n", hostMapped[0], hostMapped[100],
         hostMapped[255], *flagsH, r[0], r[1], ob[0], ob[1], ob[2], ob[3], sz, c5);
  cudaPointerAttributes pa;
  CK(cudaPointerGetAttributes(&pa, m));
  printf("managed attr type %d\n", (int)pa.type);
  CK(cudaPointerGetAttributes(&pa, hostMapped));
  printf("mapped attr type %d dev ptr same %d\n", (int)pa.type, pa.devicePointer == dMapped);
  CK(cudaFreeHost(hostMapped)); CK(cudaFreeHost(flagsH)); CK(cudaFree(m));
  return 0;
}
