// wmma GEMM k steps in layouts and types wg.cu (../wmmagemm) did not
// record, to check the rule of ptxas's order inside a k step read from
// wg.cu's SASS (docs/calibration.md, fifteenth round) on code it was not
// read from. Every kernel is wg.cu's gg: C = A*B, N x N x N, every warp
// one 16x16 tile of C, its fragments loaded from global memory at each k
// step, 4 warps a block; A and B stored row- or column-major as the name
// says (A is M x K, B is K x N), tf32 fragments converted with
// __float_to_tf32 or not ("raw").
//
//   gv_tf32raw_rr  tf32 as loaded, A row, B row   rule: one round trip a step
//   gv_tf32_rc     tf32 converted, A row, B col   two (a k-slice at a time)
//   gv_tf32_cr     tf32 converted, A col, B row   two
//   gv_s8_rc       s8, A row, B col               one (no byte loads)
//   gv_s8_cc       s8, A col, B col               three (A read a byte an element)
//   gv_u8_rr       u8, A row, B row               three (B a byte an element)
//   gv_bf16_rc     bf16, A row, B col             one
//   gv_f16_cr      f16, A col, B row              one (MOVM, no conversion)
// Every launch prints a hash of its result.
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

enum { F16, BF16, TF32, S8, U8 };
template <int T> struct Tr;
template <> struct Tr<F16> { typedef half in_t; typedef half frag_t; typedef float acc_t; enum { K = 16 }; };
template <> struct Tr<BF16> { typedef __nv_bfloat16 in_t; typedef __nv_bfloat16 frag_t; typedef float acc_t; enum { K = 16 }; };
template <> struct Tr<TF32> { typedef float in_t; typedef wmma::precision::tf32 frag_t; typedef float acc_t; enum { K = 8 }; };
template <> struct Tr<S8> { typedef signed char in_t; typedef signed char frag_t; typedef int acc_t; enum { K = 16 }; };
template <> struct Tr<U8> { typedef unsigned char in_t; typedef unsigned char frag_t; typedef int acc_t; enum { K = 16 }; };

template <class L> struct Lay;
template <> struct Lay<wmma::row_major> { enum { ROW = 1 }; };
template <> struct Lay<wmma::col_major> { enum { ROW = 0 }; };

template <int T, bool CONV, class F> __device__ __forceinline__ void totf32(F& f) {
  if constexpr (T == TF32 && CONV) {
#pragma unroll
    for (int i = 0; i < f.num_elements; i++) f.x[i] = wmma::__float_to_tf32(f.x[i]);
  }
}

template <int T, bool CONV, class LA, class LB>
__global__ void gv(const typename Tr<T>::in_t* A, const typename Tr<T>::in_t* B, typename Tr<T>::acc_t* C, int n) {
  typedef Tr<T> R;
  int tile = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  int tm = tile / (n / 16) * 16, tn = tile % (n / 16) * 16;
  wmma::fragment<wmma::matrix_a, 16, 16, R::K, typename R::frag_t, LA> a;
  wmma::fragment<wmma::matrix_b, 16, 16, R::K, typename R::frag_t, LB> b;
  wmma::fragment<wmma::accumulator, 16, 16, R::K, typename R::acc_t> c;
  wmma::fill_fragment(c, 0);
  for (int k = 0; k < n; k += R::K) {
    // A(m, k) at m*n + k row-major, k*n + m column-major; B(k, j) likewise.
    wmma::load_matrix_sync(a, A + (Lay<LA>::ROW ? (size_t)tm * n + k : (size_t)k * n + tm), n);
    wmma::load_matrix_sync(b, B + (Lay<LB>::ROW ? (size_t)k * n + tn : (size_t)tn * n + k), n);
    totf32<T, CONV>(a);
    totf32<T, CONV>(b);
    wmma::mma_sync(c, a, b, c);
  }
  wmma::store_matrix_sync(C + (size_t)tm * n + tn, c, n, wmma::mem_row_major);
}

static int launch_no = 0;

template <class C> static unsigned hashd(const C* d, size_t cnt) {
  C* h = (C*)malloc(cnt * sizeof(C));
  CK(cudaMemcpy(h, d, cnt * sizeof(C), cudaMemcpyDeviceToHost));
  unsigned x = 2166136261u;
  for (size_t i = 0; i < cnt; i++) { unsigned u; memcpy(&u, &h[i], 4); x = (x ^ u) * 16777619u; }
  free(h);
  return x;
}

template <int T, bool CONV, class LA, class LB> static void run(const char* tag, int nmax) {
  typedef typename Tr<T>::in_t E;
  typedef typename Tr<T>::acc_t Acc;
  size_t cnt = (size_t)nmax * nmax;
  E* h = (E*)malloc(cnt * sizeof(E) * 2);
  srand(23 + T);
  for (size_t i = 0; i < 2 * cnt; i++) {
    int v = rand() % 7 - 3;
    if constexpr (T == F16) h[i] = __float2half((float)v * 0.25f);
    else if constexpr (T == BF16) h[i] = __float2bfloat16((float)v * 0.5f);
    else if constexpr (T == TF32) h[i] = (float)v * 0.125f + (float)(rand() % 9) / 1024.0f;
    else if constexpr (T == U8) h[i] = (unsigned char)(v + 3);
    else h[i] = (signed char)v;
  }
  E *dA, *dB; Acc* dC;
  CK(cudaMalloc(&dA, cnt * sizeof(E)));
  CK(cudaMalloc(&dB, cnt * sizeof(E)));
  CK(cudaMalloc(&dC, cnt * sizeof(Acc)));
  CK(cudaMemcpy(dA, h, cnt * sizeof(E), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dB, h + cnt, cnt * sizeof(E), cudaMemcpyHostToDevice));
  for (int n = 128; n <= nmax; n *= 2) {
    int tiles = (n / 16) * (n / 16);
    gv<T, CONV, LA, LB><<<tiles / 4, 128>>>(dA, dB, dC, n);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    printf("launch %d gv_%s_n%d hash %08x\n", launch_no++, tag, n, hashd(dC, (size_t)n * n));
  }
  CK(cudaFree(dA)); CK(cudaFree(dB)); CK(cudaFree(dC));
  free(h);
}

int main(int argc, char** argv) {
  int nmax = argc > 1 ? atoi(argv[1]) : 256;
  typedef wmma::row_major r;
  typedef wmma::col_major c;
  run<TF32, false, r, r>("tf32raw_rr", nmax);
  run<TF32, true, r, c>("tf32_rc", nmax);
  run<TF32, true, c, r>("tf32_cr", nmax);
  run<S8, false, r, c>("s8_rc", nmax);
  run<S8, false, c, c>("s8_cc", nmax);
  run<U8, false, r, r>("u8_rr", nmax);
  run<BF16, false, r, c>("bf16_rc", nmax);
  run<F16, false, c, r>("f16_cr", nmax);
  return 0;
}
