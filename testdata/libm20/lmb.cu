// libm20: what a libdevice call costs on the H100's SM (H200), per function.
// Each k_<name> kernel runs a dependent chain of n calls per thread: the
// call's result feeds the next argument through an integer add of a
// comparison that is always 0 (x stays the input, bit for bit, so a
// slow-path input stays on its path), clock64 around the chain. One warp
// (latency: cycles a call) and 4 blocks of 128 threads per SM (16 warps an
// SM, throughput: an SM's cycles per warp-call). k_none is the chain with
// no call (the control). Built twice on the device: nvcc's own code (libdevice
// inlined) and clang 22's PTX (what `warpsim cc` runs: calls of __nv_*) with
// nvcc's code of each function spliced in as a .func (libm.cu, splice.py).
// main: `lmb` prints lat/thr lines for typical and slow-path inputs; `lmb
// ncu` launches each kernel once (typical inputs, one warp) for Nsight
// Compute's per-pipe instruction counts.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cmath>
#include <vector>
#include <algorithm>

__device__ __forceinline__ unsigned smid() {
  unsigned r;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(r));
  return r;
}
__device__ __forceinline__ float keep(float x0, float r) {
  return __int_as_float(__float_as_int(x0) + (__float_as_int(r) == 0x7fc00001));
}
__device__ __forceinline__ double keep(double x0, double r) {
  return __longlong_as_double(__double_as_longlong(x0) + (__double_as_longlong(r) == 0x7ff8000000000001LL));
}

#define K(N, T, E)                                                                   \
  extern "C" __global__ void k_##N(const T* in, T* out, long long* t, int n) {       \
    int l = threadIdx.x & 31;                                                        \
    T x0 = in[l], y = in[32 + l], x = x0;                                            \
    __syncthreads();                                                                 \
    long long c0 = clock64();                                                        \
    for (int k = 0; k < n; k++) {                                                    \
      T r = E;                                                                       \
      x = keep(x0, r);                                                               \
    }                                                                                \
    __syncthreads();                                                                 \
    long long c1 = clock64();                                                        \
    out[blockIdx.x * blockDim.x + threadIdx.x] = x;                                  \
    if (threadIdx.x == 0) {                                                          \
      t[3 * blockIdx.x] = c0, t[3 * blockIdx.x + 1] = c1, t[3 * blockIdx.x + 2] = smid(); \
    }                                                                                \
  }

