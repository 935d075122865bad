// Launches the device refuses: too many threads per block, a block
// dimension over its limit, a grid dimension over its limit (each
// cudaErrorInvalidConfiguration), more dynamic shared memory than the
// default 48 KiB without opting in (cudaErrorInvalidValue). Each is
// reported by the launch and is not sticky.
#include <cstdio>
#include <cuda_runtime.h>
__global__ void k(int *p) { if (p) p[0] = 1; }
int main() {
  bool ok = true;
  k<<<1, 2048>>>(nullptr);
  cudaError_t e = cudaGetLastError();
  printf("block 2048: %s: %s\n", cudaGetErrorName(e), cudaGetErrorString(e));
  ok &= e == cudaErrorInvalidConfiguration;
  k<<<1, dim3(1, 1, 128)>>>(nullptr);
  e = cudaGetLastError();
  printf("block z 128: %s\n", cudaGetErrorName(e));
  ok &= e == cudaErrorInvalidConfiguration;
  k<<<dim3(1, 65536), 1>>>(nullptr);
  e = cudaGetLastError();
  printf("grid y 65536: %s\n", cudaGetErrorName(e));
  ok &= e == cudaErrorInvalidConfiguration;
  k<<<0, 32>>>(nullptr);
  e = cudaGetLastError();
  printf("grid 0: %s\n", cudaGetErrorName(e));
  ok &= e == cudaErrorInvalidConfiguration;
  e = cudaGetLastError();
  printf("after reading: %s\n", cudaGetErrorName(e));
  k<<<1, 32, 64 * 1024>>>(nullptr);
  e = cudaGetLastError();
  printf("64 KiB dynamic shared: %s\n", cudaGetErrorName(e));
  ok &= e == cudaErrorInvalidValue;
  e = cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, 64 * 1024);
  printf("opt in to 64 KiB: %s\n", cudaGetErrorName(e));
  k<<<1, 32, 64 * 1024>>>(nullptr);
  e = cudaGetLastError();
  printf("64 KiB dynamic shared after opting in: %s\n", cudaGetErrorName(e));
  ok &= e == cudaSuccess;
  k<<<1, 32>>>(nullptr);
  e = cudaDeviceSynchronize();
  printf("a good launch afterwards: %s\n", cudaGetErrorName(e));
  ok &= e == cudaSuccess;
  printf(ok ? "Test PASSED\n" : "Test FAILED\n");
  return 0;
}
