// racecheck and synccheck: two bulk copies of 256 bytes each complete on one
// mbarrier, but arrive.expect_tx announces only the first's 256 bytes: the
// phase can complete before the second copy lands, and every thread then
// reads both halves.
#include "common.h"

__global__ void twoCopies(const int *in, int *out) {
  __shared__ uint64_t bar;
  __shared__ __align__(16) int buf[128];
  int t = threadIdx.x;
  if (t == 0) {
    mbar_init(&bar, 1);
    mbar_expect(&bar, 256);  // bug: 512 bytes arrive
    bulk_load(buf, in, 256, &bar);
    bulk_load(buf + 64, in + 64, 256, &bar);
  }
  __syncthreads();
  bool ok = mbar_wait(&bar, 0, 200);
  if (ok)
    out[t] = buf[t] + buf[64 + t];
}

int main() {
  int h[128], *in, *out;
  for (int i = 0; i < 128; i++)
    h[i] = i;
  cudaMalloc(&in, sizeof h);
  cudaMalloc(&out, sizeof h);
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  twoCopies<<<1, 64>>>(in, out);
  REPORT(cudaDeviceSynchronize());
  return 0;
}
