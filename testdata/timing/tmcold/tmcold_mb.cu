// tmcold_mb.cu: what a device-side tensor map costs on the H100 when its global line is not in the L2 (as in a
// kernel Nsight Compute times, caches flushed), against the same with the line in the L2. One warp, ROUNDS rounds,
// each on its own global line (4 KiB apart), clock64 between the steps:
//   MODE 0 (Triton's make_tensor_descriptor, in its order): (a) st.shared of zero by the 32 lanes over the 128-byte
//          map in shared memory, (b) 13 tensormap.replace by lane 0 (values in registers, as Triton's), (c)
//          tensormap.cp_fenceproxy (release.gpu) to the round's line, (d) fence.proxy.tensormap acquire, (e)
//          cp.async.bulk.commit_group + cp.async.bulk.wait_group.read 0 (Triton waits so after a map).
//   MODE 1 (the memory accesses alone): (a) atom.global.exch.b32 by the 32 lanes over one 128-byte line, its result
//          used, (b) ld.global.cg by the 32 lanes of another line, used, (c) st.global by the 32 lanes over a third
//          line then fence.acq_rel.gpu, (d) (e) nothing.
// The host flushes the L2 (a 256 MiB memset) before the first launch ("cold") and launches again without ("warm":
// the same lines, now in the L2). Prints "tmcold mode=<m> cold=<0|1> first=a,b,c,d,e mean=a,b,c,d,e" (cycles of
// each step: round 0, and the mean of rounds 1..ROUNDS-1).
#include <cstdio>
#define ROUNDS 8
#define STEPS 5
#define LINE 4096

__device__ __forceinline__ long long clk() {
  long long t;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)::"memory");
  return t;
}

template <int MODE>
__global__ void k(long long *out, char *lines, char *tensor, int d0, int d1, long long stride, int box, int one) {
  __shared__ __align__(128) unsigned smap[32];
  __shared__ unsigned sink[32];
  unsigned lane = threadIdx.x & 31;
  unsigned s = (unsigned)__cvta_generic_to_shared(smap);
  long long t[STEPS + 1];
  for (int r = 0; r < ROUNDS; r++) {
    char *g = lines + (size_t)r * 4 * LINE;
    __syncwarp();
    t[0] = clk();
    if (MODE == 0) {
      asm volatile("st.shared.b32 [%0], %1;" ::"r"(s + 4 * lane), "r"(0) : "memory");
      __syncwarp();
      t[1] = clk();
      if (lane == 0) {
        asm volatile("tensormap.replace.tile.global_address.shared::cta.b1024.b64 [%0], %1;" ::"r"(s), "l"(tensor) : "memory");
        asm volatile("tensormap.replace.tile.rank.shared::cta.b1024.b32 [%0], 1;" ::"r"(s) : "memory");
        asm volatile("tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [%0], 0, %1;" ::"r"(s), "r"(box) : "memory");
        asm volatile("tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [%0], 1, %1;" ::"r"(s), "r"(box) : "memory");
        asm volatile("tensormap.replace.tile.global_dim.shared::cta.b1024.b32 [%0], 0, %1;" ::"r"(s), "r"(d0) : "memory");
        asm volatile("tensormap.replace.tile.global_dim.shared::cta.b1024.b32 [%0], 1, %1;" ::"r"(s), "r"(d1) : "memory");
        asm volatile("tensormap.replace.tile.global_stride.shared::cta.b1024.b64 [%0], 0, %1;" ::"r"(s), "l"(stride) : "memory");
        asm volatile("tensormap.replace.tile.element_stride.shared::cta.b1024.b32 [%0], 0, %1;" ::"r"(s), "r"(one) : "memory");
        asm volatile("tensormap.replace.tile.element_stride.shared::cta.b1024.b32 [%0], 1, %1;" ::"r"(s), "r"(one) : "memory");
        asm volatile("tensormap.replace.tile.elemtype.shared::cta.b1024.b32 [%0], 7;" ::"r"(s) : "memory");
        asm volatile("tensormap.replace.tile.interleave_layout.shared::cta.b1024.b32 [%0], 0;" ::"r"(s) : "memory");
        asm volatile("tensormap.replace.tile.swizzle_mode.shared::cta.b1024.b32 [%0], 3;" ::"r"(s) : "memory");
        asm volatile("tensormap.replace.tile.fill_mode.shared::cta.b1024.b32 [%0], 0;" ::"r"(s) : "memory");
      }
      __syncwarp();
      t[2] = clk();
      asm volatile("tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [%0], [%1], 128;" ::"l"(g), "r"(s) : "memory");
      t[3] = clk();
      asm volatile("fence.proxy.tensormap::generic.acquire.gpu [%0], 128;" ::"l"(g) : "memory");
      t[4] = clk();
      asm volatile("cp.async.bulk.commit_group;" ::: "memory");
      asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
      t[5] = clk();
    } else {
      unsigned v;
      asm volatile("atom.global.exch.b32 %0, [%1], %2;" : "=r"(v) : "l"(g + 4 * lane), "r"(lane) : "memory");
      asm volatile("st.shared.b32 [%0], %1;" ::"r"((unsigned)__cvta_generic_to_shared(sink) + 4 * lane), "r"(v) : "memory");
      t[1] = clk();
      asm volatile("ld.global.cg.b32 %0, [%1];" : "=r"(v) : "l"(g + LINE + 4 * lane) : "memory");
      asm volatile("st.shared.b32 [%0], %1;" ::"r"((unsigned)__cvta_generic_to_shared(sink) + 4 * lane), "r"(v) : "memory");
      t[2] = clk();
      asm volatile("st.global.b32 [%0], %1;" ::"l"(g + 2 * LINE + 4 * lane), "r"(lane) : "memory");
      asm volatile("fence.acq_rel.gpu;" ::: "memory");
      t[3] = clk();
      t[4] = clk();
      t[5] = clk();
    }
    if (lane == 0)
      for (int i = 0; i < STEPS; i++) out[r * STEPS + i] = t[i + 1] - t[i];
  }
}

