// racecheck: races on a char array and a short array in shared memory
// (hazards are counted per byte).
#include "common.h"

__global__ void bytes(const int *in, int *out) {
  __shared__ unsigned char c[128];
  __shared__ unsigned short h[128];
  int t = threadIdx.x;
  c[t] = (unsigned char)(in[t] + 1);
  h[t] = (unsigned short)(in[t] + 7);
  out[t] = c[127 - t] + h[(t + 64) % 128];
}

int main() {
  int *in, *out;
  cudaMalloc(&in, 128 * sizeof(int));
  cudaMalloc(&out, 128 * sizeof(int));
  cudaMemset(in, 0, 128 * sizeof(int));
  bytes<<<1, 128>>>(in, out);
  REPORT(cudaDeviceSynchronize());
  return 0;
}
