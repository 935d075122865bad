// l2store.cu: what the H100's L2 pays for stores (issue 19, helper dram7). Every measured kernel starts with the
// L2 flushed (Nsight Compute's --cache-control all; for the CUDA-event times init_flush reads 256 MiB first) and
// runs blocks of 1024 threads, at most one a SM below 133 blocks. Block b owns the C = 128 KiB chunk at b*C of its
// buffer(s) and goes over it P times (a "pass"); a pass touches every byte of the chunk once, so every kernel of a
// grid moves the same bytes whatever its address pattern.
//   st_e4s<S> / st_e16s<S>  stores of E = 4 or 16 bytes, lane l of a warp at lane stride S bytes: unit u = i*1024+t
//                          of a sub-pass stores at u*S + o, the sub-passes o = 0, E, .., S-E filling the chunk.
//                          e16s16 (a warp 4 whole lines), e4s4 (a whole line), e4s8 (8 sectors half written),
//                          e4s32 (32 sectors, 4 bytes each: 32 sectors a request), e4s128 (32 lines, 4 bytes each).
//   ld_e16s16 / ld_e4s32    the same patterns read with ld.global.cg (through the L2 only), summed; the sum is
//                          stored only if it is -1 (never: the buffers hold 0x3f3f3f3f).
//   cp_e16s16              per pass, the chunk of a read (ld.global.cg) and stored into the chunk of b.
//   stld_e16s16            per pass, the chunk stored, __syncthreads, then read back with ld.global.cg.
// Values stored are x (a parameter) plus the pass and the unit, so nothing stored is constant across passes.
// SPLIT.md (written before the device call) says which rows are studied and which held out.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "CUDA error %s at %s:%d: %s\n", #x, __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1);} } while (0)

#define CHUNK (128 << 10)
#define BLOCK 1024

template <int E, int S> __device__ __forceinline__ void store_pass(char *c, int p, float x) {
  const int per = CHUNK / (S * BLOCK); // units a thread stores in a sub-pass
#pragma unroll 1
  for (int o = 0; o < S; o += E) {
#pragma unroll
    for (int i = 0; i < (per > 0 ? per : 1); i++) {
      size_t u = (size_t)i * BLOCK + threadIdx.x;
      float v = x + (float)(p * 7 + o) + (float)u;
      if (E == 16) *(float4 *)(c + u * S + o) = make_float4(v, v, v, v);
      else *(float *)(c + u * S + o) = v;
    }
  }
}

#define ST(E, S)                                                                                   \
  extern "C" __global__ void __launch_bounds__(BLOCK) st_e##E##s##S(char *__restrict__ b, int P, float x) { \
    char *c = b + (size_t)blockIdx.x * CHUNK;                                                      \
    _Pragma("unroll 1") for (int p = 0; p < P; p++) store_pass<E, S>(c, p, x);                    \
  }
ST(16, 16) ST(4, 4) ST(4, 8) ST(4, 32) ST(4, 128)

extern "C" __global__ void __launch_bounds__(BLOCK) ld_e16s16(const char *__restrict__ a, float *__restrict__ out, int P) {
  const char *c = a + (size_t)blockIdx.x * CHUNK;
  float s = 0;
  const int per = CHUNK / (16 * BLOCK);
#pragma unroll 1
  for (int p = 0; p < P; p++) {
#pragma unroll
    for (int i = 0; i < per; i++) {
      float4 v = __ldcg((const float4 *)(c + ((size_t)i * BLOCK + threadIdx.x) * 16));
      s += v.x + v.y + v.z + v.w;
    }
  }
  if (s == -1.0f) out[(size_t)blockIdx.x * BLOCK + threadIdx.x] = s;
}

extern "C" __global__ void __launch_bounds__(BLOCK) ld_e4s32(const char *__restrict__ a, float *__restrict__ out, int P) {
  const char *c = a + (size_t)blockIdx.x * CHUNK;
  float s = 0;
  const int per = CHUNK / (32 * BLOCK);
#pragma unroll 1
  for (int p = 0; p < P; p++) {
#pragma unroll 1
    for (int o = 0; o < 32; o += 4) {
#pragma unroll
      for (int i = 0; i < per; i++) s += __ldcg((const float *)(c + ((size_t)i * BLOCK + threadIdx.x) * 32 + o));
    }
  }
  if (s == -1.0f) out[(size_t)blockIdx.x * BLOCK + threadIdx.x] = s;
}

extern "C" __global__ void __launch_bounds__(BLOCK) cp_e16s16(const char *__restrict__ a, char *__restrict__ b, int P) {
  const char *ca = a + (size_t)blockIdx.x * CHUNK;
  char *cb = b + (size_t)blockIdx.x * CHUNK;
  const int per = CHUNK / (16 * BLOCK);
#pragma unroll 1
  for (int p = 0; p < P; p++) {
    float4 v[per];
#pragma unroll
    for (int i = 0; i < per; i++) v[i] = __ldcg((const float4 *)(ca + ((size_t)i * BLOCK + threadIdx.x) * 16));
#pragma unroll
    for (int i = 0; i < per; i++) {
      v[i].x += (float)p;
      *(float4 *)(cb + ((size_t)i * BLOCK + threadIdx.x) * 16) = v[i];
    }
  }
}

