// Dependent-chain latency per instruction class: one thread (one warp for shfl) runs a chain of n
// dependent operations written as inline PTX (so the compiler cannot fold the chain), timed with
// clock64() inside the kernel and with CUDA events around the launch.
// Usage: lat [full|sim]. Output: lat class=C n=N cycles=CYC cyc_per_op=X event_ms=T
#include "bench.h"

#define CHAIN(NAME, T, CONSTR, INIT, BODY)                                                  \
  extern "C" __global__ void lat_##NAME(T *out, long long *cyc, int n, T y) {             \
    T x = INIT;                                                                           \
    long long t0 = clock64();                                                             \
    for (int i = 0; i < n; i += 16) {                                                     \
      _Pragma("unroll") for (int k = 0; k < 16; k++) asm volatile(BODY : "+" CONSTR(x) : CONSTR(y)); \
    }                                                                                     \
    long long t1 = clock64();                                                             \
    out[threadIdx.x] = x; if (threadIdx.x == 0) cyc[0] = t1 - t0;                         \
  }

// iadd: ptxas fuses two dependent adds of the same operand into one IMAD/LEA (x + 2y), so the
// chain alternates add and xor (IADD3 and LOP3, both on the integer ALU): cyc_per_op is their mean.
CHAIN(iadd, int, "r", y, "add.s32 %0, %0, %1; xor.b32 %0, %0, %1;")
CHAIN(imad, int, "r", y, "mad.lo.s32 %0, %0, %1, %1;")
CHAIN(fadd, float, "f", y, "add.rn.f32 %0, %0, %1;")
CHAIN(fmul, float, "f", y, "mul.rn.f32 %0, %0, %1;")
CHAIN(ffma, float, "f", y, "fma.rn.f32 %0, %0, %1, %1;")
CHAIN(dfma, double, "d", y, "fma.rn.f64 %0, %0, %1, %1;")
CHAIN(dadd, double, "d", y, "add.rn.f64 %0, %0, %1;")
CHAIN(ex2, float, "f", y, "ex2.approx.ftz.f32 %0, %0;")
CHAIN(rsqrt, float, "f", y, "rsqrt.approx.ftz.f32 %0, %0;")
CHAIN(sin, float, "f", y, "sin.approx.ftz.f32 %0, %0;")
// conversion: one step is f32 -> s32 -> f32 (two dependent cvt)
CHAIN(cvt, float, "f", y, "{ .reg .s32 t; cvt.rzi.s32.f32 t, %0; cvt.rn.f32.s32 %0, t; }")
// shfl: a full warp, each step one shfl.sync.idx whose source lane depends on the previous value
// (the source lane is the value itself: a uniform lane operand lets ptxas merge repeated shuffles)
CHAIN(shfl, int, "r", (int)threadIdx.x, "shfl.sync.idx.b32 %0, %0, %0, 0x1f, 0xffffffff;")

// shared memory pointer chase: s[i] holds the shared-window address of s[(i + y) & 1023]; each step
// is one ld.shared whose address is the previous value.
extern "C" __global__ void lat_lds(int *out, long long *cyc, int n, int y) {
  __shared__ unsigned s[1024];
  unsigned base;
  asm("{ .reg .u64 t; cvta.to.shared.u64 t, %1; cvt.u32.u64 %0, t; }" : "=r"(base) : "l"(s));
  for (int i = threadIdx.x; i < 1024; i += blockDim.x) s[i] = base + ((i + y) & 1023) * 4;
  __syncthreads();
  unsigned x = base + threadIdx.x * 4;
  long long t0 = clock64();
  for (int i = 0; i < n; i += 16) {
#pragma unroll
    for (int k = 0; k < 16; k++) asm volatile("ld.shared.u32 %0, [%0];" : "+r"(x));
  }
  long long t1 = clock64();
  out[threadIdx.x] = (int)x; if (threadIdx.x == 0) cyc[0] = t1 - t0;
}

// empty chain: the loop alone (n counts iterations*16 as above) for the loop overhead
extern "C" __global__ void lat_none(int *out, long long *cyc, int n, int y) {
  int x = y;
  long long t0 = clock64();
  for (int i = 0; i < n; i += 16) asm volatile("" : "+r"(x));
  long long t1 = clock64();
  out[threadIdx.x] = x; if (threadIdx.x == 0) cyc[0] = t1 - t0;
}

template <class T> static void run(const char *cls, void (*k)(T *, long long *, int, T), T y, int threads, int n, int ops = 1) {
  T *out; long long *cyc; CK(cudaMalloc(&out, 64 * sizeof(T))); CK(cudaMalloc(&cyc, 8));
  float ms = time_median([&] { k<<<1, threads>>>(out, cyc, n, y); });
  long long c = 0; CK(cudaMemcpy(&c, cyc, 8, cudaMemcpyDeviceToHost));
  printf("lat class=%s threads=%d n=%d ops_per_step=%d cycles=%lld cyc_per_op=%.3f event_ms=%.5f\n", cls, threads, n, ops, c, (double)c / n / ops, ms);
  CK(cudaFree(out)); CK(cudaFree(cyc));
}

int main(int argc, char **argv) {
  bench_mode(argc, argv);
  std::vector<int> ns = g_full ? std::vector<int>{1024, 4096, 16384} : std::vector<int>{4096};
  for (int n : ns) {
    run<int>("none", lat_none, 1, 1, n);
    run<int>("iadd", lat_iadd, 3, 1, n, 2);
    run<int>("imad", lat_imad, 3, 1, n);
    run<float>("fadd", lat_fadd, 1.0f, 1, n);
    run<float>("fmul", lat_fmul, 1.0f, 1, n);
    run<float>("ffma", lat_ffma, 1.0f, 1, n);
    run<double>("dfma", lat_dfma, 1.0, 1, n);
    run<double>("dadd", lat_dadd, 1.0, 1, n);
    run<float>("ex2", lat_ex2, 0.5f, 1, n);
    run<float>("rsqrt", lat_rsqrt, 0.5f, 1, n);
    run<float>("sin", lat_sin, 0.5f, 1, n);  // SASS: FMUL.RZ + MUFU.SIN per step
    run<float>("cvt", lat_cvt, 0.5f, 1, n, 2);
    run<int>("shfl", lat_shfl, 0, 32, n);
    run<int>("lds", lat_lds, 1, 1, n);
  }
  return 0;
}
