// Tiled wmma GEMMs and wmma.mma chains per type (f16, bf16, tf32, s8), a
// family of study kernels for issue 19 (why the model runs tiled wmma GEMMs
// too fast). Not shaped after any program of ../SPLIT.md's held-out half.
//
//  gg_T_nN_wW: C = A*B, N x N x N, A and B row-major in global memory, every
//              warp one 16x16 tile of C, fragments loaded from global memory
//              at each k step, W warps a block.
//  gs_T_nN_wW: the same product through shared memory: a block tile of
//              (32*rows) x (32*cols) (W = 1: 1x1 warps, 4: 2x2, 8: 4x2), each
//              warp 2x2 accumulators (32x32), K staged 32 elements at a time
//              by 16-byte copies (rows padded by 16 bytes), two barriers a step.
//  ch_T_dep_G / ch_T_ind_G: 256 iterations of wmma.mma on fragments loaded
//              once: one accumulator (each mma waits for the last) or four
//              independent ones; G = w1 (one warp) or w16 (one block of 16
//              warps: four a sub-partition, the pipe's throughput).
// Every launch prints a hash of its result, so the functional answer is
// checked with the time.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cstring>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <mma.h>
using namespace nvcuda;

#define CK(val) check((val), #val, __LINE__)
static void check(cudaError_t r, const char* f, int line) {
  if (r) { fprintf(stderr, "CUDA error at line %d: %s (%s)\n", line, cudaGetErrorName(r), f); exit(1); }
}

enum { F16, BF16, TF32, S8 };
template <int T> struct Tr;
template <> struct Tr<F16> { typedef half in_t; typedef half frag_t; typedef float acc_t; enum { K = 16 }; };
template <> struct Tr<BF16> { typedef __nv_bfloat16 in_t; typedef __nv_bfloat16 frag_t; typedef float acc_t; enum { K = 16 }; };
template <> struct Tr<TF32> { typedef float in_t; typedef wmma::precision::tf32 frag_t; typedef float acc_t; enum { K = 8 }; };
template <> struct Tr<S8> { typedef signed char in_t; typedef signed char frag_t; typedef int acc_t; enum { K = 16 }; };

template <int T, class F> __device__ __forceinline__ void totf32(F& f) {
  if constexpr (T == TF32) {
#pragma unroll
    for (int i = 0; i < f.num_elements; i++) f.x[i] = wmma::__float_to_tf32(f.x[i]);
  }
}

template <int T>
__global__ void gg(const typename Tr<T>::in_t* A, const typename Tr<T>::in_t* B, typename Tr<T>::acc_t* C, int n) {
  typedef Tr<T> R;
  int tile = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  int tm = tile / (n / 16) * 16, tn = tile % (n / 16) * 16;
  wmma::fragment<wmma::matrix_a, 16, 16, R::K, typename R::frag_t, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, R::K, typename R::frag_t, wmma::row_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, R::K, typename R::acc_t> c;
  wmma::fill_fragment(c, 0);
  for (int k = 0; k < n; k += R::K) {
    wmma::load_matrix_sync(a, A + (size_t)tm * n + k, n);
    wmma::load_matrix_sync(b, B + (size_t)k * n + tn, n);
    totf32<T>(a);
    totf32<T>(b);
    wmma::mma_sync(c, a, b, c);
  }
  wmma::store_matrix_sync(C + (size_t)tm * n + tn, c, n, wmma::mem_row_major);
}

