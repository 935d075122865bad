// Study probe (lead, seventeenth round): how ptxas expands 8-bit wmma.load
// of each shape and layout inside a k loop read from global memory.
// Compile only; the SASS is what is recorded.
#include <mma.h>
#include <type_traits>
using namespace nvcuda;

#define KERNEL(NAME, M, N, K, T, LA, LB)                                        \
  __global__ void NAME(const T *a, const T *b, int *c, int n) {                \
    constexpr bool RA = std::is_same<wmma::LA, wmma::row_major>::value; \
    constexpr bool RB = std::is_same<wmma::LB, wmma::row_major>::value; \
    wmma::fragment<wmma::matrix_a, M, N, K, T, wmma::LA> fa;                   \
    wmma::fragment<wmma::matrix_b, M, N, K, T, wmma::LB> fb;                   \
    wmma::fragment<wmma::accumulator, M, N, K, int> acc;                       \
    wmma::fill_fragment(acc, 0);                                               \
    int lda = RA ? n : M;                             \
    int ldb = RB ? N : n;                             \
    for (int k = 0; k < n; k += K) {                                           \
      const T *pa = RA ? a + k : a + (size_t)k * M;   \
      const T *pb = RB ? b + (size_t)k * N : b + k;   \
      wmma::load_matrix_sync(fa, pa, lda);                                     \
      wmma::load_matrix_sync(fb, pb, ldb);                                     \
      wmma::mma_sync(acc, fa, fb, acc);                                        \
    }                                                                          \
    wmma::store_matrix_sync(c, acc, N, wmma::mem_row_major);                   \
  }

#define SHAPES(T, TN)                                                          \
  KERNEL(k16x16x16_##TN##_rr, 16, 16, 16, T, row_major, row_major)             \
  KERNEL(k16x16x16_##TN##_rc, 16, 16, 16, T, row_major, col_major)             \
  KERNEL(k16x16x16_##TN##_cr, 16, 16, 16, T, col_major, row_major)             \
  KERNEL(k16x16x16_##TN##_cc, 16, 16, 16, T, col_major, col_major)             \
  KERNEL(k32x8x16_##TN##_rr, 32, 8, 16, T, row_major, row_major)               \
  KERNEL(k32x8x16_##TN##_rc, 32, 8, 16, T, row_major, col_major)               \
  KERNEL(k32x8x16_##TN##_cr, 32, 8, 16, T, col_major, row_major)               \
  KERNEL(k32x8x16_##TN##_cc, 32, 8, 16, T, col_major, col_major)               \
  KERNEL(k8x32x16_##TN##_rr, 8, 32, 16, T, row_major, row_major)               \
  KERNEL(k8x32x16_##TN##_rc, 8, 32, 16, T, row_major, col_major)               \
  KERNEL(k8x32x16_##TN##_cr, 8, 32, 16, T, col_major, row_major)               \
  KERNEL(k8x32x16_##TN##_cc, 8, 32, 16, T, col_major, col_major)

SHAPES(signed char, s8)
SHAPES(unsigned char, u8)
