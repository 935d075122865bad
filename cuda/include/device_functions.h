/* warpsim: device functions — barriers and fences, atomics, warp
 * intrinsics, integer and float intrinsics, printf, assert, clock, __ldg.
 * Each is a clang NVVM builtin or a line of inline PTX, so it becomes the
 * PTX instruction nvcc would emit and the warpsim engine executes it. */
#ifndef __WARPSIM_DEVICE_FUNCTIONS_H__
#define __WARPSIM_DEVICE_FUNCTIONS_H__
/* NVIDIA's include-guard names, which programs test. */
#define __DEVICE_FUNCTIONS_H__
#define __DEVICE_ATOMIC_FUNCTIONS_H__
#define __SM_20_INTRINSICS_H__
#define __SM_30_INTRINSICS_H__
#define __SM_32_INTRINSICS_H__
#include "vector_types.h"
#include <stddef.h>
#ifndef __WARPSIM_HOST_ONLY__

/* printf, malloc/free and assert in device code. Clang turns printf into
 * vprintf(format, packed-arguments); assert's failure path calls
 * __assertfail, which the engine implements. */
extern "C" {
__device__ int vprintf(const char *, const char *);
__device__ int printf(const char *, ...);
__device__ void *malloc(size_t) __attribute__((nothrow));
__device__ void free(void *) __attribute__((nothrow));
__device__ void __assertfail(const char *message, const char *file, unsigned line, const char *function, size_t charSize);
__device__ static inline void __assert_fail(const char *message, const char *file, unsigned line, const char *function) {
  __assertfail(message, file, line, function, sizeof(char));
}
}
/* __trap is PTX's trap instruction: the kernel stops with an error. In
 * device code it is a macro, so the trap's line information is the
 * caller's and a fault report names the program's line, not this header's
 * (clang's PTX keeps an inlined function's own line). */
__WARPSIM_DI__ __attribute__((noreturn)) void __trap(void) {
  asm volatile("trap;");
  __builtin_unreachable();
}
#ifdef __CUDA_ARCH__
#define __trap() (__extension__({ asm volatile("trap;"); __builtin_unreachable(); }))
#endif
__WARPSIM_DI__ void __brkpt(void) { asm volatile("brkpt;"); }

/* ---- Barriers and fences ---- */
__WARPSIM_DI__ int __syncthreads_count(int p) { return __nvvm_bar0_popc(p); }
__WARPSIM_DI__ int __syncthreads_and(int p) { return __nvvm_bar0_and(p); }
__WARPSIM_DI__ int __syncthreads_or(int p) { return __nvvm_bar0_or(p); }
__WARPSIM_DI__ void __syncwarp(unsigned mask = 0xffffffffu) { __nvvm_bar_warp_sync(mask); }
__WARPSIM_DI__ void __threadfence(void) { __nvvm_membar_gl(); }
__WARPSIM_DI__ void __threadfence_block(void) { __nvvm_membar_cta(); }
__WARPSIM_DI__ void __threadfence_system(void) { __nvvm_membar_sys(); }
__WARPSIM_DI__ void __nanosleep(unsigned ns) { asm volatile("nanosleep.u32 %0;" ::"r"(ns)); }

/* ---- Clocks ---- */
__WARPSIM_DI__ long long clock64(void) { return __nvvm_read_ptx_sreg_clock64(); }
__WARPSIM_DI__ long clock(void) { return (long)__nvvm_read_ptx_sreg_clock(); }
/* No __globaltimer(): CUDA's headers have none, and programs define their
 * own (reading %globaltimer with inline asm), which a definition here broke. */
__WARPSIM_DI__ unsigned __laneid(void) { return __nvvm_read_ptx_sreg_laneid(); }
__WARPSIM_DI__ unsigned __lanemask_lt(void) { return __nvvm_read_ptx_sreg_lanemask_lt(); }
__WARPSIM_DI__ unsigned __lanemask_le(void) { return __nvvm_read_ptx_sreg_lanemask_le(); }
__WARPSIM_DI__ unsigned __lanemask_gt(void) { return __nvvm_read_ptx_sreg_lanemask_gt(); }
__WARPSIM_DI__ unsigned __lanemask_ge(void) { return __nvvm_read_ptx_sreg_lanemask_ge(); }

/* Address spaces of generic pointers (sm_20_intrinsics.h): isspacep and
 * cvta, as nvcc's headers compile them. */
__WARPSIM_DI__ unsigned int __isGlobal(const void *p) { return __nvvm_isspacep_global(p); }
__WARPSIM_DI__ unsigned int __isShared(const void *p) { return __nvvm_isspacep_shared(p); }
__WARPSIM_DI__ unsigned int __isConstant(const void *p) { return __nvvm_isspacep_const(p); }
__WARPSIM_DI__ unsigned int __isLocal(const void *p) { return __nvvm_isspacep_local(p); }
#define __WARPSIM_CVTA(SPACE)                                                                       \
  __WARPSIM_DI__ size_t __cvta_generic_to_##SPACE(const void *p) {                                 \
    size_t r;                                                                                       \
    asm("cvta.to." #SPACE ".u64 %0, %1;" : "=l"(r) : "l"(p));                                       \
    return r;                                                                                       \
  }                                                                                                 \
  __WARPSIM_DI__ void *__cvta_##SPACE##_to_generic(size_t a) {                                     \
    void *r;                                                                                        \
    asm("cvta." #SPACE ".u64 %0, %1;" : "=l"(r) : "l"(a));                                          \
    return r;                                                                                       \
  }
