// Contraction probes: where does nvcc (--fmad=true, the default) turn a
// multiply and an add into one fma, and where does it keep the rounded
// product? Each kernel is one pattern: a product with one use and with
// several, across statements, through a select, across a branch, in loops,
// in f32, f64, f16 and half2. nvcc's PTX (-O3 -arch=sm_90) of this file is
// the oracle for the fma/mul/add pattern of each kernel, the H100's output
// bytes for what ptxas made of it (record.sh; README.md).
//
// Inputs are built so that a fused and an unfused result differ often: a
// quarter of the elements are random, the others cancel the product a*b with
// c, with d, or with c*d, to a few ulps.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_fp16.h>

#define FULL 0xffffffffu

#define K32(name, ...)                                                                                        \
  extern "C" __global__ void name(const float* __restrict__ A, const float* __restrict__ B,                     \
                                  const float* __restrict__ C, const float* __restrict__ D, float* O1, float* O2, \
                                  int n) {                                                                     \
    int i = blockIdx.x * blockDim.x + threadIdx.x;                                                             \
    if (i >= n) return;                                                                                        \
    float a = A[i], b = B[i], c = C[i], d = D[i];                                                              \
    float o1 = 0.0f, o2 = 0.0f;                                                                                \
    __VA_ARGS__;                                                                                                      \
    O1[i] = o1;                                                                                                \
    O2[i] = o2;                                                                                                \
  }
#define K64(name, ...)                                                                                          \
  extern "C" __global__ void name(const double* __restrict__ A, const double* __restrict__ B,                     \
                                  const double* __restrict__ C, const double* __restrict__ D, double* O1,         \
                                  double* O2, int n) {                                                           \
    int i = blockIdx.x * blockDim.x + threadIdx.x;                                                               \
    if (i >= n) return;                                                                                          \
    double a = A[i], b = B[i], c = C[i], d = D[i];                                                               \
    double o1 = 0.0, o2 = 0.0;                                                                                   \
    __VA_ARGS__;                                                                                                        \
    O1[i] = o1;                                                                                                  \
    O2[i] = o2;                                                                                                  \
  }
#define K16(name, ...)                                                                                          \
  extern "C" __global__ void name(const __half* __restrict__ A, const __half* __restrict__ B,                    \
                                  const __half* __restrict__ C, const __half* __restrict__ D, __half* O1,        \
                                  __half* O2, int n) {                                                           \
    int i = blockIdx.x * blockDim.x + threadIdx.x;                                                               \
    if (i >= n) return;                                                                                          \
    __half a = A[i], b = B[i], c = C[i], d = D[i];                                                               \
    __half o1 = __float2half(0.0f), o2 = __float2half(0.0f);                                                     \
    __VA_ARGS__;                                                                                                        \
    O1[i] = o1;                                                                                                  \
    O2[i] = o2;                                                                                                  \
  }
#define K16x2(name, ...)                                                                                         \
  extern "C" __global__ void name(const __half2* __restrict__ A, const __half2* __restrict__ B,                   \
                                  const __half2* __restrict__ C, const __half2* __restrict__ D, __half2* O1,      \
                                  __half2* O2, int n) {                                                           \
    int i = blockIdx.x * blockDim.x + threadIdx.x;                                                                \
    if (i >= n) return;                                                                                           \
    __half2 a = A[i], b = B[i], c = C[i], d = D[i];                                                               \
    __half2 o1 = __float2half2_rn(0.0f), o2 = __float2half2_rn(0.0f);                                             \
    __VA_ARGS__;                                                                                                         \
    O1[i] = o1;                                                                                                   \
    O2[i] = o2;                                                                                                   \
  }

