// fence_mb.cu: what memory-ordering costs on the H100, with %clock64 in the kernel (SM cycles per iteration,
// the slowest warp's): fences (kinds 1-6: fence.acq_rel.cta, fence.acq_rel.gpu, fence.sc.gpu, fence.acq_rel.sys,
// fence.acq_rel.cluster, membar.gl) with and
// without a global store before each, and atomics (atom.add.u32 at gpu scope) with each memory-order
// semantics (relaxed, acquire, release, acq_rel), the result unused or feeding the next address (a dependent
// chain), each lane on its own word or the whole grid on one, from 1 warp and from 132 blocks of 4 warps.
// Prints "fence kind=<k> store=<0|1> blocks=<b> warps=<w> cycles_per=<x>" and
// "atom sem=<s> dep=<0|1> same=<0|1> blocks=<b> warps=<w> cycles_per=<x>".
#include <cstdio>

#define ITERS 256

template <int K>
__device__ __forceinline__ void fence() {
  if (K == 1) asm volatile("fence.acq_rel.cta;" ::: "memory");
  if (K == 2) asm volatile("fence.acq_rel.gpu;" ::: "memory");
  if (K == 3) asm volatile("fence.sc.gpu;" ::: "memory");
  if (K == 4) asm volatile("fence.acq_rel.sys;" ::: "memory");
  if (K == 5) asm volatile("fence.acq_rel.cluster;" ::: "memory");
  if (K == 6) asm volatile("membar.gl;" ::: "memory");
}

template <int K, int STORE>
__global__ void k_fence(long long *out, int *buf) {
  int *p = buf + blockIdx.x * blockDim.x + threadIdx.x;
  __syncthreads();
  long long t0 = clock64();
  for (int i = 0; i < ITERS; i++) {
    if (STORE) asm volatile("st.global.u32 [%0], %1;" ::"l"(p), "r"(i) : "memory");
    fence<K>();
  }
  long long t1 = clock64();
  if ((threadIdx.x & 31) == 0) out[(blockIdx.x * blockDim.x + threadIdx.x) / 32] = t1 - t0;
}

template <int S>
__device__ __forceinline__ unsigned atom(unsigned *a) {
  unsigned v;
  if (S == 0) asm volatile("atom.relaxed.gpu.global.add.u32 %0, [%1], 1;" : "=r"(v) : "l"(a) : "memory");
  if (S == 1) asm volatile("atom.acquire.gpu.global.add.u32 %0, [%1], 1;" : "=r"(v) : "l"(a) : "memory");
  if (S == 2) asm volatile("atom.release.gpu.global.add.u32 %0, [%1], 1;" : "=r"(v) : "l"(a) : "memory");
  if (S == 3) asm volatile("atom.acq_rel.gpu.global.add.u32 %0, [%1], 1;" : "=r"(v) : "l"(a) : "memory");
  return v;
}

template <int S, int DEP, int SAME>
__global__ void k_atom(long long *out, unsigned *buf, unsigned *sink) {
  unsigned *a = SAME ? buf : buf + blockIdx.x * blockDim.x + threadIdx.x;
  unsigned acc = 0;
  __syncthreads();
  long long t0 = clock64();
  for (int i = 0; i < ITERS; i++) {
    unsigned v = atom<S>(a);
    if (DEP) a += (v >> 31) & 0;  // keeps the next atomic behind this one's result
    if (DEP) a += v >> 30;        // (values stay far below 2^30: adds 0)
    acc += v;
  }
  long long t1 = clock64();
  if ((threadIdx.x & 31) == 0) out[(blockIdx.x * blockDim.x + threadIdx.x) / 32] = t1 - t0;
  if (acc == 0x7fffffff) sink[0] = acc;
}

static long long *dout;
static int *dbuf;
static unsigned *dsink;

static double slowest(int warps) {
  static long long h[132 * 4];
  cudaMemcpy(h, dout, warps * sizeof(long long), cudaMemcpyDeviceToHost);
  long long m = 0;
  for (int i = 0; i < warps; i++) m = h[i] > m ? h[i] : m;
  return (double)m / ITERS;
}

template <int K, int STORE>
static void fence_row() {
  for (int cfg = 0; cfg < 2; cfg++) {
    int blocks = cfg ? 132 : 1, warps = cfg ? 4 : 1;
    k_fence<K, STORE><<<blocks, 32 * warps>>>(dout, dbuf);
    k_fence<K, STORE><<<blocks, 32 * warps>>>(dout, dbuf);
    cudaError_t e = cudaDeviceSynchronize();
    printf("fence kind=%d store=%d blocks=%d warps=%d cycles_per=%.2f %s\n", K, STORE, blocks, warps,
           slowest(blocks * warps), e ? cudaGetErrorName(e) : "");
  }
}

template <int S, int DEP, int SAME>
static void atom_row() {
  for (int cfg = 0; cfg < 2; cfg++) {
    int blocks = cfg ? 132 : 1, warps = cfg ? 4 : 1;
    cudaMemset(dbuf, 0, 132 * 128 * sizeof(int));
    k_atom<S, DEP, SAME><<<blocks, 32 * warps>>>(dout, (unsigned *)dbuf, dsink);
    k_atom<S, DEP, SAME><<<blocks, 32 * warps>>>(dout, (unsigned *)dbuf, dsink);
    cudaError_t e = cudaDeviceSynchronize();
    printf("atom sem=%d dep=%d same=%d blocks=%d warps=%d cycles_per=%.2f %s\n", S, DEP, SAME, blocks, warps,
           slowest(blocks * warps), e ? cudaGetErrorName(e) : "");
  }
}

template <int S>
static void atom_sem() {
  atom_row<S, 0, 0>();
  atom_row<S, 1, 0>();
  atom_row<S, 0, 1>();
  atom_row<S, 1, 1>();
}

int main() {
  cudaMalloc(&dout, 132 * 4 * sizeof(long long));
  cudaMalloc(&dbuf, 132 * 128 * sizeof(int));
  cudaMalloc(&dsink, 4);
  fence_row<0, 0>(); fence_row<0, 1>();
  fence_row<1, 0>(); fence_row<1, 1>();
  fence_row<2, 0>(); fence_row<2, 1>();
  fence_row<3, 0>(); fence_row<3, 1>();
  fence_row<4, 0>(); fence_row<4, 1>();
  fence_row<5, 0>(); fence_row<5, 1>();
  fence_row<6, 0>(); fence_row<6, 1>();
  atom_sem<0>();
  atom_sem<1>();
  atom_sem<2>();
  atom_sem<3>();
  return 0;
}
