// Tensor-core chains and fragment loads per type, a study family of our own
// for issue 19 (nineteenth round): the straight-code IMMA chains the model
// runs ~40% slow (wmmagemm's ch_s8), bf16 wmma steps against f16's, and the
// forms ptxas gives a converted tf32 k step with A column-major and B
// row-major. Not shaped after any held-out program.
//
//  ch_T_dN_sS / ch_T_dN_lS: one warp (w1) or 16 warps (w16, one block), T =
//              s8, u8, f16, bf16 (m16n16k16): fragments loaded once, then N
//              steps of wmma.mma into one accumulator (d1: each waits for
//              the last) or four (d4: four B fragments, so that ptxas
//              cannot merge the chains); s: straight code (fully unrolled),
//              l: a loop of one step an iteration (#pragma unroll 1).
//  sl_T_LL_wW: W warps a block, each a chain of 64 k steps that load A's
//              and B's fragments from shared memory (a 16 x 64 panel each,
//              staged once) and MMA into one accumulator; T = f16, bf16.
//  gl_T_LL_wW: the same with the fragments read from global memory (a
//              16 x 64 panel a warp, re-read every four steps: L1 hits).
//  gc_V_wW:    wmmatf32's gv form (a 256^3 tf32 GEMM, a 16 x 16 tile a
//              warp, fragments from global memory at every k step,
//              converted in place), A column-major and B row-major, in
//              variants V: n a template constant (k), the k loop not
//              unrolled (u1) or four times (u4), and the row-major
//              reference (rrk).
// Each launch prints a hash of its result (stdout) and, on stderr, the mean
// and largest clock64 cycles of its warps' timed region (chains: from after
// the fragments' loads to after the last MMA; GEMMs: the k loop) and that
// over N.
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

enum { S8, U8, F16, BF16, TF32 };
template <int T> struct Tr;
template <> struct Tr<S8> { typedef signed char in_t; typedef signed char frag_t; typedef int acc_t; enum { K = 16 }; };
template <> struct Tr<U8> { typedef unsigned char in_t; typedef unsigned char frag_t; typedef int acc_t; enum { K = 16 }; };
template <> struct Tr<F16> { typedef half in_t; typedef half frag_t; typedef float acc_t; enum { K = 16 }; };
template <> struct Tr<BF16> { typedef __nv_bfloat16 in_t; typedef __nv_bfloat16 frag_t; typedef float acc_t; enum { K = 16 }; };
template <> struct Tr<TF32> { typedef float in_t; typedef wmma::precision::tf32 frag_t; typedef float acc_t; enum { K = 8 }; };
template <bool C> struct Lay { typedef wmma::row_major t; };
template <> struct Lay<true> { typedef wmma::col_major t; };

__device__ __forceinline__ long long clk() {
  long long t;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(t) :: "memory");
  return t;
}

// ch: a chain of N steps of ACCS wmma.mma each (A 256 columns wide, B 256).
template <int T, int N, int ACCS, bool LOOP>
__global__ void ch(const typename Tr<T>::in_t* A, const typename Tr<T>::in_t* B, typename Tr<T>::acc_t* C, long long* cyc) {
  typedef Tr<T> R;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, typename R::frag_t, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, typename R::frag_t, wmma::row_major> b[ACCS];
  wmma::fragment<wmma::accumulator, 16, 16, 16, typename R::acc_t> c[ACCS];
  int w = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  wmma::load_matrix_sync(a, A + (w % 8) * 16, 256);
#pragma unroll
  for (int j = 0; j < ACCS; j++) wmma::load_matrix_sync(b[j], B + ((w + j) % 16) * 16, 256);
#pragma unroll
  for (int j = 0; j < ACCS; j++) wmma::fill_fragment(c[j], 0);
  long long t0 = clk();
  if (LOOP) {
#pragma unroll 1
    for (int i = 0; i < N; i++) {
#pragma unroll
      for (int j = 0; j < ACCS; j++) wmma::mma_sync(c[j], a, b[j], c[j]);
    }
  } else {
#pragma unroll
    for (int i = 0; i < N; i++) {
#pragma unroll
      for (int j = 0; j < ACCS; j++) wmma::mma_sync(c[j], a, b[j], c[j]);
    }
  }
  // The last MMA's result, consumed before the second clock read.
  typename R::acc_t s = c[0].x[0];
#pragma unroll
  for (int j = 1; j < ACCS; j++) s += c[j].x[0];
  c[0].x[0] = s;
  long long t1 = clk();
#pragma unroll
  for (int j = 1; j < ACCS; j++)
#pragma unroll
    for (int e = 1; e < c[0].num_elements; e++) c[0].x[e] += c[j].x[e];
  wmma::store_matrix_sync(C + (size_t)w * 256, c[0], 16, wmma::mem_row_major);
  if (threadIdx.x % 32 == 0) cyc[w] = t1 - t0;
}

