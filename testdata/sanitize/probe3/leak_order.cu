// memcheck --leak-check full: four leaks of four kinds, in this order:
// cudaMalloc, cudaMallocAsync, cudaMallocManaged, cudaMalloc.
#include "common.h"

int main() {
  int *a, *b, *c, *d;
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaMalloc(&a, 111);
  cudaMallocAsync(&b, 222, s);
  cudaMallocManaged(&c, 333);
  cudaMalloc(&d, 444);
  REPORT(cudaStreamSynchronize(s));
  return 0;
}
