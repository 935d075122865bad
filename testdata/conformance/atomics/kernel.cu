// Atomics on global and shared memory under contention. Every recorded value
// is independent of the order in which threads win: totals, min/max, and/or/
// xor, inc/dec histograms of returned values, add's returned values as a
// permutation, exchange chains as sum of returned values plus the final one.
#include "wcuda.h"

#define NSLOT 16

extern "C" __global__ void atomics_global(const int *v, int *gi, unsigned *gu, unsigned long long *g64, float *gf,
                                          double *gd, int *seen, unsigned *hinc, unsigned *hdec, int n) {
  int i = WCUDA_TID_X;
  if (i >= n) return;
  int x = v[i];
  int s = i % NSLOT;
  atomicAdd(&gi[0 * NSLOT + s], x);
  atomicMin(&gi[1 * NSLOT + s], x);
  atomicMax(&gi[2 * NSLOT + s], x);
  atomicAnd(&gi[3 * NSLOT + s], x | (1 << (i % 31)));
  atomicOr(&gi[4 * NSLOT + s], x & (0x11 << (i % 27)));
  atomicXor(&gi[5 * NSLOT + s], x);
  atomicSub(&gi[6 * NSLOT + s], x);
  int old = atomicExch(&gi[7 * NSLOT + s], x);
  atomicAdd(&g64[6 * NSLOT + s], (unsigned long long)(long long)old);
  atomicMin((unsigned *)&gu[0 * NSLOT + s], (unsigned)x);
  atomicMax((unsigned *)&gu[1 * NSLOT + s], (unsigned)x);
  unsigned oi = atomicInc(&gu[2 * NSLOT + s], 100u);
  atomicAdd(&hinc[s * 128 + (oi & 127)], 1u);
  unsigned od = atomicDec(&gu[3 * NSLOT + s], 77u);
  atomicAdd(&hdec[s * 128 + (od & 127)], 1u);
  atomicInc(&gu[4 * NSLOT + s], 0xffffffffu);
  atomicDec(&gu[5 * NSLOT + s], 0u);
  unsigned ticket = atomicAdd(&gu[6 * NSLOT], 1u);
  atomicAdd(&seen[ticket % (unsigned)n], 1 + (int)(ticket / (unsigned)n));
  atomicAdd(&g64[0 * NSLOT + s], (unsigned long long)(unsigned)x * 0x10001ull);
  atomicMax(&g64[1 * NSLOT + s], (unsigned long long)(long long)x * 0x9e3779b97ull);
  atomicMin((long long *)&g64[2 * NSLOT + s], (long long)x * -77777777ll);
  atomicOr(&g64[3 * NSLOT + s], 1ull << (x & 63));
  atomicXor(&g64[4 * NSLOT + s], (unsigned long long)(long long)x << (i % 32));
  atomicAnd(&g64[5 * NSLOT + s], ~(1ull << ((x >> 3) & 63)));
  // Float and double adds of small integers and halves are exact in any order.
  atomicAdd(&gf[s], (float)(x % 1000) * 0.5f);
  atomicAdd(&gd[s], (double)x * 0.25);
  // Compare-and-swap loops: float max and 64-bit add.
  unsigned *fm = &gu[7 * NSLOT + s];
  float fx = (float)(x % 100000) * 0.125f;
  unsigned cur = *fm, assumed;
  do {
    assumed = cur;
    if (__uint_as_float(assumed) >= fx) break;
    cur = atomicCAS(fm, assumed, __float_as_uint(fx));
  } while (cur != assumed);
  unsigned long long *ca = &g64[7 * NSLOT + s];
  unsigned long long c64 = *ca, a64;
  do {
    a64 = c64;
    c64 = atomicCAS(ca, a64, a64 + (unsigned long long)(long long)x);
  } while (c64 != a64);
}

// The exchange chains' final values depend on the order, the sums of the
// values they returned plus the final value do not: fold and clear.
extern "C" __global__ void atomics_fold(int *gi, unsigned long long *g64) {
  int s = threadIdx.x;
  if (s >= NSLOT) return;
  g64[6 * NSLOT + s] += (unsigned long long)(long long)gi[7 * NSLOT + s];
  gi[7 * NSLOT + s] = 0;
}

// One block's threads hit a few shared words; thread 0 writes the block's results.
extern "C" __global__ void atomics_shared(const int *v, int *out, unsigned long long *out64, float *outf, int n) {
  __shared__ int si[8];
  __shared__ unsigned su[4];
  __shared__ unsigned long long s64[2];
  __shared__ float sf;
  __shared__ double sd;
  __shared__ unsigned hist[101];
  int t = threadIdx.x;
  if (t < 101) hist[t] = 0;
  if (t == 0) {
    si[0] = 0; si[1] = 0x7fffffff; si[2] = (int)0x80000000; si[3] = -1; si[4] = 0; si[5] = 0; si[6] = 12345; si[7] = 0;
    su[0] = 0; su[1] = 50; su[2] = 0; su[3] = 0;
    s64[0] = 0; s64[1] = 0;
    sf = 0.0f; sd = 0.0;
  }
  __syncthreads();
  int i = WCUDA_TID_X;
  int x = i < n ? v[i] : 0;
  atomicAdd(&si[0], x);
  atomicMin(&si[1], x);
  atomicMax(&si[2], x);
  atomicAnd(&si[3], x | (1 << (t % 31)));
  atomicOr(&si[4], x & (1 << (t % 29)));
  atomicXor(&si[5], x);
  int old = atomicExch(&si[6], x);
  atomicAdd(&s64[1], (unsigned long long)(long long)old);
  unsigned oi = atomicInc(&su[0], 100u);
  atomicAdd(&hist[oi], 1u);
  atomicDec(&su[1], 63u);
  unsigned ticket = atomicAdd(&su[2], 1u);
  atomicAdd(&si[7], (int)ticket);
  atomicCAS(&su[3], 0u, 0x1234u + (unsigned)blockIdx.x);
  atomicAdd(&s64[0], (unsigned long long)(unsigned)x << 16);
  atomicAdd(&sf, (float)(x & 0xffff));
  atomicAdd(&sd, (double)x);
  __syncthreads();
  if (t == 0) {
    int b = blockIdx.x;
    for (int k = 0; k < 8; k++) out[b * 16 + k] = k == 6 ? 0 : si[k];
    for (int k = 0; k < 4; k++) out[b * 16 + 8 + k] = (int)su[k];
    unsigned h = 0;
    for (int k = 0; k < 101; k++) h = h * 31u + hist[k];
    out[b * 16 + 12] = (int)h;
    out64[b * 4 + 0] = s64[0];
    out64[b * 4 + 1] = s64[1] + (unsigned long long)(long long)si[6];
    out64[b * 4 + 2] = (unsigned long long)__double_as_longlong(sd);
    outf[b] = sf;
  }
}