constexpr int BK = 32;
template <int T, int WR, int WC>
__global__ void gs(const typename Tr<T>::in_t* A, const typename Tr<T>::in_t* B, typename Tr<T>::acc_t* C, int n) {
  typedef Tr<T> R;
  typedef typename R::in_t E;
  constexpr int BM = 32 * WR, BN = 32 * WC, PAD = 16 / sizeof(E);
  constexpr int LA = BK + PAD, LB = BN + PAD;
  __shared__ __align__(128) E sA[BM * LA];
  __shared__ __align__(128) E sB[BK * LB];
  const int warp = threadIdx.x / 32, wr = warp / WC * 32, wc = warp % WC * 32;
  const int bm = blockIdx.y * BM, bn = blockIdx.x * BN;
  wmma::fragment<wmma::accumulator, 16, 16, R::K, typename R::acc_t> c[2][2];
#pragma unroll
  for (int i = 0; i < 2; i++)
#pragma unroll
    for (int j = 0; j < 2; j++) wmma::fill_fragment(c[i][j], 0);
  constexpr int VA = BK * sizeof(E) / 16, VB = BN * sizeof(E) / 16;  // 16-byte pieces a row
  for (int k0 = 0; k0 < n; k0 += BK) {
    for (int i = threadIdx.x; i < BM * VA; i += blockDim.x) {
      int r = i / VA, v = i % VA;
      *(int4*)&sA[r * LA + v * (16 / sizeof(E))] = *(const int4*)&A[(size_t)(bm + r) * n + k0 + v * (16 / sizeof(E))];
    }
    for (int i = threadIdx.x; i < BK * VB; i += blockDim.x) {
      int r = i / VB, v = i % VB;
      *(int4*)&sB[r * LB + v * (16 / sizeof(E))] = *(const int4*)&B[(size_t)(k0 + r) * n + bn + v * (16 / sizeof(E))];
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < BK; kk += R::K) {
      wmma::fragment<wmma::matrix_a, 16, 16, R::K, typename R::frag_t, wmma::row_major> a[2];
      wmma::fragment<wmma::matrix_b, 16, 16, R::K, typename R::frag_t, wmma::row_major> b[2];
#pragma unroll
      for (int i = 0; i < 2; i++) {
        wmma::load_matrix_sync(a[i], &sA[(wr + 16 * i) * LA + kk], LA);
        wmma::load_matrix_sync(b[i], &sB[kk * LB + wc + 16 * i], LB);
        totf32<T>(a[i]);
        totf32<T>(b[i]);
      }
#pragma unroll
      for (int i = 0; i < 2; i++)
#pragma unroll
        for (int j = 0; j < 2; j++) wmma::mma_sync(c[i][j], a[i], b[j], c[i][j]);
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < 2; i++)
#pragma unroll
    for (int j = 0; j < 2; j++)
      wmma::store_matrix_sync(C + (size_t)(bm + wr + 16 * i) * n + bn + wc + 16 * j, c[i][j], n, wmma::mem_row_major);
}

constexpr int CHAIN = 256;
template <int T, int ACCS>
__global__ void ch(const typename Tr<T>::in_t* A, const typename Tr<T>::in_t* B, typename Tr<T>::acc_t* C) {
  typedef Tr<T> R;
  wmma::fragment<wmma::matrix_a, 16, 16, R::K, typename R::frag_t, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, R::K, typename R::frag_t, wmma::row_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, R::K, typename R::acc_t> c[ACCS];
  int w = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  wmma::load_matrix_sync(a, A + (w % 8) * 16, 256);
  wmma::load_matrix_sync(b, B + (w % 8) * 16, 256);
  totf32<T>(a);
  totf32<T>(b);
#pragma unroll
  for (int j = 0; j < ACCS; j++) wmma::fill_fragment(c[j], 0);
  for (int i = 0; i < CHAIN; i++) {
#pragma unroll
    for (int j = 0; j < ACCS; j++) wmma::mma_sync(c[j], a, b, c[j]);
  }
#pragma unroll
  for (int j = 1; j < ACCS; j++)
    for (int e = 0; e < c[0].num_elements; e++) c[0].x[e] += c[j].x[e];
  wmma::store_matrix_sync(C + (size_t)w * 256, c[0], 16, wmma::mem_row_major);
}

static const char* TN[] = {"f16", "bf16", "tf32", "s8"};
static int launch_no = 0;

template <class C> static unsigned hashd(const C* d, size_t cnt) {
  C* h = (C*)malloc(cnt * sizeof(C));
  CK(cudaMemcpy(h, d, cnt * sizeof(C), cudaMemcpyDeviceToHost));
  unsigned x = 2166136261u;
  for (size_t i = 0; i < cnt; i++) { unsigned u; memcpy(&u, &h[i], 4); x = (x ^ u) * 16777619u; }
  free(h);
  return x;
}

template <int T> static void run_type(int nmax) {
  typedef typename Tr<T>::in_t E;
  typedef typename Tr<T>::acc_t Acc;
  size_t cnt = (size_t)nmax * nmax;
  E* h = (E*)malloc(cnt * sizeof(E) * 2);
  srand(17 + T);
  for (size_t i = 0; i < 2 * cnt; i++) {
    int v = rand() % 7 - 3;
    if constexpr (T == F16) h[i] = __float2half((float)v * 0.25f);
    else if constexpr (T == BF16) h[i] = __float2bfloat16((float)v * 0.5f);
    else if constexpr (T == TF32) h[i] = (float)v * 0.125f + (float)(rand() % 9) / 1024.0f;
    else h[i] = (signed char)v;
  }
  E *dA, *dB; Acc* dC;
  CK(cudaMalloc(&dA, cnt * sizeof(E)));
  CK(cudaMalloc(&dB, cnt * sizeof(E)));
  size_t ccnt = cnt;
  CK(cudaMalloc(&dC, ccnt * sizeof(Acc)));
  CK(cudaMemcpy(dA, h, cnt * sizeof(E), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dB, h + cnt, cnt * sizeof(E), cudaMemcpyHostToDevice));
  auto done = [&](const char* kind, size_t outcnt) {
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    printf("launch %d %s hash %08x\n", launch_no++, kind, hashd(dC, outcnt));
  };
  char name[64];
  for (int n = 128; n <= nmax; n *= 2) {
    int tiles = (n / 16) * (n / 16);
    snprintf(name, sizeof name, "gg_%s_n%d_w1", TN[T], n); gg<T><<<tiles, 32>>>(dA, dB, dC, n); done(name, (size_t)n * n);
    snprintf(name, sizeof name, "gg_%s_n%d_w4", TN[T], n); gg<T><<<tiles / 4, 128>>>(dA, dB, dC, n); done(name, (size_t)n * n);
    snprintf(name, sizeof name, "gg_%s_n%d_w8", TN[T], n); gg<T><<<tiles / 8, 256>>>(dA, dB, dC, n); done(name, (size_t)n * n);
    snprintf(name, sizeof name, "gs_%s_n%d_w1", TN[T], n); gs<T, 1, 1><<<dim3(n / 32, n / 32), 32>>>(dA, dB, dC, n); done(name, (size_t)n * n);
    snprintf(name, sizeof name, "gs_%s_n%d_w4", TN[T], n); gs<T, 2, 2><<<dim3(n / 64, n / 64), 128>>>(dA, dB, dC, n); done(name, (size_t)n * n);
    snprintf(name, sizeof name, "gs_%s_n%d_w8", TN[T], n); gs<T, 4, 2><<<dim3(n / 64, n / 128), 256>>>(dA, dB, dC, n); done(name, (size_t)n * n);
  }
  snprintf(name, sizeof name, "ch_%s_dep_w1", TN[T]); ch<T, 1><<<1, 32>>>(dA, dB, dC); done(name, 256);
  snprintf(name, sizeof name, "ch_%s_ind_w1", TN[T]); ch<T, 4><<<1, 32>>>(dA, dB, dC); done(name, 256);
  snprintf(name, sizeof name, "ch_%s_dep_w16", TN[T]); ch<T, 1><<<1, 512>>>(dA, dB, dC); done(name, 16 * 256);
  snprintf(name, sizeof name, "ch_%s_ind_w16", TN[T]); ch<T, 4><<<1, 512>>>(dA, dB, dC); done(name, 16 * 256);
  CK(cudaFree(dA)); CK(cudaFree(dB)); CK(cudaFree(dC));
  free(h);
}

int main(int argc, char** argv) {
  int nmax = argc > 1 ? atoi(argv[1]) : 256;
  run_type<F16>(nmax);
  run_type<BF16>(nmax);
  run_type<TF32>(nmax);
  run_type<S8>(nmax);
  return 0;
}