int main() {
  long long *dout, h[ROUNDS * STEPS];
  char *lines, *tensor, *flush;
  size_t fsz = 256u << 20;
  cudaMalloc(&dout, sizeof h);
  cudaMalloc(&lines, ROUNDS * 4 * LINE);
  cudaMalloc(&tensor, 4 << 20);
  cudaMalloc(&flush, fsz);
  void (*ks[])(long long *, char *, char *, int, int, long long, int, int) = {k<0>, k<1>};
  for (int m = 0; m < 2; m++) {
    ks[m]<<<1, 32>>>(dout, lines, tensor, 1024, 1024, 4096, 32, 1); // warm-up: the code in the instruction caches
    cudaDeviceSynchronize();
    for (int cold = 1; cold >= 0; cold--) {
      if (cold) {
        cudaMemset(flush, m + 1, fsz);
        cudaDeviceSynchronize();
      }
      ks[m]<<<1, 32>>>(dout, lines, tensor, 1024, 1024, 4096, 32, 1);
      cudaError_t e = cudaDeviceSynchronize();
      cudaMemcpy(h, dout, sizeof h, cudaMemcpyDeviceToHost);
      printf("tmcold mode=%d cold=%d first=", m, cold);
      for (int i = 0; i < STEPS; i++) printf(i ? ",%lld" : "%lld", h[i]);
      printf(" mean=");
      for (int i = 0; i < STEPS; i++) {
        double a = 0;
        for (int r = 1; r < ROUNDS; r++) a += h[r * STEPS + i];
        printf(i ? ",%.1f" : "%.1f", a / (ROUNDS - 1));
      }
      printf(" %s\n", e ? cudaGetErrorName(e) : "");
    }
  }
  return 0;
}
