// Out-of-range launch configurations and their error codes; none is sticky.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void k(int *p) { if (p) atomicAdd(p, 1); }
__global__ void k_smem(int *p) {
  extern __shared__ int s[];
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  if (threadIdx.x == 0) atomicAdd(p, s[blockDim.x - 1]);
}

#define TRY(desc, ...) do { __VA_ARGS__; cudaError_t l = cudaGetLastError(); cudaError_t s = cudaDeviceSynchronize(); \
  printf("%-28s launch %-32s sync %s\n", desc, cudaGetErrorName(l), cudaGetErrorName(s)); } while (0)

int main() {
  int *d, h = 0;
  cudaMalloc(&d, sizeof(int));
  cudaMemset(d, 0, sizeof(int));
  TRY("ok 1x1", k<<<1, 1>>>(d));
  TRY("block 1025", k<<<1, 1025>>>(d));
  TRY("block 32x33 (1056)", k<<<1, dim3(32, 33)>>>(d));
  TRY("block z 65", k<<<1, dim3(1, 1, 65)>>>(d));
  TRY("block z 64", k<<<1, dim3(1, 1, 64)>>>(d));
  TRY("block 0", k<<<1, 0>>>(d));
  TRY("grid 0", k<<<0, 1>>>(d));
  TRY("grid y 65536", k<<<dim3(1, 65536), 1>>>(d));
  TRY("grid z 65536", k<<<dim3(1, 1, 65536), 1>>>(d));
  TRY("grid x 2^31", k<<<dim3(2147483648u), 1>>>(d));
  TRY("smem 48K dynamic", k_smem<<<1, 32, 48 * 1024>>>(d));
  TRY("smem 48K+4 dynamic", k_smem<<<1, 32, 48 * 1024 + 4>>>(d));
  TRY("smem 1 MB dynamic", k_smem<<<1, 32, 1 << 20>>>(d));
  cudaStream_t bad = (cudaStream_t)0x1234;
  (void)bad;
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaStreamDestroy(s);
  TRY("ok again", k<<<2, 64>>>(d));
  cudaMemcpy(&h, d, sizeof(int), cudaMemcpyDeviceToHost);
  printf("counter %d\n", h);
  void *args[] = {&d};
  cudaError_t e = cudaLaunchKernel((const void *)k, dim3(1), dim3(2048), args, 0, 0);
  printf("cudaLaunchKernel block 2048: %s, last %s\n", cudaGetErrorName(e), cudaGetErrorName(cudaGetLastError()));
  e = cudaLaunchKernel((const void *)k, dim3(1), dim3(32), args, 0, 0);
  printf("cudaLaunchKernel ok: %s\n", cudaGetErrorName(e));
  cudaDeviceSynchronize();
  int notAKernel = 0;
  e = cudaLaunchKernel((const void *)&notAKernel, dim3(1), dim3(32), args, 0, 0);
  printf("cudaLaunchKernel not a kernel: %s, last %s\n", cudaGetErrorName(e), cudaGetErrorName(cudaGetLastError()));
  cudaMemcpy(&h, d, sizeof(int), cudaMemcpyDeviceToHost);
  printf("counter %d\n", h);
  return 0;
}
