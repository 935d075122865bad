// Atomics on every type: 16-bit CAS, float exchange, 64-bit min/max,
// atomicInc/Dec wraparound, bitwise 64-bit, block and system scopes.
#include <cstdio>

struct Counters {
  unsigned short h16[4];
  float fx;
  long long smin, smax;
  unsigned long long umin, umax, uand, uor, uxor, uadd;
  unsigned inc, dec, incw;
  int blk, sys;
  double dsum;
  float fmaxv;
  int exchCount;
};

__device__ unsigned short cas16_add(unsigned short *p, unsigned short v) {
  unsigned short old = *p, assumed;
  do {
    assumed = old;
    old = atomicCAS(p, assumed, (unsigned short)(assumed + v));
  } while (old != assumed);
  return old;
}

__device__ float atomicMaxFloat(float *addr, float v) {
  int *a = (int *)addr;
  int old = *a, assumed;
  do {
    assumed = old;
    if (__int_as_float(assumed) >= v) break;
    old = atomicCAS(a, assumed, __float_as_int(v));
  } while (old != assumed);
  return __int_as_float(old);
}

__global__ void hammer(Counters *c, unsigned *incLog) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  cas16_add(&c->h16[t & 3], (unsigned short)(t + 1));
  float prev = atomicExch(&c->fx, (float)t);
  if (prev >= 0.0f) atomicAdd(&c->exchCount, 1);
  long long sv = (long long)(t * 7919 % 1000 - 500) * 100000000LL;
  atomicMin(&c->smin, sv);
  atomicMax(&c->smax, sv);
  unsigned long long uv = 0x9E3779B97F4A7C15ULL * (unsigned long long)(t + 1);
  atomicMin(&c->umin, uv);
  atomicMax(&c->umax, uv);
  atomicAnd(&c->uand, ~(1ULL << (t % 64)));
  atomicOr(&c->uor, 1ULL << ((t * 5) % 64));
  atomicXor(&c->uxor, uv);
  atomicAdd(&c->uadd, uv >> 20);
  atomicInc(&c->inc, 17u);
  atomicDec(&c->dec, 9u);
  incLog[t] = atomicInc(&c->incw, 0xffffffffu) == 0xffffffffu;
  atomicAdd_block(&c->blk, 1);
  atomicAdd_system(&c->sys, 2);
  atomicAdd(&c->dsum, (t & 7) * 0.125 + 1e-3 * 0);
  atomicMaxFloat(&c->fmaxv, __sinf((float)t) * 100.0f);
}

int main() {
  Counters h = {};
  h.fx = -1.0f;
  h.smin = 1LL << 62; h.smax = -(1LL << 62);
  h.umin = ~0ULL; h.umax = 0; h.uand = ~0ULL; h.uor = 0; h.uxor = 0; h.uadd = 0;
  h.inc = 0; h.dec = 3; h.incw = 0xffffffffu - 100;
  h.fmaxv = -1e30f;
  Counters *d; unsigned *log;
  const int N = 4 * 256;
  cudaMalloc(&d, sizeof h);
  cudaMalloc(&log, N * 4);
  cudaMemcpy(d, &h, sizeof h, cudaMemcpyHostToDevice);
  hammer<<<4, 256>>>(d, log);
  cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost);
  unsigned hl[N];
  cudaMemcpy(hl, log, sizeof hl, cudaMemcpyDeviceToHost);
  int wraps = 0;
  for (int i = 0; i < N; i++) wraps += hl[i];
  printf("h16 %u %u %u %u\n", h.h16[0], h.h16[1], h.h16[2], h.h16[3]);
  printf("exch count %d, final in range %d\n", h.exchCount, h.fx >= 0 && h.fx < N);
  printf("smin %lld smax %lld\n", h.smin, h.smax);
  printf("umin %016llx umax %016llx\n", h.umin, h.umax);
  printf("and %016llx or %016llx xor %016llx add %016llx\n", h.uand, h.uor, h.uxor, h.uadd);
  printf("inc %u dec %u incw %u wraps %d\n", h.inc, h.dec, h.incw, wraps);
  printf("block %d system %d\n", h.blk, h.sys);
  printf("dsum %.17g fmax %a\n", h.dsum, h.fmaxv);
  printf("%s\n", cudaGetErrorString(cudaGetLastError()));
  return 0;
}
