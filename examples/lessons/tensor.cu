// Lesson: tensor cores. The same GEMM C = A*B (f16 inputs, f32 accumulate,
// A row-major MxK, B row-major KxN, square N) three ways: a tiled SGEMM on the
// f32 pipe, a wmma kernel (16x16x16 fragments, straight from global memory) and
// an mma.sync kernel fed by ldmatrix from shared memory that cp.async fills,
// double-buffered. Usage: tensor [N [REPS]] (N a multiple of 64; default 512, 10 timed repetitions).
#include "common.h"
#include <cuda_fp16.h>
#include <mma.h>
using namespace nvcuda;

// sgemmTiled: 16x16 shared-memory tiles, one output per thread, f32 FMAs.
__global__ void sgemmTiled(const float* A, const float* B, float* C, int n) {
  __shared__ float As[16][16]; __shared__ float Bs[16][16];
  int tx = threadIdx.x, ty = threadIdx.y, row = blockIdx.y*16 + ty, col = blockIdx.x*16 + tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < n; k0 += 16) {
    As[ty][tx] = A[row*n + k0 + tx]; Bs[ty][tx] = B[(k0 + ty)*n + col];
    __syncthreads();
    for (int k = 0; k < 16; ++k) acc += As[ty][k]*Bs[k][tx];
    __syncthreads();
  }
  C[row*n + col] = acc;
}

// wmmaGemm: 4 warps per block, each one 16x16 tile of C, fragments loaded from global memory.
__global__ void wmmaGemm(const half* A, const half* B, float* C, int n) {
  int warp = threadIdx.x / 32;
  int tm = blockIdx.y*32 + (warp/2)*16, tn = blockIdx.x*32 + (warp%2)*16;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::fill_fragment(fc, 0.0f);
  for (int k = 0; k < n; k += 16) {
    wmma::load_matrix_sync(fa, A + tm*n + k, n);
    wmma::load_matrix_sync(fb, B + k*n + tn, n);
    wmma::mma_sync(fc, fa, fb, fc);
  }
  wmma::store_matrix_sync(C + tm*n + tn, fc, n, wmma::mem_row_major);
}

__device__ __forceinline__ unsigned smemAddr(const void* p) {
  unsigned a; asm("{ .reg .u64 t; cvta.to.shared.u64 t, %1; cvt.u32.u64 %0, t; }" : "=r"(a) : "l"(p)); return a;
}
__device__ __forceinline__ void cpAsync16(void* dst, const void* src) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(smemAddr(dst)), "l"(src) : "memory");
}

