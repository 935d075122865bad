// tf32 and bf16 wmma k steps against f16's, a study family of our own for
// issue 19 (the held-out tf32 and bf16 wmma GEMMs run 24-37% too fast in
// the model). Not shaped after any held-out program.
//
//  gv_T_LL_wW: C = A*B, 256 x 256 x 256, every warp one 16x16 tile of C,
//              its fragments loaded from global memory at each k step
//              (A then B, then the MMA), W warps a block.
//  sv_T_LL_wW: the same, A and B staged through shared memory 32 k a step
//              (a block's 16-row A panel and its W 16-column B panels,
//              copied as stored in 16-byte pieces, rows padded by 16
//              bytes), fragments loaded from shared memory, two barriers
//              a stage.
// T: f16 (the reference), bf16, tf32 (fragments converted in place with
// __float_to_tf32), tf32nc (tf32 fragments not converted). LL: the storage
// of A then B, r row-major, c column-major. Each launch prints a hash of C
// (stdout) and each warp's clock64 cycles from before its first k step to
// after its last, as the mean cycles a k step over the grid's warps
// (stderr).
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

enum { F16, BF16, TF32, TF32NC };
template <int T> struct Tr;
template <> struct Tr<F16> { typedef half in_t; typedef half frag_t; enum { K = 16 }; };
template <> struct Tr<BF16> { typedef __nv_bfloat16 in_t; typedef __nv_bfloat16 frag_t; enum { K = 16 }; };
template <> struct Tr<TF32> { typedef float in_t; typedef wmma::precision::tf32 frag_t; enum { K = 8 }; };
template <> struct Tr<TF32NC> { typedef float in_t; typedef wmma::precision::tf32 frag_t; enum { K = 8 }; };

template <bool C> struct Lay { typedef wmma::row_major t; };
template <> struct Lay<true> { typedef wmma::col_major t; };

template <int T, class F> __device__ __forceinline__ void totf32(F& f) {
  if constexpr (T == TF32) {
#pragma unroll
    for (int i = 0; i < f.num_elements; i++) f.x[i] = wmma::__float_to_tf32(f.x[i]);
  }
}

// A (m, k): row-major A[m*n + k], column-major A[k*n + m]; B (k, j):
// row-major B[k*n + j], column-major B[j*n + k].
template <int T, bool AC, bool BC>
__global__ void gv(const typename Tr<T>::in_t* A, const typename Tr<T>::in_t* B, float* C, long long* cyc, int n) {
  typedef Tr<T> R;
  int w = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  int tm = w / (n / 16) * 16, tn = w % (n / 16) * 16;
  wmma::fragment<wmma::matrix_a, 16, 16, R::K, typename R::frag_t, typename Lay<AC>::t> a;
  wmma::fragment<wmma::matrix_b, 16, 16, R::K, typename R::frag_t, typename Lay<BC>::t> b;
  wmma::fragment<wmma::accumulator, 16, 16, R::K, float> c;
  wmma::fill_fragment(c, 0);
  long long t0 = clock64();
  for (int k = 0; k < n; k += R::K) {
    wmma::load_matrix_sync(a, AC ? A + (size_t)k * n + tm : A + (size_t)tm * n + k, n);
    wmma::load_matrix_sync(b, BC ? B + (size_t)tn * n + k : B + (size_t)k * n + tn, n);
    totf32<T>(a);
    totf32<T>(b);
    wmma::mma_sync(c, a, b, c);
  }
  long long t1 = clock64();
  wmma::store_matrix_sync(C + (size_t)tm * n + tn, c, n, wmma::mem_row_major);
  if (threadIdx.x % 32 == 0) cyc[w] = t1 - t0;
}

constexpr int BK = 32;
// copyTile copies ROWS x COLS elements (rows n apart) to shared memory
// (rows L apart) in 16-byte pieces, every piece of a thread in flight
// together.
template <class E, int ROWS, int COLS, int W>
__device__ __forceinline__ void copyTile(E* s, int L, const E* g, int n) {
  constexpr int V = 16 / sizeof(E), PR = COLS / V, PIECES = ROWS * PR, T = 32 * W;
#pragma unroll
  for (int r = 0; r < (PIECES + T - 1) / T; r++) {
    int i = threadIdx.x + r * T;
    if (PIECES % T == 0 || i < PIECES) *(int4*)&s[i / PR * L + i % PR * V] = *(const int4*)&g[(size_t)(i / PR) * n + i % PR * V];
  }
}
template <int T, bool AC, bool BC, int W>
__global__ void sv(const typename Tr<T>::in_t* A, const typename Tr<T>::in_t* B, float* C, long long* cyc, int n) {
  typedef Tr<T> R;
  typedef typename Tr<T>::in_t E;
  constexpr int P = 16 / sizeof(E), BN = 16 * W;
  constexpr int LA = AC ? 16 + P : BK + P, LB = BC ? BK + P : BN + P;
  __shared__ __align__(128) E sA[AC ? BK * LA : 16 * LA];
  __shared__ __align__(128) E sB[BC ? BN * LB : BK * LB];
  const int warp = threadIdx.x / 32, bm = blockIdx.y * 16, bn = blockIdx.x * BN;
  wmma::fragment<wmma::matrix_a, 16, 16, R::K, typename R::frag_t, typename Lay<AC>::t> a;
  wmma::fragment<wmma::matrix_b, 16, 16, R::K, typename R::frag_t, typename Lay<BC>::t> b;
  wmma::fragment<wmma::accumulator, 16, 16, R::K, float> c;
  wmma::fill_fragment(c, 0);
  long long t0 = clock64();
  for (int k0 = 0; k0 < n; k0 += BK) {
    if (AC) copyTile<E, BK, 16, W>(sA, LA, A + (size_t)k0 * n + bm, n);
    else copyTile<E, 16, BK, W>(sA, LA, A + (size_t)bm * n + k0, n);
    if (BC) copyTile<E, BN, BK, W>(sB, LB, B + (size_t)bn * n + k0, n);
    else copyTile<E, BK, BN, W>(sB, LB, B + (size_t)k0 * n + bn, n);
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < BK; kk += R::K) {
      wmma::load_matrix_sync(a, AC ? &sA[kk * LA] : &sA[kk], LA);
      wmma::load_matrix_sync(b, BC ? &sB[16 * warp * LB + kk] : &sB[kk * LB + 16 * warp], LB);
      totf32<T>(a);
      totf32<T>(b);
      wmma::mma_sync(c, a, b, c);
    }
    __syncthreads();
  }
  long long t1 = clock64();
  wmma::store_matrix_sync(C + (size_t)bm * n + bn + 16 * warp, c, n, wmma::mem_row_major);
  if (threadIdx.x % 32 == 0) cyc[(blockIdx.y * gridDim.x + blockIdx.x) * W + warp] = t1 - t0;
}

