// Launches the device refuses: too many threads per block, a block
// dimension over its limit, a grid dimension over its limit, a zero grid
// (each cudaErrorInvalidValue, "invalid argument", with CUDA 13 on an H100;
// older runtimes returned cudaErrorInvalidConfiguration), more dynamic
// shared memory than the default 48 KiB without opting in
// (cudaErrorInvalidValue). Each is reported by the launch and is not
// sticky. A block larger than the kernel's __launch_bounds__ fails to
// launch too (the CUDA programming guide says so; the H100 returns
// cudaErrorInvalidValue); the program checks that it is refused and prints
// which error.
#include <cstdio>
#include <cuda_runtime.h>
__global__ void k(int *p) { if (p) p[0] = 1; }
__global__ void __launch_bounds__(128) bounded(int *p) { if (p) p[0] = 1; }
int main() {
  bool ok = true;
  k<<<1, 2048>>>(nullptr);
  cudaError_t e = cudaGetLastError();
  printf("block 2048: %s: %s\n", cudaGetErrorName(e), cudaGetErrorString(e));
  ok &= e == cudaErrorInvalidValue;
  k<<<1, dim3(1, 1, 128)>>>(nullptr);
  e = cudaGetLastError();
  printf("block z 128: %s\n", cudaGetErrorName(e));
  ok &= e == cudaErrorInvalidValue;
  k<<<dim3(1, 65536), 1>>>(nullptr);
  e = cudaGetLastError();
  printf("grid y 65536: %s\n", cudaGetErrorName(e));
  ok &= e == cudaErrorInvalidValue;
  k<<<0, 32>>>(nullptr);
  e = cudaGetLastError();
  printf("grid 0: %s\n", cudaGetErrorName(e));
  ok &= e == cudaErrorInvalidValue;
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
  bounded<<<1, 256>>>(nullptr);
  e = cudaGetLastError();
  printf("block 256 over __launch_bounds__(128): %s\n", cudaGetErrorName(e));
  ok &= e != cudaSuccess;
  k<<<1, 32>>>(nullptr);
  e = cudaDeviceSynchronize();
  printf("a good launch afterwards: %s\n", cudaGetErrorName(e));
  ok &= e == cudaSuccess;
  printf(ok ? "Test PASSED\n" : "Test FAILED\n");
  return 0;
}