// ---- f32: one use ----
K32(f32_expr, o1 = a * b + c)                                   // within one expression
K32(f32_stmt, float p = a * b; o1 = p + c)                      // across statements
K32(f32_expr_sub, o1 = a * b - c)                               // product minus
K32(f32_expr_rsub, o1 = c - a * b)                              // minus product
K32(f32_stmt_sub, float p = a * b; o1 = p - c)                  // across statements, fsub
K32(f32_stmt_rsub, float p = a * b; o1 = c - p)                 // across statements, fsub
K32(f32_neg_add, float p = a * b; o1 = -p + c)                  // negated product
K32(f32_two_products, o1 = a * b + c * d)                       // which of two products
K32(f32_prod_minus_prod, o1 = a * b - c * d)                    // difference of products
K32(f32_triple, o1 = a * b * c + d)                             // a chained product
K32(f32_mul_of_sum, o1 = (a + b) * c + d)                       // product of a sum
K32(f32_explicit, o1 = fmaf(a, b, c); o2 = __fadd_rn(__fmul_rn(a, b), c))  // fmaf and the _rn intrinsics
K32(f32_to_f64, o1 = (float)((double)(a * b) + (double)c))     // a conversion in between

// ---- f32: a product with several uses ----
K32(f32_two_adds, float p = a * b; o1 = p + c; o2 = p + d)      // two uses, both adds
K32(f32_add_sub, float p = a * b; o1 = p + c; o2 = p - d)       // an add and a sub
K32(f32_two_subs, float p = a * b; o1 = p - c; o2 = d - p)      // two subs
K32(f32_add_store, float p = a * b; o1 = p + c; o2 = p)         // an add and a store
K32(f32_add_mul, float p = a * b; o1 = p + c; o2 = p * d)       // an add and a multiply
K32(f32_add_cmp, float p = a * b; o1 = p + c; if (p > 1.0f) o2 = d)  // an add and a compare
K32(f32_expr_cse, o1 = a * b + c; o2 = a * b)                   // the same product in two expressions
K32(f32_expr_cse2, o1 = a * b + c; o2 = a * b + d)              // the same product added twice, two expressions
K32(f32_add_shfl, float p = a * b; o1 = p + __shfl_xor_sync(FULL, p, 1))  // llm.c's softmax: the product shuffled and added
K32(f32_shared_prod, float cd = c * d; o1 = a * b + cd; o2 = cd)          // a*b + c*d with c*d stored
K32(f32_four_adds, float p = a * b; o1 = (p + c) * (p + d); o2 = (p + 1.5f) * (p + 0.75f))
K32(f32_five_adds, float p = a * b; o1 = (p + c) * (p + d) * (p + 3.25f); o2 = (p + 1.5f) * (p + 0.75f))
K32(f32_add_max, float p = a * b; o1 = p + c; o2 = fmaxf(p, d))           // an add and a max

// ---- f32: selects, branches ----
K32(f32_select_then_add, float p = a * b; float q = (c > 0.0f) ? p : d; o1 = q + c)
K32(f32_select_of_sums, o1 = (c > 0.0f) ? (a * b + c) : (a * b + d))
K32(f32_branch, float p = a * b; if (c > 0.0f) { O1[i] = p + d; O2[i] = d; return; } o2 = p)
K32(f32_branch_add_only, float p = a * b; if (c > 0.0f) { o1 = p + d; } else { O1[i] = p + c; O2[i] = c; return; })

