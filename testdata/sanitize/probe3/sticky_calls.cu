// memcheck: after a kernel's out-of-bounds write, the program makes more
// calls, which fail with the sticky error: cudaPeekAtLastError,
// cudaGetLastError twice, cudaMalloc, cudaMemcpy, cudaFree.
#include "common.h"

__global__ void past(int *a) { a[threadIdx.x + 32] = 1; }

int main() {
  int *a, *b, h[32];
  cudaMalloc(&a, 32 * sizeof(int));
  past<<<1, 1>>>(a);
  REPORT(cudaDeviceSynchronize());
  REPORT(cudaPeekAtLastError());
  REPORT(cudaGetLastError());
  REPORT(cudaGetLastError());
  REPORT(cudaMalloc(&b, 64));
  REPORT(cudaMemcpy(h, a, sizeof h, cudaMemcpyDeviceToHost));
  REPORT(cudaFree(a));
  return 0;
}