__WARPSIM_CVTA(global)
__WARPSIM_CVTA(shared)
__WARPSIM_CVTA(local)
__WARPSIM_CVTA(const)
#undef __WARPSIM_CVTA
__WARPSIM_DI__ size_t __cvta_generic_to_constant(const void *p) { return __cvta_generic_to_const(p); }
__WARPSIM_DI__ void *__cvta_constant_to_generic(size_t a) { return __cvta_const_to_generic(a); }

/* ---- Atomics (generic addresses, as nvcc emits them) ---- */

#define __WARPSIM_ATOM3(NAME, T, OP, SUF, CAST)                                \
  __WARPSIM_DI__ T NAME(T *p, T v) { return (T)__nvvm_atom_##OP##_gen_##SUF((CAST *)p, (CAST)v); } \
  __WARPSIM_DI__ T NAME##_block(T *p, T v) { return (T)__nvvm_atom_cta_##OP##_gen_##SUF((CAST *)p, (CAST)v); } \
  __WARPSIM_DI__ T NAME##_system(T *p, T v) { return (T)__nvvm_atom_sys_##OP##_gen_##SUF((CAST *)p, (CAST)v); }

__WARPSIM_ATOM3(atomicAdd, int, add, i, int)
__WARPSIM_ATOM3(atomicAdd, unsigned int, add, i, int)
__WARPSIM_ATOM3(atomicAdd, unsigned long long, add, ll, long long)
__WARPSIM_ATOM3(atomicAdd, float, add, f, float)
__WARPSIM_ATOM3(atomicAdd, double, add, d, double)
__WARPSIM_ATOM3(atomicExch, int, xchg, i, int)
__WARPSIM_ATOM3(atomicExch, unsigned int, xchg, i, int)
__WARPSIM_ATOM3(atomicExch, unsigned long long, xchg, ll, long long)
__WARPSIM_ATOM3(atomicMin, int, min, i, int)
__WARPSIM_ATOM3(atomicMin, unsigned int, min, ui, unsigned int)
__WARPSIM_ATOM3(atomicMin, long long, min, ll, long long)
__WARPSIM_ATOM3(atomicMin, unsigned long long, min, ull, unsigned long long)
__WARPSIM_ATOM3(atomicMax, int, max, i, int)
__WARPSIM_ATOM3(atomicMax, unsigned int, max, ui, unsigned int)
__WARPSIM_ATOM3(atomicMax, long long, max, ll, long long)
__WARPSIM_ATOM3(atomicMax, unsigned long long, max, ull, unsigned long long)
__WARPSIM_ATOM3(atomicInc, unsigned int, inc, ui, unsigned int)
__WARPSIM_ATOM3(atomicDec, unsigned int, dec, ui, unsigned int)
__WARPSIM_ATOM3(atomicAnd, int, and, i, int)
__WARPSIM_ATOM3(atomicAnd, unsigned int, and, i, int)
__WARPSIM_ATOM3(atomicAnd, unsigned long long, and, ll, long long)
__WARPSIM_ATOM3(atomicOr, int, or, i, int)
__WARPSIM_ATOM3(atomicOr, unsigned int, or, i, int)
__WARPSIM_ATOM3(atomicOr, unsigned long long, or, ll, long long)
__WARPSIM_ATOM3(atomicXor, int, xor, i, int)
__WARPSIM_ATOM3(atomicXor, unsigned int, xor, i, int)
__WARPSIM_ATOM3(atomicXor, unsigned long long, xor, ll, long long)
#undef __WARPSIM_ATOM3

/* sm_90's atomicAdd on float2 and float4: PTX performs a vector atom as
 * independent scalar atomics on its elements, so these are the elements'
 * float atomics; each returns the old values. */
#define __WARPSIM_VATOM(SUFFIX)                                                                        \
  __WARPSIM_DI__ float2 atomicAdd##SUFFIX(float2 *p, float2 v) {                                     \
    float2 r;                                                                                        \
    r.x = atomicAdd##SUFFIX(&p->x, v.x);                                                             \
    r.y = atomicAdd##SUFFIX(&p->y, v.y);                                                             \
    return r;                                                                                        \
  }                                                                                                  \
  __WARPSIM_DI__ float4 atomicAdd##SUFFIX(float4 *p, float4 v) {                                     \
    float4 r;                                                                                        \
    r.x = atomicAdd##SUFFIX(&p->x, v.x);                                                             \
    r.y = atomicAdd##SUFFIX(&p->y, v.y);                                                             \
    r.z = atomicAdd##SUFFIX(&p->z, v.z);                                                             \
    r.w = atomicAdd##SUFFIX(&p->w, v.w);                                                             \
    return r;                                                                                        \
  }
__WARPSIM_VATOM()
__WARPSIM_VATOM(_block)
__WARPSIM_VATOM(_system)
#undef __WARPSIM_VATOM

__WARPSIM_DI__ float atomicExch(float *p, float v) {
  return __builtin_bit_cast(float, __nvvm_atom_xchg_gen_i((int *)p, __builtin_bit_cast(int, v)));
}
__WARPSIM_DI__ int atomicSub(int *p, int v) { return __nvvm_atom_add_gen_i(p, -v); }
__WARPSIM_DI__ unsigned int atomicSub(unsigned int *p, unsigned int v) { return (unsigned int)__nvvm_atom_add_gen_i((int *)p, -(int)v); }
__WARPSIM_DI__ int atomicSub_block(int *p, int v) { return __nvvm_atom_cta_add_gen_i(p, -v); }
__WARPSIM_DI__ int atomicSub_system(int *p, int v) { return __nvvm_atom_sys_add_gen_i(p, -v); }