// ---- f32: loops ----
K32(f32_loop_dot, float acc = 0.0f; for (int k = 0; k < 16; k++) acc += A[(i * 7 + k) & (n - 1)] * B[(i * 5 + k) & (n - 1)]; o1 = acc)
K32(f32_loop_dot_stmt, float acc = c; for (int k = 0; k < 16; k++) { float p = A[(i * 7 + k) & (n - 1)] * b; acc = acc + p; } o1 = acc)
K32(f32_loop_dyn, float acc = c; int m = 9 + (i & 7); for (int k = 0; k < m; k++) { float p = A[(i + k) & (n - 1)] * b; acc = acc + p; } o1 = acc)
K32(f32_hoisted, float acc = c; int m = 9 + (i & 7); for (int k = 0; k < m; k++) acc = acc + a * b; o1 = acc)  // a loop-invariant product
K32(f32_horner, float y = c; for (int k = 0; k < 8; k++) y = y * a + B[(i + k) & (n - 1)]; o1 = y)
K32(f32_horner_stmt, float y = c; for (int k = 0; k < 8; k++) { float t = y * a; y = t + B[(i + k) & (n - 1)]; } o1 = y)
K32(f32_mandel, float zr = 0.0f, zi = 0.0f; for (int k = 0; k < 6; k++) { float t = zr * zr - zi * zi + a * 0.25f; zi = 2.0f * zr * zi + b * 0.25f; zr = t; } o1 = zr; o2 = zi)
K32(f32_complex, o1 = a * c - b * d; o2 = a * d + b * c)
K32(f32_running_rescale, float s = c; for (int k = 0; k < 4; k++) { s *= B[(i + k) & (n - 1)]; s += __shfl_xor_sync(FULL, s, 1 << k); } o1 = s)

// ---- f32: a product far from its add (LLVM's NVPTX back end fuses a product
// with another use when the two are far apart in the block, a register-pressure
// heuristic) ----
K32(f32_far, float p = a * b; unsigned h = (unsigned)i;
    _Pragma("unroll") for (int k = 0; k < 160; k++) h = (h * 2654435761u) ^ (h >> 13);
    o1 = (p + c) + (float)(h & 1); o2 = p)

// ---- f64 ----
K64(f64_expr, o1 = a * b + c)
K64(f64_stmt, double p = a * b; o1 = p + c)
K64(f64_two_adds, double p = a * b; o1 = p + c; o2 = p + d)
K64(f64_add_store, double p = a * b; o1 = p + c; o2 = p)
K64(f64_add_shfl, double p = a * b; o1 = p + __shfl_xor_sync(FULL, p, 1))
K64(f64_expr_cse, o1 = a * b + c; o2 = a * b)
K64(f64_loop_dot, double acc = 0.0; for (int k = 0; k < 16; k++) acc += A[(i * 7 + k) & (n - 1)] * B[(i * 5 + k) & (n - 1)]; o1 = acc)

// ---- f16 through cuda_fp16.h ----
K16(f16_hmul_hadd, o1 = __hadd(__hmul(a, b), c))                // the intrinsics
K16(f16_ops, o1 = a * b + c)                                    // the operators
K16(f16_rn, o1 = __hadd_rn(__hmul_rn(a, b), c))                 // the _rn forms (no contraction, by their definition)
K16(f16_hfma, o1 = __hfma(a, b, c))                             // explicit
K16(f16_two_uses, __half p = __hmul(a, b); o1 = __hadd(p, c); o2 = p)
K16(f16_sub, o1 = __hsub(__hmul(a, b), c))
K16x2(h2_hmul2_hadd2, o1 = __hadd2(__hmul2(a, b), c))
K16x2(h2_ops, o1 = a * b + c)
K16x2(h2_two_uses, __half2 p = __hmul2(a, b); o1 = __hadd2(p, c); o2 = p)

// ---- host ----
typedef void (*k32_t)(const float*, const float*, const float*, const float*, float*, float*, int);
typedef void (*k64_t)(const double*, const double*, const double*, const double*, double*, double*, int);
typedef void (*k16_t)(const __half*, const __half*, const __half*, const __half*, __half*, __half*, int);
typedef void (*k16x2_t)(const __half2*, const __half2*, const __half2*, const __half2*, __half2*, __half2*, int);

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("CUDA error %s at %d\n", cudaGetErrorString(e_), __LINE__); exit(1); } } while (0)

