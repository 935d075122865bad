// Shared-memory bank conflicts: lane l of every warp reads word (l*stride) mod 8192 of a zeroed
// 32 KiB array, `iters` times, each read's address depending on the previous value (always 0).
// Thread 0 of the block times the loop with clock64(). With 1 warp the result is the latency per
// access; with 32 warps, the throughput: cycles per warp-access = cycles / (iters * warps).
// Usage: bank [full|sim]. Output: bank stride=S warps=W iters=I cycles=C cyc_per_access=X cyc_per_warp_access=Y event_ms=T
#include "bench.h"

extern "C" __global__ void bank_k(unsigned stride, unsigned iters, long long *cyc, unsigned *out) {
  __shared__ unsigned s[8192];
  for (unsigned i = threadIdx.x; i < 8192; i += blockDim.x) s[i] = 0;
  __syncthreads();
  unsigned idx = ((threadIdx.x & 31) * stride) & 8191;
  volatile unsigned *vs = s;
  unsigned v = 0;
  long long t0 = clock64();
  for (unsigned k = 0; k < iters; k++) v = vs[idx + v];
  __syncthreads();
  long long t1 = clock64();
  out[threadIdx.x] = v;
  if (threadIdx.x == 0) cyc[0] = t1 - t0;
}

int main(int argc, char **argv) {
  bench_mode(argc, argv);
  long long *cyc; unsigned *out; CK(cudaMalloc(&cyc, 8)); CK(cudaMalloc(&out, 4096));
  unsigned iters = 1024;
  for (int warps : {1, 32}) {
    for (unsigned stride : {0u, 1u, 2u, 4u, 8u, 16u, 32u, 33u}) {
      if (!g_full && stride == 33u) continue;
      float ms = time_median([&] { bank_k<<<1, warps * 32>>>(stride, iters, cyc, out); });
      long long c; CK(cudaMemcpy(&c, cyc, 8, cudaMemcpyDeviceToHost));
      printf("bank stride=%u warps=%d iters=%u cycles=%lld cyc_per_access=%.3f cyc_per_warp_access=%.3f event_ms=%.5f\n",
             stride, warps, iters, c, (double)c / iters, (double)c / iters / warps, ms);
    }
  }
  return 0;
}