// FUNCS(F, D): name, expression, typical input x (lane l), second operand y,
// slow-path x, slow-path y.
#define FUNCS(F, D)                                                    \
  F(none, x, 0.5f + 0.03f * l, 0.7f, 1e-40f, 0.7f)                     \
  F(expf, expf(x), 0.5f + 0.03f * l, 0.7f, -95.0f + 0.1f * l, 0.7f)   \
  F(exp2f, exp2f(x), 0.5f + 0.03f * l, 0.7f, -135.0f + 0.1f * l, 0.7f) \
  F(exp10f, exp10f(x), 0.5f + 0.03f * l, 0.7f, -40.0f + 0.03f * l, 0.7f) \
  F(logf, logf(x), 1.5f + 0.1f * l, 0.7f, 1e-40f * (l + 1), 0.7f)     \
  F(log2f, log2f(x), 1.5f + 0.1f * l, 0.7f, 1e-40f * (l + 1), 0.7f)   \
  F(log10f, log10f(x), 1.5f + 0.1f * l, 0.7f, 1e-40f * (l + 1), 0.7f) \
  F(log1pf, log1pf(x), 0.3f + 0.01f * l, 0.7f, 1e-40f * (l + 1), 0.7f) \
  F(expm1f, expm1f(x), 0.2f + 0.01f * l, 0.7f, 20.0f + 0.1f * l, 0.7f) \
  F(powf, powf(x, y), 1.5f + 0.05f * l, 2.3f, -2.0f - l, 3.0f)        \
  F(sinf, sinf(x), 0.5f + 0.1f * l, 0.7f, 3e5f + 7.0f * l, 0.7f)      \
  F(cosf, cosf(x), 0.5f + 0.1f * l, 0.7f, 3e5f + 7.0f * l, 0.7f)      \
  F(tanf, tanf(x), 0.5f + 0.1f * l, 0.7f, 3e5f + 7.0f * l, 0.7f)      \
  F(atanf, atanf(x), 0.5f + 0.1f * l, 0.7f, 1e10f + 1e8f * l, 0.7f)   \
  F(asinf, asinf(x), 0.1f + 0.02f * l, 0.7f, 0.99f, 0.7f)             \
  F(acosf, acosf(x), 0.1f + 0.02f * l, 0.7f, 0.99f, 0.7f)             \
  F(atan2f, atan2f(x, y), 0.5f + 0.1f * l, 0.7f, 1e-40f, 1e30f)       \
  F(sinhf, sinhf(x), 0.3f + 0.05f * l, 0.7f, 9.0f + 0.1f * l, 0.7f)   \
  F(coshf, coshf(x), 0.3f + 0.05f * l, 0.7f, 9.0f + 0.1f * l, 0.7f)   \
  F(tanhf, tanhf(x), 0.3f + 0.05f * l, 0.7f, 9.0f + 0.1f * l, 0.7f)   \
  F(erff, erff(x), 0.3f + 0.05f * l, 0.7f, 3.5f + 0.01f * l, 0.7f)    \
  F(erfcf, erfcf(x), 0.3f + 0.05f * l, 0.7f, 5.0f + 0.1f * l, 0.7f)   \
  F(cbrtf, cbrtf(x), 2.5f + 0.3f * l, 0.7f, 1e-40f * (l + 1), 0.7f)   \
  F(hypotf, hypotf(x, y), 0.5f + 0.1f * l, 1.7f, 1e-40f * (l + 1), 1e-40f) \
  F(fmodf, fmodf(x, y), 5.3f + l, 1.7f, 1e30f + 1e28f * l, 1.7f)      \
  F(sinpif, sinpif(x), 0.3f + 0.05f * l, 0.7f, 1e5f + 0.25f * l, 0.7f) \
  F(normcdff, normcdff(x), 0.3f + 0.05f * l, 0.7f, -8.0f - 0.1f * l, 0.7f) \
  F(sqrtf, sqrtf(x), 2.5f + l, 0.7f, 1e-40f * (l + 1), 0.7f)          \
  F(rsqrtf, rsqrtf(x), 2.5f + l, 0.7f, 1e-40f * (l + 1), 0.7f)        \
  F(fast_expf, __expf(x), 0.5f + 0.03f * l, 0.7f, -95.0f, 0.7f)       \
  F(fast_logf, __logf(x), 1.5f + 0.1f * l, 0.7f, 1e-40f, 0.7f)        \
  F(fast_sinf, __sinf(x), 0.5f + 0.1f * l, 0.7f, 3e5f, 0.7f)          \
  F(fast_fdividef, __fdividef(x, y), 1.5f + 0.1f * l, 0.7f, 1.5f, 1e38f) \
  D(none64, x, 0.5 + 0.03 * l, 0.7, 1e-310, 0.7)                       \
  D(exp, exp(x), 0.5 + 0.03 * l, 0.7, -720.0 + 0.1 * l, 0.7)           \
  D(log, log(x), 1.5 + 0.1 * l, 0.7, 1e-310 * (l + 1), 0.7)            \
  D(sin, sin(x), 0.5 + 0.1 * l, 0.7, 1e20 + 1e18 * l, 0.7)             \
  D(cos, cos(x), 0.5 + 0.1 * l, 0.7, 1e20 + 1e18 * l, 0.7)             \
  D(pow, pow(x, y), 1.5 + 0.05 * l, 2.3, -2.0 - l, 3.0)                \
  D(tanh, tanh(x), 0.3 + 0.05 * l, 0.7, 19.0 + 0.1 * l, 0.7)           \
  D(erf, erf(x), 0.3 + 0.05 * l, 0.7, 4.5 + 0.01 * l, 0.7)             \
  D(atan, atan(x), 0.5 + 0.1 * l, 0.7, 1e20, 0.7)                      \
  D(log1p, log1p(x), 0.3 + 0.01 * l, 0.7, 1e-310 * (l + 1), 0.7)       \
  D(cbrt, cbrt(x), 2.5 + 0.3 * l, 0.7, 1e-310 * (l + 1), 0.7)          \
  D(sqrt, sqrt(x), 2.5 + l, 0.7, 1e-310 * (l + 1), 0.7)

#define KF(N, E, a, b, c, d) K(N, float, E)
#define KD(N, E, a, b, c, d) K(N, double, E)
FUNCS(KF, KD)

struct Fn {
  const char* name;
  void* k;
  int f64;
  double in[2][64];  // [typical, slow][x lanes 0-31, y lanes 32-63]
};