/* Compare-and-swap as inline PTX: clang's cmpxchg would become an
 * acquire, system-scope atom; nvcc's atomicCAS is a relaxed one. */
#define __WARPSIM_CAS(T, B, C, NAME, SCOPE)                                   \
  __WARPSIM_DI__ T NAME(T *p, T cmp, T v) {                                    \
    T old;                                                                     \
    asm volatile("atom" SCOPE ".cas.b" #B " %0, [%1], %2, %3;" : "=" C(old) : "l"(p), C(cmp), C(v) : "memory"); \
    return old;                                                                \
  }
__WARPSIM_CAS(int, 32, "r", atomicCAS, "")
__WARPSIM_CAS(unsigned int, 32, "r", atomicCAS, "")
__WARPSIM_CAS(unsigned long long, 64, "l", atomicCAS, "")
__WARPSIM_CAS(int, 32, "r", atomicCAS_block, ".cta")
__WARPSIM_CAS(unsigned int, 32, "r", atomicCAS_block, ".cta")
__WARPSIM_CAS(unsigned long long, 64, "l", atomicCAS_block, ".cta")
__WARPSIM_CAS(int, 32, "r", atomicCAS_system, ".sys")
__WARPSIM_CAS(unsigned int, 32, "r", atomicCAS_system, ".sys")
__WARPSIM_CAS(unsigned long long, 64, "l", atomicCAS_system, ".sys")
#undef __WARPSIM_CAS
__WARPSIM_DI__ unsigned short atomicCAS(unsigned short *p, unsigned short cmp, unsigned short v) {
  unsigned short old;
  asm volatile("atom.cas.b16 %0, [%1], %2, %3;" : "=h"(old) : "l"(p), "h"(cmp), "h"(v) : "memory");
  return old;
}

/* ---- Warp vote, shuffle, match, reduce ---- */
__WARPSIM_DI__ unsigned __activemask(void) { return __nvvm_activemask(); }
__WARPSIM_DI__ unsigned __ballot_sync(unsigned mask, int p) { return __nvvm_vote_ballot_sync(mask, p); }
__WARPSIM_DI__ int __all_sync(unsigned mask, int p) { return __nvvm_vote_all_sync(mask, p); }
__WARPSIM_DI__ int __any_sync(unsigned mask, int p) { return __nvvm_vote_any_sync(mask, p); }
__WARPSIM_DI__ int __uni_sync(unsigned mask, int p) { return __nvvm_vote_uni_sync(mask, p); }
__WARPSIM_DI__ unsigned __fns(unsigned mask, unsigned base, int offset) { return __nvvm_fns(mask, base, offset); }

/* Shuffles: c packs the segment mask ((32-width)<<8) and the clamp lane. */
#define __WARPSIM_SHFL(NAME, KIND, LANE_T, CLAMP)                              \
  __WARPSIM_DI__ int NAME(unsigned m, int v, LANE_T l, int w = 32) {           \
    return __nvvm_shfl_sync_##KIND##_i32(m, v, l, ((32 - w) << 8) | CLAMP);    \
  }                                                                            \
  __WARPSIM_DI__ unsigned NAME(unsigned m, unsigned v, LANE_T l, int w = 32) { \
    return (unsigned)NAME(m, (int)v, l, w);                                    \
  }                                                                            \
  __WARPSIM_DI__ float NAME(unsigned m, float v, LANE_T l, int w = 32) {       \
    return __nvvm_shfl_sync_##KIND##_f32(m, v, l, ((32 - w) << 8) | CLAMP);    \
  }                                                                            \
  __WARPSIM_DI__ long long NAME(unsigned m, long long v, LANE_T l, int w = 32) { \
    int lo = NAME(m, (int)v, l, w), hi = NAME(m, (int)(v >> 32), l, w);         \
    return (long long)(((unsigned long long)(unsigned)hi << 32) | (unsigned)lo); \
  }                                                                            \
  __WARPSIM_DI__ unsigned long long NAME(unsigned m, unsigned long long v, LANE_T l, int w = 32) { \
    return (unsigned long long)NAME(m, (long long)v, l, w);                    \
  }                                                                            \
  __WARPSIM_DI__ long NAME(unsigned m, long v, LANE_T l, int w = 32) {         \
    return (long)NAME(m, (long long)v, l, w);                                  \
  }                                                                            \
  __WARPSIM_DI__ unsigned long NAME(unsigned m, unsigned long v, LANE_T l, int w = 32) { \
    return (unsigned long)NAME(m, (long long)v, l, w);                         \
  }                                                                            \
  __WARPSIM_DI__ double NAME(unsigned m, double v, LANE_T l, int w = 32) {     \
    return __builtin_bit_cast(double, NAME(m, __builtin_bit_cast(long long, v), l, w)); \
  }
__WARPSIM_SHFL(__shfl_sync, idx, int, 0x1f)
__WARPSIM_SHFL(__shfl_up_sync, up, unsigned, 0)
__WARPSIM_SHFL(__shfl_down_sync, down, unsigned, 0x1f)
__WARPSIM_SHFL(__shfl_xor_sync, bfly, int, 0x1f)
#undef __WARPSIM_SHFL

/* The pre-Volta warp intrinsics without _sync, which nvcc offers only when
 * compiling for an arch below sm_70 (CUDA 9 removed them from sm_70 on):
 * the PTX instructions without .sync that nvcc emits there, executed by the
 * lanes active at that point (the whole warp in converged code). The host
 * pass (no __CUDA_ARCH__) sees the declarations too, as clang checks device
 * function bodies in both passes. */
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ < 700
#define __WARPSIM_SHFL_OLD(NAME, KIND, LANE_T, CLAMP)                          \
  __WARPSIM_DI__ int NAME(int v, LANE_T l, int w = 32) {                       \
    int r;                                                                     \
    asm volatile("shfl." #KIND ".b32 %0, %1, %2, %3;" : "=r"(r) : "r"(v), "r"((int)l), "r"(((32 - w) << 8) | CLAMP)); \
    return r;                                                                  \
  }                                                                            \
  __WARPSIM_DI__ unsigned NAME(unsigned v, LANE_T l, int w = 32) { return (unsigned)NAME((int)v, l, w); } \
  __WARPSIM_DI__ float NAME(float v, LANE_T l, int w = 32) {                   \
    return __builtin_bit_cast(float, NAME(__builtin_bit_cast(int, v), l, w));  \
  }                                                                            \
  __WARPSIM_DI__ long long NAME(long long v, LANE_T l, int w = 32) {           \
    int lo = NAME((int)v, l, w), hi = NAME((int)(v >> 32), l, w);               \
    return (long long)(((unsigned long long)(unsigned)hi << 32) | (unsigned)lo); \
  }                                                                            \
  __WARPSIM_DI__ unsigned long long NAME(unsigned long long v, LANE_T l, int w = 32) { return (unsigned long long)NAME((long long)v, l, w); } \
  __WARPSIM_DI__ long NAME(long v, LANE_T l, int w = 32) { return (long)NAME((long long)v, l, w); } \
  __WARPSIM_DI__ unsigned long NAME(unsigned long v, LANE_T l, int w = 32) { return (unsigned long)NAME((long long)v, l, w); } \
  __WARPSIM_DI__ double NAME(double v, LANE_T l, int w = 32) {                 \
    return __builtin_bit_cast(double, NAME(__builtin_bit_cast(long long, v), l, w)); \
  }
__WARPSIM_SHFL_OLD(__shfl, idx, int, 0x1f)
__WARPSIM_SHFL_OLD(__shfl_up, up, unsigned, 0)
__WARPSIM_SHFL_OLD(__shfl_down, down, unsigned, 0x1f)
__WARPSIM_SHFL_OLD(__shfl_xor, bfly, int, 0x1f)
#undef __WARPSIM_SHFL_OLD
__WARPSIM_DI__ int __any(int p) {
  int r;
  asm volatile("{ .reg .pred p, q; setp.ne.s32 p, %1, 0; vote.any.pred q, p; selp.s32 %0, 1, 0, q; }" : "=r"(r) : "r"(p));
  return r;
}
__WARPSIM_DI__ int __all(int p) {
  int r;
  asm volatile("{ .reg .pred p, q; setp.ne.s32 p, %1, 0; vote.all.pred q, p; selp.s32 %0, 1, 0, q; }" : "=r"(r) : "r"(p));
  return r;
}
__WARPSIM_DI__ unsigned __ballot(int p) {
  unsigned r;
  asm volatile("{ .reg .pred p; setp.ne.s32 p, %1, 0; vote.ballot.b32 %0, p; }" : "=r"(r) : "r"(p));
  return r;
}
#endif

__WARPSIM_DI__ unsigned __match_any_sync(unsigned m, int v) { return __nvvm_match_any_sync_i32(m, v); }
__WARPSIM_DI__ unsigned __match_any_sync(unsigned m, unsigned v) { return __nvvm_match_any_sync_i32(m, v); }
__WARPSIM_DI__ unsigned __match_any_sync(unsigned m, long long v) { return __nvvm_match_any_sync_i64(m, v); }
__WARPSIM_DI__ unsigned __match_any_sync(unsigned m, unsigned long long v) { return __nvvm_match_any_sync_i64(m, v); }
__WARPSIM_DI__ unsigned __match_any_sync(unsigned m, long v) { return __nvvm_match_any_sync_i64(m, v); }
__WARPSIM_DI__ unsigned __match_any_sync(unsigned m, unsigned long v) { return __nvvm_match_any_sync_i64(m, v); }
__WARPSIM_DI__ unsigned __match_any_sync(unsigned m, float v) { return __nvvm_match_any_sync_i32(m, __builtin_bit_cast(int, v)); }
__WARPSIM_DI__ unsigned __match_any_sync(unsigned m, double v) { return __nvvm_match_any_sync_i64(m, __builtin_bit_cast(long long, v)); }
__WARPSIM_DI__ unsigned __match_all_sync(unsigned m, int v, int *pred) { return __nvvm_match_all_sync_i32p(m, v, pred); }
__WARPSIM_DI__ unsigned __match_all_sync(unsigned m, unsigned v, int *pred) { return __nvvm_match_all_sync_i32p(m, v, pred); }
__WARPSIM_DI__ unsigned __match_all_sync(unsigned m, long long v, int *pred) { return __nvvm_match_all_sync_i64p(m, v, pred); }
__WARPSIM_DI__ unsigned __match_all_sync(unsigned m, unsigned long long v, int *pred) { return __nvvm_match_all_sync_i64p(m, v, pred); }
__WARPSIM_DI__ unsigned __match_all_sync(unsigned m, long v, int *pred) { return __nvvm_match_all_sync_i64p(m, v, pred); }
__WARPSIM_DI__ unsigned __match_all_sync(unsigned m, unsigned long v, int *pred) { return __nvvm_match_all_sync_i64p(m, v, pred); }
__WARPSIM_DI__ unsigned __match_all_sync(unsigned m, float v, int *pred) { return __nvvm_match_all_sync_i32p(m, __builtin_bit_cast(int, v), pred); }
__WARPSIM_DI__ unsigned __match_all_sync(unsigned m, double v, int *pred) { return __nvvm_match_all_sync_i64p(m, __builtin_bit_cast(long long, v), pred); }

__WARPSIM_DI__ unsigned __reduce_add_sync(unsigned m, unsigned v) { return __nvvm_redux_sync_add(v, m); }
__WARPSIM_DI__ int __reduce_add_sync(unsigned m, int v) { return __nvvm_redux_sync_add(v, m); }
__WARPSIM_DI__ unsigned __reduce_min_sync(unsigned m, unsigned v) { return __nvvm_redux_sync_umin(v, m); }
__WARPSIM_DI__ int __reduce_min_sync(unsigned m, int v) { return __nvvm_redux_sync_min(v, m); }
__WARPSIM_DI__ unsigned __reduce_max_sync(unsigned m, unsigned v) { return __nvvm_redux_sync_umax(v, m); }
__WARPSIM_DI__ int __reduce_max_sync(unsigned m, int v) { return __nvvm_redux_sync_max(v, m); }
__WARPSIM_DI__ unsigned __reduce_and_sync(unsigned m, unsigned v) { return __nvvm_redux_sync_and(v, m); }
__WARPSIM_DI__ unsigned __reduce_or_sync(unsigned m, unsigned v) { return __nvvm_redux_sync_or(v, m); }
__WARPSIM_DI__ unsigned __reduce_xor_sync(unsigned m, unsigned v) { return __nvvm_redux_sync_xor(v, m); }

/* ---- Integer intrinsics ---- */
__WARPSIM_DI__ int __popc(unsigned x) { return __builtin_popcount(x); }
__WARPSIM_DI__ int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
__WARPSIM_DI__ int __clz(int x) { return __builtin_clzg((unsigned)x, 32); }
__WARPSIM_DI__ int __clzll(long long x) { return __builtin_clzg((unsigned long long)x, 64); }
__WARPSIM_DI__ int __ffs(int x) { return __builtin_ffs(x); }
__WARPSIM_DI__ int __ffsll(long long x) { return __builtin_ffsll(x); }
__WARPSIM_DI__ unsigned __brev(unsigned x) { return __builtin_bitreverse32(x); }
__WARPSIM_DI__ unsigned long long __brevll(unsigned long long x) { return __builtin_bitreverse64(x); }
__WARPSIM_DI__ unsigned __byte_perm(unsigned a, unsigned b, unsigned s) { return __nvvm_prmt(a, b, s & 0x7777u); }
__WARPSIM_DI__ unsigned __funnelshift_l(unsigned lo, unsigned hi, unsigned s) {
  unsigned r; asm("shf.l.wrap.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(lo), "r"(hi), "r"(s)); return r;
}
__WARPSIM_DI__ unsigned __funnelshift_lc(unsigned lo, unsigned hi, unsigned s) {
  unsigned r; asm("shf.l.clamp.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(lo), "r"(hi), "r"(s)); return r;
}
__WARPSIM_DI__ unsigned __funnelshift_r(unsigned lo, unsigned hi, unsigned s) {
  unsigned r; asm("shf.r.wrap.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(lo), "r"(hi), "r"(s)); return r;
}
__WARPSIM_DI__ unsigned __funnelshift_rc(unsigned lo, unsigned hi, unsigned s) {
  unsigned r; asm("shf.r.clamp.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(lo), "r"(hi), "r"(s)); return r;
}
__WARPSIM_DI__ int __mulhi(int a, int b) { return (int)(((long long)a * b) >> 32); }
__WARPSIM_DI__ unsigned __umulhi(unsigned a, unsigned b) { return (unsigned)(((unsigned long long)a * b) >> 32); }
__WARPSIM_DI__ long long __mul64hi(long long a, long long b) { return (long long)(((__int128)a * b) >> 64); }
__WARPSIM_DI__ unsigned long long __umul64hi(unsigned long long a, unsigned long long b) { return (unsigned long long)(((unsigned __int128)a * b) >> 64); }
__WARPSIM_DI__ int __mul24(int a, int b) {
  int r; asm("mul24.lo.s32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); return r;
}
__WARPSIM_DI__ unsigned __umul24(unsigned a, unsigned b) {
  unsigned r; asm("mul24.lo.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); return r;
}
__WARPSIM_DI__ unsigned __sad(int a, int b, unsigned c) {
  unsigned r; asm("sad.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); return r;
}
__WARPSIM_DI__ unsigned __usad(unsigned a, unsigned b, unsigned c) {
  unsigned r; asm("sad.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); return r;
}
__WARPSIM_DI__ int __hadd(int a, int b) { return (int)(((long long)a + b) >> 1); }
__WARPSIM_DI__ int __rhadd(int a, int b) { return (int)(((long long)a + b + 1) >> 1); }
__WARPSIM_DI__ unsigned __uhadd(unsigned a, unsigned b) { return (unsigned)(((unsigned long long)a + b) >> 1); }
__WARPSIM_DI__ unsigned __urhadd(unsigned a, unsigned b) { return (unsigned)(((unsigned long long)a + b + 1) >> 1); }
__WARPSIM_DI__ int __dp4a(int a, int b, int c) {
  int r; asm("dp4a.s32.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); return r;
}
__WARPSIM_DI__ unsigned __dp4a(unsigned a, unsigned b, unsigned c) {
  unsigned r; asm("dp4a.u32.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); return r;
}
__WARPSIM_DI__ int __dp2a_lo(int a, int b, int c) {
  int r; asm("dp2a.lo.s32.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); return r;
}
__WARPSIM_DI__ int __dp2a_hi(int a, int b, int c) {
  int r; asm("dp2a.hi.s32.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); return r;
}

/* ---- Float intrinsics and reinterpretations ---- */
__WARPSIM_HDI__ float __int_as_float(int x) { return __builtin_bit_cast(float, x); }
__WARPSIM_HDI__ int __float_as_int(float x) { return __builtin_bit_cast(int, x); }
__WARPSIM_HDI__ float __uint_as_float(unsigned x) { return __builtin_bit_cast(float, x); }
__WARPSIM_HDI__ unsigned __float_as_uint(float x) { return __builtin_bit_cast(unsigned, x); }
__WARPSIM_HDI__ double __longlong_as_double(long long x) { return __builtin_bit_cast(double, x); }
__WARPSIM_HDI__ long long __double_as_longlong(double x) { return __builtin_bit_cast(long long, x); }
__WARPSIM_DI__ int __double2hiint(double x) { return __nvvm_d2i_hi(x); }
__WARPSIM_DI__ int __double2loint(double x) { return __nvvm_d2i_lo(x); }
__WARPSIM_DI__ double __hiloint2double(int hi, int lo) { return __nvvm_lohi_i2d(lo, hi); }

#define __WARPSIM_RND4(M)                                                      \
  M(rn, rn) M(rz, rz) M(rd, rm) M(ru, rp)
#define __WARPSIM_F2(R, N)                                                        \
  __WARPSIM_DI__ int __float2int_##R(float x) { return __nvvm_f2i_##N(x); }    \
  __WARPSIM_DI__ unsigned __float2uint_##R(float x) { return __nvvm_f2ui_##N(x); } \
  __WARPSIM_DI__ long long __float2ll_##R(float x) { return __nvvm_f2ll_##N(x); } \
  __WARPSIM_DI__ unsigned long long __float2ull_##R(float x) { return __nvvm_f2ull_##N(x); } \
  __WARPSIM_DI__ int __double2int_##R(double x) { return __nvvm_d2i_##N(x); } \
  __WARPSIM_DI__ unsigned __double2uint_##R(double x) { return __nvvm_d2ui_##N(x); } \
  __WARPSIM_DI__ long long __double2ll_##R(double x) { return __nvvm_d2ll_##N(x); } \
  __WARPSIM_DI__ unsigned long long __double2ull_##R(double x) { return __nvvm_d2ull_##N(x); } \
  __WARPSIM_DI__ float __double2float_##R(double x) { return __nvvm_d2f_##N(x); } \
  __WARPSIM_DI__ float __int2float_##R(int x) { return __nvvm_i2f_##N(x); }   \
  __WARPSIM_DI__ float __uint2float_##R(unsigned x) { return __nvvm_ui2f_##N(x); } \
  __WARPSIM_DI__ float __ll2float_##R(long long x) { return __nvvm_ll2f_##N(x); } \
  __WARPSIM_DI__ float __ull2float_##R(unsigned long long x) { return __nvvm_ull2f_##N(x); } \
  __WARPSIM_DI__ double __ll2double_##R(long long x) { return __nvvm_ll2d_##N(x); } \
  __WARPSIM_DI__ double __ull2double_##R(unsigned long long x) { return __nvvm_ull2d_##N(x); } \
  __WARPSIM_DI__ float __fadd_##R(float a, float b) { return __nvvm_add_##N##_f(a, b); } \
  __WARPSIM_DI__ float __fmul_##R(float a, float b) { return __nvvm_mul_##N##_f(a, b); } \
  __WARPSIM_DI__ float __fsub_##R(float a, float b) { return __nvvm_add_##N##_f(a, -b); } \
  __WARPSIM_DI__ float __fdiv_##R(float a, float b) { return __nvvm_div_##N##_f(a, b); } \
  __WARPSIM_DI__ float __fmaf_##R(float a, float b, float c) { return __nvvm_fma_##N##_f(a, b, c); } \
  __WARPSIM_DI__ float __frcp_##R(float a) { return __nvvm_rcp_##N##_f(a); } \
  __WARPSIM_DI__ float __fsqrt_##R(float a) { return __nvvm_sqrt_##N##_f(a); } \
  __WARPSIM_DI__ double __dadd_##R(double a, double b) { return __nvvm_add_##N##_d(a, b); } \
  __WARPSIM_DI__ double __dmul_##R(double a, double b) { return __nvvm_mul_##N##_d(a, b); } \
  __WARPSIM_DI__ double __dsub_##R(double a, double b) { return __nvvm_add_##N##_d(a, -b); } \
  __WARPSIM_DI__ double __ddiv_##R(double a, double b) { return __nvvm_div_##N##_d(a, b); } \
  __WARPSIM_DI__ double __fma_##R(double a, double b, double c) { return __nvvm_fma_##N##_d(a, b, c); } \
  __WARPSIM_DI__ double __drcp_##R(double a) { return __nvvm_rcp_##N##_d(a); } \
  __WARPSIM_DI__ double __dsqrt_##R(double a) { return __nvvm_sqrt_##N##_d(a); }
__WARPSIM_RND4(__WARPSIM_F2)
#undef __WARPSIM_F2
#undef __WARPSIM_RND4
__WARPSIM_DI__ double __int2double_rn(int x) { return (double)x; }
__WARPSIM_DI__ double __uint2double_rn(unsigned x) { return (double)x; }
__WARPSIM_DI__ int __float2int_rn_sat(float x) { return __nvvm_f2i_rn(x); }
__WARPSIM_DI__ float __saturatef(float x) { return __nvvm_saturate_f(x); }
__WARPSIM_DI__ float __fdividef(float a, float b) { return __nvvm_div_approx_f(a, b); }
__WARPSIM_DI__ float __frsqrt_rn(float x) { return __nvvm_rsqrt_approx_f(x); }
__WARPSIM_DI__ float __expf(float x) { return __nvvm_ex2_approx_f(x * 1.4426950408889634f); }
__WARPSIM_DI__ float __exp10f(float x) { return __nvvm_ex2_approx_f(x * 3.3219280948873622f); }
__WARPSIM_DI__ float __log2f(float x) { return __nvvm_lg2_approx_f(x); }
__WARPSIM_DI__ float __logf(float x) { return __nvvm_lg2_approx_f(x) * 0.69314718055994531f; }
__WARPSIM_DI__ float __log10f(float x) { return __nvvm_lg2_approx_f(x) * 0.30102999566398120f; }
__WARPSIM_DI__ float __sinf(float x) { return __nvvm_sin_approx_f(x); }
__WARPSIM_DI__ float __cosf(float x) { return __nvvm_cos_approx_f(x); }
__WARPSIM_DI__ void __sincosf(float x, float *s, float *c) { *s = __sinf(x); *c = __cosf(x); }
__WARPSIM_DI__ float __tanf(float x) { return __fdividef(__sinf(x), __cosf(x)); }
__WARPSIM_DI__ float __powf(float a, float b) { return __nvvm_ex2_approx_f(b * __nvvm_lg2_approx_f(a)); }

/* ---- Read-only data cache loads ---- */
#define __WARPSIM_LDG(T, B) __WARPSIM_DI__ T __ldg(const T *p) { return B(p); }
__WARPSIM_LDG(char, __nvvm_ldg_c)
__WARPSIM_LDG(signed char, __nvvm_ldg_sc)
__WARPSIM_LDG(unsigned char, __nvvm_ldg_uc)
__WARPSIM_LDG(short, __nvvm_ldg_s)
__WARPSIM_LDG(unsigned short, __nvvm_ldg_us)
__WARPSIM_LDG(int, __nvvm_ldg_i)
__WARPSIM_LDG(unsigned int, __nvvm_ldg_ui)
__WARPSIM_LDG(long, __nvvm_ldg_l)
__WARPSIM_LDG(unsigned long, __nvvm_ldg_ul)
__WARPSIM_LDG(long long, __nvvm_ldg_ll)
__WARPSIM_LDG(unsigned long long, __nvvm_ldg_ull)
__WARPSIM_LDG(float, __nvvm_ldg_f)
__WARPSIM_LDG(double, __nvvm_ldg_d)
#undef __WARPSIM_LDG
/* Vector types: a plain load through the read-only path's generic form. */
template <class T> __WARPSIM_DI__ T __ldg(const T *p) { return *p; }

/* ---- Cache-hinted global loads and stores (CUDA's __ldca … __stwt):
 * ld.global.{ca,cg,cs,lu,cv} and st.global.{wb,cg,cs,wt} of a 1-, 2-, 4-,
 * 8- or 16-byte value (scalars and CUDA's vector types). ---- */
#define __WARPSIM_LDHINT(NAME, Q)                                                                         \
  template <class T> __WARPSIM_DI__ T NAME(const T *p) {                                                   \
    static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8 || sizeof(T) == 16, \
                  #NAME " takes 1-, 2-, 4-, 8- or 16-byte types");                                       \
    T r;                                                                                                  \
    if (sizeof(T) == 1) {                                                                                 \
      unsigned short v;                                                                                   \
      asm volatile("ld.global." Q ".b8 %0, [%1];" : "=h"(v) : "l"(p) : "memory");                         \
      unsigned char c = (unsigned char)v;                                                                 \
      __builtin_memcpy(&r, &c, 1);                                                                        \
    } else if (sizeof(T) == 2) {                                                                          \
      unsigned short v;                                                                                   \
      asm volatile("ld.global." Q ".b16 %0, [%1];" : "=h"(v) : "l"(p) : "memory");                        \
      __builtin_memcpy(&r, &v, 2);                                                                        \
    } else if (sizeof(T) == 4) {                                                                          \
      unsigned v;                                                                                         \
      asm volatile("ld.global." Q ".b32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");                        \
      __builtin_memcpy(&r, &v, 4);                                                                        \
    } else if (sizeof(T) == 8) {                                                                          \
      unsigned long long v;                                                                               \
      asm volatile("ld.global." Q ".b64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");                        \
      __builtin_memcpy(&r, &v, 8);                                                                        \
    } else {                                                                                              \
      unsigned v[4];                                                                                      \
      asm volatile("ld.global." Q ".v4.b32 {%0, %1, %2, %3}, [%4];"                                       \
                   : "=r"(v[0]), "=r"(v[1]), "=r"(v[2]), "=r"(v[3]) : "l"(p) : "memory");                 \
      __builtin_memcpy(&r, v, 16);                                                                        \
    }                                                                                                     \
    return r;                                                                                             \
  }
__WARPSIM_LDHINT(__ldca, "ca")
__WARPSIM_LDHINT(__ldcg, "cg")
__WARPSIM_LDHINT(__ldcs, "cs")
__WARPSIM_LDHINT(__ldlu, "lu")
__WARPSIM_LDHINT(__ldcv, "cv")
#undef __WARPSIM_LDHINT
#define __WARPSIM_STHINT(NAME, Q)                                                                         \
  template <class T> __WARPSIM_DI__ void NAME(T *p, T x) {                                                 \
    static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8 || sizeof(T) == 16, \
                  #NAME " takes 1-, 2-, 4-, 8- or 16-byte types");                                       \
    if (sizeof(T) == 1) {                                                                                 \
      unsigned char c;                                                                                    \
      __builtin_memcpy(&c, &x, 1);                                                                        \
      asm volatile("st.global." Q ".b8 [%0], %1;" ::"l"(p), "h"((unsigned short)c) : "memory");           \
    } else if (sizeof(T) == 2) {                                                                          \
      unsigned short v;                                                                                   \
      __builtin_memcpy(&v, &x, 2);                                                                        \
      asm volatile("st.global." Q ".b16 [%0], %1;" ::"l"(p), "h"(v) : "memory");                          \
    } else if (sizeof(T) == 4) {                                                                          \
      unsigned v;                                                                                         \
      __builtin_memcpy(&v, &x, 4);                                                                        \
      asm volatile("st.global." Q ".b32 [%0], %1;" ::"l"(p), "r"(v) : "memory");                          \
    } else if (sizeof(T) == 8) {                                                                          \
      unsigned long long v;                                                                               \
      __builtin_memcpy(&v, &x, 8);                                                                        \
      asm volatile("st.global." Q ".b64 [%0], %1;" ::"l"(p), "l"(v) : "memory");                          \
    } else {                                                                                              \
      unsigned v[4];                                                                                      \
      __builtin_memcpy(v, &x, 16);                                                                        \
      asm volatile("st.global." Q ".v4.b32 [%0], {%1, %2, %3, %4};" ::"l"(p), "r"(v[0]), "r"(v[1]),       \
                   "r"(v[2]), "r"(v[3]) : "memory");                                                      \
    }                                                                                                     \
  }
__WARPSIM_STHINT(__stwb, "wb")
__WARPSIM_STHINT(__stcg, "cg")
__WARPSIM_STHINT(__stcs, "cs")
__WARPSIM_STHINT(__stwt, "wt")
#undef __WARPSIM_STHINT

/* ---- sm_90's cluster intrinsics (CUDA's sm_90_rt.h) ---- */
__WARPSIM_DI__ unsigned __warpsim_csreg(int i) {
  unsigned v;
  switch (i) {
  case 0: asm volatile("mov.u32 %0, %%is_explicit_cluster;" : "=r"(v)); break;
  case 1: asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(v)); break;
  case 2: asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(v)); break;
  case 3: asm volatile("mov.u32 %0, %%clusterid.x;" : "=r"(v)); break;
  case 4: asm volatile("mov.u32 %0, %%clusterid.y;" : "=r"(v)); break;
  case 5: asm volatile("mov.u32 %0, %%clusterid.z;" : "=r"(v)); break;
  case 6: asm volatile("mov.u32 %0, %%nclusterid.x;" : "=r"(v)); break;
  case 7: asm volatile("mov.u32 %0, %%nclusterid.y;" : "=r"(v)); break;
  case 8: asm volatile("mov.u32 %0, %%nclusterid.z;" : "=r"(v)); break;
  case 9: asm volatile("mov.u32 %0, %%cluster_ctaid.x;" : "=r"(v)); break;
  case 10: asm volatile("mov.u32 %0, %%cluster_ctaid.y;" : "=r"(v)); break;
  case 11: asm volatile("mov.u32 %0, %%cluster_ctaid.z;" : "=r"(v)); break;
  case 12: asm volatile("mov.u32 %0, %%cluster_nctaid.x;" : "=r"(v)); break;
  case 13: asm volatile("mov.u32 %0, %%cluster_nctaid.y;" : "=r"(v)); break;
  default: asm volatile("mov.u32 %0, %%cluster_nctaid.z;" : "=r"(v)); break;
  }
  return v;
}
__WARPSIM_DI__ unsigned __clusterDimIsSpecified() { return __warpsim_csreg(0); }
__WARPSIM_DI__ unsigned __clusterRelativeBlockRank() { return __warpsim_csreg(1); }
__WARPSIM_DI__ unsigned __clusterSizeInBlocks() { return __warpsim_csreg(2); }
__WARPSIM_DI__ dim3 __clusterIdx() { return dim3(__warpsim_csreg(3), __warpsim_csreg(4), __warpsim_csreg(5)); }
__WARPSIM_DI__ dim3 __clusterGridDimInClusters() { return dim3(__warpsim_csreg(6), __warpsim_csreg(7), __warpsim_csreg(8)); }
__WARPSIM_DI__ dim3 __clusterRelativeBlockIdx() { return dim3(__warpsim_csreg(9), __warpsim_csreg(10), __warpsim_csreg(11)); }
__WARPSIM_DI__ dim3 __clusterDim() { return dim3(__warpsim_csreg(12), __warpsim_csreg(13), __warpsim_csreg(14)); }
__WARPSIM_DI__ void __cluster_barrier_arrive() { asm volatile("barrier.cluster.arrive;" ::: "memory"); }
__WARPSIM_DI__ void __cluster_barrier_arrive_relaxed() { asm volatile("barrier.cluster.arrive.relaxed;" ::: "memory"); }
__WARPSIM_DI__ void __cluster_barrier_wait() { asm volatile("barrier.cluster.wait;" ::: "memory"); }
/* The address of *p's copy in the shared memory of cluster block rank (mapa). */
template <class T> __WARPSIM_DI__ T *__cluster_map_shared_rank(T *p, unsigned rank) {
  unsigned long long r;
  asm volatile("mapa.u64 %0, %1, %2;" : "=l"(r) : "l"((unsigned long long)p), "r"(rank));
  return (T *)r;
}

#endif /* __WARPSIM_HOST_ONLY__ */
#endif