static const char* TN[] = {"f16", "bf16", "tf32", "tf32nc"};
static const char* LN[] = {"rr", "rc", "cr", "cc"};
static int launch_no = 0;

static unsigned hashd(const float* d, size_t cnt) {
  float* h = (float*)malloc(cnt * sizeof(float));
  CK(cudaMemcpy(h, d, cnt * sizeof(float), cudaMemcpyDeviceToHost));
  unsigned x = 2166136261u;
  for (size_t i = 0; i < cnt; i++) { unsigned u; memcpy(&u, &h[i], 4); x = (x ^ u) * 16777619u; }
  free(h);
  return x;
}

template <int T, bool AC, bool BC> static void run_layout(const void* dA, const void* dB, float* dC, long long* dY, int n) {
  typedef typename Tr<T>::in_t E;
  const E *A = (const E*)dA, *B = (const E*)dB;
  const int L = AC * 2 + BC, tiles = (n / 16) * (n / 16), steps = n / Tr<T>::K;
  char name[64];
  auto done = [&](int warps) {
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    printf("launch %d %s hash %08x\n", launch_no++, name, hashd(dC, (size_t)n * n));
    long long* y = (long long*)malloc(warps * sizeof(long long));
    CK(cudaMemcpy(y, dY, warps * sizeof(long long), cudaMemcpyDeviceToHost));
    double s = 0, mx = 0;
    for (int i = 0; i < warps; i++) { s += (double)y[i]; if (y[i] > mx) mx = (double)y[i]; }
    fprintf(stderr, "%s cycles_per_step mean %.1f max %.1f steps %d warps %d\n", name, s / warps / steps, mx / steps, steps, warps);
    free(y);
  };
  snprintf(name, sizeof name, "gv_%s_%s_w1", TN[T], LN[L]); gv<T, AC, BC><<<tiles, 32>>>(A, B, dC, dY, n); done(tiles);
  snprintf(name, sizeof name, "gv_%s_%s_w4", TN[T], LN[L]); gv<T, AC, BC><<<tiles / 4, 128>>>(A, B, dC, dY, n); done(tiles);
  if (T == TF32NC) return;
  snprintf(name, sizeof name, "sv_%s_%s_w1", TN[T], LN[L]); sv<T, AC, BC, 1><<<dim3(n / 16, n / 16), 32>>>(A, B, dC, dY, n); done(tiles);
  snprintf(name, sizeof name, "sv_%s_%s_w4", TN[T], LN[L]); sv<T, AC, BC, 4><<<dim3(n / 64, n / 16), 128>>>(A, B, dC, dY, n); done(tiles);
}

template <int T> static void run_type(int n) {
  typedef typename Tr<T>::in_t E;
  size_t cnt = (size_t)n * n;
  E* h = (E*)malloc(cnt * sizeof(E) * 2);
  srand(23 + T);
  for (size_t i = 0; i < 2 * cnt; i++) {
    int v = rand() % 7 - 3;
    if constexpr (T == F16) h[i] = __float2half((float)v * 0.25f);
    else if constexpr (T == BF16) h[i] = __float2bfloat16((float)v * 0.5f);
    else h[i] = (float)v * 0.125f + (float)(rand() % 9) / 1024.0f;
  }
  E *dA, *dB; float* dC; long long* dY;
  CK(cudaMalloc(&dA, cnt * sizeof(E)));
  CK(cudaMalloc(&dB, cnt * sizeof(E)));
  CK(cudaMalloc(&dC, cnt * sizeof(float)));
  CK(cudaMalloc(&dY, cnt / 256 * sizeof(long long)));
  CK(cudaMemcpy(dA, h, cnt * sizeof(E), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dB, h + cnt, cnt * sizeof(E), cudaMemcpyHostToDevice));
  run_layout<T, false, false>(dA, dB, dC, dY, n);
  run_layout<T, false, true>(dA, dB, dC, dY, n);
  run_layout<T, true, false>(dA, dB, dC, dY, n);
  run_layout<T, true, true>(dA, dB, dC, dY, n);
  CK(cudaFree(dA)); CK(cudaFree(dB)); CK(cudaFree(dC)); CK(cudaFree(dY));
  free(h);
}

int main() {
  run_type<F16>(256);
  run_type<BF16>(256);
  run_type<TF32>(256);
  run_type<TF32NC>(256);
  return 0;
}
