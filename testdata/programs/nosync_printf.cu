// A kernel prints and the program exits without synchronizing. CUDA does
// not flush the device printf buffer at exit (only at synchronizations,
// launches, blocking copies and cudaDeviceReset), so the kernel's line is
// lost; the host's lines are printed.
#include <cstdio>
#include <cuda_runtime.h>
__global__ void talk() { printf("from the device\n"); }
int main() {
  talk<<<1, 1>>>();
  printf("host: launched, exiting without cudaDeviceSynchronize\n");
  printf("Test PASSED\n");
  return 0;
}
