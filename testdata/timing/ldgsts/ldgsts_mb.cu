// ldgsts_mb.cu: what a warp's 4-byte cp.async (LDGSTS) costs on the H100 as a function of the global lines its
// lanes read and of the shared-memory banks its lanes write (the bank conflicts of the shared side), and the
// exact copy pattern of Triton's tf32 wgmma matmul (mm_tf32_64x64x32_s2's B tile: 16 lanes 16 bytes apart in each
// of two rows, written transposed into a 128-byte-swizzled tile: 8 lanes a bank).
// W warps of one block; 64 rounds of NC copies a thread, each round closed by cp.async.wait_all; clock64 around
// the rounds; prints "ldgsts g=<G> s=<S> nc=<NC> warps=<W> cycles_per_inst=<x> mean=<y>" (the slowest warp's and
// the mean warp's cycles per copy instruction; the second launch of two, its lines in L1 and L2).
//   G (global, per instruction): 0 one line (lane*4); 1 four lines (lanes 16 bytes apart, two rows 512 bytes
//     apart: Triton's); 2 eight lines (lane*32); 3 32 lines (lane*128); 4 Triton's B-tile copies (copy j of
//     thread t as mm_tf32_64x64x32_s2's PTX has it: rows of 512 bytes).
//   S (shared, per instruction): 0 lane*4 (one wavefront); 1 lane*8 (two); 2 lane*16 (four); 3 lane*32 (eight);
//     4 lane*128 (32); 5 Triton's swizzled transposed B tile (eight lanes a bank).
// Mode "tri": each round is the kernel's stage (4 16-byte .cg copies of A, 16 4-byte .ca copies of B), closed by
// cp.async.wait_group 0 and bar.sync, 4 warps: "ldgsts tri warps=4 cycles_per_round=<x>".
#include <cstdio>
#define ROUNDS 64

__device__ __forceinline__ unsigned tri_s(int t, int j) {  // B tile's shared offset (bytes), PTX's %r15 and xors
  unsigned r15 = ((t << 9) & 7168) | ((t & 112) >> 2) | ((t & 1) ? 576 : 0);
  const unsigned x[4] = {0, 16, 64, 80}, add[4] = {0, 288, 32, 256};
  unsigned hi = (j >> 2) & 3;  // 0: r15, 1: r15^16 +128, 2: r15^64, 3: r15^80 +128
  return (r15 ^ x[hi]) + add[j & 3] + ((hi & 1) ? 128 : 0);
}
__device__ __forceinline__ unsigned tri_g(int t, int j) {  // B tile's global offset (bytes), rows of 128 floats
  const int kadd[16] = {0, 0, 8, 8, 0, 0, 8, 8, 16, 16, 24, 24, 16, 16, 24, 24};
  const int nadd[16] = {0, 2, 0, 2, 1, 3, 1, 3, 0, 2, 0, 2, 1, 3, 1, 3};
  return (((t >> 4) & 7) + kadd[j]) * 512 + (4 * (t & 15) + nadd[j]) * 4;
}

template <int G>
__device__ __forceinline__ unsigned goff(int t, int lane, int idx, int j) {
  switch (G) {
  case 0: return idx * 128 + lane * 4;
  case 1: return (idx / 4) * 1024 + (lane >> 4) * 512 + (lane & 15) * 16 + (idx % 4) * 4;
  case 2: return (idx / 8) * 1024 + lane * 32 + (idx % 8) * 4;
  case 3: return lane * 128 + (idx % 32) * 4;
  default: return tri_g(t, j);
  }
}
template <int S>
__device__ __forceinline__ unsigned soff(int t, int lane, int idx, int j) {
  switch (S) {
  case 0: return (idx % 64) * 128 + lane * 4;
  case 1: return (idx / 2 % 32) * 256 + lane * 8 + (idx % 2) * 4;
  case 2: return (idx / 4 % 16) * 512 + lane * 16 + (idx % 4) * 4;
  case 3: return (idx / 8 % 8) * 1024 + lane * 32 + (idx % 8) * 4;
  case 4: return (idx / 32 % 2) * 4096 + lane * 128 + (idx % 32) * 4;
  default: return tri_s(t, j);
  }
}

