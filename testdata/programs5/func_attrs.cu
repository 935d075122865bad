// cudaFuncGetAttributes, cudaFuncSetAttribute (opt-in dynamic shared memory
// above 48 KB, carveout), cudaFuncSetCacheConfig, __launch_bounds__.
#include <cstdio>
#include <cuda_runtime.h>

__constant__ float coeffs[64];

__global__ void plain(float *o) { o[threadIdx.x] = coeffs[threadIdx.x & 63] * 2.f; }

__global__ void __launch_bounds__(256, 4) bounded(float *o) {
  o[blockIdx.x * blockDim.x + threadIdx.x] = (float)threadIdx.x;
}

__global__ void __launch_bounds__(128) bounded128(float *o) { o[threadIdx.x] = 1.f; }

__global__ void static_smem(float *o) {
  __shared__ float a[1000];
  __shared__ double b[100];
  a[threadIdx.x] = threadIdx.x;
  b[threadIdx.x % 100] = 1.0;
  __syncthreads();
  o[threadIdx.x] = a[999 - threadIdx.x] + (float)b[0];
}

extern __shared__ unsigned char big[];
__global__ void big_smem(unsigned *o, int bytes) {
  unsigned *w = reinterpret_cast<unsigned *>(big);
  int n = bytes / 4;
  for (int i = threadIdx.x; i < n; i += blockDim.x) w[i] = i * 2654435761u;
  __syncthreads();
  unsigned s = 0;
  for (int i = threadIdx.x; i < n; i += blockDim.x) s ^= w[n - 1 - i];
  atomicXor(o, s);
}

static void show(const char *name, const void *f) {
  cudaFuncAttributes a;
  cudaError_t e = cudaFuncGetAttributes(&a, f);
  printf("%-12s %s shared %zu const %zu local %zu maxThreads %d ptx %d binary %d maxDynShared %d carveout %d\n", name,
         cudaGetErrorName(e), a.sharedSizeBytes, a.constSizeBytes, a.localSizeBytes, a.maxThreadsPerBlock, a.ptxVersion,
         a.binaryVersion, a.maxDynamicSharedSizeBytes, a.preferredShmemCarveout);
}

int main() {
  show("plain", (const void *)plain);
  show("bounded", (const void *)bounded);
  show("bounded128", (const void *)bounded128);
  show("static_smem", (const void *)static_smem);
  show("big_smem", (const void *)big_smem);
  int nb = 0;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, bounded, 256, 0);
  printf("bounded blocks/SM at 256: %d\n", nb >= 4 ? 4 : nb);

  float *d;
  unsigned *u, h = 0;
  cudaMalloc(&d, 4096 * sizeof(float));
  cudaMalloc(&u, sizeof(unsigned));
  bounded<<<4, 256>>>(d);
  printf("bounded <<<4,256>>>: %s\n", cudaGetErrorName(cudaGetLastError()));
  bounded<<<1, 512>>>(d);
  cudaError_t e = cudaGetLastError();
  printf("bounded <<<1,512>>>: %s (%s)\n", cudaGetErrorName(e), cudaGetErrorString(e));
  bounded128<<<1, 129>>>(d);
  printf("bounded128 <<<1,129>>>: %s\n", cudaGetErrorName(cudaGetLastError()));
  cudaDeviceSynchronize();

  int bytes = 100 * 1024;
  cudaMemset(u, 0, 4);
  big_smem<<<1, 256, bytes>>>(u, bytes);
  e = cudaGetLastError();
  printf("100 KB dynamic without opt-in: %s\n", cudaGetErrorName(e));
  e = cudaFuncSetAttribute(big_smem, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes);
  printf("set MaxDynamicSharedMemorySize %d: %s\n", bytes, cudaGetErrorName(e));
  show("big_smem", (const void *)big_smem);
  big_smem<<<2, 256, bytes>>>(u, bytes);
  e = cudaDeviceSynchronize();
  cudaMemcpy(&h, u, 4, cudaMemcpyDeviceToHost);
  printf("100 KB dynamic after opt-in: %s xor %08x\n", cudaGetErrorName(e), h);
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, big_smem, 256, bytes);
  printf("big_smem blocks/SM with 100 KB: %d\n", nb);
  e = cudaFuncSetAttribute(big_smem, cudaFuncAttributeMaxDynamicSharedMemorySize, 228 * 1024);
  printf("set MaxDynamicSharedMemorySize 228 KB: %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  e = cudaFuncSetAttribute(big_smem, cudaFuncAttributeMaxDynamicSharedMemorySize, 227 * 1024);
  printf("set MaxDynamicSharedMemorySize 227 KB: %s\n", cudaGetErrorName(e));
  e = cudaFuncSetAttribute(big_smem, cudaFuncAttributePreferredSharedMemoryCarveout, 50);
  printf("set carveout 50: %s\n", cudaGetErrorName(e));
  e = cudaFuncSetAttribute(big_smem, cudaFuncAttributePreferredSharedMemoryCarveout, cudaSharedmemCarveoutMaxL1);
  printf("set carveout MaxL1: %s\n", cudaGetErrorName(e));
  show("big_smem", (const void *)big_smem);
  e = cudaFuncSetAttribute(big_smem, cudaFuncAttributePreferredSharedMemoryCarveout, 101);
  printf("set carveout 101: %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  e = cudaFuncSetCacheConfig(plain, cudaFuncCachePreferShared);
  printf("cudaFuncSetCacheConfig PreferShared: %s\n", cudaGetErrorName(e));
  e = cudaFuncSetCacheConfig(plain, cudaFuncCachePreferL1);
  printf("cudaFuncSetCacheConfig PreferL1: %s\n", cudaGetErrorName(e));
  cudaFuncCache cc;
  e = cudaDeviceGetCacheConfig(&cc);
  printf("cudaDeviceGetCacheConfig: %s %d\n", cudaGetErrorName(e), (int)cc);
  e = cudaFuncGetAttributes(nullptr, (const void *)plain);
  printf("cudaFuncGetAttributes(null): %s\n", cudaGetErrorName(e));
  cudaFuncAttributes fa;
  int notAKernel = 0;
  e = cudaFuncGetAttributes(&fa, &notAKernel);
  printf("cudaFuncGetAttributes(not a kernel): %s\n", cudaGetErrorName(e));
  printf("last error: %s\n", cudaGetErrorName(cudaGetLastError()));
  return 0;
}