static unsigned long long lcg_state = 12345;
static unsigned lcg() { lcg_state = lcg_state * 6364136223846793005ull + 1442695040888963407ull; return (unsigned)(lcg_state >> 33); }
// a random value in ±[0.5, 2) with a full mantissa
static double drand() {
  double m = 1.0 + (double)lcg() / 2147483648.0 * 0.5 + (double)lcg() / 2147483648.0 / 2147483648.0;
  m *= (lcg() & 1) ? 0.5 : 1.0;
  return (lcg() & 1) ? -m : m;
}
static unsigned fnv(const void* p, size_t n) { const unsigned char* b = (const unsigned char*)p; unsigned h = 2166136261u; for (size_t i = 0; i < n; i++) { h ^= b[i]; h *= 16777619u; } return h; }

enum { N = 4096 };
static double ha[N], hb[N], hc[N], hd[N];

// Inputs in element type T: a quarter random, a quarter c ≈ -a·b, a quarter
// d ≈ -a·b, a quarter c·d ≈ -a·b (each to a few ulps of T, from `ulp`).
static void make_inputs(double ulp) {
  for (int i = 0; i < N; i++) {
    ha[i] = drand(); hb[i] = drand(); hc[i] = drand(); hd[i] = drand();
    double e = 1.0 + ulp * (double)((int)(lcg() % 17) - 8);
    switch (i & 3) {
      case 1: hc[i] = -ha[i] * hb[i] * e; break;
      case 2: hd[i] = -ha[i] * hb[i] * e; break;
      case 3: hd[i] = -ha[i] * hb[i] / hc[i] * e; break;
    }
  }
}

struct Probe { const char* name; int type; void* fn; };  // type: 0 f32, 1 f64, 2 f16, 3 half2
#define P32(n) {#n, 0, (void*)n}
#define P64(n) {#n, 1, (void*)n}
#define P16(n) {#n, 2, (void*)n}
#define PH2(n) {#n, 3, (void*)n}
static const Probe probes[] = {
  P32(f32_expr), P32(f32_stmt), P32(f32_expr_sub), P32(f32_expr_rsub), P32(f32_stmt_sub), P32(f32_stmt_rsub),
  P32(f32_neg_add), P32(f32_two_products), P32(f32_prod_minus_prod), P32(f32_triple), P32(f32_mul_of_sum),
  P32(f32_explicit), P32(f32_to_f64), P32(f32_two_adds), P32(f32_add_sub), P32(f32_two_subs), P32(f32_add_store),
  P32(f32_add_mul), P32(f32_add_cmp), P32(f32_expr_cse), P32(f32_expr_cse2), P32(f32_add_shfl), P32(f32_shared_prod),
  P32(f32_four_adds), P32(f32_five_adds), P32(f32_add_max), P32(f32_select_then_add), P32(f32_select_of_sums),
  P32(f32_branch), P32(f32_branch_add_only), P32(f32_loop_dot), P32(f32_loop_dot_stmt), P32(f32_loop_dyn), P32(f32_hoisted),
  P32(f32_horner), P32(f32_horner_stmt), P32(f32_mandel), P32(f32_complex), P32(f32_running_rescale), P32(f32_far),
  P64(f64_expr), P64(f64_stmt), P64(f64_two_adds), P64(f64_add_store), P64(f64_add_shfl), P64(f64_expr_cse),
  P64(f64_loop_dot),
  P16(f16_hmul_hadd), P16(f16_ops), P16(f16_rn), P16(f16_hfma), P16(f16_two_uses), P16(f16_sub),
  PH2(h2_hmul2_hadd2), PH2(h2_ops), PH2(h2_two_uses),
};

