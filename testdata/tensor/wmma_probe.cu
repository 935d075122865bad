// wmma probe: for each variant, NCASE warps each load A, B and C with
// wmma::load_matrix_sync, run mma_sync and store D row-major. The inputs are
// made here from a fixed LCG; each variant writes out/wmma_<name>.bin =
// A bytes | B bytes | C bytes | D bytes (all cases, cases contiguous).
#include <mma.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <vector>
#include <cmath>
#include <type_traits>
using namespace nvcuda;

#define NCASE 64
static uint64_t rs = 0x9E3779B97F4A7C15ull;
static uint32_t rnd32() { rs ^= rs << 13; rs ^= rs >> 7; rs ^= rs << 17; return (uint32_t)(rs >> 11); }
static float rndf(int lo, int hi) {  // sign * (1+m) * 2^e, 10% zeros
  uint32_t r = rnd32();
  if (r % 10 == 0) return 0.0f;
  float m = 1.0f + (rnd32() & 0xFFFFFF) / 16777216.0f;
  int e = lo + (int)(rnd32() % (unsigned)(hi - lo + 1));
  return ((r >> 8) & 1 ? -1.0f : 1.0f) * ldexpf(m, e);
}
template <typename T> T conv(float f);
template <> __half conv<__half>(float f) { return __float2half(f); }
template <> __nv_bfloat16 conv<__nv_bfloat16>(float f) { return __float2bfloat16(f); }
template <> float conv<float>(float f) { return f; }
template <> double conv<double>(float f) { return (double)f * (1.0 + (rnd32() & 0xFFFFF) * 1e-9); }
template <> signed char conv<signed char>(float) { return (signed char)(rnd32() & 0xFF); }
template <> unsigned char conv<unsigned char>(float) { return (unsigned char)(rnd32() & 0xFF); }
template <> int conv<int>(float) { return (int)(rnd32() % 200001) - 100000; }

template <typename TA, typename TB, typename TC, typename FA, typename FB, typename LA, typename LB, int M, int N, int K>
__global__ void wk(const TA* A, const TB* B, const TC* C, TC* D, int lda, int ldb, int ldc, int cmajor) {
  int w = blockIdx.x;
  wmma::fragment<wmma::matrix_a, M, N, K, FA, LA> a;
  wmma::fragment<wmma::matrix_b, M, N, K, FB, LB> b;
  wmma::fragment<wmma::accumulator, M, N, K, TC> c;
  wmma::load_matrix_sync(a, A + w * M * K, lda);
  wmma::load_matrix_sync(b, B + w * K * N, ldb);
  wmma::load_matrix_sync(c, C + w * M * N, ldc, cmajor ? wmma::mem_col_major : wmma::mem_row_major);
  wmma::mma_sync(c, a, b, c);
  wmma::store_matrix_sync(D + w * M * N, c, N, wmma::mem_row_major);
}

