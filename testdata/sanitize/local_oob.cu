// Beyond compute-sanitizer: a thread writes past its own local array. On
// the GPU nothing reports it; warpsim sanitize --check-local does.
#include "common.h"

__global__ void localArray(int *out, int k) {
  int a[8];
  for (int i = 0; i < 8; i++)
    a[i] = i * threadIdx.x;
  int j = threadIdx.x == 1 ? k : threadIdx.x % 8;
  a[j] = 7;
  int s = 0;
  for (int i = 0; i < 8; i++)
    s += a[(i + threadIdx.x) % 8];
  out[threadIdx.x] = s;
}

int main() {
  int *out;
  cudaMalloc(&out, 32 * sizeof(int));
  localArray<<<1, 32>>>(out, 12);
  REPORT(cudaDeviceSynchronize());
  return 0;
}
