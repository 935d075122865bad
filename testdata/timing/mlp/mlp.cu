// mlp.cu: loads in flight a warp, as ptxas's code has them, against occupancy (issue 19, helper occ2).
// Every p_* kernel reads L floats a thread at a stride of the block's size inside the block's own B*L
// elements (n floats in all), and differs only in how many of those loads ptxas's SASS can have in flight
// at once: the loop's shape (unroll pragma, guard, loads only or with stores, .nc) decides it. Occupancy is
// set with dynamic shared memory (R blocks of 128 threads an SM: smem_for_resident), so the register count
// does not decide it (unless it binds first: `resident` in each line says what the driver allowed).
//   p_u1    `#pragma unroll 1`, guarded (i < n): one load, its add, the back edge.
//   p_u4g   `#pragma unroll 4`, guarded: four guarded loads in nvcc's body (ptxas if-converts them).
//   p_u4    `#pragma unroll 4`, unguarded.
//   p_dflt  no pragma, guarded (nvcc's own choice).
//   p_dot   no pragma, guarded, two arrays (a[i] * c[i]): two loads an element, no store.
//   p_cpnc  copy through __restrict__ pointers (ld.global.nc), guarded: loads that may pass the stores.
//   q_*     compiled only (their SASS says which loop shapes ptxas unrolls): see run.sh's `ldg` table.
#include <string>
#include "../bench/bench.h"

#define IDX size_t base = (size_t)blockIdx.x * blockDim.x * L + threadIdx.x
extern "C" __global__ void p_u1(const float *a, float *out, unsigned n, unsigned L) {
  IDX; float s = 0;
#pragma unroll 1
  for (unsigned j = 0; j < L; j++) { size_t i = base + (size_t)j * blockDim.x; if (i < n) s += a[i]; }
  out[(size_t)blockIdx.x * blockDim.x + threadIdx.x] = s;
}
extern "C" __global__ void p_u4g(const float *a, float *out, unsigned n, unsigned L) {
  IDX; float s = 0;
#pragma unroll 4
  for (unsigned j = 0; j < L; j++) { size_t i = base + (size_t)j * blockDim.x; if (i < n) s += a[i]; }
  out[(size_t)blockIdx.x * blockDim.x + threadIdx.x] = s;
}
extern "C" __global__ void p_u4(const float *a, float *out, unsigned n, unsigned L) {
  IDX; float s = 0;
#pragma unroll 4
  for (unsigned j = 0; j < L; j++) s += a[base + (size_t)j * blockDim.x];
  out[(size_t)blockIdx.x * blockDim.x + threadIdx.x] = s;
}
extern "C" __global__ void p_dflt(const float *a, float *out, unsigned n, unsigned L) {
  IDX; float s = 0;
  for (unsigned j = 0; j < L; j++) { size_t i = base + (size_t)j * blockDim.x; if (i < n) s += a[i]; }
  out[(size_t)blockIdx.x * blockDim.x + threadIdx.x] = s;
}
extern "C" __global__ void p_dot(const float *a, const float *c, float *out, unsigned n, unsigned L) {
  IDX; float s = 0;
  for (unsigned j = 0; j < L; j++) { size_t i = base + (size_t)j * blockDim.x; if (i < n) s += a[i] * c[i]; }
  out[(size_t)blockIdx.x * blockDim.x + threadIdx.x] = s;
}
extern "C" __global__ void p_cpnc(const float *__restrict__ a, float *__restrict__ b, unsigned n, unsigned L) {
  IDX;
  for (unsigned j = 0; j < L; j++) { size_t i = base + (size_t)j * blockDim.x; if (i < n) b[i] = a[i]; }
}
// ---- compiled only: which loop shapes ptxas unrolls past nvcc's body ----
extern "C" __global__ void q_sum_plain(const float *a, float *out, unsigned L) {
  IDX; float s = 0;
  for (unsigned j = 0; j < L; j++) s += a[base + (size_t)j * blockDim.x];
  out[(size_t)blockIdx.x * blockDim.x + threadIdx.x] = s;
}
extern "C" __global__ void q_sum_int(const int *a, int *out, unsigned n, unsigned L) {
  IDX; int s = 0;
  for (unsigned j = 0; j < L; j++) { size_t i = base + (size_t)j * blockDim.x; if (i < n) s += a[i]; }
  out[(size_t)blockIdx.x * blockDim.x + threadIdx.x] = s;
}
extern "C" __global__ void q_sum_dbl(const double *a, double *out, unsigned n, unsigned L) {
  IDX; double s = 0;
  for (unsigned j = 0; j < L; j++) { size_t i = base + (size_t)j * blockDim.x; if (i < n) s += a[i]; }
  out[(size_t)blockIdx.x * blockDim.x + threadIdx.x] = s;
}
extern "C" __global__ void q_sum_heavy(const float *a, float *out, unsigned n, unsigned L) {
  IDX; float s = 0;
  for (unsigned j = 0; j < L; j++) {
    size_t i = base + (size_t)j * blockDim.x;
    if (i < n) { float v = a[i]; s += v * v + 0.5f * v - 1.0f / (v + 3.0f); }
  }
  out[(size_t)blockIdx.x * blockDim.x + threadIdx.x] = s;
}
extern "C" __global__ void q_copy_plain(const float *a, float *b, unsigned L) {
  IDX;
  for (unsigned j = 0; j < L; j++) b[base + (size_t)j * blockDim.x] = a[base + (size_t)j * blockDim.x];
}
extern "C" __global__ void q_copy_guard(const float *a, float *b, unsigned n, unsigned L) {
  IDX;
  for (unsigned j = 0; j < L; j++) { size_t i = base + (size_t)j * blockDim.x; if (i < n) b[i] = a[i]; }
}
extern "C" __global__ void q_fill_plain(float *b, unsigned L, float v) {
  IDX;
  for (unsigned j = 0; j < L; j++) b[base + (size_t)j * blockDim.x] = v;
}
extern "C" __global__ void q_sum_stride(const float *a, float *out, unsigned n, unsigned step) {
  // a grid-stride loop: the trip count is not a kernel argument
  float s = 0;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step) s += a[i];
  out[(size_t)blockIdx.x * blockDim.x + threadIdx.x] = s;
}
extern "C" __global__ void q_max_guard(const float *a, float *out, unsigned n, unsigned L) {
  IDX; float s = -1e30f;
  for (unsigned j = 0; j < L; j++) { size_t i = base + (size_t)j * blockDim.x; if (i < n) s = fmaxf(s, a[i]); }
  out[(size_t)blockIdx.x * blockDim.x + threadIdx.x] = s;
}

