// racecheck: a shared-memory reduction loop with its barrier only after the
// write: a thread's next read races with another's write (and the read of a
// partner's value with its write).
#include "common.h"

__global__ void reduce(const int *in, int *out) {
  __shared__ int s[128];
  int t = threadIdx.x;
  s[t] = in[t];
  __syncthreads();
  for (int k = 64; k > 0; k >>= 1) {
    int v = 0;
    if (t < k)
      v = s[t] + s[t + k];
    if (t < k)
      s[t] = v;
  }
  __syncthreads();
  if (t == 0)
    out[0] = s[0];
}

int main() {
  int *in, *out;
  cudaMalloc(&in, 128 * sizeof(int));
  cudaMalloc(&out, sizeof(int));
  cudaMemset(in, 0, 128 * sizeof(int));
  reduce<<<1, 128>>>(in, out);
  REPORT(cudaDeviceSynchronize());
  return 0;
}
