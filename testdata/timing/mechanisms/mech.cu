// mech.cu: microbenchmarks isolating three memory/launch mechanisms of the H100 for warpsim's timing
// model (issue 19). Usage: mech [list]. Each configuration is launched once under ncu (BENCH_NCU=1),
// else timed with CUDA events (median of 10). Output: one line per configuration:
//   cfg name=N kernel=K grid=G block=B args=a,b,c event_ms=T
// Families (the configuration table in main() is mirrored by the launch files in
// testdata/timing/mechanisms/launch/; names are the key):
//   st_*   stores at a stride: st_stride writes one 4-byte word per lane at a lane stride of s words
//          (s=1: 4 full sectors a request; s>=8: 32 sectors a request, each written 4 bytes of 32);
//          st_full writes whole 32-byte sectors (two 16-byte stores a lane) at a stride of s sectors.
//   l1_*   L1 reuse of global loads: rowreuse reads, per lane, its own row of A (lane stride K words:
//          32 sectors a request, each sector re-read by the next 7 iterations) while streaming B
//          coalesced; variants load A with ld.global (plain), ld.global.nc (__ldg), ld.global.cg
//          (__ldcg, L2 only), or one address for the whole warp (broadcast). reread: one block of 1024
//          per SM re-reads its own F bytes P times (footprint vs the L1's capacity).
//   sb_*   short blocks: shortcopy copies L elements a thread (blocks of B threads), 2^22 floats in
//          all, so the grid shrinks as blocks get longer.
#include "../bench/bench.h"