extern "C" __global__ void __launch_bounds__(BLOCK) stld_e16s16(char *__restrict__ b, float *__restrict__ out, int P, float x) {
  char *c = b + (size_t)blockIdx.x * CHUNK;
  const int per = CHUNK / (16 * BLOCK);
  float s = 0;
#pragma unroll 1
  for (int p = 0; p < P; p++) {
    store_pass<16, 16>(c, p, x);
    __syncthreads();
#pragma unroll
    for (int i = 0; i < per; i++) {
      // read another warp's data: unit shifted by 32 threads
      float4 v = __ldcg((const float4 *)(c + ((size_t)i * BLOCK + ((threadIdx.x + 32) & (BLOCK - 1))) * 16));
      s += v.x + v.y + v.z + v.w;
    }
    __syncthreads();
  }
  if (s == -1.0f) out[(size_t)blockIdx.x * BLOCK + threadIdx.x] = s;
}

extern "C" __global__ void init_flush(const float4 *__restrict__ f, size_t n, float *__restrict__ out) {
  float s = 0;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    float4 v = f[i]; s += v.x;
  }
  if (s == -1.0f) out[0] = s;
}

static char *g_A, *g_B, *g_F;
static float *g_O;
static const size_t MAXB = (size_t)80 << 20, FLUSHB = (size_t)256 << 20;
static bool g_ncu = getenv("BENCH_NCU") != nullptr;

static void flush() {
  init_flush<<<264, 1024>>>((const float4 *)g_F, FLUSHB / 16, g_O);
}

template <class F> static float timed(F launch) {
  if (g_ncu) { launch(); CK(cudaGetLastError()); CK(cudaDeviceSynchronize()); return 0; }
  cudaEvent_t a, b; CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b));
  std::vector<float> t;
  for (int r = 0; r < 8; r++) {
    flush(); CK(cudaDeviceSynchronize());
    CK(cudaEventRecord(a)); launch(); CK(cudaEventRecord(b)); CK(cudaEventSynchronize(b));
    CK(cudaGetLastError());
    float ms; CK(cudaEventElapsedTime(&ms, a, b)); if (r > 0) t.push_back(ms);
  }
  CK(cudaEventDestroy(a)); CK(cudaEventDestroy(b));
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

static void cfg(const char *k, int grid, int P) {
  char name[64];
  snprintf(name, sizeof name, "%s_g%d_p%d", k, grid, P);
  size_t kib = (size_t)grid * (CHUNK >> 10);
  char args[64] = "";
  float ms = -1;
#define STC(E, S) if (!strcmp(k, "st_e" #E "s" #S)) { snprintf(args, sizeof args, "b,i32:%d,f32:1.5", P); ms = timed([&] { st_e##E##s##S<<<grid, BLOCK>>>(g_B, P, 1.5f); }); }
  STC(16, 16) STC(4, 4) STC(4, 8) STC(4, 32) STC(4, 128)
  if (!strcmp(k, "ld_e16s16")) { snprintf(args, sizeof args, "a,o,i32:%d", P); ms = timed([&] { ld_e16s16<<<grid, BLOCK>>>(g_A, g_O, P); }); }
  if (!strcmp(k, "ld_e4s32")) { snprintf(args, sizeof args, "a,o,i32:%d", P); ms = timed([&] { ld_e4s32<<<grid, BLOCK>>>(g_A, g_O, P); }); }
  if (!strcmp(k, "cp_e16s16")) { snprintf(args, sizeof args, "a,b,i32:%d", P); ms = timed([&] { cp_e16s16<<<grid, BLOCK>>>(g_A, g_B, P); }); }
  if (!strcmp(k, "stld_e16s16")) { snprintf(args, sizeof args, "b,o,i32:%d,f32:1.5", P); ms = timed([&] { stld_e16s16<<<grid, BLOCK>>>(g_B, g_O, P, 1.5f); }); }
  if (ms < 0) { fprintf(stderr, "unknown kernel %s\n", k); exit(1); }
  printf("cfg name=%s kernel=%s grid=%d block=%d smem=0 kib=%zu passes=%d args=%s event_ms=%.5f\n", name, k, grid,
         BLOCK, kib, P, args, ms);
  fflush(stdout);
}

int main(int argc, char **argv) {
  int n; CK(cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, 0));
  int G = argc > 1 ? atoi(argv[1]) : n; // the full grid: one block a SM (132 on the H100 and H200)
  CK(cudaMalloc(&g_A, MAXB)); CK(cudaMalloc(&g_B, MAXB)); CK(cudaMalloc(&g_F, FLUSHB)); CK(cudaMalloc(&g_O, 8 << 20));
  CK(cudaMemset(g_A, 0x3f, MAXB)); CK(cudaMemset(g_B, 0, MAXB)); CK(cudaMemset(g_F, 0, FLUSHB)); CK(cudaMemset(g_O, 0, 8 << 20));
  CK(cudaDeviceSynchronize());
  const char *st[] = {"st_e16s16", "st_e4s4", "st_e4s8", "st_e4s32", "st_e4s128"};
  // 1. store bandwidth by SM count, 4 passes (the first cold, three over lines the L2 holds dirty)
  for (const char *k : st) for (int g : {1, 8, G / 4, G / 2, G}) cfg(k, g, 4);
  // 2. one pass, every SM (cold: every line first written)
  for (const char *k : st) cfg(k, G, 1);
  // 3. footprints past the L2: one pass, 2 to 4 blocks a SM's worth (33 to 66 MiB)
  for (const char *k : {"st_e16s16", "st_e4s32"}) for (int m : {2, 3, 4}) cfg(k, m * G, 1);
  // 4. reads of the same patterns, for the L2's read bandwidth beside its write bandwidth
  for (const char *k : {"ld_e16s16", "ld_e4s32"}) for (int g : {1, G / 4, G}) cfg(k, g, 4);
  // 5. copies inside the L2, and stores read back
  cfg("cp_e16s16", G, 1); cfg("cp_e16s16", G, 4); cfg("stld_e16s16", G, 4); cfg("stld_e16s16", G / 4, 4);
  return 0;
}
