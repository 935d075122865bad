// tmbranch_mb.cu: a device-side tensor map made as Triton's make_tensor_descriptor makes it, on the H100: a block of
// 4 warps, warp 0 making the map, ROUNDS rounds each on its own global lines (4 KiB apart), the L2 flushed before the
// launch. Triton guards each tensormap.replace with its own predicate (@%p, lane 0), which ptxas turns into a branch
// region each; MODE 0 does so, MODE 1 puts the 13 replaces in one if (as tmcold_mb.cu), MODE 2 is MODE 0 making two
// maps a round, the second on the line right after the first's (as Triton's second map), a bar.sync between.
// Steps (clock64 by lane 0 of warp 0): (a) zero the map (st.shared, 32 lanes) and the 13 replaces, (b) the copy
// (tensormap.cp_fenceproxy), the acquire, cp.async.bulk.commit_group and wait_group.read 0, (c) bar.sync, and in
// MODE 2 (d) the second map's (a)+(b). Prints "tmbranch mode=<m> first=a,b,c,d mean=a,b,c,d" (round 0, the mean of
// rounds 1..ROUNDS-1).
#include <cstdio>
#define ROUNDS 8
#define STEPS 4
#define LINE 4096

__device__ __forceinline__ long long clk() {
  long long t;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)::"memory");
  return t;
}

#define REP(field, val) \
  asm volatile("{\n.reg .pred p;\nsetp.eq.u32 p, %1, 0;\n@p tensormap.replace.tile." field ".shared::cta.b1024.b32 [%0], " val ";\n}" ::"r"(s), "r"(tid), "r"(box), "r"(d0), "r"(d1), "r"(one) : "memory")

__device__ __forceinline__ void guarded(unsigned s, unsigned tid, char *tensor, int d0, int d1, long long stride, int box, int one) {
  asm volatile("{\n.reg .pred p;\nsetp.eq.u32 p, %1, 0;\n@p tensormap.replace.tile.global_address.shared::cta.b1024.b64 [%0], %2;\n}" ::"r"(s), "r"(tid), "l"(tensor) : "memory");
  REP("rank", "1");
  REP("box_dim", "0, %2");
  REP("box_dim", "1, %2");
  REP("global_dim", "0, %3");
  REP("global_dim", "1, %4");
  asm volatile("{\n.reg .pred p;\nsetp.eq.u32 p, %1, 0;\n@p tensormap.replace.tile.global_stride.shared::cta.b1024.b64 [%0], 0, %2;\n}" ::"r"(s), "r"(tid), "l"(stride) : "memory");
  REP("element_stride", "0, %5");
  REP("element_stride", "1, %5");
  REP("elemtype", "7");
  REP("interleave_layout", "0");
  REP("swizzle_mode", "3");
  REP("fill_mode", "0");
}

__device__ __forceinline__ void plain(unsigned s, unsigned tid, char *tensor, int d0, int d1, long long stride, int box, int one) {
  if (tid == 0) {
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
}

// copy: the copy, the acquire and Triton's bulk wait, by the 32 lanes of warp 0 (@p: tid < 32).
__device__ __forceinline__ void copy(unsigned s, unsigned tid, char *g) {
  asm volatile("{\n.reg .pred p;\nsetp.lt.u32 p, %2, 32;\n"
               "@p tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [%0], [%1], 128;\n"
               "@p fence.proxy.tensormap::generic.acquire.gpu [%0], 128;\n"
               "@p cp.async.bulk.commit_group;\n@p cp.async.bulk.wait_group.read 0;\n}" ::"l"(g), "r"(s), "r"(tid) : "memory");
}

__device__ __forceinline__ void zero(unsigned s, unsigned tid) {
  asm volatile("{\n.reg .pred p;\nsetp.lt.u32 p, %1, 32;\n@p st.shared.b32 [%0], 0;\n}" ::"r"(s + 4 * (tid & 31)), "r"(tid) : "memory");
  __syncwarp();
}

template <int MODE>
__global__ void k(long long *out, char *lines, char *tensor, int d0, int d1, long long stride, int box, int one) {
  __shared__ __align__(128) unsigned smap[32];
  unsigned tid = threadIdx.x;
  unsigned s = (unsigned)__cvta_generic_to_shared(smap);
  long long t[STEPS + 1];
  for (int r = 0; r < ROUNDS; r++) {
    char *g = lines + (size_t)r * 4 * LINE;
    __syncthreads();
    t[0] = clk();
    zero(s, tid);
    if (MODE == 1) plain(s, tid, tensor, d0, d1, stride, box, one);
    else guarded(s, tid, tensor, d0, d1, stride, box, one);
    __syncwarp();
    t[1] = clk();
    copy(s, tid, g);
    t[2] = clk();
    __syncthreads();
    t[3] = clk();
    if (MODE == 2) {
      zero(s, tid);
      guarded(s, tid, tensor, d0, d1, stride, box, one);
      __syncwarp();
      copy(s, tid, g + 128);
    }
    t[4] = clk();
    if (tid == 0)
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
  void (*ks[])(long long *, char *, char *, int, int, long long, int, int) = {k<0>, k<1>, k<2>};
  for (int m = 0; m < 3; m++) {
    ks[m]<<<1, 128>>>(dout, lines, tensor, 1024, 1024, 4096, 32, 1); // warm-up
    cudaDeviceSynchronize();
    cudaMemset(flush, m + 1, fsz);
    cudaDeviceSynchronize();
    ks[m]<<<1, 128>>>(dout, lines, tensor, 1024, 1024, 4096, 32, 1);
    cudaError_t e = cudaDeviceSynchronize();
    cudaMemcpy(h, dout, sizeof h, cudaMemcpyDeviceToHost);
    printf("tmbranch mode=%d first=", m);
    for (int i = 0; i < STEPS; i++) printf(i ? ",%lld" : "%lld", h[i]);
    printf(" mean=");
    for (int i = 0; i < STEPS; i++) {
      double a = 0;
      for (int r = 1; r < ROUNDS; r++) a += h[r * STEPS + i];
      printf(i ? ",%.1f" : "%.1f", a / (ROUNDS - 1));
    }
    printf(" %s\n", e ? cudaGetErrorName(e) : "");
  }
  return 0;
}
