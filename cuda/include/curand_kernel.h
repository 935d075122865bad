/* warpsim: curand_kernel.h, cuRAND's device API (header-only in CUDA):
 * per-thread generator states for Philox4_32_10 (Salmon et al., "Parallel
 * random numbers: as easy as 1, 2, 3", SC'11) and XORWOW (Marsaglia,
 * "Xorshift RNGs", 2003, with a Weyl sequence added), and the
 * distributions drawn from them: curand, curand4, curand_uniform(4,
 * _double), curand_normal(2, 4, _double, 2_double), curand_log_normal(...)
 * (Box-Muller), skipahead and skipahead_sequence. Written from the
 * algorithms' descriptions; the exact expressions (float conversions,
 * Box-Muller's constants, which outputs feed which part) are the ones whose
 * results match the H100 bit for bit (testdata/programs4/curand_states).
 * XORWOW's jumps use the polynomials of __warpsim_xorwow_jump.h (generated
 * by cuda/include/tools/gen_xorwow_jump.go). The MRG32k3a, Sobol and MTGP32
 * states, Poisson and discrete distributions are not offered: using them is
 * a compile error naming them. The host library (curand.h) stays refused. */
#ifndef __WARPSIM_CURAND_KERNEL_H__
#define __WARPSIM_CURAND_KERNEL_H__
#define CURAND_KERNEL_H_
#include <math.h>
#include "vector_types.h"
#include "host_defines.h"
#include "__warpsim_xorwow_jump.h"

#ifndef QUALIFIERS
#define QUALIFIERS static __forceinline__ __device__
#endif

#define CURAND_2POW32_INV (0x1p-32f)
#define CURAND_2POW32_INV_DOUBLE (0x1p-32)
#define CURAND_2POW53_INV_DOUBLE (0x1p-53)
#define CURAND_2PI (6.2831855f) /* 2*pi rounded to float: 0x40c90fdb */
#define CURAND_2POW32_INV_2PI (CURAND_2POW32_INV * CURAND_2PI)

#define __WARPSIM_CURAND_EXTRA_NORMAL 0x04
#define __WARPSIM_CURAND_EXTRA_LOG_NORMAL 0x08

/* ---- states ---- */

struct curandStatePhilox4_32_10 {
  uint4 ctr;          /* the 128-bit counter: x lowest, w highest */
  uint4 output;       /* the block of four outputs for ctr */
  uint2 key;          /* the seed's low and high words */
  unsigned int STATE; /* the next output of the block (0..3) */
  int boxmuller_flag;
  int boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
};
typedef struct curandStatePhilox4_32_10 curandStatePhilox4_32_10_t;

struct curandStateXORWOW {
  unsigned int d;    /* the Weyl sequence, stepped by 362437 */
  unsigned int v[5]; /* the xorshift words */
  int boxmuller_flag;
  int boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
};
typedef struct curandStateXORWOW curandStateXORWOW_t;
typedef struct curandStateXORWOW curandState_t;
typedef struct curandStateXORWOW curandState;

/* The generators warpsim does not offer: any use is a compile error. */
#define __WARPSIM_CURAND_NO(what) __attribute__((unavailable("warpsim: cuRAND's " what " is not offered (curand_kernel.h offers the Philox4_32_10 and XORWOW states, their uniform, normal and log-normal distributions)")))
struct curandStateMRG32k3a;
typedef struct curandStateMRG32k3a curandStateMRG32k3a_t __WARPSIM_CURAND_NO("MRG32k3a state");
struct curandStateSobol32;
typedef struct curandStateSobol32 curandStateSobol32_t __WARPSIM_CURAND_NO("Sobol32 state");
struct curandStateScrambledSobol32;
typedef struct curandStateScrambledSobol32 curandStateScrambledSobol32_t __WARPSIM_CURAND_NO("scrambled Sobol32 state");
struct curandStateSobol64;
typedef struct curandStateSobol64 curandStateSobol64_t __WARPSIM_CURAND_NO("Sobol64 state");
struct curandStateScrambledSobol64;
typedef struct curandStateScrambledSobol64 curandStateScrambledSobol64_t __WARPSIM_CURAND_NO("scrambled Sobol64 state");
struct curandStateMtgp32;
typedef struct curandStateMtgp32 curandStateMtgp32_t __WARPSIM_CURAND_NO("MTGP32 state");
struct curandDiscreteDistribution_st;
typedef struct curandDiscreteDistribution_st *curandDiscreteDistribution_t __WARPSIM_CURAND_NO("discrete distribution (curand_poisson, curand_discrete)");

/* ---- Philox4x32-10 ---- */

