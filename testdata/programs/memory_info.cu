// What cudaMemGetInfo reports, and an allocation larger than the device:
// cudaErrorMemoryAllocation, and the program goes on.
#include "check.h"

int main() {
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  size_t freeB = 0, total = 0;
  CHECK(cudaMemGetInfo(&freeB, &total));
  printf("free <= total: %s; total within 1%% of totalGlobalMem: %s\n", freeB <= total ? "yes" : "no",
         total <= prop.totalGlobalMem && total >= prop.totalGlobalMem / 100 * 99 ? "yes" : "no");
  void *huge = nullptr;
  cudaError_t e = cudaMalloc(&huge, total + ((size_t)16 << 30));
  printf("cudaMalloc of the device's memory + 16 GiB: %s, pointer %s\n", cudaGetErrorName(e), huge ? "set" : "null");
  // Two calls in sequence. (As recorded, the two calls were arguments of one
  // printf, which nvcc's host compiler evaluated right to left: the GPU's
  // first call returned cudaErrorMemoryAllocation, its second cudaSuccess.
  // The recording's line is written in this order; see GPU.txt.)
  cudaError_t first = cudaGetLastError();
  cudaError_t second = cudaGetLastError();
  printf("cudaGetLastError: %s, then %s\n", cudaGetErrorName(first), cudaGetErrorName(second));
  void *small = nullptr;
  CHECK(cudaMalloc(&small, 1 << 20));
  size_t after = 0;
  CHECK(cudaMemGetInfo(&after, &total));
  printf("a 1 MiB allocation afterwards works; free went down: %s\n", after < freeB ? "yes" : "no");
  CHECK(cudaFree(small));
  printf("Test PASSED\n");
  return 0;
}
