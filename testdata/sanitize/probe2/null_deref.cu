// memcheck: a kernel writes through a null pointer field of a struct.
#include "common.h"

struct Args {
  int *in;
  int *out;
};

__global__ void copy(Args a) {
  int t = threadIdx.x;
  if (t == 3)
    a.out[t] = a.in[t];
}

int main() {
  Args a;
  cudaMalloc(&a.in, 32 * sizeof(int));
  cudaMemset(a.in, 0, 32 * sizeof(int));
  a.out = nullptr;
  copy<<<1, 32>>>(a);
  REPORT(cudaDeviceSynchronize());
  REPORT(cudaGetLastError());
  return 0;
}