extern "C" __global__ void st_stride(float *p, unsigned n, unsigned s) {
  for (unsigned j = blockIdx.x * blockDim.x + threadIdx.x; j < n; j += gridDim.x * blockDim.x)
    p[(size_t)j * s] = (float)j;
}
extern "C" __global__ void st_full(float4 *p, unsigned n, unsigned s) {
  for (unsigned j = blockIdx.x * blockDim.x + threadIdx.x; j < n; j += gridDim.x * blockDim.x) {
    float4 v = make_float4((float)j, 1.f, 2.f, 3.f);
    p[(size_t)j * s * 2] = v;
    p[(size_t)j * s * 2 + 1] = v;
  }
}
// mode 0: ld.global (plain), 1: ld.global.nc, 2: ld.global.cg, 3: one address per warp (broadcast)
template <int MODE> __device__ __forceinline__ float lda(const float *A, unsigned r, unsigned K, unsigned k) {
  if (MODE == 3) return A[(size_t)(r >> 5) * K + k];
  const float *q = A + (size_t)r * K + k;
  if (MODE == 1) return __ldg(q);
  if (MODE == 2) { float v; asm volatile("ld.global.cg.f32 %0, [%1];" : "=f"(v) : "l"(q)); return v; }
  return *q;
}
template <int MODE> __device__ void rowreuse_body(const float *A, const float *B, float *C, unsigned K, unsigned N) {
  unsigned r = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0;
  for (unsigned k = 0; k < K; k++) acc += lda<MODE>(A, r, K, k) * B[(size_t)k * N + r];
  C[r] = acc;
}
extern "C" __global__ void rowreuse(const float *A, const float *B, float *C, unsigned K, unsigned N) { rowreuse_body<0>(A, B, C, K, N); }
extern "C" __global__ void rowreuse_nc(const float *A, const float *B, float *C, unsigned K, unsigned N) { rowreuse_body<1>(A, B, C, K, N); }
extern "C" __global__ void rowreuse_cg(const float *A, const float *B, float *C, unsigned K, unsigned N) { rowreuse_body<2>(A, B, C, K, N); }
extern "C" __global__ void rowreuse_bc(const float *A, const float *B, float *C, unsigned K, unsigned N) { rowreuse_body<3>(A, B, C, K, N); }
// reread: block b re-reads words [b*W, (b+1)*W) P times (W = F/4), coalesced.
extern "C" __global__ void reread(const float *A, float *C, unsigned W, unsigned P) {
  const float *a = A + (size_t)blockIdx.x * W;
  float acc = 0;
  for (unsigned p = 0; p < P; p++)
    for (unsigned i = threadIdx.x; i < W; i += blockDim.x) acc += a[i];
  C[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
extern "C" __global__ void shortcopy(const float *a, float *b, unsigned L) {
  size_t base = (size_t)blockIdx.x * blockDim.x * L + threadIdx.x;
  for (unsigned j = 0; j < L; j++) b[base + (size_t)j * blockDim.x] = a[base + (size_t)j * blockDim.x];
}

static char *P0, *P1, *P2;
static void st(const char *name, bool full, unsigned n, unsigned s) {
  int grid = num_sms() * 4, block = 256;
  float ms = full ? time_median([&] { st_full<<<grid, block>>>((float4 *)P0, n, s); })
                  : time_median([&] { st_stride<<<grid, block>>>((float *)P0, n, s); });
  printf("cfg name=%s kernel=%s grid=%d block=%d args=%u,%u event_ms=%.5f\n", name, full ? "st_full" : "st_stride", grid, block, n, s, ms);
}
static void rr(const char *name, int mode, unsigned K, unsigned N) {
  int block = 256, grid = N / block;
  const float *A = (const float *)P0, *B = (const float *)P1; float *C = (float *)P2;
  float ms = time_median([&] {
    switch (mode) {
    case 0: rowreuse<<<grid, block>>>(A, B, C, K, N); break;
    case 1: rowreuse_nc<<<grid, block>>>(A, B, C, K, N); break;
    case 2: rowreuse_cg<<<grid, block>>>(A, B, C, K, N); break;
    default: rowreuse_bc<<<grid, block>>>(A, B, C, K, N); break;
    }
  });
  const char *k[] = {"rowreuse", "rowreuse_nc", "rowreuse_cg", "rowreuse_bc"};
  printf("cfg name=%s kernel=%s grid=%d block=%d args=%u,%u event_ms=%.5f\n", name, k[mode], grid, block, K, N, ms);
}
static void rer(const char *name, unsigned F, unsigned P) {
  int grid = num_sms(), block = 1024;
  float ms = time_median([&] { reread<<<grid, block>>>((const float *)P0, (float *)P2, F / 4, P); });
  printf("cfg name=%s kernel=reread grid=%d block=%d args=%u,%u event_ms=%.5f\n", name, grid, block, F / 4, P, ms);
}
static void sb(const char *name, int block, unsigned L) {
  unsigned N = 1u << 22; int grid = N / (block * L);
  float ms = time_median([&] { shortcopy<<<grid, block>>>((const float *)P0, (float *)P1, L); });
  printf("cfg name=%s kernel=shortcopy grid=%d block=%d args=%u event_ms=%.5f\n", name, grid, block, L, ms);
}

int main(int argc, char **argv) {
  bench_mode(argc, argv);
  size_t big = 160u << 20;
  CK(cudaMalloc(&P0, big)); CK(cudaMalloc(&P1, big)); CK(cudaMalloc(&P2, 64u << 20));
  CK(cudaMemset(P0, 0x3f, big)); CK(cudaMemset(P1, 0x3f, big)); CK(cudaMemset(P2, 0, 64u << 20));
  CK(cudaDeviceSynchronize());
  int sms = num_sms();
  if (sms != 132) fprintf(stderr, "warning: %d SMs, the launch files assume 132\n", sms);
  // stores: 2^20 words at a lane stride of s words (footprint 4 MiB * s)
  for (unsigned s : {1u, 2u, 4u, 8u, 16u, 32u}) { char nm[64]; snprintf(nm, 64, "st_stride_s%u", s); st(nm, false, 1u << 20, s); }
  // whole sectors at a stride of s sectors: 2^17 sectors (footprint 4 MiB * s)
  for (unsigned s : {1u, 4u, 32u}) { char nm[64]; snprintf(nm, 64, "st_full_s%u", s); st(nm, true, 1u << 17, s); }
  // L1 reuse: K words a row, N rows (one a thread)
  rr("l1_rowreuse_k32", 0, 32, 1u << 16);
  rr("l1_rowreuse_k128", 0, 128, 1u << 16);
  rr("l1_rowreuse_nc_k32", 1, 32, 1u << 16);
  rr("l1_rowreuse_nc_k128", 1, 128, 1u << 16);
  rr("l1_rowreuse_cg_k32", 2, 32, 1u << 16);
  rr("l1_rowreuse_cg_k128", 2, 128, 1u << 16);
  rr("l1_rowreuse_bc_k32", 3, 32, 1u << 16);
  rr("l1_rowreuse_bc_k128", 3, 128, 1u << 16);
  for (unsigned F : {32u << 10, 64u << 10, 128u << 10, 192u << 10, 256u << 10}) { char nm[64]; snprintf(nm, 64, "l1_reread_f%uk", F >> 10); rer(nm, F, 4); }
  // short blocks: 2^22 floats copied, L a thread
  for (unsigned L : {1u, 2u, 4u, 8u, 16u, 64u}) { char nm[64]; snprintf(nm, 64, "sb_b256_l%u", L); sb(nm, 256, L); }
  sb("sb_b64_l4", 64, 4);
  sb("sb_b1024_l1", 1024, 1);
  sb("sb_b128_l1", 128, 1);
  return 0;
}
