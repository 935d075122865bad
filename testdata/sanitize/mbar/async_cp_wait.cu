// Correct: cp.async, wait_all, __syncthreads, then read another warp's
// copy. Clean under racecheck and initcheck.
#include "mbar.h"

__global__ void readAfterWait(const int4 *in, int *out) {
  __shared__ int4 buf[64];
  int t = threadIdx.x;
  cp_async16(&buf[t], &in[t]);
  cp_async_commit();
  cp_async_wait_all();
  __syncthreads();
  out[t] = buf[(t + 32) % 64].y;
}

int main() {
  int4 h[64];
  int o[64];
  for (int i = 0; i < 64; i++) h[i] = make_int4(i, 2 * i, 3 * i, 4 * i);
  int4 *in;
  int *out;
  cudaMalloc(&in, sizeof(h));
  cudaMalloc(&out, sizeof(o));
  cudaMemcpy(in, h, sizeof(h), cudaMemcpyHostToDevice);
  readAfterWait<<<1, 64>>>(in, out);
  REPORT(cudaDeviceSynchronize());
  cudaMemcpy(o, out, sizeof(o), cudaMemcpyDeviceToHost);
  printf("out[0]=%d out[63]=%d\n", o[0], o[63]);
  cudaFree(in);
  cudaFree(out);
  return 0;
}