// panel offsets: A's fragment of step i from a 16 x 64 panel (row-major:
// columns 16*(i%4), leading dimension LA; column-major: rows 16*(i%4)),
// B's from a 64 x 16 panel likewise.
template <bool AC> __device__ __forceinline__ int offA(int i, int L) { return AC ? (i % 4) * 16 * L : (i % 4) * 16; }
template <bool BC> __device__ __forceinline__ int offB(int i, int L) { return BC ? (i % 4) * 16 : (i % 4) * 16 * L; }

constexpr int SL = 64;  // steps of sl and gl
// sl: W warps, each SL k steps on fragments loaded from shared memory.
template <int T, bool AC, bool BC, int W>
__global__ void sl(const typename Tr<T>::in_t* A, const typename Tr<T>::in_t* B, float* C, long long* cyc) {
  typedef Tr<T> R;
  typedef typename R::in_t E;
  constexpr int P = 8;  // 16 bytes of padding a storage row
  constexpr int LA = AC ? 16 + P : 64 + P, LB = BC ? 64 + P : 16 + P;
  __shared__ __align__(128) E sA[W][AC ? 64 * LA : 16 * LA];
  __shared__ __align__(128) E sB[W][BC ? 16 * LB : 64 * LB];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, w = blockIdx.x * W + warp;
  // Panels as stored: A 16 x 64 (row-major) or 64 x 16 (column-major), from
  // A's rows 256 apart; B likewise.
  const int ra = AC ? 64 : 16, ca = AC ? 16 : 64, rb = BC ? 16 : 64, cb = BC ? 64 : 16;
  for (int e = lane; e < ra * ca; e += 32) sA[warp][e / ca * LA + e % ca] = A[(size_t)(e / ca) * 256 + (w % 4) * 64 + e % ca];
  for (int e = lane; e < rb * cb; e += 32) sB[warp][e / cb * LB + e % cb] = B[(size_t)(e / cb) * 256 + (w % 4) * 64 + e % cb];
  __syncwarp();
  wmma::fragment<wmma::matrix_a, 16, 16, 16, typename R::frag_t, typename Lay<AC>::t> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, typename R::frag_t, typename Lay<BC>::t> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
  wmma::fill_fragment(c, 0);
  long long t0 = clk();
#pragma unroll 4
  for (int i = 0; i < SL; i++) {
    wmma::load_matrix_sync(a, &sA[warp][offA<AC>(i, LA)], LA);
    wmma::load_matrix_sync(b, &sB[warp][offB<BC>(i, LB)], LB);
    wmma::mma_sync(c, a, b, c);
  }
  float s = c.x[0];
  c.x[0] = s;
  long long t1 = clk();
  wmma::store_matrix_sync(C + (size_t)w * 256, c, 16, wmma::mem_row_major);
  if (lane == 0) cyc[w] = t1 - t0;
}

// gl: the same chain with the fragments read from global memory (each warp
// its own panels, 256 elements a storage row).
template <int T, bool AC, bool BC, int W>
__global__ void gl(const typename Tr<T>::in_t* A, const typename Tr<T>::in_t* B, float* C, long long* cyc) {
  typedef Tr<T> R;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, w = blockIdx.x * W + warp;
  const typename R::in_t* pa = A + (size_t)(w % 4) * 64 * 256;
  const typename R::in_t* pb = B + (size_t)(w % 4) * 64;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, typename R::frag_t, typename Lay<AC>::t> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, typename R::frag_t, typename Lay<BC>::t> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
  wmma::fill_fragment(c, 0);
  long long t0 = clk();
#pragma unroll 4
  for (int i = 0; i < SL; i++) {
    wmma::load_matrix_sync(a, pa + offA<AC>(i, 256), 256);
    wmma::load_matrix_sync(b, pb + offB<BC>(i, 256), 256);
    wmma::mma_sync(c, a, b, c);
  }
  float s = c.x[0];
  c.x[0] = s;
  long long t1 = clk();
  wmma::store_matrix_sync(C + (size_t)w * 256, c, 16, wmma::mem_row_major);
  if (lane == 0) cyc[w] = t1 - t0;
}

template <class F> __device__ __forceinline__ void totf32g(F& f) {
#pragma unroll
  for (int i = 0; i < f.num_elements; i++) f.x[i] = wmma::__float_to_tf32(f.x[i]);
}

