// wmma_subbyte.cu: the sub-byte wmma API of mma.h (experimental::precision::s4,
// u4, b1; mma_sync with satf, bmma_sync with XOR and AND) run on the records of
// gen.py's wmma_* variants: per case (one warp) a 32-byte header, A at +32
// (8 rows, ldm 64 four-bit or 256 one-bit elements), B at +288 (8 columns,
// ldm 96 or 384), C at +672 (8x8 int, row-major); D (8x8 int, row-major) to
// out + case*64. The H100 ran the same operations from gen.py's PTX
// (out/wmma_*.bin); TestWMMASubByteAPIMatchesH100 runs clang's PTX of this
// file (`warpsim compile wmma_subbyte.cu --arch sm_90a`, ptx/wmma_subbyte_cc.ptx)
// on the recorded inputs.
#include <mma.h>
using namespace nvcuda;
namespace ex = nvcuda::wmma::experimental;

#define CASE 928

template <typename P>
__device__ void run4(const unsigned char* in, int* out, bool satf) {
  const unsigned char* p = in + (size_t)blockIdx.x * CASE;
  wmma::fragment<wmma::matrix_a, 8, 8, 32, P, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 8, 8, 32, P, wmma::col_major> b;
  wmma::fragment<wmma::accumulator, 8, 8, 32, int> c, d;
  wmma::load_matrix_sync(a, p + 32, 64);
  wmma::load_matrix_sync(b, p + 288, 96);
  wmma::load_matrix_sync(c, (const int*)(p + 672), 8, wmma::mem_row_major);
  wmma::mma_sync(d, a, b, c, satf);
  wmma::store_matrix_sync(out + (size_t)blockIdx.x * 64, d, 8, wmma::mem_row_major);
}

__global__ void probe_s4(const unsigned char* in, int* out, int satf) { run4<ex::precision::s4>(in, out, satf != 0); }
__global__ void probe_u4(const unsigned char* in, int* out, int satf) { run4<ex::precision::u4>(in, out, satf != 0); }

__global__ void probe_b1(const unsigned char* in, int* out, int andOp) {
  const unsigned char* p = in + (size_t)blockIdx.x * CASE;
  wmma::fragment<wmma::matrix_a, 8, 8, 128, ex::precision::b1, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 8, 8, 128, ex::precision::b1, wmma::col_major> b;
  wmma::fragment<wmma::accumulator, 8, 8, 128, int> c, d;
  wmma::load_matrix_sync(a, p + 32, 256);
  wmma::load_matrix_sync(b, p + 288, 384);
  wmma::load_matrix_sync(c, (const int*)(p + 672), 8, wmma::mem_row_major);
  wmma::bmma_sync(d, a, b, c, andOp ? ex::bmmaBitOpAND : ex::bmmaBitOpXOR, ex::bmmaAccumulateOpPOPC);
  wmma::store_matrix_sync(out + (size_t)blockIdx.x * 64, d, 8, wmma::mem_row_major);
}
