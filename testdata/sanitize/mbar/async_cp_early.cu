// racecheck: each thread cp.asyncs 16 bytes into shared memory and, after a
// __syncthreads but before any wait, reads what another warp copied (a
// volatile read, which the compiler keeps; async_cp_nowait.cu's was dropped).
#include "mbar.h"

__global__ void readBeforeWait(const int4 *in, int *out) {
  __shared__ int4 buf[64];
  int t = threadIdx.x;
  cp_async16(&buf[t], &in[t]);
  cp_async_commit();
  __syncthreads();
  int v = ((volatile int4 *)buf)[(t + 32) % 64].x;  // too early: the copy may not have landed
  cp_async_wait_all();
  __syncthreads();
  out[t] = (v & 0) + buf[(t + 32) % 64].y;
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
  readBeforeWait<<<1, 64>>>(in, out);
  REPORT(cudaDeviceSynchronize());
  cudaMemcpy(o, out, sizeof(o), cudaMemcpyDeviceToHost);
  printf("out[0]=%d out[63]=%d\n", o[0], o[63]);
  cudaFree(in);
  cudaFree(out);
  return 0;
}
