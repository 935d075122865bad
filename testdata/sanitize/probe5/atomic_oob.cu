// memcheck: a global histogram of values in [0, 100] into 10 bins of width 10;
// the value 100 maps to bin 10, one past the array, through atomicAdd.
#include "common.h"

__global__ void hist(const int *v, int *bins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&bins[v[i] / 10], 1);  // bug: v == 100 gives bin 10
}

int main() {
  const int n = 101;
  int h[n], *v, *bins, hb[10];
  for (int i = 0; i < n; i++)
    h[i] = i;
  cudaMalloc(&v, sizeof h);
  cudaMalloc(&bins, sizeof hb);
  cudaMemcpy(v, h, sizeof h, cudaMemcpyHostToDevice);
  cudaMemset(bins, 0, sizeof hb);
  hist<<<2, 64>>>(v, bins, n);
  REPORT(cudaDeviceSynchronize());
  return 0;
}