template <int G, int S, int NC>
__global__ void k_pat(long long *out, const char *src) {
  __shared__ __align__(128) char buf[16384];
  int t = threadIdx.x, lane = t & 31, warp = t >> 5;
  unsigned base = (unsigned)__cvta_generic_to_shared(buf);
  unsigned d[NC];
  const char *s[NC];
#pragma unroll
  for (int j = 0; j < NC; j++) {
    int idx = warp * NC + j;
    d[j] = base + soff<S>(t, lane, idx, j);
    s[j] = src + goff<G>(t, lane, idx, j);
  }
  __syncthreads();
  long long t0 = clock64();
  for (int r = 0; r < ROUNDS; r++) {
#pragma unroll
    for (int j = 0; j < NC; j++) asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(d[j]), "l"(s[j]) : "memory");
    asm volatile("cp.async.wait_all;" ::: "memory");
  }
  long long t1 = clock64();
  if (lane == 0) out[warp] = t1 - t0;
}

// Triton's stage: A's four 16-byte .cg copies (rows of 512 bytes, 16-byte chunks swizzled) and B's sixteen.
__global__ void k_tri(long long *out, const char *a, const char *b) {
  __shared__ __align__(1024) char buf[16384 + 8192];
  int t = threadIdx.x, lane = t & 31, warp = t >> 5;
  unsigned base = (unsigned)__cvta_generic_to_shared(buf);
  unsigned r13 = ((t << 4) & 2032) ^ ((t << 1) & 112);
  const char *ag = a + ((t >> 3) & 15) * 512 + (t & 7) * 16;
  unsigned d[16];
  const char *s[16];
#pragma unroll
  for (int j = 0; j < 16; j++) d[j] = base + 16384 + tri_s(t, j), s[j] = b + tri_g(t, j);
  __syncthreads();
  long long t0 = clock64();
  for (int r = 0; r < ROUNDS; r++) {
#pragma unroll
    for (int j = 0; j < 4; j++)
      asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(base + r13 + j * 2048), "l"(ag + j * 16 * 512) : "memory");
    asm volatile("cp.async.commit_group;" ::: "memory");
#pragma unroll
    for (int j = 0; j < 16; j++) asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(d[j]), "l"(s[j]) : "memory");
    asm volatile("cp.async.commit_group;" ::: "memory");
    asm volatile("cp.async.wait_group 0;" ::: "memory");
    __syncthreads();
  }
  long long t1 = clock64();
  if (lane == 0) out[warp] = t1 - t0;
}

long long *dout;
char *dsrc;

static void report(const char *head, int warps, double per) {
  long long h[32], m = 0, sum = 0;
  cudaError_t e = cudaDeviceSynchronize();
  cudaMemcpy(h, dout, warps * sizeof(long long), cudaMemcpyDeviceToHost);
  for (int i = 0; i < warps; i++) m = h[i] > m ? h[i] : m, sum += h[i];
  printf("%s warps=%d cycles_per_inst=%.2f mean=%.2f %s\n", head, warps, m / per, sum / per / warps,
         e ? cudaGetErrorName(e) : "");
}

template <int G, int S, int NC>
static void row(int warps) {
  k_pat<G, S, NC><<<1, 32 * warps>>>(dout, dsrc);
  k_pat<G, S, NC><<<1, 32 * warps>>>(dout, dsrc);
  char head[64];
  snprintf(head, sizeof head, "ldgsts g=%d s=%d nc=%d", G, S, NC);
  report(head, warps, (double)ROUNDS * NC);
}

int main() {
  cudaMalloc(&dout, 32 * sizeof(long long));
  cudaMalloc(&dsrc, 8 << 20);
  cudaMemset(dsrc, 1, 8 << 20);
  for (int w = 1; w <= 8; w *= 2) {
    if (w == 2) continue;
    row<0, 0, 8>(w); row<0, 1, 8>(w); row<0, 2, 8>(w); row<0, 3, 8>(w); row<0, 4, 8>(w);
    row<1, 0, 8>(w); row<2, 0, 8>(w); row<3, 0, 8>(w);
    row<1, 3, 8>(w); row<3, 4, 8>(w); row<2, 3, 8>(w);
  }
  row<4, 5, 16>(4); row<4, 0, 16>(4); row<0, 5, 16>(4);
  k_tri<<<1, 128>>>(dout, dsrc, dsrc + (1 << 20));
  k_tri<<<1, 128>>>(dout, dsrc, dsrc + (1 << 20));
  report("ldgsts tri", 4, (double)ROUNDS);
  k_tri<<<4, 128>>>(dout, dsrc, dsrc + (1 << 20));
  report("ldgsts tri4blocks", 4, (double)ROUNDS);
  return 0;
}
