// Issue throughput of independent operations per SM: a grid of exactly `bps` blocks per SM, each
// thread running 8 independent chains of inline-PTX operations, `iters` steps each. Thread 0 of
// every block records clock64() at start and end (after __syncthreads); the SM's time is the mean
// span of its blocks (clock64 at the start of the first to the end of the last, grouped by %smid).
// lane_ops_per_sm_clk = lane ops of the SM's blocks / span; averaged over SMs.
// Usage: tput [full|sim]. Output: tput class=C grid=G block=B iters=I cycles=CYC lane_ops_per_sm_clk=X warp_inst_per_sm_clk=Y event_ms=T
#include "bench.h"

#define TPUT(NAME, T, C, INIT, OP)                                                            \
  extern "C" __global__ void tput_##NAME(T *out, long long *cyc, int iters, T y) {           \
    T a0 = INIT + 0, a1 = INIT + 1, a2 = INIT + 2, a3 = INIT + 3, a4 = INIT + 4, a5 = INIT + 5, a6 = INIT + 6, a7 = INIT + 7; \
    __syncthreads();                                                                        \
    long long t0 = clock64();                                                               \
    for (int i = 0; i < iters; i++) {                                                       \
      asm volatile(OP : "+" C(a0) : C(y)); asm volatile(OP : "+" C(a1) : C(y));           \
      asm volatile(OP : "+" C(a2) : C(y)); asm volatile(OP : "+" C(a3) : C(y));           \
      asm volatile(OP : "+" C(a4) : C(y)); asm volatile(OP : "+" C(a5) : C(y));           \
      asm volatile(OP : "+" C(a6) : C(y)); asm volatile(OP : "+" C(a7) : C(y));           \
    }                                                                                       \
    __syncthreads();                                                                        \
    long long t1 = clock64();                                                               \
    out[blockIdx.x * blockDim.x + threadIdx.x] = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7;     \
    if (threadIdx.x == 0) { unsigned sm; asm("mov.u32 %0, %%smid;" : "=r"(sm));              \
      cyc[3 * blockIdx.x] = t0; cyc[3 * blockIdx.x + 1] = t1; cyc[3 * blockIdx.x + 2] = sm; }   \
  }

TPUT(iadd, int, "r", (int)threadIdx.x, "add.s32 %0, %0, %1; xor.b32 %0, %0, %1;")
TPUT(imad, int, "r", (int)threadIdx.x, "mad.lo.s32 %0, %0, %1, %1;")
TPUT(fadd, float, "f", (float)threadIdx.x, "add.rn.f32 %0, %0, %1;")
TPUT(ffma, float, "f", (float)threadIdx.x, "fma.rn.f32 %0, %0, %1, %1;")
TPUT(dfma, double, "d", (double)threadIdx.x, "fma.rn.f64 %0, %0, %1, %1;")
TPUT(ex2, float, "f", (float)threadIdx.x, "ex2.approx.ftz.f32 %0, %0;")
TPUT(rsqrt, float, "f", (float)threadIdx.x, "rsqrt.approx.ftz.f32 %0, %0;")
TPUT(cvt, float, "f", (float)threadIdx.x, "{ .reg .s32 t; cvt.rzi.s32.f32 t, %0; cvt.rn.f32.s32 %0, t; }")
TPUT(shfl, int, "r", (int)threadIdx.x, "shfl.sync.bfly.b32 %0, %0, %1, 0x1f, 0xffffffff;")

template <class T> static void run(const char *cls, void (*k)(T *, long long *, int, T), T y, int bps, int block, int iters, double ops_per_step) {
  int sms = num_sms(), grid = sms * bps;
  T *out; long long *cyc; CK(cudaMalloc(&out, (size_t)grid * block * sizeof(T))); CK(cudaMalloc(&cyc, grid * 24));
  float ms = time_median([&] { k<<<grid, block>>>(out, cyc, iters, y); });
  std::vector<long long> c(3 * grid); CK(cudaMemcpy(c.data(), cyc, grid * 24, cudaMemcpyDeviceToHost));
  std::vector<long long> lo(1024, -1), hi(1024, -1); std::vector<int> cnt(1024, 0);
  for (int b = 0; b < grid; b++) {
    int sm = (int)c[3 * b + 2] & 1023;
    if (lo[sm] < 0 || c[3 * b] < lo[sm]) lo[sm] = c[3 * b];
    if (hi[sm] < 0 || c[3 * b + 1] > hi[sm]) hi[sm] = c[3 * b + 1];
    cnt[sm]++;
  }
  double rate = 0, mean = 0; int nsm = 0, maxb = 0;
  for (int s = 0; s < 1024; s++) if (cnt[s]) {
    double span = (double)(hi[s] - lo[s]);
    rate += (double)cnt[s] * block * 8 * iters * ops_per_step / span; mean += span; nsm++; if (cnt[s] > maxb) maxb = cnt[s];
  }
  rate /= nsm; mean /= nsm;
  printf("tput class=%s grid=%d block=%d bps=%d iters=%d ops_per_step=%.0f sms_used=%d max_blocks_on_an_sm=%d cycles=%.0f lane_ops_per_sm_clk=%.3f warp_inst_per_sm_clk=%.4f event_ms=%.5f\n",
         cls, grid, block, bps, iters, ops_per_step, nsm, maxb, mean, rate, rate / 32, ms);
  CK(cudaFree(out)); CK(cudaFree(cyc));
}

int main(int argc, char **argv) {
  bench_mode(argc, argv);
  // sim: 1 block of 512 threads per SM (16 warps), 64 steps (512 ops per thread)
  std::vector<int> its = g_full ? std::vector<int>{64, 1024} : std::vector<int>{64};
  for (int it : its) {
    int bps = 1, bs = 512;
    run<int>("iadd", tput_iadd, 3, bps, bs, it, 2);
    run<int>("imad", tput_imad, 3, bps, bs, it, 1);
    run<float>("fadd", tput_fadd, 1.0f, bps, bs, it, 1);
    run<float>("ffma", tput_ffma, 1.0f, bps, bs, it, 1);
    run<double>("dfma", tput_dfma, 1.0, bps, bs, it, 1);
    run<float>("ex2", tput_ex2, 0.5f, bps, bs, it, 1);
    run<float>("rsqrt", tput_rsqrt, 0.5f, bps, bs, it, 1);
    run<float>("cvt", tput_cvt, 0.5f, bps, bs, it, 2);
    run<int>("shfl", tput_shfl, 1, bps, bs, it, 1);
  }
  if (g_full) {  // full occupancy: 2 blocks of 1024 threads per SM
    run<float>("ffma", tput_ffma, 1.0f, 2, 1024, 1024, 1);
    run<double>("dfma", tput_dfma, 1.0, 2, 1024, 256, 1);
    run<float>("ex2", tput_ex2, 0.5f, 2, 1024, 256, 1);
    run<int>("imad", tput_imad, 3, 2, 1024, 1024, 1);
    run<int>("iadd", tput_iadd, 3, 2, 1024, 1024, 2);
    run<float>("fadd", tput_fadd, 1.0f, 2, 1024, 1024, 1);
    run<int>("shfl", tput_shfl, 1, 2, 1024, 256, 1);
  }
  return 0;
}
