/* warpsim: the nvcuda::wmma API (warp matrix multiply-accumulate) for clang,
 * written on clang's NVPTX wmma builtins, which compile to PTX wmma.load,
 * wmma.mma and wmma.store; warpsim runs those with the H100's arithmetic.
 * Fragments hold num_elements elements in x[] as CUDA's do; how they are
 * spread over the lanes is unspecified (as in CUDA): element-wise loops
 * over x[] work, positional assumptions do not. */
#ifndef __WARPSIM_MMA_H__
#define __WARPSIM_MMA_H__

#include <cuda_fp16.h>
#include <cuda_bf16.h>

#if defined(__cplusplus)
namespace nvcuda {
namespace wmma {

struct row_major {};
struct col_major {};
struct matrix_a {};
struct matrix_b {};
struct accumulator {};
enum layout_t { mem_row_major, mem_col_major };

namespace precision {
struct tf32 {};
}

namespace experimental {
namespace precision {
struct u4 {};
struct s4 {};
struct b1 {};
}  // namespace precision
enum bmmaBitOp { bmmaBitOpXOR = 1, bmmaBitOpAND = 2 };
enum bmmaAccumulateOp { bmmaAccumulateOpPOPC = 1 };
}  // namespace experimental

namespace __ws {
template <typename L> struct is_col { enum { value = 0 }; };
template <> struct is_col<col_major> { enum { value = 1 }; };
template <typename T> struct storage { typedef T type; };
template <> struct storage<precision::tf32> { typedef float type; };
}  // namespace __ws

template <typename T, int size, typename S = T> struct __frag_base {
  typedef T element_type;
  typedef S storage_element_type;
  enum { num_elements = size };
  S x[size];
};

/* sub-byte elements (experimental::precision::s4/u4/b1) are packed, 8 or 32 to
 * a 32-bit storage element, as CUDA's are */
template <typename T, int size, int packed> struct __frag_packed {
  typedef T element_type;
  typedef unsigned storage_element_type;
  enum { num_elements = size, num_storage_elements = packed };
  unsigned x[packed];
};

template <typename Use, int m, int n, int k, typename T, typename Layout = void> class fragment;

#define __WS_FRAG(USE, M, N, K, T, N_ELEM)                                                     \
  template <typename L>                                                                        \
  class fragment<USE, M, N, K, T, L> : public __frag_base<T, N_ELEM, typename __ws::storage<T>::type> {};

/* f16 */
__WS_FRAG(matrix_a, 16, 16, 16, __half, 16)
__WS_FRAG(matrix_b, 16, 16, 16, __half, 16)
__WS_FRAG(accumulator, 16, 16, 16, __half, 8)
__WS_FRAG(accumulator, 16, 16, 16, float, 8)
__WS_FRAG(matrix_a, 32, 8, 16, __half, 16)
__WS_FRAG(matrix_b, 32, 8, 16, __half, 16)
__WS_FRAG(accumulator, 32, 8, 16, __half, 8)
__WS_FRAG(accumulator, 32, 8, 16, float, 8)
__WS_FRAG(matrix_a, 8, 32, 16, __half, 16)
__WS_FRAG(matrix_b, 8, 32, 16, __half, 16)
__WS_FRAG(accumulator, 8, 32, 16, __half, 8)
__WS_FRAG(accumulator, 8, 32, 16, float, 8)
/* bf16 */
__WS_FRAG(matrix_a, 16, 16, 16, __nv_bfloat16, 8)
__WS_FRAG(matrix_b, 16, 16, 16, __nv_bfloat16, 8)
__WS_FRAG(matrix_a, 32, 8, 16, __nv_bfloat16, 16)
__WS_FRAG(matrix_b, 32, 8, 16, __nv_bfloat16, 4)
__WS_FRAG(matrix_a, 8, 32, 16, __nv_bfloat16, 4)
__WS_FRAG(matrix_b, 8, 32, 16, __nv_bfloat16, 16)
/* tf32 */
__WS_FRAG(matrix_a, 16, 16, 8, precision::tf32, 4)
__WS_FRAG(matrix_b, 16, 16, 8, precision::tf32, 4)
__WS_FRAG(accumulator, 16, 16, 8, float, 8)
/* 8-bit integers */
__WS_FRAG(matrix_a, 16, 16, 16, signed char, 8)
__WS_FRAG(matrix_b, 16, 16, 16, signed char, 8)
__WS_FRAG(matrix_a, 16, 16, 16, unsigned char, 8)
__WS_FRAG(matrix_b, 16, 16, 16, unsigned char, 8)
__WS_FRAG(accumulator, 16, 16, 16, int, 8)
__WS_FRAG(matrix_a, 32, 8, 16, signed char, 16)
__WS_FRAG(matrix_b, 32, 8, 16, signed char, 4)
__WS_FRAG(matrix_a, 32, 8, 16, unsigned char, 16)
__WS_FRAG(matrix_b, 32, 8, 16, unsigned char, 4)
__WS_FRAG(accumulator, 32, 8, 16, int, 8)
__WS_FRAG(matrix_a, 8, 32, 16, signed char, 4)
__WS_FRAG(matrix_b, 8, 32, 16, signed char, 16)
__WS_FRAG(matrix_a, 8, 32, 16, unsigned char, 4)
__WS_FRAG(matrix_b, 8, 32, 16, unsigned char, 16)
__WS_FRAG(accumulator, 8, 32, 16, int, 8)
/* f64 */
__WS_FRAG(matrix_a, 8, 8, 4, double, 1)
__WS_FRAG(matrix_b, 8, 8, 4, double, 1)
__WS_FRAG(accumulator, 8, 8, 4, double, 2)
/* sub-byte integers: m8n8k32 s4/u4, m8n8k128 b1 (A row-major, B column-major only) */
__WS_FRAG(accumulator, 8, 8, 32, int, 2)
__WS_FRAG(accumulator, 8, 8, 128, int, 2)
#undef __WS_FRAG
#define __WS_FRAGP(USE, K, T, L, N_ELEM) \
  template <> class fragment<USE, 8, 8, K, experimental::precision::T, L> : public __frag_packed<experimental::precision::T, N_ELEM, 1> {};
__WS_FRAGP(matrix_a, 32, s4, row_major, 8)
__WS_FRAGP(matrix_b, 32, s4, col_major, 8)
__WS_FRAGP(matrix_a, 32, u4, row_major, 8)
__WS_FRAGP(matrix_b, 32, u4, col_major, 8)
__WS_FRAGP(matrix_a, 128, b1, row_major, 32)
__WS_FRAGP(matrix_b, 128, b1, col_major, 32)
#undef __WS_FRAGP

template <typename Use, int m, int n, int k, typename T, typename L, typename V>
__device__ inline void fill_fragment(fragment<Use, m, n, k, T, L>& f, const V& v) {
  typedef typename fragment<Use, m, n, k, T, L>::storage_element_type S;
  S s = (S)v;
  for (int i = 0; i < fragment<Use, m, n, k, T, L>::num_elements; i++) f.x[i] = s;
}

/* fill_fragment of a sub-byte fragment: the value in every element */
template <typename Use, int m, int n, int k, typename L, typename V>
__device__ inline void fill_fragment(fragment<Use, m, n, k, experimental::precision::s4, L>& f, const V& v) {
  f.x[0] = ((unsigned)(int)v & 0xfu) * 0x11111111u;
}
template <typename Use, int m, int n, int k, typename L, typename V>
__device__ inline void fill_fragment(fragment<Use, m, n, k, experimental::precision::u4, L>& f, const V& v) {
  f.x[0] = ((unsigned)v & 0xfu) * 0x11111111u;
}
template <typename Use, int m, int n, int k, typename L, typename V>
__device__ inline void fill_fragment(fragment<Use, m, n, k, experimental::precision::b1, L>& f, const V& v) {
  f.x[0] = v ? 0xffffffffu : 0u;
}

/* load_matrix_sync for A and B */
#define __WS_LDAB(USE, M, N, K, T, PT, B)                                                       \
  template <typename L>                                                                       \
  __device__ inline void load_matrix_sync(fragment<USE, M, N, K, T, L>& f, const PT* p, unsigned ldm) { \
    B((int*)f.x, (const int*)p, ldm, __ws::is_col<L>::value);                                 \
  }
__WS_LDAB(matrix_a, 16, 16, 16, __half, __half, __hmma_m16n16k16_ld_a)
__WS_LDAB(matrix_b, 16, 16, 16, __half, __half, __hmma_m16n16k16_ld_b)
__WS_LDAB(matrix_a, 32, 8, 16, __half, __half, __hmma_m32n8k16_ld_a)
__WS_LDAB(matrix_b, 32, 8, 16, __half, __half, __hmma_m32n8k16_ld_b)
__WS_LDAB(matrix_a, 8, 32, 16, __half, __half, __hmma_m8n32k16_ld_a)
__WS_LDAB(matrix_b, 8, 32, 16, __half, __half, __hmma_m8n32k16_ld_b)
__WS_LDAB(matrix_a, 16, 16, 16, __nv_bfloat16, __nv_bfloat16, __mma_bf16_m16n16k16_ld_a)
__WS_LDAB(matrix_b, 16, 16, 16, __nv_bfloat16, __nv_bfloat16, __mma_bf16_m16n16k16_ld_b)
__WS_LDAB(matrix_a, 32, 8, 16, __nv_bfloat16, __nv_bfloat16, __mma_bf16_m32n8k16_ld_a)
__WS_LDAB(matrix_b, 32, 8, 16, __nv_bfloat16, __nv_bfloat16, __mma_bf16_m32n8k16_ld_b)
__WS_LDAB(matrix_a, 8, 32, 16, __nv_bfloat16, __nv_bfloat16, __mma_bf16_m8n32k16_ld_a)
__WS_LDAB(matrix_b, 8, 32, 16, __nv_bfloat16, __nv_bfloat16, __mma_bf16_m8n32k16_ld_b)
__WS_LDAB(matrix_a, 16, 16, 8, precision::tf32, float, __mma_tf32_m16n16k8_ld_a)
__WS_LDAB(matrix_b, 16, 16, 8, precision::tf32, float, __mma_tf32_m16n16k8_ld_b)
__WS_LDAB(matrix_a, 16, 16, 16, signed char, signed char, __imma_m16n16k16_ld_a_s8)
__WS_LDAB(matrix_b, 16, 16, 16, signed char, signed char, __imma_m16n16k16_ld_b_s8)
__WS_LDAB(matrix_a, 16, 16, 16, unsigned char, unsigned char, __imma_m16n16k16_ld_a_u8)
__WS_LDAB(matrix_b, 16, 16, 16, unsigned char, unsigned char, __imma_m16n16k16_ld_b_u8)
__WS_LDAB(matrix_a, 32, 8, 16, signed char, signed char, __imma_m32n8k16_ld_a_s8)
__WS_LDAB(matrix_b, 32, 8, 16, signed char, signed char, __imma_m32n8k16_ld_b_s8)
__WS_LDAB(matrix_a, 32, 8, 16, unsigned char, unsigned char, __imma_m32n8k16_ld_a_u8)
__WS_LDAB(matrix_b, 32, 8, 16, unsigned char, unsigned char, __imma_m32n8k16_ld_b_u8)
__WS_LDAB(matrix_a, 8, 32, 16, signed char, signed char, __imma_m8n32k16_ld_a_s8)
__WS_LDAB(matrix_b, 8, 32, 16, signed char, signed char, __imma_m8n32k16_ld_b_s8)
__WS_LDAB(matrix_a, 8, 32, 16, unsigned char, unsigned char, __imma_m8n32k16_ld_a_u8)
__WS_LDAB(matrix_b, 8, 32, 16, unsigned char, unsigned char, __imma_m8n32k16_ld_b_u8)
#undef __WS_LDAB
template <typename L>
__device__ inline void load_matrix_sync(fragment<matrix_a, 8, 8, 4, double, L>& f, const double* p, unsigned ldm) {
  __dmma_m8n8k4_ld_a(f.x, p, ldm, __ws::is_col<L>::value);
}
template <typename L>
__device__ inline void load_matrix_sync(fragment<matrix_b, 8, 8, 4, double, L>& f, const double* p, unsigned ldm) {
  __dmma_m8n8k4_ld_b(f.x, p, ldm, __ws::is_col<L>::value);
}

/* sub-byte A (row-major) and B (column-major): ldm in elements */
#define __WS_LDP(USE, K, T, L, B, LAY)                                                          \
  __device__ inline void load_matrix_sync(fragment<USE, 8, 8, K, experimental::precision::T, L>& f, const void* p, unsigned ldm) { \
    B((int*)f.x, (const int*)p, ldm, LAY);                                                     \
  }
__WS_LDP(matrix_a, 32, s4, row_major, __imma_m8n8k32_ld_a_s4, 0)
__WS_LDP(matrix_b, 32, s4, col_major, __imma_m8n8k32_ld_b_s4, 1)
__WS_LDP(matrix_a, 32, u4, row_major, __imma_m8n8k32_ld_a_u4, 0)
__WS_LDP(matrix_b, 32, u4, col_major, __imma_m8n8k32_ld_b_u4, 1)
__WS_LDP(matrix_a, 128, b1, row_major, __bmma_m8n8k128_ld_a_b1, 0)
__WS_LDP(matrix_b, 128, b1, col_major, __bmma_m8n8k128_ld_b_b1, 1)
#undef __WS_LDP

/* accumulators: load and store with a run-time layout */
#define __WS_LDSTC(M, N, K, T, DT, LD, ST)                                                      \
  __device__ inline void load_matrix_sync(fragment<accumulator, M, N, K, T, void>& f, const T* p, unsigned ldm, layout_t l) { \
    if (l == mem_col_major) LD((DT*)f.x, (const DT*)p, ldm, 1);                                 \
    else LD((DT*)f.x, (const DT*)p, ldm, 0);                                                   \
  }                                                                                             \
  __device__ inline void store_matrix_sync(T* p, const fragment<accumulator, M, N, K, T, void>& f, unsigned ldm, layout_t l) { \
    if (l == mem_col_major) ST((DT*)p, (const DT*)f.x, ldm, 1);                                 \
    else ST((DT*)p, (const DT*)f.x, ldm, 0);                                                   \
  }
__WS_LDSTC(16, 16, 16, float, float, __hmma_m16n16k16_ld_c_f32, __hmma_m16n16k16_st_c_f32)
__WS_LDSTC(16, 16, 16, __half, int, __hmma_m16n16k16_ld_c_f16, __hmma_m16n16k16_st_c_f16)
__WS_LDSTC(32, 8, 16, float, float, __hmma_m32n8k16_ld_c_f32, __hmma_m32n8k16_st_c_f32)
__WS_LDSTC(32, 8, 16, __half, int, __hmma_m32n8k16_ld_c_f16, __hmma_m32n8k16_st_c_f16)
__WS_LDSTC(8, 32, 16, float, float, __hmma_m8n32k16_ld_c_f32, __hmma_m8n32k16_st_c_f32)
__WS_LDSTC(8, 32, 16, __half, int, __hmma_m8n32k16_ld_c_f16, __hmma_m8n32k16_st_c_f16)
__WS_LDSTC(16, 16, 8, float, float, __mma_tf32_m16n16k8_ld_c, __hmma_m16n16k16_st_c_f32)
__WS_LDSTC(16, 16, 16, int, int, __imma_m16n16k16_ld_c, __imma_m16n16k16_st_c_i32)
__WS_LDSTC(32, 8, 16, int, int, __imma_m32n8k16_ld_c, __imma_m32n8k16_st_c_i32)
__WS_LDSTC(8, 32, 16, int, int, __imma_m8n32k16_ld_c, __imma_m8n32k16_st_c_i32)
__WS_LDSTC(8, 8, 4, double, double, __dmma_m8n8k4_ld_c, __dmma_m8n8k4_st_c_f64)
__WS_LDSTC(8, 8, 32, int, int, __imma_m8n8k32_ld_c, __imma_m8n8k32_st_c_i32)
__WS_LDSTC(8, 8, 128, int, int, __bmma_m8n8k128_ld_c, __bmma_m8n8k128_st_c_i32)
#undef __WS_LDSTC

/* mma_sync: D = A*B + C */
#define __WS_LAYOUT (__ws::is_col<LA>::value * 2 + __ws::is_col<LB>::value)
#define __WS_MMA(M, N, K, TA, TD, TC, DT, CT, AT, B)                                            \
  template <typename LA, typename LB>                                                          \
  __device__ inline void mma_sync(fragment<accumulator, M, N, K, TD, void>& d, const fragment<matrix_a, M, N, K, TA, LA>& a, \
                                  const fragment<matrix_b, M, N, K, TA, LB>& b, const fragment<accumulator, M, N, K, TC, void>& c, \
                                  bool satf = false) {                                         \
    if (satf) B((DT*)d.x, (const AT*)a.x, (const AT*)b.x, (const CT*)c.x, __WS_LAYOUT, 1);      \
    else B((DT*)d.x, (const AT*)a.x, (const AT*)b.x, (const CT*)c.x, __WS_LAYOUT, 0);           \
  }
#define __WS_MMA0(M, N, K, TA, TD, TC, DT, CT, AT, B)                                           \
  template <typename LA, typename LB>                                                          \
  __device__ inline void mma_sync(fragment<accumulator, M, N, K, TD, void>& d, const fragment<matrix_a, M, N, K, TA, LA>& a, \
                                  const fragment<matrix_b, M, N, K, TA, LB>& b, const fragment<accumulator, M, N, K, TC, void>& c, \
                                  bool satf = false) {                                         \
    (void)satf;                                                                                \
    B((DT*)d.x, (const AT*)a.x, (const AT*)b.x, (const CT*)c.x, __WS_LAYOUT, 0);                \
  }
#define __WS_MMA_F16(M, N, K, P)                                                                \
  __WS_MMA(M, N, K, __half, float, float, float, float, int, P##_mma_f32f32)                    \
  __WS_MMA(M, N, K, __half, float, __half, float, int, int, P##_mma_f32f16)                     \
  __WS_MMA(M, N, K, __half, __half, float, int, float, int, P##_mma_f16f32)                     \
  __WS_MMA(M, N, K, __half, __half, __half, int, int, int, P##_mma_f16f16)
__WS_MMA_F16(16, 16, 16, __hmma_m16n16k16)
__WS_MMA_F16(32, 8, 16, __hmma_m32n8k16)
__WS_MMA_F16(8, 32, 16, __hmma_m8n32k16)
#undef __WS_MMA_F16
__WS_MMA0(16, 16, 16, __nv_bfloat16, float, float, float, float, int, __mma_bf16_m16n16k16_mma_f32)
__WS_MMA0(32, 8, 16, __nv_bfloat16, float, float, float, float, int, __mma_bf16_m32n8k16_mma_f32)
__WS_MMA0(8, 32, 16, __nv_bfloat16, float, float, float, float, int, __mma_bf16_m8n32k16_mma_f32)
__WS_MMA0(16, 16, 8, precision::tf32, float, float, float, float, int, __mma_tf32_m16n16k8_mma_f32)
__WS_MMA(16, 16, 16, signed char, int, int, int, int, int, __imma_m16n16k16_mma_s8)
__WS_MMA(16, 16, 16, unsigned char, int, int, int, int, int, __imma_m16n16k16_mma_u8)
__WS_MMA(32, 8, 16, signed char, int, int, int, int, int, __imma_m32n8k16_mma_s8)
__WS_MMA(32, 8, 16, unsigned char, int, int, int, int, int, __imma_m32n8k16_mma_u8)
__WS_MMA(8, 32, 16, signed char, int, int, int, int, int, __imma_m8n32k16_mma_s8)
__WS_MMA(8, 32, 16, unsigned char, int, int, int, int, int, __imma_m8n32k16_mma_u8)
__WS_MMA0(8, 8, 4, double, double, double, double, double, double, __dmma_m8n8k4_mma_f64)
#undef __WS_MMA
#undef __WS_MMA0
#undef __WS_LAYOUT

/* sub-byte: mma_sync for s4/u4 (satf clamps), bmma_sync for b1 (XOR or AND, then popcount) */
#define __WS_MMAP(T, B)                                                                         \
  __device__ inline void mma_sync(fragment<accumulator, 8, 8, 32, int, void>& d,                \
                                  const fragment<matrix_a, 8, 8, 32, experimental::precision::T, row_major>& a, \
                                  const fragment<matrix_b, 8, 8, 32, experimental::precision::T, col_major>& b, \
                                  const fragment<accumulator, 8, 8, 32, int, void>& c, bool satf = false) { \
    if (satf) B((int*)d.x, (const int*)a.x, (const int*)b.x, (const int*)c.x, 1, 1);            \
    else B((int*)d.x, (const int*)a.x, (const int*)b.x, (const int*)c.x, 1, 0);                 \
  }
__WS_MMAP(s4, __imma_m8n8k32_mma_s4)
__WS_MMAP(u4, __imma_m8n8k32_mma_u4)
#undef __WS_MMAP
__device__ inline void bmma_sync(fragment<accumulator, 8, 8, 128, int, void>& d,
                                 const fragment<matrix_a, 8, 8, 128, experimental::precision::b1, row_major>& a,
                                 const fragment<matrix_b, 8, 8, 128, experimental::precision::b1, col_major>& b,
                                 const fragment<accumulator, 8, 8, 128, int, void>& c,
                                 experimental::bmmaBitOp op = experimental::bmmaBitOpXOR,
                                 experimental::bmmaAccumulateOp acc = experimental::bmmaAccumulateOpPOPC) {
  (void)acc;
  if (op == experimental::bmmaBitOpAND)
    __bmma_m8n8k128_mma_and_popc_b1((int*)d.x, (const int*)a.x, (const int*)b.x, (const int*)c.x, 1);
  else
    __bmma_m8n8k128_mma_xor_popc_b1((int*)d.x, (const int*)a.x, (const int*)b.x, (const int*)c.x, 1);
}

}  // namespace wmma
}  // namespace nvcuda
#endif /* __cplusplus */

/* __float_to_tf32: round to nearest (ties away from zero) to tf32's 10
 * fraction bits, as cvt.rna.tf32.f32 does; NaN and infinity pass through. */
static __host__ __device__ inline float __float_to_tf32(float f) {
  union { float f; unsigned u; } v;
  v.f = f;
  if ((v.u & 0x7f800000u) != 0x7f800000u) v.u = (v.u + 0x1000u) & 0xffffe000u;
  return v.f;
}
#ifdef __cplusplus
/* CUDA declares it in nvcuda::wmma (NVIDIA's samples call wmma::__float_to_tf32). */
namespace nvcuda {
namespace wmma {
using ::__float_to_tf32;
}  // namespace wmma
}  // namespace nvcuda
#endif

#endif /* __WARPSIM_MMA_H__ */