static float *g_A, *g_B, *g_C;
static const size_t NMAX = 1u << 23;

template <class F> static void cfg(const char *name, const char *kernel, int grid, int block, int smem, int res,
                                   const char *args, F launch) {
  float ms = time_median(launch);
  printf("cfg name=%s kernel=%s grid=%d block=%d smem=%d resident=%d args=%s event_ms=%.5f\n", name, kernel, grid,
         block, smem, res, args, ms);
  fflush(stdout);
}

#define SUM_KERNELS(X) X(p_u1) X(p_u4g) X(p_u4) X(p_dflt)
int main(int argc, char **argv) {
  bench_mode(argc, argv);
  if (num_sms() != 132) fprintf(stderr, "warning: %d SMs, the configurations assume 132\n", num_sms());
  CK(cudaMalloc(&g_A, NMAX * 4)); CK(cudaMalloc(&g_B, NMAX * 4)); CK(cudaMalloc(&g_C, NMAX * 4));
  CK(cudaMemset(g_A, 0x3f, NMAX * 4)); CK(cudaMemset(g_B, 0, NMAX * 4)); CK(cudaMemset(g_C, 0x3e, NMAX * 4));
#define ALLOW(k) allow_smem(k);
  SUM_KERNELS(ALLOW) allow_smem(p_dot); allow_smem(p_cpnc);
  const int B = 128;
  const unsigned n = 1u << 22;
  // SPLIT.md: L = 16 is the study half, L = 8 held out.
  struct { unsigned L; int R; } cs[] = {{16, 16}, {16, 12}, {16, 8}, {16, 4}, {8, 12}, {8, 6}};
  for (auto c : cs) {
    unsigned L = c.L; int R = c.R;
    int grid = (int)(n / (B * L));
    {
      int smem = smem_for_resident(R);
      char nm[64], a[96];
#define RUN(k)                                                                                   \
      snprintf(nm, 64, "%s_l%u_r%d", #k, L, R); snprintf(a, 96, "a,b,u32:%u,u32:%u", n, L);     \
      cfg(nm, #k, grid, B, smem, resident(k, B, smem), a, [&] { k<<<grid, B, smem>>>(g_A, g_B, n, L); });
      SUM_KERNELS(RUN)
      snprintf(nm, 64, "p_dot_l%u_r%d", L, R); snprintf(a, 96, "a,c,b,u32:%u,u32:%u", n, L);
      cfg(nm, "p_dot", grid, B, smem, resident(p_dot, B, smem), a,
          [&] { p_dot<<<grid, B, smem>>>(g_A, g_C, g_B, n, L); });
      snprintf(nm, 64, "p_cpnc_l%u_r%d", L, R); snprintf(a, 96, "a,b,u32:%u,u32:%u", n, L);
      cfg(nm, "p_cpnc", grid, B, smem, resident(p_cpnc, B, smem), a,
          [&] { p_cpnc<<<grid, B, smem>>>(g_A, g_B, n, L); });
    }
  }
  return 0;
}