// gc: wmmatf32's gv form, tf32 converted in place; NK: n a template
// constant (0: the argument n); U: the k loop's unroll (0: nvcc's choice);
// AC, BC: A's and B's storage.
template <int NK, int U, bool AC, bool BC>
__global__ void gc(const float* A, const float* B, float* C, long long* cyc, int narg) {
  const int n = NK ? NK : narg;
  int w = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  int tm = w / (n / 16) * 16, tn = w % (n / 16) * 16;
  wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, typename Lay<AC>::t> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, typename Lay<BC>::t> b;
  wmma::fragment<wmma::accumulator, 16, 16, 8, float> c;
  wmma::fill_fragment(c, 0);
  long long t0 = clock64();
  if (U == 1) {
#pragma unroll 1
    for (int k = 0; k < n; k += 8) {
      wmma::load_matrix_sync(a, AC ? A + (size_t)k * n + tm : A + (size_t)tm * n + k, n);
      wmma::load_matrix_sync(b, BC ? B + (size_t)tn * n + k : B + (size_t)k * n + tn, n);
      totf32g(a);
      totf32g(b);
      wmma::mma_sync(c, a, b, c);
    }
  } else if (U == 4) {
#pragma unroll 4
    for (int k = 0; k < n; k += 8) {
      wmma::load_matrix_sync(a, AC ? A + (size_t)k * n + tm : A + (size_t)tm * n + k, n);
      wmma::load_matrix_sync(b, BC ? B + (size_t)tn * n + k : B + (size_t)k * n + tn, n);
      totf32g(a);
      totf32g(b);
      wmma::mma_sync(c, a, b, c);
    }
  } else {
    for (int k = 0; k < n; k += 8) {
      wmma::load_matrix_sync(a, AC ? A + (size_t)k * n + tm : A + (size_t)tm * n + k, n);
      wmma::load_matrix_sync(b, BC ? B + (size_t)tn * n + k : B + (size_t)k * n + tn, n);
      totf32g(a);
      totf32g(b);
      wmma::mma_sync(c, a, b, c);
    }
  }
  long long t1 = clock64();
  wmma::store_matrix_sync(C + (size_t)tm * n + tn, c, n, wmma::mem_row_major);
  if (threadIdx.x % 32 == 0) cyc[w] = t1 - t0;
}

static const char* TN[] = {"s8", "u8", "f16", "bf16", "tf32"};
static int launch_no = 0;
static void* dC;
static long long* dY;

static unsigned hashd(size_t bytes) {
  unsigned char* h = (unsigned char*)malloc(bytes);
  CK(cudaMemcpy(h, dC, bytes, cudaMemcpyDeviceToHost));
  unsigned x = 2166136261u;
  for (size_t i = 0; i + 4 <= bytes; i += 4) { unsigned u; memcpy(&u, h + i, 4); x = (x ^ u) * 16777619u; }
  free(h);
  return x;
}

// done checks the launch, prints its hash and its warps' clock64 cycles.
static void done(const char* name, int warps, int steps) {
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  printf("launch %d %s hash %08x\n", launch_no++, name, hashd((size_t)warps * 256 * 4));
  long long* y = (long long*)malloc(warps * sizeof(long long));
  CK(cudaMemcpy(y, dY, warps * sizeof(long long), cudaMemcpyDeviceToHost));
  double s = 0, mx = 0;
  for (int i = 0; i < warps; i++) { s += (double)y[i]; if (y[i] > mx) mx = (double)y[i]; }
  fprintf(stderr, "%s cycles mean %.1f max %.1f steps %d per_step %.2f warps %d\n", name, s / warps, mx, steps, s / warps / steps, warps);
  free(y);
  CK(cudaMemset(dC, 0, (size_t)256 * 256 * 4));
}

template <int T> static void* upload(int seed) {
  typedef typename Tr<T>::in_t E;
  size_t cnt = 256 * 256;
  E* h = (E*)malloc(cnt * sizeof(E));
  srand(seed);
  for (size_t i = 0; i < cnt; i++) {
    int v = rand() % 7 - 3;
    if constexpr (T == F16) h[i] = __float2half((float)v * 0.25f);
    else if constexpr (T == BF16) h[i] = __float2bfloat16((float)v * 0.5f);
    else if constexpr (T == TF32) h[i] = (float)v * 0.125f + (float)(rand() % 9) / 1024.0f;
    else if constexpr (T == U8) h[i] = (unsigned char)(v + 3);
    else h[i] = (signed char)v;
  }
  void* d;
  CK(cudaMalloc(&d, cnt * sizeof(E)));
  CK(cudaMemcpy(d, h, cnt * sizeof(E), cudaMemcpyHostToDevice));
  free(h);
  return d;
}

