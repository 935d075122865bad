// Device printf: integer, float, string and character conversions from one
// warp (lanes print in order), flushed by cudaDeviceSynchronize.
#include "check.h"
__global__ void hello(float scale) {
  int t = threadIdx.x;
  if (t % 8 == 0)
    printf("thread %2d block %d: %5.2f %e %g %s %c %x %lld\n", t, blockIdx.x, t * scale, t * scale, t * scale,
           t < 16 ? "low" : "high", 'A' + t / 8, 0xbeef0000u + t, -1234567890123ll + t);
}
int main() {
  hello<<<1, 32>>>(0.25f);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  printf("Test PASSED\n");
  return 0;
}
