// mmaclk: the tensor lesson's mmaAsync kernel (examples/lessons/tensor.cu:
// 64x64 block tiles, 4 warps of 32x32, K in steps of 32, cp.async double
// buffering, ldmatrix + mma.sync m16n8k16) with %clock64 stamps, to see
// where its time goes on the H100 and in warpsim (the same PTX, nvcc's
// `-ptx` of this file, runs in both). Lane 0 of each warp stores, per
// block b and warp w at clk[(b*4 + w)*S + i] (S = kt + 4):
//   i = 0: entry; 1: after the first stage's load is issued;
//   2 + t: after iteration t's cp.async wait and __syncthreads (t < kt);
//   2 + kt: after the loop; 3 + kt: after the C stores; and %smid at
//   clk2[b*4 + w].
// Usage: mmaclk N (a multiple of 64). Prints, per block, the SM, and per
// warp the stamps minus the block's earliest entry; then the mean of the
// blocks' per-stage deltas.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_fp16.h>

#define BM 64
#define BN 64
#define BK 32
#define APAD 8
#define BPAD 8

__device__ __forceinline__ unsigned smemAddr(const void* p) {
  unsigned a; asm("{ .reg .u64 t; cvta.to.shared.u64 t, %1; cvt.u32.u64 %0, t; }" : "=r"(a) : "l"(p)); return a;
}
__device__ __forceinline__ void cpAsync16(void* dst, const void* src) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(smemAddr(dst)), "l"(src) : "memory");
}
__device__ __forceinline__ long long clk() { long long c; asm volatile("mov.u64 %0, %%clock64;" : "=l"(c) :: "memory"); return c; }