#define PHILOX_W32_0 (0x9E3779B9u)
#define PHILOX_W32_1 (0xBB67AE85u)
#define PHILOX_M4x32_0 (0xD2511F53u)
#define PHILOX_M4x32_1 (0xCD9E8D57u)

QUALIFIERS uint4 __warpsim_philox_round(uint4 c, uint2 k) {
  unsigned int lo0 = PHILOX_M4x32_0 * c.x, hi0 = __umulhi(PHILOX_M4x32_0, c.x);
  unsigned int lo1 = PHILOX_M4x32_1 * c.z, hi1 = __umulhi(PHILOX_M4x32_1, c.z);
  uint4 r;
  r.x = hi1 ^ c.y ^ k.x;
  r.y = lo1;
  r.z = hi0 ^ c.w ^ k.y;
  r.w = lo0;
  return r;
}

/* curand_Philox4x32_10 is the bijection itself: ten rounds, the key bumped
 * by the Weyl constants between rounds. */
QUALIFIERS uint4 curand_Philox4x32_10(uint4 c, uint2 k) {
  for (int i = 0; i < 9; i++) {
    c = __warpsim_philox_round(c, k);
    k.x += PHILOX_W32_0;
    k.y += PHILOX_W32_1;
  }
  return __warpsim_philox_round(c, k);
}

/* __warpsim_philox_incr adds n to the counter's low 64 bits (x, y),
 * carrying into the high 64 bits (z, w); __warpsim_philox_incr_hi adds n
 * to the high 64 bits. */
QUALIFIERS void __warpsim_philox_incr(curandStatePhilox4_32_10_t *s, unsigned long long n) {
  unsigned long long lo = ((unsigned long long)s->ctr.y << 32) | s->ctr.x;
  unsigned long long sum = lo + n;
  s->ctr.x = (unsigned int)sum;
  s->ctr.y = (unsigned int)(sum >> 32);
  if (sum < lo) {
    unsigned long long hi = ((unsigned long long)s->ctr.w << 32) | s->ctr.z;
    hi++;
    s->ctr.z = (unsigned int)hi;
    s->ctr.w = (unsigned int)(hi >> 32);
  }
}

QUALIFIERS void __warpsim_philox_incr_hi(curandStatePhilox4_32_10_t *s, unsigned long long n) {
  unsigned long long hi = ((unsigned long long)s->ctr.w << 32) | s->ctr.z;
  hi += n;
  s->ctr.z = (unsigned int)hi;
  s->ctr.w = (unsigned int)(hi >> 32);
}

/* skipahead skips n outputs (32-bit values); the block is regenerated. */
QUALIFIERS void skipahead(unsigned long long n, curandStatePhilox4_32_10_t *state) {
  state->STATE += (unsigned int)(n & 3);
  n /= 4;
  if (state->STATE > 3) {
    n += 1;
    state->STATE -= 4;
  }
  __warpsim_philox_incr(state, n);
  state->output = curand_Philox4x32_10(state->ctr, state->key);
}

/* skipahead_sequence moves to subsequence n further on (2^66 outputs each:
 * the counter's high 64 bits). */
QUALIFIERS void skipahead_sequence(unsigned long long n, curandStatePhilox4_32_10_t *state) {
  __warpsim_philox_incr_hi(state, n);
  state->output = curand_Philox4x32_10(state->ctr, state->key);
}

QUALIFIERS void curand_init(unsigned long long seed, unsigned long long subsequence, unsigned long long offset,
                            curandStatePhilox4_32_10_t *state) {
  state->ctr = make_uint4(0, 0, 0, 0);
  state->key.x = (unsigned int)seed;
  state->key.y = (unsigned int)(seed >> 32);
  state->STATE = 0;
  state->boxmuller_flag = 0;
  state->boxmuller_flag_double = 0;
  state->boxmuller_extra = 0.f;
  state->boxmuller_extra_double = 0.;
  skipahead_sequence(subsequence, state);
  skipahead(offset, state);
}

QUALIFIERS unsigned int curand(curandStatePhilox4_32_10_t *state) {
  unsigned int r;
  switch (state->STATE++) {
  case 1: r = state->output.y; break;
  case 2: r = state->output.z; break;
  case 3: r = state->output.w; break;
  default: r = state->output.x; break;
  }
  if (state->STATE == 4) {
    __warpsim_philox_incr(state, 1);
    state->output = curand_Philox4x32_10(state->ctr, state->key);
    state->STATE = 0;
  }
  return r;
}

