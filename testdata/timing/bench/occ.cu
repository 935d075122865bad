// Occupancy sweep (latency hiding): a fixed grid of 132*16 blocks of 128 threads; residency limited
// to R = 1, 2, 4, 8, 16 blocks per SM with dynamic shared memory, so the grid runs in 16/R waves.
//   occ_stream: each thread copies 16 floats (coalesced, stride = all threads);
//   occ_fma:    each thread runs one dependent chain of `n` FFMA (latency bound per warp);
//   occ_chase:  each thread runs `n` dependent global loads at pseudo-random words of a zeroed
//               64 MiB table: j = (t[j] + j*2654435761 + 12345) & mask (the load value is 0, the
//               address still depends on it). chase_l2: the same over a 4 MiB table (L2 hits).
// Usage: occ [full|sim]. Output: occ kernel=K R=R resident=RR grid=G block=B smem=S n=N event_ms=T
#include "bench.h"

extern "C" __global__ void occ_stream(const float *__restrict__ a, float *__restrict__ b) {
  unsigned tid = blockIdx.x * blockDim.x + threadIdx.x, nt = gridDim.x * blockDim.x;
#pragma unroll 4
  for (unsigned k = 0; k < 16; k++) b[tid + k * nt] = a[tid + k * nt];
}
extern "C" __global__ void occ_fma(float *out, int n, float y) {
  float x = (float)threadIdx.x;
  for (int i = 0; i < n; i += 8) {
#pragma unroll
    for (int k = 0; k < 8; k++) asm volatile("fma.rn.f32 %0, %0, %1, %1;" : "+f"(x) : "f"(y));
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}
extern "C" __global__ void occ_chase(const unsigned *t, unsigned mask, int n, unsigned *out) {
  unsigned j = (blockIdx.x * blockDim.x + threadIdx.x) * 977u & mask;
  for (int i = 0; i < n; i++) j = (t[j] + j * 2654435761u + 12345u) & mask;
  out[blockIdx.x * blockDim.x + threadIdx.x] = j;
}

int main(int argc, char **argv) {
  bench_mode(argc, argv);
  allow_smem(occ_stream); allow_smem(occ_fma); allow_smem(occ_chase);
  int sms = num_sms(), block = 128, grid = sms * 16;
  size_t nthreads = (size_t)grid * block;
  float *a, *b; unsigned *t, *o;
  CK(cudaMalloc(&a, nthreads * 16 * 4)); CK(cudaMalloc(&b, nthreads * 16 * 4));
  CK(cudaMemset(a, 0, nthreads * 16 * 4));
  CK(cudaMalloc(&t, 64u << 20)); CK(cudaMemset(t, 0, 64u << 20)); CK(cudaMalloc(&o, nthreads * 4));
  unsigned mask = (16u << 20) - 1, mask_l2 = (1u << 20) - 1;  // 64 MiB (DRAM) and 4 MiB (L2) tables
  int nfma = 256, nchase = 16;
  for (int R : {1, 2, 4, 8, 16}) {
    int smem = smem_for_resident(R);
    float ms = time_median([&] { occ_stream<<<grid, block, smem>>>(a, b); });
    printf("occ kernel=stream R=%d resident=%d grid=%d block=%d smem=%d n=16 event_ms=%.5f\n", R, resident(occ_stream, block, smem), grid, block, smem, ms);
    ms = time_median([&] { occ_fma<<<grid, block, smem>>>((float *)o, nfma, 1.0f); });
    printf("occ kernel=fma R=%d resident=%d grid=%d block=%d smem=%d n=%d event_ms=%.5f\n", R, resident(occ_fma, block, smem), grid, block, smem, nfma, ms);
    ms = time_median([&] { occ_chase<<<grid, block, smem>>>(t, mask, nchase, o); });
    printf("occ kernel=chase R=%d resident=%d grid=%d block=%d smem=%d n=%d event_ms=%.5f\n", R, resident(occ_chase, block, smem), grid, block, smem, nchase, ms);
    ms = time_median([&] { occ_chase<<<grid, block, smem>>>(t, mask_l2, nchase, o); });
    printf("occ kernel=chase_l2 R=%d resident=%d grid=%d block=%d smem=%d n=%d table_bytes=%u event_ms=%.5f\n", R, resident(occ_chase, block, smem), grid, block, smem, nchase, (mask_l2 + 1) * 4, ms);
  }
  return 0;
}
