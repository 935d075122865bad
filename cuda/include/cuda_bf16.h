/* warpsim: bfloat16 (__nv_bfloat16, __nv_bfloat162) for host and device,
 * stored as CUDA stores them; arithmetic is clang's __bf16, which device
 * code compiles to PTX's bf16 instructions and host code rounds correctly. */
#ifndef __WARPSIM_CUDA_BF16_H__
#define __WARPSIM_CUDA_BF16_H__
/* NVIDIA's include-guard name, which programs test. */
#define __CUDA_BF16_H__
#include "__warpsim_defines.h"
#include "vector_types.h"

typedef __bf16 __warpsim_bf16;

/* float to bf16 bits, rounded to nearest even. Device code converts with
 * cvt.rn.bf16.f32; host code rounds here, as CUDA's host conversion does
 * (NaN becomes 0x7fff), since clang's host __bf16 conversion needs
 * __truncsfbf2, which the host C library does not have. */
__WARPSIM_HDI__ unsigned short __warpsim_f2bf(float f) {
#ifdef __CUDA_ARCH__
  return __builtin_bit_cast(unsigned short, (__warpsim_bf16)f);
#else
  unsigned u = __builtin_bit_cast(unsigned, f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return 0x7fff;
  return (unsigned short)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
#endif
}

struct __nv_bfloat16_raw { unsigned short x; };
struct __nv_bfloat162_raw { unsigned short x, y; };

struct __align__(2) __nv_bfloat16 {
  unsigned short __x;
#ifdef __cplusplus
  __nv_bfloat16() = default;
  __host__ __device__ __nv_bfloat16(__nv_bfloat16_raw r) : __x(r.x) {}
  __host__ __device__ __nv_bfloat16(float f) : __x(__warpsim_f2bf(f)) {}
  __host__ __device__ __nv_bfloat16(double f) : __x(__warpsim_f2bf((float)f)) {}
  __host__ __device__ operator float() const { return __builtin_bit_cast(float, (unsigned)__x << 16); }
  __host__ __device__ operator __nv_bfloat16_raw() const { return __nv_bfloat16_raw{__x}; }
#endif
};

struct __align__(4) __nv_bfloat162 {
  __nv_bfloat16 x, y;
#ifdef __cplusplus
  __nv_bfloat162() = default;
  __host__ __device__ __nv_bfloat162(__nv_bfloat16 a, __nv_bfloat16 b) : x(a), y(b) {}
  __host__ __device__ __nv_bfloat162(__nv_bfloat162_raw r) : x(__nv_bfloat16_raw{r.x}), y(__nv_bfloat16_raw{r.y}) {}
  __host__ __device__ operator __nv_bfloat162_raw() const { return __nv_bfloat162_raw{x.__x, y.__x}; }
#endif
};
typedef struct __nv_bfloat16 nv_bfloat16;
typedef struct __nv_bfloat162 nv_bfloat162;

__WARPSIM_HDI__ __warpsim_bf16 __warpsim_b(__nv_bfloat16 h) { return __builtin_bit_cast(__warpsim_bf16, h.__x); }
__WARPSIM_HDI__ __nv_bfloat16 __warpsim_mkb(__warpsim_bf16 f) {
  return __nv_bfloat16(__nv_bfloat16_raw{__builtin_bit_cast(unsigned short, f)});
}

__WARPSIM_HDI__ __nv_bfloat16 __float2bfloat16(float f) { return __nv_bfloat16(__nv_bfloat16_raw{__warpsim_f2bf(f)}); }
__WARPSIM_HDI__ __nv_bfloat16 __float2bfloat16_rn(float f) { return __float2bfloat16(f); }
__WARPSIM_HDI__ float __bfloat162float(__nv_bfloat16 h) { return __builtin_bit_cast(float, (unsigned)h.__x << 16); }
/* A bf16 operation: the __bf16 instruction in device code; in host code
 * the operation in float, rounded once (as CUDA's host code computes it). */
#ifdef __CUDA_ARCH__
#define __WARPSIM_BF_BIN(a, op, b) __warpsim_mkb(__warpsim_b(a) op __warpsim_b(b))
#define __WARPSIM_BF_FMA(a, b, c) __warpsim_mkb(__builtin_elementwise_fma(__warpsim_b(a), __warpsim_b(b), __warpsim_b(c)))
#else
#define __WARPSIM_BF_BIN(a, op, b) __float2bfloat16(__bfloat162float(a) op __bfloat162float(b))
#define __WARPSIM_BF_FMA(a, b, c) __float2bfloat16(__builtin_fmaf(__bfloat162float(a), __bfloat162float(b), __bfloat162float(c)))
#endif
__WARPSIM_HDI__ unsigned short __bfloat16_as_ushort(__nv_bfloat16 h) { return h.__x; }
__WARPSIM_HDI__ __nv_bfloat16 __ushort_as_bfloat16(unsigned short s) { return __nv_bfloat16(__nv_bfloat16_raw{s}); }
__WARPSIM_HDI__ __nv_bfloat162 __floats2bfloat162_rn(float a, float b) {
  return __nv_bfloat162(__float2bfloat16(a), __float2bfloat16(b));
}
__WARPSIM_HDI__ float2 __bfloat1622float2(__nv_bfloat162 h) {
  return make_float2(__bfloat162float(h.x), __bfloat162float(h.y));
}
__WARPSIM_HDI__ __nv_bfloat16 __hadd(__nv_bfloat16 a, __nv_bfloat16 b) { return __WARPSIM_BF_BIN(a, +, b); }
__WARPSIM_HDI__ __nv_bfloat16 __hsub(__nv_bfloat16 a, __nv_bfloat16 b) { return __WARPSIM_BF_BIN(a, -, b); }
__WARPSIM_HDI__ __nv_bfloat16 __hmul(__nv_bfloat16 a, __nv_bfloat16 b) { return __WARPSIM_BF_BIN(a, *, b); }
__WARPSIM_HDI__ __nv_bfloat16 __hdiv(__nv_bfloat16 a, __nv_bfloat16 b) { return __WARPSIM_BF_BIN(a, /, b); }
__WARPSIM_HDI__ __nv_bfloat16 __hfma(__nv_bfloat16 a, __nv_bfloat16 b, __nv_bfloat16 c) {
  return __WARPSIM_BF_FMA(a, b, c);
}
__WARPSIM_HDI__ __nv_bfloat16 __hneg(__nv_bfloat16 a) { return __ushort_as_bfloat16((unsigned short)(a.__x ^ 0x8000)); }

#ifdef __cplusplus
__WARPSIM_HDI__ __nv_bfloat16 operator+(__nv_bfloat16 a, __nv_bfloat16 b) { return __hadd(a, b); }
__WARPSIM_HDI__ __nv_bfloat16 operator-(__nv_bfloat16 a, __nv_bfloat16 b) { return __hsub(a, b); }
__WARPSIM_HDI__ __nv_bfloat16 operator*(__nv_bfloat16 a, __nv_bfloat16 b) { return __hmul(a, b); }
__WARPSIM_HDI__ __nv_bfloat16 operator/(__nv_bfloat16 a, __nv_bfloat16 b) { return __hdiv(a, b); }
__WARPSIM_HDI__ __nv_bfloat16 operator-(__nv_bfloat16 a) { return __hneg(a); }
__WARPSIM_HDI__ bool operator==(__nv_bfloat16 a, __nv_bfloat16 b) { return __bfloat162float(a) == __bfloat162float(b); }
__WARPSIM_HDI__ bool operator<(__nv_bfloat16 a, __nv_bfloat16 b) { return __bfloat162float(a) < __bfloat162float(b); }
__WARPSIM_HDI__ bool operator>(__nv_bfloat16 a, __nv_bfloat16 b) { return __bfloat162float(a) > __bfloat162float(b); }
#endif

#if defined(__cplusplus) && defined(__CUDA__) && !defined(__WARPSIM_HOST_ONLY__)
/* atomicAdd on bf16 and bf16 pairs (sm_90's atom.add.noftz.bf16{,x2}). */
__WARPSIM_DI__ __nv_bfloat16 atomicAdd(__nv_bfloat16 *p, __nv_bfloat16 v) {
  unsigned short old;
  asm volatile("atom.add.noftz.bf16 %0, [%1], %2;" : "=h"(old) : "l"(p), "h"(v.__x) : "memory");
  return __ushort_as_bfloat16(old);
}
__WARPSIM_DI__ __nv_bfloat162 atomicAdd(__nv_bfloat162 *p, __nv_bfloat162 v) {
  unsigned old;
  asm volatile("atom.add.noftz.bf16x2 %0, [%1], %2;" : "=r"(old) : "l"(p), "r"(__builtin_bit_cast(unsigned, v)) : "memory");
  return __builtin_bit_cast(__nv_bfloat162, old);
}
#endif

#endif
