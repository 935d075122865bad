// dram.cu: the H100's DRAM read and write bandwidth, and what its L2 writes back during a kernel (issue 19,
// helper dram28). Every kernel moves float4s (whole 32-byte sectors, coalesced): a thread handles K of them at
// a stride of the block's size inside the block's own B*K float4s, all K loads issued before any is used
// (unrolled, unguarded, __restrict__), so a warp has K 512-byte loads in flight and every SM is full.
//   d_read8 / d_read4   K = 8 / 4 loads a thread, summed; the sum is stored only if it is -1 (never: the
//                       buffers hold 0x3f3f3f3f), so the kernel's DRAM traffic is its reads alone.
//   d_write8 / d_write4 K = 8 / 4 stores of whole sectors a thread: writes alone.
//   d_copy8 / d_copy4   K = 8 / 4 loads, then their K stores to another buffer.
// SPLIT.md (written before the device call) says which footprints are studied and which held out.
#include "../bench/bench.h"

#define IDX size_t base = (size_t)blockIdx.x * blockDim.x * K + threadIdx.x
#define READ(name, KK)                                                                       \
  extern "C" __global__ void name(const float4 *__restrict__ a, float *__restrict__ out) {  \
    const int K = KK; IDX; float4 v[K];                                                      \
    _Pragma("unroll") for (int j = 0; j < K; j++) v[j] = a[base + (size_t)j * blockDim.x];  \
    float s = 0;                                                                             \
    _Pragma("unroll") for (int j = 0; j < K; j++) s += v[j].x + v[j].y + v[j].z + v[j].w;    \
    if (s == -1.0f) out[(size_t)blockIdx.x * blockDim.x + threadIdx.x] = s;                  \
  }
#define WRITE(name, KK)                                                                      \
  extern "C" __global__ void name(float4 *__restrict__ b, float x) {                        \
    const int K = KK; IDX;                                                                   \
    _Pragma("unroll") for (int j = 0; j < K; j++)                                            \
      b[base + (size_t)j * blockDim.x] = make_float4(x, x, x, x);                            \
  }
#define COPY(name, KK)                                                                       \
  extern "C" __global__ void name(const float4 *__restrict__ a, float4 *__restrict__ b) {   \
    const int K = KK; IDX; float4 v[K];                                                      \
    _Pragma("unroll") for (int j = 0; j < K; j++) v[j] = a[base + (size_t)j * blockDim.x];  \
    _Pragma("unroll") for (int j = 0; j < K; j++) b[base + (size_t)j * blockDim.x] = v[j];  \
  }
READ(d_read8, 8) READ(d_read4, 4)
WRITE(d_write8, 8) WRITE(d_write4, 4)
COPY(d_copy8, 8) COPY(d_copy4, 4)

static float4 *g_A, *g_B;
static float *g_O;
static const size_t MAXB = (size_t)256 << 20; // bytes a buffer

static void cfg(const char *kernel, int K, int block, int mib) {
  size_t bytes = (size_t)mib << 20;
  int grid = (int)(bytes / (16 * (size_t)K * block));
  char name[64];
  snprintf(name, sizeof name, "%s_b%d_m%d", kernel, block, mib);
  const char *args = "";
  float ms = 0;
  if (!strcmp(kernel, "d_read8")) { args = "a,o"; ms = time_median([&] { d_read8<<<grid, block>>>(g_A, g_O); }); }
  if (!strcmp(kernel, "d_read4")) { args = "a,o"; ms = time_median([&] { d_read4<<<grid, block>>>(g_A, g_O); }); }
  if (!strcmp(kernel, "d_write8")) { args = "b,f32:1.5"; ms = time_median([&] { d_write8<<<grid, block>>>(g_B, 1.5f); }); }
  if (!strcmp(kernel, "d_write4")) { args = "b,f32:1.5"; ms = time_median([&] { d_write4<<<grid, block>>>(g_B, 1.5f); }); }
  if (!strcmp(kernel, "d_copy8")) { args = "a,b"; ms = time_median([&] { d_copy8<<<grid, block>>>(g_A, g_B); }); }
  if (!strcmp(kernel, "d_copy4")) { args = "a,b"; ms = time_median([&] { d_copy4<<<grid, block>>>(g_A, g_B); }); }
  printf("cfg name=%s kernel=%s grid=%d block=%d smem=0 mib=%d args=%s event_ms=%.5f\n", name, kernel, grid, block,
         mib, args, ms);
  fflush(stdout);
}

int main(int argc, char **argv) {
  bench_mode(argc, argv);
  if (num_sms() != 132) fprintf(stderr, "warning: %d SMs, the configurations assume 132\n", num_sms());
  CK(cudaMalloc(&g_A, MAXB)); CK(cudaMalloc(&g_B, MAXB)); CK(cudaMalloc(&g_O, 4 << 20));
  CK(cudaMemset(g_A, 0x3f, MAXB)); CK(cudaMemset(g_B, 0, MAXB)); CK(cudaMemset(g_O, 0, 4 << 20));
  CK(cudaDeviceSynchronize());
  // Footprints in MiB (a buffer's); SPLIT.md says which are studied.
  for (int m : {16, 64, 256}) cfg("d_read8", 8, 256, m);
  for (int m : {32, 128}) cfg("d_read4", 4, 128, m);
  for (int m : {16, 64, 256}) cfg("d_write8", 8, 256, m);
  for (int m : {32, 128}) cfg("d_write4", 4, 128, m);
  for (int m : {8, 16, 24, 32, 48, 64, 128, 256}) cfg("d_copy8", 8, 256, m);
  for (int m : {16, 128}) cfg("d_copy4", 4, 128, m);
  return 0;
}
