// memcheck: thread 3 stores an int at an address 2 bytes into a buffer.
#include "common.h"

__global__ void misaligned(char *p) {
  int t = threadIdx.x;
  int off = t == 3 ? 2 : 4 * t;
  *(int *)(p + off) = t;
}

int main() {
  char *p;
  cudaMalloc(&p, 1024);
  misaligned<<<1, 32>>>(p);
  REPORT(cudaDeviceSynchronize());
  return 0;
}