// mmaAsync: 64x64 block tiles, 4 warps of 32x32, K in steps of 32; cp.async
// fills one shared-memory stage while the tensor cores work on the other.
#define BM 64
#define BN 64
#define BK 32
#define APAD 8
#define BPAD 8
__global__ void __launch_bounds__(128) mmaAsync(const half* A, const half* B, float* C, int n) {
  __shared__ __align__(16) half As[2][BM][BK + APAD];
  __shared__ __align__(16) half Bs[2][BK][BN + BPAD];
  int tid = threadIdx.x, lane = tid % 32, warp = tid / 32, wm = warp / 2, wn = warp % 2;
  int bm = blockIdx.y*BM, bn = blockIdx.x*BN;
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
  int kt = n / BK;
  load(0, 0);
  for (int t = 0; t < kt; t++) {
    int s = t & 1;
    if (t + 1 < kt) { load(s ^ 1, (t + 1)*BK); asm volatile("cp.async.wait_group 1;" ::: "memory"); }
    else asm volatile("cp.async.wait_group 0;" ::: "memory");
    __syncthreads();
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
  int g = lane / 4, q = (lane % 4)*2;
  for (int mi = 0; mi < 2; mi++)
    for (int ni = 0; ni < 4; ni++) {
      int row = bm + wm*32 + mi*16 + g, col = bn + wn*32 + ni*8 + q;
      C[row*n + col] = acc[mi][ni][0]; C[row*n + col + 1] = acc[mi][ni][1];
      C[(row + 8)*n + col] = acc[mi][ni][2]; C[(row + 8)*n + col + 1] = acc[mi][ni][3];
    }
}

int main(int argc, char** argv) {
  int n = 512; if (argc > 1) n = atoi(argv[1]);
  if (n < 64 || n % 64) { fprintf(stderr, "N must be a positive multiple of 64\n"); return 2; }
  size_t nn = (size_t)n*n;
  // Inputs k/1024 with |k| < 1024: exact in f16 and f32, so all three kernels multiply the same numbers.
  std::vector<float> fa(nn), fb(nn), hc(nn); std::vector<half> ha(nn), hb(nn); uint32_t s = 12345;
  for (size_t i = 0; i < nn; i++) { fa[i] = ((int)(xs32(s) % 2047) - 1023) / 1024.0f; ha[i] = __float2half(fa[i]); }
  for (size_t i = 0; i < nn; i++) { fb[i] = ((int)(xs32(s) % 2047) - 1023) / 1024.0f; hb[i] = __float2half(fb[i]); }
  float *dfa, *dfb, *dc; half *dha, *dhb;
  CK(cudaMalloc(&dfa, nn*4)); CK(cudaMalloc(&dfb, nn*4)); CK(cudaMalloc(&dc, nn*4));
  CK(cudaMalloc(&dha, nn*2)); CK(cudaMalloc(&dhb, nn*2));
  CK(cudaMemcpy(dfa, fa.data(), nn*4, cudaMemcpyHostToDevice)); CK(cudaMemcpy(dfb, fb.data(), nn*4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dha, ha.data(), nn*2, cudaMemcpyHostToDevice)); CK(cudaMemcpy(dhb, hb.data(), nn*2, cudaMemcpyHostToDevice));
  // CPU reference in f64 over every output.
  std::vector<double> ref(nn, 0.0);
  for (int i = 0; i < n; i++) for (int k = 0; k < n; k++) { double a = fa[(size_t)i*n + k]; for (int j = 0; j < n; j++) ref[(size_t)i*n + j] += a*fb[(size_t)k*n + j]; }
  auto check = [&](const char* tag, float ms) {
    CK(cudaMemcpy(hc.data(), dc, nn*4, cudaMemcpyDeviceToHost)); double maxerr = 0;
    for (size_t i = 0; i < nn; i++) { double e = fabs(ref[i] - hc[i]); if (!(e <= maxerr)) maxerr = e; }
    printf("%-10s N=%d time %.4f ms  %.1f GFLOP/s  maxabs_err_vs_fp64 %.3g %s\n", tag, n, ms, 2.0*n*n*(double)n/ms/1e6, maxerr, maxerr < 1e-3 ? "OK" : "MISMATCH");
    CK(cudaMemset(dc, 0, nn*4));
  };
  int reps = 10; if (argc > 2) reps = atoi(argv[2]);
  { dim3 grid(n/16, n/16), block(16, 16);
    sgemmTiled<<<grid, block>>>(dfa, dfb, dc, n); CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    Timer t; t.start(); for (int r = 0; r < reps; r++) sgemmTiled<<<grid, block>>>(dfa, dfb, dc, n); check("sgemm", t.stop()/reps); }
  { dim3 grid(n/32, n/32);
    wmmaGemm<<<grid, 128>>>(dha, dhb, dc, n); CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    Timer t; t.start(); for (int r = 0; r < reps; r++) wmmaGemm<<<grid, 128>>>(dha, dhb, dc, n); check("wmma", t.stop()/reps); }
  { dim3 grid(n/BN, n/BM);
    mmaAsync<<<grid, 128>>>(dha, dhb, dc, n); CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    Timer t; t.start(); for (int r = 0; r < reps; r++) mmaAsync<<<grid, 128>>>(dha, dhb, dc, n); check("mma.async", t.stop()/reps); }
  return 0;
}
