// Independent wmma.mma chains on the same operands (issue 19, tensor23):
// which ones ptxas computes once. wg.cu's ch_f16_ind (study: four chains of
// 256 steps, one accumulator each, the same A and B) runs as one chain on
// the H100 (its SASS: 512 HMMA.16816, the 8-iteration PTX loop unrolled
// fully), ch_bf16_ind not (a 128-iteration loop, four chains). This family
// varies what that depends on: the type, the chain length N, the PTX's
// unroll U (0: nvcc's default), the accumulator count.
//
//  cx_T_aA_nN_uU: A accumulators (1, 2, 4), each N steps of
//                 wmma.mma(c[j], a, b, c[j]) from zero, one warp.
// Every launch prints a hash of its result.
#include <cstdio>
#include <cstdlib>
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

template <int T, int ACCS, int N, int U>
__global__ void cx(const typename Tr<T>::in_t* A, const typename Tr<T>::in_t* B, typename Tr<T>::acc_t* C) {
  typedef Tr<T> R;
  wmma::fragment<wmma::matrix_a, 16, 16, R::K, typename R::frag_t, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, R::K, typename R::frag_t, wmma::row_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, R::K, typename R::acc_t> c[ACCS];
  wmma::load_matrix_sync(a, A, 256);
  wmma::load_matrix_sync(b, B, 256);
  totf32<T>(a);
  totf32<T>(b);
#pragma unroll
  for (int j = 0; j < ACCS; j++) wmma::fill_fragment(c[j], 0);
  if constexpr (U == 0) {
    for (int i = 0; i < N; i++) {
#pragma unroll
      for (int j = 0; j < ACCS; j++) wmma::mma_sync(c[j], a, b, c[j]);
    }
  } else {
#pragma unroll U
    for (int i = 0; i < N; i++) {
#pragma unroll
      for (int j = 0; j < ACCS; j++) wmma::mma_sync(c[j], a, b, c[j]);
    }
  }
#pragma unroll
  for (int j = 1; j < ACCS; j++)
    for (int e = 0; e < c[0].num_elements; e++) c[0].x[e] += c[j].x[e];
  wmma::store_matrix_sync(C, c[0], 16, wmma::mem_row_major);
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

template <int T, int ACCS, int N, int U> static void one(const void* dA, const void* dB, void* dC) {
  typedef typename Tr<T>::in_t E;
  typedef typename Tr<T>::acc_t Acc;
  cx<T, ACCS, N, U><<<1, 32>>>((const E*)dA, (const E*)dB, (Acc*)dC);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  printf("launch %d cx_%s_a%d_n%d_u%d hash %08x\n", launch_no++, TN[T], ACCS, N, U, hashd((const Acc*)dC, 256));
}

template <int T> static void run_type() {
  typedef typename Tr<T>::in_t E;
  size_t cnt = 256 * 256;
  E* h = (E*)malloc(cnt * sizeof(E) * 2);
  srand(17 + T);
  for (size_t i = 0; i < 2 * cnt; i++) {
    int v = rand() % 7 - 3;
    if constexpr (T == F16) h[i] = __float2half((float)v * 0.25f);
    else if constexpr (T == BF16) h[i] = __float2bfloat16((float)v * 0.5f);
    else if constexpr (T == TF32) h[i] = (float)v * 0.125f + (float)(rand() % 9) / 1024.0f;
    else h[i] = (signed char)v;
  }
  void *dA, *dB, *dC;
  CK(cudaMalloc(&dA, cnt * sizeof(E)));
  CK(cudaMalloc(&dB, cnt * sizeof(E)));
  CK(cudaMalloc(&dC, 256 * 4));
  CK(cudaMemcpy(dA, h, cnt * sizeof(E), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dB, h + cnt, cnt * sizeof(E), cudaMemcpyHostToDevice));
  one<T, 4, 16, 0>(dA, dB, dC);
  one<T, 4, 64, 0>(dA, dB, dC);
  one<T, 4, 256, 0>(dA, dB, dC);
  one<T, 4, 16, 4>(dA, dB, dC);
  one<T, 4, 64, 4>(dA, dB, dC);
  one<T, 4, 256, 4>(dA, dB, dC);
  one<T, 4, 64, 16>(dA, dB, dC);
  one<T, 4, 256, 16>(dA, dB, dC);
  one<T, 4, 256, 64>(dA, dB, dC);
  one<T, 2, 64, 0>(dA, dB, dC);
  one<T, 2, 256, 0>(dA, dB, dC);
  one<T, 1, 64, 0>(dA, dB, dC);
  one<T, 1, 256, 0>(dA, dB, dC);
  CK(cudaFree(dA)); CK(cudaFree(dB)); CK(cudaFree(dC));
  free(h);
}

int main() {
  run_type<F16>();
  run_type<BF16>();
  run_type<TF32>();
  run_type<S8>();
  return 0;
}
