// racecheck: each thread cp.asyncs 16 bytes into shared memory; the early read of another warp's copy below
// is dead (v - v): clang drops it, nvcc most likely too, so this is the clean path (pending/async_cp_early.cu keeps it).
#include "mbar.h"

__global__ void readBeforeWait(const int4 *in, int *out) {
  __shared__ int4 buf[64];
  int t = threadIdx.x;
  cp_async16(&buf[t], &in[t]);
  cp_async_commit();
  __syncthreads();
  int v = buf[(t + 32) % 64].x;  // too early: the copy may not have landed
  cp_async_wait_all();
  __syncthreads();
  out[t] = v - v + buf[(t + 32) % 64].y;
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
