// sysmem.cu: the latencies a device printf's lock would be made of (README.md, "the lock"): one thread's
// dependent chain of atomics, loads and fenced stores on mapped pinned host memory (the aperture
// Nsight Compute counts vprintf's traffic in) and, for comparison, on device memory; %clock64 around each.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e), __FILE__, __LINE__); exit(1); } } while (0)
__device__ __forceinline__ long long clk() { long long t; asm volatile("mov.u64 %0, %%clock64;" : "=l"(t) :: "memory"); return t; }
#define N 32
// mode 0: atomicAdd chain; 1: atomicCAS chain; 2: volatile load chain; 3: store + __threadfence_system;
// 4: atomicExch (a lock's release as an atomic)
__global__ void k_lat(unsigned *p, int mode, long long *out) {
  unsigned v = 0;
  for (int i = 0; i < N; i++) {
    long long t0 = clk();
    switch (mode) {
    case 0: v = atomicAdd(p + (v & 1), 1u); break;
    case 1: v = atomicCAS(p + (v & 1), v, v + 1); break;
    case 2: v = *(volatile unsigned *)(p + (v & 1)); break;
    case 3: ((volatile unsigned *)p)[1 + (v & 1)] = i; __threadfence_system(); v = i; break;
    case 4: v = atomicExch(p + (v & 1), v + 1); break;
    }
    long long t1 = clk();
    out[i] = t1 - t0;
  }
  out[N] = v;
}
int main() {
  unsigned *host, *dhost, *dev;
  long long *out, h[N + 1];
  CK(cudaHostAlloc(&host, 4096, cudaHostAllocMapped));
  CK(cudaHostGetDevicePointer(&dhost, host, 0));
  CK(cudaMalloc(&dev, 4096));
  CK(cudaMemset(dev, 0, 4096));
  CK(cudaMalloc(&out, sizeof(h)));
  const char *names[] = {"atomicAdd", "atomicCAS", "volatile_load", "store_fence_system", "atomicExch"};
  for (int where = 0; where < 2; where++)
    for (int mode = 0; mode < 5; mode++)
      for (int l = 0; l < 2; l++) {
        k_lat<<<1, 1>>>(where ? dev : dhost, mode, out);
        CK(cudaDeviceSynchronize());
        CK(cudaMemcpy(h, out, sizeof(h), cudaMemcpyDeviceToHost));
        long long s = 0, mn = 1LL << 60, mx = 0;
        for (int i = 1; i < N; i++) { s += h[i]; mn = h[i] < mn ? h[i] : mn; mx = h[i] > mx ? h[i] : mx; }
        printf("mem=%s op=%s launch=%d first=%lld mean=%lld min=%lld max=%lld\n", where ? "device" : "sysmem", names[mode], l, h[0], s / (N - 1), mn, mx);
      }
  return 0;
}
