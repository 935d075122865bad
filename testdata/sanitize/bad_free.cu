// memcheck: cudaFree of an interior pointer, then a double free.
#include "common.h"

int main() {
  char *a;
  cudaMalloc(&a, 512);
  REPORT(cudaFree(a + 16));
  REPORT(cudaFree(a));
  REPORT(cudaFree(a));
  return 0;
}