/* curand4 returns the next four outputs (STATE stays where it was). */
QUALIFIERS uint4 curand4(curandStatePhilox4_32_10_t *state) {
  uint4 t = state->output, r;
  __warpsim_philox_incr(state, 1);
  state->output = curand_Philox4x32_10(state->ctr, state->key);
  switch (state->STATE) {
  case 1: r = make_uint4(t.y, t.z, t.w, state->output.x); break;
  case 2: r = make_uint4(t.z, t.w, state->output.x, state->output.y); break;
  case 3: r = make_uint4(t.w, state->output.x, state->output.y, state->output.z); break;
  default: r = t; break;
  }
  return r;
}

/* ---- XORWOW ---- */

QUALIFIERS unsigned int curand(curandStateXORWOW_t *state) {
  unsigned int t = state->v[0] ^ (state->v[0] >> 2);
  state->v[0] = state->v[1];
  state->v[1] = state->v[2];
  state->v[2] = state->v[3];
  state->v[3] = state->v[4];
  state->v[4] = (state->v[4] ^ (state->v[4] << 4)) ^ (t ^ (t << 1));
  state->d += 362437;
  return state->v[4] + state->d;
}

/* __warpsim_xorwow_jump replaces v by p(A) v: A is the xorshift step, p a
 * polynomial of degree < 160 (five words, x^0 lowest). */
QUALIFIERS void __warpsim_xorwow_jump(unsigned int *v, const unsigned int *p) {
  unsigned int w0 = v[0], w1 = v[1], w2 = v[2], w3 = v[3], w4 = v[4];
  unsigned int a0 = 0, a1 = 0, a2 = 0, a3 = 0, a4 = 0;
  for (int j = 0; j < 5; j++) {
    unsigned int bits = p[j];
    for (int i = 0; i < 32; i++) {
      unsigned int m = 0u - (bits & 1u);
      bits >>= 1;
      a0 ^= w0 & m;
      a1 ^= w1 & m;
      a2 ^= w2 & m;
      a3 ^= w3 & m;
      a4 ^= w4 & m;
      unsigned int t = w0 ^ (w0 >> 2);
      w0 = w1;
      w1 = w2;
      w2 = w3;
      w3 = w4;
      w4 = (w4 ^ (w4 << 4)) ^ (t ^ (t << 1));
    }
  }
  v[0] = a0;
  v[1] = a1;
  v[2] = a2;
  v[3] = a3;
  v[4] = a4;
}

/* skipahead skips n outputs: the xorshift words jump by n, the Weyl
 * sequence adds n * 362437. */
QUALIFIERS void skipahead(unsigned long long n, curandStateXORWOW_t *state) {
  state->d += 362437u * (unsigned int)n;
  for (int k = 0; n != 0; k++, n >>= 1) {
    if (n & 1)
      __warpsim_xorwow_jump(state->v, __warpsim_xorwow_jump_offset[k]);
  }
}

/* skipahead_sequence skips n subsequences of 2^67 outputs (the Weyl
 * sequence, whose period 2^32 divides 2^67, is unchanged). */
QUALIFIERS void skipahead_sequence(unsigned long long n, curandStateXORWOW_t *state) {
  for (int k = 0; n != 0; k++, n >>= 1) {
    if (n & 1)
      __warpsim_xorwow_jump(state->v, __warpsim_xorwow_jump_sequence[k]);
  }
}

/* curand_init scrambles the seed's halves into the five words and d. */
QUALIFIERS void curand_init(unsigned long long seed, unsigned long long subsequence, unsigned long long offset,
                            curandStateXORWOW_t *state) {
  unsigned int s0 = (unsigned int)seed ^ 0xaad26b49u;
  unsigned int s1 = (unsigned int)(seed >> 32) ^ 0xf7dcefddu;
  unsigned int t0 = 1099087573u * s0;
  unsigned int t1 = 2591861531u * s1;
  state->d = 6615241u + t1 + t0;
  state->v[0] = 123456789u + t0;
  state->v[1] = 362436069u ^ t0;
  state->v[2] = 521288629u + t1;
  state->v[3] = 88675123u ^ t1;
  state->v[4] = 5783321u + t0;
  skipahead_sequence(subsequence, state);
  skipahead(offset, state);
  state->boxmuller_flag = 0;
  state->boxmuller_flag_double = 0;
  state->boxmuller_extra = 0.f;
  state->boxmuller_extra_double = 0.;
}

/* ---- conversions ---- */

QUALIFIERS float _curand_uniform(unsigned int x) { return x * CURAND_2POW32_INV + (CURAND_2POW32_INV / 2.0f); }

QUALIFIERS float4 _curand_uniform4(uint4 x) {
  return make_float4(_curand_uniform(x.x), _curand_uniform(x.y), _curand_uniform(x.z), _curand_uniform(x.w));
}