template <typename TA, typename TB, typename TC, typename FA, typename FB, typename LA, typename LB, int M, int N, int K>
static int runv(const char* name, int lo, int hi, int clo, int chi, int cmajor) {
  size_t na = (size_t)NCASE * M * K, nb = (size_t)NCASE * K * N, nc = (size_t)NCASE * M * N;
  std::vector<TA> ha(na);
  std::vector<TB> hb(nb);
  std::vector<TC> hc(nc), hd(nc);
  for (auto& x : ha) x = conv<TA>(rndf(lo, hi));
  for (auto& x : hb) x = conv<TB>(rndf(lo, hi));
  for (auto& x : hc) x = conv<TC>(rndf(clo, chi));
  TA* da; TB* db; TC *dc, *dd;
  cudaMalloc(&da, na * sizeof(TA)); cudaMalloc(&db, nb * sizeof(TB));
  cudaMalloc(&dc, nc * sizeof(TC)); cudaMalloc(&dd, nc * sizeof(TC));
  cudaMemcpy(da, ha.data(), na * sizeof(TA), cudaMemcpyHostToDevice);
  cudaMemcpy(db, hb.data(), nb * sizeof(TB), cudaMemcpyHostToDevice);
  cudaMemcpy(dc, hc.data(), nc * sizeof(TC), cudaMemcpyHostToDevice);
  cudaMemset(dd, 0xEE, nc * sizeof(TC));
  bool arow = std::is_same<LA, wmma::row_major>::value, brow = std::is_same<LB, wmma::row_major>::value;
  wk<TA, TB, TC, FA, FB, LA, LB, M, N, K><<<NCASE, 32>>>(da, db, dc, dd, arow ? K : M, brow ? N : K, cmajor ? M : N, cmajor);
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) { printf("%s: %s\n", name, cudaGetErrorString(e)); return 1; }
  cudaMemcpy(hd.data(), dd, nc * sizeof(TC), cudaMemcpyDeviceToHost);
  char path[512];
  snprintf(path, sizeof path, "out/wmma_%s.bin", name);
  FILE* f = fopen(path, "wb");
  fwrite(ha.data(), sizeof(TA), na, f); fwrite(hb.data(), sizeof(TB), nb, f);
  fwrite(hc.data(), sizeof(TC), nc, f); fwrite(hd.data(), sizeof(TC), nc, f);
  fclose(f);
  printf("wmma %s ok\n", name);
  cudaFree(da); cudaFree(db); cudaFree(dc); cudaFree(dd);
  return 0;
}

int main() {
  typedef wmma::row_major R;
  typedef wmma::col_major C;
  int bad = 0;
  bad += runv<__half, __half, float, __half, __half, R, C, 16, 16, 16>("m16n16k16_f16_f32_rc", -8, 6, -6, 10, 0);
  bad += runv<__half, __half, float, __half, __half, C, R, 16, 16, 16>("m16n16k16_f16_f32_cr_ccol", -8, 6, -6, 10, 1);
  bad += runv<__half, __half, float, __half, __half, R, R, 16, 16, 16>("m16n16k16_f16_f32_rr", -14, 14, -20, 20, 0);
  bad += runv<__half, __half, __half, __half, __half, R, C, 16, 16, 16>("m16n16k16_f16_f16_rc", -6, 3, -4, 6, 0);
  bad += runv<__half, __half, __half, __half, __half, C, C, 16, 16, 16>("m16n16k16_f16_f16_cc", -6, 3, -4, 6, 0);
  bad += runv<__half, __half, float, __half, __half, R, C, 32, 8, 16>("m32n8k16_f16_f32_rc", -8, 6, -6, 10, 0);
  bad += runv<__half, __half, float, __half, __half, R, R, 8, 32, 16>("m8n32k16_f16_f32_rr", -8, 6, -6, 10, 0);
  bad += runv<__nv_bfloat16, __nv_bfloat16, float, __nv_bfloat16, __nv_bfloat16, R, C, 16, 16, 16>("m16n16k16_bf16_f32_rc", -30, 30, -20, 40, 0);
  bad += runv<float, float, float, wmma::precision::tf32, wmma::precision::tf32, R, R, 16, 16, 8>("m16n16k8_tf32_f32_rr", -20, 20, -20, 30, 0);
  bad += runv<float, float, float, wmma::precision::tf32, wmma::precision::tf32, C, C, 16, 16, 8>("m16n16k8_tf32_f32_cc", -4, 4, -4, 4, 0);
  bad += runv<signed char, signed char, int, signed char, signed char, R, C, 16, 16, 16>("m16n16k16_s8_s32_rc", 0, 0, 0, 0, 0);
  bad += runv<unsigned char, unsigned char, int, unsigned char, unsigned char, R, R, 16, 16, 16>("m16n16k16_u8_s32_rr", 0, 0, 0, 0, 0);
  bad += runv<double, double, double, double, double, R, C, 8, 8, 4>("m8n8k4_f64_f64_rc", -30, 30, -40, 40, 0);
  printf("wmma: %d failures\n", bad);
  return bad != 0;
}