#define TF(N, E, a, b, c, d)                                           \
  {                                                                    \
    Fn f{#N, (void*)k_##N, 0, {}};                                     \
    for (int l = 0; l < 32; l++)                                       \
      f.in[0][l] = (a), f.in[0][32 + l] = (b), f.in[1][l] = (c), f.in[1][32 + l] = (d); \
    fns.push_back(f);                                                  \
  }
#define TD(N, E, a, b, c, d)                                           \
  {                                                                    \
    Fn f{#N, (void*)k_##N, 1, {}};                                     \
    for (int l = 0; l < 32; l++)                                       \
      f.in[0][l] = (a), f.in[0][32 + l] = (b), f.in[1][l] = (c), f.in[1][32 + l] = (d); \
    fns.push_back(f);                                                  \
  }

#define CK(x)                                                                    \
  do {                                                                           \
    cudaError_t e_ = (x);                                                        \
    if (e_ != cudaSuccess) { printf("CUDA %s: %s\n", #x, cudaGetErrorString(e_)); exit(1); } \
  } while (0)

static void* din;
static void* dout;
static long long* dt;

static void launch(const Fn& f, int set, int blocks, int threads, int n) {
  float buf32[64];
  if (f.f64) {
    CK(cudaMemcpy(din, f.in[set], sizeof f.in[set], cudaMemcpyHostToDevice));
  } else {
    for (int i = 0; i < 64; i++) buf32[i] = (float)f.in[set][i];
    CK(cudaMemcpy(din, buf32, sizeof buf32, cudaMemcpyHostToDevice));
  }
  void* args[] = {&din, &dout, &dt, &n};
  CK(cudaLaunchKernel(f.k, dim3(blocks), dim3(threads), args, 0, 0));
  CK(cudaDeviceSynchronize());
}

int main(int argc, char** argv) {
  std::vector<Fn> fns;
  FUNCS(TF, TD)
  int nsm;
  CK(cudaDeviceGetAttribute(&nsm, cudaDevAttrMultiProcessorCount, 0));
  const int TB = 4, TT = 128;  // throughput: blocks an SM, threads a block
  CK(cudaMalloc(&din, 64 * 8));
  CK(cudaMalloc(&dout, (size_t)nsm * TB * TT * 8));
  CK(cudaMalloc((void**)&dt, (size_t)nsm * TB * 3 * 8));
  if (argc > 1 && !strcmp(argv[1], "ncu")) {
    for (auto& f : fns) launch(f, 0, 1, 32, 64);
    return 0;
  }
  const int NL = 64, NT = 64;
  std::vector<long long> t(nsm * TB * 3);
  for (int set = 0; set < 2; set++) {
    const char* sn = set ? "slow" : "typ";
    for (auto& f : fns) {
      long long lat[3];
      for (int r = 0; r < 3; r++) {
        launch(f, set, 1, 32, NL);
        CK(cudaMemcpy(t.data(), dt, 3 * 8, cudaMemcpyDeviceToHost));
        lat[r] = t[1] - t[0];
      }
      unsigned long long sum = 0;
      {
        std::vector<unsigned char> o(32 * 8);
        CK(cudaMemcpy(o.data(), dout, o.size(), cudaMemcpyDeviceToHost));
        for (size_t i = 0; i < o.size(); i++) sum = sum * 131 + o[i];
      }
      printf("lat %s %s n %d cycles %lld %lld %lld sum %llx\n", sn, f.name, NL, lat[0], lat[1], lat[2], sum);
      for (int r = 0; r < 2; r++) launch(f, set, nsm * TB, TT, NT);
      CK(cudaMemcpy(t.data(), dt, t.size() * 8, cudaMemcpyDeviceToHost));
      std::vector<long long> lo(nsm, -1), hi(nsm, 0), cnt(nsm, 0);
      for (int b = 0; b < nsm * TB; b++) {
        int s = (int)t[3 * b + 2];
        if (s < 0 || s >= nsm) continue;
        if (lo[s] < 0 || t[3 * b] < lo[s]) lo[s] = t[3 * b];
        hi[s] = std::max(hi[s], t[3 * b + 1]);
        cnt[s]++;
      }
      std::vector<double> per;
      for (int s = 0; s < nsm; s++)
        if (cnt[s] > 0) per.push_back((double)(hi[s] - lo[s]) / (cnt[s] * (TT / 32) * NT));
      std::sort(per.begin(), per.end());
      printf("thr %s %s n %d warps/SM %d cyc/warpcall med %.2f min %.2f max %.2f sms %zu\n", sn, f.name, NT,
             TB * TT / 32, per[per.size() / 2], per[0], per.back(), per.size());
    }
  }
  return 0;
}