/* 53 bits from two outputs: x ^ (y << 21). */
QUALIFIERS double _curand_uniform_double_hq(unsigned int x, unsigned int y) {
  unsigned long long z = (unsigned long long)x ^ ((unsigned long long)y << (53 - 32));
  return z * CURAND_2POW53_INV_DOUBLE + (CURAND_2POW53_INV_DOUBLE / 2.0);
}

QUALIFIERS float2 _curand_box_muller(unsigned int x, unsigned int y) {
  float2 r;
  float u = x * CURAND_2POW32_INV + (CURAND_2POW32_INV / 2.0f);
  float v = y * CURAND_2POW32_INV_2PI + (CURAND_2POW32_INV_2PI / 2.0f);
  float s = sqrtf(-2.0f * logf(u));
  __sincosf(v, &r.x, &r.y);
  r.x *= s;
  r.y *= s;
  return r;
}

/* The radius from x0 ^ (x1 << 21), the angle (pi units) from y0 ^ (y1 << 21). */
QUALIFIERS double2 _curand_box_muller_double(unsigned int x0, unsigned int x1, unsigned int y0, unsigned int y1) {
  double2 r;
  unsigned long long zx = (unsigned long long)x0 ^ ((unsigned long long)x1 << (53 - 32));
  double u = zx * CURAND_2POW53_INV_DOUBLE + (CURAND_2POW53_INV_DOUBLE / 2.0);
  unsigned long long zy = (unsigned long long)y0 ^ ((unsigned long long)y1 << (53 - 32));
  double v = zy * (CURAND_2POW53_INV_DOUBLE * 2.0) + CURAND_2POW53_INV_DOUBLE;
  double s = sqrt(-2.0 * log(u));
  sincospi(v, &r.x, &r.y);
  r.x *= s;
  r.y *= s;
  return r;
}

/* ---- distributions, both generators ---- */

#define __WARPSIM_CURAND_BOTH(body) \
  body(curandStatePhilox4_32_10_t) \
  body(curandStateXORWOW_t)

#define __WARPSIM_CURAND_COMMON(S) \
  QUALIFIERS float curand_uniform(S *state) { return _curand_uniform(curand(state)); } \
  QUALIFIERS double curand_uniform_double(S *state) { \
    unsigned int x = curand(state); \
    unsigned int y = curand(state); \
    return _curand_uniform_double_hq(x, y); \
  } \
  QUALIFIERS float2 curand_box_muller(S *state) { \
    unsigned int x = curand(state); \
    unsigned int y = curand(state); \
    return _curand_box_muller(x, y); \
  } \
  QUALIFIERS float curand_normal(S *state) { \
    if (state->boxmuller_flag != __WARPSIM_CURAND_EXTRA_NORMAL) { \
      float2 v = curand_box_muller(state); \
      state->boxmuller_extra = v.y; \
      state->boxmuller_flag = __WARPSIM_CURAND_EXTRA_NORMAL; \
      return v.x; \
    } \
    state->boxmuller_flag = 0; \
    return state->boxmuller_extra; \
  } \
  QUALIFIERS float2 curand_normal2(S *state) { return curand_box_muller(state); } \
  QUALIFIERS float curand_log_normal(S *state, float mean, float stddev) { \
    if (state->boxmuller_flag != __WARPSIM_CURAND_EXTRA_LOG_NORMAL) { \
      float2 v = curand_box_muller(state); \
      state->boxmuller_extra = expf(mean + stddev * v.y); \
      state->boxmuller_flag = __WARPSIM_CURAND_EXTRA_LOG_NORMAL; \
      return expf(mean + stddev * v.x); \
    } \
    state->boxmuller_flag = 0; \
    return state->boxmuller_extra; \
  } \
  QUALIFIERS float2 curand_log_normal2(S *state, float mean, float stddev) { \
    float2 v = curand_box_muller(state); \
    v.x = expf(mean + stddev * v.x); \
    v.y = expf(mean + stddev * v.y); \
    return v; \
  } \
  QUALIFIERS double curand_normal_double(S *state) { \
    if (state->boxmuller_flag_double != __WARPSIM_CURAND_EXTRA_NORMAL) { \
      double2 v = curand_normal2_double(state); \
      state->boxmuller_extra_double = v.y; \
      state->boxmuller_flag_double = __WARPSIM_CURAND_EXTRA_NORMAL; \
      return v.x; \
    } \
    state->boxmuller_flag_double = 0; \
    return state->boxmuller_extra_double; \
  } \
  QUALIFIERS double curand_log_normal_double(S *state, double mean, double stddev) { \
    if (state->boxmuller_flag_double != __WARPSIM_CURAND_EXTRA_LOG_NORMAL) { \
      double2 v = curand_normal2_double(state); \
      state->boxmuller_extra_double = exp(mean + stddev * v.y); \
      state->boxmuller_flag_double = __WARPSIM_CURAND_EXTRA_LOG_NORMAL; \
      return exp(mean + stddev * v.x); \
    } \
    state->boxmuller_flag_double = 0; \
    return state->boxmuller_extra_double; \
  } \
  QUALIFIERS double2 curand_log_normal2_double(S *state, double mean, double stddev) { \
    double2 v = curand_normal2_double(state); \
    v.x = exp(mean + stddev * v.x); \
    v.y = exp(mean + stddev * v.y); \
    return v; \
  }