template <int T, int N, int ACCS, bool LOOP> static void chain(const void* A, const void* B, int warps) {
  typedef typename Tr<T>::in_t E;
  typedef typename Tr<T>::acc_t Acc;
  char name[64];
  snprintf(name, sizeof name, "ch_%s_d%d_%c%d_w%d", TN[T], ACCS, LOOP ? 'l' : 's', N, warps);
  ch<T, N, ACCS, LOOP><<<1, 32 * warps>>>((const E*)A, (const E*)B, (Acc*)dC, dY);
  done(name, warps, N);
}

template <int T> static void chains() {
  void *A = upload<T>(31 + T), *B = upload<T>(57 + T);
  chain<T, 16, 1, false>(A, B, 1);
  chain<T, 64, 1, false>(A, B, 1);
  chain<T, 256, 1, false>(A, B, 1);
  chain<T, 256, 1, true>(A, B, 1);
  chain<T, 16, 4, false>(A, B, 1);
  chain<T, 64, 4, false>(A, B, 1);
  chain<T, 64, 4, true>(A, B, 1);
  chain<T, 64, 1, false>(A, B, 16);
  chain<T, 256, 1, false>(A, B, 16);
  CK(cudaFree(A)); CK(cudaFree(B));
}

static const char* LN[] = {"rr", "rc", "cr", "cc"};
template <int T, bool AC, bool BC> static void panels(const void* A, const void* B) {
  typedef typename Tr<T>::in_t E;
  char name[64];
  const int L = AC * 2 + BC;
  snprintf(name, sizeof name, "sl_%s_%s_w1", TN[T], LN[L]); sl<T, AC, BC, 1><<<1, 32>>>((const E*)A, (const E*)B, (float*)dC, dY); done(name, 1, SL);
  snprintf(name, sizeof name, "sl_%s_%s_w8", TN[T], LN[L]); sl<T, AC, BC, 8><<<1, 256>>>((const E*)A, (const E*)B, (float*)dC, dY); done(name, 8, SL);
  snprintf(name, sizeof name, "gl_%s_%s_w1", TN[T], LN[L]); gl<T, AC, BC, 1><<<1, 32>>>((const E*)A, (const E*)B, (float*)dC, dY); done(name, 1, SL);
  snprintf(name, sizeof name, "gl_%s_%s_w8", TN[T], LN[L]); gl<T, AC, BC, 8><<<1, 256>>>((const E*)A, (const E*)B, (float*)dC, dY); done(name, 8, SL);
}
template <int T> static void panelsAll() {
  void *A = upload<T>(71 + T), *B = upload<T>(83 + T);
  panels<T, false, false>(A, B);
  panels<T, false, true>(A, B);
  panels<T, true, false>(A, B);
  CK(cudaFree(A)); CK(cudaFree(B));
}

template <int NK, int U, bool AC, bool BC> static void gemm(const char* v, const float* A, const float* B, int wpb) {
  char name[64];
  const int n = 256, tiles = (n / 16) * (n / 16);
  snprintf(name, sizeof name, "gc_%s_w%d", v, wpb);
  gc<NK, U, AC, BC><<<tiles / wpb, 32 * wpb>>>(A, B, (float*)dC, dY, n);
  done(name, tiles, n / 8);
}

int main() {
  CK(cudaMalloc(&dC, (size_t)256 * 256 * 4));
  CK(cudaMalloc(&dY, 256 * sizeof(long long)));
  CK(cudaMemset(dC, 0, (size_t)256 * 256 * 4));
  chains<S8>();
  chains<U8>();
  chains<F16>();
  chains<BF16>();
  panelsAll<F16>();
  panelsAll<BF16>();
  {
    const float* A = (const float*)upload<TF32>(97);
    const float* B = (const float*)upload<TF32>(101);
    gemm<0, 0, true, false>("cr", A, B, 1);
    gemm<0, 0, true, false>("cr", A, B, 4);
    gemm<256, 0, true, false>("crk", A, B, 1);
    gemm<256, 0, true, false>("crk", A, B, 4);
    gemm<0, 1, true, false>("cru1", A, B, 1);
    gemm<0, 4, true, false>("cru4", A, B, 1);
    gemm<256, 0, false, false>("rrk", A, B, 1);
    gemm<0, 1, false, false>("rru1", A, B, 1);
  }
  return 0;
}
