// Atomic throughput: every thread does `iters` atomicAdd(…, 1) (result unused). mode 0: all threads
// of the grid on one address; 1: one address per warp (each on its own 128-byte line); 2: a
// distinct address per thread. Global (atom_g) and shared (atom_s, per block) versions.
// Usage: atomics [full|sim]. Output: atomics space=S mode=M grid=G block=B iters=I event_ms=T atomics_per_ns=X
#include "bench.h"

extern "C" __global__ void atom_g(unsigned *p, unsigned mode, unsigned iters) {
  unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned a = mode == 0 ? 0 : mode == 1 ? (tid >> 5) * 32 : tid;
  for (unsigned k = 0; k < iters; k++) atomicAdd(p + a, 1u);
}
extern "C" __global__ void atom_s(unsigned *p, unsigned mode, unsigned iters) {
  __shared__ unsigned s[1024];
  s[threadIdx.x] = 0;
  __syncthreads();
  unsigned a = mode == 0 ? 0 : mode == 1 ? (threadIdx.x >> 5) : threadIdx.x;
  for (unsigned k = 0; k < iters; k++) atomicAdd(s + a, 1u);
  __syncthreads();
  if (s[threadIdx.x]) p[blockIdx.x * blockDim.x + threadIdx.x] = s[threadIdx.x];
}

int main(int argc, char **argv) {
  bench_mode(argc, argv);
  int sms = num_sms();
  unsigned *p; CK(cudaMalloc(&p, 64u << 20));
  int grid = g_full ? sms * 8 : sms * 2, block = 256;
  unsigned iters = g_full ? 64 : 16;
  for (int space = 0; space < 2; space++)
    for (unsigned mode : {0u, 1u, 2u}) {
      float ms = time_median([&] { CK(cudaMemsetAsync(p, 0, 4096)); }, [&] {
        if (space == 0) atom_g<<<grid, block>>>(p, mode, iters); else atom_s<<<grid, block>>>(p, mode, iters); });
      double n = (double)grid * block * iters;
      printf("atomics space=%s mode=%u grid=%d block=%d iters=%u event_ms=%.5f atomics_per_ns=%.3f\n",
             space == 0 ? "global" : "shared", mode, grid, block, iters, ms, ms > 0 ? n / ms / 1e6 : 0.0);
    }
  return 0;
}
