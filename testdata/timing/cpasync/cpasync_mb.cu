// cpasync_mb.cu: what a warp's cp.async costs on the H100 when its lanes read 4, 8 or 16 bytes each from one
// line (coalesced) or from lines of their own (stride 128 bytes), .ca and .cg, against ld.global of the same
// pattern: clock64 around 64 rounds of 8 copies (each round then cp.async.wait_all) by W warps of one block;
// prints "<op> size=<s> stride=<b> warps=<w> cycles_per_inst=<x>" (the slowest warp's cycles per instruction).
#include <cstdio>
#define ROUNDS 64

template <int SIZE, int CG, int STRIDE>
__global__ void k_cp(long long *out, const char *src) {
  __shared__ __align__(16) char buf[8 * 32 * 16 * 8];
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const char *p = src + (size_t)warp * 32 * STRIDE * 8 + lane * STRIDE;
  unsigned dst = (unsigned)__cvta_generic_to_shared(buf + (warp * 32 + lane) * 16);
  __syncthreads();
  long long t0 = clock64();
  for (int r = 0; r < ROUNDS; r++) {
#pragma unroll
    for (int i = 0; i < 8; i++) {
      const char *s = p + i * 32 * STRIDE;
      if (CG) asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst), "l"(s) : "memory");
      else if (SIZE == 4) asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(dst), "l"(s) : "memory");
      else if (SIZE == 8) asm volatile("cp.async.ca.shared.global [%0], [%1], 8;" ::"r"(dst), "l"(s) : "memory");
      else asm volatile("cp.async.ca.shared.global [%0], [%1], 16;" ::"r"(dst), "l"(s) : "memory");
    }
    asm volatile("cp.async.wait_all;" ::: "memory");
  }
  long long t1 = clock64();
  if (lane == 0) out[warp] = t1 - t0;
}

template <int STRIDE>
__global__ void k_ld(long long *out, const char *src, int *sink) {
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const char *p = src + (size_t)warp * 32 * STRIDE * 8 + lane * STRIDE;
  int acc = 0;
  __syncthreads();
  long long t0 = clock64();
  for (int r = 0; r < ROUNDS; r++) {
    int v[8];
#pragma unroll
    for (int i = 0; i < 8; i++) asm volatile("ld.global.ca.u32 %0, [%1];" : "=r"(v[i]) : "l"(p + i * 32 * STRIDE) : "memory");
#pragma unroll
    for (int i = 0; i < 8; i++) acc += v[i];
  }
  long long t1 = clock64();
  if (lane == 0) out[warp] = t1 - t0;
  if (acc == 0x12345) *sink = acc;
}

long long *dout;
char *dsrc;
int *dsink;

static double worst(int warps) {
  long long h[32], m = 0;
  cudaMemcpy(h, dout, warps * sizeof(long long), cudaMemcpyDeviceToHost);
  for (int i = 0; i < warps; i++) m = h[i] > m ? h[i] : m;
  return (double)m / (ROUNDS * 8);
}

template <int SIZE, int CG, int STRIDE>
static void cp_row(int warps) {
  k_cp<SIZE, CG, STRIDE><<<1, 32 * warps>>>(dout, dsrc);
  k_cp<SIZE, CG, STRIDE><<<1, 32 * warps>>>(dout, dsrc);
  cudaError_t e = cudaDeviceSynchronize();
  printf("cp.async.%s size=%d stride=%d warps=%d cycles_per_inst=%.2f %s\n", CG ? "cg" : "ca", SIZE, STRIDE, warps,
         worst(warps), e ? cudaGetErrorName(e) : "");
}

template <int STRIDE>
static void ld_row(int warps) {
  k_ld<STRIDE><<<1, 32 * warps>>>(dout, dsrc, dsink);
  k_ld<STRIDE><<<1, 32 * warps>>>(dout, dsrc, dsink);
  cudaError_t e = cudaDeviceSynchronize();
  printf("ld.global.ca size=4 stride=%d warps=%d cycles_per_inst=%.2f %s\n", STRIDE, warps, worst(warps),
         e ? cudaGetErrorName(e) : "");
}

int main() {
  cudaMalloc(&dout, 32 * sizeof(long long));
  cudaMalloc(&dsrc, 8 << 20);
  cudaMalloc(&dsink, 4);
  cudaMemset(dsrc, 1, 8 << 20);
  for (int w = 1; w <= 8; w *= 8) {
    cp_row<4, 0, 4>(w);
    cp_row<4, 0, 128>(w);
    cp_row<8, 0, 8>(w);
    cp_row<8, 0, 128>(w);
    cp_row<16, 0, 16>(w);
    cp_row<16, 0, 128>(w);
    cp_row<16, 1, 16>(w);
    cp_row<16, 1, 128>(w);
    ld_row<4>(w);
    ld_row<128>(w);
  }
  return 0;
}