__global__ void __launch_bounds__(128) mmaAsyncClk(const half* A, const half* B, float* C, int n, long long* stamps, int* sm) {
  long long t0 = clk();
  __shared__ __align__(16) half As[2][BM][BK + APAD];
  __shared__ __align__(16) half Bs[2][BK][BN + BPAD];
  int tid = threadIdx.x, lane = tid % 32, warp = tid / 32, wm = warp / 2, wn = warp % 2;
  int bm = blockIdx.y*BM, bn = blockIdx.x*BN;
  int kt = n / BK, S = kt + 4;
  long long* st = stamps + ((size_t)(blockIdx.y*gridDim.x + blockIdx.x)*4 + warp)*S;
  if (lane == 0) st[0] = t0;
  float acc[2][4][4];
  for (int i = 0; i < 2; i++) for (int j = 0; j < 4; j++) for (int r = 0; r < 4; r++) acc[i][j][r] = 0.0f;
  auto load = [&](int s, int k0) {
    for (int i = 0; i < 2; i++) {
      int c = tid + i*128;
      int ra = c / 4, ca = (c % 4)*8;
      cpAsync16(&As[s][ra][ca], A + (bm + ra)*n + k0 + ca);
      int rb = c / 8, cb = (c % 8)*8;
      cpAsync16(&Bs[s][rb][cb], B + (k0 + rb)*n + bn + cb);
    }
    asm volatile("cp.async.commit_group;" ::: "memory");
  };
  load(0, 0);
  long long t1 = clk();
  if (lane == 0) st[1] = t1;
  for (int t = 0; t < kt; t++) {
    int s = t & 1;
    if (t + 1 < kt) { load(s ^ 1, (t + 1)*BK); asm volatile("cp.async.wait_group 1;" ::: "memory"); }
    else asm volatile("cp.async.wait_group 0;" ::: "memory");
    __syncthreads();
    long long tt = clk();
    if (lane == 0) st[2 + t] = tt;
    for (int kk = 0; kk < BK; kk += 16) {
      unsigned a[2][4], b[4][2];
      for (int mi = 0; mi < 2; mi++)
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
            : "=r"(a[mi][0]), "=r"(a[mi][1]), "=r"(a[mi][2]), "=r"(a[mi][3])
            : "r"(smemAddr(&As[s][wm*32 + mi*16 + lane % 16][kk + (lane / 16)*8])));
      for (int ni = 0; ni < 4; ni++)
        asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];"
            : "=r"(b[ni][0]), "=r"(b[ni][1])
            : "r"(smemAddr(&Bs[s][kk + lane % 16][wn*32 + ni*8])));
      for (int mi = 0; mi < 2; mi++)
        for (int ni = 0; ni < 4; ni++)
          asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
              : "+f"(acc[mi][ni][0]), "+f"(acc[mi][ni][1]), "+f"(acc[mi][ni][2]), "+f"(acc[mi][ni][3])
              : "r"(a[mi][0]), "r"(a[mi][1]), "r"(a[mi][2]), "r"(a[mi][3]), "r"(b[ni][0]), "r"(b[ni][1]));
    }
    __syncthreads();
  }
  long long t2 = clk();
  if (lane == 0) st[2 + kt] = t2;
  int g = lane / 4, q = (lane % 4)*2;
  for (int mi = 0; mi < 2; mi++)
    for (int ni = 0; ni < 4; ni++) {
      int row = bm + wm*32 + mi*16 + g, col = bn + wn*32 + ni*8 + q;
      C[row*n + col] = acc[mi][ni][0]; C[row*n + col + 1] = acc[mi][ni][1];
      C[(row + 8)*n + col] = acc[mi][ni][2]; C[(row + 8)*n + col + 1] = acc[mi][ni][3];
    }
  long long t3 = clk();
  if (lane == 0) {
    st[3 + kt] = t3;
    unsigned id; asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
    sm[(blockIdx.y*gridDim.x + blockIdx.x)*4 + warp] = id;
  }
}

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("CUDA error %s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

int main(int argc, char** argv) {
  int n = argc > 1 ? atoi(argv[1]) : 256;
  if (n < 64 || n % 64) { printf("N must be a positive multiple of 64\n"); return 2; }
  size_t nn = (size_t)n*n;
  int kt = n / BK, S = kt + 4, blocks = (n/BN)*(n/BM);
  std::vector<half> ha(nn), hb(nn);
  unsigned s = 12345;
  for (size_t i = 0; i < nn; i++) { s ^= s << 13; s ^= s >> 17; s ^= s << 5; ha[i] = __float2half(((int)(s % 2047) - 1023) / 1024.0f); }
  for (size_t i = 0; i < nn; i++) { s ^= s << 13; s ^= s >> 17; s ^= s << 5; hb[i] = __float2half(((int)(s % 2047) - 1023) / 1024.0f); }
  half *da, *db; float* dc; long long* dst; int* dsm;
  CK(cudaMalloc(&da, nn*2)); CK(cudaMalloc(&db, nn*2)); CK(cudaMalloc(&dc, nn*4));
  CK(cudaMalloc(&dst, (size_t)blocks*4*S*8)); CK(cudaMalloc(&dsm, blocks*4*4));
  CK(cudaMemcpy(da, ha.data(), nn*2, cudaMemcpyHostToDevice)); CK(cudaMemcpy(db, hb.data(), nn*2, cudaMemcpyHostToDevice));
  dim3 grid(n/BN, n/BM);
  for (int rep = 0; rep < 3; rep++) { mmaAsyncClk<<<grid, 128>>>(da, db, dc, n, dst, dsm); CK(cudaGetLastError()); CK(cudaDeviceSynchronize()); }
  std::vector<long long> st((size_t)blocks*4*S); std::vector<int> sm(blocks*4);
  CK(cudaMemcpy(st.data(), dst, st.size()*8, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(sm.data(), dsm, sm.size()*4, cudaMemcpyDeviceToHost));
  std::vector<double> mean(S, 0.0);
  for (int b = 0; b < blocks; b++) {
    long long base = st[(size_t)b*4*S];
    for (int w = 1; w < 4; w++) if (st[((size_t)b*4 + w)*S] < base) base = st[((size_t)b*4 + w)*S];
    for (int w = 0; w < 4; w++) {
      printf("mmaclk N=%d block=%d warp=%d sm=%d", n, b, w, sm[b*4 + w]);
      for (int i = 0; i < S; i++) { long long v = st[((size_t)b*4 + w)*S + i] - base; printf(" %lld", v); mean[i] += (double)v / (blocks*4); }
      printf("\n");
    }
  }
  printf("mmaclk N=%d mean", n);
  for (int i = 0; i < S; i++) printf(" %.1f", mean[i]);
  printf("\n");
  return 0;
}
