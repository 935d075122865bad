// inflight_mb.cu: how fast an SM issues 16-byte cp.async.cg copies back to back, and whether copies that read
// nothing (src-size 0: Triton's zero-filled k-tiles past K) wait behind copies whose data is still on its way.
// One block of W warps (1, 4, 8); each thread issues 32 copies of 16 bytes (a warp instruction: 512 contiguous
// bytes, 4 lines; addresses computed before the first), lane 0 stamping %clock64 before the first and after every
// fourth copy; then cp.async.wait_all, a stamp, bar.sync, a stamp.
//   ZF 0: every copy reads global memory; 1: every copy is a zero fill (src-size 0); 2: the first 16 read, the last
//   16 zero-fill.
// COLD 1: the L2 flushed (a 256 MiB memset) before each launch; 0: the launch repeated (its data in the L2).
// Prints the mean over warps of each stamp minus the first, mean of 3 launches:
//   inflight zf=Z warps=W cold=C at=<after 4>,<after 8>,...,<after 32> wait=<> bar=<>
#include <cstdio>
#include <cuda_runtime.h>

#define N 32
#define NS (N / 4 + 3)
#define REPS 3

template <int ZF>
__global__ void k_burst(long long *out, const char *src) {
  extern __shared__ __align__(1024) char buf[];
  int t = threadIdx.x, lane = t & 31, warp = t >> 5, nt = blockDim.x;
  unsigned sbase = (unsigned)__cvta_generic_to_shared(buf);
  const char *g[N];
  unsigned d[N];
#pragma unroll
  for (int j = 0; j < N; j++) {
    g[j] = src + (size_t)(j * nt + t) * 16;
    d[j] = sbase + (j * nt + t) * 16;
  }
  long long ts[NS];
  __syncthreads();
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(ts[0])::"memory");
#pragma unroll
  for (int j = 0; j < N; j++) {
    int n = (ZF == 1 || (ZF == 2 && j >= N / 2)) ? 0 : 16;
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(d[j]), "l"(g[j]), "r"(n) : "memory");
    if ((j & 3) == 3) asm volatile("mov.u64 %0, %%clock64;" : "=l"(ts[1 + j / 4])::"memory");
  }
  asm volatile("cp.async.wait_all;" ::: "memory");
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(ts[NS - 2])::"memory");
  __syncthreads();
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(ts[NS - 1])::"memory");
  if (lane == 0)
#pragma unroll
    for (int k = 0; k < NS; k++) out[warp * NS + k] = ts[k];
}

int main() {
  const size_t FLUSH = 256 << 20;
  char *flush, *src;
  long long *out, h[8 * NS];
  cudaMalloc(&flush, FLUSH);
  cudaMalloc(&src, 1 << 20);
  cudaMalloc(&out, 8 * NS * sizeof(long long));
  cudaMemset(src, 1, 1 << 20);
  void (*fns[3])(long long *, const char *) = {k_burst<0>, k_burst<1>, k_burst<2>};
  for (int z = 0; z < 3; z++) cudaFuncSetAttribute(fns[z], cudaFuncAttributeMaxDynamicSharedMemorySize, 160 * 1024);
  int v = 0;
  for (int z = 0; z < 3; z++)
    for (int w = 1; w <= 8; w *= 2) {
      if (w == 2) continue;
      for (int cold = 1; cold >= 0; cold--) {
        double m[NS] = {0};
        for (int rep = 0; rep < REPS + (cold ? 0 : 1); rep++) {
          if (cold) cudaMemset(flush, v++ & 255, FLUSH);
          cudaDeviceSynchronize();
          fns[z]<<<1, 32 * w, N * 32 * w * 16>>>(out, src);
          cudaError_t e = cudaDeviceSynchronize();
          if (e != cudaSuccess) { printf("error %s\n", cudaGetErrorString(e)); return 1; }
          if (!cold && rep == 0) continue;
          cudaMemcpy(h, out, sizeof(long long) * w * NS, cudaMemcpyDeviceToHost);
          for (int k = 1; k < NS; k++)
            for (int i = 0; i < w; i++) m[k] += (double)(h[i * NS + k] - h[i * NS]) / w / REPS;
        }
        printf("inflight zf=%d warps=%d cold=%d at=", z, w, cold);
        for (int k = 1; k <= N / 4; k++) printf("%s%.0f", k > 1 ? "," : "", m[k]);
        printf(" wait=%.0f bar=%.0f\n", m[NS - 2], m[NS - 1]);
      }
    }
  return 0;
}
