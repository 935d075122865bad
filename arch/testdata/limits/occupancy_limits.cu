// What the CUDA runtime answers at and beyond the per-block limits: for two
// kernels (8 KiB of static shared memory, and none) and block sizes up to
// past the 1024-thread maximum, cudaOccupancyMaxActiveBlocksPerMultiprocessor
// with dynamic shared memory up to past the opt-in limit, and what a launch
// with that much dynamic shared memory returns, before and after
// cudaFuncAttributeMaxDynamicSharedMemorySize opts in.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void shared8k(float *o, int n) {
  __shared__ float s[2048];
  s[threadIdx.x % 2048] = threadIdx.x;
  __syncthreads();
  o[threadIdx.x] = s[(threadIdx.x + 1) % 2048];
}

extern __shared__ float dyn[];
__global__ void dynonly(float *o, int n) { // n: floats of dynamic shared memory
  if ((int)threadIdx.x < n) dyn[threadIdx.x] = 1;
  __syncthreads();
  o[threadIdx.x] = n > 0 ? dyn[0] : 0;
}

static void occ(const char *name, const void *k, int bs, size_t d) {
  int n = -99;
  cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, k, bs, d);
  printf("OCC %s bs=%d dyn=%zu err=%s blocks=%d\n", name, bs, d, cudaGetErrorName(e), n);
  cudaGetLastError();
}

static void launch(const char *name, void (*k)(float *, int), float *o, int bs, size_t d) {
  k<<<1, bs, d>>>(o, (int)(d / 4));
  cudaError_t e = cudaGetLastError();
  cudaError_t s = cudaDeviceSynchronize();
  printf("LAUNCH %s bs=%d dyn=%zu err=%s sync=%s\n", name, bs, d, cudaGetErrorName(e), cudaGetErrorName(s));
  cudaGetLastError();
}

int main() {
  cudaDeviceProp p;
  cudaGetDeviceProperties(&p, 0);
  printf("DEVICE %s smemPerBlock=%zu smemPerBlockOptin=%zu smemPerSM=%zu reserved=%zu maxThreadsPerBlock=%d\n", p.name,
         p.sharedMemPerBlock, p.sharedMemPerBlockOptin, p.sharedMemPerMultiprocessor, p.reservedSharedMemPerBlock,
         p.maxThreadsPerBlock);
  float *o;
  cudaMalloc(&o, 4 << 20);
  const int bss[] = {32, 256, 1024, 1025, 2048};
  const size_t dyns[] = {0, 40960, 49152, 223232, 224256, 224257, 231424, 232448, 232449, 233472, 240000, 1 << 20};
  for (int opt = 0; opt < 2; opt++) {
    if (opt) {
      cudaError_t a = cudaFuncSetAttribute(shared8k, cudaFuncAttributeMaxDynamicSharedMemorySize, 232448 - 8192);
      cudaError_t b = cudaFuncSetAttribute(dynonly, cudaFuncAttributeMaxDynamicSharedMemorySize, 232448);
      printf("OPTIN shared8k=%s dynonly=%s\n", cudaGetErrorName(a), cudaGetErrorName(b));
    }
    for (int bs : bss)
      for (size_t d : dyns) {
        occ("shared8k", (const void *)shared8k, bs, d);
        occ("dynonly", (const void *)dynonly, bs, d);
      }
    for (size_t d : dyns) {
      launch("shared8k", shared8k, o, 32, d);
      launch("dynonly", dynonly, o, 32, d);
    }
    launch("dynonly", dynonly, o, 1025, 0);
  }
  return 0;
}
