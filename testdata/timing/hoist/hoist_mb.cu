// hoist_mb: how many of an unrolled loop's loads ptxas schedules ahead of their first consumer (issue 19;
// testdata/timing/rowgpu: rowreuse issues 8 of its 32 loads before its first FFMA, rg 5). A family of loops,
// each `acc += f(loads of iteration k)` over k < K (a run-time count: ptxas unrolls the PTX's four-iteration
// body four times), that differ in one thing at a time:
//   pattern  rr: rowreuse's pair, A[r*K+k] (base + immediate) times B[k*N+r] (a new 64-bit address a load);
//            ss: two strided loads, A[k*N+r] * B[k*N+r];  ii: two base + immediate loads, A[r*K+k] * C[r*K+k];
//            s1: one strided load, sum of B[k*N+r];        i1: one base + immediate load, sum of A[r*K+k];
//            r3: three loads, A[r*K+k] * B[k*N+r] + C[r*K+k].
//   EXTRA    32-bit values loaded before the loop and used after it (held live through it): 0, 2, 4, 8, 12.
//   T        the loaded type of i1 and s1: float, double, float2, float4 (1, 2, 2, 4 words a load).
//   bounds   none; __launch_bounds__(256, 1) (`_lb1`: up to 255 registers); __launch_bounds__(1024, 2) (`_lb2`:
//            32); and the whole file again with -maxrregcount=64 and =24 (run.sh).
// The SASS (cuobjdump -sass) and the registers (cuobjdump -res-usage) are the point; main() times a few
// rowreuse-shaped kernels as mech.cu runs rowreuse (N = 65536 rows, blocks of 256, K = 32 and 128, median of
// 5 launches by CUDA events, L2 flushed before each), printing `t name=.. K=.. event_ms=..`.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "CUDA error %s at %s:%d: %s\n", #x, __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1);} } while (0)

template <typename T> __device__ __forceinline__ float val(T v) { return (float)v; }
template <> __device__ __forceinline__ float val<float2>(float2 v) { return v.x + v.y; }
template <> __device__ __forceinline__ float val<float4>(float4 v) { return v.x + v.y + v.z + v.w; }

// P: 0 rr, 1 ss, 2 ii, 3 s1, 4 i1, 5 r3.
template <int P, int EXTRA, typename T>
__device__ __forceinline__ void body(const T *A, const T *B, const T *C, float *out, unsigned K, unsigned N) {
  unsigned r = blockIdx.x * blockDim.x + threadIdx.x;
  float e[EXTRA > 0 ? EXTRA : 1];
#pragma unroll
  for (int i = 0; i < EXTRA; i++) e[i] = val(C[(size_t)(i + 1) * N + r]);
  float acc = 0;
  for (unsigned k = 0; k < K; k++) {
    if (P == 0) acc += val(A[(size_t)r * K + k]) * val(B[(size_t)k * N + r]);
    if (P == 1) acc += val(A[(size_t)k * N + r]) * val(B[(size_t)k * N + r]);
    if (P == 2) acc += val(A[(size_t)r * K + k]) * val(C[(size_t)r * K + k]);
    if (P == 3) acc += val(B[(size_t)k * N + r]);
    if (P == 4) acc += val(A[(size_t)r * K + k]);
    if (P == 5) acc += val(A[(size_t)r * K + k]) * val(B[(size_t)k * N + r]) + val(C[(size_t)r * K + k]);
  }
#pragma unroll
  for (int i = 0; i < EXTRA; i++) acc += e[i] * (float)(i + 3);
  out[r] = acc;
}

#define K3(name, P, E, T)                                                                                      \
  extern "C" __global__ void name(const T *A, const T *B, const T *C, float *out, unsigned K, unsigned N) {    \
    body<P, E, T>(A, B, C, out, K, N);                                                                          \
  }                                                                                                             \
  extern "C" __global__ void __launch_bounds__(256, 1) name##_lb1(const T *A, const T *B, const T *C, float *out, \
                                                                   unsigned K, unsigned N) {                    \
    body<P, E, T>(A, B, C, out, K, N);                                                                          \
  }                                                                                                             \
  extern "C" __global__ void __launch_bounds__(1024, 2) name##_lb2(const T *A, const T *B, const T *C,          \
                                                                    float *out, unsigned K, unsigned N) {       \
    body<P, E, T>(A, B, C, out, K, N);                                                                          \
  }