int main() {
  static float f[4][N];
  static double g[4][N];
  static __half h[4][N];
  make_inputs(0x1p-23);
  for (int i = 0; i < N; i++) { f[0][i] = (float)ha[i]; f[1][i] = (float)hb[i]; f[2][i] = (float)hc[i]; f[3][i] = (float)hd[i]; }
  make_inputs(0x1p-52);
  for (int i = 0; i < N; i++) { g[0][i] = ha[i]; g[1][i] = hb[i]; g[2][i] = hc[i]; g[3][i] = hd[i]; }
  make_inputs(0x1p-10);
  for (int i = 0; i < N; i++) { h[0][i] = __float2half((float)ha[i]); h[1][i] = __float2half((float)hb[i]); h[2][i] = __float2half((float)hc[i]); h[3][i] = __float2half((float)hd[i]); }
  printf("inputs f32 %08x %08x %08x %08x f64 %08x %08x %08x %08x f16 %08x %08x %08x %08x\n",
         fnv(f[0], sizeof f[0]), fnv(f[1], sizeof f[1]), fnv(f[2], sizeof f[2]), fnv(f[3], sizeof f[3]),
         fnv(g[0], sizeof g[0]), fnv(g[1], sizeof g[1]), fnv(g[2], sizeof g[2]), fnv(g[3], sizeof g[3]),
         fnv(h[0], sizeof h[0]), fnv(h[1], sizeof h[1]), fnv(h[2], sizeof h[2]), fnv(h[3], sizeof h[3]));
  void* in[4];
  void *o1, *o2;
  for (int k = 0; k < 4; k++) CHECK(cudaMalloc(&in[k], N * 8));
  CHECK(cudaMalloc(&o1, N * 8));
  CHECK(cudaMalloc(&o2, N * 8));
  static unsigned char r1[N * 8], r2[N * 8];
  for (size_t p = 0; p < sizeof probes / sizeof probes[0]; p++) {
    const Probe& q = probes[p];
    size_t es = q.type == 0 ? 4 : q.type == 1 ? 8 : q.type == 2 ? 2 : 4;
    int n = N;  // elements (half2: N pairs of halves from the f16 inputs, read as N/2 pairs)
    if (q.type == 3) n = N / 2;
    for (int k = 0; k < 4; k++) {
      const void* src = q.type == 0 ? (const void*)f[k] : q.type == 1 ? (const void*)g[k] : (const void*)h[k];
      CHECK(cudaMemcpy(in[k], src, n * es, cudaMemcpyHostToDevice));
    }
    CHECK(cudaMemset(o1, 0, N * 8));
    CHECK(cudaMemset(o2, 0, N * 8));
    int blocks = n / 256;
    switch (q.type) {
      case 0: ((k32_t)q.fn)<<<blocks, 256>>>((float*)in[0], (float*)in[1], (float*)in[2], (float*)in[3], (float*)o1, (float*)o2, n); break;
      case 1: ((k64_t)q.fn)<<<blocks, 256>>>((double*)in[0], (double*)in[1], (double*)in[2], (double*)in[3], (double*)o1, (double*)o2, n); break;
      case 2: ((k16_t)q.fn)<<<blocks, 256>>>((__half*)in[0], (__half*)in[1], (__half*)in[2], (__half*)in[3], (__half*)o1, (__half*)o2, n); break;
      case 3: ((k16x2_t)q.fn)<<<blocks, 256>>>((__half2*)in[0], (__half2*)in[1], (__half2*)in[2], (__half2*)in[3], (__half2*)o1, (__half2*)o2, n); break;
    }
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(r1, o1, n * es, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(r2, o2, n * es, cudaMemcpyDeviceToHost));
    printf("%-22s o1 %08x o2 %08x\n", q.name, fnv(r1, n * es), fnv(r2, n * es));
    if (getenv("PROBES_DUMP")) {
      char path[256];
      snprintf(path, sizeof path, "%s/%s.bin", getenv("PROBES_DUMP"), q.name);
      FILE* fp = fopen(path, "wb");
      if (fp) { fwrite(r1, 1, n * es, fp); fwrite(r2, 1, n * es, fp); fclose(fp); }
    }
  }
  return 0;
}