/* XORWOW's double normals: four outputs, the radius from the first two,
 * the angle from the last two (as Philox's block of four). */
QUALIFIERS double2 curand_normal2_double(curandStateXORWOW_t *state) {
  unsigned int a = curand(state);
  unsigned int b = curand(state);
  unsigned int c = curand(state);
  unsigned int d = curand(state);
  return _curand_box_muller_double(a, b, c, d);
}

/* Philox's double normals: one block of four, radius from x and y, angle
 * from z and w. */
QUALIFIERS double2 curand_normal2_double(curandStatePhilox4_32_10_t *state) {
  uint4 x = curand4(state);
  return _curand_box_muller_double(x.x, x.y, x.z, x.w);
}

__WARPSIM_CURAND_BOTH(__WARPSIM_CURAND_COMMON)

/* ---- Philox's four-wide distributions ---- */

QUALIFIERS float4 curand_uniform4(curandStatePhilox4_32_10_t *state) { return _curand_uniform4(curand4(state)); }

QUALIFIERS double2 curand_uniform2_double(curandStatePhilox4_32_10_t *state) {
  uint4 x = curand4(state);
  double2 r;
  r.x = _curand_uniform_double_hq(x.x, x.y);
  r.y = _curand_uniform_double_hq(x.z, x.w);
  return r;
}

QUALIFIERS double4 curand_uniform4_double(curandStatePhilox4_32_10_t *state) {
  uint4 x = curand4(state), y = curand4(state);
  double4 r;
  r.x = _curand_uniform_double_hq(x.x, x.y);
  r.y = _curand_uniform_double_hq(x.z, x.w);
  r.z = _curand_uniform_double_hq(y.x, y.y);
  r.w = _curand_uniform_double_hq(y.z, y.w);
  return r;
}

QUALIFIERS float4 curand_normal4(curandStatePhilox4_32_10_t *state) {
  uint4 x = curand4(state);
  float2 a = _curand_box_muller(x.x, x.y), b = _curand_box_muller(x.z, x.w);
  return make_float4(a.x, a.y, b.x, b.y);
}

QUALIFIERS float4 curand_log_normal4(curandStatePhilox4_32_10_t *state, float mean, float stddev) {
  float4 n = curand_normal4(state);
  return make_float4(expf(mean + stddev * n.x), expf(mean + stddev * n.y), expf(mean + stddev * n.z),
                     expf(mean + stddev * n.w));
}

QUALIFIERS double4 curand_normal4_double(curandStatePhilox4_32_10_t *state) {
  uint4 x = curand4(state), y = curand4(state);
  double2 a = _curand_box_muller_double(x.x, x.y, x.z, x.w), b = _curand_box_muller_double(y.x, y.y, y.z, y.w);
  double4 r;
  r.x = a.x;
  r.y = a.y;
  r.z = b.x;
  r.w = b.y;
  return r;
}

/* ---- not offered ---- */

#define __WARPSIM_CURAND_NOT_OFFERED(S) \
  QUALIFIERS unsigned int curand_poisson(S *state, double lambda) __WARPSIM_CURAND_NO("Poisson distribution (curand_poisson)"); \
  QUALIFIERS unsigned int curand_discrete(S *state, curandDiscreteDistribution_t d) __WARPSIM_CURAND_NO("discrete distribution (curand_discrete)");
__WARPSIM_CURAND_BOTH(__WARPSIM_CURAND_NOT_OFFERED)
QUALIFIERS uint4 curand_poisson4(curandStatePhilox4_32_10_t *state, double lambda) __WARPSIM_CURAND_NO("Poisson distribution (curand_poisson4)");

#undef __WARPSIM_CURAND_NOT_OFFERED
#undef __WARPSIM_CURAND_BOTH
#undef __WARPSIM_CURAND_COMMON
#endif