#define EXTRAS(pre, P, T) K3(pre##_e0, P, 0, T) K3(pre##_e2, P, 2, T) K3(pre##_e4, P, 4, T) K3(pre##_e8, P, 8, T) K3(pre##_e12, P, 12, T)
EXTRAS(rr, 0, float)
EXTRAS(ss, 1, float)
EXTRAS(ii, 2, float)
EXTRAS(s1, 3, float)
EXTRAS(i1, 4, float)
EXTRAS(r3, 5, float)
K3(s1d_e0, 3, 0, double) K3(s1d_e4, 3, 4, double)
K3(i1d_e0, 4, 0, double) K3(i1d_e4, 4, 4, double)
K3(s1f2_e0, 3, 0, float2) K3(s1f2_e4, 3, 4, float2)
K3(i1f2_e0, 4, 0, float2) K3(i1f2_e4, 4, 4, float2)
K3(s1f4_e0, 3, 0, float4) K3(s1f4_e4, 3, 4, float4)
K3(i1f4_e0, 4, 0, float4) K3(i1f4_e4, 4, 4, float4)

extern "C" __global__ void flush(const float4 *p, size_t n4, float *out) {
  float s = 0;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n4; i += (size_t)gridDim.x * blockDim.x) {
    float4 v = __ldcg(p + i);
    s += v.x + v.y + v.z + v.w;
  }
  if (s == 1.5f) out[0] = s;
}

typedef void (*kfn)(const float *, const float *, const float *, float *, unsigned, unsigned);
static float *gA, *gB, *gC, *gO, *gF;
static const size_t FLUSH = 256u << 20;
static const unsigned N = 65536;

static void timeit(const char *name, kfn k, unsigned K) {
  cudaEvent_t e0, e1; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
  std::vector<float> v;
  for (int rep = 0; rep < 5; rep++) {
    flush<<<132 * 4, 1024>>>((const float4 *)gF, FLUSH / 16, gO + N);
    CK(cudaDeviceSynchronize());
    CK(cudaEventRecord(e0));
    k<<<N / 256, 256>>>(gA, gB, gC, gO, K, N);
    CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1)); CK(cudaGetLastError());
    float ms; CK(cudaEventElapsedTime(&ms, e0, e1)); v.push_back(ms);
  }
  std::sort(v.begin(), v.end());
  printf("t name=%s K=%u grid=%u block=256 N=%u event_ms=%.5f min_ms=%.5f max_ms=%.5f\n", name, K, N / 256, N, v[2], v[0], v[4]);
  fflush(stdout);
}

int main() {
  size_t bytes = (size_t)N * 132 * 4;  // A: N rows of K <= 128 floats; B, C: K (<= 128) rows of N, 13 rows more for e[]
  CK(cudaMalloc(&gA, bytes)); CK(cudaMalloc(&gB, bytes)); CK(cudaMalloc(&gC, bytes)); CK(cudaMalloc(&gO, 4 * N + 64));
  CK(cudaMalloc(&gF, FLUSH));
  CK(cudaMemset(gA, 0, bytes)); CK(cudaMemset(gB, 0, bytes)); CK(cudaMemset(gC, 0, bytes)); CK(cudaMemset(gF, 0, FLUSH));
  for (int pass = 0; pass < 2; pass++)
    for (unsigned K : {32u, 128u}) {
      timeit("rr_e0", rr_e0, K);
      timeit("rr_e0_lb1", rr_e0_lb1, K);
      timeit("rr_e8", rr_e8, K);
      timeit("rr_e12", rr_e12, K);
      timeit("i1_e0", i1_e0, K);
      timeit("i1_e12", i1_e12, K);
    }
  return 0;
}
